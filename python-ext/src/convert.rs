//! Conversions between Python values and core types.

use crate::errors::raised;
use crate::errors::OrRaise;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyString};

use super::errors::{out_of_range, wrong_type};
use buttonup::game::rules::{Player, Position};
use buttonup::game::standing::{check_target, StandingError};

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

/// The core player of a Python `Player` argument (`None` means `default`); `name` is
/// the argument's name, for the error.
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

/// The core player of an optional Python `Player` argument (`None` stays `None`): a
/// `buttonup.Player` or its side letter, `"r"` or `"b"`.
pub(crate) fn optional_player(
    name: &str,
    value: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Player>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let [red, black] = players(value.py())?;
    if value.is(red) {
        return Ok(Some(Player::Red));
    }
    if value.is(black) {
        return Ok(Some(Player::Black));
    }
    if let Ok(text) = value.cast::<PyString>() {
        return match text.extract::<String>().as_deref() {
            Ok("r") => Ok(Some(Player::Red)),
            Ok("b") => Ok(Some(Player::Black)),
            _ => Err(out_of_range(format!(
                "{name} must be a Player or 'r' or 'b', not {}",
                shown(value)
            ))),
        };
    }
    Err(wrong_type(
        name,
        "a Player or 'r' or 'b'",
        &type_name(value),
    ))
}

/// A value as a message shows it: its `repr`, shortened.
fn shown(value: &Bound<'_, PyAny>) -> String {
    let text = value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| type_name(value));
    buttonup::game::error::shorten(&text)
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

/// The pile index named by a Python move. Any int is accepted, numpy's too (a bool or a
/// non-int is a `TypeError`); one that names no pile is an illegal move, worded by the
/// core.
pub(crate) fn move_index(position: &Position, value: &Bound<'_, PyAny>) -> PyResult<usize> {
    // The common case first: a plain int that fits.
    if value.is_exact_instance_of::<pyo3::types::PyInt>() {
        if let Ok(index) = value.extract::<u64>() {
            return Ok(usize::try_from(index).unwrap_or(usize::MAX));
        }
    }
    match value.extract::<Int>()?.value("a move")? {
        Ok(index) if index >= 0 => Ok(usize::try_from(index).unwrap_or(usize::MAX)),
        _ => Err(no_such_pile(position, value)),
    }
}

fn no_such_pile(position: &Position, value: &Bound<'_, PyAny>) -> PyErr {
    let pile = value
        .str()
        .map(|s| s.to_string())
        .unwrap_or_else(|_| "(a huge number)".to_string());
    raised(position.no_such_pile(pile))
}

/// An int argument as Python gave it: anything with `__index__` but a bool (numpy
/// integers included), kept as an `i64` or, when too large for one, as its text; or,
/// for anything else, the name of its type. The function that takes it checks it and
/// names the argument in the error.
pub(crate) enum Int {
    Small(i64),
    Big(String),
    Other(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_exact_instance_of::<pyo3::types::PyInt>() {
            if let Ok(value) = obj.extract::<i64>() {
                return Ok(Int::Small(value));
            }
        }
        if obj.is_instance_of::<PyBool>() {
            return Ok(Int::Other("bool".to_string()));
        }
        let Ok(index) = obj.call_method0("__index__") else {
            return Ok(Int::Other(type_name(&obj)));
        };
        Ok(match index.extract::<i64>() {
            Ok(value) => Int::Small(value),
            Err(_) => Int::Big(buttonup::game::error::shorten(
                &index
                    .str()
                    .map(|s| s.to_string())
                    .unwrap_or_else(|_| "(a huge number)".to_string()),
            )),
        })
    }
}

impl Int {
    /// A default value.
    pub(crate) const fn of(value: i64) -> Int {
        Int::Small(value)
    }

    /// The value as an `i64` (or the text of a larger one); a `TypeError` naming `name`
    /// for a value that is no int.
    fn value(&self, name: &str) -> PyResult<Result<i64, &str>> {
        match self {
            Int::Small(v) => Ok(Ok(*v)),
            Int::Big(text) => Ok(Err(text)),
            Int::Other(kind) => Err(wrong_type(name, "an int", kind)),
        }
    }

