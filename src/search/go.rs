//! The one entry point of every search a door runs, as a chess engine's `go`: a
//! position, limits, and where the table lives ([`On`]); the threads and the table are
//! decided here and in `parallel` ([`worth_threads`]), never by a door. [`go`] searches,
//! [`solve`] and [`analyze`] give exact values, [`analyze_within`] exact values within a
//! time.

use std::cell::RefCell;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::entry::TableAllocError;
use super::limits::{Iteration, Limits, SearchResult};
use super::parallel::{parallel_table_bytes, worth_threads};
use super::payoff::Payoff;
use super::searcher::Searcher;
use super::shared_table::SharedTable;
use crate::game::rules::Position;
use crate::run::clock::Instant;
use crate::run::interrupt::Interrupted;

/// The table of each thread's own searcher: 8 MiB, 2 in WebAssembly (whose page pays
/// for the whole table at its first solve; docs/wasm.md).
pub const THREAD_TABLE_BYTES: usize = if crate::run::parallel::THREADS_AVAILABLE {
    8 << 20
} else {
    2 << 20
};

thread_local! {
    static THREAD_SEARCHER: RefCell<Searcher> =
        RefCell::new(Searcher::new(Payoff::Margin, THREAD_TABLE_BYTES));
}

thread_local! {
    /// This thread's searcher on a table that helper threads can share, for searches on
    /// several threads (made at the first, grown for an exact search that wants more),
    /// kept from call to call: a bot's next move finds its last move's positions there.
    static THREAD_SHARED_SEARCHER: RefCell<Option<Searcher>> = const { RefCell::new(None) };
}

/// The largest table the calling thread keeps for searches on several threads; an
/// exact search that wants more (28 piles or more) gets one of its own, freed after it.
const KEPT_SHARED_BYTES: usize = 32 << 20;

/// Where a search's transposition table lives.
pub enum On<'a> {
    /// The calling thread's tables, kept from call to call, and up to `threads`
    /// threads: what a door's functions use, and a server's many bots, which hold no
    /// table each. An exact search worth threads gets a new table sized for the
    /// position. `stop`, when given, stops the search too (a bot's stop flag).
    Thread {
        /// The most threads the search may take.
        threads: usize,
        /// A flag that stops the search when set.
        stop: Option<Arc<AtomicBool>>,
    },
    /// A searcher of the caller's (a door's `Searcher` object, a bot's own table), on
    /// its own threads ([`Searcher::with_threads`]).
    Searcher(&'a mut Searcher),
}

impl On<'_> {
    /// The calling thread's tables and up to `threads` threads.
    pub fn thread(threads: usize) -> On<'static> {
        On::Thread {
            threads,
            stop: None,
        }
    }
}

impl From<usize> for On<'static> {
    /// The calling thread's tables and up to so many threads.
    fn from(threads: usize) -> On<'static> {
        On::thread(threads)
    }
}

impl On<'_> {
    /// The same place for one more call, this one kept for later calls.
    pub fn reborrow(&mut self) -> On<'_> {
        match self {
            On::Thread { threads, stop } => On::Thread {
                threads: *threads,
                stop: stop.clone(),
            },
            On::Searcher(searcher) => On::Searcher(searcher),
        }
    }
}

impl<'a> From<&'a mut Searcher> for On<'a> {
    fn from(searcher: &'a mut Searcher) -> On<'a> {
        On::Searcher(searcher)
    }
}

/// Why an exact answer did not come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExactError {
    /// The analysis was not done within its time limit.
    NotInTime(Duration),
    /// The search was stopped or the calling thread interrupted
    /// ([`crate::run::interrupt`]).
    Interrupted,
}

impl std::fmt::Display for ExactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExactError::NotInTime(time) => write!(
                f,
                "the analysis was not done within its time limit of {} s",
                time.as_secs_f64()
            ),
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

impl crate::HasKind for ExactError {
    fn kind(&self) -> crate::ErrorKind {
        match self {
            ExactError::NotInTime(_) => crate::ErrorKind::SearchStopped,
            ExactError::Interrupted => crate::ErrorKind::Interrupted,
        }
    }
}

/// Runs `work` on the searcher that `on` names for a search of `position` within
/// `limits`: the caller's, or one of the calling thread's (its own table for one
/// thread, its shared one for a search within a time on threads, a new one sized for
/// the position for an exact search on threads, or its own when that cannot be had).
fn on_searcher<T>(
    on: On<'_>,
    position: &Position,
    limits: &Limits,
    work: impl FnOnce(&mut Searcher) -> T,
) -> T {
    let (threads, stop) = match on {
        On::Searcher(searcher) => return work(searcher),
        On::Thread { threads, stop } => (worth_threads(position, limits, threads), stop),
    };
    // The thread's searchers borrow the caller's stop flag for the while; the one of
    // one thread takes no helpers (where the shared one cannot be had, say).
    let lent = |searcher: &mut Searcher, threads: usize| {
        searcher.set_threads(threads);
        let Some(stop) = stop else {
            return work(searcher); // the common call: nothing to lend
        };
        let before = searcher.replace_halt(Some(stop));
        let out = work(searcher);
        searcher.replace_halt(before);
        out
    };
    if threads <= 1 {
        return with_thread_searcher(|searcher| lent(searcher, 1));
    }
    let wanted = if limits.are_none() {
        parallel_table_bytes(position)
    } else {
        THREAD_TABLE_BYTES
    };
    if wanted > KEPT_SHARED_BYTES {
        return match Searcher::with_threads(wanted, threads) {
            Ok(mut fresh) => lent(&mut fresh, threads),
            Err(TableAllocError { .. }) => with_thread_searcher(|searcher| lent(searcher, 1)),
        };
    }
    THREAD_SHARED_SEARCHER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            let small = slot
                .as_ref()
                .is_none_or(|kept| kept.table_bytes() < SharedTable::bytes_for(wanted));
            if small {
                *slot = Searcher::with_threads(wanted, threads).ok();
            }
            match slot.as_mut() {
                Some(searcher) => lent(searcher, threads),
                None => with_thread_searcher(|searcher| lent(searcher, 1)),
            }
        }
        Err(_) => with_thread_searcher(|searcher| lent(searcher, 1)),
    })
}

