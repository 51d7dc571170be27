//! `buttonup-engine`: the UGI protocol of docs/protocol.md on standard input and
//! output, natively. Commands are read on the main thread while each search runs on its
//! own, so `isready`, `stop` and `quit` are answered at once; bad input never stops the
//! engine: it answers `info string error: ...` and reads the next line.

mod go;
mod input;
mod output;
mod protocol;
mod signals;

use std::io::{self, BufReader};

use input::{decode, read_line, Line, MAX_LINE};
use output::Output;
use protocol::Engine;

fn main() {
    signals::exit_130_on_interrupt();
    let out = Output::stdout();
    let mut engine = Engine::new(out);
    let mut stdin = BufReader::with_capacity(1 << 16, io::stdin().lock());
    while engine.running() {
        match read_line(&mut stdin) {
            Line::End => {
                engine.handle("quit");
                break;
            }
            Line::TooLong => engine.error(&format!("line longer than {MAX_LINE} bytes ignored")),
            Line::Bytes(raw) => match decode(&raw) {
                Ok(text) => engine.handle(&text),
                Err(message) => engine.error(&message),
            },
        }
    }
    engine.finish();
}
