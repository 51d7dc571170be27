//! `buttonup.Position`: an immutable position backed by the core's `Position`.

use crate::errors::OrRaise;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple, PyType};

use super::convert::{move_index, player_from_py, player_to_py, Int};
use super::errors::{battle_not_over, notation_error, out_of_range};
use super::results::{outcome_to_py, scoring_to_py};
use buttonup::draw::{svg, DrawOptions};
use buttonup::game::notation;
use buttonup::game::rng::{entropy_seed, random_start, SplitMix64};
use buttonup::game::rules::{Colour, Player, Position};
use buttonup::game::variant::{Capability, STANDARD_PER_COLOUR};

/// A Button Up! position: the circle of piles and the player to move. Immutable.
///
/// Read from the notation `PILES SIDE` (docs/notation.md), e.g. `"W/R/B/W/B/R/R/W/B r"`:
/// the piles in clockwise order, each written bottom first, then the side to move.
///
/// Positions are equal when their notations are, hash alike then, and are ordered by
/// their notation text as strings compare (`sorted(positions)` sorts them as
/// `sorted(map(str, positions))` does). `str(position)` is the notation.
///
/// Args:
///     text: the position in the notation `PILES SIDE`.
///
/// Raises:
///     NotationError: if `text` is not a position in the notation.
///     TypeError: if `text` is not a str.
///
/// Example:
///     >>> from buttonup import Position
///     >>> position = Position("W/R/B/W/B/R/R/W/B r")
///     >>> position.legal_moves()
///     [0, 3, 7]
///     >>> position.play(3)
///     Position('W/R/B/BW/R/R/W/B b')
///     >>> str(position)
///     'W/R/B/W/B/R/R/W/B r'
#[pyclass(module = "buttonup", name = "Position", frozen, eq, ord, hash)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyPosition {
    pub(crate) inner: Position,
}

impl From<Position> for PyPosition {
    fn from(inner: Position) -> Self {
        PyPosition { inner }
    }
}

/// A seed from Python (`None`: from the operating system).
pub(crate) fn seed_from_py(seed: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    match seed {
        // An integer (an int or one with `__index__`, as NumPy's; not a bool) out of
        // range is a ValueError; anything else a TypeError.
        Some(seed) if !seed.is_none() => {
            if seed.is_instance_of::<pyo3::types::PyBool>()
                || !seed.get_type().hasattr("__index__").unwrap_or(false)
            {
                return Err(super::errors::wrong_type(
                    "seed",
                    "an int from 0 to 2**64 - 1 or None",
                    &super::convert::type_name(seed),
                ));
            }
            seed.extract::<u64>().map_err(|_| {
                out_of_range(format!(
                    "seed must be an int from 0 to 2**64 - 1, not {seed}"
                ))
            })
        }
        _ => Ok(entropy_seed()),
    }
}

/// The text of a notation argument. A str that is not valid Unicode (a lone surrogate)
/// fails as the notation does on any non-ASCII character: at the first one.
pub(crate) fn notation_text(value: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let text = value
        .cast::<PyString>()
        .map_err(|_| wrong_type_text(what, value))?;
    if let Ok(text) = text.extract::<String>() {
        return Ok(text);
    }
    let ord = value.py().import("builtins")?.getattr("ord")?;
    for (index, character) in text.try_iter()?.enumerate() {
        let code: u32 = ord.call1((character?,))?.extract()?;
        if code > 0x7f {
            return Err(notation_error(format!(
                "non-ASCII character U+{code:04X} at index {index}"
            )));
        }
    }
    Err(notation_error("the text is not valid Unicode".to_string()))
}

fn wrong_type_text(what: &str, value: &Bound<'_, PyAny>) -> PyErr {
    pyo3::exceptions::PyTypeError::new_err(format!(
        "{what}, not {}",
        super::convert::type_name(value)
    ))
}

#[pymethods]
impl PyPosition {
    /// Reads a position in the notation `PILES SIDE`, e.g. `"W/R/B/W/B/R/R/W/B r"`.
    #[new]
    fn new(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = notation_text(text, "a position must be given as a str")?;
        Ok(notation::parse(&text).or_raise()?.into())
    }

