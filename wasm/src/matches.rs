//! `Match`: the core's match state machine (rules 7 to 9).

use buttonup::game::record::{self, Notes};
use buttonup::page::seats::{AiTurn, Seats};
use buttonup::{Match, Player, Standing, STANDARD_PER_COLOUR, STANDARD_TARGET};
use js_sys::Array;
use wasm_bindgen::prelude::*;

use crate::convert::{
    self, as_array, field, letter, move_index, numbers, object, optional_letter, text,
};
use crate::errors::OrThrow;
use crate::position::{outcome, scoring_object, JsPosition};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** How a match is set up; every field may be left out. */
export interface MatchOptions {
  /** Who starts the first battle (Red when left out). */
  starter?: "r" | "b";
  /** The victory points that win (15 when left out). */
  target?: number;
  /** Buttons of each colour in each battle (3 when left out). */
  perColour?: number;
  /** The seed of the shuffles: the same seed gives the same match as the Python engine's. */
  seed?: number | bigint;
  /** Start orders such as "WRBWBRRWB", used in turn before any shuffle. */
  deals?: string[];
}

/** One finished battle of a match. */
export interface Battle {
  /** 1 for the first battle. */
  number: number;
  starter: "r" | "b";
  start: Position;
  moves: number[];
  /** The final pile. */
  finalPosition: Position;
  scoring: Scoring;
}
"#;

/// A match of battles to `target` victory points (rules 7 to 9).
#[wasm_bindgen(js_name = Match)]
#[derive(Clone)]
pub struct JsMatch {
    pub(crate) inner: Match,
}

