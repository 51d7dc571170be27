//! The pictures of `buttonup::draw` for Python (`buttonup.svg` wraps them): conversions
//! only (the `_repr_svg_` of positions and matches call `buttonup::draw` themselves).

use crate::errors::OrRaise;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};

use super::convert::{move_index, optional_real, Int, Moves, Real};
use super::matches::PyMatch;
use super::position::PyPosition;
use buttonup::draw::{self, svg, Board, DrawOptions, LastMove};
use buttonup::page::view::{self, Json};

/// A board as Python gets it: the position, the slots, the slot count, the last move
/// as `(slot, drops)` or `None`, and the button radius.
type PyBoard = (
    PyPosition,
    Vec<usize>,
    usize,
    Option<(usize, Vec<usize>)>,
    f64,
);

fn board_to_py(board: Board) -> PyBoard {
    (
        board.position.into(),
        board.slots,
        board.slot_count,
        board.last_move.map(|last| (last.slot, last.drops)),
        board.radius,
    )
}

/// A list of pile or slot numbers, each from 0 to 63.
fn indices(name: &str, values: Option<Vec<Int>>) -> PyResult<Option<Vec<usize>>> {
    values
        .map(|values| {
            values
                .iter()
                .map(|v| Ok(v.within(name, 0, 63)? as usize))
                .collect()
        })
        .transpose()
}

/// The SVG text of `position` (see `buttonup.svg.position`).
#[pyfunction]
#[pyo3(
    signature = (position, *, size = Some(Real::of(360.0)), highlight = None, lastmove = None, slots = None, slot_count = None, labels = true, max_radius = None),
    text_signature = "(position, *, size=360.0, highlight=None, lastmove=None, slots=None, slot_count=None, labels=True, max_radius=None)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn draw_position(
    position: &PyPosition,
    size: Option<Real>,
    highlight: Option<Vec<Int>>,
    lastmove: Option<(Int, Vec<Int>)>,
    slots: Option<Vec<Int>>,
    slot_count: Option<Int>,
    labels: bool,
    max_radius: Option<Real>,
) -> PyResult<String> {
    let last_move = match lastmove {
        Some((slot, drops)) => Some(LastMove {
            slot: slot.within("the last move's slot", 0, 63)? as usize,
            drops: indices("a drop", Some(drops))?.unwrap_or_default(),
        }),
        None => None,
    };
    let options = DrawOptions {
        size: optional_real(size, "size")?,
        highlight: indices("a highlighted pile", highlight)?.unwrap_or_default(),
        last_move,
        slots: indices("a slot", slots)?,
        slot_count: slot_count
            .map(|n| n.within("slot_count", 1, 64).map(|n| n as usize))
            .transpose()?,
        labels,
        max_radius: optional_real(max_radius, "max_radius")?,
    };
    svg::position(&position.inner, &options).or_raise()
}

/// The SVG text of a finished battle's tower (see `buttonup.svg.tower`).
#[pyfunction]
#[pyo3(signature = (position, *, size = Real::of(400.0)), text_signature = "(position, *, size=400.0)")]
pub(crate) fn draw_tower(position: &PyPosition, size: Real) -> PyResult<String> {
    svg::tower(&position.inner, size.value("size")?).or_raise()
}

/// The board after `moves` from `start`: `(position, slots, slot_count, lastmove)`.
#[pyfunction]
pub(crate) fn draw_walk(start: &PyPosition, moves: Moves<'_>) -> PyResult<PyBoard> {
    let moves = moves.items("moves")?;
    let mut board = Board::new(&start.inner);
    for mv in &moves {
        let mv = move_index(&board.position, mv)?;
        board.play(mv).or_raise()?;
    }
    Ok(board_to_py(board))
}

/// The board at `start` and after each of `moves` (one walk: `len(moves) + 1` boards),
/// for a front end that shows every ply of a battle.
#[pyfunction]
pub(crate) fn draw_walks(start: &PyPosition, moves: Moves<'_>) -> PyResult<Vec<PyBoard>> {
    let moves = moves.items("moves")?;
    let mut board = Board::new(&start.inner);
    let mut boards = Vec::with_capacity(moves.len() + 1);
    boards.push(board_to_py(board.clone()));
    for mv in &moves {
        let mv = move_index(&board.position, mv)?;
        board.play(mv).or_raise()?;
        boards.push(board_to_py(board.clone()));
    }
    Ok(boards)
}

/// The board of a match now (see `buttonup::draw::match_board`).
#[pyfunction]
pub(crate) fn draw_match(game: PyRef<'_, PyMatch>) -> PyResult<PyBoard> {
    let board = draw::match_board(&*game.lock()?);
    Ok(board_to_py(board))
}