    /// A start position from its start order: one letter per one-button pile.
    ///
    /// Args:
    ///     order: the button of each pile, clockwise, one letter each (`R`, `B` or `W`),
    ///         e.g. `"WRBWBRRWB"`.
    ///     to_move: the player who moves first: a `Player` or `"r"`/`"b"`; `None` for Red.
    ///
    /// Raises:
    ///     NotationError: if `order` is not a start order.
    ///     TypeError: if `order` is not a str, or `to_move` not a player.
    ///     ValueError: if `to_move` is a str other than `"r"` and `"b"`.
    ///
    /// Example:
    ///     >>> from buttonup import Position
    ///     >>> Position.start("WRBWBRRWB")
    ///     Position('W/R/B/W/B/R/R/W/B r')
    ///     >>> Position.start("WRBWBRRWB", to_move="b")
    ///     Position('W/R/B/W/B/R/R/W/B b')
    #[staticmethod]
    #[pyo3(signature = (order, *, to_move = None))]
    fn start(order: &Bound<'_, PyAny>, to_move: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let order = notation_text(order, "a start order must be a str")?;
        let to_move = player_from_py("to_move", to_move, Player::Red)?;
        Ok(notation::parse_start(&order, to_move).or_raise()?.into())
    }

    /// A uniformly shuffled start with `per_colour` buttons of each colour.
    ///
    /// The same seed gives the same start.
    ///
    /// Args:
    ///     seed: an int from 0 to 2**64 - 1 (`None`: a seed from the operating system).
    ///     to_move: the player who moves first: a `Player` or `"r"`/`"b"`; `None` for Red.
    ///     per_colour: the buttons of each colour, from 1 to `VARIANT_LIMITS["rules"]`.
    ///
    /// Raises:
    ///     ValueError: if `seed` or `per_colour` is out of range.
    ///     TypeError: if `seed` is not an int or `None`.
    ///
    /// Example:
    ///     >>> from buttonup import Position
    ///     >>> Position.random(7)
    ///     Position('B/B/R/W/R/W/W/R/B r')
    ///     >>> Position.random(7, per_colour=1)
    ///     Position('W/R/B r')
    #[staticmethod]
    #[pyo3(
        signature = (seed = None, *, to_move = None, per_colour = Int::of(STANDARD_PER_COLOUR as i64)),
        text_signature = "(seed=None, *, to_move=None, per_colour=3)"
    )]
    fn random(
        seed: Option<&Bound<'_, PyAny>>,
        to_move: Option<&Bound<'_, PyAny>>,
        per_colour: Int,
    ) -> PyResult<Self> {
        let to_move = player_from_py("to_move", to_move, Player::Red)?;
        let per_colour = per_colour.per_colour(Capability::Rules)?;
        let seed = seed_from_py(seed)?;
        let start = random_start(per_colour, to_move, &mut SplitMix64::new(seed)).or_raise()?;
        Ok(start.into())
    }

    /// The piles in clockwise order, each written bottom first (a tuple of str).
    ///
    /// Example:
    ///     >>> from buttonup import Position
    ///     >>> Position("RW/B/W r").piles
    ///     ('RW', 'B', 'W')
    #[getter]
    fn piles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let piles = self
            .inner
            .piles()
            .map(|pile| pile.map(Colour::letter).collect::<String>())
            .collect::<Vec<_>>();
        PyTuple::new(py, piles)
    }

    /// The player to move (a `Player`).
    #[getter]
    #[allow(clippy::wrong_self_convention)] // a Python property, not a conversion
    fn to_move(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        player_to_py(py, self.inner.to_move())
    }

    /// Whether the battle is over (one pile left).
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The legal moves: the indices of the piles holding a white button, in order.
    ///
    /// Example:
    ///     >>> from buttonup import Position
    ///     >>> Position("W/R/B/W/B/R/R/W/B r").legal_moves()
    ///     [0, 3, 7]
    fn legal_moves(&self) -> Vec<usize> {
        self.inner.legal_moves().collect()
    }

    /// Whether `move` is a legal move.
    ///
    /// Never raises: anything that is not a legal move (a number out of range, a value of
    /// another type) is `False`.
    ///
    /// Args:
    ///     move: the index of the pile to lift.
    ///
    /// Example:
    ///     >>> from buttonup import Position
    ///     >>> position = Position("W/R/B/W/B/R/R/W/B r")
    ///     >>> position.is_legal(3), position.is_legal(1), position.is_legal(20)
    ///     (True, False, False)
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> bool {
        move_index(&self.inner, r#move).is_ok_and(|p| self.inner.is_legal(p))
    }

    /// The position after lifting pile `move`.
    ///
    /// Args:
    ///     move: the index of the pile to lift, 0 to `len(piles) - 1` (an int, or anything
    ///         with `__index__` but a bool).
    ///
    /// Returns:
    ///     The new position (this one is unchanged).
    ///
    /// Raises:
    ///     IllegalMoveError: if there is no such pile, the pile has no white button, or the
    ///         battle is over.
    ///     TypeError: if `move` is not an int.
    ///
    /// Example:
    ///     >>> from buttonup import Position
    ///     >>> Position("W/R/B/W/B/R/R/W/B r").play(0)
    ///     Position('RW/B/W/B/R/R/W/B b')
    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Self> {
        let p = move_index(&self.inner, r#move)?;
        Ok(self.inner.play(p).or_raise()?.position.into())
    }

    /// What lifting pile `move` does, from one evaluation.
    ///
    /// Args:
    ///     move: the index of the pile to lift.
    ///
    /// Returns:
    ///     A `MoveOutcome` with the position after it, whether the mover moves again (rule 4),
    ///     and the pile (numbered as in this position) that receives each lifted button,
    ///     bottom button first (rule 3; with an overflow the last pile repeats).
    ///
    /// Raises:
    ///     IllegalMoveError: if `move` is not a legal move.
    ///     TypeError: if `move` is not an int.
    ///
    /// Example:
    ///     >>> from buttonup import Position
    ///     >>> Position("W/R/B/W/B/R/R/W/B r").outcome(3)
    ///     MoveOutcome(position=Position('W/R/B/BW/R/R/W/B b'), extra_move=False, drops=(4,))
    ///     >>> Position("B/B/R/R/W/W r").outcome(4)
    ///     MoveOutcome(position=Position('B/B/R/R/WW r'), extra_move=True, drops=(5,))
    fn outcome<'py>(
        &self,
        py: Python<'py>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = move_index(&self.inner, r#move)?;
        let sowing = self.inner.sowing(p).or_raise()?;
        let after = Bound::new(py, PyPosition::from(sowing.outcome.position))?;
        outcome_to_py(py, after.into_any(), &sowing)
    }

    /// Whether playing `move` makes the mover move again (rule 4).
    ///
    /// Args:
    ///     move: the index of the pile to lift.
    ///
    /// Raises:
    ///     IllegalMoveError: if `move` is not a legal move.
    ///     TypeError: if `move` is not an int.
    ///
    /// Example:
    ///     >>> from buttonup import Position
    ///     >>> Position("B/B/R/R/W/W r").gives_extra_move(4)
    ///     True
    fn gives_extra_move(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let p = move_index(&self.inner, r#move)?;
        self.inner.gives_extra_move(p).or_raise()
    }

    /// The scoring of the final pile (rule 6).
    ///
    /// Returns:
    ///     A `Scoring`: each button's strength and owner, the sums, the winner and the
    ///     points.
    ///
    /// Raises:
    ///     BattleNotOverError: if the battle is not over.
    ///
    /// Example:
    ///     >>> from buttonup import Position
    ///     >>> Position("WRBWBRRWB r").scoring()  # doctest: +NORMALIZE_WHITESPACE
    ///     Scoring(tower='WRBWBRRWB', red_strengths=(2, 6, 7), black_strengths=(3, 5, 9),
    ///             red=15, black=17, winner=<Player.BLACK: 'b'>, points=2)
    fn scoring<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let scoring = self.inner.scoring().ok_or_else(battle_not_over)?;
        scoring_to_py(py, &self.inner, &scoring)
    }

    /// Red's and Black's sums in the final pile (rule 6).
    ///
    /// Raises:
    ///     BattleNotOverError: if the battle is not over.
    ///
    /// Example:
    ///     >>> from buttonup import Position
    ///     >>> Position("WRBWBRRWB r").sums()
    ///     (15, 17)
    fn sums(&self) -> PyResult<(u32, u32)> {
        self.inner.sums().ok_or_else(battle_not_over)
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.inner)
    }

    /// The picture of the position for Jupyter (`buttonup.svg.position`'s default).
    fn _repr_svg_(&self) -> PyResult<String> {
        svg::position(&self.inner, &DrawOptions::default()).or_raise()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, (String,))> {
        Ok((slf.get_type(), (slf.get().inner.to_string(),)))
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }
}