    /// The value if it is from `low` to `high`, else an error naming `name`.
    pub(crate) fn within(&self, name: &str, low: i64, high: i64) -> PyResult<i64> {
        match self.value(name)? {
            Ok(v) if (low..=high).contains(&v) => Ok(v),
            Ok(v) => Err(super::errors::out_of_range(format!(
                "{name} must be from {low} to {high}, not {v}"
            ))),
            Err(text) => Err(super::errors::out_of_range(format!(
                "{name} must be from {low} to {high}, not {text}"
            ))),
        }
    }

    /// A level of the AI, checked by the core (whose message every door shows).
    pub(crate) fn level(&self) -> PyResult<buttonup::ai::Level> {
        match self.value("level")? {
            Ok(v) => buttonup::ai::Level::new(v).or_raise(),
            Err(text) => Err(raised(buttonup::ai::BotError::Level(text.to_string()))),
        }
    }

    /// A target of victory points that the match rules accept.
    pub(crate) fn target(&self) -> PyResult<u32> {
        match self.value("target")? {
            Ok(v) => Ok(check_target(v).or_raise()?),
            Err(text) => Err(raised(StandingError::BadTarget(text.to_string()))),
        }
    }

    /// A count of buttons of each colour that `capability` supports.
    pub(crate) fn per_colour(
        &self,
        capability: buttonup::game::variant::Capability,
    ) -> PyResult<usize> {
        match self.value("per_colour")? {
            Ok(v) => Ok(capability.check(v).or_raise()?),
            Err(text) => Err(raised(buttonup::game::variant::VariantError {
                capability,
                per_colour: text.to_string(),
            })),
        }
    }
}

/// A real-number argument as Python gave it: anything `float()` takes without parsing
/// text (an int, a float, a NumPy number), or the name of its type. The function that
/// takes it names the argument in the error.
pub(crate) enum Real {
    Value(f64),
    Other(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Real {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBool>() {
            return Ok(Real::Other(type_name(&obj)));
        }
        Ok(match obj.extract::<f64>() {
            Ok(value) => Real::Value(value),
            Err(_) => Real::Other(type_name(&obj)),
        })
    }
}

impl Real {
    /// A default value.
    pub(crate) const fn of(value: f64) -> Real {
        Real::Value(value)
    }

    /// The value; a `TypeError` naming `name` for a value that is no number.
    pub(crate) fn value(&self, name: &str) -> PyResult<f64> {
        match self {
            Real::Value(value) => Ok(*value),
            Real::Other(kind) => Err(wrong_type(name, "a number", kind)),
        }
    }
}

/// The value of an optional real-number argument.
pub(crate) fn optional_real(value: Option<Real>, name: &str) -> PyResult<Option<f64>> {
    value.map(|real| real.value(name)).transpose()
}

/// A list of moves (pile numbers) as Python gave it: any iterable of ints but a str or
/// `bytes`, whose items are letters or bytes; the function names the argument.
pub(crate) enum Moves<'py> {
    Items(Vec<Bound<'py, PyAny>>),
    Other(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Moves<'py> {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let text_like = obj.is_instance_of::<PyString>()
            || obj.is_instance_of::<pyo3::types::PyBytes>()
            || obj.is_instance_of::<pyo3::types::PyByteArray>();
        if text_like {
            return Ok(Moves::Other(type_name(&obj)));
        }
        let Ok(items) = obj.try_iter() else {
            return Ok(Moves::Other(type_name(&obj)));
        };
        Ok(Moves::Items(items.collect::<PyResult<Vec<_>>>()?))
    }
}

impl<'py> Moves<'py> {
    /// The items; a `TypeError` naming `name` for a value that is no list of moves.
    pub(crate) fn items(self, name: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
        match self {
            Moves::Items(items) => Ok(items),
            Moves::Other(kind) => Err(wrong_type(name, "a list of moves (ints)", &kind)),
        }
    }

    /// The items as ints; a `TypeError` naming `name` otherwise.
    pub(crate) fn ints(self, name: &str) -> PyResult<Vec<Int>> {
        self.items(name)?
            .iter()
            .map(|item| item.extract::<Int>())
            .collect()
    }
}

/// The most threads a batch may ask for.
pub(crate) const MAX_THREADS: i64 = 256;

/// A `threads` argument: `None` for every core, else 1 to [`MAX_THREADS`].
pub(crate) fn threads(value: Option<Int>) -> PyResult<usize> {
    match value {
        None => Ok(buttonup::run::parallel::default_threads()),
        Some(n) => Ok(n.within("threads", 1, MAX_THREADS)? as usize),
    }
}