#[wasm_bindgen(js_class = Match)]
impl JsMatch {
    /// A match set up by `options` (`starter`, `target`, `perColour`, `seed`, `deals`).
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<crate::types::MatchOptionsArg>) -> Result<JsMatch, JsValue> {
        let options = crate::types::given(options);
        let starter = convert::player(&field(&options, "starter")?, "starter", Player::Red)?;
        let target = convert::target(&field(&options, "target")?, STANDARD_TARGET)?;
        let per_colour = convert::per_colour(&field(&options, "perColour")?, STANDARD_PER_COLOUR)?;
        let seed = convert::seed(&field(&options, "seed")?)?;
        let deals = deal_list(&field(&options, "deals")?)?;
        let deals: Vec<&str> = deals.iter().map(String::as_str).collect();
        let inner = Match::new(starter, target, per_colour, seed, &deals).or_throw()?;
        Ok(JsMatch { inner })
    }

    /// The victory points that win the match.
    #[wasm_bindgen(getter)]
    pub fn target(&self) -> u32 {
        self.inner.target()
    }

    /// The buttons of each colour of every battle.
    #[wasm_bindgen(getter, js_name = perColour)]
    pub fn per_colour(&self) -> usize {
        self.inner.per_colour()
    }

    /// The current battle's position (the final pile of the latest battle while a
    /// starter is chosen, or after the match).
    #[wasm_bindgen(getter)]
    pub fn position(&self) -> JsPosition {
        self.inner.position().into()
    }

    /// The start of the current battle: with `moves`, the whole battle so far (the final
    /// pile of the latest battle while a starter is chosen, or after the match).
    #[wasm_bindgen(getter, js_name = battleStart)]
    pub fn battle_start(&self) -> JsPosition {
        self.inner.start().into()
    }

    /// The player to move in the current battle.
    #[wasm_bindgen(getter, js_name = toMove, unchecked_return_type = "\"r\" | \"b\"")]
    pub fn to_move(&self) -> JsValue {
        letter(self.inner.position().to_move())
    }

    /// Who started the current battle.
    #[wasm_bindgen(getter, unchecked_return_type = "\"r\" | \"b\"")]
    pub fn starter(&self) -> JsValue {
        letter(self.inner.starter())
    }

    /// The moves of the current battle.
    #[wasm_bindgen(getter, unchecked_return_type = "number[]")]
    pub fn moves(&self) -> JsValue {
        numbers(self.inner.moves().iter().map(|&m| m as u32))
    }

    /// Red's and Black's victory points.
    #[wasm_bindgen(getter, unchecked_return_type = "[number, number]")]
    pub fn scores(&self) -> JsValue {
        let standing = self.inner.standing();
        numbers([standing.red, standing.black])
    }

    /// The finished battles, first first.
    #[wasm_bindgen(getter, unchecked_return_type = "Battle[]")]
    pub fn battles(&self) -> JsValue {
        self.inner
            .battles()
            .iter()
            .map(|b| {
                object(&[
                    ("number", JsValue::from(b.number as u32)),
                    ("starter", letter(b.starter)),
                    ("start", JsPosition::from(b.start).into()),
                    ("moves", numbers(b.moves.iter().map(|&m| m as u32))),
                    ("finalPosition", JsPosition::from(b.last).into()),
                    ("scoring", scoring_object(&b.last, &b.scoring)),
                ])
            })
            .collect::<Array>()
            .into()
    }

    /// The standing before the current battle: `red`, `black`, `target`, `lastLoser`,
    /// `starter` (`null` while the tie rule's choice is due, or after the match) and
    /// `perColour`.
    #[wasm_bindgen(getter, unchecked_return_type = "Standing")]
    pub fn standing(&self) -> JsValue {
        standing_object(self.inner.standing())
    }

    /// The player who must choose who starts the next battle (the tie rule), or `null`.
    #[wasm_bindgen(getter, unchecked_return_type = "\"r\" | \"b\" | null")]
    pub fn chooser(&self) -> JsValue {
        optional_letter(self.inner.chooser())
    }

    /// The loser of the latest battle that had a winner, or `null`.
    #[wasm_bindgen(getter, js_name = lastLoser, unchecked_return_type = "\"r\" | \"b\" | null")]
    pub fn last_loser(&self) -> JsValue {
        optional_letter(self.inner.standing().last_loser)
    }

    /// The winner of the match, or `null` while it goes on.
    #[wasm_bindgen(getter, unchecked_return_type = "\"r\" | \"b\" | null")]
    pub fn winner(&self) -> JsValue {
        optional_letter(self.inner.winner())
    }

    /// Whether the match has a winner.
    #[wasm_bindgen(getter, js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.inner.winner().is_some()
    }

    /// The legal moves now: none while a starter is due or after the match.
    #[wasm_bindgen(js_name = legalMoves, unchecked_return_type = "number[]")]
    pub fn legal_moves(&self) -> JsValue {
        numbers(self.inner.legal_moves().into_iter().map(|m| m as u32))
    }

    /// Plays `pile` in the current battle and returns its `MoveOutcome` (its position
    /// is the final pile when the move ends the battle). A refused move
    /// (`IllegalMoveError`) changes nothing.
    #[wasm_bindgen(unchecked_return_type = "MoveOutcome")]
    pub fn play(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] pile: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.inner.check_playing().or_throw()?;
        let mv = move_index(&self.inner.position(), &pile)?;
        Ok(outcome(&self.inner.play(mv).or_throw()?))
    }

    /// Takes back the last move of the current battle and returns it; a finished battle
    /// cannot be taken back (`MatchStateError`).
    pub fn undo(&mut self) -> Result<usize, JsValue> {
        self.inner.undo().or_throw()
    }

    /// Who played each move of the current battle.
    #[wasm_bindgen(unchecked_return_type = "(\"r\" | \"b\")[]")]
    pub fn movers(&self) -> JsValue {
        self.inner
            .movers()
            .into_iter()
            .map(letter)
            .collect::<Array>()
            .into()
    }

    /// The tie rule: the chooser names who starts the next battle; `MatchStateError`
    /// when no choice is due.
    #[wasm_bindgen(js_name = chooseStarter)]
    pub fn choose_starter(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "\"r\" | \"b\"")] starter: JsValue,
    ) -> Result<(), JsValue> {
        if convert::absent(&starter) {
            return Err(crate::errors::wrong_type("starter", "'r' or 'b'", &starter));
        }
        let starter = convert::player(&starter, "starter", Player::Red)?;
        self.inner.choose_starter(starter).or_throw()
    }

    /// `JSON.stringify`'s form of a match: its position, standing and record.
    #[wasm_bindgen(js_name = toJSON)]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        let record = record::write(&self.inner, &[], &Notes::default(), true).or_throw()?;
        Ok(object(&[
            (
                "position",
                JsValue::from_str(&self.inner.position().to_string()),
            ),
            ("standing", standing_object(self.inner.standing())),
            ("record", JsValue::from_str(&record)),
        ]))
    }

    /// The match as a record (docs/notation.md) with the tags of `tags` (an object of
    /// strings, e.g. `{Event: "...", Red: "..."}`; `Seed: null` leaves the seed out,
    /// and so the shuffles of the battles to come).
    pub fn record(&self, tags: Option<crate::types::TagsArg>) -> Result<String, JsValue> {
        let tags = crate::types::given(tags);
        let mut pairs = Vec::new();
        let mut seed = true;
        if !convert::absent(&tags) {
            if !tags.is_object() || convert::is_array(&tags)? {
                return Err(crate::errors::wrong_type("the tags", "an object", &tags));
            }
            for (name, value) in convert::entries(&tags)? {
                if name == "Seed" && value.is_null() {
                    seed = false;
                    continue;
                }
                pairs.push((name.clone(), text(&value, &format!("the tag {name}"))?));
            }
        }
        record::write(&self.inner, &pairs, &Notes::default(), seed).or_throw()
    }

    /// The match of a record, every move checked by the rules; a `RecordError` names
    /// the line and token of the first fault.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(
        #[wasm_bindgen(unchecked_param_type = "string")] record: JsValue,
    ) -> Result<JsMatch, JsValue> {
        let record = text(&record, "a record")?;
        Ok(JsMatch {
            inner: record::read(&record).or_throw()?.game,
        })
    }

    /// A copy of this match (its own state from now on).
    #[wasm_bindgen(js_name = clone)]
    pub fn clone_js(&self) -> JsMatch {
        self.clone()
    }
}

