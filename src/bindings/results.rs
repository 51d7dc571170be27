//! The plain-data results of `buttonup.results` (`Scoring`, `Battle`), filled in from
//! the core's scoring and match history.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple};

use super::convert::{optional_player_to_py, player_to_py};
use super::position::PyPosition;
use crate::match_rules::Battle;
use crate::rules::{Colour, Player, Position};
use crate::scoring::Scoring;

/// `buttonup.results.Scoring` and `.Battle`, looked up once.
static CLASSES: PyOnceLock<[Py<PyAny>; 2]> = PyOnceLock::new();

fn classes(py: Python<'_>) -> PyResult<&[Py<PyAny>; 2]> {
    CLASSES.get_or_try_init(py, || {
        let module = py.import("buttonup.results")?;
        Ok([
            module.getattr("Scoring")?.unbind(),
            module.getattr("Battle")?.unbind(),
        ])
    })
}

/// The `Scoring` of a finished battle's last position.
pub(crate) fn scoring_to_py<'py>(
    py: Python<'py>,
    last: &Position,
    scoring: &Scoring,
) -> PyResult<Bound<'py, PyAny>> {
    let tower: String = last.piles().flatten().map(Colour::letter).collect();
    let fields = PyDict::new(py);
    fields.set_item("tower", tower)?;
    for (name, player) in [
        ("red_strengths", Player::Red),
        ("black_strengths", Player::Black),
    ] {
        let strengths: Vec<u32> = scoring.strengths(player).collect();
        fields.set_item(name, PyTuple::new(py, strengths)?)?;
    }
    fields.set_item("red", scoring.red)?;
    fields.set_item("black", scoring.black)?;
    fields.set_item("winner", optional_player_to_py(py, scoring.winner())?)?;
    fields.set_item("points", scoring.points())?;
    classes(py)?[0].bind(py).call((), Some(&fields))
}

/// The `Battle` record of a finished battle.
pub(crate) fn battle_to_py<'py>(py: Python<'py>, battle: &Battle) -> PyResult<Bound<'py, PyAny>> {
    let fields = PyDict::new(py);
    fields.set_item("number", battle.number)?;
    fields.set_item("starter", player_to_py(py, battle.starter)?)?;
    fields.set_item("start", PyPosition::from(battle.start))?;
    fields.set_item("moves", PyTuple::new(py, &battle.moves)?)?;
    fields.set_item("final", PyPosition::from(battle.last))?;
    fields.set_item("scoring", scoring_to_py(py, &battle.last, &battle.scoring)?)?;
    classes(py)?[1].bind(py).call((), Some(&fields))
}
