//! The one place where core errors become Python exceptions: each kind of error of the
//! core (`ErrorKind`, decided by the core's `HasKind::kind`) is one exception class, the
//! message the error's own. The buttonup classes live in the pure-Python module
//! `buttonup.errors`, shared with the reference engine.

use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::{PyErr, PyResult};

use buttonup::game::error_kind::{BattleError, ErrorKind, HasKind};

/// The exception classes of `buttonup.errors`.
mod py {
    use pyo3::import_exception;
    import_exception!(buttonup.errors, NotationError);
    import_exception!(buttonup.errors, IllegalMoveError);
    import_exception!(buttonup.errors, BattleNotOverError);
    import_exception!(buttonup.errors, SearchStoppedError);
    import_exception!(buttonup.errors, MatchStateError);
    import_exception!(buttonup.errors, RecordError);
}

/// The class of each kind, written once: `raise` makes the exception, `class_name`
/// names it (what the tests and docs/reliability.md check).
macro_rules! classes {
    ($($kind:ident => $class:ty, $name:literal;)*) => {
        /// The exception of `kind` with `message`.
        pub(crate) fn raise(kind: ErrorKind, message: String) -> PyErr {
            match kind {
                $(ErrorKind::$kind => PyErr::new::<$class, _>(message),)*
            }
        }

        /// The qualified name of the class `raise` uses for `kind`.
        #[cfg_attr(not(test), allow(dead_code))]
        pub(crate) const fn class_name(kind: ErrorKind) -> &'static str {
            match kind {
                $(ErrorKind::$kind => $name,)*
            }
        }
    };
}

classes! {
    Notation => py::NotationError, "buttonup.errors.NotationError";
    IllegalMove => py::IllegalMoveError, "buttonup.errors.IllegalMoveError";
    BattleNotOver => py::BattleNotOverError, "buttonup.errors.BattleNotOverError";
    MatchState => py::MatchStateError, "buttonup.errors.MatchStateError";
    Record => py::RecordError, "buttonup.errors.RecordError";
    SearchStopped => py::SearchStoppedError, "buttonup.errors.SearchStoppedError";
    InvalidArgument => PyValueError, "ValueError";
    WrongType => PyTypeError, "TypeError";
    // What `run` raises instead, when a signal handler raised.
    Interrupted => PyKeyboardInterrupt, "KeyboardInterrupt";
    Memory => PyMemoryError, "MemoryError";
    Internal => PyRuntimeError, "RuntimeError";
}

/// A core error as Python raises it: its kind's class, its own message.
pub(crate) fn raised(error: impl HasKind) -> PyErr {
    raise(error.kind(), error.to_string())
}

/// A core result as a Python one: `.or_raise()?` raises the error as its kind's class.
pub(crate) trait OrRaise<T> {
    /// The value, or the error raised.
    fn or_raise(self) -> PyResult<T>;
}

impl<T, E: HasKind> OrRaise<T> for Result<T, E> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(raised)
    }
}

/// A solve ended by `Searcher.stop()` before it had the exact value.
pub(crate) fn search_stopped() -> PyErr {
    search_stopped_with("the solve was stopped before it found the exact value".to_string())
}

/// `SearchStoppedError` with its own message.
pub(crate) fn search_stopped_with(message: String) -> PyErr {
    raise(ErrorKind::SearchStopped, message)
}

/// A notation error found in the bindings (a text Rust cannot read).
pub(crate) fn notation_error(message: String) -> PyErr {
    raise(ErrorKind::Notation, message)
}

/// A record error found in the bindings (a text Rust cannot read).
pub(crate) fn record_error(message: String) -> PyErr {
    raise(ErrorKind::Record, message)
}

/// Scoring asked of a battle that is not over.
pub(crate) fn battle_not_over() -> PyErr {
    raised(BattleError::NotOver)
}

/// An argument of the wrong type.
pub(crate) fn wrong_type(what: &str, expected: &str, got: &str) -> PyErr {
    raise(
        ErrorKind::WrongType,
        format!("{what} must be {expected}, not {got}"),
    )
}

/// An argument of the right type but out of range.
pub(crate) fn out_of_range(message: String) -> PyErr {
    raise(ErrorKind::InvalidArgument, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use buttonup_testkit::{DocumentedKind, RELIABILITY_DOC};

    /// Every kind's class is the docs' (which gives each kind its own).
    #[test]
    fn each_kind_has_its_documented_class() {
        let doc = RELIABILITY_DOC;
        for row in DocumentedKind::table(doc).expect("the docs' table of error kinds") {
            let class = class_name(row.kind);
            assert_eq!(class.rsplit('.').next(), Some(&*row.python), "{class}");
        }
    }
}
