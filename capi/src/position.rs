//! Positions: parsed, printed, asked for their moves, played, scored. A position
//! handle is immutable, so one may be read from any number of threads at once.

use std::ffi::{c_char, CStr};

use buttonup::game::notation;
use buttonup::game::rng::{random_start, SplitMix64};
use buttonup::{BattleError, Capability, ErrorKind, Player, Position, MAX_BUTTONS};

use crate::status::{free_box, guard, non_null, null, put, put_string, Failure};

/// A position of a battle (opaque): made by `buttonup_position_parse`,
/// `buttonup_position_random`, `buttonup_position_play` or `buttonup_match_position`,
/// owned by the caller, freed with `buttonup_position_free`.
pub struct ButtonupPosition(pub(crate) Position);

/// A player, or none (a draw, or no one).
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ButtonupPlayer {
    /// No player: a draw, or nobody (yet).
    None = 0,
    /// Red, who starts the first battle unless told otherwise (player 1).
    Red = 1,
    /// Black (player 2).
    Black = 2,
}

impl ButtonupPlayer {
    pub(crate) fn of(player: Option<Player>) -> ButtonupPlayer {
        match player {
            None => ButtonupPlayer::None,
            Some(Player::Red) => ButtonupPlayer::Red,
            Some(Player::Black) => ButtonupPlayer::Black,
        }
    }
}

/// The player a caller passed by value as a `ButtonupPlayer`. Such an argument is an
/// `uint32_t` in the header, not the enum: a C caller can pass any number, and a Rust
/// enum holding a value outside its variants would be undefined behaviour, so the
/// number is checked here instead.
pub(crate) fn player_argument(name: &str, code: u32) -> Result<Player, Failure> {
    match code {
        1 => Ok(Player::Red),
        2 => Ok(Player::Black),
        0 => Err(Failure::new(
            ErrorKind::InvalidArgument,
            format!(
                "{name}: a player is needed here: BUTTONUP_PLAYER_RED or BUTTONUP_PLAYER_BLACK"
            ),
        )),
        other => Err(Failure::new(
            ErrorKind::InvalidArgument,
            format!(
                "{name} must be BUTTONUP_PLAYER_RED (1) or BUTTONUP_PLAYER_BLACK (2), not {other}"
            ),
        )),
    }
}

/// The most buttons a position holds, and so the most piles and drops of a move.
pub const BUTTONUP_MAX_BUTTONS: usize = 32;
const _: () = assert!(BUTTONUP_MAX_BUTTONS == MAX_BUTTONS);

/// The victory points that win a standard match (rule 9).
pub const BUTTONUP_STANDARD_TARGET: u32 = 15;
const _: () = assert!(BUTTONUP_STANDARD_TARGET == buttonup::STANDARD_TARGET);

/// The buttons of each colour of the standard game (rule 1).
pub const BUTTONUP_STANDARD_PER_COLOUR: u32 = 3;
const _: () = assert!(BUTTONUP_STANDARD_PER_COLOUR as usize == buttonup::STANDARD_PER_COLOUR);

/// What one move did besides giving the new position.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ButtonupMove {
    /// The pile lifted.
    pub pile: u32,
    /// Whether the mover must move again (rule 4).
    pub extra_move: bool,
    /// How many entries of `drops` are used.
    pub drop_count: u32,
    /// The pile (numbered as before the move) that received each lifted button, bottom
    /// button first; an overflow repeats the last pile.
    pub drops: [u32; BUTTONUP_MAX_BUTTONS],
}

/// The final pile's count: each side's sum of heights, the winner, the points won.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ButtonupScoring {
    /// Red's sum of the heights of the red buttons (bottom button is 1).
    pub red: u32,
    /// Black's sum.
    pub black: u32,
    /// Who won the battle (`BUTTONUP_PLAYER_NONE` for a draw).
    pub winner: ButtonupPlayer,
    /// The victory points the winner gains: the difference of the sums.
    pub points: u32,
}

pub(crate) fn position<'a>(pointer: *const ButtonupPosition) -> Result<&'a Position, Failure> {
    non_null(pointer, "position").map(|p| &p.0)
}

pub(crate) fn give(position: Position, out: *mut *mut ButtonupPosition) -> Result<(), Failure> {
    if out.is_null() {
        return Err(null("out"));
    }
    put(
        out,
        "out",
        Box::into_raw(Box::new(ButtonupPosition(position))),
    )
}

/// The bytes of a C string argument.
pub(crate) fn bytes<'a>(pointer: *const c_char, name: &str) -> Result<&'a [u8], Failure> {
    if pointer.is_null() {
        return Err(null(name));
    }
    // SAFETY: non-NULL, and the caller promises a NUL-terminated string.
    Ok(unsafe { CStr::from_ptr(pointer) }.to_bytes())
}

/// A notation argument's text: not UTF-8 is a notation error.
pub(crate) fn text<'a>(pointer: *const c_char, name: &str) -> Result<&'a str, Failure> {
    std::str::from_utf8(bytes(pointer, name)?)
        .map_err(|_| Failure::new(ErrorKind::Notation, format!("{name} is not UTF-8")))
}

/// Parses a position in the notation (`"W/R/B/W/B/R/R/W/B r"`) into `*out`.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_position_parse(
    text: *const c_char,
    out: *mut *mut ButtonupPosition,
) -> crate::ButtonupStatus {
    guard(|| {
        let parsed = notation::parse(self::text(text, "text")?).map_err(Failure::of)?;
        give(parsed, out)
    })
}

