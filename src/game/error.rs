//! Errors of the core. Their messages are part of the API: the Python reference engine
//! words them the same way, and the bindings pass them on unchanged.

use std::fmt;

/// `From` for errors that wrap others: `wraps! { Error::Variant(Wrapped), ... }` makes
/// each `Wrapped` error the `Error::Variant` that holds it.
macro_rules! wraps {
    ($($error:ident :: $variant:ident ( $wrapped:ty )),+ $(,)?) => {
        $(
            impl From<$wrapped> for $error {
                fn from(error: $wrapped) -> Self {
                    $error::$variant(error)
                }
            }
        )+
    };
}
pub(crate) use wraps;

/// Why a list of piles is not a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// Pile `pile` has no button.
    EmptyPile {
        /// The pile, from 0.
        pile: usize,
    },
    /// More buttons than a position can hold.
    TooManyButtons {
        /// The most a position holds.
        max: usize,
    },
    /// No button at all.
    NoButtons,
    /// No white button: no move could ever be played.
    NoWhite,
}

crate::game::error_kind::one_kind! { PositionError => Notation }

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::EmptyPile { pile } => write!(
                f,
                "pile {pile} is empty (two '/' in a row, or a '/' at either end of the piles)"
            ),
            PositionError::TooManyButtons { max } => {
                write!(f, "too many buttons: a position holds at most {max}")
            }
            PositionError::NoButtons => write!(f, "no buttons: a position needs at least one pile"),
            PositionError::NoWhite => {
                write!(f, "no white button: a position needs at least one W")
            }
        }
    }
}

/// Why a text is not a position in the notation `PILES SIDE`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    /// Nothing but white space.
    Empty,
    /// A character outside ASCII, at a 0-based character index.
    NonAscii {
        /// Where, in characters from 0.
        index: usize,
        /// The character.
        character: char,
    },
    /// The piles are not followed by a side to move.
    MissingSide,
    /// More text after the side to move.
    ExtraField {
        /// The text after the side to move.
        text: String,
    },
    /// The side to move is not `r` or `b`.
    BadSide {
        /// What stands where the side to move should.
        text: String,
    },
    /// A character of the piles that is not `R`, `B`, `W` or `/`, at a 0-based index.
    BadButton {
        /// Where, in characters from 0.
        index: usize,
        /// The character.
        character: char,
    },
    /// A start order (one letter a pile, no '/') holds something else than a button.
    BadStartButton {
        /// Where, in characters from 0.
        index: usize,
        /// The character.
        character: char,
    },
    /// The piles read do not make a position.
    Position(PositionError),
}

crate::game::error_kind::one_kind! { NotationError => Notation }

/// Names a character in a message: itself when printable ASCII, else its code point.
pub(crate) fn describe(character: char) -> String {
    if character.is_ascii_graphic() {
        format!("'{character}'")
    } else {
        format!("U+{:04X}", u32::from(character))
    }
}

/// Shows at most 20 characters of user text in a message (every door quotes user text
/// in the core's words through this).
pub fn shorten(text: &str) -> String {
    shorten_to(text, 20)
}

/// `text` cut to `limit` characters, with `...` when cut.
pub fn shorten_to(text: &str, limit: usize) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(limit).collect();
    if chars.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(
                f,
                "empty notation: expected 'PILES SIDE', for example 'W/R/B/W/B/R/R/W/B r'"
            ),
            NotationError::NonAscii { index, character } => {
                write!(
                    f,
                    "non-ASCII character {} at index {index}",
                    describe(*character)
                )
            }
            NotationError::MissingSide => write!(
                f,
                "missing side to move: expected the piles, a space, then 'r' or 'b'"
            ),
            NotationError::ExtraField { text } => {
                write!(
                    f,
                    "unexpected text after the side to move: '{}'",
                    shorten(text)
                )
            }
            NotationError::BadSide { text } => {
                write!(
                    f,
                    "bad side to move '{}': expected 'r' or 'b'",
                    shorten(text)
                )
            }
            NotationError::BadButton { index, character } => write!(
                f,
                "unknown button {} at index {index}: expected 'R', 'B', 'W' or '/'",
                describe(*character)
            ),
            NotationError::BadStartButton { index, character } => write!(
                f,
                "unknown button {} at index {index}: a start order is one letter a pile, \
                 'R', 'B' or 'W'",
                describe(*character)
            ),
            NotationError::Position(error) => error.fmt(f),
        }
    }
}

wraps! { NotationError::Position(PositionError) }

/// Why a move cannot be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// One pile is left: nothing can be lifted.
    BattleOver,
    /// The index names no pile; `pile` is the move as the caller wrote it.
    NoSuchPile {
        /// The move as the caller wrote it.
        pile: String,
        /// How many piles there are.
        piles: usize,
    },
    /// The pile has no white button (rule 2).
    NoWhite {
        /// The pile, from 0.
        pile: usize,
        /// Its buttons in the notation, bottom first.
        buttons: String,
    },
}

crate::game::error_kind::one_kind! { IllegalMove => IllegalMove }

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::BattleOver => write!(f, "the battle is over: no pile can be lifted"),
            IllegalMove::NoSuchPile { pile, piles } => write!(
                f,
                "there is no pile {}: the piles are numbered 0 to {}",
                shorten(pile),
                piles - 1
            ),
            IllegalMove::NoWhite { pile, buttons } => write!(
                f,
                "pile {pile} ({buttons}) has no white button, so it cannot be lifted"
            ),
        }
    }
}

impl std::error::Error for PositionError {}
impl std::error::Error for NotationError {}
impl std::error::Error for IllegalMove {}
