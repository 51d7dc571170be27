//! Exact match win probabilities: the table of every match state (`table`) and the graph
//! of every reachable battle position it evaluates (`graph`).

mod graph;
mod table;

pub use graph::{BattleGraph, StartsValue};
pub use table::MatchOdds;
