//! `Position`: an immutable position backed by the core's, and what a move does.

use buttonup::game::notation;
use buttonup::game::rng::{random_start, SplitMix64};
use buttonup::game::rules::Sowing;
use buttonup::{Colour, Player, Position, Scoring, STANDARD_PER_COLOUR};
use wasm_bindgen::prelude::*;

use crate::convert::{self, letter, move_index, numbers, object, optional_letter, strings, text};
use crate::errors::{battle_not_over, OrThrow};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** What one move did (`Position.play`, `Match.play`). */
export interface MoveOutcome {
  /** The position after the move (the same player to move after an extra move). */
  position: Position;
  /** Whether the mover moves again (rule 4). */
  extraMove: boolean;
  /** The pile, numbered before the move, that receives each lifted button, bottom
   * button first (rule 3; with an overflow the last pile repeats). */
  drops: number[];
}

/** Rule 6 on a final pile. */
export interface Scoring {
  /** The final pile, bottom first. */
  tower: string;
  /** The strengths of Red's buttons, lowest first. */
  redStrengths: number[];
  /** The strengths of Black's buttons, lowest first. */
  blackStrengths: number[];
  /** Red's sum. */
  red: number;
  /** Black's sum. */
  black: number;
  /** The player with the larger sum; `null` when the sums are equal. */
  winner: "r" | "b" | null;
  /** The victory points the winner gains (0 for equal sums). */
  points: number;
}
"#;

/// A Button Up! position: the circle of piles and the player to move. Immutable.
#[wasm_bindgen(js_name = Position)]
#[derive(Clone, Copy)]
pub struct JsPosition {
    pub(crate) inner: Position,
}

impl From<Position> for JsPosition {
    fn from(inner: Position) -> Self {
        JsPosition { inner }
    }
}

