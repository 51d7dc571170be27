//! Searching on several threads.
//!
//! Exact solving (Lazy SMP): every thread solves the same position by iterative
//! deepening, sharing one lock-free table; the helpers order their moves the other way
//! round, so that they fill the table with results the main thread then finds. The
//! answer is the main thread's; the helpers are stopped when it has it. An exact search
//! (no limits) runs the same way, the main thread searching, and so does a search
//! within a time, every thread running it.
//!
//! Analysis: the children of a position are independent solves, shared out over the
//! threads; the values are the one-thread values.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::deepening::{Iteration, Limits, SearchResult};
use super::entry::TableAllocError;
use super::searcher::Searcher;
use super::shared_table::SharedTable;
use crate::game::rules::Position;
use crate::run::interrupt::Interrupted;
use crate::run::parallel::{map_chunks, THREADS_AVAILABLE};

/// Positions with at least this many piles are worth solving on several threads;
/// below, one solve takes about as long as starting a thread.
pub const PARALLEL_FROM_PILES: usize = 16;

/// Whether solving `position` on `threads` threads is worth starting them.
pub fn worth_threads(position: &Position, threads: usize) -> bool {
    THREADS_AVAILABLE && threads > 1 && position.pile_count() >= PARALLEL_FROM_PILES
}

/// The table that the threads of one parallel solve of `position` share: small enough
/// to stay in the cache for up to 8 buttons of each colour (measured: 8-12 MiB is
/// fastest there), larger beyond (9 of each colour: 32 MiB beats 8), and large where a
/// solve takes a minute (10 of each colour, seeds 1-3 on two threads, two rounds: a
/// median of 64.7-67.7 s with 256 MiB, 75.0-85.1 s with 32; docs/benchmarks.md). Its
/// pages are taken from the system as the search first writes them.
pub fn parallel_table_bytes(position: &Position) -> usize {
    match position.pile_count() {
        0..=24 => 12 << 20,
        25..=27 => 32 << 20,
        _ => 256 << 20,
    }
}

/// The exact value (final margin under perfect play, for the side to move) of
/// `position`, found by `threads` threads sharing a table of `table_bytes` bytes; `None`
/// when the search was stopped (an interruption of the calling thread).
pub fn solve_parallel(
    position: &Position,
    table_bytes: usize,
    threads: usize,
) -> Result<Option<i32>, TableAllocError> {
    let shared = Arc::new(SharedTable::try_with_bytes(table_bytes)?);
    let mut main = Searcher::sharing(shared, 0);
    let value = main.solve_with_helpers(position, threads);
    Ok((!main.was_cut_short()).then_some(value as i32))
}

impl Searcher {
    /// [`solve`](Self::solve) with `threads - 1` helper threads sharing this searcher's
    /// table, when it is a shared one and [`worth_threads`] (else alone). The same
    /// value as alone.
    pub fn solve_with_helpers(&mut self, position: &Position, threads: usize) -> f64 {
        self.with_helpers(
            position,
            threads,
            |helper| {
                helper.solve(position);
            },
            |main| main.solve(position),
        )
    }

    /// [`search_with`](Self::search_with) with `threads - 1` helper threads sharing this
    /// searcher's table, when the table is a shared one, [`worth_threads`], and the
    /// search is exact (no limits) or within a time alone; else alone. Exact, the value
    /// and the best move (the first clockwise of the best) are the one-thread ones.
    /// Within a time, the helpers run the same limited search, so the main thread finds
    /// their results and reaches deeper in the same time (its answer then depends on the
    /// threads' timing, as a time limit's always does on the machine's speed). A depth
    /// or node limit stays on one thread, so that its answer stays the same on every
    /// run. A stop stops the helpers too.
    pub fn search_with_helpers(
        &mut self,
        position: &Position,
        limits: &Limits,
        threads: usize,
        progress: &mut dyn FnMut(&Iteration) -> bool,
    ) -> SearchResult {
        let time_alone = limits.depth.is_none() && limits.nodes.is_none();
        let threads = if time_alone { threads } else { 1 };
        let helped = |helper: &mut Searcher| {
            if limits.are_none() {
                helper.solve(position);
            } else {
                helper.search(position, limits);
            }
        };
        self.with_helpers(position, threads, helped, |main| {
            main.search_with(position, limits, progress)
        })
    }

