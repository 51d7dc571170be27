//! The page's analysis for Python (`buttonup::page::analysis`): conversions only. Every
//! search runs without the GIL on the calling thread's searchers, Ctrl-C stopping it.

use crate::errors::OrRaise;
use std::sync::Mutex;
use std::time::Duration;

use pyo3::prelude::*;

use super::convert::{self, move_index, optional_player, Int, Moves, Real};
use super::draw::{battle_number, view_to_py};
use super::errors::wrong_type;
use super::interrupt::run;
use super::matches::PyMatch;
use super::position::PyPosition;
use super::search::seconds;
use buttonup::game::match_rules::{Match, MatchError};
use buttonup::odds::with_match_searcher;
use buttonup::page::analysis::{self, Chart, Searchers};
use buttonup::page::view::{self, Json};
use buttonup::search::On;

/// Runs `work` on this thread's tables, with every core for a search within a time
/// (as `search`), and its match-odds searcher.
pub(crate) fn with_searchers<T>(threads: usize, work: impl FnOnce(&mut Searchers<'_>) -> T) -> T {
    with_match_searcher(|odds| {
        work(&mut Searchers {
            margin: On::thread(threads),
            odds,
        })
    })
}

/// What changes a chart: `Chart::note` or `Chart::backfill`.
type Change = fn(&mut Chart, &Match, Duration, &mut Searchers<'_>) -> Result<(), MatchError>;

/// The chart's points of a match (`buttonup::page::analysis::Chart`). Its searches run
/// on a copy, its points merged in after: a page reading the chart never waits for one.
#[pyclass(name = "Chart", module = "buttonup._core", frozen)]
pub(crate) struct PyChart {
    inner: Mutex<Chart>,
}

impl PyChart {
    /// A copy of the chart, `change` run on it without the GIL, then merged back.
    fn change(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyMatch>,
        limit: Real,
        change: Change,
    ) -> PyResult<()> {
        let (limit, threads) = (seconds(&limit, "limit")?, convert::threads(None)?);
        let game = game.get().snapshot()?;
        let mut work = self.chart().clone();
        let work = run(py, move || {
            with_searchers(threads, |searchers| {
                change(&mut work, &game, limit, searchers)
            })
            .map(|()| work)
        })?
        .or_raise()?;
        self.chart().absorb(work);
        Ok(())
    }

    fn chart(&self) -> std::sync::MutexGuard<'_, Chart> {
        // A chart is only ever added to: one left by a panic is still a good chart.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[pymethods]
impl PyChart {
    #[new]
    fn new() -> PyChart {
        PyChart {
            inner: Mutex::new(Chart::new()),
        }
    }

    /// Records the point for the state `match` is in (after every change), each margin
    /// solved within `limit` seconds.
    fn note(&self, py: Python<'_>, r#match: &Bound<'_, PyMatch>, limit: Real) -> PyResult<()> {
        self.change(py, r#match, limit, Chart::note)
    }

    /// Records the points `note` would have for a match read from a record.
    fn backfill(&self, py: Python<'_>, r#match: &Bound<'_, PyMatch>, limit: Real) -> PyResult<()> {
        self.change(py, r#match, limit, Chart::backfill)
    }

    /// The points of battle `number` of `match` (`None`: no such battle).
    fn points(
        &self,
        py: Python<'_>,
        r#match: PyRef<'_, PyMatch>,
        number: Int,
    ) -> PyResult<Option<Py<PyAny>>> {
        let number = battle_number(&number)?;
        let found = self.chart().points(&*r#match.lock()?, number);
        found.map(|points| view_to_py(py, &points)).transpose()
    }
}

/// `match_view`'s state as JSON text (compact), its battle's chart points from `chart`
/// (each `null` without one, as a match with no chart shows): for a door that sends the
/// state as it is, without making Python values of it and encoding them again (the
/// online server's states).
#[pyfunction]
#[pyo3(signature = (game, *, battles = true, played = false, chart = None))]
pub(crate) fn match_view_text(
    game: PyRef<'_, PyMatch>,
    battles: bool,
    played: bool,
    chart: Option<PyRef<'_, PyChart>>,
) -> PyResult<String> {
    let mut state = view::match_state(&*game.lock()?, battles, played).or_raise()?;
    let number = view::battle_number(&*game.lock()?); // the battle the state shows
    let points = match chart {
        Some(chart) => chart.chart().points(&*game.lock()?, number),
        None => Chart::new().points(&*game.lock()?, number),
    };
    if let (Json::Object(fields), Some(points)) = (&mut state, points) {
        if let Some((_, battle)) = fields.iter_mut().find(|(name, _)| *name == "battle") {
            battle.set("points", points);
        }
    }
    let mut text = String::with_capacity(16 * 1024); // a state with its board's drawing
    state.write(&mut text);
    Ok(text)
}

/// A position's analysis (`buttonup::page::analysis::analysis`) within `limit` seconds.
#[pyfunction]
pub(crate) fn analysis_view(
    py: Python<'_>,
    position: &PyPosition,
    limit: Real,
) -> PyResult<Py<PyAny>> {
    let (position, limit) = (position.inner, seconds(&limit, "limit")?);
    let threads = convert::threads(None)?;
    let found = run(py, || {
        analysis::analysis(&position, limit, On::thread(threads))
    })?;
    view_to_py(py, &found)
}

/// The hint of `match` for `side` (`buttonup::page::analysis::hint`) within `limit` seconds.
#[pyfunction]
pub(crate) fn hint_view(
    py: Python<'_>,
    r#match: PyRef<'_, PyMatch>,
    side: &Bound<'_, PyAny>,
    limit: Real,
) -> PyResult<Py<PyAny>> {
    let side = optional_player("side", Some(side))?
        .ok_or_else(|| wrong_type("side", "a Player, 'r' or 'b'", "None"))?;
    let (limit, threads) = (seconds(&limit, "limit")?, convert::threads(None)?);
    let game = r#match.snapshot()?;
    drop(r#match);
    let found = run(py, || {
        with_searchers(threads, |s| analysis::hint(&game, side, limit, s))
    })?
    .or_raise()?;
    view_to_py(py, &found)
}

/// Each of `moves` from `start` judged (`buttonup::page::analysis::review`): each position
/// within `per_position` seconds, the whole within `budget`.
#[pyfunction]
pub(crate) fn review_view(
    py: Python<'_>,
    start: &PyPosition,
    moves: Moves<'_>,
    per_position: Real,
    budget: Real,
) -> PyResult<Py<PyAny>> {
    let (per_position, budget) = (
        seconds(&per_position, "per_position")?,
        seconds(&budget, "budget")?,
    );
    let moves = moves.items("moves")?;
    let mut position = start.inner;
    let mut checked = Vec::with_capacity(moves.len());
    for mv in &moves {
        let mv = move_index(&position, mv)?;
        position = position.play(mv).or_raise()?.position;
        checked.push(mv);
    }
    let start = start.inner;
    let found = run(py, || {
        analysis::review(&start, &checked, per_position, budget, On::thread(1))
    })?
    .or_raise()?;
    view_to_py(py, &found)
}
