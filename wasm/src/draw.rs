//! The drawing of the core (`buttonup::draw`): the SVG of a position, of a battle walked
//! with its piles in stable slots, and of a final pile as rule 6 scores it.

use buttonup::draw::{svg, Board, DrawError, DrawOptions, LastMove};
use wasm_bindgen::prelude::*;

use crate::convert::{absent, as_array, field, move_index, numbers, object};
use crate::errors::{wrong_type, OrThrow, ToJs};
use crate::position::JsPosition;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** The move that led to a position, as a picture marks it. */
export interface LastMove {
  /** The slot where the lifted pile stood. */
  slot: number;
  /** The pile, numbered as in the position drawn, that received each lifted button. */
  drops: number[];
}

/** A position reached by moves from a battle's start, its piles in stable slots. */
export interface Board {
  position: Position;
  /** The slot of each pile (strictly increasing). */
  slots: number[];
  /** The slots of the circle: the start's pile count. */
  slotCount: number;
  lastMove: LastMove | null;
  /** The SVG text of the board (the default size, the last move marked). */
  svg: string;
}

/** How a position is drawn; every field may be left out. */
export interface DrawOptions {
  /** Width and height in CSS pixels (360). */
  size?: number;
  /** Piles to outline, by their number in the notation. */
  highlight?: number[];
  lastMove?: LastMove | null;
  /** The slot of each pile. */
  slots?: number[] | null;
  slotCount?: number | null;
  /** Whether to write the pile numbers (true). */
  labels?: boolean;
}
"#;

fn draw_error(error: DrawError) -> JsValue {
    error.to_js()
}

/// The piles of an array argument.
fn piles(value: &JsValue, what: &str) -> Result<Vec<usize>, JsValue> {
    let array = as_array(value)?.ok_or_else(|| wrong_type(what, "an array of integers", value))?;
    array
        .iter()
        .map(|item| {
            let v = crate::convert::within(item, what, 0, i64::from(u32::MAX))?;
            Ok(v as usize)
        })
        .collect()
}

/// Where `moves` (an array of piles) played from a battle's `start` lead, with each
/// pile's slot and the last move, drawn; an illegal move throws its `IllegalMoveError`.
#[wasm_bindgen(unchecked_return_type = "Board")]
pub fn walk(
    start: &JsPosition,
    #[wasm_bindgen(unchecked_param_type = "number[]")] moves: JsValue,
) -> Result<JsValue, JsValue> {
    let list = as_array(&moves)?.ok_or_else(|| wrong_type("moves", "an array of moves", &moves))?;
    let mut board = Board::new(&start.inner);
    for item in &list {
        let mv = move_index(&board.position, item)?;
        board.play(mv).or_throw()?;
    }
    let picture = svg::position(&board.position, &board.options()).map_err(draw_error)?;
    Ok(object(&[
        ("position", JsPosition::from(board.position).into()),
        ("slots", numbers(board.slots.iter().map(|&s| s as u32))),
        ("slotCount", JsValue::from(board.slot_count as u32)),
        ("lastMove", last_move_object(board.last_move.as_ref())),
        ("svg", JsValue::from_str(&picture)),
    ]))
}

fn last_move_object(last: Option<&LastMove>) -> JsValue {
    last.map_or(JsValue::NULL, |last| {
        object(&[
            ("slot", JsValue::from(last.slot as u32)),
            ("drops", numbers(last.drops.iter().map(|&p| p as u32))),
        ])
    })
}

/// The SVG text of `position` drawn with `options`; options that do not fit the
/// position throw a `RangeError` naming what is wrong.
#[wasm_bindgen(js_name = drawPosition)]
pub fn draw_position(
    position: &JsPosition,
    options: Option<crate::types::DrawOptionsArg>,
) -> Result<String, JsValue> {
    let options = crate::types::given(options);
    let mut drawn = DrawOptions::default();
    let size = field(&options, "size")?;
    if !absent(&size) {
        let pixels = size
            .as_f64()
            .ok_or_else(|| wrong_type("size", "a number", &size))?;
        // `into`: the core's field is a number, or an optional one.
        drawn.size = pixels.into();
    }
    let highlight = field(&options, "highlight")?;
    if !absent(&highlight) {
        drawn.highlight = piles(&highlight, "highlight")?;
    }
    let last = field(&options, "lastMove")?;
    if !absent(&last) {
        let slot = crate::convert::within(&field(&last, "slot")?, "slot", 0, 1 << 20)? as usize;
        let drops = piles(&field(&last, "drops")?, "drops")?;
        drawn.last_move = Some(LastMove { slot, drops });
    }
    let slots = field(&options, "slots")?;
    if !absent(&slots) {
        drawn.slots = Some(piles(&slots, "slots")?);
    }
    let slot_count = field(&options, "slotCount")?;
    if !absent(&slot_count) {
        let count = crate::convert::within(&slot_count, "slotCount", 1, 1 << 20)?;
        drawn.slot_count = Some(count as usize);
    }
    let labels = field(&options, "labels")?;
    if !absent(&labels) {
        drawn.labels = labels
            .as_bool()
            .ok_or_else(|| wrong_type("labels", "a boolean", &labels))?;
    }
    svg::position(&position.inner, &drawn).map_err(draw_error)
}

/// The SVG text of a finished battle's final pile as rule 6 scores it; `size` is its
/// height (400 when left out). A `BattleNotOverError` before the end.
#[wasm_bindgen]
pub fn tower(position: &JsPosition, size: Option<f64>) -> Result<String, JsValue> {
    svg::tower(&position.inner, size.unwrap_or(400.0)).map_err(draw_error)
}
