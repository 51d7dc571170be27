//! Search and solving for Python. Every search runs with the GIL released; a progress
//! callback attaches to the interpreter only to be called.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use pyo3::exceptions::{PyMemoryError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyType};

use super::convert::{self, Int};
use super::errors::{out_of_range, search_stopped};
use super::interrupt::run;
use super::position::PyPosition;
use crate::search::{Iteration, Limits, Payoff, SearchResult, Searcher};

/// Transposition table of the searcher each thread uses for the module functions.
const THREAD_TABLE_BYTES: usize = 8 << 20;

thread_local! {
    static THREAD_SEARCHER: RefCell<Searcher> =
        RefCell::new(Searcher::new(Payoff::Margin, THREAD_TABLE_BYTES));
}

/// Runs `f` on this thread's margin searcher (or on a fresh one if this thread's is
/// busy: a progress callback that searches again).
fn with_thread_searcher<T>(f: impl FnOnce(&mut Searcher) -> T) -> T {
    THREAD_SEARCHER.with(|s| match s.try_borrow_mut() {
        Ok(mut searcher) => {
            searcher.set_payoff(Payoff::Margin);
            f(&mut searcher)
        }
        Err(_) => f(&mut Searcher::new(Payoff::Margin, 1 << 20)),
    })
}

/// The result of a search (also what a progress callback is given for each finished
/// iteration). Equal results compare equal; results pickle.
#[pyclass(module = "buttonup", name = "SearchResult", frozen, eq, get_all)]
#[derive(Clone, PartialEq)]
pub struct PySearchResult {
    /// The best move found (`None` only if the battle is over).
    best_move: Option<usize>,
    /// The value for the side to move: the exact margin, or an estimate.
    value: i64,
    /// Whether the value is exact (the search reached the end of every line).
    exact: bool,
    /// The deepest iteration completed.
    depth: u32,
    /// Positions visited.
    nodes: u64,
    /// The expected line, starting with `best_move`.
    pv: Vec<usize>,
    /// Seconds taken.
    elapsed: f64,
}

#[pymethods]
impl PySearchResult {
    #[new]
    #[pyo3(signature = (best_move, value, exact, depth, nodes, pv, elapsed))]
    fn new(
        best_move: Option<usize>,
        value: i64,
        exact: bool,
        depth: u32,
        nodes: u64,
        pv: Vec<usize>,
        elapsed: f64,
    ) -> Self {
        PySearchResult {
            best_move,
            value,
            exact,
            depth,
            nodes,
            pv,
            elapsed,
        }
    }

    fn __repr__(&self) -> String {
        let best = self.best_move.map_or("None".to_string(), |m| m.to_string());
        let exact = if self.exact { "True" } else { "False" };
        format!(
            "SearchResult(best_move={best}, value={}, exact={exact}, depth={}, nodes={}, pv={:?}, elapsed={:.6})",
            self.value, self.depth, self.nodes, self.pv, self.elapsed
        )
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, PyType>,
        (Option<usize>, i64, bool, u32, u64, Vec<usize>, f64),
    ) {
        let r = slf.get();
        (
            slf.get_type(),
            (
                r.best_move,
                r.value,
                r.exact,
                r.depth,
                r.nodes,
                r.pv.clone(),
                r.elapsed,
            ),
        )
    }
}

impl From<SearchResult> for PySearchResult {
    fn from(r: SearchResult) -> Self {
        PySearchResult {
            best_move: r.best_move,
            value: r.value.round() as i64,
            exact: r.exact,
            depth: r.depth,
            nodes: r.nodes,
            pv: r.pv,
            elapsed: r.elapsed.as_secs_f64(),
        }
    }
}

impl From<&Iteration> for PySearchResult {
    fn from(it: &Iteration) -> Self {
        PySearchResult {
            best_move: it.pv.first().copied(),
            value: it.value.round() as i64,
            exact: it.exact,
            depth: it.depth,
            nodes: it.nodes,
            pv: it.pv.clone(),
            elapsed: it.elapsed.as_secs_f64(),
        }
    }
}