/// A view of the core (`buttonup::page::view`) as a Python value: objects are `dict`s,
/// lists `list`s.
pub(crate) fn view_to_py(py: Python<'_>, value: &Json) -> PyResult<Py<PyAny>> {
    Ok(match value {
        Json::Null => py.None(),
        Json::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        Json::Int(n) => n.into_pyobject(py)?.into_any().unbind(),
        Json::Float(x) => x.into_pyobject(py)?.into_any().unbind(),
        Json::Str(text) => PyString::new(py, text).into_any().unbind(),
        Json::List(items) => {
            let items = items
                .iter()
                .map(|item| view_to_py(py, item))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        Json::Object(fields) => {
            let dict = PyDict::new(py);
            for (name, field) in fields {
                dict.set_item(*name, view_to_py(py, field)?)?;
            }
            dict.into_any().unbind()
        }
        Json::Map(fields) => {
            let dict = PyDict::new(py);
            for (name, field) in fields {
                dict.set_item(name, view_to_py(py, field)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// A match's whole state as the page shows it (`buttonup::page::view::match_state`):
/// with `battles` every scored battle, with `played` the move just made.
#[pyfunction]
#[pyo3(signature = (game, *, battles = true, played = false))]
pub(crate) fn match_view(
    py: Python<'_>,
    game: PyRef<'_, PyMatch>,
    battles: bool,
    played: bool,
) -> PyResult<Py<PyAny>> {
    view_to_py(
        py,
        &view::match_state(&*game.lock()?, battles, played).or_raise()?,
    )
}

/// A battle's number argument: from 0 (no battle has it: a refusal, not an error of
/// type) to 2**32 - 1.
pub(crate) fn battle_number(number: &Int) -> PyResult<usize> {
    Ok(number.within("number", 0, i64::from(u32::MAX))? as usize)
}

/// Battle `number` of a match as the page shows it (`None`: no such battle); with
/// `listed`, as the match's state lists a scored battle, with its tower (`None`: not
/// scored).
#[pyfunction]
#[pyo3(signature = (game, number, *, listed = false))]
pub(crate) fn battle_view(
    py: Python<'_>,
    game: PyRef<'_, PyMatch>,
    number: Int,
    listed: bool,
) -> PyResult<Option<Py<PyAny>>> {
    let number = battle_number(&number)?;
    let found = {
        let game = game.lock()?;
        if listed {
            let scored = number.checked_sub(1).and_then(|i| game.battles().get(i));
            scored.map(view::finished_battle).transpose().or_raise()?
        } else {
            view::battle_view(&game, number).or_raise()?
        }
    };
    found.map(|found| view_to_py(py, &found)).transpose()
}

/// The battle a page shows of a match (`buttonup::page::view::battle_number`), and that
/// battle's or battle `number`'s start and moves so far, or its first `ply` moves; a
/// `ValueError` in the page's words for a battle the match does not have or more moves
/// than it has (`buttonup::page::view::battle_moves`).
#[pyfunction]
#[pyo3(signature = (game, number = None, ply = None))]
pub(crate) fn shown_battle(
    game: PyRef<'_, PyMatch>,
    number: Option<Int>,
    ply: Option<Int>,
) -> PyResult<(usize, (PyPosition, Vec<usize>))> {
    let shown = view::battle_number(&*game.lock()?);
    let number = number.as_ref().map(battle_number).transpose()?;
    let ply = ply
        .map(|ply| ply.within("ply", 0, i64::from(u32::MAX)))
        .transpose()?;
    let ply = ply.map(|ply| ply as usize);
    let game = game.lock()?;
    let (start, moves) = view::battle_moves(&game, number.unwrap_or(shown), ply).or_raise()?;
    Ok((shown, (start.into(), moves.to_vec())))
}

/// What a front end needs to draw a position (`buttonup::page::view::position`): its
/// notation, piles, side to move, legal moves and, once over, its scoring.
#[pyfunction]
pub(crate) fn position_view(py: Python<'_>, position: &PyPosition) -> PyResult<Py<PyAny>> {
    view_to_py(py, &view::position(&position.inner))
}

/// Where `moves` played from `start` lead, drawn, with `line`, each ply
/// (`buttonup::page::view::line`); an illegal move raises its `IllegalMoveError`.
#[pyfunction]
pub(crate) fn line_view(
    py: Python<'_>,
    start: &PyPosition,
    moves: Moves<'_>,
) -> PyResult<Py<PyAny>> {
    let moves = moves.items("moves")?;
    let mut board = Board::new(&start.inner);
    let mut checked = Vec::with_capacity(moves.len());
    for mv in &moves {
        let mv = move_index(&board.position, mv)?;
        board.play(mv).or_raise()?;
        checked.push(mv);
    }
    view_to_py(py, &view::line(&start.inner, &checked).or_raise()?)
}
