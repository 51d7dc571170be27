//! Exact solving on several threads (Lazy SMP): every thread solves the same position by
//! iterative deepening, sharing one lock-free table; the helpers order their moves the
//! other way round, so that they fill the table with results the main thread then finds.
//! The answer is the main thread's; the helpers are stopped when it has it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::negamax::Searcher;
use super::shared_table::SharedTable;
use super::table::TableAllocError;
use crate::rules::Position;

/// The exact value (final margin under perfect play, for the side to move) of
/// `position`, found by `threads` threads sharing a table of `table_bytes` bytes; `None`
/// when the search was stopped (an interruption of the calling thread).
pub fn solve_parallel(
    position: &Position,
    table_bytes: usize,
    threads: usize,
) -> Result<Option<i32>, TableAllocError> {
    let shared = Arc::new(SharedTable::try_with_bytes(table_bytes)?);
    let halt = Arc::new(AtomicBool::new(false));
    let mut main = Searcher::sharing(Arc::clone(&shared), 0);
    let value = std::thread::scope(|scope| {
        for k in 1..threads.max(1) {
            let mut helper = Searcher::sharing(Arc::clone(&shared), 0);
            helper.helper = k % 2 == 1;
            helper.halt_with(Arc::clone(&halt));
            // A helper the system refuses to start is simply not there.
            let _ = std::thread::Builder::new().spawn_scoped(scope, move || helper.solve(position));
        }
        let value = main.solve(position);
        halt.store(true, Ordering::Relaxed);
        value
    });
    Ok((!main.was_cut_short()).then_some(value as i32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{random_start, SplitMix64};
    use crate::rules::Player;
    use crate::search::Payoff;

    #[test]
    fn threads_find_the_one_thread_value() {
        for seed in 1..=3 {
            let start = random_start(6, Player::Red, &mut SplitMix64::new(seed)).unwrap();
            let alone = Searcher::new(Payoff::Margin, 4 << 20).solve(&start) as i32;
            for threads in [1, 2, 3] {
                assert_eq!(
                    solve_parallel(&start, 4 << 20, threads).unwrap(),
                    Some(alone)
                );
            }
        }
    }
}
