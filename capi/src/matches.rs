//! Matches (rules 7 to 9): battles played in turn to a target of victory points, the
//! tie rule's choice, the record, and the exact chance of winning the match. A match
//! handle may be used from several threads: its calls take turns.

use std::ffi::c_char;
use std::sync::{Arc, Mutex, MutexGuard};

use buttonup::game::record;
use buttonup::odds::{red_chance_at, with_match_searcher, MatchOdds};
use buttonup::run::parallel::default_threads;
use buttonup::Match;

use crate::position::{
    give, move_of, player_argument, ButtonupMove, ButtonupPlayer, ButtonupPosition,
};
use crate::status::{free_box, guard, non_null, null, put, put_string, Failure};

/// A match (opaque): made by `buttonup_match_new`, freed with `buttonup_match_free`.
/// It keeps its own table of match odds once they are asked for (freed with it).
pub struct ButtonupMatch {
    game: Mutex<Match>,
    odds: Mutex<Option<Arc<Mutex<MatchOdds>>>>,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub(crate) fn game<'a>(pointer: *const ButtonupMatch) -> Result<MutexGuard<'a, Match>, Failure> {
    Ok(locked(&non_null(pointer, "match")?.game))
}

fn hand_over(game: Match, out: *mut *mut ButtonupMatch) -> Result<(), Failure> {
    if out.is_null() {
        return Err(null("out"));
    }
    let handle = ButtonupMatch {
        game: Mutex::new(game),
        odds: Mutex::new(None),
    };
    put(out, "out", Box::into_raw(Box::new(handle)))
}

/// A match to `target` victory points (`BUTTONUP_STANDARD_TARGET` in the standard game)
/// with `per_colour` buttons of each colour (`BUTTONUP_STANDARD_PER_COLOUR`), `starter` starting the first battle, the starts shuffled
/// from `seed` (the same matches as the Python library's `Match(seed=...)`).
/// A player argument is a `ButtonupPlayer` value passed as `uint32_t`: anything but
/// `BUTTONUP_PLAYER_RED` or `BUTTONUP_PLAYER_BLACK` is `BUTTONUP_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_match_new(
    starter: u32,
    target: u32,
    per_colour: u32,
    seed: u64,
    out: *mut *mut ButtonupMatch,
) -> crate::ButtonupStatus {
    guard(|| {
        let game = Match::new(
            player_argument("starter", starter)?,
            target,
            per_colour as usize,
            seed,
            &[],
        )
        .map_err(Failure::of)?;
        hand_over(game, out)
    })
}

/// Frees a match (NULL is allowed and ignored). No call on it may be running.
///
/// # Safety
/// `game` is NULL or a match of this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn buttonup_match_free(game: *mut ButtonupMatch) {
    free_box(game);
}

/// The current battle's position (the final pile of the latest battle while the tie
/// rule's choice is due or once the match is won) as a new position in `*out`.
///
/// # Safety
/// `game` is NULL or valid; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_match_position(
    game: *const ButtonupMatch,
    out: *mut *mut ButtonupPosition,
) -> crate::ButtonupStatus {
    guard(|| give(self::game(game)?.position(), out))
}

/// Plays `pile` in the current battle; what it did in `*outcome` (may be NULL). A move
/// that ends the battle scores it and deals the next one, unless the tie rule's choice
/// is due or the match is won.
///
/// # Safety
/// `game` is NULL or valid; `outcome` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_match_play(
    game: *const ButtonupMatch,
    pile: u32,
    outcome: *mut ButtonupMove,
) -> crate::ButtonupStatus {
    guard(|| {
        let sowing = self::game(game)?.play(pile as usize).map_err(Failure::of)?;
        if !outcome.is_null() {
            outcome.write(move_of(pile, sowing.outcome.extra_move, &sowing.drops));
        }
        Ok(())
    })
}

/// Takes back the last move of the current battle, its pile in `*pile` (may be NULL).
///
/// # Safety
/// `game` is NULL or valid; `pile` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_match_undo(
    game: *const ButtonupMatch,
    pile: *mut u32,
) -> crate::ButtonupStatus {
    guard(|| {
        let undone = self::game(game)?.undo().map_err(Failure::of)?;
        if !pile.is_null() {
            pile.write(undone as u32);
        }
        Ok(())
    })
}

