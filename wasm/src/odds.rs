//! Match odds: `winProbability` and `matchAnalyze`, on the core's tables (built once per
//! target and buttons of each colour, kept for the page's life).

use buttonup::game::rules::Position;
use buttonup::odds::{lock_odds, move_chances, red_chance_at, shared_odds, with_match_searcher};
use buttonup::{Standing, STANDARD_PER_COLOUR};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::convert::{self, field, object, optional_player, within};
use crate::errors::{wrong_type, OrThrow};
use crate::matches::JsMatch;
use buttonup::game::notation;
use buttonup::Next;
use js_sys::Reflect;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A match between two battles (as the Python engine's `Standing`). */
export interface Standing {
  red: number;
  black: number;
  target?: number;
  /** The loser of the latest battle that had a winner. */
  lastLoser?: "r" | "b" | null;
  /** Who starts the next battle, where the rules leave it open. */
  starter?: "r" | "b" | null;
  perColour?: number;
}

/** Each player's probability of winning the match. */
export interface Chances {
  red: number;
  black: number;
}
"#;

/// A standing object: `red`, `black`, `target`, `lastLoser`, `starter`, `perColour`.
pub(crate) fn standing(value: &JsValue) -> Result<Standing, JsValue> {
    let count = |name: &str| -> Result<u32, JsValue> {
        Ok(within(&field(value, name)?, name, 0, i64::from(u32::MAX))? as u32)
    };
    Ok(Standing {
        red: count("red")?,
        black: count("black")?,
        target: convert::target(&field(value, "target")?, buttonup::STANDARD_TARGET)?,
        last_loser: optional_player(&field(value, "lastLoser")?, "lastLoser")?,
        starter: optional_player(&field(value, "starter")?, "starter")?,
        per_colour: convert::per_colour(&field(value, "perColour")?, STANDARD_PER_COLOUR)?,
    })
}

/// What a match is at: its standing, and its position while a battle is played. A
/// `Match` is known by its `standing` and `position` (the position is read only when a
/// battle is due, and must then be the notation of a position).
fn state(of: &JsValue) -> Result<(Standing, Option<Position>), JsValue> {
    if !of.is_object() || js_sys::Array::is_array(of) {
        return Err(wrong_type("of", "a Standing or a Match", of));
    }
    let inner = Reflect::get(of, &JsValue::from_str("standing"))?;
    if !inner.is_object() {
        return Ok((standing(of)?, None));
    }
    let standing = standing(&inner)?;
    if !matches!(standing.next(), Next::Starts(_)) {
        return Ok((standing, None));
    }
    let position = Reflect::get(of, &JsValue::from_str("position"))?;
    // `Position.toString()`: its notation.
    let notation = String::from(position.unchecked_into::<js_sys::Object>().to_string());
    Ok((standing, Some(notation::parse(&notation).or_throw()?)))
}

/// Each player's exact probability of winning a match under perfect match play, the
/// shuffles as chance: of a standing between two battles, or of a `Match` as it stands
/// (in a battle: from its current position, the mover choosing his best move). An
/// impossible standing throws a `MatchStateError`.
#[wasm_bindgen(js_name = winProbability, unchecked_return_type = "Chances")]
pub fn win_probability(
    #[wasm_bindgen(unchecked_param_type = "Standing | Match")] of: JsValue,
) -> Result<JsValue, JsValue> {
    let (standing, battle) = state(&of)?;
    let red = with_match_searcher(|s| red_chance_at(&standing, battle.as_ref(), 1, s, None))
        .or_throw()?;
    Ok(object(&[
        ("red", JsValue::from_f64(red)),
        ("black", JsValue::from_f64(1.0 - red)),
    ]))
}

/// For each legal move of the current battle of `match`, the mover's exact probability
/// of winning the match after it: a `Map` from move to probability (empty while the
/// tie rule's choice is due, or after the match).
#[wasm_bindgen(js_name = matchAnalyze, unchecked_return_type = "Map<number, number>")]
pub fn match_analyze(game: &JsMatch) -> Result<JsValue, JsValue> {
    let map = js_sys::Map::new();
    let standing = *game.inner.standing();
    let Some(position) = game.inner.battle_position() else {
        return Ok(map.into());
    };
    standing.check().or_throw()?;
    let table = shared_odds(standing.target, standing.per_colour).or_throw()?;
    let payoff = lock_odds(&table).payoff(&standing).or_throw()?;
    let chances = with_match_searcher(|s| move_chances(&payoff, &position, 1, s)).or_throw()?;
    for (mv, chance) in chances {
        map.set(&JsValue::from(mv as u32), &JsValue::from_f64(chance));
    }
    Ok(map.into())
}