/// Runs `f` on this thread's one-thread margin searcher (or on a fresh small one if it
/// is busy: a progress callback that searches again).
pub(super) fn with_thread_searcher<T>(f: impl FnOnce(&mut Searcher) -> T) -> T {
    THREAD_SEARCHER.with(|s| match s.try_borrow_mut() {
        Ok(mut searcher) => {
            searcher.set_payoff(Payoff::Margin);
            f(&mut searcher)
        }
        Err(_) => f(&mut Searcher::new(Payoff::Margin, 1 << 20)),
    })
}

/// The search of `position` within `limits` (exact with none), on the table `on` names
/// and the threads it decides, telling `progress` of each finished iteration (`false`
/// ends the search after it): the one search every door runs.
///
/// ```
/// use buttonup::game::notation::parse;
/// use buttonup::search::{go, Limits, On};
/// let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
/// let found = go(&start, &Limits::default(), On::thread(2), &mut |_| true);
/// assert_eq!((found.best_move, found.value, found.exact), (Some(3), 1.0, true));
/// // 9 piles: not worth a second thread.
/// assert_eq!(found.threads, 1);
/// ```
pub fn go<'a>(
    position: &Position,
    limits: &Limits,
    on: impl Into<On<'a>>,
    progress: &mut dyn FnMut(&Iteration) -> bool,
) -> SearchResult {
    on_searcher(on.into(), position, limits, |searcher| {
        searcher.search_with(position, limits, progress)
    })
}

/// The exact value of `position` for its side to move (the final margin under perfect
/// play), on the table `on` names (a number: the calling thread's, with up to that
/// many threads).
///
/// ```
/// use buttonup::game::notation::parse;
/// let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
/// assert_eq!(buttonup::search::solve(&start, 1), Ok(1));
/// ```
pub fn solve<'a>(position: &Position, on: impl Into<On<'a>>) -> Result<i32, ExactError> {
    on_searcher(on.into(), position, &Limits::default(), |searcher| {
        let value = searcher.solve(position);
        if searcher.was_cut_short() {
            Err(ExactError::Interrupted)
        } else {
            Ok(value as i32)
        }
    })
}

/// The exact value, for the side to move, of every legal move of `position`, in
/// legal-move order, on the table `on` names.
///
/// ```
/// use buttonup::game::notation::parse;
/// let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
/// assert_eq!(buttonup::search::analyze(&start, 1), Ok(vec![(0, -1), (3, 1), (7, 0)]));
/// ```
pub fn analyze<'a>(
    position: &Position,
    on: impl Into<On<'a>>,
) -> Result<Vec<(usize, i32)>, ExactError> {
    on_searcher(on.into(), position, &Limits::default(), |searcher| {
        let values = searcher.analyze(position);
        if searcher.was_cut_short() {
            Err(ExactError::Interrupted)
        } else {
            Ok(whole(values))
        }
    })
}

/// [`analyze`] on the calling thread within `time`: [`ExactError::NotInTime`] if it is
/// not done by then.
///
/// ```
/// use buttonup::game::notation::parse;
/// use buttonup::search::{analyze_within, ExactError};
/// use std::time::Duration;
/// let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
/// let second = Duration::from_secs(1);
/// assert_eq!(analyze_within(&start, second, 1), Ok(vec![(0, -1), (3, 1), (7, 0)]));
/// let big = buttonup::game::rng::random_start(10, buttonup::Player::Red,
///     &mut buttonup::game::rng::SplitMix64::new(1)).unwrap();
/// let none = Duration::ZERO;
/// assert_eq!(analyze_within(&big, none, 1), Err(ExactError::NotInTime(none)));
/// ```
pub fn analyze_within<'a>(
    position: &Position,
    time: Duration,
    on: impl Into<On<'a>>,
) -> Result<Vec<(usize, i32)>, ExactError> {
    let limits = Limits {
        time: Some(time),
        ..Limits::default()
    };
    let deadline = Instant::now().checked_add(time);
    on_searcher(on.into(), position, &limits, |searcher| {
        let values = match deadline {
            Some(deadline) => searcher.analyze_until(position, deadline),
            None => Some(searcher.analyze(position)).filter(|_| !searcher.was_cut_short()),
        };
        match values {
            Some(values) => Ok(whole(values)),
            None if crate::run::interrupt::interrupted() => Err(ExactError::Interrupted),
            None => Err(ExactError::NotInTime(time)),
        }
    })
}

/// Margins, whole numbers.
fn whole(values: Vec<(usize, f64)>) -> Vec<(usize, i32)> {
    values.into_iter().map(|(mv, v)| (mv, v as i32)).collect()
}
