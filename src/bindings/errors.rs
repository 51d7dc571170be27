//! The one place where core errors become Python exceptions. The exception classes live
//! in the pure-Python module `buttonup.errors`, shared with the reference engine.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::PyErr;

use crate::game::error::{IllegalMove, NotationError, PositionError};
use crate::game::match_rules::MatchError;
use crate::game::record::RecordError;
use crate::game::standing::StandingError;
use crate::game::variant::VariantError;
use crate::run::interrupt::Interrupted;
use crate::sim::vecenv::MakeError;

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

impl From<NotationError> for PyErr {
    fn from(error: NotationError) -> PyErr {
        py::NotationError::new_err(error.to_string())
    }
}

impl From<PositionError> for PyErr {
    fn from(error: PositionError) -> PyErr {
        py::NotationError::new_err(error.to_string())
    }
}

impl From<IllegalMove> for PyErr {
    fn from(error: IllegalMove) -> PyErr {
        py::IllegalMoveError::new_err(error.to_string())
    }
}

impl From<VariantError> for PyErr {
    fn from(error: VariantError) -> PyErr {
        PyValueError::new_err(error.to_string())
    }
}

impl From<MakeError> for PyErr {
    fn from(error: MakeError) -> PyErr {
        match error {
            MakeError::Variant(error) => error.into(),
            MakeError::Interrupted => Interrupted.into(),
        }
    }
}

impl From<StandingError> for PyErr {
    fn from(error: StandingError) -> PyErr {
        let message = error.to_string();
        match error {
            StandingError::BadTarget(_) | StandingError::Variant(_) => {
                PyValueError::new_err(message)
            }
            // Requests to a match, not moves, that the match rules refuse.
            StandingError::Impossible(_)
            | StandingError::NoChoiceDue
            | StandingError::NoBattle(_) => py::MatchStateError::new_err(message),
        }
    }
}

impl From<MatchError> for PyErr {
    fn from(error: MatchError) -> PyErr {
        let message = error.to_string();
        match error {
            // Moves refused.
            MatchError::Over(_) | MatchError::ChooserDue(_) | MatchError::Illegal(_) => {
                py::IllegalMoveError::new_err(message)
            }
            // A request to a match, not a move, that the match rules refuse.
            MatchError::NothingToUndo => py::MatchStateError::new_err(message),
            MatchError::Standing(error) => error.into(),
            MatchError::BadDeal { .. } => py::NotationError::new_err(message),
            MatchError::DealSize { .. } | MatchError::Variant(_) => PyValueError::new_err(message),
            // Only building a match table is interrupted, and `run` raises the
            // interpreter's own exception instead.
            MatchError::Interrupted => pyo3::exceptions::PyKeyboardInterrupt::new_err(message),
        }
    }
}

impl From<RecordError> for PyErr {
    fn from(error: RecordError) -> PyErr {
        py::RecordError::new_err(error.to_string())
    }
}

impl From<Interrupted> for PyErr {
    fn from(error: Interrupted) -> PyErr {
        // What `run` raises instead, when a signal handler raised.
        pyo3::exceptions::PyKeyboardInterrupt::new_err(error.to_string())
    }
}

/// A solve ended by `Searcher.stop()` before it had the exact value.
pub(crate) fn search_stopped() -> PyErr {
    search_stopped_with("the solve was stopped before it found the exact value".to_string())
}

/// `SearchStoppedError` with its own message.
pub(crate) fn search_stopped_with(message: String) -> PyErr {
    py::SearchStoppedError::new_err(message)
}

/// A notation error found in the bindings (a text Rust cannot read).
pub(crate) fn notation_error(message: String) -> PyErr {
    py::NotationError::new_err(message)
}

/// A record error found in the bindings (a text Rust cannot read).
pub(crate) fn record_error(message: String) -> PyErr {
    py::RecordError::new_err(message)
}

/// Scoring asked of a battle that is not over.
pub(crate) fn battle_not_over() -> PyErr {
    py::BattleNotOverError::new_err("the battle is not over: it has more than one pile")
}

/// An argument of the wrong type.
pub(crate) fn wrong_type(what: &str, expected: &str, got: &str) -> PyErr {
    PyTypeError::new_err(format!("{what} must be {expected}, not {got}"))
}

/// An argument of the right type but out of range.
pub(crate) fn out_of_range(message: String) -> PyErr {
    PyValueError::new_err(message)
}
