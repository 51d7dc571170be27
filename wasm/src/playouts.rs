//! Random playouts: `randomPlayouts`, the core's batch of random battles on one thread.

use buttonup::sim::playout::{random_playouts, PlayoutError};
use buttonup::STANDARD_PER_COLOUR;
use wasm_bindgen::prelude::*;

use crate::convert::{self, object, within};
use crate::errors::ToJs;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** What a batch of random battles came to (`randomPlayouts`). */
export interface PlayoutSummary {
  battles: number;
  /** Moves played over all of them. */
  moves: number;
  redWins: number;
  blackWins: number;
  draws: number;
  /** The sum of Red's final margins. */
  redMarginSum: number;
}
"#;

/// Plays `battles` random battles from shuffled starts of `perColour` buttons of each
/// colour (3 when left out; Red first in even-numbered ones), battle `i` from its own
/// generator seeded from `seed` (a fresh one when left out): the same seed gives the
/// Python engine's games.
#[wasm_bindgen(js_name = randomPlayouts, unchecked_return_type = "PlayoutSummary")]
pub fn random_playouts_js(
    battles: crate::types::NumberArg,
    seed: Option<crate::types::SeedArg>,
    #[wasm_bindgen(js_name = perColour)] per_colour: Option<crate::types::NumberArg>,
) -> Result<JsValue, JsValue> {
    let battles = within(&battles, "battles", 0, 9_007_199_254_740_991)? as u64;
    let seed = convert::seed(&crate::types::given(seed))?;
    let per_colour = convert::per_colour(&crate::types::given(per_colour), STANDARD_PER_COLOUR)?;
    let summary = match random_playouts(battles, seed, per_colour, 1) {
        Ok(summary) => summary,
        Err(PlayoutError::Position(error)) => return Err(error.to_js()),
        Err(PlayoutError::Interrupted) => return Err(buttonup::run::interrupt::Interrupted.to_js()),
    };
    Ok(object(&[
        ("battles", JsValue::from_f64(summary.battles as f64)),
        ("moves", JsValue::from_f64(summary.moves as f64)),
        ("redWins", JsValue::from_f64(summary.red_wins as f64)),
        ("blackWins", JsValue::from_f64(summary.black_wins as f64)),
        ("draws", JsValue::from_f64(summary.draws as f64)),
        (
            "redMarginSum",
            JsValue::from_f64(summary.red_margin_sum as f64),
        ),
    ]))
}
