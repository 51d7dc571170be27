//! JavaScript values to core types and back. Wrong types are `TypeError`s; values out
//! of range are the core's own errors where the core has one (a move that names no pile,
//! a count of buttons, a target), else `RangeError`s.

use buttonup::game::error::shorten;
use buttonup::game::standing::{check_target, StandingError};
use buttonup::game::variant::{Capability, VariantError};
use buttonup::{IllegalMove, Player, Position};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::errors::{range, type_of, wrong_type, ToJs};

/// A value as a message shows it: a string quoted, anything else as `String(value)`.
pub(crate) fn shown(value: &JsValue) -> String {
    let text = if let Some(text) = value.as_string() {
        format!("'{text}'")
    } else if let Some(number) = value.as_f64() {
        js_sys::Number::from(number)
            .to_string_with_radix(10)
            .map_or_else(|_| number.to_string(), String::from)
    } else if let Some(big) = value.dyn_ref::<js_sys::BigInt>() {
        big.to_string(10).map_or_else(
            |_| "a BigInt".to_string(),
            |t| format!("{}n", String::from(t)),
        )
    } else {
        type_of(value)
    };
    shorten(&text)
}

/// Whether an optional argument was left out (`undefined` or `null`).
pub(crate) fn absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// A string argument.
pub(crate) fn text(value: &JsValue, what: &str) -> Result<String, JsValue> {
    value
        .as_string()
        .ok_or_else(|| wrong_type(what, "a string", value))
}

/// An integer argument, as an `i64` if it is a safe integer (or a `BigInt` that fits),
/// else the text to name it by in the error (`Err(Some(text))`), or `Err(None)` when it
/// is no number at all.
pub(crate) fn integer(value: &JsValue) -> Result<i64, Option<String>> {
    if let Some(number) = value.as_f64() {
        if number.fract() == 0.0 && number.abs() <= 9_007_199_254_740_991.0 {
            return Ok(number as i64);
        }
        return Err(Some(shown(value)));
    }
    if value.is_bigint() {
        return i64::try_from(value.clone()).map_err(|_| Some(shown(value)));
    }
    Err(None)
}

/// An integer argument from `low` to `high`.
pub(crate) fn within(value: &JsValue, name: &str, low: i64, high: i64) -> Result<i64, JsValue> {
    match integer(value) {
        Ok(v) if (low..=high).contains(&v) => Ok(v),
        Ok(v) => Err(range(&format!(
            "{name} must be from {low} to {high}, not {v}"
        ))),
        Err(Some(text)) => Err(range(&format!(
            "{name} must be from {low} to {high}, not {text}"
        ))),
        Err(None) => Err(wrong_type(name, "an integer", value)),
    }
}

/// The pile a move names: a non-negative integer; one that names no pile is the core's
/// illegal move.
pub(crate) fn move_index(position: &Position, value: &JsValue) -> Result<usize, JsValue> {
    match integer(value) {
        Ok(v) if v >= 0 => Ok(usize::try_from(v).unwrap_or(usize::MAX)),
        Ok(v) => Err(no_such_pile(position, v.to_string())),
        Err(Some(text)) if value.as_f64().is_some_and(|n| n.fract() == 0.0) => {
            Err(no_such_pile(position, text))
        }
        Err(_) => Err(wrong_type("a move", "an integer", value)),
    }
}

fn no_such_pile(position: &Position, pile: String) -> JsValue {
    let error: IllegalMove = position.no_such_pile(pile);
    error.to_js()
}

/// A player: `'r'` or `'b'`; `undefined` or `null` is `default`.
pub(crate) fn player(value: &JsValue, name: &str, default: Player) -> Result<Player, JsValue> {
    Ok(optional_player(value, name)?.unwrap_or(default))
}

/// An optional player: `'r'`, `'b'`, or `undefined`/`null` for none.
pub(crate) fn optional_player(value: &JsValue, name: &str) -> Result<Option<Player>, JsValue> {
    if absent(value) {
        return Ok(None);
    }
    match value.as_string().as_deref() {
        Some("r") => Ok(Some(Player::Red)),
        Some("b") => Ok(Some(Player::Black)),
        Some(_) => Err(range(&format!(
            "{name} must be 'r' or 'b', not {}",
            shown(value)
        ))),
        None => Err(wrong_type(name, "'r' or 'b'", value)),
    }
}

/// A player's letter.
pub(crate) fn letter(player: Player) -> JsValue {
    JsValue::from_str(match player {
        Player::Red => "r",
        Player::Black => "b",
    })
}

/// An optional player's letter, or `null`.
pub(crate) fn optional_letter(player: Option<Player>) -> JsValue {
    player.map_or(JsValue::NULL, letter)
}

/// A count of buttons of each colour that the rules support; `undefined` is `default`.
pub(crate) fn per_colour(value: &JsValue, default: usize) -> Result<usize, JsValue> {
    if absent(value) {
        return Ok(default);
    }
    let capability = Capability::Rules;
    match integer(value) {
        Ok(v) => capability.check(v).map_err(|e| e.to_js()),
        Err(Some(text)) => Err(VariantError {
            capability,
            per_colour: text,
        }
        .to_js()),
        Err(None) => Err(wrong_type("perColour", "an integer", value)),
    }
}

