//! The notation `PILES SIDE` (see `docs/notation.md`): piles clockwise joined by `/`,
//! each bottom first in the letters `R`, `B`, `W`, then `r` or `b` for the side to move.

use std::fmt;
use std::str::FromStr;

use crate::error::{NotationError, PositionError};
use crate::rules::{Builder, Colour, Player, Position};

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
        let colour =
            Colour::from_letter(character).ok_or(NotationError::BadButton { index, character })?;
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

impl FromStr for Position {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Position, NotationError> {
        parse(text)
    }
}
