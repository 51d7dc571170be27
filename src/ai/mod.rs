//! The AI players: one graded scale of levels, 1 (random moves) to 10 (perfect play for
//! the match), the one AI of every front end (the Python bots of `buttonup.ai`, the
//! native engine, the C library, WebAssembly).
//!
//! A level below 9 first draws, with the level's chance ([`Level::epsilon`]), whether to
//! play a uniformly random legal move; otherwise it plays perfectly for the battle
//! margin, choosing at random between equally good moves. Level 9 always plays
//! perfectly for the margin; level 10 plays for the match when it is given one (the
//! probability of winning the match, exact, from [`crate::odds`]).
//!
//! ```
//! use buttonup::ai::Bot;
//! use buttonup::game::notation;
//!
//! let start = notation::parse("W/R/B/W/B/R/R/W/B r").unwrap();
//! let mut perfect = Bot::new(9, 1).unwrap();
//! assert_eq!(perfect.choose(&start, None), Some(3));
//! let mut random = Bot::new(1, 7).unwrap();
//! assert!(start.is_legal(random.choose(&start, None).unwrap()));
//! ```

mod bot;
mod level;

pub use bot::Bot;
pub use level::{BotError, Level, ScalePoint, LEVELS, MAX_RATING, MIN_RATING, RATINGS};
