//! Exact match win probabilities: the table of every match state (`table`), the graph
//! of every reachable battle position it evaluates (`graph`), and the odds of the moves
//! of a battle in a match (`moves`).

mod graph;
mod moves;
mod table;

pub use graph::{BattleGraph, StartsValue};
pub use moves::{move_chances, red_chance, MOVE_TABLE_BYTES};
pub use table::MatchOdds;
