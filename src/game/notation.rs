//! The notation `PILES SIDE` (see `docs/notation.md`): piles clockwise joined by `/`,
//! each bottom first in the letters `R`, `B`, `W`, then `r` or `b` for the side to move.

use std::fmt;
use std::str::FromStr;

use crate::game::error::{NotationError, PositionError};
use crate::game::rules::{Builder, Colour, Player, Position};

/// White space allowed around the notation and between its two fields.
fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// Fails on the first character outside ASCII, naming its character index.
fn check_ascii(text: &str) -> Result<(), NotationError> {
    match text.chars().enumerate().find(|(_, c)| !c.is_ascii()) {
        Some((index, character)) => Err(NotationError::NonAscii { index, character }),
        None => Ok(()),
    }
}

/// Parses the notation of a position.
pub fn parse(text: &str) -> Result<Position, NotationError> {
    check_ascii(text)?;
    let trimmed = text.trim_matches(is_blank);
    if trimmed.is_empty() {
        return Err(NotationError::Empty);
    }
    // All ASCII from here on: byte offsets are character indices.
    let offset = text.len() - text.trim_start_matches(is_blank).len();
    let mut fields = trimmed.split(is_blank).filter(|field| !field.is_empty());
    let piles = fields.next().unwrap_or_default();
    let side = fields.next().ok_or(NotationError::MissingSide)?;
    if let Some(extra) = fields.next() {
        return Err(NotationError::ExtraField {
            text: extra.to_string(),
        });
    }
    let mut builder = Builder::default();
    let mut pile = 0;
    let mut pile_len = 0;
    for (i, character) in piles.char_indices() {
        if character == '/' {
            if pile_len == 0 {
                return Err(PositionError::EmptyPile { pile }.into());
            }
            pile += 1;
            pile_len = 0;
            continue;
        }
        let colour = Colour::from_letter(character).ok_or(NotationError::BadButton {
            index: offset + i,
            character,
        })?;
        builder.push(colour, pile_len == 0)?;
        pile_len += 1;
    }
    if pile_len == 0 {
        return Err(PositionError::EmptyPile { pile }.into());
    }
    let to_move = match side {
        "r" => Player::Red,
        "b" => Player::Black,
        _ => {
            return Err(NotationError::BadSide {
                text: side.to_string(),
            })
        }
    };
    Ok(builder.finish(to_move)?)
}

/// Parses a start order: one letter per one-button pile, e.g. `WRBWBRRWB`.
pub fn parse_start(order: &str, to_move: Player) -> Result<Position, NotationError> {
    check_ascii(order)?;
    let mut builder = Builder::default();
    for (index, character) in order.char_indices() {
        let colour = Colour::from_letter(character)
            .ok_or(NotationError::BadStartButton { index, character })?;
        builder.push(colour, true)?;
    }
    if order.is_empty() {
        return Err(NotationError::Empty);
    }
    Ok(builder.finish(to_move)?)
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (p, pile) in self.piles().enumerate() {
            if p > 0 {
                f.write_str("/")?;
            }
            for colour in pile {
                write!(f, "{}", colour.letter())?;
            }
        }
        write!(f, " {}", self.to_move().letter())
    }
}

/// The notation, as Python's `repr` writes it: `Position("W/R/B/W/B/R/R/W/B r")`, not
/// the bit fields (so that a failed `assert_eq!` on positions, or on a
/// [`Battle`](crate::Battle) that holds them, reads as the game).
impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(\"{self}\")")
    }
}

impl FromStr for Position {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Position, NotationError> {
        parse(text)
    }
}

impl Position {
    /// The characters of the notation, one at a time (what `Display` writes).
    fn notation_bytes(&self) -> impl Iterator<Item = u8> + '_ {
        self.buttons()
            .enumerate()
            .flat_map(move |(i, colour)| {
                let slash = (i > 0 && self.is_bottom(i)).then_some(b'/');
                slash.into_iter().chain([colour.letter() as u8])
            })
            .chain([b' ', self.to_move().letter() as u8])
    }
}

/// Positions are ordered by their notation text, as strings compare (byte by byte:
/// `' ' < '/' < 'B' < 'R' < 'W' < 'b' < 'r'`), so that sorting positions sorts their
/// texts. Equal positions have equal texts and no others do, so the order agrees with
/// `==`.
impl Ord for Position {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.notation_bytes().cmp(other.notation_bytes())
    }
}

impl PartialOrd for Position {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn debug_writes_the_notation() {
        let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
        assert_eq!(format!("{start:?}"), r#"Position("W/R/B/W/B/R/R/W/B r")"#);
        let outcome = start.play(3).unwrap();
        let text = format!("{outcome:?}");
        assert!(
            text.contains(r#"position: Position("W/R/B/BW/R/R/W/B b")"#),
            "{text}"
        );
        assert_eq!(
            format!("{:?}", [start]),
            r#"[Position("W/R/B/W/B/R/R/W/B r")]"#
        );
    }

    #[test]
    fn positions_sort_as_their_texts() {
        let texts = [
            "W/R/B/W/B/R/R/W/B r",
            "W/R/B/W/B/R/R/W/B b",
            "WR/B r",
            "W/RB r",
            "RBWWBRWBR b",
            "RB/W b",
            "RBW r",
            "W r",
        ];
        for a in texts {
            for b in texts {
                let (pa, pb) = (parse(a).unwrap(), parse(b).unwrap());
                assert_eq!(pa.cmp(&pb), a.cmp(b), "{a} against {b}");
                assert_eq!(pa == pb, a == b);
            }
        }
    }
}