/// The scores (victory points) so far.
///
/// # Safety
/// `game` is NULL or valid; `red` and `black` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_match_scores(
    game: *const ButtonupMatch,
    red: *mut u32,
    black: *mut u32,
) -> crate::ButtonupStatus {
    guard(|| {
        let standing = *self::game(game)?.standing();
        // Both checked before either is written: a failed call writes nothing.
        for (out, name) in [(red, "red"), (black, "black")] {
            if out.is_null() {
                return Err(null(name));
            }
        }
        put(red, "red", standing.red)?;
        put(black, "black", standing.black)
    })
}

/// Who won the match (`BUTTONUP_PLAYER_NONE` while it goes on) into `*winner`, and who
/// must now choose the next battle's starter by the tie rule (`BUTTONUP_PLAYER_NONE`
/// unless that choice is due) into `*chooser`; either may be NULL.
///
/// # Safety
/// `game` is NULL or valid; `winner` and `chooser` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_match_state(
    game: *const ButtonupMatch,
    winner: *mut ButtonupPlayer,
    chooser: *mut ButtonupPlayer,
) -> crate::ButtonupStatus {
    guard(|| {
        let game = self::game(game)?;
        if !winner.is_null() {
            winner.write(ButtonupPlayer::of(game.winner()));
        }
        if !chooser.is_null() {
            chooser.write(ButtonupPlayer::of(game.chooser()));
        }
        Ok(())
    })
}

/// The tie rule: the chooser names `starter` to start the next battle.
/// A player argument is a `ButtonupPlayer` value passed as `uint32_t`: anything but
/// `BUTTONUP_PLAYER_RED` or `BUTTONUP_PLAYER_BLACK` is `BUTTONUP_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `game` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn buttonup_match_choose_starter(
    game: *const ButtonupMatch,
    starter: u32,
) -> crate::ButtonupStatus {
    guard(|| {
        let starter = player_argument("starter", starter)?;
        self::game(game)?
            .choose_starter(starter)
            .map_err(Failure::of)
    })
}

/// Red's exact probability of winning the match from where it stands, both players
/// playing for the match (the battle in progress included), into `*red`. Matches of up
/// to 3 buttons of each colour.
///
/// # Safety
/// `game` is NULL or valid; `red` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_match_win_probability(
    game: *const ButtonupMatch,
    red: *mut f64,
) -> crate::ButtonupStatus {
    guard(|| {
        let handle = non_null(game, "match")?;
        let game = locked(&handle.game).clone();
        // The match's own table (a match's target and buttons never change), built at
        // the first call; the core's odds on it.
        let table = {
            let mut odds = locked(&handle.odds);
            match odds.as_ref() {
                Some(table) => Arc::clone(table),
                None => {
                    let made =
                        MatchOdds::new(game.target(), game.per_colour()).map_err(Failure::of)?;
                    Arc::clone(odds.insert(Arc::new(Mutex::new(made))))
                }
            }
        };
        let battle = game.battle_position();
        let chance = with_match_searcher(|s| {
            let threads = default_threads();
            red_chance_at(game.standing(), battle.as_ref(), threads, s, Some(&*table))
        })
        .map_err(Failure::of)?;
        put(red, "red", chance)
    })
}

/// The match's record (docs/notation.md, "Match records") as a new string in `*out`
/// (free it with `buttonup_string_free`).
///
/// # Safety
/// `game` is NULL or valid; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_match_record(
    game: *const ButtonupMatch,
    out: *mut *mut c_char,
) -> crate::ButtonupStatus {
    guard(|| {
        put_string(out, || {
            record::write(&*self::game(game)?, &[], &Default::default(), true).map_err(Failure::of)
        })
    })
}

/// The match a record holds (docs/notation.md, "Match records"), every move checked by
/// the rules, as a new match in `*out`; `BUTTONUP_STATUS_RECORD_ERROR` with the line
/// and token of the fault otherwise (Python's `RecordError`).
///
/// # Safety
/// `text` is NULL or a NUL-terminated string; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_match_from_record(
    text: *const c_char,
    out: *mut *mut ButtonupMatch,
) -> crate::ButtonupStatus {
    guard(|| {
        let bytes = crate::position::bytes(text, "text")?;
        let read = record::read(record::text(bytes).map_err(Failure::of)?).map_err(Failure::of)?;
        hand_over(read.game, out)
    })
}
