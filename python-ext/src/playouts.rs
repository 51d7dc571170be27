//! Random playouts for Python, summed up in a `buttonup.results.PlayoutSummary`.

use crate::errors::raised;
use pyo3::prelude::*;

use super::convert::{self, Int};
use super::interrupt;
use super::position::seed_from_py;
use super::results::summary_to_py;
use buttonup::game::variant::{Capability, STANDARD_PER_COLOUR};
use buttonup::sim::playout::PlayoutError;

/// Plays `battles` random battles from shuffled starts and sums them up.
///
/// Red moves first in the even-numbered battles. The loop runs in Rust (no GIL held),
/// on `threads` threads. Battle `i` has its own generator, so a seed gives the same
/// games on any number of threads and in the reference engine.
///
/// Args:
///     battles: the number of battles, 0 or more.
///     seed: an int from 0 to 2**64 - 1 (`None`: from the operating system).
///     per_colour: the buttons of each colour, 1 to `VARIANT_LIMITS["rules"]`.
///     threads: the threads, 1 to 256 (`None`: every core).
///
/// Returns:
///     A `PlayoutSummary`.
///
/// Raises:
///     ValueError: if an argument is out of range.
///
/// Example:
///     >>> from buttonup import random_playouts
///     >>> summary = random_playouts(100, seed=1)
///     >>> summary.battles, summary.red_wins, summary.black_wins, summary.draws
///     (100, 46, 51, 3)
#[pyfunction]
#[pyo3(
    signature = (battles, seed = None, *, per_colour = Int::of(STANDARD_PER_COLOUR as i64), threads = None),
    text_signature = "(battles, seed=None, *, per_colour=3, threads=None)"
)]
pub fn random_playouts<'py>(
    py: Python<'py>,
    battles: Int,
    seed: Option<&Bound<'py, PyAny>>,
    per_colour: Int,
    threads: Option<Int>,
) -> PyResult<Bound<'py, PyAny>> {
    let battles = battles.within("battles", 0, i64::MAX)? as u64;
    let per_colour = per_colour.per_colour(Capability::Rules)?;
    let seed = seed_from_py(seed)?;
    let threads = convert::threads(threads)?;
    let summary = interrupt::run(py, || {
        buttonup::sim::playout::random_playouts(battles, seed, per_colour, threads)
    })?;
    match summary {
        Ok(summary) => summary_to_py(py, &summary),
        Err(PlayoutError::Position(error)) => Err(raised(error)),
        // Unreachable: `run` raised the interruption.
        Err(PlayoutError::Interrupted) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            "interrupted",
        )),
    }
}
