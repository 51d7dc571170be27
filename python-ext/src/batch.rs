//! Many positions in one call, on several threads: `solve_many` and `perft_many`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use super::convert::{self, type_name, Int, Real};
use super::interrupt::run;
use super::position::PyPosition;
use buttonup::game::rules::Position;

/// The positions of an iterable of `Position`s; anything else is a `TypeError` naming
/// the item.
fn positions(items: &Bound<'_, PyAny>) -> PyResult<Vec<Position>> {
    let mut out = Vec::new();
    for (i, item) in items.try_iter()?.enumerate() {
        let item = item?;
        match item.cast::<PyPosition>() {
            Ok(position) => out.push(position.get().inner),
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "positions[{i}] must be a Position, not {}",
                    type_name(&item)
                )))
            }
        }
    }
    Ok(out)
}

/// The exact value (a margin, for the side to move) of every position, in order.
///
/// The same numbers as `[solve(p) for p in positions]`, on `threads` threads sharing
/// one transposition table of at most `tt_mb` MiB, sized by the work the batch's first
/// positions took (a batch of small positions gets a small table, which is faster) and
/// kept for the next batch.
///
/// Args:
///     positions: an iterable of `Position`.
///     threads: the threads, 1 to 256 (`None`: every core).
///     tt_mb: the most MiB of the shared table.
///
/// Returns:
///     A list of values, one a position.
///
/// Raises:
///     TypeError: if an item is not a `Position` (the message names it).
///     ValueError: if `threads` or `tt_mb` is out of range.
///
/// Example:
///     >>> from buttonup import Position, solve_many
///     >>> solve_many([Position("W/R/B/W/B/R/R/W/B r"), Position("W/B/W/R/B/R/B/R/W r")])
///     [1, 0]
#[pyfunction]
#[pyo3(
    signature = (positions, *, threads = None, tt_mb = Real::of(16.0)),
    text_signature = "(positions, *, threads=None, tt_mb=16.0)"
)]
pub fn solve_many(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    threads: Option<Int>,
    tt_mb: Real,
) -> PyResult<Vec<i64>> {
    let positions = self::positions(positions)?;
    let threads = convert::threads(threads)?;
    let bytes = super::search::table_bytes(&tt_mb)?;
    match run(py, || {
        buttonup::search::batch::solve_many(&positions, bytes, threads)
    })? {
        Ok(values) => Ok(values.into_iter().map(i64::from).collect()),
        // The interruption is unreachable: `run` raised it.
        Err(error) => Err(super::errors::raised(error)),
    }
}

/// `[perft(p, depth) for p in positions]` on `threads` threads.
///
/// Args:
///     positions: an iterable of `Position`.
///     depth: the moves of each sequence, 0 or more.
///     threads: the threads, 1 to 256 (`None`: every core).
///
/// Raises:
///     TypeError: if an item is not a `Position` (the message names it).
///     ValueError: if `depth` or `threads` is out of range.
///
/// Example:
///     >>> from buttonup import Position, perft_many
///     >>> perft_many([Position("W/R/B/W/B/R/R/W/B r"), Position("W/B/W/R/B/R/B/R/W r")], 3)
///     [26, 20]
#[pyfunction]
#[pyo3(
    signature = (positions, depth, *, threads = None),
    text_signature = "(positions, depth, *, threads=None)"
)]
pub fn perft_many(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    depth: Int,
    threads: Option<Int>,
) -> PyResult<Vec<u64>> {
    let positions = self::positions(positions)?;
    let depth = depth.within("depth", 0, i64::from(u32::MAX))? as u32;
    let threads = convert::threads(threads)?;
    // An interrupted batch is dropped by `run`, which raises the interruption.
    Ok(run(py, || {
        buttonup::search::batch::perft_many(&positions, depth, threads)
    })?
    .unwrap_or_default())
}
