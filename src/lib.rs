//! buttonup: the rules of the board game Button Up! (Bruno Cathala, 2012), fast.
//!
//! The core is plain Rust, in four groups: the game itself ([`game`]: the pieces, the
//! rules, the notation, scoring, variants, shuffles, the match rules), simulation
//! ([`sim`]: random playouts, the move graph they walk, the batched environment),
//! running work ([`run`]: threads, interruption, batches), and the engines built on the
//! rules ([`search`], the match odds of [`odds`]). The Python bindings
//! (`buttonup._core`) are built only with the `python` feature.
//!
//! ```
//! use buttonup::game::{notation, perft::perft};
//! let start = notation::parse("W/R/B/W/B/R/R/W/B r").unwrap();
//! let next = start.play(3).unwrap();
//! assert_eq!(next.position.to_string(), "W/R/B/BW/R/R/W/B b");
//! assert_eq!(perft(&start, 1), 3);
//! ```

pub mod ai;
pub mod draw;
pub mod game;
pub mod odds;
pub mod run;
pub mod search;
pub mod sim;

#[cfg(feature = "python")]
mod bindings;

pub use game::error::{IllegalMove, NotationError, PositionError};
pub use game::match_rules::{Battle, Match, MatchError};
pub use game::rules::{Colour, MoveOutcome, Player, Position, Sowing, MAX_BUTTONS};
pub use game::scoring::{max_margin, Scoring};
pub use game::standing::{Next, Standing, StandingError, MAX_TARGET, STANDARD_TARGET};
pub use game::variant::{Capability, VariantError, STANDARD_PER_COLOUR};
pub use odds::MatchOdds;
pub use search::{Payoff, Searcher};
