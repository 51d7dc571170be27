//! Search and solving for Python. Every search runs with the GIL released; a progress
//! callback attaches to the interpreter only to be called.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};

use super::convert::{self, Int, Moves, Real};
use super::errors::{out_of_range, raised, search_stopped, OrRaise};
use super::interrupt::run;
use super::position::PyPosition;
use super::results::{iteration_to_py, result_to_py};
use buttonup::game::rules::Position;
use buttonup::run::interrupt::Interrupted;
use buttonup::search::{self as core, Limits, On, SearchResult, Searcher};

/// Checks the limits given from Python.
pub(crate) fn limits(
    depth: Option<Int>,
    nodes: Option<Int>,
    time_limit: Option<Real>,
) -> PyResult<Limits> {
    let depth = depth
        .map(|d| d.within("depth", 1, i64::from(u32::MAX)))
        .transpose()?;
    let nodes = nodes.map(|n| n.within("nodes", 1, i64::MAX)).transpose()?;
    let time = time_limit.map(|t| seconds(&t, "time_limit")).transpose()?;
    Ok(Limits {
        depth: depth.map(|d| d as u32),
        nodes: nodes.map(|n| n as u64),
        time,
    })
}

/// A number of seconds given as `name`, as a duration.
pub(crate) fn seconds(value: &Real, name: &str) -> PyResult<Duration> {
    let value = value.value(name)?;
    if value.is_finite() && value >= 0.0 {
        Ok(Duration::from_secs_f64(value.min(1e9)))
    } else {
        Err(out_of_range(format!(
            "{name} must be a number of seconds, at least 0, not {value}"
        )))
    }
}

/// The Python callback of a search's iterations: `false` (end the search) when it
/// returned `False` or raised, the exception then kept in `failure`.
pub(crate) fn call_on_iteration(
    callback: Option<&Py<PyAny>>,
    iteration: &buttonup::search::Iteration,
    failure: &mut Option<PyErr>,
) -> bool {
    let Some(callback) = callback else {
        return true;
    };
    Python::attach(|py| {
        let answer =
            iteration_to_py(py, iteration).and_then(|result| callback.call1(py, (result,)));
        match answer {
            Ok(answer) => !answer.bind(py).is(PyBool::new(py, false)),
            Err(error) => {
                *failure = Some(error);
                false
            }
        }
    })
}

/// Runs the core's search of `position` within `limits` on the table `on` names,
/// calling `on_iteration` (if any) with each finished iteration. The callback's
/// exception, or its returning `False`, ends the search after that iteration; the
/// exception is raised.
fn run_search(
    position: &Position,
    limits: &Limits,
    on: On<'_>,
    on_iteration: Option<&Py<PyAny>>,
) -> PyResult<SearchResult> {
    let mut failure = None;
    let result = core::go(position, limits, on, &mut |iteration| {
        call_on_iteration(on_iteration, iteration, &mut failure)
    });
    match failure {
        Some(error) => Err(error),
        None => Ok(result),
    }
}

/// The exact value of `position` for the side to move under perfect play (a margin).
///
/// Positions of 16 piles or more are solved on `threads` threads sharing one table
/// (Lazy SMP; the same value); smaller ones on the calling thread. The solve runs
/// without the GIL; Ctrl-C stops it with `KeyboardInterrupt`.
///
/// Args:
///     position: the position to solve.
///     threads: the threads of a big solve, 1 to 256 (`None`: every core).
///
/// Returns:
///     The final margin the side to move can force: positive when it wins.
///
/// Raises:
///     ValueError: if `threads` is out of range.
///
/// Example:
///     >>> from buttonup import Position, solve
///     >>> solve(Position("W/R/B/W/B/R/R/W/B r"))
///     1
#[pyfunction]
#[pyo3(signature = (position, *, threads = None), text_signature = "(position, *, threads=None)")]
pub fn solve(py: Python<'_>, position: &PyPosition, threads: Option<Int>) -> PyResult<i64> {
    let p = position.inner;
    let threads = convert::threads(threads)?;
    let value = run(py, || core::solve(&p, threads))?.or_raise()?;
    Ok(i64::from(value))
}

