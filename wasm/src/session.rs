//! `Session`: a page's match (`buttonup::page::session`), as the offline page keeps one
//! for each of its matches, the server's too. Conversions only.

use buttonup::page::seats::AiTurn;
use buttonup::page::session::{AiAction, Session};
use buttonup::search::On;
use buttonup::Player;
use wasm_bindgen::prelude::*;

use crate::ai::JsBot;
use crate::analysis::with_searchers;
use crate::convert::{self, letter, millis, move_index, text};
use crate::draw::view_to_js;
use crate::errors::OrThrow;
use crate::matches::JsMatch;
use crate::position::JsPosition;
use crate::search::duration;

/// A page's match: the match, who sits at its screen (`players` 1, the person playing
/// `human` against the AI, or 2 people sharing the screen), the chart of where it stood
/// after each change, and `capMs`, the milliseconds its searches take at most (the AI's
/// move within a second of them, the chart's margins within half, a hint within all of
/// it, a review's looks within a quarter): the core's, as the server's.
#[wasm_bindgen(js_name = Session)]
pub struct JsSession {
    inner: Session,
}

#[wasm_bindgen(js_class = Session)]
impl JsSession {
    /// A session of a copy of `match`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        game: &JsMatch,
        #[wasm_bindgen(unchecked_param_type = "\"r\" | \"b\"")] human: JsValue,
        #[wasm_bindgen(unchecked_param_type = "1 | 2 | undefined")] players: JsValue,
        #[wasm_bindgen(js_name = capMs)] cap_ms: crate::types::NumberArg,
    ) -> Result<JsSession, JsValue> {
        let human = convert::player(&human, "human", Player::Red)?;
        let players = if convert::absent(&players) {
            1
        } else {
            convert::within(&players, "players", 0, i64::from(u8::MAX))? as u8
        };
        let cap = millis(&cap_ms, "capMs")?
            .map(duration)
            .ok_or_else(|| crate::errors::wrong_type("capMs", "a number", &cap_ms))?;
        Ok(JsSession {
            inner: Session::new(game.inner.clone(), human, players, cap).or_throw()?,
        })
    }

    /// The match (a copy).
    #[wasm_bindgen(getter, js_name = match)]
    pub fn game(&self) -> JsMatch {
        JsMatch {
            inner: self.inner.game().clone(),
        }
    }

    /// The colour the person plays against the AI.
    #[wasm_bindgen(getter, unchecked_return_type = "\"r\" | \"b\"")]
    pub fn human(&self) -> JsValue {
        letter(self.inner.human())
    }

    /// The people at the screen: 1 or 2.
    #[wasm_bindgen(getter)]
    pub fn players(&self) -> u8 {
        self.inner.players()
    }

    /// The side whose hints and choices the page shows.
    #[wasm_bindgen(unchecked_return_type = "\"r\" | \"b\"")]
    pub fn acts(&self) -> JsValue {
        letter(self.inner.acts())
    }

    /// A person's move (with two people, the side to move's).
    pub fn play(&mut self, #[wasm_bindgen(js_name = move)] mv: JsValue) -> Result<(), JsValue> {
        let mv = move_index(&self.inner.game().position(), &mv)?;
        self.inner.play(mv).or_throw()
    }

    /// A person's choice of starter (the tie rule).
    pub fn choose(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "\"r\" | \"b\"")] starter: JsValue,
    ) -> Result<(), JsValue> {
        let starter = convert::player(&starter, "starter", Player::Red)?;
        self.inner.choose(starter).or_throw()
    }

    /// Takes back the person's last move of the battle and the AI's replies after it.
    pub fn undo(&mut self) -> Result<(), JsValue> {
        self.inner.undo().or_throw()
    }

    /// What the AI is to do now: `"chooseStarter"` or `"move"`.
    #[wasm_bindgen(js_name = aiTurn, unchecked_return_type = "\"chooseStarter\" | \"move\"")]
    pub fn ai_turn(&self) -> Result<String, JsValue> {
        Ok(match self.inner.ai_turn().or_throw()? {
            AiTurn::ChooseStarter => "chooseStarter",
            AiTurn::Move => "move",
        }
        .to_string())
    }

    /// The AI's turn taken by `bot` (searching within the AI's time): whether it played
    /// a move (`true`) or chose who starts (`false`).
    #[wasm_bindgen(js_name = aiMove)]
    pub fn ai_move(&mut self, bot: &mut JsBot) -> Result<bool, JsValue> {
        let action = self.inner.ai_move(bot.core()).or_throw()?;
        Ok(matches!(action, AiAction::Played(_)))
    }

    /// Records the chart's point for the state the last change left.
    pub fn note(&mut self) -> Result<(), JsValue> {
        let session = &mut self.inner;
        with_searchers(|searchers| session.note(searchers)).or_throw()
    }

    /// Records the points `note` would have for a match read from a record.
    pub fn backfill(&mut self) -> Result<(), JsValue> {
        let session = &mut self.inner;
        with_searchers(|searchers| session.backfill(searchers)).or_throw()
    }

    /// Battle `number`'s start and its first `ply` moves (every move so far without
    /// `ply`); a battle the match does not have, or more moves than it has, throws a
    /// `RangeError` in the core's words.
    #[wasm_bindgen(unchecked_return_type = "[Position, number[]]")]
    pub fn battle(&self, number: u32, ply: Option<u32>) -> Result<JsValue, JsValue> {
        let (start, moves) = self
            .inner
            .battle(number as usize, ply.map(|p| p as usize))
            .or_throw()?;
        let moves: js_sys::Array = moves.iter().map(|&m| JsValue::from(m as u32)).collect();
        Ok(js_sys::Array::of2(&JsPosition::from(start).into(), &moves).into())
    }

    /// The match's whole state as the page shows it: the core's view, the chart's
    /// points of the battle shown, `human` and `players` (the server's JSON).
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown>")]
    pub fn view(&self, battles: bool, played: bool) -> Result<JsValue, JsValue> {
        Ok(view_to_js(&self.inner.view(battles, played).or_throw()?))
    }

    /// Battle `number` as the page shows it, with the chart's points.
    #[wasm_bindgen(js_name = battleView, unchecked_return_type = "Record<string, unknown>")]
    pub fn battle_view(&self, number: u32) -> Result<JsValue, JsValue> {
        Ok(view_to_js(
            &self.inner.battle_view(number as usize).or_throw()?,
        ))
    }

    /// The position after the first `ply` moves of battle `number`, drawn.
    #[wasm_bindgen(js_name = plyView, unchecked_return_type = "Record<string, unknown>")]
    pub fn ply_view(&self, number: u32, ply: u32) -> Result<JsValue, JsValue> {
        Ok(view_to_js(
            &self
                .inner
                .ply_view(number as usize, ply as usize)
                .or_throw()?,
        ))
    }

    /// The hint for the side that acts, within the cap.
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown>")]
    pub fn hint(&self) -> Result<JsValue, JsValue> {
        let found = with_searchers(|searchers| self.inner.hint(searchers)).or_throw()?;
        Ok(view_to_js(&found))
    }

    /// Battle `number`'s moves judged against perfect play, within the cap.
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown>")]
    pub fn review(&self, number: u32) -> Result<JsValue, JsValue> {
        let found = self
            .inner
            .review(number as usize, On::thread(1))
            .or_throw()?;
        Ok(view_to_js(&found))
    }

    /// The match's record, its sides named as the seats name them (`ai`: the AI's
    /// name), with the `event` and `date` tags.
    pub fn record(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] ai: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] event: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] date: JsValue,
    ) -> Result<String, JsValue> {
        // Each read as a string here: a `&str` parameter given another value is not
        // checked by the glue.
        let (ai, event, date) = (
            text(&ai, "ai")?,
            text(&event, "event")?,
            text(&date, "date")?,
        );
        self.inner.record(&ai, &event, &date).or_throw()
    }
}
