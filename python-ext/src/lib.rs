//! The Python extension module `buttonup._core`. It converts arguments and results and
//! holds no game logic: every rule, check and answer comes from the core modules.

mod ai;
mod analysis;
mod batch;
mod convert;
mod draw;
mod errors;
mod interrupt;
mod matches;
mod odds;
mod playouts;
mod position;
mod records;
mod results;
mod search;
mod session;
mod starts;
mod ugi;
mod vecenv;

use crate::errors::OrRaise;
use pyo3::prelude::*;

use buttonup::game::perft as core_perft;
use buttonup::game::standing::{MAX_TARGET, STANDARD_TARGET};
use buttonup::game::variant::{Capability, STANDARD_PER_COLOUR};
use convert::Int;
use position::PyPosition;

/// Counts the move sequences of length `depth` from `position`.
///
/// A sequence that ends the battle sooner counts as one leaf. Runs without the GIL.
///
/// Args:
///     position: the position to count from.
///     depth: the moves of each sequence, 0 or more.
///
/// Raises:
///     ValueError: if `depth` is out of range.
///
/// Example:
///     >>> from buttonup import Position, perft
///     >>> [perft(Position("W/R/B/W/B/R/R/W/B r"), depth) for depth in range(4)]
///     [1, 3, 9, 26]
#[pyfunction]
fn perft(py: Python<'_>, position: &PyPosition, depth: Int) -> PyResult<u64> {
    let depth = depth.within("depth", 0, i64::from(u32::MAX))? as u32;
    let position = position.inner;
    // An interrupted count is dropped by `run`, which raises the interruption.
    let count = interrupt::run(py, || core_perft::perft_interruptible(&position, depth))?;
    Ok(count.unwrap_or(0))
}

/// Every position that play reaches from every start with `per_colour` buttons of each
/// colour, either player starting, finished battles included.
///
/// There are 112,760 for the standard game, listed breadth first from the starts, in
/// the order met. Runs without the GIL.
///
/// Args:
///     per_colour: the buttons of each colour, 1 to `VARIANT_LIMITS["positions"]` (3).
///
/// Raises:
///     ValueError: if `per_colour` is out of range.
///
/// Example:
///     >>> from buttonup import all_positions
///     >>> len(all_positions(1)), len(all_positions())
///     (24, 112760)
#[pyfunction]
#[pyo3(signature = (per_colour = Int::of(STANDARD_PER_COLOUR as i64)), text_signature = "(per_colour=3)")]
fn all_positions(py: Python<'_>, per_colour: Int) -> PyResult<Vec<PyPosition>> {
    let per_colour = per_colour.per_colour(Capability::Positions)?;
    let found =
        interrupt::run(py, || buttonup::game::reachable::all_positions(per_colour))?.or_raise()?;
    Ok(found.into_iter().map(PyPosition::from).collect())
}

/// The exact largest final margin of a battle of `per_colour` buttons of each colour.
///
/// It is `2 * per_colour**2` (18 for the standard game): one colour's buttons all on
/// top of the final pile and the other's at its bottom.
///
/// Args:
///     per_colour: the buttons of each colour, 1 to `VARIANT_LIMITS["rules"]`.
///
/// Raises:
///     ValueError: if `per_colour` is out of range.
///
/// Example:
///     >>> from buttonup import max_margin
///     >>> max_margin(3), max_margin(1)
///     (18, 2)
#[pyfunction]
fn max_margin(per_colour: Int) -> PyResult<i32> {
    let per_colour = per_colour.per_colour(Capability::Rules)?;
    Ok(buttonup::game::scoring::max_margin(per_colour))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    interrupt::install();
    m.add_class::<PyPosition>()?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(batch::perft_many, m)?)?;
    m.add_function(wrap_pyfunction!(batch::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(playouts::random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(starts::start_orders, m)?)?;
    m.add_class::<starts::PyStartOrders>()?;
    // A sequence to `isinstance` too, as `range` is.
    m.py()
        .import("collections.abc")?
        .getattr("Sequence")?
        .call_method1("register", (m.getattr("StartOrders")?,))?;
    m.add_function(wrap_pyfunction!(all_positions, m)?)?;
    m.add_function(wrap_pyfunction!(starts::start_classes, m)?)?;
    m.add_function(wrap_pyfunction!(starts::start_orders_from, m)?)?;
    m.add_function(wrap_pyfunction!(matches::read_records, m)?)?;
    m.add_function(wrap_pyfunction!(max_margin, m)?)?;
    m.add_class::<matches::PyMatch>()?;
    m.add_class::<matches::PySeats>()?;
    m.add_class::<session::PySession>()?;
    m.add_class::<analysis::PyChart>()?;
    m.add_function(wrap_pyfunction!(analysis::analysis_view, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::match_view_text, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::hint_view, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::review_view, m)?)?;
    m.add_class::<ai::PyBot>()?;
    m.add_class::<ugi::PyUgiEngine>()?;
    m.add("UGI_MAX_LINE", buttonup::ugi::MAX_LINE)?;
    m.add("LEVELS", ai::levels(m.py())?)?;
    m.add("RATINGS", ai::ratings(m.py())?)?;
    m.add_class::<vecenv::PyVecEnv>()?;
    m.add_function(wrap_pyfunction!(vecenv::encode_observation, m)?)?;
    m.add_function(wrap_pyfunction!(vecenv::legal_action_mask, m)?)?;
    m.add_class::<search::PySearcher>()?;
    m.add_function(wrap_pyfunction!(search::solve, m)?)?;
    m.add_function(wrap_pyfunction!(search::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add_function(wrap_pyfunction!(search::review, m)?)?;
    m.add_function(wrap_pyfunction!(odds::win_probability, m)?)?;
    m.add_function(wrap_pyfunction!(odds::match_analyze, m)?)?;
    m.add_function(wrap_pyfunction!(draw::draw_position, m)?)?;
    m.add_function(wrap_pyfunction!(draw::draw_tower, m)?)?;
    m.add_function(wrap_pyfunction!(draw::draw_walk, m)?)?;
    m.add_function(wrap_pyfunction!(draw::draw_walks, m)?)?;
    m.add_function(wrap_pyfunction!(draw::draw_match, m)?)?;
    m.add_function(wrap_pyfunction!(draw::match_view, m)?)?;
    m.add_function(wrap_pyfunction!(draw::battle_view, m)?)?;
    m.add_function(wrap_pyfunction!(draw::shown_battle, m)?)?;
    m.add_function(wrap_pyfunction!(draw::position_view, m)?)?;
    m.add_function(wrap_pyfunction!(draw::line_view, m)?)?;
    m.add("MAX_BUTTONS", buttonup::MAX_BUTTONS)?;
    m.add("MAX_TARGET", MAX_TARGET)?;
    m.add("STANDARD_TARGET", STANDARD_TARGET)?;
    m.add("STANDARD_PER_COLOUR", STANDARD_PER_COLOUR)?;
    let limits = pyo3::types::PyDict::new(m.py());
    for capability in Capability::ALL {
        limits.set_item(capability.name(), capability.max_per_colour())?;
    }
    m.add("VARIANT_LIMITS", limits)?;
    Ok(())
}