/// A match's target of victory points; `undefined` is `default`.
pub(crate) fn target(value: &JsValue, default: u32) -> Result<u32, JsValue> {
    if absent(value) {
        return Ok(default);
    }
    match integer(value) {
        Ok(v) => check_target(v).map_err(|e| e.to_js()),
        Err(Some(text)) => Err(StandingError::BadTarget(text).to_js()),
        Err(None) => Err(wrong_type("target", "an integer", value)),
    }
}

/// A seed: an integer from 0 to 2**64 - 1 (a `BigInt` beyond 2**53); `undefined` is
/// a fresh one from `Math.random`.
pub(crate) fn seed(value: &JsValue) -> Result<u64, JsValue> {
    if absent(value) {
        let half = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
        return Ok(half() << 32 | half());
    }
    let refused = || {
        range(&format!(
            "seed must be an integer from 0 to 2**64 - 1, not {}",
            shown(value)
        ))
    };
    if value.is_bigint() {
        return u64::try_from(value.clone()).map_err(|_| refused());
    }
    match integer(value) {
        Ok(v) if v >= 0 => Ok(v as u64),
        Ok(_) | Err(Some(_)) => Err(refused()),
        Err(None) => Err(wrong_type("seed", "an integer", value)),
    }
}

/// A field of an options object (`undefined` when the options or the field are absent).
pub(crate) fn field(options: &JsValue, key: &str) -> Result<JsValue, JsValue> {
    if absent(options) {
        return Ok(JsValue::UNDEFINED);
    }
    if !options.is_object() || is_array(options)? {
        return Err(js_sys::TypeError::new(&format!(
            "the options must be an object, not {}",
            type_of(options)
        ))
        .into());
    }
    Reflect::get(options, &JsValue::from_str(key))
}

/// A time limit in milliseconds: a finite number, at least 0; `undefined` is none.
pub(crate) fn millis(value: &JsValue, name: &str) -> Result<Option<f64>, JsValue> {
    if absent(value) {
        return Ok(None);
    }
    match value.as_f64() {
        Some(ms) if ms.is_finite() && ms >= 0.0 => Ok(Some(ms)),
        Some(_) => Err(range(&format!(
            "{name} must be a number of milliseconds, at least 0, not {}",
            shown(value)
        ))),
        None => Err(wrong_type(name, "a number", value)),
    }
}

/// A plain object of these fields.
pub(crate) fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (key, value) in fields {
        // Setting a field of a fresh plain object cannot fail.
        let _ = Reflect::set(&object, &JsValue::from_str(key), value);
    }
    object.into()
}

/// An array of numbers.
pub(crate) fn numbers<T: Into<f64>>(values: impl IntoIterator<Item = T>) -> JsValue {
    values
        .into_iter()
        .map(|v| JsValue::from_f64(v.into()))
        .collect::<Array>()
        .into()
}

/// An array of strings.
pub(crate) fn strings(values: impl IntoIterator<Item = String>) -> JsValue {
    values
        .into_iter()
        .map(|v| JsValue::from_str(&v))
        .collect::<Array>()
        .into()
}

/// Casts a value known to be an array.
pub(crate) fn as_array(value: &JsValue) -> Result<Option<Vec<JsValue>>, JsValue> {
    if !value.is_object() || !is_array_caught(value)? {
        return Ok(None);
    }
    let length = Reflect::get(value, &JsValue::from_str("length"))?
        .as_f64()
        .unwrap_or(0.0);
    if length > f64::from(MAX_ELEMENTS) {
        return Err(range(&format!(
            "an array argument has at most {MAX_ELEMENTS} elements, not {length}"
        )));
    }
    (0..length as u32)
        .map(|index| Reflect::get_u32(value, index))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The `[name, value]` pairs of an object argument's own enumerable string keys.
pub(crate) fn entries(value: &JsValue) -> Result<Vec<(String, JsValue)>, JsValue> {
    let pairs = entries_caught(value)?;
    // `Object.entries` made this array and its pairs: reading them runs no caller code.
    Ok(pairs
        .iter()
        .map(|pair| {
            let pair: Array = pair.unchecked_into();
            (pair.get(0).as_string().unwrap_or_default(), pair.get(1))
        })
        .collect())
}

/// Whether `value` is an array, read without letting a revoked Proxy's throw unwind.
pub(crate) fn is_array(value: &JsValue) -> Result<bool, JsValue> {
    is_array_caught(value)
}

/// The most elements an array argument may have (moves, piles, deals).
pub(crate) const MAX_ELEMENTS: u32 = 1 << 16;

// The caller's objects are read only through calls that catch what they throw: a getter
// or Proxy trap that throws becomes an `Err` returned through the Rust frames, never a
// JavaScript exception unwinding them (that leaked the shadow stack, and left a borrowed
// `&self` borrowed for good).
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array_caught(value: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = entries)]
    fn entries_caught(value: &JsValue) -> Result<Array, JsValue>;
}
