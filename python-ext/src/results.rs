//! The plain-data results of `buttonup.results`, filled in from the core's answers:
//! `Scoring`, `Battle`, `MoveOutcome`, `SearchResult`, `Standing`, `Chances` and
//! `PlayoutSummary`. Positions come in already converted, so that this module knows
//! nothing of the `Position` class.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple};
use pyo3::IntoPyObjectExt;

use super::convert::{optional_player, optional_player_to_py, player_to_py, type_name, Int};
use super::errors::wrong_type;
use buttonup::game::match_rules::Battle;
use buttonup::game::rules::{Colour, Player, Position, Sowing};
use buttonup::game::scoring::Scoring;
use buttonup::game::standing::Standing;
use buttonup::search::{Iteration, SearchResult};
use buttonup::sim::playout::PlayoutSummary;

/// The classes of `buttonup.results`, in the order of [`Class`].
static CLASSES: PyOnceLock<[Py<PyAny>; 7]> = PyOnceLock::new();

/// A class of `buttonup.results`.
#[derive(Clone, Copy)]
enum Class {
    Scoring,
    Battle,
    MoveOutcome,
    SearchResult,
    Standing,
    Chances,
    PlayoutSummary,
}

const NAMES: [&str; 7] = [
    "Scoring",
    "Battle",
    "MoveOutcome",
    "SearchResult",
    "Standing",
    "Chances",
    "PlayoutSummary",
];

fn class(py: Python<'_>, class: Class) -> PyResult<&Bound<'_, PyAny>> {
    let classes = CLASSES.get_or_try_init(py, || {
        let module = py.import("buttonup.results")?;
        let mut found = Vec::with_capacity(NAMES.len());
        for name in NAMES {
            found.push(module.getattr(name)?.unbind());
        }
        <[Py<PyAny>; 7]>::try_from(found).map_err(|_| {
            pyo3::exceptions::PyRuntimeError::new_err("buttonup.results lacks a result class")
        })
    })?;
    Ok(classes[class as usize].bind(py))
}

/// An instance of `class` with the keyword fields `fields`.
fn make<'py>(
    py: Python<'py>,
    which: Class,
    fields: &[(&str, Bound<'py, PyAny>)],
) -> PyResult<Bound<'py, PyAny>> {
    let kwargs = PyDict::new(py);
    for (name, value) in fields {
        kwargs.set_item(name, value)?;
    }
    class(py, which)?.call((), Some(&kwargs))
}

fn any<'py, T>(py: Python<'py>, value: T) -> PyResult<Bound<'py, PyAny>>
where
    T: IntoPyObject<'py>,
{
    value.into_bound_py_any(py)
}

/// `make!(py, Class { field: value, field, .. })`: an instance of that class of
/// `buttonup.results` with those keyword fields (`field` alone: the variable of that
/// name), each value converted to Python in the order given.
macro_rules! make {
    (@value $field:ident) => {
        $field
    };
    (@value $field:ident: $value:expr) => {
        $value
    };
    ($py:expr, $class:ident { $($field:ident $(: $value:expr)?),* $(,)? }) => {
        make(
            $py,
            Class::$class,
            &[$((stringify!($field), any($py, make!(@value $field $(: $value)?))?)),*],
        )
    };
}

/// The `Scoring` of a finished battle's last position.
pub(crate) fn scoring_to_py<'py>(
    py: Python<'py>,
    last: &Position,
    scoring: &Scoring,
) -> PyResult<Bound<'py, PyAny>> {
    let tower: String = last.piles().flatten().map(Colour::letter).collect();
    let strengths = |player| PyTuple::new(py, scoring.strengths(player).collect::<Vec<u32>>());
    make!(
        py,
        Scoring {
            tower,
            red_strengths: strengths(Player::Red)?,
            black_strengths: strengths(Player::Black)?,
            red: scoring.red,
            black: scoring.black,
            winner: optional_player_to_py(py, scoring.winner())?,
            points: scoring.points(),
        }
    )
}

/// The `Battle` record of a finished battle, its start and final pile given as Python
/// positions.
pub(crate) fn battle_to_py<'py>(
    py: Python<'py>,
    battle: &Battle,
    start: Bound<'py, PyAny>,
    final_position: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    make!(
        py,
        Battle {
            number: battle.number,
            starter: player_to_py(py, battle.starter)?,
            start,
            moves: PyTuple::new(py, &battle.moves)?,
            final_position,
            scoring: scoring_to_py(py, &battle.last, &battle.scoring)?,
        }
    )
}