/// The exact value, for the side to move, of every legal move: `{move: value}`.
///
/// For a position of 16 piles or more the moves are solved on `threads` threads
/// sharing one table; smaller ones on the calling thread. The values are the same.
/// With `time_limit` the analysis runs on the calling thread.
///
/// Args:
///     position: the position to analyse.
///     threads: the threads of a big analysis, 1 to 256 (`None`: every core).
///     time_limit: the most seconds it may take (`None`: no limit).
///
/// Returns:
///     A dict from each legal move to its exact value.
///
/// Raises:
///     SearchStoppedError: if the analysis is not done within `time_limit` (values are
///         exact or not given).
///     ValueError: if `threads` or `time_limit` is out of range.
///
/// Example:
///     >>> from buttonup import Position, analyze
///     >>> analyze(Position("W/R/B/W/B/R/R/W/B r"))
///     {0: -1, 3: 1, 7: 0}
#[pyfunction]
#[pyo3(
    signature = (position, *, threads = None, time_limit = None),
    text_signature = "(position, *, threads=None, time_limit=None)"
)]
pub fn analyze<'py>(
    py: Python<'py>,
    position: &PyPosition,
    threads: Option<Int>,
    time_limit: Option<Real>,
) -> PyResult<Bound<'py, PyDict>> {
    let p = position.inner;
    let threads = convert::threads(threads)?;
    let time = limits(None, None, time_limit)?.time;
    let values = run(py, || match time {
        Some(time) => core::analyze_within(&p, time, threads),
        None => core::analyze(&p, threads),
    })?
    .or_raise()?;
    let dict = PyDict::new(py);
    for (mv, value) in values {
        dict.set_item(mv, value)?;
    }
    Ok(dict)
}

/// Each of `moves` played from a battle's `start` judged against perfect play:
/// `(best, played, best_moves, best_line)`, the mover's best margin and the played
/// move's (exact, or `None` where not solved in time), the moves of the best value and
/// the best line. Each analysis and each line takes at most `time_limit` seconds and the
/// whole review `budget` seconds; the last moves are judged first, so a short budget
/// leaves unknown the first moves of a big battle. An illegal move raises
/// `IllegalMoveError` before any search.
#[pyfunction]
#[pyo3(signature = (start, moves, *, time_limit, budget))]
pub fn review(
    py: Python<'_>,
    start: &PyPosition,
    moves: Moves<'_>,
    time_limit: Real,
    budget: Real,
) -> PyResult<Vec<ReviewTuple>> {
    let per_position = seconds(&time_limit, "time_limit")?;
    let budget = seconds(&budget, "budget")?;
    let moves = moves
        .ints("moves")?
        .iter()
        .map(|mv| Ok(mv.within("move", 0, 63)? as usize))
        .collect::<PyResult<Vec<_>>>()?;
    let start = start.inner;
    let judged = run(py, || core::review(1, &start, &moves, per_position, budget))?.or_raise()?;
    Ok(judged
        .into_iter()
        .map(|m| (m.best, m.played, m.best_moves, m.best_line))
        .collect())
}

/// What [`review`] gives for one move.
type ReviewTuple = (Option<i32>, Option<i32>, Vec<usize>, Vec<usize>);

/// Iterative-deepening alpha-beta search of `position` within the limits.
///
/// Exact when no limit is given. An exact search (no limit) of a position of 16 piles
/// or more runs on `threads` threads sharing one table (Lazy SMP: the same value and
/// best move), and so does a search within a time alone (on the thread's second
/// table: deeper in the same time); depth and node limits, and smaller positions, run
/// on the calling thread.
///
/// Args:
///     position: the position to search.
///     depth: the most plies, 1 or more (`None`: no limit).
///     nodes: the most positions visited, 1 or more (`None`: no limit).
///     time_limit: the most seconds (`None`: no limit).
///     on_iteration: called with a `SearchResult` for each finished iteration;
///         returning `False` from it ends the search, and an exception it raises ends
///         the search and is raised.
///     threads: the threads, 1 to 256 (`None`: every core).
///
/// Returns:
///     The `SearchResult` of the last finished iteration.
///
/// Raises:
///     ValueError: if a limit or `threads` is out of range.
///
/// Example:
///     >>> from buttonup import Position, search
///     >>> result = search(Position("W/R/B/W/B/R/R/W/B r"))
///     >>> result.best_move, result.value, result.exact, result.pv
///     (3, 1, True, (3, 0, 0, 1, 3, 3, 2, 0))
///     >>> search(Position("W/R/B/W/B/R/R/W/B r"), depth=2).exact
///     False
#[pyfunction]
#[pyo3(signature = (position, *, depth = None, nodes = None, time_limit = None, on_iteration = None, threads = None))]
pub fn search<'py>(
    py: Python<'py>,
    position: &PyPosition,
    depth: Option<Int>,
    nodes: Option<Int>,
    time_limit: Option<Real>,
    on_iteration: Option<Py<PyAny>>,
    threads: Option<Int>,
) -> PyResult<Bound<'py, PyAny>> {
    let limits = limits(depth, nodes, time_limit)?;
    let threads = convert::threads(threads)?;
    let p = position.inner;
    let callback = on_iteration.as_ref();
    let result = run(py, || {
        run_search(&p, &limits, On::thread(threads), callback)
    })??;
    result_to_py(py, &result)
}

