//! What a search is asked (its limits) and what it tells (each finished iteration, and
//! its result): the words every door's search is given and answers in.

use std::time::Duration;

/// Limits of a search; `None` means no limit. With no limit at all the search is exact.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// The deepest iteration, in moves.
    pub depth: Option<u32>,
    /// The most positions visited.
    pub nodes: Option<u64>,
    /// The longest time the search may take.
    pub time: Option<Duration>,
}

impl Limits {
    /// Whether no limit is set, so that a search is exact.
    pub fn are_none(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time.is_none()
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The best move, `None` only when the battle is over.
    pub best_move: Option<usize>,
    /// The value for the side to move (exact, or estimated at the horizon).
    pub value: f64,
    /// Whether the search reached the end of the battle on every line.
    pub exact: bool,
    /// The deepest iteration completed (0 when none completed).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The expected line of play, starting with `best_move`.
    pub pv: Vec<usize>,
    /// Time taken so far.
    pub elapsed: Duration,
    /// The threads it ran on (helpers sharing its table, where the position was big
    /// enough and no depth or node limit was set).
    pub threads: usize,
}

/// One finished iteration of a deepening search, as reported while it goes on.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// The depth of this iteration, in moves.
    pub depth: u32,
    /// The value for the side to move at this depth.
    pub value: f64,
    /// Whether this depth reaches the end of the battle on every line.
    pub exact: bool,
    /// Positions visited so far in the whole search.
    pub nodes: u64,
    /// The line this iteration expects, starting with its best move.
    pub pv: Vec<usize>,
    /// Time taken so far.
    pub elapsed: Duration,
    /// The threads the search runs on.
    pub threads: usize,
}
