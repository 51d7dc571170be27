//! Exact answers and the AI: `buttonup_solve`, `buttonup_analyze`, and bots of the
//! level scale that may be stopped from another thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use buttonup::ai::{Bot, BotError, Level};
use buttonup::run::parallel::default_threads;
use buttonup::search::{self, Limits};
use buttonup::{BattleError, ErrorKind};

use crate::matches::{game, ButtonupMatch};
use crate::position::{position, ButtonupPlayer, ButtonupPosition};
use crate::status::{free_box, guard, non_null, null, put, Failure};

fn threads(asked: u32) -> usize {
    if asked == 0 {
        default_threads()
    } else {
        asked as usize
    }
}

/// The exact value of `position` for its side to move (its final margin under perfect
/// play) into `*value`, on up to `threads` threads (0: every core; positions under 16
/// piles are solved on the calling thread).
///
/// # Safety
/// `position` is NULL or valid; `value` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_solve(
    position: *const ButtonupPosition,
    threads: u32,
    value: *mut i32,
) -> crate::ButtonupStatus {
    guard(|| {
        let p = self::position(position)?;
        let solved = search::solve(p, self::threads(threads)).map_err(Failure::of)?;
        put(value, "value", solved)
    })
}

/// The value of one move: the pile lifted and the exact value for the side to move.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ButtonupMoveValue {
    /// The pile lifted.
    pub pile: u32,
    /// The final margin under perfect play after it, for the side that moved.
    pub value: i32,
}

/// The exact value of every legal move into `values` (room for `capacity`;
/// `BUTTONUP_MAX_BUTTONS` is always enough), their number in `*count`, in pile order.
/// `values` NULL with `capacity` 0 asks the count only: that call succeeds. Any other
/// failure writes nothing. `threads` above 256 run as 256.
///
/// # Safety
/// `position` is NULL or valid; `values` has room for `capacity` entries; `count` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_analyze(
    position: *const ButtonupPosition,
    threads: u32,
    values: *mut ButtonupMoveValue,
    capacity: usize,
    count: *mut usize,
) -> crate::ButtonupStatus {
    guard(|| {
        let p = self::position(position)?;
        if count.is_null() {
            return Err(null("count"));
        }
        // Checked before the search: writing through NULL `values` crashed.
        let count_only = values.is_null() && capacity == 0;
        if values.is_null() && !count_only {
            return Err(null("values"));
        }
        let found = search::analyze(p, self::threads(threads)).map_err(Failure::of)?;
        if count_only {
            return put(count, "count", found.len());
        }
        if capacity < found.len() {
            return Err(Failure::new(
                ErrorKind::InvalidArgument,
                format!("room for {capacity} values, {} needed", found.len()),
            ));
        }
        let needed = found.len();
        for (i, (pile, value)) in found.into_iter().enumerate() {
            let entry = ButtonupMoveValue {
                pile: pile as u32,
                value,
            };
            values.add(i).write(entry);
        }
        put(count, "count", needed)
    })
}

/// What `buttonup_search` found.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ButtonupSearchResult {
    /// The best move found: the pile to lift.
    pub pile: u32,
    /// Its value for the side to move: exact when `exact`, else estimated at the horizon.
    pub value: f64,
    /// Whether the search reached the end of the battle on every line.
    pub exact: bool,
    /// The deepest iteration completed, in moves.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The threads it ran on.
    pub threads: u32,
}

/// One search of `position` within the limits into `*result`: `depth` moves, `nodes`
/// positions, `time_limit_ms` (each 0: no such limit; with none the search is exact),
/// on up to `threads` threads (0: every core), on the calling thread's tables. The
/// core's one search, as Python's `buttonup.search`, WebAssembly's `search` and an
/// engine's `go` run it: the same threads for the same arguments (one under a depth or
/// node limit, and for positions under 16 piles). `BUTTONUP_STATUS_ILLEGAL_MOVE` when
/// the battle is over.
///
/// # Safety
/// `position` is NULL or valid; `result` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_search(
    position: *const ButtonupPosition,
    threads: u32,
    depth: u32,
    nodes: u64,
    time_limit_ms: u64,
    result: *mut ButtonupSearchResult,
) -> crate::ButtonupStatus {
    guard(|| {
        let p = *self::position(position)?;
        if result.is_null() {
            return Err(null("result"));
        }
        let limits = Limits {
            depth: (depth > 0).then_some(depth),
            nodes: (nodes > 0).then_some(nodes),
            time: (time_limit_ms > 0).then(|| Duration::from_millis(time_limit_ms)),
        };
        let on = search::On::thread(self::threads(threads));
        let found = search::go(&p, &limits, on, &mut |_| true);
        let pile = found
            .best_move
            .ok_or(Failure::of(BattleError::NoMoveToChoose))?;
        let answer = ButtonupSearchResult {
            pile: pile as u32,
            value: found.value,
            exact: found.exact,
            depth: found.depth,
            nodes: found.nodes,
            threads: found.threads as u32,
        };
        put(result, "result", answer)
    })
}

/// An AI player of the level scale (opaque; see docs/ai.md): level 1 plays random
/// moves, 9 perfectly for the battle margin, 10 perfectly for the match. One bot may be
/// used from several threads: its calls take turns, and `buttonup_bot_stop` works from
/// any thread while it thinks. Freed with `buttonup_bot_free`.
pub struct ButtonupBot {
    bot: Mutex<Bot>,
    stop: Arc<AtomicBool>,
}

