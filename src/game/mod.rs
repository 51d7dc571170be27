//! The game: the pieces, the rules of a battle (rules 1 to 6) and of a match (rules 7
//! to 9), the notation, the variants, the shuffles, and what is counted on the rules
//! alone (perft, the reachable positions), and who sits at a match's screen (seats).

pub(crate) mod bits;
pub mod error;
pub mod error_kind;
pub mod match_rules;
pub mod notation;
pub mod perft;
pub mod pieces;
pub mod reachable;
pub mod record;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod standing;
pub mod variant;
