//! The AI levels of the core (`buttonup::ai`): `bestMove` and the `Bot` class.

use std::cell::RefCell;

use buttonup::ai::{Bot, BotError, Level, LEVELS, RATINGS};
use buttonup::search::Limits;
use wasm_bindgen::prelude::*;

use crate::convert::{self, absent, field, integer, letter, millis, object};
use crate::errors::{wrong_type, ToJs};
use crate::matches::JsMatch;
use crate::position::JsPosition;
use crate::search::{duration, result_object};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** How an AI plays. */
export interface BotOptions {
  /** 1 (random moves) to 10 (perfect play for the match); 10 when left out. */
  level?: number;
  /** The seed of its random choices (a fresh one when left out). */
  seed?: number | bigint;
  /** At most this long a move: the best move of one search within it (exact play,
   * every move solved, when left out). */
  timeLimitMs?: number;
}
"#;

thread_local! {
    static BOT: RefCell<Option<Bot>> = const { RefCell::new(None) };
}

/// What each level of the AI is: `{"1": "random moves", ..., "10": ...}`.
#[wasm_bindgen(unchecked_return_type = "Record<string, string>")]
pub fn levels() -> JsValue {
    let names: Vec<(String, JsValue)> = LEVELS
        .iter()
        .map(|(level, text)| (level.to_string(), JsValue::from_str(text)))
        .collect();
    let fields: Vec<(&str, JsValue)> = names.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    object(&fields)
}

/// Each level's rating on the Elo scale of the level scale: `{"1": 1000, ..., "10": ...}`.
#[wasm_bindgen(unchecked_return_type = "Record<string, number>")]
pub fn ratings() -> JsValue {
    let names: Vec<(String, JsValue)> = RATINGS
        .iter()
        .enumerate()
        .map(|(index, &rating)| ((index + 1).to_string(), JsValue::from_f64(rating)))
        .collect();
    let fields: Vec<(&str, JsValue)> = names.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    object(&fields)
}

/// The level, seed and limits of an options object.
fn settings(options: &JsValue) -> Result<(Level, u64, Limits), JsValue> {
    let level = field(options, "level")?;
    let level = if absent(&level) {
        Level::MATCH
    } else {
        let refused = |e: BotError| e.to_js();
        match integer(&level) {
            Ok(number) => Level::new(number).map_err(refused)?,
            Err(Some(text)) => return Err(refused(BotError::Level(text))),
            Err(None) => return Err(wrong_type("level", "an integer", &level)),
        }
    };
    let seed = convert::seed(&field(options, "seed")?)?;
    let time = millis(&field(options, "timeLimitMs")?, "timeLimitMs")?.map(duration);
    let limits = Limits {
        time,
        ..Limits::default()
    };
    Ok((level, seed, limits))
}

/// The move of the AI at `level` (10 when left out) in `position`, searching at most
/// `timeLimitMs` when given; `null` once the battle is over. (`Bot.chooseInMatch` plays
/// a match's move, where level 10 plays for the match.)
#[wasm_bindgen(js_name = bestMove, unchecked_return_type = "number | null")]
pub fn best_move(
    position: &JsPosition,
    options: Option<crate::types::BotOptionsArg>,
) -> Result<JsValue, JsValue> {
    let (level, seed, limits) = settings(&crate::types::given(options))?;
    Ok(BOT.with(|cell| {
        let mut slot = cell.borrow_mut();
        let bot = slot.get_or_insert_with(|| Bot::of(level, seed));
        bot.reset(level, seed);
        bot.set_limits(limits);
        pile_or_null(bot.choose(&position.inner, None))
    }))
}

/// An AI player of one level, with its own random stream and table (which carries
/// over from move to move).
#[wasm_bindgen(js_name = Bot)]
pub struct JsBot {
    inner: Bot,
}

impl JsBot {
    /// The core's bot (a page's session takes the AI's turn with it).
    pub(crate) fn core(&mut self) -> &mut Bot {
        &mut self.inner
    }
}

#[wasm_bindgen(js_class = Bot)]
impl JsBot {
    /// The bot of `options.level` (10 when left out) from `options.seed`, each move
    /// searched within `options.timeLimitMs` when given.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<crate::types::BotOptionsArg>) -> Result<JsBot, JsValue> {
        let (level, seed, limits) = settings(&crate::types::given(options))?;
        let mut inner = Bot::of(level, seed);
        inner.set_limits(limits);
        Ok(JsBot { inner })
    }

    /// Its level, 1 to 10.
    #[wasm_bindgen(getter)]
    pub fn level(&self) -> u8 {
        self.inner.level().number()
    }

    /// Its move in `position`, `null` once the battle is over.
    #[wasm_bindgen(unchecked_return_type = "number | null")]
    pub fn choose(&mut self, position: &JsPosition) -> JsValue {
        pile_or_null(self.inner.choose(&position.inner, None))
    }

    /// Its move in the current battle of `match` (level 10 plays for the match), `null`
    /// when no move is due.
    #[wasm_bindgen(js_name = chooseInMatch, unchecked_return_type = "number | null")]
    pub fn choose_in_match(&mut self, game: &JsMatch) -> JsValue {
        if game.inner.check_playing().is_err() {
            return JsValue::NULL;
        }
        let position = game.inner.position();
        pile_or_null(self.inner.choose(&position, Some(&game.inner)))
    }

    /// Who it has start the next battle when the tie rule lets it choose in `match`.
    #[wasm_bindgen(js_name = chooseStarter, unchecked_return_type = "\"r\" | \"b\"")]
    pub fn choose_starter(&mut self, game: &JsMatch) -> JsValue {
        letter(self.inner.choose_starter(&game.inner))
    }

    /// Whether its last move was a random one.
    #[wasm_bindgen(getter, js_name = lastRandom)]
    pub fn last_random(&self) -> bool {
        self.inner.last_random()
    }

    /// The search behind its last move, when one search chose it, else `null`.
    #[wasm_bindgen(getter, js_name = lastSearch, unchecked_return_type = "SearchResult | null")]
    pub fn last_search(&self) -> JsValue {
        self.inner
            .last_search()
            .map_or(JsValue::NULL, result_object)
    }

    /// Forgets what its table has learned (a new game).
    pub fn clear(&mut self) {
        self.inner.clear();
    }
}

/// A move as JavaScript gets it: its pile, or `null` for none.
fn pile_or_null(pile: Option<usize>) -> JsValue {
    pile.map_or(JsValue::NULL, |p| JsValue::from(p as u32))
}
