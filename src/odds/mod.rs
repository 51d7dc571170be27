//! Exact match win probabilities: the table of every match state (`table`), the graph
//! of every reachable battle position it evaluates (`graph`), the odds of the moves of a
//! battle in a match (`moves`), and the tables a process shares (`shared`).

mod graph;
mod moves;
mod shared;
mod table;

pub use graph::{BattleGraph, StartsValue};
pub use moves::{move_chances, red_chance, with_match_searcher, MOVE_TABLE_BYTES};
pub use shared::{lock_odds, red_chance_at, shared_odds, SharedOdds};
pub use table::MatchOdds;
