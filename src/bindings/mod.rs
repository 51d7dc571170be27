//! The Python extension module `buttonup._core`. It converts arguments and results and
//! holds no game logic: everything it answers comes from the core modules.

mod convert;
mod errors;
mod position;

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
    m.add("MAX_BUTTONS", crate::MAX_BUTTONS)?;
    m.add("__all__", ["MAX_BUTTONS", "Position", "perft"])?;
    Ok(())
}
