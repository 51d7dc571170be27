//! `solve`, `analyze` and `search`: the core's one search, on the one thread there is
//! and its tables.

use std::time::Duration;

use buttonup::search::{self, Limits, Payoff, SearchResult, Searcher};
use wasm_bindgen::prelude::*;

use crate::convert::{as_array, field, millis, numbers, object, within};
use crate::errors::{wrong_type, OrThrow};
use crate::position::JsPosition;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** What a search found (`search`). `value` is for the side to move: his final margin
 * under perfect play when `exact`, else the estimate at the search's horizon. */
export interface SearchResult {
  /** The best move; `null` only when the battle is over. */
  bestMove: number | null;
  value: number;
  /** Whether the search reached the end of the battle on every line. */
  exact: boolean;
  /** The deepest iteration completed. */
  depth: number;
  /** Positions visited. */
  nodes: number;
  /** The expected line of play, starting with `bestMove`. */
  pv: number[];
  /** Milliseconds the search took. */
  elapsedMs: number;
  /** The threads it ran on (always 1 in WebAssembly). */
  threads: number;
}

/** One move judged by `review`: the mover's best margin and the played move's
 * (exact; `null` where not solved in time), the moves of the best value, the best line
 * from the position before the move (empty when no time was left). */
export interface MoveReview {
  best: number | null;
  played: number | null;
  bestMoves: number[];
  bestLine: number[];
}

/** Limits of a search; none given: exact. */
export interface SearchLimits {
  depth?: number;
  nodes?: number;
  timeLimitMs?: number;
}
"#;

/// A time limit in milliseconds as a duration.
pub(crate) fn duration(ms: f64) -> Duration {
    Duration::from_secs_f64((ms / 1000.0).min(1e9))
}

/// The exact value of `position` for the side to move under perfect play: his final
/// margin (his sum minus the other's).
#[wasm_bindgen]
pub fn solve(position: &JsPosition) -> Result<f64, JsValue> {
    let value = search::solve(&position.inner, 1).or_throw()?;
    Ok(f64::from(value) + 0.0)
}

// `+ 0.0` turns a negated zero into zero: JavaScript tells them apart (`Object.is`),
// and the Python engine's values, integers, have no negative zero.

/// The exact value, for the side to move, of every legal move: a `Map` from move to
/// value. With `timeLimitMs`, throws a `SearchStoppedError` if it is not done in time.
#[wasm_bindgen(unchecked_return_type = "Map<number, number>")]
pub fn analyze(
    position: &JsPosition,
    options: Option<crate::types::AnalyzeOptionsArg>,
) -> Result<JsValue, JsValue> {
    let options = crate::types::given(options);
    let p = position.inner;
    let values = match millis(&field(&options, "timeLimitMs")?, "timeLimitMs")? {
        Some(ms) => search::analyze_within(&p, duration(ms), 1),
        None => search::analyze(&p, 1),
    }
    .or_throw()?;
    let map = js_sys::Map::new();
    for (mv, value) in values {
        map.set(
            &JsValue::from(mv as u32),
            &JsValue::from_f64(f64::from(value) + 0.0),
        );
    }
    Ok(map.into())
}

/// Each of `moves` played from a battle's `start` judged against perfect play, the
/// core's review: each analysis and line within `timeLimitMs`, the whole within
/// `budgetMs` (each absent: no limit), the last moves judged first. An illegal move
/// throws its `IllegalMoveError` before any search.
#[wasm_bindgen(unchecked_return_type = "MoveReview[]")]
pub fn review(
    start: &JsPosition,
    #[wasm_bindgen(unchecked_param_type = "number[]")] moves: JsValue,
    options: Option<crate::types::ReviewOptionsArg>,
) -> Result<JsValue, JsValue> {
    let options = crate::types::given(options);
    let per_position = millis(&field(&options, "timeLimitMs")?, "timeLimitMs")?;
    let budget = millis(&field(&options, "budgetMs")?, "budgetMs")?;
    let list = as_array(&moves)?.ok_or_else(|| wrong_type("moves", "an array of moves", &moves))?;
    let moves = list
        .iter()
        .map(|item| Ok(within(item, "a move", 0, i64::from(u32::MAX))? as usize))
        .collect::<Result<Vec<_>, JsValue>>()?;
    let unlimited = Duration::from_secs(1 << 30);
    let (per_position, budget) = (
        per_position.map_or(unlimited, duration),
        budget.map_or(unlimited, duration),
    );
    let start = start.inner;
    let judged = search::review(1, &start, &moves, per_position, budget).or_throw()?;
    let optional =
        |value: Option<i32>| value.map_or(JsValue::NULL, |v| JsValue::from_f64(f64::from(v) + 0.0));
    Ok(judged
        .iter()
        .map(|m| {
            object(&[
                ("best", optional(m.best)),
                ("played", optional(m.played)),
                ("bestMoves", numbers(m.best_moves.iter().map(|&v| v as u32))),
                ("bestLine", numbers(m.best_line.iter().map(|&v| v as u32))),
            ])
        })
        .collect::<js_sys::Array>()
        .into())
}

