//! The page's analysis (`buttonup::page::analysis`): a position's analysis, a match's
//! hint, a battle's review and the chart's points, the server's JSON, on the module's
//! searchers. Conversions only.

use std::time::Duration;

use buttonup::page::analysis::{self, Chart, Searchers};
use wasm_bindgen::prelude::*;

use crate::convert::{as_array, millis, move_index, optional_player};
use crate::draw::view_to_js;
use crate::errors::{wrong_type, OrThrow};
use crate::matches::JsMatch;
use crate::position::JsPosition;
use crate::search::duration;
use crate::types::NumberArg;
use buttonup::odds::with_match_searcher;
use buttonup::search::On;

/// A time limit in milliseconds, required.
fn limit(value: &JsValue, name: &str) -> Result<Duration, JsValue> {
    let ms = millis(value, name)?.ok_or_else(|| wrong_type(name, "a number", value))?;
    Ok(duration(ms))
}

/// Runs `work` on the thread's margin and match-odds searchers.
pub(crate) fn with_searchers<T>(work: impl FnOnce(&mut Searchers<'_>) -> T) -> T {
    with_match_searcher(|odds| {
        work(&mut Searchers {
            margin: On::thread(1),
            odds,
        })
    })
}

/// The chart's points of a match: where it stood after each change, by battle.
#[wasm_bindgen(js_name = Chart)]
pub struct JsChart {
    inner: Chart,
}

#[wasm_bindgen(js_class = Chart)]
impl JsChart {
    /// An empty chart.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsChart {
        JsChart {
            inner: Chart::new(),
        }
    }

    /// Records the point for the state `match` is in (after every change), each margin
    /// solved within `limitMs`.
    pub fn note(
        &mut self,
        game: &JsMatch,
        #[wasm_bindgen(js_name = limitMs)] limit_ms: NumberArg,
    ) -> Result<(), JsValue> {
        self.change(game, &limit_ms, Chart::note)
    }

    /// Records the points `note` would have for a match read from a record.
    pub fn backfill(
        &mut self,
        game: &JsMatch,
        #[wasm_bindgen(js_name = limitMs)] limit_ms: NumberArg,
    ) -> Result<(), JsValue> {
        self.change(game, &limit_ms, Chart::backfill)
    }

    /// The points of battle `number` (`null`: no such battle): one before its first
    /// move and one after each, `{margin: {r, b}, chance: {r, b}}` or `null`.
    #[wasm_bindgen(unchecked_return_type = "Array<Record<string, unknown> | null> | null")]
    pub fn points(&self, game: &JsMatch, number: u32) -> JsValue {
        self.inner
            .points(&game.inner, number as usize)
            .map_or(JsValue::NULL, |points| view_to_js(&points))
    }
}

impl JsChart {
    /// `change` (a note, a backfill) on the chart, within `limit_ms` for each margin.
    fn change(
        &mut self,
        game: &JsMatch,
        limit_ms: &JsValue,
        change: Change,
    ) -> Result<(), JsValue> {
        let limit = limit(limit_ms, "limitMs")?;
        with_searchers(|s| change(&mut self.inner, &game.inner, limit, s)).or_throw()
    }
}

/// What changes a chart: `Chart::note` or `Chart::backfill`.
type Change = fn(
    &mut Chart,
    &buttonup::Match,
    Duration,
    &mut Searchers<'_>,
) -> Result<(), buttonup::MatchError>;

impl Default for JsChart {
    fn default() -> JsChart {
        JsChart::new()
    }
}

/// A position's analysis within `limitMs` (the server's JSON): every move's exact value,
/// the best line, which moves give an extra move.
#[wasm_bindgen(js_name = analysisView, unchecked_return_type = "Record<string, unknown>")]
pub fn analysis_view(
    position: &JsPosition,
    #[wasm_bindgen(js_name = limitMs)] limit_ms: NumberArg,
) -> Result<JsValue, JsValue> {
    let limit = limit(&limit_ms, "limitMs")?;
    let found = analysis::analysis(&position.inner, limit, On::thread(1));
    Ok(view_to_js(&found))
}

/// The hint of `match` for `side` within `limitMs` (the server's JSON): the analysis, the
/// side's chance of winning the match and, when he is to move, after each move.
#[wasm_bindgen(js_name = hintView, unchecked_return_type = "Record<string, unknown>")]
pub fn hint_view(
    game: &JsMatch,
    #[wasm_bindgen(unchecked_param_type = "\"r\" | \"b\"")] side: JsValue,
    #[wasm_bindgen(js_name = limitMs)] limit_ms: NumberArg,
) -> Result<JsValue, JsValue> {
    let side = optional_player(&side, "side")?
        .ok_or_else(|| wrong_type("side", "\"r\" or \"b\"", &side))?;
    let limit = limit(&limit_ms, "limitMs")?;
    let found = with_searchers(|s| analysis::hint(&game.inner, side, limit, s)).or_throw()?;
    Ok(view_to_js(&found))
}

/// Each of `moves` from `start` judged against perfect play (the server's JSON of a
/// review): each position within `perPositionMs`, the whole within `budgetMs`.
#[wasm_bindgen(js_name = reviewView, unchecked_return_type = "Array<Record<string, unknown>>")]
pub fn review_view(
    start: &JsPosition,
    #[wasm_bindgen(unchecked_param_type = "number[]")] moves: JsValue,
    #[wasm_bindgen(js_name = perPositionMs)] per_position_ms: NumberArg,
    #[wasm_bindgen(js_name = budgetMs)] budget_ms: NumberArg,
) -> Result<JsValue, JsValue> {
    let per_position = limit(&per_position_ms, "perPositionMs")?;
    let budget = limit(&budget_ms, "budgetMs")?;
    let given =
        as_array(&moves)?.ok_or_else(|| wrong_type("moves", "an array of moves", &moves))?;
    let mut position = start.inner;
    let mut checked = Vec::with_capacity(given.len());
    for mv in &given {
        let mv = move_index(&position, mv)?;
        position = position.play(mv).or_throw()?.position;
        checked.push(mv);
    }
    let found =
        analysis::review(&start.inner, &checked, per_position, budget, On::thread(1)).or_throw()?;
    Ok(view_to_js(&found))
}
