//! Checks the Rust engine against the golden playthroughs in `tests/data/`.

use buttonup::game::notation::parse;
use buttonup::game::perft::{perft, perft_plain};
use buttonup::Position;

const GOLDEN: &str = include_str!("data/playthroughs.txt");

fn position(text: &str) -> Position {
    parse(text).unwrap_or_else(|e| panic!("golden position {text:?}: {e}"))
}

fn number<T: std::str::FromStr>(text: &str) -> T {
    text.parse()
        .unwrap_or_else(|_| panic!("golden number {text:?}"))
}

#[test]
fn golden_playthroughs() {
    let mut checked = 0;
    for line in GOLDEN.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (kind, rest) = line.split_once(' ').expect("record kind");
        let fields: Vec<&str> = rest.split(" | ").collect();
        match (kind, fields.as_slice()) {
            ("play", [before, mv, after, extra]) => {
                let outcome = position(before).play(number(mv)).expect(line);
                assert_eq!(outcome.position.to_string(), *after, "{line}");
                assert_eq!(outcome.extra_move, *extra == "extra", "{line}");
                assert_eq!(outcome.position, position(after), "{line}");
            }
            ("score", [final_pile, red, black]) => {
                let sums = position(final_pile).sums();
                assert_eq!(sums, Some((number(red), number(black))), "{line}");
            }
            ("perft", [pos, depth, count]) => {
                let (p, d) = (position(pos), number(depth));
                assert_eq!(perft(&p, d), number::<u64>(count), "{line}");
                assert_eq!(perft_plain(&p, d), number::<u64>(count), "{line}");
            }
            _ => panic!("malformed golden line: {line}"),
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} golden records");
}
