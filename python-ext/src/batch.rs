//! Many positions in one call, on several threads: `solve_many` and `perft_many`.

use crate::errors::OrRaise;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::convert::{self, type_name, Int};
use super::interrupt::run;
use super::position::PyPosition;
use buttonup::game::rules::Position;
use buttonup::game::variant::{Capability, STANDARD_PER_COLOUR};

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

/// The exact value (a margin, for the side to move) of every position, in order: the
/// same numbers as `[solve(p) for p in positions]`, on `threads` threads (default: every
/// core) sharing one transposition table of at most `tt_mb` MiB, sized by the work the
/// batch's first positions took (a batch of small positions gets a small table, which
/// is faster) and kept for the next batch.
#[pyfunction]
#[pyo3(
    signature = (positions, *, threads = None, tt_mb = 16.0),
    text_signature = "(positions, *, threads=None, tt_mb=16.0)"
)]
pub fn solve_many(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    threads: Option<Int>,
    tt_mb: f64,
) -> PyResult<Vec<i64>> {
    let positions = self::positions(positions)?;
    let threads = convert::threads(threads)?;
    let bytes = super::search::table_bytes(tt_mb)?;
    match run(py, || {
        buttonup::search::batch::solve_many(&positions, bytes, threads)
    })? {
        Ok(values) => Ok(values.into_iter().map(i64::from).collect()),
        // The interruption is unreachable: `run` raised it.
        Err(error) => Err(super::errors::raised(error)),
    }
}

/// `[perft(p, depth) for p in positions]` on `threads` threads (default: every core).
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

/// The starts of a variant grouped by the symmetries that keep their value (turning the
/// circle; swapping red and black with the side to move): one start order per class, to
/// solve with Red to move, in the order the rows first need them, and the class of every
/// start (start order `i` of `start_orders` with Red to move at `2 * i`, with Black at
/// `2 * i + 1`) as an `array.array("I")` (4 bytes a start: 137 MB for six of each
/// colour, where a list would take a gigabyte).
#[pyfunction]
#[pyo3(signature = (per_colour = Int::of(STANDARD_PER_COLOUR as i64)), text_signature = "(per_colour=3)")]
pub fn start_classes<'py>(
    py: Python<'py>,
    per_colour: Int,
) -> PyResult<(Vec<String>, Bound<'py, PyAny>)> {
    let per_colour = per_colour.per_colour(Capability::StartOrders)?;
    let classes = run(py, || buttonup::search::classes::start_classes(per_colour))?.or_raise()?;
    let raw = PyBytes::new_with(py, 4 * classes.rows.len(), |bytes| {
        for (chunk, class) in bytes.chunks_exact_mut(4).zip(&classes.rows) {
            chunk.copy_from_slice(&class.to_ne_bytes());
        }
        Ok(())
    })?;
    let rows = py.import("array")?.getattr("array")?.call1(("I", raw))?;
    Ok((classes.representatives, rows))
}

/// `count` start orders of `start_orders(per_colour)` from the `first`-th (counting from
/// 0) on, fewer at the end: the listing a piece at a time, for the variants whose whole
/// list is too big to hold (17,153,136 orders for six of each colour).
#[pyfunction]
#[pyo3(signature = (per_colour, first, count), text_signature = "(per_colour, first, count)")]
pub fn start_orders_from(
    py: Python<'_>,
    per_colour: Int,
    first: Int,
    count: Int,
) -> PyResult<Vec<String>> {
    let per_colour = per_colour.per_colour(Capability::StartOrders)?;
    let first = first.within("first", 0, i64::MAX)? as u64;
    let count = count.within("count", 0, i64::MAX)? as usize;
    run(py, || {
        buttonup::game::variant::StartOrders::from(per_colour, first)
            .map(|orders| orders.take(count).collect::<Vec<String>>())
    })?
    .or_raise()
}
