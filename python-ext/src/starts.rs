//! The starts of a variant: its start orders as a lazy sequence (17 million for six of
//! each colour, made only when asked for), and their classes under the symmetries that
//! keep a start's value. Whatever is built here is built a piece at a time with the
//! interpreter's own allocator, so Ctrl-C stops it and a lack of memory is a
//! `MemoryError`, never the end of the process.

use std::sync::Mutex;

use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::slice::PySliceIndices;
use pyo3::types::{PyBytes, PyList, PySlice, PyString, PyTuple};

use super::convert::{type_name, Int};
use super::errors::OrRaise;
use super::interrupt::run;
use buttonup::game::variant::{
    start_order_count, start_order_index, Capability, StartOrders, STANDARD_PER_COLOUR,
};

/// Orders made between two looks for Ctrl-C.
const ORDERS_BETWEEN_LOOKS: usize = 1 << 12;

/// A start order as a Python string, or a `MemoryError`.
fn order_text<'py>(py: Python<'py>, letters: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    // Through the C API so that a failed allocation is an exception: the letters are
    // ASCII, and the pointer and length are the slice's own.
    unsafe {
        let text = pyo3::ffi::PyUnicode_FromStringAndSize(
            letters.as_ptr().cast(),
            letters.len() as pyo3::ffi::Py_ssize_t,
        );
        Bound::from_owned_ptr_or_err(py, text)
    }
}

/// Every distinct start order of rule 1 with `per_colour` buttons of each colour.
///
/// There are 1,680 for the standard game, in lexicographic order (`B < R < W`): a
/// read-only sequence that makes each order when it is asked for, as `range` does its
/// numbers. It has a length, indexes and slices, iterates, and finds an order's place
/// (`index`, `in`) without listing the others; it equals the list of its orders.
/// `isinstance(orders, collections.abc.Sequence)` holds. Made by `start_orders`.
///
/// Example:
///     >>> from buttonup import start_orders
///     >>> orders = start_orders()
///     >>> len(orders), orders[0], orders[-1]
///     (1680, 'BBBRRRWWW', 'WWWRRRBBB')
///     >>> orders.index("WRBWBRRWB"), "WRBWBRRWB" in orders
///     (1396, True)
///     >>> start_orders(1) == ["BRW", "BWR", "RBW", "RWB", "WBR", "WRB"]
///     True
#[pyclass(module = "buttonup", name = "StartOrders", frozen, sequence)]
pub struct PyStartOrders {
    per_colour: usize,
    len: u64,
}

impl PyStartOrders {
    fn new(per_colour: usize) -> PyResult<PyStartOrders> {
        let len = start_order_count(per_colour).or_raise()?;
        Ok(PyStartOrders { per_colour, len })
    }

