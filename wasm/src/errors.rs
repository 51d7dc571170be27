//! The one place where core errors become JavaScript errors. Each is an `Error` (a
//! `RangeError` or `TypeError` where Python raises `ValueError` or `TypeError`) whose
//! `message` is the core's, as the Python engine words it, and whose `name` is the
//! Python class: `NotationError`, `IllegalMoveError`, `BattleNotOverError`,
//! `SearchStoppedError`, `MatchStateError`, `RecordError`.

use buttonup::game::record::RecordError;
use buttonup::game::standing::StandingError;
use buttonup::game::variant::VariantError;
use buttonup::run::interrupt::Interrupted;
use buttonup::{IllegalMove, MatchError, NotationError, PositionError};
use wasm_bindgen::JsValue;

/// An `Error` named `name`.
pub(crate) fn named(name: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    error.set_name(name);
    error.into()
}

/// A `RangeError`: an argument of the right type whose value is refused (Python's
/// `ValueError`).
pub(crate) fn range(message: &str) -> JsValue {
    js_sys::RangeError::new(message).into()
}

/// A `TypeError`: an argument of the wrong type.
pub(crate) fn wrong_type(what: &str, expected: &str, got: &JsValue) -> JsValue {
    js_sys::TypeError::new(&format!("{what} must be {expected}, not {}", type_of(got))).into()
}

/// How a value's type is named in a message: `typeof`, with `null` and arrays told apart.
pub(crate) fn type_of(value: &JsValue) -> String {
    if value.is_null() {
        "null".to_string()
    } else if js_sys::Array::is_array(value) {
        "an array".to_string()
    } else {
        value
            .js_typeof()
            .as_string()
            .unwrap_or_else(|| "?".to_string())
    }
}

/// Scoring asked of a battle that is not over (the Python engine's words).
pub(crate) fn battle_not_over() -> JsValue {
    named(
        "BattleNotOverError",
        "the battle is not over: it has more than one pile",
    )
}

/// A search or analysis that ended before it had its answer.
pub(crate) fn search_stopped(message: &str) -> JsValue {
    named("SearchStoppedError", message)
}

/// A core error as JavaScript throws it.
pub(crate) trait ToJs {
    fn to_js(&self) -> JsValue;
}

impl ToJs for NotationError {
    fn to_js(&self) -> JsValue {
        named("NotationError", &self.to_string())
    }
}

impl ToJs for PositionError {
    fn to_js(&self) -> JsValue {
        named("NotationError", &self.to_string())
    }
}

impl ToJs for IllegalMove {
    fn to_js(&self) -> JsValue {
        named("IllegalMoveError", &self.to_string())
    }
}

impl ToJs for VariantError {
    fn to_js(&self) -> JsValue {
        range(&self.to_string())
    }
}

impl ToJs for StandingError {
    fn to_js(&self) -> JsValue {
        let message = self.to_string();
        match self {
            StandingError::BadTarget(_) | StandingError::Variant(_) => range(&message),
            StandingError::Impossible(_)
            | StandingError::NoChoiceDue
            | StandingError::NoBattle(_) => named("MatchStateError", &message),
        }
    }
}

impl ToJs for MatchError {
    fn to_js(&self) -> JsValue {
        let message = self.to_string();
        match self {
            MatchError::Over(_) | MatchError::ChooserDue(_) | MatchError::Illegal(_) => {
                named("IllegalMoveError", &message)
            }
            MatchError::NothingToUndo => named("MatchStateError", &message),
            MatchError::Standing(error) => error.to_js(),
            MatchError::BadDeal { .. } => named("NotationError", &message),
            MatchError::DealSize { .. } | MatchError::Variant(_) => range(&message),
            MatchError::Interrupted => named("Interrupted", &message),
        }
    }
}

impl ToJs for RecordError {
    fn to_js(&self) -> JsValue {
        named("RecordError", &self.to_string())
    }
}

impl ToJs for Interrupted {
    fn to_js(&self) -> JsValue {
        named("Interrupted", &self.to_string())
    }
}

/// `Result<T, E>` with a core error, thrown as JavaScript throws it.
pub(crate) trait OrThrow<T> {
    fn or_throw(self) -> Result<T, JsValue>;
}

impl<T, E: ToJs> OrThrow<T> for Result<T, E> {
    fn or_throw(self) -> Result<T, JsValue> {
        self.map_err(|error| error.to_js())
    }
}
