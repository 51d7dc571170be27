//! Many positions at once, shared out over threads: exact values and perft counts. Each
//! thread keeps one transposition table for all the positions it solves (a batch), and
//! the answers come back in the order of the positions, the same on any number of
//! threads.

use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::go::with_thread_searcher;
use super::shared_table::{SharedTable, SHARED_ENTRY_BYTES};
use super::{Searcher, TableAllocError};
use crate::game::error::wraps;
use crate::game::perft::perft_with_stop;
use crate::game::rules::Position;
use crate::run::clock::Instant;
use crate::run::interrupt::{interrupted, Interrupted};
use crate::run::parallel::map_chunks;

/// Why a batch did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchError {
    /// A thread's transposition table could not be allocated.
    Table(TableAllocError),
    /// The calling thread was interrupted.
    Interrupted,
}

impl crate::HasKind for BatchError {
    fn kind(&self) -> crate::ErrorKind {
        match self {
            BatchError::Table(error) => error.kind(),
            BatchError::Interrupted => crate::ErrorKind::Interrupted,
        }
    }
}

impl From<Interrupted> for BatchError {
    fn from(_: Interrupted) -> Self {
        BatchError::Interrupted
    }
}

wraps! { BatchError::Table(TableAllocError) }

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

/// The table of the last batch on threads, kept for the next one (as each thread keeps
/// its own searcher's): a batch of positions solved before finds them.
static LAST_TABLE: Mutex<Option<Arc<SharedTable>>> = Mutex::new(None);

/// The smallest table a batch on threads is given.
const MIN_TABLE_BYTES: usize = 1 << 20;

/// Table slots given a batch on threads for each node its positions are expected to
/// search: the calling thread's first positions are the sample. Neighbouring positions
/// share much of their trees, so one slot a node is room to spare; a table much larger
/// than the work costs more in page faults and cache misses than the work (measured on
/// the 3-per-colour starts: a first batch on a 16 MiB table took twice as long as on a
/// 1 MiB one, and a 256 KiB table made the 4-per-colour starts six times slower).
const SLOTS_PER_NODE: f64 = 1.0 / 16.0;

/// The bytes of the table a batch of `positions` positions is expected to need, from
/// the nodes the first `sampled` of them took (`nodes`), at most `cap` bytes.
fn batch_table_bytes(cap: usize, nodes: u64, sampled: usize, positions: usize) -> usize {
    if sampled == 0 {
        return cap;
    }
    let expected = nodes as f64 / sampled as f64 * positions as f64 * SLOTS_PER_NODE;
    let bytes = (expected * SHARED_ENTRY_BYTES as f64).min(cap as f64) as usize;
    bytes
        .max(MIN_TABLE_BYTES)
        .min(cap)
        .next_power_of_two()
        .min(cap)
}

/// A table of at least `wanted` and at most `cap` bytes: the last batch's if it has a
/// size between them and is free, else a new one of `wanted` bytes.
fn table_of(wanted: usize, cap: usize) -> Result<Arc<SharedTable>, TableAllocError> {
    let kept = LAST_TABLE.lock().ok().and_then(|mut last| last.take());
    let fits = |table: &SharedTable| {
        (SharedTable::bytes_for(wanted)..=SharedTable::bytes_for(cap)).contains(&table.bytes())
    };
    match kept {
        Some(table) if fits(&table) => Ok(table),
        _ => Ok(Arc::new(SharedTable::try_with_bytes(wanted)?)),
    }
}

/// How long the calling thread solves a batch alone before it starts threads for the
/// rest: a batch this quick (positions solved before, small ones) is done before a
/// thread could start, and a long one loses at most this.
const ALONE_FOR: Duration = Duration::from_micros(200);