/// A searcher with its own transposition table, which another thread can stop.
///
/// With `threads` above 1 (`None`: every core) the table is one that threads share,
/// and a solve, or an exact search (no limit), of a position of 16 piles or more runs
/// on that many threads (Lazy SMP: the same value and best move), as does a search
/// within a time alone (deeper in the same time); depth and node limits and smaller
/// positions run on the calling thread.
///
/// Its table carries over from search to search until `clear()`. One search runs at
/// a time: a call made while another thread's search runs waits for it.
///
/// Args:
///     tt_mb: the size of the table in MiB, 0.001 to 65536.
///     threads: the threads of a big solve or search, 1 to 256 (`None`: every core).
///
/// Raises:
///     ValueError: if `tt_mb` or `threads` is out of range.
///     MemoryError: if the table cannot be allocated.
///
/// Example:
///     >>> from buttonup import Position, Searcher
///     >>> searcher = Searcher(tt_mb=1)
///     >>> searcher.tt_bytes, searcher.threads
///     (1048576, 1)
///     >>> searcher.solve(Position("W/R/B/W/B/R/R/W/B r"))
///     1
#[pyclass(module = "buttonup", name = "Searcher", frozen)]
pub struct PySearcher {
    /// Locked only while detached from the interpreter.
    searcher: Mutex<Searcher>,
    /// What the controls read without the lock.
    stop: Arc<AtomicBool>,
    table_bytes: AtomicUsize,
    threads: usize,
}

thread_local! {
    /// The objects whose lock this thread holds (by address): a progress callback
    /// that uses its own searcher or bot again is refused rather than waiting for ever.
    static HELD: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// An object's lock, held by this thread until dropped.
pub(crate) struct Held<'a, T> {
    guard: MutexGuard<'a, T>,
    key: usize,
}

impl<T> Drop for Held<'_, T> {
    fn drop(&mut self) {
        HELD.with(|held| held.borrow_mut().retain(|&key| key != self.key));
    }
}

impl<T> std::ops::Deref for Held<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.guard
    }
}

impl<T> std::ops::DerefMut for Held<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.guard
    }
}

/// How long a wait for another thread's search sleeps between looks.
const LOCK_POLL: Duration = Duration::from_micros(200);

/// The lock of `mutex`, taken without the GIL: a `RuntimeError` saying `busy` if this
/// thread holds it already (a progress callback using the object that called it), and
/// a wait for another thread's search that Ctrl-C ends.
pub(crate) fn hold<'a, T>(mutex: &'a Mutex<T>, busy: &str) -> PyResult<Held<'a, T>> {
    let key = mutex as *const Mutex<T> as usize;
    if HELD.with(|held| held.borrow().contains(&key)) {
        return Err(PyRuntimeError::new_err(busy.to_string()));
    }
    let guard = loop {
        match mutex.try_lock() {
            Ok(guard) => break guard,
            Err(TryLockError::WouldBlock) => {
                if buttonup::run::interrupt::interrupted() {
                    return Err(raised(Interrupted));
                }
                std::thread::sleep(LOCK_POLL);
            }
            Err(TryLockError::Poisoned(_)) => return Err(poisoned()),
        }
    };
    HELD.with(|held| held.borrow_mut().push(key));
    Ok(Held { guard, key })
}

impl PySearcher {
    /// The searcher's lock (see [`hold`]).
    fn lock(&self) -> PyResult<Held<'_, Searcher>> {
        hold(
            &self.searcher,
            "this Searcher is busy with the search that called this progress callback: \
             a callback cannot search, solve or clear its own Searcher (use another one, \
             or return False to end the search)",
        )
    }
}

