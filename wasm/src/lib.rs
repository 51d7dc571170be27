//! buttonup for JavaScript: the core built for `wasm32-unknown-unknown`, with an API made
//! by `wasm-bindgen` (docs/wasm.md). This crate only converts: every rule, score and
//! search is the core's, and every error message is the core's own words, the same as
//! the Python engine's.
//!
//! Everything runs on one thread (the core falls back to it on this target); the core's
//! clock is JavaScript's `performance.now`, installed when the module starts.

mod ai;
mod analysis;
mod convert;
mod draw;
mod errors;
mod matches;
mod odds;
mod playouts;
mod position;
mod search;
mod session;
mod types;

use wasm_bindgen::prelude::*;

pub use matches::{JsMatch, JsSeats};
pub use position::JsPosition;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[wasm_bindgen]
extern "C" {
    /// `performance.now()` (every browser and Node 16 on have it as a global).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Runs once when the module is instantiated: installs the core's clock.
#[wasm_bindgen(start)]
pub fn start() {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    buttonup::run::clock::set_source(performance_now);
}

/// The version of this package (the core's version).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The most buttons of each colour each part of the engine takes: `rules` (positions
/// and moves), `start_orders`, `move_graph`, `match_odds` and `positions` (as the Python engine's
/// `VARIANT_LIMITS`).
#[wasm_bindgen(js_name = variantLimits, unchecked_return_type = "Record<string, number>")]
pub fn variant_limits() -> JsValue {
    let limits: Vec<(&str, JsValue)> = buttonup::Capability::ALL
        .iter()
        .map(|c| (c.name(), JsValue::from(c.max_per_colour() as u32)))
        .collect();
    convert::object(&limits)
}
