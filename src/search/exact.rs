//! The exact answers in one call each, for front ends that want no searcher of their
//! own: [`solve`] and [`analyze`] on this thread's table, or on `threads` threads
//! sharing one for positions big enough to pay for them ([`worth_threads`]).

use std::cell::RefCell;
use std::sync::Arc;

use super::entry::TableAllocError;
use super::parallel::{analyze_parallel, parallel_table_bytes, solve_parallel, worth_threads};
use super::payoff::Payoff;
use super::searcher::Searcher;
use super::shared_table::SharedTable;
use crate::game::rules::Position;
use crate::run::interrupt::Interrupted;

/// The table of each thread's own searcher (8 MiB, as the Python bindings').
pub const THREAD_TABLE_BYTES: usize = 8 << 20;

thread_local! {
    static THREAD_SEARCHER: RefCell<Searcher> =
        RefCell::new(Searcher::new(Payoff::Margin, THREAD_TABLE_BYTES));
}

thread_local! {
    /// This thread's searcher on a table that helper threads can share, for the bots'
    /// searches within a time (made at the first).
    static THREAD_SHARED_SEARCHER: RefCell<Option<Searcher>> = const { RefCell::new(None) };
}

/// Why an exact answer did not come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExactError {
    /// The table for the threads could not be allocated.
    Memory(TableAllocError),
    /// The calling thread was interrupted ([`crate::run::interrupt`]).
    Interrupted,
}

impl std::fmt::Display for ExactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExactError::Memory(error) => error.fmt(f),
            ExactError::Interrupted => f.write_str("the search was interrupted"),
        }
    }
}

impl std::error::Error for ExactError {}

impl From<Interrupted> for ExactError {
    fn from(_: Interrupted) -> ExactError {
        ExactError::Interrupted
    }
}

/// Runs `f` on this thread's margin searcher (or on a fresh small one if this thread's
/// is busy: a progress callback that searches again).
pub fn with_thread_searcher<T>(f: impl FnOnce(&mut Searcher) -> T) -> T {
    THREAD_SEARCHER.with(|s| match s.try_borrow_mut() {
        Ok(mut searcher) => {
            searcher.set_payoff(Payoff::Margin);
            f(&mut searcher)
        }
        Err(_) => f(&mut Searcher::new(Payoff::Margin, 1 << 20)),
    })
}

/// Runs `f` on this thread's margin searcher whose table helper threads can share (of
/// [`THREAD_TABLE_BYTES`]), or on [`with_thread_searcher`]'s if that one is busy or its
/// table cannot be had. Its own: [`with_thread_searcher`]'s caller may change the payoff,
/// which a shared table cannot hold.
pub(crate) fn with_thread_shared_searcher<T>(f: impl FnOnce(&mut Searcher) -> T) -> T {
    THREAD_SHARED_SEARCHER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            if slot.is_none() {
                if let Ok(table) = SharedTable::try_with_bytes(THREAD_TABLE_BYTES) {
                    *slot = Some(Searcher::sharing(Arc::new(table), 0));
                }
            }
            match slot.as_mut() {
                Some(searcher) => f(searcher),
                None => with_thread_searcher(f),
            }
        }
        Err(_) => with_thread_searcher(f),
    })
}

/// The exact value of `position` for its side to move (the final margin under perfect
/// play), on up to `threads` threads.
///
/// ```
/// use buttonup::game::notation::parse;
/// let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
/// assert_eq!(buttonup::search::solve(&start, 1), Ok(1));
/// ```
pub fn solve(position: &Position, threads: usize) -> Result<i32, ExactError> {
    if worth_threads(position, threads) {
        let value = solve_parallel(position, parallel_table_bytes(position), threads)
            .map_err(ExactError::Memory)?;
        return value.ok_or(ExactError::Interrupted);
    }
    with_thread_searcher(|s| {
        let value = s.solve(position);
        if s.was_cut_short() {
            Err(ExactError::Interrupted)
        } else {
            Ok(value as i32)
        }
    })
}

/// The exact value, for the side to move, of every legal move of `position`, in
/// legal-move order, on up to `threads` threads.
///
/// ```
/// use buttonup::game::notation::parse;
/// let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
/// assert_eq!(buttonup::search::analyze(&start, 1), Ok(vec![(0, -1), (3, 1), (7, 0)]));
/// ```
pub fn analyze(position: &Position, threads: usize) -> Result<Vec<(usize, i32)>, ExactError> {
    let values = if worth_threads(position, threads) {
        let shared = Arc::new(
            SharedTable::try_with_bytes(parallel_table_bytes(position))
                .map_err(ExactError::Memory)?,
        );
        analyze_parallel::<Interrupted>(position, threads, |lane| {
            Ok(Searcher::sharing(Arc::clone(&shared), lane))
        })?
    } else {
        with_thread_searcher(|s| {
            let values = s.analyze(position);
            if s.was_cut_short() {
                Err(ExactError::Interrupted)
            } else {
                Ok(values)
            }
        })?
    };
    Ok(values.into_iter().map(|(mv, v)| (mv, v as i32)).collect())
}