    /// Runs `work` on this searcher while helpers run `help` (on `position`) on the same
    /// shared table, and stops them when it returns.
    fn with_helpers<T>(
        &mut self,
        position: &Position,
        threads: usize,
        help: impl Fn(&mut Searcher) + Sync,
        work: impl FnOnce(&mut Searcher) -> T,
    ) -> T {
        let Some(shared) = self.table.shared().cloned() else {
            return work(self);
        };
        if !worth_threads(position, threads) {
            return work(self);
        }
        let halt = Arc::new(AtomicBool::new(false));
        let threads = crate::run::parallel::clamp_threads(threads);
        std::thread::scope(|scope| {
            for k in 1..threads {
                let mut helper = Searcher::sharing(Arc::clone(&shared), 0);
                // The main searcher's next search number, so that each finds the other's
                // entries as its own search's.
                helper.generation = self.generation;
                helper.helper = k % 2 == 1;
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
}

/// The exact value, for the side to move, of every legal move of `position` (as
/// [`Searcher::analyze`] gives them), the children solved on up to `threads` threads,
/// each with a searcher from `searcher(lane)` (`lane` numbers the threads from 0).
/// `E` says what an interruption of the calling thread is.
pub fn analyze_parallel<E>(
    position: &Position,
    threads: usize,
    searcher: impl Fn(u32) -> Result<Searcher, E> + Sync,
) -> Result<Vec<(usize, f64)>, E>
where
    E: Send + From<Interrupted>,
{
    let moves: Vec<usize> = position.legal_moves().collect();
    let side = position.to_move();
    let lanes = std::sync::atomic::AtomicU32::new(0);
    map_chunks(
        moves.len(),
        threads,
        || searcher(lanes.fetch_add(1, Ordering::Relaxed)),
        |searcher, i, worker| {
            searcher.halt_with(worker.cancel_flag());
            let child = position.play_unchecked(moves[i]).position;
            let value = searcher.solve(&child);
            if searcher.was_cut_short() || worker.should_stop() {
                return Err(Interrupted.into());
            }
            let value = if child.to_move() == side {
                value
            } else {
                -value
            };
            Ok((moves[i], value))
        },
    )
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
            let value = alone.solve(&start) as i32;
            let exact = alone.search(&start, &Limits::default());
            for threads in [1, 2, 3] {
                assert_eq!(
                    solve_parallel(&start, 4 << 20, threads).unwrap(),
                    Some(value)
                );
                let shared = Arc::new(SharedTable::try_with_bytes(4 << 20).unwrap());
                let mut main = Searcher::sharing(shared, 0);
                let found =
                    main.search_with_helpers(&start, &Limits::default(), threads, &mut |_| true);
                assert_eq!(
                    (found.value, found.best_move, found.exact),
                    (exact.value, exact.best_move, true)
                );
                // Within a time long enough to finish: the helpers search within it too,
                // and the answer is still the exact one.
                let within = Limits {
                    time: Some(std::time::Duration::from_secs(600)),
                    ..Limits::default()
                };
                let timed = main.search_with_helpers(&start, &within, threads, &mut |_| true);
                assert_eq!(
                    (timed.value, timed.best_move, timed.exact),
                    (exact.value, exact.best_move, true)
                );
            }
        }
    }

    #[test]
    fn parallel_analysis_gives_the_one_thread_values() {
        let start = random_start(4, Player::Black, &mut SplitMix64::new(9)).unwrap();
        let alone = Searcher::new(Payoff::Margin, 1 << 20).analyze(&start);
        let shared = Arc::new(SharedTable::try_with_bytes(1 << 20).unwrap());
        for threads in [1, 2, 3] {
            let values = analyze_parallel::<Interrupted>(&start, threads, |lane| {
                Ok(Searcher::sharing(Arc::clone(&shared), lane))
            })
            .unwrap();
            assert_eq!(values, alone);
        }
    }
}
