//! `buttonup-engine`: the UGI protocol of docs/protocol.md on standard input and
//! output, natively. The protocol is the core's (`buttonup::ugi`, which the Python
//! package's `buttonup engine` speaks too); this program only reads lines, and owns what
//! a process does on Ctrl-C (status 130) and on a closed output (status 141, quietly).

mod signals;

use std::io::{self, BufReader};

use buttonup::ugi::{decode, exit_quietly, read_line, Engine, Line, Output};

fn main() {
    signals::exit_130_on_interrupt();
    let out = Output::stdout(|| exit_quietly(141));
    let mut engine = Engine::new(out, "buttonup-engine");
    let mut stdin = BufReader::with_capacity(1 << 16, io::stdin().lock());
    while engine.running() {
        match read_line(&mut stdin) {
            Line::End => {
                engine.end_of_input();
                break;
            }
            Line::TooLong => engine.line_too_long(),
            Line::Bytes(raw) => match decode(&raw) {
                Ok(text) => engine.handle(&text),
                Err(message) => engine.error(&message),
            },
        }
    }
    engine.finish();
}
