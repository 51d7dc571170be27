//! The one place where core errors become JavaScript errors: each kind of error of the
//! core (`ErrorKind`, decided by the core's `HasKind::kind`) is one JavaScript error,
//! whose `message` is the core's, as the Python engine words it. A kind Python raises as
//! a `ValueError` or `TypeError` is a `RangeError` or `TypeError`; the others are an
//! `Error` whose `name` is the Python class (`NotationError`, `IllegalMoveError`,
//! `BattleNotOverError`, `MatchStateError`, `RecordError`, `SearchStoppedError`), or
//! `Interrupted`, `MemoryError`, `InternalError`.

use buttonup::{BattleError, ErrorKind, HasKind};
use wasm_bindgen::JsValue;

/// Which constructor makes an error of a kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    /// An `Error` with this `name`.
    Named(&'static str),
    /// A `RangeError` (Python's `ValueError`).
    Range,
    /// A `TypeError`.
    Type,
}

impl Class {
    /// The `name` the error has in JavaScript.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Class::Named(name) => name,
            Class::Range => "RangeError",
            Class::Type => "TypeError",
        }
    }
}

/// The JavaScript error of each kind: one a kind.
pub(crate) const fn class(kind: ErrorKind) -> Class {
    match kind {
        ErrorKind::Notation => Class::Named("NotationError"),
        ErrorKind::IllegalMove => Class::Named("IllegalMoveError"),
        ErrorKind::BattleNotOver => Class::Named("BattleNotOverError"),
        ErrorKind::MatchState => Class::Named("MatchStateError"),
        ErrorKind::Record => Class::Named("RecordError"),
        ErrorKind::SearchStopped => Class::Named("SearchStoppedError"),
        ErrorKind::InvalidArgument => Class::Range,
        ErrorKind::WrongType => Class::Type,
        ErrorKind::Interrupted => Class::Named("Interrupted"),
        ErrorKind::Memory => Class::Named("MemoryError"),
        ErrorKind::Internal => Class::Named("InternalError"),
    }
}

/// The error of `kind` with `message`, as JavaScript throws it.
pub(crate) fn thrown(kind: ErrorKind, message: &str) -> JsValue {
    match class(kind) {
        Class::Named(name) => {
            let error = js_sys::Error::new(message);
            error.set_name(name);
            error.into()
        }
        Class::Range => js_sys::RangeError::new(message).into(),
        Class::Type => js_sys::TypeError::new(message).into(),
    }
}

/// A `RangeError`: an argument of the right type whose value is refused (Python's
/// `ValueError`).
pub(crate) fn range(message: &str) -> JsValue {
    thrown(ErrorKind::InvalidArgument, message)
}

/// A `TypeError`: an argument of the wrong type.
pub(crate) fn wrong_type(what: &str, expected: &str, got: &JsValue) -> JsValue {
    thrown(
        ErrorKind::WrongType,
        &format!("{what} must be {expected}, not {}", type_of(got)),
    )
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
    BattleError::NotOver.to_js()
}

/// A core error as JavaScript throws it: its kind's error, its own message.
pub(crate) trait ToJs {
    fn to_js(&self) -> JsValue;
}

impl<E: HasKind> ToJs for E {
    fn to_js(&self) -> JsValue {
        thrown(self.kind(), &self.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;
    use buttonup_testkit::{DocumentedKind, RELIABILITY_DOC};

    /// Every kind's JavaScript error is the docs' (which gives each kind its own); the
    /// built-in ones are JavaScript's own classes.
    #[test]
    fn each_kind_has_its_documented_error() {
        let doc = RELIABILITY_DOC;
        for row in DocumentedKind::table(doc).expect("the docs' table of error kinds") {
            assert_eq!(class(row.kind).name(), row.javascript, "{}", row.kind);
        }
        assert_eq!(class(ErrorKind::InvalidArgument), Class::Range);
        assert_eq!(class(ErrorKind::WrongType), Class::Type);
    }
}