#[pymethods]
impl PySearcher {
    #[new]
    #[pyo3(signature = (*, tt_mb = Real::of(16.0), threads = Some(Int::of(1))), text_signature = "(*, tt_mb=16.0, threads=1)")]
    fn new(tt_mb: Real, threads: Option<Int>) -> PyResult<Self> {
        let bytes = table_bytes(&tt_mb)?;
        let threads = convert::threads(threads)?;
        let searcher = Searcher::with_threads(bytes, threads).or_raise()?;
        let threads = searcher.threads();
        let stop = searcher.stop_flag();
        Ok(PySearcher {
            table_bytes: AtomicUsize::new(searcher.table_bytes()),
            searcher: Mutex::new(searcher),
            stop,
            threads,
        })
    }

    /// Searches `position` on this searcher's table: as `buttonup.search`.
    ///
    /// A `stop()` ends it early with the best move so far.
    ///
    /// Args:
    ///     position: the position to search.
    ///     depth: the most plies, 1 or more (`None`: no limit).
    ///     nodes: the most positions visited, 1 or more (`None`: no limit).
    ///     time_limit: the most seconds (`None`: no limit).
    ///     on_iteration: called with a `SearchResult` for each finished iteration;
    ///         returning `False` from it ends the search.
    ///
    /// Returns:
    ///     The `SearchResult` of the last finished iteration.
    ///
    /// Raises:
    ///     ValueError: if a limit is out of range.
    ///     RuntimeError: if called from its own `on_iteration` callback.
    #[pyo3(signature = (position, *, depth = None, nodes = None, time_limit = None, on_iteration = None))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        position: &PyPosition,
        depth: Option<Int>,
        nodes: Option<Int>,
        time_limit: Option<Real>,
        on_iteration: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let limits = limits(depth, nodes, time_limit)?;
        let p = position.inner;
        let result = run(py, || {
            let mut searcher = self.lock()?;
            run_search(
                &p,
                &limits,
                On::Searcher(&mut searcher),
                on_iteration.as_ref(),
            )
        })??;
        result_to_py(py, &result)
    }

    /// The exact value of `position` for the side to move: as `buttonup.solve`.
    ///
    /// Raises:
    ///     SearchStoppedError: if a `stop()` ends it before it has the exact value.
    ///     RuntimeError: if called from its own `on_iteration` callback.
    fn solve(&self, py: Python<'_>, position: &PyPosition) -> PyResult<i64> {
        let p = position.inner;
        run(py, || {
            let mut searcher = self.lock()?;
            // Cut short here is a `stop()` (`run` raises an interruption itself).
            let value = core::solve(&p, &mut *searcher).map_err(|_| search_stopped())?;
            Ok(i64::from(value))
        })?
    }

    /// Stops the search or solve running in another thread.
    ///
    /// A search returns its best move so far; a solve raises `SearchStoppedError`. A stop
    /// sent while nothing runs stops the next search: it is never lost.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Withdraws a `stop()` that no search has used yet.
    ///
    /// A front end that starts searches and stops them from one thread calls it before
    /// each search, so that a stop arriving just as the previous search ended cannot stop
    /// the next one.
    fn clear_stop(&self) {
        self.stop.store(false, Ordering::Relaxed);
    }

    /// Forgets every stored position (waiting, without the GIL, for a running search).
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        run(py, || {
            self.lock()?.clear();
            Ok(())
        })?
    }

    /// The size of the transposition table in bytes (read without waiting for a search).
    #[getter]
    fn tt_bytes(&self) -> usize {
        self.table_bytes.load(Ordering::Relaxed)
    }

    /// The threads a solve or an exact search uses (see the class).
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }
}

/// A table size in MiB, checked: its bytes.
pub(crate) fn table_bytes(tt_mb: &Real) -> PyResult<usize> {
    let tt_mb = tt_mb.value("tt_mb")?;
    if !(tt_mb.is_finite() && (0.001..=65536.0).contains(&tt_mb)) {
        return Err(out_of_range(format!(
            "tt_mb must be from 0.001 to 65536 (MiB), not {tt_mb}"
        )));
    }
    Ok((tt_mb * 1048576.0) as usize)
}

/// Locks a mutex; a panic in another thread that held it becomes a `RuntimeError`.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> PyResult<MutexGuard<'_, T>> {
    mutex.lock().map_err(|_| poisoned())
}

fn poisoned() -> PyErr {
    PyRuntimeError::new_err("a search failed in another thread")
}
