//! Match records (docs/notation.md, "Match records"): a whole match as text, in the
//! manner of chess's PGN. A few tag lines (`[Red "Ann"]`), then each battle: its number,
//! its start order and starter, its moves in the move notation with `+` after a move
//! that gives an extra move, then its final pile, its result and the score. Comments in
//! braces and values in parentheses may follow moves.
//!
//! [`write()`] writes a [`Match`]; [`read`] reads one back, checking every move by the
//! rules and every written result against the rules' own, and names the line and token
//! of the first fault.
//!
//! ```
//! use buttonup::game::match_rules::Match;
//! use buttonup::game::record::{self, Notes};
//! use buttonup::Player;
//! let mut game = Match::new(Player::Red, 15, 3, 7, &["WRBWBRRWB"]).unwrap();
//! for mv in [3, 0, 0, 1] {
//!     game.play(mv).unwrap();
//! }
//! let text = record::write(&game, &[], &Notes::default(), true).unwrap();
//! assert!(text.ends_with("1. WRBWBRRWB r 3 0 0+ 1+\n"));
//! let back = record::read(&text).unwrap();
//! assert_eq!(back.game.position(), game.position());
//! ```

mod error;
mod lex;
mod read;
mod shape;
mod tally;
mod write;

pub use error::RecordError;

/// The longest record read, in bytes: a match of 30 points at ten buttons of each
/// colour, every move commented, is a fraction of it; a longer text is refused before
/// it is read (reading costs some fifty times its length at the worst).
pub const MAX_RECORD_BYTES: usize = 1 << 20;
pub use read::{read, read_all, text};
pub use write::write;

use crate::game::match_rules::Match;

/// The tags written first, `?` when not given (the people and the occasion).
pub const ROSTER: [&str; 4] = ["Event", "Date", "Red", "Black"];

/// The tags that say what the match is and how it stands: written from the match, read
/// into it (`Target`, `PerColour`, `Seed`, `Deals`) or checked against it (`Score`,
/// `Result`), never kept as text.
pub const MATCH_TAGS: [&str; 6] = ["Target", "PerColour", "Seed", "Deals", "Score", "Result"];

/// Where a comment of a record stands.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Place {
    /// Before the first battle.
    Match,
    /// After the start of a battle (numbered from 1).
    Start(usize),
    /// After a move of a battle: the battle (from 1) and the move (from 0).
    Move(usize, usize),
    /// After a battle's result (the battle, from 1).
    End(usize),
}

/// The comments and values of a record, which the match itself does not keep.
#[derive(Clone, Default, PartialEq, Debug)]
pub struct Notes {
    /// Each comment with its place, in the order of the text.
    pub comments: Vec<(Place, String)>,
    /// The value written after a move (the battle from 1, the move from 0): by
    /// convention the margin the mover can expect, from the mover's side.
    pub values: Vec<((usize, usize), f64)>,
}

/// A record read: its tags (all but [`MATCH_TAGS`], in the order written), the match
/// it holds, and its comments and values.
#[derive(Clone, Debug)]
pub struct Record {
    /// The tags as written, name and value, except [`MATCH_TAGS`].
    pub tags: Vec<(String, String)>,
    /// The match, played up to where the record ends.
    pub game: Match,
    /// The comments and values.
    pub notes: Notes,
}
