//! Game-tree search: negamax alpha-beta with a transposition table, move ordering,
//! iterative deepening, limits and a stop flag; exact when it reaches the end. [`go`]
//! (and [`solve`], [`analyze`], [`analyze_within`]) is the one entry point of every
//! door: it decides the threads and the table. `batch`
//! solves (and counts the move trees of) many positions at once; `classes` groups the
//! starts of a variant by the symmetries that keep their value.

pub mod batch;
pub mod classes;
mod deepening;
mod entry;
mod eval;
mod go;
mod kernel;
mod key;
mod limits;
mod line;
mod lookahead;
mod memory;
mod near_end;
mod negamax;
mod net;
mod net_weights;
mod ordering;
mod parallel;
mod payoff;
mod review;
mod searcher;
mod shared_table;
mod table;

pub use entry::{TableAllocError, ENTRY_BYTES};
pub use go::{analyze, analyze_within, go, solve, ExactError, On, THREAD_TABLE_BYTES};
pub use key::key;
pub use limits::{Iteration, Limits, SearchResult};
/// The horizon estimates and the network's features, for the training script
/// (`scripts/train_net.py`, through `scripts/eval_features.rs`): only with the
/// `training` feature, so that the shipped crate keeps them private.
#[cfg(feature = "training")]
pub mod training {
    pub use super::eval::projected_margin;
    pub use super::net::{each_feature, net_margin, net_value};
}
pub use payoff::Payoff;
pub use review::{review, MoveReview};
pub use searcher::Searcher;
