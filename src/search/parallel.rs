//! Searching on several threads, decided in one place ([`worth_threads`]) for every
//! search of every door.
//!
//! Exact solving (Lazy SMP): every thread solves the same position by iterative
//! deepening, sharing one lock-free table; the helpers order their moves the other way
//! round, and never by the network as the main thread does near the root, so that they
//! fill the table with results the main thread then finds. The
//! answer is the main thread's; the helpers are stopped when it has it. An exact search
//! (no limits) runs the same way, the main thread searching, and so does a search
//! within a time, every thread running it.
//!
//! Analysis: the children of a position are independent solves, shared out over the
//! threads; the values are the one-thread values.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

use super::limits::{Iteration, Limits, SearchResult};
use super::searcher::Searcher;
use crate::game::rules::Position;
use crate::run::interrupt::Interrupted;
use crate::run::parallel::{clamp_threads, map_chunks, THREADS_AVAILABLE};

/// Positions with at least this many piles are worth solving on several threads;
/// below, one solve takes about as long as starting a thread.
pub(super) const PARALLEL_FROM_PILES: usize = 16;

/// The threads a search of `position` within `limits` runs on when it may take up to
/// `threads`: the one place this is decided. One for small positions (a thread costs
/// more than their solve), where threads cannot start (WebAssembly), and under a depth
/// or node limit, so that such a search gives the same answer on every run; else
/// `threads` (held to the most any call starts).
pub(super) fn worth_threads(position: &Position, limits: &Limits, threads: usize) -> usize {
    let reproducible = limits.depth.is_some() || limits.nodes.is_some();
    if !THREADS_AVAILABLE || reproducible || position.pile_count() < PARALLEL_FROM_PILES {
        1
    } else {
        clamp_threads(threads)
    }
}

/// The table that the threads of one parallel solve of `position` share when the
/// caller keeps none: small enough to stay in the cache for up to 8 buttons of each
/// colour (measured: 8-12 MiB is fastest there), larger beyond (9 of each colour: 32
/// MiB beats 8), and large where a solve takes seconds (10 of each colour, seeds 1-3 on
/// two threads: 256 MiB beat 32 by a tenth; docs/benchmarks.md). Its pages are taken
/// from the system when it is made (`memory.rs` says why).
pub(super) fn parallel_table_bytes(position: &Position) -> usize {
    match position.pile_count() {
        0..=24 => 12 << 20,
        25..=27 => 32 << 20,
        _ => 256 << 20,
    }
}

impl Searcher {
    /// Solves `position` with helper threads where [`worth_threads`] says so and the
    /// table is one they can share: the one-thread value.
    pub(super) fn solve_helped(&mut self, position: &Position) -> f64 {
        let threads = worth_threads(position, &Limits::default(), self.threads);
        self.with_helpers(
            threads,
            |helper| {
                helper.solve_alone(position);
            },
            |main| main.solve_alone(position),
        )
    }

    /// The deepening search within `limits`, with helper threads where [`worth_threads`]
    /// says so and the table is one they can share. Exact, the value and the best move
    /// (the first clockwise of the best) are the one-thread ones. Within a time, the
    /// helpers run the same limited search, so the main thread finds their results and
    /// reaches deeper in the same time (its answer then depends on the threads' timing,
    /// as a time limit's always does on the machine's speed). A stop stops the helpers
    /// too.
    pub(super) fn search_helped(
        &mut self,
        position: &Position,
        limits: &Limits,
        progress: &mut dyn FnMut(&Iteration) -> bool,
    ) -> SearchResult {
        let threads = worth_threads(position, limits, self.threads);
        let helped = |helper: &mut Searcher| {
            if limits.are_none() {
                helper.solve_alone(position);
            } else {
                helper.deepen(position, limits, &mut |_| true);
            }
        };
        self.running_threads = if self.is_shared() { threads } else { 1 };
        let result = self.with_helpers(threads, helped, |main| {
            main.deepen(position, limits, progress)
        });
        self.running_threads = 1;
        result
    }

    /// Runs `work` on this searcher while `threads - 1` helpers run `help` on the same
    /// shared table, and stops them when it returns (alone on a table of its own).
    fn with_helpers<T>(
        &mut self,
        threads: usize,
        help: impl Fn(&mut Searcher) + Sync,
        work: impl FnOnce(&mut Searcher) -> T,
    ) -> T {
        let Some(shared) = self.table.shared().cloned() else {
            return work(self);
        };
        if threads <= 1 {
            return work(self);
        }
        let halt = Arc::new(AtomicBool::new(false));
        std::thread::scope(|scope| {
            for k in 1..threads {
                let mut helper = Searcher::sharing(Arc::clone(&shared), 0);
                // The main searcher's next search number, so that each finds the other's
                // entries as its own search's.
                helper.generation = self.generation;
                helper.helper = k % 2 == 1;
                helper.net_order = false;
                helper.halt_with(Arc::clone(&halt));
                // A helper the system refuses to start is simply not there.
                let help = &help;
                let _ = std::thread::Builder::new().spawn_scoped(scope, move || help(&mut helper));
            }
            let out = work(self);
            halt.store(true, Ordering::Relaxed);
            out
        })
    }