/// The start orders of a `deals` array (`undefined`: none).
fn deal_list(deals: &JsValue) -> Result<Vec<String>, JsValue> {
    if convert::absent(deals) {
        return Ok(Vec::new());
    }
    let Some(deals) = as_array(deals)? else {
        return Err(crate::errors::wrong_type(
            "deals",
            "an array of start orders",
            deals,
        ));
    };
    deals.iter().map(|deal| text(deal, "a deal")).collect()
}

/// A `Standing` object.
pub(crate) fn standing_object(standing: &Standing) -> JsValue {
    object(&[
        ("red", JsValue::from(standing.red)),
        ("black", JsValue::from(standing.black)),
        ("target", JsValue::from(standing.target)),
        ("lastLoser", optional_letter(standing.last_loser)),
        ("starter", optional_letter(standing.starter)),
        ("perColour", JsValue::from(standing.per_colour as u32)),
    ])
}

/// Who sits at a match's screen and the turn rules that follow (the page's matches):
/// `players` 1, one person playing `human` against the AI, or 2, two people sharing
/// the screen. Each method asks the seats' rules (the core's, with their words), then
/// the match's.
#[wasm_bindgen(js_name = Seats)]
pub struct JsSeats {
    inner: Seats,
}

#[wasm_bindgen(js_class = Seats)]
impl JsSeats {
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "\"r\" | \"b\"")] human: JsValue,
        #[wasm_bindgen(unchecked_param_type = "1 | 2 | undefined")] players: JsValue,
    ) -> Result<JsSeats, JsValue> {
        let human = convert::player(&human, "human", Player::Red)?;
        let players = if convert::absent(&players) {
            1
        } else {
            convert::within(&players, "players", 0, i64::from(u8::MAX))? as u8
        };
        Ok(JsSeats {
            inner: Seats::new(human, players).or_throw()?,
        })
    }

    /// The AI's colour (`null` with two people).
    #[wasm_bindgen(getter, unchecked_return_type = "\"r\" | \"b\" | null")]
    pub fn ai(&self) -> JsValue {
        optional_letter(self.inner.ai())
    }

    /// The side whose hints and choices the screen shows in `game`.
    #[wasm_bindgen(unchecked_return_type = "\"r\" | \"b\"")]
    pub fn acts(&self, game: &JsMatch) -> JsValue {
        letter(self.inner.acts(&game.inner))
    }

    /// The names a record gives the sides, `[red, black]`: `You` and `ai` for one person
    /// against the AI, `Red player` and `Black player` for two.
    #[wasm_bindgen(unchecked_return_type = "[string, string]")]
    pub fn names(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] ai: JsValue,
    ) -> Result<js_sys::Array, JsValue> {
        // Read as a string here: a `&str` parameter given another value (a number) is
        // not checked by the glue, and read memory out of bounds.
        let ai = convert::text(&ai, "ai")?;
        Ok(self
            .inner
            .names(&ai)
            .iter()
            .map(|name| JsValue::from_str(name))
            .collect())
    }

    /// A person's move in `game` (`Match.play`'s answer).
    #[wasm_bindgen(unchecked_return_type = "MoveOutcome")]
    pub fn play(
        &self,
        game: &mut JsMatch,
        #[wasm_bindgen(unchecked_param_type = "number")] pile: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.inner.check_play(&game.inner).or_throw()?;
        game.play(pile)
    }

    /// What the AI is to do in `game`: `"chooseStarter"` or `"move"`.
    #[wasm_bindgen(js_name = aiTurn, unchecked_return_type = "\"chooseStarter\" | \"move\"")]
    pub fn ai_turn(&self, game: &JsMatch) -> Result<JsValue, JsValue> {
        Ok(JsValue::from_str(
            match self.inner.ai_turn(&game.inner).or_throw()? {
                AiTurn::ChooseStarter => "chooseStarter",
                AiTurn::Move => "move",
            },
        ))
    }

    /// A person's choice of starter in `game` (the tie rule).
    pub fn choose(
        &self,
        game: &mut JsMatch,
        #[wasm_bindgen(unchecked_param_type = "\"r\" | \"b\"")] starter: JsValue,
    ) -> Result<(), JsValue> {
        self.inner.check_choose(&game.inner).or_throw()?;
        game.choose_starter(starter)
    }

    /// Takes back the person's last move of the battle and the AI's replies after it
    /// (with two people, the battle's last move); the moves taken back, the last first.
    #[wasm_bindgen(unchecked_return_type = "number[]")]
    pub fn undo(&self, game: &mut JsMatch) -> Result<JsValue, JsValue> {
        let taken = self.inner.undo(&mut game.inner).or_throw()?;
        Ok(numbers(taken.into_iter().map(|mv| mv as f64)))
    }
}