    /// The `index`-th order; `index` is below the length.
    fn order<'py>(&self, py: Python<'py>, index: u64) -> PyResult<Bound<'py, PyAny>> {
        let mut orders = StartOrders::from(self.per_colour, index).or_raise()?;
        match orders.next_letters() {
            Some(letters) => order_text(py, letters),
            None => Err(PyIndexError::new_err("start order index out of range")),
        }
    }

    /// The orders a slice picks, as a list.
    fn slice<'py>(&self, py: Python<'py>, at: PySliceIndices) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        if at.slicelength == 0 {
            return Ok(list);
        }
        let mut orders = StartOrders::from(self.per_colour, at.start as u64).or_raise()?;
        for n in 0..at.slicelength {
            if n % ORDERS_BETWEEN_LOOKS == ORDERS_BETWEEN_LOOKS - 1 {
                py.check_signals()?;
            }
            if at.step == 1 {
                // The next order follows from the one before: no search for its place.
                let Some(letters) = orders.next_letters() else {
                    break;
                };
                list.append(order_text(py, letters)?)?;
            } else {
                let index = at.start + n as isize * at.step;
                list.append(self.order(py, index as u64)?)?;
            }
        }
        Ok(list)
    }

    /// The orders from the `first`-th on, at most `count` of them, as a list.
    fn piece<'py>(&self, py: Python<'py>, first: u64, count: u64) -> PyResult<Bound<'py, PyList>> {
        let start = first.min(self.len);
        let length = count.min(self.len - start);
        let at = PySliceIndices {
            start: start as isize,
            stop: (start + length) as isize,
            step: 1,
            slicelength: length as usize,
        };
        self.slice(py, at)
    }

    /// Whether `other` is a list or tuple of the same orders.
    fn same_items(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        if other.len()? as u64 != self.len {
            return Ok(false);
        }
        let mut orders = StartOrders::from(self.per_colour, 0).or_raise()?;
        for (n, item) in other.try_iter()?.enumerate() {
            if n % ORDERS_BETWEEN_LOOKS == ORDERS_BETWEEN_LOOKS - 1 {
                py.check_signals()?;
            }
            let Some(letters) = orders.next_letters() else {
                return Ok(false);
            };
            let same = item?
                .cast::<PyString>()
                .ok()
                .is_some_and(|text| text.to_cow().is_ok_and(|t| t.as_bytes() == letters));
            if !same {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The place of `item` in the listing, if it is one of its orders.
    fn place(&self, item: &Bound<'_, PyAny>) -> Option<u64> {
        let text = item.cast::<PyString>().ok()?;
        start_order_index(self.per_colour, &text.to_cow().ok()?)
    }
}

#[pymethods]
impl PyStartOrders {
    /// The buttons of each colour of the orders' variant.
    #[getter]
    fn per_colour(&self) -> usize {
        self.per_colour
    }

    fn __len__(&self) -> usize {
        self.len as usize
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(slice) = index.cast::<PySlice>() {
            let at = slice.indices(self.len as isize)?;
            return Ok(self.slice(py, at)?.into_any());
        }
        let len = i128::from(self.len);
        let at = match index.extract::<Int>()? {
            Int::Small(i) => i128::from(i),
            Int::Big(_) => len,
            Int::Other(kind) => {
                return Err(PyTypeError::new_err(format!(
                    "start order indices must be integers or slices, not {kind}"
                )))
            }
        };
        let at = if at < 0 { at + len } else { at };
        if !(0..len).contains(&at) {
            return Err(PyIndexError::new_err("start order index out of range"));
        }
        self.order(py, at as u64)
    }

    fn __iter__(&self) -> PyStartOrderIterator {
        PyStartOrderIterator {
            state: Mutex::new(IteratorState {
                orders: StartOrders::from(self.per_colour, 0).ok(),
                left: self.len,
            }),
        }
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> bool {
        self.place(item).is_some()
    }

    /// The place of `order` in the listing (from 0), found without listing the orders
    /// before it.
    ///
    /// Args:
    ///     order: a start order.
    ///     start: where to start looking, counted as in a slice.
    ///     stop: where to stop looking, counted as in a slice (`None`: the end).
    ///
    /// Raises:
    ///     ValueError: if `order` is not one of the orders (between `start` and `stop`,
    ///         when given).
    #[pyo3(signature = (order, start = 0, stop = None))]
    fn index(&self, order: &Bound<'_, PyAny>, start: isize, stop: Option<isize>) -> PyResult<u64> {
        let len = self.len as i128;
        let bound = |at: isize| {
            let at = at as i128;
            (if at < 0 { at + len } else { at }).clamp(0, len)
        };
        let (low, high) = (bound(start), stop.map_or(len, bound));
        let place = self
            .place(order)
            .filter(|&at| (low..high).contains(&(at as i128)));
        place.ok_or_else(|| {
            let shown = order
                .repr()
                .map(|r| r.to_string())
                .unwrap_or_else(|_| type_name(order));
            PyValueError::new_err(format!(
                "{} is not a start order of {} buttons of each colour",
                buttonup::game::error::shorten(&shown),
                self.per_colour
            ))
        })
    }

    /// 1 if `order` is one of the orders, else 0.
    fn count(&self, order: &Bound<'_, PyAny>) -> u64 {
        u64::from(self.place(order).is_some())
    }

    fn __richcmp__(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        op: CompareOp,
    ) -> PyResult<Py<PyAny>> {
        let equal = if let Ok(orders) = other.cast::<PyStartOrders>() {
            orders.get().per_colour == self.per_colour
        } else if other.cast::<PyList>().is_ok() || other.cast::<PyTuple>().is_ok() {
            self.same_items(py, other)?
        } else {
            return Ok(py.NotImplemented());
        };
        match op {
            CompareOp::Eq => Ok(equal.into_pyobject(py)?.to_owned().into_any().unbind()),
            CompareOp::Ne => Ok((!equal).into_pyobject(py)?.to_owned().into_any().unbind()),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        self.per_colour as u64
    }

    fn __repr__(&self) -> String {
        format!("start_orders({})", self.per_colour)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (usize,))> {
        Ok((
            py.import("buttonup")?.getattr("start_orders")?,
            (self.per_colour,),
        ))
    }
}

struct IteratorState {
    /// `None` once the last order has been given.
    orders: Option<StartOrders>,
    left: u64,
}

/// An iterator over a variant's start orders, made one at a time.
#[pyclass(module = "buttonup", name = "StartOrderIterator", frozen)]
pub struct PyStartOrderIterator {
    // Never contended: it is held only while the interpreter is.
    state: Mutex<IteratorState>,
}

#[pymethods]
impl PyStartOrderIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // `list(...)` and `"".join(...)` run no Python code between items: look for
        // Ctrl-C here.
        if state.left % ORDERS_BETWEEN_LOOKS as u64 == 1 {
            py.check_signals()?;
        }
        let Some(orders) = state.orders.as_mut() else {
            return Ok(None);
        };
        match orders.next_letters() {
            Some(letters) => {
                let text = order_text(py, letters)?;
                state.left = state.left.saturating_sub(1);
                Ok(Some(text))
            }
            None => {
                state.orders = None;
                Ok(None)
            }
        }
    }

    fn __length_hint__(&self) -> u64 {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .left
    }
}

/// Every distinct start order of rule 1 with `per_colour` buttons of each colour, as a
/// lazy sequence.
///
/// 1,680 for the standard game, in lexicographic order (`B < R < W`): a `StartOrders`.
///
/// Args:
///     per_colour: the buttons of each colour, 1 to `VARIANT_LIMITS["start_orders"]`.
///
/// Raises:
///     ValueError: if `per_colour` is out of range.
///
/// Example:
///     >>> from buttonup import start_orders
///     >>> start_orders()[:3]
///     ['BBBRRRWWW', 'BBBRRWRWW', 'BBBRRWWRW']
#[pyfunction]
#[pyo3(signature = (per_colour = Int::of(STANDARD_PER_COLOUR as i64)), text_signature = "(per_colour=3)")]
pub fn start_orders(per_colour: Int) -> PyResult<PyStartOrders> {
    PyStartOrders::new(per_colour.per_colour(Capability::StartOrders)?)
}

/// `count` start orders of `start_orders(per_colour)` from the `first`-th (counting from
/// 0) on, fewer at the end, as a list: `start_orders(per_colour)[first:first + count]`.
#[pyfunction]
#[pyo3(signature = (per_colour, first, count), text_signature = "(per_colour, first, count)")]
pub fn start_orders_from<'py>(
    py: Python<'py>,
    per_colour: Int,
    first: Int,
    count: Int,
) -> PyResult<Bound<'py, PyList>> {
    let orders = PyStartOrders::new(per_colour.per_colour(Capability::StartOrders)?)?;
    let first = first.within("first", 0, i64::MAX)? as u64;
    let count = count.within("count", 0, i64::MAX)? as u64;
    orders.piece(py, first, count)
}

/// Rows copied into the array between two looks for Ctrl-C.
const ROWS_A_PIECE: usize = 1 << 16;

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
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyAny>)> {
    let per_colour = per_colour.per_colour(Capability::StartOrders)?;
    let classes = run(py, || buttonup::search::classes::start_classes(per_colour))?.or_raise()?;
    let rows = py.import("array")?.getattr("array")?.call1(("I",))?;
    // A piece at a time: the rows are never copied whole a second time.
    for piece in classes.rows.chunks(ROWS_A_PIECE) {
        py.check_signals()?;
        let raw = PyBytes::new_with(py, 4 * piece.len(), |bytes| {
            for (chunk, class) in bytes.chunks_exact_mut(4).zip(piece) {
                chunk.copy_from_slice(&class.to_ne_bytes());
            }
            Ok(())
        })?;
        rows.call_method1("frombytes", (raw,))?;
    }
    let representatives = PyList::empty(py);
    for order in &classes.representatives {
        representatives.append(order_text(py, order.as_bytes())?)?;
    }
    Ok((representatives, rows))
}
