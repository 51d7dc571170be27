//! buttonup: the rules of the board game Button Up! (Bruno Cathala, 2012), fast.
//!
//! The core is plain Rust; the Python bindings (`buttonup._core`) are built only with the
//! `python` feature.
//!
//! ```
//! use buttonup::{notation, perft::perft};
//! let start = notation::parse("W/R/B/W/B/R/R/W/B r").unwrap();
//! let next = start.play(3).unwrap();
//! assert_eq!(next.position.to_string(), "W/R/B/BW/R/R/W/B b");
//! assert_eq!(perft(&start, 1), 3);
//! ```

pub mod batch;
mod bits;
pub mod error;
pub mod interrupt;
pub mod match_rules;
pub mod notation;
pub mod odds;
pub mod parallel;
pub mod perft;
pub mod pieces;
pub mod playout;
pub mod playout_graph;
pub mod reachable;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod search;
pub mod variant;
pub mod vecenv;

#[cfg(feature = "python")]
mod bindings;

pub use error::{IllegalMove, NotationError, PositionError};
pub use match_rules::{Match, MatchError};
pub use rules::{Colour, MoveOutcome, Player, Position, Scoring, MAX_BUTTONS};
pub use variant::Capability;
