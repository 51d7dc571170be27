//! buttonup: the rules of the board game Button Up! (Bruno Cathala, 2012), an exact
//! solver, an AI of ten levels and exact match odds, fast.
//!
//! The crate is plain Rust with no dependency; the Python extension (`buttonup._core`)
//! is a crate of its own (`python-ext/`), so `cargo add buttonup` brings no PyO3. It
//! is the one core of every door to buttonup: the Python package, the native UGI engine
//! (`engine/`), the C library (`capi/`) and the WebAssembly package (`wasm/`).
//!
//! - [`game`]: the pieces, the rules ([`Position`], [`Position::play`] with its
//!   [`MoveOutcome`], [`Position::scoring`]), the notation, variants, shuffles, the
//!   match rules ([`Match`], [`Standing`]) and match records.
//! - [`search`]: [`search::solve`] and [`search::analyze`] in one call, and a
//!   [`Searcher`] with [`Limits`](search::Limits), a stop flag and iterative deepening.
//! - [`ai`]: the level scale, 1 (random moves) to 10 (perfect play for the match).
//! - [`odds`]: exact probabilities of winning a match ([`MatchOdds`]).
//! - [`sim`]: random playouts, the move graph they walk, the batched environment.
//! - [`run`]: threads, interruption, the clock; [`draw`]: SVG pictures of positions.
//! - [`ugi`]: the UGI protocol (docs/protocol.md), the one both engines speak.
//!
//! Values of positions are always for the side to move; what is about colours is named
//! by colour.
//!
//! ```
//! use buttonup::ai::Bot;
//! use buttonup::game::notation;
//! use buttonup::search::{analyze, solve, Limits};
//! use buttonup::{Match, MatchOdds, Player};
//! use std::time::Duration;
//!
//! // A position, a move and what it did.
//! let start = notation::parse("W/R/B/W/B/R/R/W/B r").unwrap();
//! assert_eq!(start.legal_moves().collect::<Vec<_>>(), [0, 3, 7]);
//! let outcome = start.play(3).unwrap();
//! assert_eq!(outcome.position.to_string(), "W/R/B/BW/R/R/W/B b");
//! assert!(!outcome.extra_move);
//! assert!(start.play(1).is_err()); // pile 1 has no white button
//!
//! // Exact values for the side to move: Red wins by 1 with pile 3.
//! assert_eq!(solve(&start, 1), Ok(1));
//! assert_eq!(analyze(&start, 1), Ok(vec![(0, -1), (3, 1), (7, 0)]));
//!
//! // The AI at level 5, within 10 ms a move, plays a whole battle against level 9.
//! let mut bots = [Bot::new(5, 1).unwrap(), Bot::new(9, 2).unwrap()];
//! bots[0].set_limits(Limits { time: Some(Duration::from_millis(10)), ..Limits::default() });
//! let mut position = start;
//! while let Some(mv) = bots[position.to_move() as usize].choose(&position, None) {
//!     position = position.play(mv).unwrap().position;
//! }
//! let scoring = position.scoring().unwrap();
//! // The three white buttons hold at least the strengths 1, 2 and 3 of the 45.
//! assert!(scoring.red + scoring.black <= 45 - (1 + 2 + 3));
//!
//! // A match to 15 points, and Red's exact chance of winning it before it starts.
//! let game = Match::new(Player::Red, 15, 3, 7, &[]).unwrap();
//! let mut odds = MatchOdds::new(15, 3).unwrap();
//! let red = odds.win_probability(game.standing()).unwrap();
//! assert!(0.4 < red && red < 0.6);
//! ```

#![deny(missing_docs)]

pub mod ai;
pub mod draw;
pub mod game;
pub mod odds;
pub mod page;
pub mod run;
pub mod search;
pub mod sim;
pub mod ugi;

pub use game::error::{IllegalMove, NotationError, PositionError};
pub use game::error_kind::{BattleError, ErrorKind, HasKind};
pub use game::match_rules::{Battle, Match, MatchError};
pub use game::rules::{Colour, MoveOutcome, Player, Position, Sowing, MAX_BUTTONS};
pub use game::scoring::{max_margin, Scoring};
pub use game::standing::{Next, Standing, StandingError, MAX_TARGET, STANDARD_TARGET};
pub use game::variant::{Capability, VariantError, STANDARD_PER_COLOUR};
pub use odds::MatchOdds;
pub use search::{Payoff, Searcher};
