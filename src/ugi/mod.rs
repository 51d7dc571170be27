//! The UGI protocol of docs/protocol.md (UCI made game-agnostic), written once for every
//! engine that speaks it: the native `buttonup-engine` (`engine/`) and the Python
//! package's `buttonup engine` are doors that read lines and hand them to one [`Engine`],
//! which answers on an [`Output`]. The door only hands lines over: the engine carries
//! them out in order on a thread of its own, and each search runs on another, so
//! `isready`, `stop` and `quit` are answered at once whatever waits; bad input never
//! stops the engine: it answers `info string error: ...`.
//!
//! ```
//! use buttonup::ugi::{Engine, Output};
//! use std::sync::{Arc, Mutex};
//!
//! let lines = Arc::new(Mutex::new(Vec::new()));
//! let sink = Arc::clone(&lines);
//! let out = Output::to_lines(move |line: &str| sink.lock().unwrap().push(line.to_string()));
//! let mut engine = Engine::new(out, "doc-engine");
//! for line in ["position fen W/R/B/W/B/R/R/W/B r", "go depth 30"] {
//!     engine.handle(line);
//! }
//! engine.end_of_input(); // the search answers first: `quit` would stop it
//! engine.finish();
//! assert_eq!(lines.lock().unwrap().last().unwrap(), "bestmove 3");
//! ```

mod engine;
mod go;
mod lines;
mod output;
mod protocol;

pub use engine::Engine;
pub use go::{parse_int, Go, Spin, OPTIONS};
pub use lines::{decode, read_line, shorten, words, Line, MAX_LINE};
pub use output::{exit_quietly, Output};
