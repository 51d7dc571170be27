//! The drawing of the core (`buttonup::draw`): the SVG of a position, of a battle walked
//! with its piles in stable slots, and of a final pile as rule 6 scores it.

use buttonup::draw::{svg, Board, DrawError, DrawOptions, LastMove};
use buttonup::page::view::{self, Json};
use wasm_bindgen::prelude::*;

use crate::convert::{absent, as_array, field, move_index, numbers, object};
use crate::errors::{wrong_type, OrThrow, ToJs};
use crate::matches::JsMatch;
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

/// A view of the core (`buttonup::page::view`) as a JavaScript value: objects are plain
/// objects, lists arrays (the page's JSON, the same as `buttonup serve`'s).
pub(crate) fn view_to_js(value: &Json) -> JsValue {
    match value {
        Json::Null => JsValue::NULL,
        Json::Bool(b) => JsValue::from_bool(*b),
        Json::Int(n) => JsValue::from_f64(*n as f64),
        Json::Float(x) => JsValue::from_f64(*x + 0.0),
        Json::Str(text) => JsValue::from_str(text),
        Json::List(items) => items
            .iter()
            .map(view_to_js)
            .collect::<js_sys::Array>()
            .into(),
        Json::Object(fields) => {
            let fields: Vec<(&str, JsValue)> = fields
                .iter()
                .map(|(name, field)| (*name, view_to_js(field)))
                .collect();
            object(&fields)
        }
        Json::Map(fields) => {
            let fields: Vec<(&str, JsValue)> = fields
                .iter()
                .map(|(name, field)| (name.as_str(), view_to_js(field)))
                .collect();
            object(&fields)
        }
    }
}

/// A match's whole state as the page shows it, the server's JSON: with `battles`
/// every scored battle, with `played` the move just made (`buttonup::page::view`).
#[wasm_bindgen(js_name = matchView, unchecked_return_type = "Record<string, unknown>")]
pub fn match_view(game: &JsMatch, battles: bool, played: bool) -> Result<JsValue, JsValue> {
    Ok(view_to_js(
        &view::match_state(&game.inner, battles, played).or_throw()?,
    ))
}

/// Battle `number` of a match as the page shows it (`null`: no such battle).
#[wasm_bindgen(js_name = battleView, unchecked_return_type = "Record<string, unknown> | null")]
pub fn battle_view(game: &JsMatch, number: u32) -> Result<JsValue, JsValue> {
    Ok(
        match view::battle_view(&game.inner, number as usize).or_throw()? {
            Some(found) => view_to_js(&found),
            None => JsValue::NULL,
        },
    )
}

/// The battle a page shows of a match: the one being played, or the last one once the
/// match is over or while the tie rule's choice is due.
#[wasm_bindgen(js_name = shownBattle)]
pub fn shown_battle(game: &JsMatch) -> u32 {
    view::battle_number(&game.inner) as u32
}

/// Battle `number`'s start and its moves so far (or its first `ply`), `[start, moves]`;
/// a battle the match does not have, or more moves than it has, throws a `RangeError`
/// in the page's words.
#[wasm_bindgen(js_name = battleOf, unchecked_return_type = "[Position, number[]]")]
pub fn battle_of(game: &JsMatch, number: u32, ply: Option<u32>) -> Result<JsValue, JsValue> {
    let ply = ply.map(|ply| ply as usize);
    let (start, moves) = view::battle_moves(&game.inner, number as usize, ply).or_throw()?;
    let found = js_sys::Array::new();
    found.push(&JsPosition::from(start).into());
    found.push(&numbers(moves.iter().map(|&mv| mv as f64)));
    Ok(found.into())
}

/// What a front end needs to draw a position: its notation, piles, side to move, legal
/// moves and, once over, its scoring (the server's JSON).
#[wasm_bindgen(js_name = positionView, unchecked_return_type = "Record<string, unknown>")]
pub fn position_view(position: &JsPosition) -> JsValue {
    view_to_js(&view::position(&position.inner))
}

/// Where `moves` played from `start` lead, drawn, with `line`, each ply (the server's
/// JSON of the analysis board); an illegal move throws its `IllegalMoveError`.
#[wasm_bindgen(js_name = lineView, unchecked_return_type = "Record<string, unknown>")]
pub fn line_view(
    start: &JsPosition,
    #[wasm_bindgen(unchecked_param_type = "number[]")] moves: JsValue,
) -> Result<JsValue, JsValue> {
    let given =
        as_array(&moves)?.ok_or_else(|| wrong_type("moves", "an array of moves", &moves))?;
    let mut board = Board::new(&start.inner);
    let mut checked = Vec::with_capacity(given.len());
    for mv in &given {
        let mv = move_index(&board.position, mv)?;
        board.play(mv).or_throw()?;
        checked.push(mv);
    }
    Ok(view_to_js(&view::line(&start.inner, &checked).or_throw()?))
}