/// The `MoveOutcome` of a move, the position after it given as a Python position.
pub(crate) fn outcome_to_py<'py>(
    py: Python<'py>,
    position: Bound<'py, PyAny>,
    sowing: &Sowing,
) -> PyResult<Bound<'py, PyAny>> {
    make!(
        py,
        MoveOutcome {
            position,
            extra_move: sowing.outcome.extra_move,
            drops: PyTuple::new(py, &sowing.drops)?,
        }
    )
}

/// A `SearchResult` from its fields.
#[allow(clippy::too_many_arguments)]
fn search_result<'py>(
    py: Python<'py>,
    best_move: Option<usize>,
    value: f64,
    exact: bool,
    depth: u32,
    nodes: u64,
    pv: &[usize],
    elapsed: std::time::Duration,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    make!(
        py,
        SearchResult {
            best_move,
            value: value.round() as i64,
            exact,
            depth,
            nodes,
            pv: PyTuple::new(py, pv)?,
            elapsed: elapsed.as_secs_f64(),
            threads,
        }
    )
}

/// The `SearchResult` of a finished search.
pub(crate) fn result_to_py<'py>(py: Python<'py>, r: &SearchResult) -> PyResult<Bound<'py, PyAny>> {
    search_result(
        py,
        r.best_move,
        r.value,
        r.exact,
        r.depth,
        r.nodes,
        &r.pv,
        r.elapsed,
        r.threads,
    )
}

/// The `SearchResult` of one finished iteration, for a progress callback.
pub(crate) fn iteration_to_py<'py>(py: Python<'py>, it: &Iteration) -> PyResult<Bound<'py, PyAny>> {
    search_result(
        py,
        it.pv.first().copied(),
        it.value,
        it.exact,
        it.depth,
        it.nodes,
        &it.pv,
        it.elapsed,
        it.threads,
    )
}

/// The `Standing` of a core standing.
pub(crate) fn standing_to_py<'py>(
    py: Python<'py>,
    standing: &Standing,
) -> PyResult<Bound<'py, PyAny>> {
    make!(
        py,
        Standing {
            red: standing.red,
            black: standing.black,
            target: standing.target,
            last_loser: optional_player_to_py(py, standing.last_loser)?,
            starter: optional_player_to_py(py, standing.starter)?,
            per_colour: standing.per_colour,
        }
    )
}

/// Whether `value` is a `buttonup.results.Standing`.
pub(crate) fn is_standing(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    value.is_instance(class(value.py(), Class::Standing)?)
}

/// The core standing of a `buttonup.results.Standing` (its fields converted, not
/// checked: the match rules check it).
pub(crate) fn standing_from_py(value: &Bound<'_, PyAny>) -> PyResult<Standing> {
    if !is_standing(value)? {
        return Err(wrong_type("of", "a Standing", &type_name(value)));
    }
    let count = |name: &str| -> PyResult<u32> {
        let field: Int = value.getattr(name)?.extract()?;
        Ok(field.within(name, 0, i64::from(u32::MAX))? as u32)
    };
    let per_colour: Int = value.getattr("per_colour")?.extract()?;
    let target: Int = value.getattr("target")?.extract()?;
    Ok(Standing {
        red: count("red")?,
        black: count("black")?,
        target: target.target()?,
        last_loser: optional_player("last_loser", Some(&value.getattr("last_loser")?))?,
        starter: optional_player("starter", Some(&value.getattr("starter")?))?,
        per_colour: per_colour.per_colour(buttonup::game::variant::Capability::Rules)?,
    })
}

/// The `Chances` of Red's probability of winning.
pub(crate) fn chances_to_py(py: Python<'_>, red: f64) -> PyResult<Bound<'_, PyAny>> {
    make!(
        py,
        Chances {
            red,
            black: 1.0 - red,
        }
    )
}

/// The `PlayoutSummary` of a batch of playouts.
pub(crate) fn summary_to_py<'py>(
    py: Python<'py>,
    s: &PlayoutSummary,
) -> PyResult<Bound<'py, PyAny>> {
    let margins = PyDict::new(py);
    for (margin, count) in s.margin_counts() {
        margins.set_item(margin, count)?;
    }
    make!(
        py,
        PlayoutSummary {
            battles: s.battles,
            moves: s.moves,
            red_wins: s.red_wins,
            black_wins: s.black_wins,
            draws: s.draws,
            red_margin_sum: s.red_margin_sum,
            red_margins: margins,
        }
    )
}