#[wasm_bindgen(js_class = Position)]
impl JsPosition {
    /// Reads a position in the notation `PILES SIDE`, e.g. `"W/R/B/W/B/R/R/W/B r"`.
    /// Throws a `NotationError` naming what is wrong.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] notation: JsValue,
    ) -> Result<JsPosition, JsValue> {
        let notation = text(&notation, "a position")?;
        Ok(notation::parse(&notation).or_throw()?.into())
    }

    /// A start from one letter per one-button pile, e.g. `"WRBWBRRWB"`; `toMove`
    /// (`'r'` or `'b'`, Red when left out) moves first.
    pub fn start(
        #[wasm_bindgen(unchecked_param_type = "string")] order: JsValue,
        #[wasm_bindgen(js_name = toMove)] to_move: Option<crate::types::SideArg>,
    ) -> Result<JsPosition, JsValue> {
        let order = text(&order, "a start order")?;
        let to_move = convert::player(&crate::types::given(to_move), "toMove", Player::Red)?;
        Ok(notation::parse_start(&order, to_move).or_throw()?.into())
    }

    /// A uniformly shuffled start with `perColour` buttons of each colour (3 when left
    /// out), from `seed` (a fresh one when left out: the same seed gives the same start
    /// as the Python engine's `Position.random(seed, ...)`); `toMove` moves first.
    pub fn random(
        seed: Option<crate::types::SeedArg>,
        #[wasm_bindgen(js_name = perColour)] per_colour: Option<crate::types::NumberArg>,
        #[wasm_bindgen(js_name = toMove)] to_move: Option<crate::types::SideArg>,
    ) -> Result<JsPosition, JsValue> {
        let to_move = convert::player(&crate::types::given(to_move), "toMove", Player::Red)?;
        let per_colour =
            convert::per_colour(&crate::types::given(per_colour), STANDARD_PER_COLOUR)?;
        let seed = convert::seed(&crate::types::given(seed))?;
        let start = random_start(per_colour, to_move, &mut SplitMix64::new(seed)).or_throw()?;
        Ok(start.into())
    }

    /// The notation, e.g. `"W/R/B/W/B/R/R/W/B r"`.
    #[wasm_bindgen(js_name = toString)]
    pub fn to_string_js(&self) -> String {
        self.inner.to_string()
    }

    /// The notation (as `toString()`).
    #[wasm_bindgen(getter)]
    pub fn notation(&self) -> String {
        self.inner.to_string()
    }

    /// `JSON.stringify`'s form of a position: its notation.
    #[wasm_bindgen(js_name = toJSON)]
    pub fn to_json(&self) -> String {
        self.inner.to_string()
    }

    /// The piles in clockwise order, each written bottom first.
    #[wasm_bindgen(getter, unchecked_return_type = "string[]")]
    pub fn piles(&self) -> JsValue {
        strings(
            self.inner
                .piles()
                .map(|pile| pile.map(Colour::letter).collect::<String>()),
        )
    }

    /// The player to move, `'r'` or `'b'`.
    #[wasm_bindgen(getter, js_name = toMove, unchecked_return_type = "\"r\" | \"b\"")]
    pub fn to_move(&self) -> JsValue {
        letter(self.inner.to_move())
    }

    /// Whether the battle is over (one pile left).
    #[wasm_bindgen(getter, js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The number of piles.
    #[wasm_bindgen(getter, js_name = pileCount)]
    pub fn pile_count(&self) -> usize {
        self.inner.pile_count()
    }

    /// The number of buttons.
    #[wasm_bindgen(getter, js_name = buttonCount)]
    pub fn button_count(&self) -> usize {
        self.inner.button_count()
    }

    /// The legal moves: the indices of the piles holding a white button.
    #[wasm_bindgen(js_name = legalMoves, unchecked_return_type = "number[]")]
    pub fn legal_moves(&self) -> JsValue {
        numbers(self.inner.legal_moves().map(|p| p as u32))
    }

    /// Whether `pile` is a legal move.
    #[wasm_bindgen(js_name = isLegal)]
    pub fn is_legal(&self, pile: JsValue) -> bool {
        move_index(&self.inner, &pile).is_ok_and(|p| self.inner.is_legal(p))
    }

    /// What lifting `pile` does: the new position, whether the mover moves again, and
    /// where each lifted button went. Throws an `IllegalMoveError` for an illegal move.
    #[wasm_bindgen(unchecked_return_type = "MoveOutcome")]
    pub fn play(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] pile: JsValue,
    ) -> Result<JsValue, JsValue> {
        let p = move_index(&self.inner, &pile)?;
        Ok(outcome(&self.inner.sowing(p).or_throw()?))
    }

    /// The scoring of the final pile (rule 6); throws a `BattleNotOverError` before the
    /// end.
    #[wasm_bindgen(unchecked_return_type = "Scoring")]
    pub fn scoring(&self) -> Result<JsValue, JsValue> {
        let scoring = self.inner.scoring().ok_or_else(battle_not_over)?;
        Ok(scoring_object(&self.inner, &scoring))
    }

    /// Red's and Black's sums in the final pile; throws a `BattleNotOverError` before
    /// the end.
    #[wasm_bindgen(unchecked_return_type = "[number, number]")]
    pub fn sums(&self) -> Result<JsValue, JsValue> {
        let (red, black) = self.inner.sums().ok_or_else(battle_not_over)?;
        Ok(numbers([red, black]))
    }

    /// Whether `other` is the same position.
    pub fn equals(&self, other: &JsPosition) -> bool {
        self.inner == other.inner
    }
}

/// A `MoveOutcome` object.
pub(crate) fn outcome(sowing: &Sowing) -> JsValue {
    object(&[
        ("position", JsPosition::from(sowing.outcome.position).into()),
        ("extraMove", JsValue::from_bool(sowing.outcome.extra_move)),
        ("drops", numbers(sowing.drops.iter().map(|&p| p as u32))),
    ])
}

/// A `Scoring` object of the final pile `last`.
pub(crate) fn scoring_object(last: &Position, scoring: &Scoring) -> JsValue {
    let tower: String = last.piles().flatten().map(Colour::letter).collect();
    object(&[
        ("tower", JsValue::from_str(&tower)),
        ("redStrengths", numbers(scoring.strengths(Player::Red))),
        ("blackStrengths", numbers(scoring.strengths(Player::Black))),
        ("red", JsValue::from(scoring.red)),
        ("black", JsValue::from(scoring.black)),
        ("winner", optional_letter(scoring.winner())),
        ("points", JsValue::from(scoring.points())),
    ])
}