    /// The exact value, for the side to move, of every legal move (in legal-move order),
    /// the children solved on the threads [`worth_threads`] gives: on lanes of this
    /// searcher's shared table, or each on a table of its own of this one's size and
    /// payoff. `None` when interrupted or stopped (then [`was_cut_short`](
    /// Self::was_cut_short)).
    pub(super) fn analyze_helped(&mut self, position: &Position) -> Vec<(usize, f64)> {
        let threads = worth_threads(position, &Limits::default(), self.threads);
        if threads <= 1 || position.legal_move_count() < 2 {
            return self.analyze_alone(position, None);
        }
        let shared = self.table.shared().cloned();
        let (payoff, bytes, stop) = (self.payoff.clone(), self.table_bytes(), self.stop_flag());
        let lanes = AtomicU32::new(0);
        let lane = || -> Result<Searcher, Interrupted> {
            let number = lanes.fetch_add(1, Ordering::Relaxed);
            let mut searcher = match &shared {
                Some(shared) => Searcher::sharing(Arc::clone(shared), number),
                None => Searcher::try_new(payoff.clone(), bytes).map_err(|_| Interrupted)?,
            };
            // This searcher's stop reaches every lane.
            searcher.halt_also_with(Arc::clone(&stop));
            Ok(searcher)
        };
        let values = analyze_on_lanes(position, threads, lane);
        self.finish();
        match values {
            Ok(values) => {
                self.aborted = false;
                values
            }
            Err(Interrupted) => {
                self.aborted = true;
                Vec::new()
            }
        }
    }
}

/// The exact value, for the side to move, of every legal move of `position` (as
/// [`Searcher::analyze`] gives them), the children solved on up to `threads` threads,
/// each with a searcher from `lane()`.
fn analyze_on_lanes(
    position: &Position,
    threads: usize,
    lane: impl Fn() -> Result<Searcher, Interrupted> + Sync,
) -> Result<Vec<(usize, f64)>, Interrupted> {
    let moves: Vec<usize> = position.legal_moves().collect();
    let side = position.to_move();
    map_chunks(moves.len(), threads, lane, |searcher, i, worker| {
        searcher.halt_with(worker.cancel_flag());
        let child = position.play_unchecked(moves[i]).position;
        let value = searcher.solve_alone(&child);
        if searcher.was_cut_short() || worker.should_stop() {
            return Err(Interrupted);
        }
        let value = if child.to_move() == side {
            value
        } else {
            -value
        };
        Ok((moves[i], value))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::{random_start, SplitMix64};
    use crate::game::rules::Player;
    use crate::search::Payoff;

    #[test]
    fn threads_find_the_one_thread_value() {
        for seed in 1..=3 {
            let start = random_start(6, Player::Red, &mut SplitMix64::new(seed)).unwrap();
            let mut alone = Searcher::new(Payoff::Margin, 4 << 20);
            let value = alone.solve(&start);
            let exact = alone.search(&start, &Limits::default());
            assert_eq!(exact.threads, 1);
            for threads in [1, 2, 3] {
                let mut main = Searcher::with_threads(4 << 20, threads).unwrap();
                assert_eq!(main.solve(&start), value);
                let found = main.search(&start, &Limits::default());
                assert_eq!(
                    (found.value, found.best_move, found.exact, found.threads),
                    (exact.value, exact.best_move, true, threads)
                );
                // Within a time long enough to finish: the helpers search within it too,
                // and the answer is still the exact one.
                let within = Limits {
                    time: Some(std::time::Duration::from_secs(600)),
                    ..Limits::default()
                };
                let timed = main.search(&start, &within);
                assert_eq!(
                    (timed.value, timed.best_move, timed.exact),
                    (exact.value, exact.best_move, true)
                );
                // A depth limit stays on one thread: the same answer on every run.
                let deep = main.search(
                    &start,
                    &Limits {
                        depth: Some(4),
                        ..Limits::default()
                    },
                );
                assert_eq!(deep.threads, 1);
            }
        }
    }

    #[test]
    fn parallel_analysis_gives_the_one_thread_values() {
        let start = random_start(6, Player::Black, &mut SplitMix64::new(9)).unwrap();
        let alone = Searcher::new(Payoff::Margin, 1 << 20).analyze(&start);
        for threads in [1, 2, 3] {
            let mut shared = Searcher::with_threads(1 << 20, threads).unwrap();
            assert_eq!(shared.analyze(&start), alone);
            // Lanes on tables of their own, as a match payoff's analysis runs.
            let mut own = Searcher::new(Payoff::Margin, 1 << 20);
            own.set_threads(threads);
            assert_eq!(own.analyze(&start), alone);
        }
    }
}
