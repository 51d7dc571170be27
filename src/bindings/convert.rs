//! Conversions between Python values and core types.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyInt};

use super::errors::wrong_type;
use crate::error::IllegalMove;
use crate::rules::{Player, Position};

/// `buttonup.player.Player.RED` and `.BLACK`, looked up once.
static PLAYERS: PyOnceLock<[Py<PyAny>; 2]> = PyOnceLock::new();

fn players(py: Python<'_>) -> PyResult<&[Py<PyAny>; 2]> {
    PLAYERS.get_or_try_init(py, || {
        let player = py.import("buttonup.player")?.getattr("Player")?;
        Ok([
            player.getattr("RED")?.unbind(),
            player.getattr("BLACK")?.unbind(),
        ])
    })
}

/// The Python `Player` member of a core player.
pub(crate) fn player_to_py(py: Python<'_>, player: Player) -> PyResult<Py<PyAny>> {
    Ok(players(py)?[player as usize].clone_ref(py))
}

/// The core player of a Python `Player` member (`None` means `default`); `name` is the
/// argument's name, for the error.
pub(crate) fn player_from_py(
    name: &str,
    value: Option<&Bound<'_, PyAny>>,
    default: Player,
) -> PyResult<Player> {
    match optional_player(name, value)? {
        Some(player) => Ok(player),
        None => Ok(default),
    }
}

/// The core player of an optional Python `Player` argument (`None` stays `None`).
pub(crate) fn optional_player(
    name: &str,
    value: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Player>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let [red, black] = players(value.py())?;
    if value.is(red) {
        Ok(Some(Player::Red))
    } else if value.is(black) {
        Ok(Some(Player::Black))
    } else {
        Err(wrong_type(name, "a Player", &type_name(value)))
    }
}

/// The Python `Player` member of an optional core player.
pub(crate) fn optional_player_to_py(
    py: Python<'_>,
    player: Option<Player>,
) -> PyResult<Option<Py<PyAny>>> {
    player.map(|p| player_to_py(py, p)).transpose()
}

/// The name of a value's type, for messages.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|name| name.to_string())
        .unwrap_or_else(|_| "an unknown type".to_string())
}

/// The pile index named by a Python move. Any int is accepted (a bool or a non-int is a
/// `TypeError`); one that names no pile is an illegal move, worded by the core.
pub(crate) fn move_index(position: &Position, value: &Bound<'_, PyAny>) -> PyResult<usize> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(wrong_type("a move", "an int", &type_name(value)));
    }
    match value.extract::<i64>() {
        Ok(index) if index >= 0 => Ok(usize::try_from(index).unwrap_or(usize::MAX)),
        Ok(_) => Err(no_such_pile(position, value)),
        Err(error) if error.is_instance_of::<PyOverflowError>(value.py()) => {
            Err(no_such_pile(position, value))
        }
        Err(error) => Err(error),
    }
}

fn no_such_pile(position: &Position, value: &Bound<'_, PyAny>) -> PyErr {
    if position.is_over() {
        return IllegalMove::BattleOver.into();
    }
    let pile = value
        .str()
        .map(|s| s.to_string())
        .unwrap_or_else(|_| "(a huge number)".to_string());
    IllegalMove::NoSuchPile {
        pile,
        piles: position.pile_count(),
    }
    .into()
}