/// A random start with `per_colour` buttons of each colour (3 in the standard game),
/// `to_move` to move, the same for the same `seed` as the Python library's
/// `Position.random(seed, to_move=, per_colour=)`.
/// A player argument is a `ButtonupPlayer` value passed as `uint32_t`: anything but
/// `BUTTONUP_PLAYER_RED` or `BUTTONUP_PLAYER_BLACK` is `BUTTONUP_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_position_random(
    per_colour: u32,
    to_move: u32,
    seed: u64,
    out: *mut *mut ButtonupPosition,
) -> crate::ButtonupStatus {
    guard(|| {
        let player = player_argument("to_move", to_move)?;
        // The count checked first, in the words of Python's `Position.random`.
        let per_colour = Capability::Rules
            .check(i64::from(per_colour))
            .map_err(Failure::of)?;
        let start =
            random_start(per_colour, player, &mut SplitMix64::new(seed)).map_err(Failure::of)?;
        give(start, out)
    })
}

/// Frees a position (NULL is allowed and ignored).
///
/// # Safety
/// `position` is NULL or a position of this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn buttonup_position_free(position: *mut ButtonupPosition) {
    free_box(position);
}

/// The position in the notation, as a new string in `*out` (free it with
/// `buttonup_string_free`).
///
/// # Safety
/// `position` is NULL or valid; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_position_notation(
    position: *const ButtonupPosition,
    out: *mut *mut c_char,
) -> crate::ButtonupStatus {
    guard(|| put_string(out, || Ok(self::position(position)?.to_string())))
}

/// Whose move it is (the player who would move next once the battle is over).
///
/// # Safety
/// `position` is NULL or valid; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_position_to_move(
    position: *const ButtonupPosition,
    out: *mut ButtonupPlayer,
) -> crate::ButtonupStatus {
    guard(|| {
        put(
            out,
            "out",
            ButtonupPlayer::of(Some(self::position(position)?.to_move())),
        )
    })
}

/// Whether the battle is over (rule 5: one pile is left).
///
/// # Safety
/// `position` is NULL or valid; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_position_is_over(
    position: *const ButtonupPosition,
    out: *mut bool,
) -> crate::ButtonupStatus {
    guard(|| put(out, "out", self::position(position)?.is_over()))
}

/// The number of piles.
///
/// # Safety
/// `position` is NULL or valid; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_position_pile_count(
    position: *const ButtonupPosition,
    out: *mut u32,
) -> crate::ButtonupStatus {
    guard(|| put(out, "out", self::position(position)?.pile_count() as u32))
}

/// The legal moves (piles holding a white button, from 0) into `moves`, which has room
/// for `capacity` (`BUTTONUP_MAX_BUTTONS` is always enough); their number in `*count`.
/// `moves` NULL with `capacity` 0 asks the count only: that call succeeds. Any other
/// failure (too little room included) writes nothing.
///
/// # Safety
/// `position` is NULL or valid; `moves` has room for `capacity` values; `count` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_position_legal_moves(
    position: *const ButtonupPosition,
    moves: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> crate::ButtonupStatus {
    guard(|| {
        let legal: Vec<u32> = self::position(position)?
            .legal_moves()
            .map(|m| m as u32)
            .collect();
        if count.is_null() {
            return Err(null("count"));
        }
        if moves.is_null() && capacity == 0 {
            return put(count, "count", legal.len());
        }
        if capacity < legal.len() {
            return Err(Failure::new(
                ErrorKind::InvalidArgument,
                format!("room for {capacity} moves, {} needed", legal.len()),
            ));
        }
        if !legal.is_empty() {
            if moves.is_null() {
                return Err(null("moves"));
            }
            std::ptr::copy_nonoverlapping(legal.as_ptr(), moves, legal.len());
        }
        put(count, "count", legal.len())
    })
}

/// Plays `pile` (rules 2 to 4): the new position in `*next` (the caller's to free), and
/// what the move did in `*outcome` (may be NULL).
///
/// # Safety
/// `position` is NULL or valid; `next` is NULL or writable; `outcome` is NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_position_play(
    position: *const ButtonupPosition,
    pile: u32,
    next: *mut *mut ButtonupPosition,
    outcome: *mut ButtonupMove,
) -> crate::ButtonupStatus {
    guard(|| {
        if next.is_null() {
            return Err(null("next"));
        }
        let sowing = self::position(position)?
            .sowing(pile as usize)
            .map_err(Failure::of)?;
        if !outcome.is_null() {
            outcome.write(move_of(pile, sowing.outcome.extra_move, &sowing.drops));
        }
        give(sowing.outcome.position, next)
    })
}

pub(crate) fn move_of(pile: u32, extra_move: bool, drops: &[usize]) -> ButtonupMove {
    let mut out = ButtonupMove {
        pile,
        extra_move,
        drop_count: drops.len() as u32,
        drops: [0; BUTTONUP_MAX_BUTTONS],
    };
    for (slot, &d) in out.drops.iter_mut().zip(drops) {
        *slot = d as u32;
    }
    out
}

/// The scoring of a finished battle (rule 5) into `*out`; `BUTTONUP_STATUS_WRONG_STATE`
/// while it goes on ("the battle is not over: it has more than one pile", as Python's
/// `BattleNotOverError` says).
///
/// # Safety
/// `position` is NULL or valid; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn buttonup_position_scoring(
    position: *const ButtonupPosition,
    out: *mut ButtonupScoring,
) -> crate::ButtonupStatus {
    guard(|| {
        let scoring = self::position(position)?
            .scoring()
            .ok_or(Failure::of(BattleError::NotOver))?;
        put(
            out,
            "out",
            ButtonupScoring {
                red: scoring.red,
                black: scoring.black,
                winner: ButtonupPlayer::of(scoring.winner()),
                points: scoring.points(),
            },
        )
    })
}