/// Checks the limits given from Python.
fn limits(depth: Option<Int>, nodes: Option<Int>, time_limit: Option<f64>) -> PyResult<Limits> {
    let depth = depth
        .map(|d| d.within("depth", 1, i64::from(u32::MAX)))
        .transpose()?;
    let nodes = nodes.map(|n| n.within("nodes", 1, i64::MAX)).transpose()?;
    let time = match time_limit {
        None => None,
        Some(t) if t.is_finite() && t >= 0.0 => Some(Duration::from_secs_f64(t.min(1e9))),
        Some(t) => {
            return Err(out_of_range(format!(
                "time_limit must be a number of seconds, at least 0, not {t}"
            )))
        }
    };
    Ok(Limits {
        depth: depth.map(|d| d as u32),
        nodes: nodes.map(|n| n as u64),
        time,
    })
}

/// Runs a search on `searcher`, calling `on_iteration` (if any) with each finished
/// iteration. The callback's exception, or its returning `False`, ends the search after
/// that iteration; the exception is raised.
fn run_search(
    searcher: &mut Searcher,
    position: &crate::rules::Position,
    limits: &Limits,
    on_iteration: Option<&Py<PyAny>>,
) -> PyResult<PySearchResult> {
    let mut failure = None;
    let result = searcher.search_with(position, limits, &mut |iteration| {
        let Some(callback) = on_iteration else {
            return true;
        };
        Python::attach(
            |py| match callback.call1(py, (PySearchResult::from(iteration),)) {
                Ok(answer) => !answer.bind(py).is(PyBool::new(py, false)),
                Err(error) => {
                    failure = Some(error);
                    false
                }
            },
        )
    });
    match failure {
        Some(error) => Err(error),
        None => Ok(result.into()),
    }
}

/// Positions with at least this many piles are solved on several threads when asked.
const PARALLEL_FROM_PILES: usize = 16;

/// The table that the threads of one parallel solve share: small enough to stay in the
/// cache for up to 8 buttons of each colour (measured: 8-12 MiB is fastest there),
/// larger beyond (9 of each colour: 32 MiB beats 8).
fn parallel_table_bytes(piles: usize) -> usize {
    if piles <= 24 {
        12 << 20
    } else {
        32 << 20
    }
}

/// The exact value of `position` for the side to move under perfect play (a margin).
/// Positions of 16 piles or more are solved on `threads` threads (default: every core)
/// sharing one table; smaller ones on the calling thread.
#[pyfunction]
#[pyo3(signature = (position, *, threads = None), text_signature = "(position, *, threads=None)")]
pub fn solve(py: Python<'_>, position: &PyPosition, threads: Option<Int>) -> PyResult<i64> {
    let p = position.inner;
    let threads = convert::threads(threads)?;
    if threads > 1 && p.pile_count() >= PARALLEL_FROM_PILES {
        let value = run(py, || {
            crate::search::solve_parallel(&p, parallel_table_bytes(p.pile_count()), threads)
        })?
        .map_err(|error| PyMemoryError::new_err(error.to_string()))?;
        // Unreachable when cut short: `run` raised the interruption.
        return Ok(value.map_or(0, i64::from));
    }
    run(py, || with_thread_searcher(|s| s.solve(&p) as i64))
}

/// The exact value, for the side to move, of every legal move: `{move: value}`.
#[pyfunction]
pub fn analyze<'py>(py: Python<'py>, position: &PyPosition) -> PyResult<Bound<'py, PyDict>> {
    let p = position.inner;
    let values = run(py, || with_thread_searcher(|s| s.analyze(&p)))?;
    let dict = PyDict::new(py);
    for (mv, value) in values {
        dict.set_item(mv, value as i64)?;
    }
    Ok(dict)
}

