//! Many positions at once, shared out over threads: exact values and perft counts. Each
//! thread keeps one transposition table for all the positions it solves (a batch), and
//! the answers come back in the order of the positions, the same on any number of
//! threads.

use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use super::{Searcher, SharedTable, TableAllocError};
use crate::game::perft::perft_with_stop;
use crate::game::rules::Position;
use crate::run::interrupt::Interrupted;
use crate::run::parallel::map_chunks;

/// Why a batch did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchError {
    /// A thread's transposition table could not be allocated.
    Table(TableAllocError),
    /// The calling thread was interrupted.
    Interrupted,
}

impl From<Interrupted> for BatchError {
    fn from(_: Interrupted) -> Self {
        BatchError::Interrupted
    }
}

impl From<TableAllocError> for BatchError {
    fn from(error: TableAllocError) -> Self {
        BatchError::Table(error)
    }
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Table(error) => error.fmt(f),
            BatchError::Interrupted => Interrupted.fmt(f),
        }
    }
}

impl std::error::Error for BatchError {}

/// Positions in one piece of work handed to a thread, at least.
const CHUNK: usize = 16;

/// The chunk size for `count` positions on `threads` threads: neighbouring positions
/// (starts in order, say) share much of their trees, so each thread is given long runs
/// of them for its table, about four a thread, never fewer than [`CHUNK`] positions.
fn chunk_size(count: usize, threads: usize) -> usize {
    count.div_ceil(4 * threads.max(1)).max(CHUNK)
}

/// The exact value (final margin under perfect play, for the side to move) of every
/// position, on `threads` threads sharing one table of `table_bytes` bytes.
pub fn solve_many(
    positions: &[Position],
    table_bytes: usize,
    threads: usize,
) -> Result<Vec<i32>, BatchError> {
    let size = chunk_size(positions.len(), threads);
    let shared = Arc::new(SharedTable::try_with_bytes(table_bytes)?);
    let lanes = AtomicU32::new(0);
    let chunks = map_chunks(
        positions.len().div_ceil(size),
        threads,
        || {
            let lane = lanes.fetch_add(1, Ordering::Relaxed);
            Ok::<_, BatchError>(Searcher::sharing(Arc::clone(&shared), lane))
        },
        |searcher, chunk, worker| {
            searcher.halt_with(worker.cancel_flag());
            let mut values = Vec::with_capacity(size);
            for position in positions.iter().skip(chunk * size).take(size) {
                let value = searcher.solve(position);
                if searcher.was_cut_short() || worker.should_stop() {
                    return Err(BatchError::Interrupted);
                }
                values.push(value as i32);
            }
            Ok(values)
        },
    )?;
    Ok(chunks.concat())
}

/// [`perft`](crate::game::perft::perft) of every position to `depth` plies, on `threads`
/// threads.
pub fn perft_many(
    positions: &[Position],
    depth: u32,
    threads: usize,
) -> Result<Vec<u64>, Interrupted> {
    let chunks = map_chunks(
        positions.len().div_ceil(CHUNK),
        threads,
        || Ok(()),
        |_, chunk, worker| {
            positions
                .iter()
                .skip(chunk * CHUNK)
                .take(CHUNK)
                .map(|position| perft_with_stop(position, depth, &mut || worker.should_stop()))
                .collect::<Result<Vec<u64>, Interrupted>>()
        },
    )?;
    Ok(chunks.concat())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;
    use crate::game::rules::Player;
    use crate::game::variant::start_positions;
    use crate::search::Payoff;

    #[test]
    fn batches_give_the_one_at_a_time_answers_on_any_number_of_threads() {
        let starts = start_positions(2, Player::Red).unwrap();
        let mut searcher = Searcher::new(Payoff::Margin, 1 << 20);
        let values: Vec<i32> = starts.iter().map(|s| searcher.solve(s) as i32).collect();
        let counts: Vec<u64> = starts.iter().map(|s| perft(s, 5)).collect();
        for threads in [1, 2, 3] {
            assert_eq!(solve_many(&starts, 1 << 20, threads).unwrap(), values);
            assert_eq!(perft_many(&starts, 5, threads).unwrap(), counts);
        }
        assert_eq!(solve_many(&[], 1 << 20, 2).unwrap(), Vec::<i32>::new());
    }
}
