//! The Python extension module `buttonup._core`. It converts arguments and results and
//! holds no game logic: everything it answers comes from the core modules.

mod convert;
mod errors;
mod position;
mod search;

use pyo3::prelude::*;

use crate::perft as core_perft;
use position::PyPosition;

/// Counts the move sequences of length `depth` from `position` (a sequence that ends the
/// battle sooner counts as one leaf). Runs without the GIL.
#[pyfunction]
fn perft(py: Python<'_>, position: &PyPosition, depth: u32) -> u64 {
    let position = position.inner;
    py.detach(|| core_perft::perft(&position, depth))
}

/// Plays `battles` random battles with the loop in Rust (no GIL held) and sums them up:
/// battles, moves, red_wins, black_wins, draws, margin_sum.
#[pyfunction]
#[pyo3(signature = (battles, seed = None, per_colour = 3))]
fn random_playouts<'py>(
    py: Python<'py>,
    battles: u64,
    seed: Option<&Bound<'py, PyAny>>,
    per_colour: i64,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let per_colour = position::check_per_colour(per_colour)?;
    let seed = position::seed_from_py(seed)?;
    let summary = py.detach(|| crate::playout::random_playouts(battles, seed, per_colour))?;
    let dict = pyo3::types::PyDict::new(py);
    dict.set_item("battles", summary.battles)?;
    dict.set_item("moves", summary.moves)?;
    dict.set_item("red_wins", summary.red_wins)?;
    dict.set_item("black_wins", summary.black_wins)?;
    dict.set_item("draws", summary.draws)?;
    dict.set_item("margin_sum", summary.margin_sum)?;
    Ok(dict)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(random_playouts, m)?)?;
    m.add_class::<search::PySearchResult>()?;
    m.add_class::<search::PySearcher>()?;
    m.add_function(wrap_pyfunction!(search::solve, m)?)?;
    m.add_function(wrap_pyfunction!(search::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add_function(wrap_pyfunction!(search::win_probability, m)?)?;
    m.add_function(wrap_pyfunction!(search::match_analyze, m)?)?;
    m.add("MAX_BUTTONS", crate::MAX_BUTTONS)?;
    m.add(
        "__all__",
        [
            "MAX_BUTTONS",
            "Position",
            "SearchResult",
            "Searcher",
            "analyze",
            "match_analyze",
            "perft",
            "random_playouts",
            "search",
            "solve",
            "win_probability",
        ],
    )?;
    Ok(())
}