/// Iterative-deepening alpha-beta within the limits (`depth` plies, `nodes` visited,
/// `time_limit` seconds); exact when none is given. `on_iteration`, if given, is called
/// with a `SearchResult` for each finished iteration; returning `False` from it ends the
/// search.
#[pyfunction]
#[pyo3(signature = (position, *, depth = None, nodes = None, time_limit = None, on_iteration = None))]
pub fn search(
    py: Python<'_>,
    position: &PyPosition,
    depth: Option<Int>,
    nodes: Option<Int>,
    time_limit: Option<f64>,
    on_iteration: Option<Py<PyAny>>,
) -> PyResult<PySearchResult> {
    let limits = limits(depth, nodes, time_limit)?;
    let p = position.inner;
    run(py, || {
        with_thread_searcher(|s| run_search(s, &p, &limits, on_iteration.as_ref()))
    })?
}

/// A searcher with its own transposition table of `tt_mb` MiB, which another thread
/// can stop.
#[pyclass(module = "buttonup", name = "Searcher", frozen)]
pub struct PySearcher {
    /// Locked only while detached from the interpreter.
    searcher: Mutex<Searcher>,
    /// What the controls read without the lock.
    stop: Arc<AtomicBool>,
    table_bytes: AtomicUsize,
}

impl PySearcher {
    fn lock(&self) -> PyResult<MutexGuard<'_, Searcher>> {
        lock(&self.searcher)
    }
}

#[pymethods]
impl PySearcher {
    #[new]
    #[pyo3(signature = (tt_mb = 16.0))]
    fn new(tt_mb: f64) -> PyResult<Self> {
        if !(tt_mb.is_finite() && (0.001..=65536.0).contains(&tt_mb)) {
            return Err(out_of_range(format!(
                "tt_mb must be from 0.001 to 65536 (MiB), not {tt_mb}"
            )));
        }
        let searcher = Searcher::try_new(Payoff::Margin, (tt_mb * 1048576.0) as usize)
            .map_err(|error| PyMemoryError::new_err(error.to_string()))?;
        let stop = searcher.stop_flag();
        Ok(PySearcher {
            table_bytes: AtomicUsize::new(searcher.table_bytes()),
            searcher: Mutex::new(searcher),
            stop,
        })
    }

    /// See `buttonup.search`.
    #[pyo3(signature = (position, *, depth = None, nodes = None, time_limit = None, on_iteration = None))]
    fn search(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        depth: Option<Int>,
        nodes: Option<Int>,
        time_limit: Option<f64>,
        on_iteration: Option<Py<PyAny>>,
    ) -> PyResult<PySearchResult> {
        let limits = limits(depth, nodes, time_limit)?;
        let p = position.inner;
        run(py, || {
            run_search(&mut *self.lock()?, &p, &limits, on_iteration.as_ref())
        })?
    }

    /// See `buttonup.solve`. A `stop()` ends it with `SearchStoppedError`.
    fn solve(&self, py: Python<'_>, position: &PyPosition) -> PyResult<i64> {
        let p = position.inner;
        run(py, || {
            let mut searcher = self.lock()?;
            let value = searcher.solve(&p);
            if searcher.was_cut_short() {
                return Err(search_stopped());
            }
            Ok(value as i64)
        })?
    }

    /// Stops the search or solve running in another thread (a search returns its best
    /// move so far). A stop sent while nothing runs stops the next search: it is never
    /// lost.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Withdraws a `stop()` that no search has used yet. A front end that starts
    /// searches and stops them from one thread calls it before each search, so that a
    /// stop arriving just as the previous search ended cannot stop the next one.
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
}

/// Locks a mutex; a panic in another thread that held it becomes a `RuntimeError`.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> PyResult<MutexGuard<'_, T>> {
    mutex
        .lock()
        .map_err(|_| PyRuntimeError::new_err("a search failed in another thread"))
}
