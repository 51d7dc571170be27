//! Search, solving and match odds for Python. Every search runs with the GIL released.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::player_from_py;
use super::errors::out_of_range;
use super::position::PyPosition;
use crate::matchprob::MatchOdds;
use crate::rules::Player;
use crate::search::{Limits, Payoff, SearchResult, Searcher};

/// Transposition table of the searcher each thread uses for the module functions.
const THREAD_TABLE_BYTES: usize = 8 << 20;

/// Transposition table of the searcher each thread uses for match payoffs (cleared
/// whenever the payoff changes, so kept small).
const MATCH_TABLE_BYTES: usize = 1 << 20;

thread_local! {
    static THREAD_SEARCHER: RefCell<Searcher> =
        RefCell::new(Searcher::new(Payoff::Margin, THREAD_TABLE_BYTES));
    static MATCH_SEARCHER: RefCell<Searcher> =
        RefCell::new(Searcher::new(Payoff::Margin, MATCH_TABLE_BYTES));
}

/// Runs `f` on this thread's margin searcher.
fn with_thread_searcher<T>(f: impl FnOnce(&mut Searcher) -> T) -> T {
    THREAD_SEARCHER.with(|s| {
        let mut searcher = s.borrow_mut();
        searcher.set_payoff(Payoff::Margin);
        f(&mut searcher)
    })
}

/// The result of `buttonup.search`.
#[pyclass(module = "buttonup", name = "SearchResult", frozen, get_all)]
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
    fn __repr__(&self) -> String {
        let best = self.best_move.map_or("None".to_string(), |m| m.to_string());
        let exact = if self.exact { "True" } else { "False" };
        format!(
            "SearchResult(best_move={best}, value={}, exact={exact}, depth={}, nodes={}, pv={:?}, elapsed={:.6})",
            self.value, self.depth, self.nodes, self.pv, self.elapsed
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

/// Checks the limits given from Python.
fn limits(depth: Option<i64>, nodes: Option<i64>, time_limit: Option<f64>) -> PyResult<Limits> {
    if let Some(d) = depth.filter(|&d| d < 1) {
        return Err(out_of_range(format!("depth must be at least 1, not {d}")));
    }
    if let Some(n) = nodes.filter(|&n| n < 1) {
        return Err(out_of_range(format!("nodes must be at least 1, not {n}")));
    }
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
        depth: depth.map(|d| d.min(i64::from(u32::MAX)) as u32),
        nodes: nodes.map(|n| n as u64),
        time,
    })
}

/// The exact value of `position` for the side to move under perfect play (a margin).
#[pyfunction]
pub fn solve(py: Python<'_>, position: &PyPosition) -> i64 {
    let p = position.inner;
    py.detach(|| with_thread_searcher(|s| s.solve(&p) as i64))
}

/// The exact value, for the side to move, of every legal move.
#[pyfunction]
pub fn analyze<'py>(py: Python<'py>, position: &PyPosition) -> PyResult<Bound<'py, PyDict>> {
    let p = position.inner;
    let values = py.detach(|| with_thread_searcher(|s| s.analyze(&p)));
    let dict = PyDict::new(py);
    for (mv, value) in values {
        dict.set_item(mv, value as i64)?;
    }
    Ok(dict)
}

/// Iterative-deepening alpha-beta within the limits; exact when none is given.
#[pyfunction]
#[pyo3(signature = (position, *, depth = None, nodes = None, time_limit = None))]
pub fn search(
    py: Python<'_>,
    position: &PyPosition,
    depth: Option<i64>,
    nodes: Option<i64>,
    time_limit: Option<f64>,
) -> PyResult<PySearchResult> {
    let limits = limits(depth, nodes, time_limit)?;
    let p = position.inner;
    Ok(py
        .detach(|| with_thread_searcher(|s| s.search(&p, &limits)))
        .into())
}

/// A searcher with its own transposition table, which another thread can stop.
#[pyclass(module = "buttonup", name = "Searcher", frozen)]
pub struct PySearcher {
    searcher: Mutex<Searcher>,
    stop: Arc<AtomicBool>,
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
        let searcher = Searcher::new(Payoff::Margin, (tt_mb * 1048576.0) as usize);
        let stop = searcher.stop_flag();
        Ok(PySearcher {
            searcher: Mutex::new(searcher),
            stop,
        })
    }

    /// See `buttonup.search`.
    #[pyo3(signature = (position, *, depth = None, nodes = None, time_limit = None))]
    fn search(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        depth: Option<i64>,
        nodes: Option<i64>,
        time_limit: Option<f64>,
    ) -> PyResult<PySearchResult> {
        let limits = limits(depth, nodes, time_limit)?;
        let p = position.inner;
        py.detach(|| Ok(self.lock()?.search(&p, &limits).into()))
    }

    /// See `buttonup.solve`.
    fn solve(&self, py: Python<'_>, position: &PyPosition) -> PyResult<i64> {
        let p = position.inner;
        py.detach(|| Ok(self.lock()?.solve(&p) as i64))
    }

    /// Stops the search running in another thread; it returns its best move so far.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Forgets every stored position.
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| {
            self.lock()?.clear();
            Ok(())
        })
    }

    /// The size of the transposition table in bytes.
    #[getter]
    fn tt_bytes(&self) -> PyResult<usize> {
        Ok(self.lock()?.table_bytes())
    }
}