/// A bot of `level` (1 to 10) whose random choices follow `seed`, in `*out`.
///
/// # Safety
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_bot_new(
    level: u32,
    seed: u64,
    out: *mut *mut ButtonupBot,
) -> crate::ButtonupStatus {
    ButtonupBot::made(out, || Bot::new(i64::from(level), seed))
}

/// A bot of `rating` on the level scale's ratings (from level 1's to level 10's:
/// `buttonup_level_rating`), whose random choices follow `seed`, in `*out`: between the
/// two levels around the rating, its chance of a random move as far between theirs.
/// `BUTTONUP_STATUS_INVALID_ARGUMENT` for a rating out of range or not a number.
///
/// # Safety
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_bot_new_rated(
    rating: f64,
    seed: u64,
    out: *mut *mut ButtonupBot,
) -> crate::ButtonupStatus {
    ButtonupBot::made(out, || Bot::with_rating(rating, seed))
}

/// The rating of `level` (1 to 10) on the level scale's Elo scale, in `*rating`.
///
/// # Safety
/// `rating` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_level_rating(
    level: u32,
    rating: *mut f64,
) -> crate::ButtonupStatus {
    guard(|| {
        if rating.is_null() {
            return Err(null("rating"));
        }
        let level = Level::new(i64::from(level)).map_err(Failure::of)?;
        put(rating, "rating", level.rating())
    })
}

impl ButtonupBot {
    /// The bot `make` gives, as a handle for C in `*out` (its stop flag at hand), or the
    /// status of its error; `out` NULL is refused first.
    ///
    /// # Safety
    /// `out` is NULL or writable.
    unsafe fn made(
        out: *mut *mut ButtonupBot,
        make: impl FnOnce() -> Result<Bot, BotError>,
    ) -> crate::ButtonupStatus {
        guard(|| {
            if out.is_null() {
                return Err(null("out"));
            }
            let bot = make().map_err(Failure::of)?;
            let stop = bot.stop_flag();
            let handle = Box::new(ButtonupBot {
                bot: Mutex::new(bot),
                stop,
            });
            put(out, "out", Box::into_raw(handle))
        })
    }
}

/// Frees a bot (NULL is allowed and ignored). No call on it may be running.
///
/// # Safety
/// `bot` is NULL or a bot of this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn buttonup_bot_free(bot: *mut ButtonupBot) {
    free_box(bot);
}

/// The bot's move in `position` into `*pile`. `game` may be NULL; when given (the
/// match being played, at `position`) level 10 plays for the match. `time_limit_ms` (0:
/// none) bounds the search: within it the bot plays the best move found, exact when
/// the search reached the end; from 16 piles it searches on every core, its helper
/// threads sharing its table. `BUTTONUP_STATUS_ILLEGAL_MOVE` when the battle is over
/// ("the battle is over: there is no move to choose", as Python's bots say).
///
/// # Safety
/// `bot`, `position` and `game` are NULL or valid; `pile` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_bot_choose(
    bot: *const ButtonupBot,
    position: *const ButtonupPosition,
    game: *const ButtonupMatch,
    time_limit_ms: u64,
    pile: *mut u32,
) -> crate::ButtonupStatus {
    guard(|| {
        let handle = non_null(bot, "bot")?;
        let p = *self::position(position)?;
        if pile.is_null() {
            return Err(null("pile"));
        }
        let current = if game.is_null() {
            None
        } else {
            Some(self::game(game)?.clone())
        };
        let mut bot = handle
            .bot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        bot.set_limits(Limits {
            time: (time_limit_ms > 0).then(|| Duration::from_millis(time_limit_ms)),
            ..Limits::default()
        });
        let chosen = bot
            .choose(&p, current.as_ref())
            .ok_or(Failure::of(BattleError::NoMoveToChoose))?;
        put(pile, "pile", chosen as u32)
    })
}

/// Stops the bot's search running in another thread (it then plays the best move found
/// so far). A stop sent while it does not think stops its next search.
///
/// # Safety
/// `bot` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn buttonup_bot_stop(bot: *const ButtonupBot) -> crate::ButtonupStatus {
    guard(|| {
        non_null(bot, "bot")?.stop.store(true, Ordering::SeqCst);
        Ok(())
    })
}

/// Runs `f` on the bot behind `bot`, its lock held.
pub(crate) fn with_bot<T>(
    bot: *const ButtonupBot,
    f: impl FnOnce(&mut Bot) -> T,
) -> Result<T, Failure> {
    let handle = non_null(bot, "bot")?;
    let mut locked = handle
        .bot
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    Ok(f(&mut locked))
}

/// Whom `bot` would name to start the next battle when the tie rule lets it choose in
/// `game`, into `*starter`.
///
/// # Safety
/// `bot` and `game` are NULL or valid; `starter` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_bot_choose_starter(
    bot: *const ButtonupBot,
    game: *const ButtonupMatch,
    starter: *mut ButtonupPlayer,
) -> crate::ButtonupStatus {
    guard(|| {
        let game = self::game(game)?.clone();
        let chosen = with_bot(bot, |b| b.choose_starter(&game))?;
        put(starter, "starter", ButtonupPlayer::of(Some(chosen)))
    })
}