/// The exact value (final margin under perfect play, for the side to move) of every
/// position, on `threads` threads sharing one table of at most `table_bytes` bytes. The
/// calling thread first solves positions on its own searcher, as
/// [`solve`](super::solve) does, for up to `ALONE_FOR`: a batch of one chunk, or one
/// done in that time, starts no thread and makes no table. The rest go to the threads,
/// on a table sized by the work the first positions took (the last batch's table when
/// it is at least that large).
pub fn solve_many(
    positions: &[Position],
    table_bytes: usize,
    threads: usize,
) -> Result<Vec<i32>, BatchError> {
    // One chunk would be done by the calling thread alone anyway.
    let alone = positions.len() <= chunk_size(positions.len(), threads.max(2));
    let mut nodes = 0;
    let mut values = with_thread_searcher(|searcher| {
        // The clock starts once this thread's searcher is made (a first call makes it).
        let started = Instant::now();
        let mut values = Vec::with_capacity(positions.len());
        for position in positions {
            if !alone && started.elapsed() >= ALONE_FOR {
                break;
            }
            let value = searcher.solve(position);
            if searcher.was_cut_short() || interrupted() {
                return Err(BatchError::Interrupted);
            }
            nodes += searcher.nodes;
            values.push(value as i32);
        }
        Ok(values)
    })?;
    if values.len() < positions.len() {
        let wanted = batch_table_bytes(table_bytes, nodes, values.len(), positions.len());
        values.extend(solve_on_threads(
            &positions[values.len()..],
            wanted,
            table_bytes,
            threads,
        )?);
    }
    Ok(values)
}

/// [`solve_many`] on `threads` threads sharing a table of `wanted` to `cap` bytes.
fn solve_on_threads(
    positions: &[Position],
    wanted: usize,
    cap: usize,
    threads: usize,
) -> Result<Vec<i32>, BatchError> {
    let size = chunk_size(positions.len(), threads);
    let shared = table_of(wanted, cap)?;
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
    // Kept only after a whole batch: no search of it was cut short.
    if let Ok(mut last) = LAST_TABLE.lock() {
        *last = Some(shared);
    }
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

    #[test]
    fn small_batches_and_batches_on_a_kept_table_give_the_same_answers() {
        let starts = start_positions(3, Player::Black).unwrap();
        let mut searcher = Searcher::new(Payoff::Margin, 1 << 20);
        let values: Vec<i32> = starts.iter().map(|s| searcher.solve(s) as i32).collect();
        // One chunk: the calling thread's searcher.
        assert_eq!(
            solve_many(&starts[..CHUNK], 1 << 20, 2).unwrap(),
            values[..CHUNK]
        );
        // Twice on threads: the second batch finds the first one's table.
        for _ in 0..2 {
            assert_eq!(solve_many(&starts, 1 << 20, 2).unwrap(), values);
        }
        for bytes in [0, 1000, 1 << 20, (1 << 20) + 5] {
            let made = SharedTable::try_with_bytes(bytes).unwrap();
            assert_eq!(made.bytes(), SharedTable::bytes_for(bytes));
        }
    }

    #[test]
    fn a_batch_table_is_sized_by_the_work_between_the_smallest_and_the_cap() {
        let cap = 16 << 20;
        // No sample: the cap.
        assert_eq!(batch_table_bytes(cap, 0, 0, 1000), cap);
        // Little work: the smallest table.
        assert_eq!(batch_table_bytes(cap, 200, 4, 3360), MIN_TABLE_BYTES);
        // Much work: the cap, and never more.
        assert_eq!(batch_table_bytes(cap, 2259, 1, 69_300), cap);
        assert_eq!(batch_table_bytes(3 << 20, 1 << 40, 1, 1 << 20), 3 << 20);
        // In between: a power of two holding a sixteenth of a slot a node.
        let bytes = batch_table_bytes(cap, 1000, 1, 4096);
        assert!(bytes.is_power_of_two() && bytes > MIN_TABLE_BYTES && bytes < cap);
        assert!(bytes as f64 >= 1000.0 * 4096.0 * SLOTS_PER_NODE * SHARED_ENTRY_BYTES as f64);
        // A cap below the smallest table is kept.
        assert_eq!(batch_table_bytes(1000, 1 << 30, 1, 10), 1000);
    }

    #[test]
    fn a_kept_table_is_reused_when_it_is_large_enough_and_within_the_cap() {
        let starts = start_positions(3, Player::Red).unwrap();
        let mut searcher = Searcher::new(Payoff::Margin, 1 << 20);
        let values: Vec<i32> = starts.iter().map(|s| searcher.solve(s) as i32).collect();
        // The same answers whatever tables the batches find kept.
        for cap in [16 << 20, 1 << 20, 4 << 20, 1 << 20] {
            assert_eq!(
                solve_on_threads(&starts, MIN_TABLE_BYTES, cap, 2).unwrap(),
                values
            );
            let kept = LAST_TABLE.lock().unwrap().clone().unwrap();
            assert!(kept.bytes() >= SharedTable::bytes_for(MIN_TABLE_BYTES));
            assert!(kept.bytes() <= SharedTable::bytes_for(cap));
        }
    }
}