/// Iterative-deepening alpha-beta within the limits (`depth` plies, `nodes` visited,
/// `timeLimitMs`); exact when none is given.
#[wasm_bindgen(unchecked_return_type = "SearchResult")]
pub fn search(
    position: &JsPosition,
    limits: Option<crate::types::SearchLimitsArg>,
) -> Result<JsValue, JsValue> {
    let limits = search_limits(&crate::types::given(limits))?;
    let p = position.inner;
    Ok(result_object(&search::go(&p, &limits, 1, &mut |_| true)))
}

/// The limits of an options object: `depth`, `nodes`, `timeLimitMs`.
pub(crate) fn search_limits(options: &JsValue) -> Result<Limits, JsValue> {
    let depth = field(options, "depth")?;
    let nodes = field(options, "nodes")?;
    let depth = if depth.is_undefined() || depth.is_null() {
        None
    } else {
        Some(within(&depth, "depth", 1, i64::from(u32::MAX))? as u32)
    };
    let nodes = if nodes.is_undefined() || nodes.is_null() {
        None
    } else {
        Some(within(&nodes, "nodes", 1, 9_007_199_254_740_991)? as u64)
    };
    let time = millis(&field(options, "timeLimitMs")?, "timeLimitMs")?.map(duration);
    Ok(Limits { depth, nodes, time })
}

/// A `SearchResult` object.
pub(crate) fn result_object(result: &SearchResult) -> JsValue {
    object(&[
        (
            "bestMove",
            result
                .best_move
                .map_or(JsValue::NULL, |m| JsValue::from(m as u32)),
        ),
        ("value", JsValue::from_f64(result.value + 0.0)),
        ("exact", JsValue::from_bool(result.exact)),
        ("depth", JsValue::from(result.depth)),
        ("nodes", JsValue::from_f64(result.nodes as f64)),
        ("pv", numbers(result.pv.iter().map(|&m| m as u32))),
        (
            "elapsedMs",
            JsValue::from_f64(result.elapsed.as_secs_f64() * 1000.0),
        ),
        ("threads", JsValue::from(result.threads as u32)),
    ])
}

/// A searcher of its own: its transposition table (`ttMb` megabytes, 8 when left out)
/// persists across its searches until `clear()`.
#[wasm_bindgen(js_name = Searcher)]
pub struct JsSearcher {
    inner: Searcher,
}

#[wasm_bindgen(js_class = Searcher)]
impl JsSearcher {
    /// A searcher with a table of `ttMb` megabytes (from 0.001 to 1024).
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<crate::types::SearcherOptionsArg>) -> Result<JsSearcher, JsValue> {
        let options = crate::types::given(options);
        let mb = field(&options, "ttMb")?;
        let mb = if mb.is_undefined() || mb.is_null() {
            8.0
        } else {
            match mb.as_f64() {
                Some(mb) if (0.001..=1024.0).contains(&mb) => mb,
                _ => {
                    return Err(crate::errors::range(&format!(
                        "ttMb must be a number from 0.001 to 1024, not {}",
                        crate::convert::shown(&mb)
                    )))
                }
            }
        };
        let bytes = (mb * 1_048_576.0) as usize;
        let inner =
            Searcher::try_new(Payoff::Margin, bytes).map_err(|e| crate::errors::ToJs::to_js(&e))?;
        Ok(JsSearcher { inner })
    }

    /// The exact value of `position` for the side to move (as `solve`).
    pub fn solve(&mut self, position: &JsPosition) -> f64 {
        self.inner.solve(&position.inner) + 0.0
    }

    /// A search within `limits` (as `search`).
    #[wasm_bindgen(unchecked_return_type = "SearchResult")]
    pub fn search(
        &mut self,
        position: &JsPosition,
        limits: Option<crate::types::SearchLimitsArg>,
    ) -> Result<JsValue, JsValue> {
        let limits = search_limits(&crate::types::given(limits))?;
        Ok(result_object(&self.inner.search(&position.inner, &limits)))
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        self.inner.clear();
    }

    /// The size of its table in bytes.
    #[wasm_bindgen(getter, js_name = ttBytes)]
    pub fn tt_bytes(&self) -> usize {
        self.inner.table_bytes()
    }
}
