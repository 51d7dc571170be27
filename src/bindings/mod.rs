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

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
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
            "search",
            "solve",
            "win_probability",
        ],
    )?;
    Ok(())
}