type SharedOdds = Arc<Mutex<MatchOdds>>;

/// Locks a mutex; a panic in another thread that held it becomes a `RuntimeError`.
fn lock<T>(mutex: &Mutex<T>) -> PyResult<MutexGuard<'_, T>> {
    mutex
        .lock()
        .map_err(|_| PyRuntimeError::new_err("a search failed in another thread"))
}

/// Match tables, built once per (target, buttons of each colour).
fn match_odds(target: u32, per_colour: usize) -> PyResult<SharedOdds> {
    static TABLES: OnceLock<Mutex<HashMap<(u32, usize), SharedOdds>>> = OnceLock::new();
    let mut tables = lock(TABLES.get_or_init(Default::default))?;
    if let Some(table) = tables.get(&(target, per_colour)) {
        return Ok(Arc::clone(table));
    }
    let table = Arc::new(Mutex::new(
        MatchOdds::new(target, per_colour).map_err(out_of_range)?,
    ));
    tables.insert((target, per_colour), Arc::clone(&table));
    Ok(table)
}

fn points(name: &str, value: i64) -> PyResult<u32> {
    u32::try_from(value)
        .map_err(|_| out_of_range(format!("{name} must be at least 0, not {value}")))
}

fn target_arg(target: i64) -> PyResult<u32> {
    match u32::try_from(target) {
        Ok(t) if (1..=1000).contains(&t) => Ok(t),
        _ => Err(out_of_range(format!(
            "target must be from 1 to 1000, not {target}"
        ))),
    }
}

/// Red's exact probability of winning the match from a battle about to start.
#[pyfunction]
#[pyo3(signature = (red_points, black_points, to_start, target = 15, chooser = None, per_colour = 3))]
pub fn win_probability(
    py: Python<'_>,
    red_points: i64,
    black_points: i64,
    to_start: &Bound<'_, PyAny>,
    target: i64,
    chooser: Option<&Bound<'_, PyAny>>,
    per_colour: usize,
) -> PyResult<f64> {
    let (red, black) = (
        points("red_points", red_points)?,
        points("black_points", black_points)?,
    );
    let to_start = player_from_py(Some(to_start), Player::Red)?;
    let chooser = optional_player(chooser)?;
    let target = target_arg(target)?;
    py.detach(|| {
        let table = match_odds(target, per_colour)?;
        let mut odds = lock(&table)?;
        Ok(odds.win_probability(red, black, to_start, chooser))
    })
}

fn optional_player(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Player>> {
    match value {
        Some(v) if !v.is_none() => Ok(Some(player_from_py(Some(v), Player::Red)?)),
        _ => Ok(None),
    }
}

/// Red's exact probability of winning the match after each legal move of `position`, a
/// battle in a match at `red_points`-`black_points` started by `starter`.
#[pyfunction]
#[pyo3(signature = (position, red_points, black_points, starter, target = 15, chooser = None))]
pub fn match_analyze<'py>(
    py: Python<'py>,
    position: &PyPosition,
    red_points: i64,
    black_points: i64,
    starter: &Bound<'py, PyAny>,
    target: i64,
    chooser: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (red, black) = (
        points("red_points", red_points)?,
        points("black_points", black_points)?,
    );
    let starter = player_from_py(Some(starter), Player::Red)?;
    let chooser = optional_player(chooser)?;
    let target = target_arg(target)?;
    let p = position.inner;
    let per_colour = p.button_count() / 3;
    if p.button_count() % 3 != 0 {
        return Err(out_of_range(
            "match play needs as many buttons of each colour".to_string(),
        ));
    }
    let values = py.detach(|| -> PyResult<Vec<(usize, f64)>> {
        let table = match_odds(target, per_colour)?;
        let payoff = lock(&table)?.payoff(red, black, starter, chooser);
        Ok(MATCH_SEARCHER.with(|s| {
            let mut searcher = s.borrow_mut();
            searcher.set_payoff(payoff);
            let side = p.to_move();
            searcher
                .analyze(&p)
                .into_iter()
                .map(|(mv, v)| {
                    let red_value = if side == Player::Red { v } else { -v };
                    (mv, (red_value + 1.0) / 2.0)
                })
                .collect()
        }))
    })?;
    let dict = PyDict::new(py);
    for (mv, value) in values {
        dict.set_item(mv, value)?;
    }
    Ok(dict)
}
