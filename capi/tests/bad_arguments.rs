//! The C library's calls given what a careless C caller may pass: NULL
//! pointers, numbers at their type's limits, player values outside the enum, text that
//! is not UTF-8 or not notation, a record cut anywhere. Every call answers with a status
//! naming the failure (never `BUTTONUP_STATUS_INTERNAL_ERROR`, which is a caught panic)
//! and the library keeps working afterwards.

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use buttonup_c::*;

mod common;
use common::{last_error, new_match, parse};

const INTERNAL: ButtonupStatus = ButtonupStatus::InternalError;
const NUMBERS: [u32; 7] = [0, 1, 2, 3, 33, 1 << 31, u32::MAX];

/// `status`, which must not be a caught panic.
#[track_caller]
fn answered(status: ButtonupStatus) -> ButtonupStatus {
    assert_ne!(
        status,
        INTERNAL,
        "a panic reached the boundary: {}",
        last_error()
    );
    status
}

/// What a call that writes a count through its argument answers (never a caught
/// panic), and the count it leaves there: 99 before the call, so that a failure must
/// leave it at 99.
#[track_caller]
fn counted(call: impl FnOnce(&mut usize) -> ButtonupStatus) -> (ButtonupStatus, usize) {
    let mut count = 99usize;
    let status = answered(call(&mut count));
    (status, count)
}

#[test]
fn a_player_outside_the_enum_is_an_invalid_argument() {
    for code in [0, 3, 7, 1 << 31, u32::MAX] {
        let mut position = null_mut();
        let status = unsafe { buttonup_position_random(3, code, 1, &mut position) };
        assert_eq!(status, ButtonupStatus::InvalidArgument, "to_move {code}");
        assert!(position.is_null());
        assert!(last_error().contains("to_move"), "{}", last_error());

        let mut game = null_mut();
        let status = unsafe { buttonup_match_new(code, 15, 3, 1, &mut game) };
        assert_eq!(status, ButtonupStatus::InvalidArgument, "starter {code}");
        assert!(game.is_null());

        let game = new_match(15, 3, 7);
        let status = unsafe { buttonup_match_choose_starter(game, code) };
        assert_eq!(status, ButtonupStatus::InvalidArgument, "starter {code}");
        unsafe { buttonup_match_free(game) };
    }
    // And the right values still work.
    let mut position = null_mut();
    let status = unsafe { buttonup_position_random(3, 2, 1, &mut position) };
    assert_eq!(status, ButtonupStatus::Ok);
    unsafe { buttonup_position_free(position) };
}

#[test]
fn null_pointers_are_named() {
    unsafe {
        let mut out = null_mut();
        assert_eq!(
            buttonup_position_parse(null(), &mut out),
            ButtonupStatus::NullArgument
        );
        assert_eq!(
            buttonup_match_from_record(null(), &mut null_mut()),
            ButtonupStatus::NullArgument
        );
        assert_eq!(
            buttonup_position_notation(null(), &mut null_mut()),
            ButtonupStatus::NullArgument
        );
        assert_eq!(
            buttonup_solve(null(), 1, null_mut()),
            ButtonupStatus::NullArgument
        );
        assert_eq!(buttonup_bot_stop(null()), ButtonupStatus::NullArgument);
        let p = parse("W/R/B/W/B/R/R/W/B r");
        for status in [
            buttonup_position_to_move(p, null_mut()),
            buttonup_position_is_over(p, null_mut()),
            buttonup_position_pile_count(p, null_mut()),
            buttonup_position_play(p, 0, null_mut(), null_mut()),
            buttonup_solve(p, 1, null_mut()),
            buttonup_bot_choose(null(), p, null(), 0, null_mut()),
            buttonup_match_position(null(), null_mut()),
            buttonup_match_play(null(), 0, null_mut()),
            buttonup_match_undo(null(), null_mut()),
            buttonup_match_scores(null(), null_mut(), null_mut()),
            buttonup_match_state(null(), null_mut(), null_mut()),
            buttonup_match_win_probability(null(), null_mut()),
            buttonup_match_record(null(), null_mut()),
            buttonup_bot_choose_starter(null(), null(), null_mut()),
        ] {
            assert_eq!(answered(status), ButtonupStatus::NullArgument);
        }
        // The battle is not over: that comes first.
        assert_eq!(
            buttonup_position_scoring(p, null_mut()),
            ButtonupStatus::WrongState
        );
        // NULL outputs where the call allows them, and a legal-move list with no room.
        let mut count = 99usize;
        let status = buttonup_position_legal_moves(p, null_mut(), 0, &mut count);
        answered(status);
        let status = buttonup_analyze(p, 1, null_mut(), 0, &mut count);
        answered(status);
        buttonup_position_free(p);
    }
}

#[test]
fn text_that_is_not_utf8_or_not_notation_is_a_notation_error() {
    let texts: [&[u8]; 9] = [
        b"\xff\xfe\0",
        b"W/R/B\xc3\0",
        b"\0",
        b"W/R/B/W/B/R/R/W/B x\0",
        b"WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW r\0",
        b"W/////////R r\0",
        b"[Target \"99999999999999999999999\"]\n\n*\n\0",
        b"[PerColour \"4294967296\"]\n\n1. RRBRBWWBW r 8 *\n\0",
        b"1. RRBRBWWBW r 99 4294967296 18446744073709551616 *\0",
    ];
    for text in texts {
        let text = text.as_ptr().cast::<c_char>();
        let mut position = null_mut();
        let status = answered(unsafe { buttonup_position_parse(text, &mut position) });
        assert!(status != ButtonupStatus::Ok || !position.is_null());
        unsafe { buttonup_position_free(position) };
        let mut game = null_mut();
        let status = answered(unsafe { buttonup_match_from_record(text, &mut game) });
        assert!(status != ButtonupStatus::Ok || !game.is_null());
        unsafe { buttonup_match_free(game) };
    }
}

#[test]
fn a_record_that_is_not_utf8_is_a_record_error_naming_its_line() {
    let mut game = null_mut();
    let text = b"[Event \"x\"]\n\n1. RRBRBWWBW r \xff 8 *\n\0";
    let status = unsafe { buttonup_match_from_record(text.as_ptr().cast(), &mut game) };
    assert_eq!(status, ButtonupStatus::RecordError);
    assert!(game.is_null());
    assert!(
        last_error().starts_with("line 3,") && last_error().contains("not UTF-8 (byte 0xff at 28)"),
        "{}",
        last_error()
    );
}

#[test]
fn a_record_too_long_is_a_record_error() {
    let mut text = "1. ".repeat(1 << 19).into_bytes();
    text.push(0);
    let mut game = null_mut();
    let status = unsafe { buttonup_match_from_record(text.as_ptr().cast(), &mut game) };
    assert_eq!(status, ButtonupStatus::RecordError);
    assert!(game.is_null());
    assert!(
        last_error().starts_with("a record is at most 1048576 bytes"),
        "{}",
        last_error()
    );
}

#[test]
fn a_record_cut_anywhere_is_read_or_refused() {
    let game = new_match(15, 3, 7);
    unsafe {
        for _ in 0..12 {
            let mut moves = [0u32; 32];
            let mut count = 0usize;
            let mut position = null_mut();
            answered(buttonup_match_position(game, &mut position));
            answered(buttonup_position_legal_moves(
                position,
                moves.as_mut_ptr(),
                32,
                &mut count,
            ));
            buttonup_position_free(position);
            if count == 0 {
                break;
            }
            answered(buttonup_match_play(game, moves[count - 1], null_mut()));
        }
        let mut text = null_mut();
        assert_eq!(buttonup_match_record(game, &mut text), ButtonupStatus::Ok);
        let record = CStr::from_ptr(text).to_bytes().to_vec();
        buttonup_string_free(text);
        for end in 0..=record.len() {
            let mut cut = record[..end].to_vec();
            cut.push(0);
            let mut read = null_mut();
            answered(buttonup_match_from_record(cut.as_ptr().cast(), &mut read));
            buttonup_match_free(read);
        }
        buttonup_match_free(game);
    }
}

#[test]
fn numbers_at_their_limits_are_answered() {
    unsafe {
        for n in NUMBERS {
            let mut position = null_mut();
            answered(buttonup_position_random(n, 1, u64::MAX, &mut position));
            buttonup_position_free(position);
            for target in NUMBERS {
                let mut game = null_mut();
                answered(buttonup_match_new(1, target, n, u64::MAX, &mut game));
                buttonup_match_free(game);
            }
            let mut bot = null_mut();
            answered(buttonup_bot_new(n, u64::MAX, &mut bot));
            buttonup_bot_free(bot);
        }
        let p = parse("RWBBWW/BRR r");
        let game = new_match(15, 3, 7);
        let mut bot = null_mut();
        assert_eq!(buttonup_bot_new(10, 1, &mut bot), ButtonupStatus::Ok);
        for n in NUMBERS {
            let mut next = null_mut();
            answered(buttonup_position_play(p, n, &mut next, null_mut()));
            buttonup_position_free(next);
            answered(buttonup_match_play(game, n, null_mut()));
            answered(buttonup_solve(p, n, &mut 0));
            let mut values = [ButtonupMoveValue { pile: 0, value: 0 }; 32];
            let mut count = 0usize;
            answered(buttonup_analyze(p, n, values.as_mut_ptr(), 1, &mut count));
        }
        // A time limit past what a clock can add (the search's deadline is now plus
        // the limit), on a battle big enough to be searched with it.
        let big = parse("W/R/B/W/B/R/R/W/B/W/R/B r");
        for ms in [0, 1, u64::from(u32::MAX), u64::MAX / 2, u64::MAX] {
            for position in [p, big] {
                let mut pile = 0u32;
                let status = buttonup_bot_choose(bot, position, null(), ms, &mut pile);
                assert_eq!(answered(status), ButtonupStatus::Ok, "{}", last_error());
            }
        }
        buttonup_position_free(big);
        buttonup_bot_free(bot);
        buttonup_match_free(game);
        buttonup_position_free(p);
    }
}

#[test]
fn a_null_output_is_refused_before_anything_is_made() {
    // What this guards against: the notation and the record made first and leaked, and
    // analyze with NULL values and room for 32 writing through NULL.
    let position = parse("W/R/B/W/B/R/R/W/B r");
    let status = unsafe { buttonup_position_notation(position, null_mut()) };
    assert_eq!(answered(status), ButtonupStatus::NullArgument);
    let game = new_match(15, 3, 7);
    let status = unsafe { buttonup_match_record(game, null_mut()) };
    assert_eq!(answered(status), ButtonupStatus::NullArgument);
    assert_eq!(
        counted(|count| unsafe { buttonup_analyze(position, 1, null_mut(), 32, count) }),
        (ButtonupStatus::NullArgument, 99),
        "a failure writes nothing"
    );
    unsafe {
        buttonup_match_free(game);
        buttonup_position_free(position);
    }
}

#[test]
fn a_count_only_call_succeeds_and_other_failures_write_nothing() {
    let position = parse("W/R/B/W/B/R/R/W/B r");
    assert_eq!(
        counted(|count| unsafe { buttonup_position_legal_moves(position, null_mut(), 0, count) }),
        (ButtonupStatus::Ok, 3)
    );
    assert_eq!(
        counted(|count| unsafe { buttonup_analyze(position, 1, null_mut(), 0, count) }),
        (ButtonupStatus::Ok, 3)
    );
    // Too little room: refused, and *count untouched.
    let mut moves = [0u32; 2];
    assert_eq!(
        counted(|count| unsafe {
            buttonup_position_legal_moves(position, moves.as_mut_ptr(), 2, count)
        }),
        (ButtonupStatus::InvalidArgument, 99)
    );
    unsafe { buttonup_position_free(position) };
}

#[test]
fn any_thread_count_is_held_to_the_core_s_maximum() {
    // u32::MAX threads asked for: the analysis runs (on at most 256) and answers.
    let position = parse("W/R/B/W/B/R/R/W/B r");
    let mut values = [ButtonupMoveValue { pile: 0, value: 0 }; 32];
    assert_eq!(
        counted(|count| unsafe {
            buttonup_analyze(position, u32::MAX, values.as_mut_ptr(), 32, count)
        }),
        (ButtonupStatus::Ok, 3)
    );
    unsafe { buttonup_position_free(position) };
}

#[test]
fn a_search_refuses_null_and_a_finished_battle_and_writes_nothing() {
    let start = parse("W/R/B/W/B/R/R/W/B r");
    let over = parse("RBWWBRWBR b");
    let untouched = ButtonupSearchResult {
        pile: 99,
        value: 0.5,
        exact: false,
        depth: 99,
        nodes: 99,
        threads: 99,
    };
    let mut result = untouched;
    unsafe {
        let status = buttonup_search(null(), 1, 1, 0, 0, &mut result);
        assert_eq!(answered(status), ButtonupStatus::NullArgument);
        let status = buttonup_search(start, 1, 1, 0, 0, null_mut());
        assert_eq!(answered(status), ButtonupStatus::NullArgument);
        let status = buttonup_search(over, 1, 0, 0, 0, &mut result);
        assert_eq!(answered(status), ButtonupStatus::IllegalMove);
        assert_eq!(
            last_error(),
            "the battle is over: there is no move to choose"
        );
        assert_eq!(
            (result.pile, result.depth),
            (untouched.pile, untouched.depth)
        );
        // Unlimited: exact, the standard start's best move and value (docs/rules.md).
        let status = buttonup_search(start, 1, 0, 0, 0, &mut result);
        assert_eq!(answered(status), ButtonupStatus::Ok, "{}", last_error());
        assert!(result.exact);
        assert_eq!((result.pile, result.value), (3, 1.0));
        // Every limit past its range is no error.
        for (depth, nodes, ms) in [(u32::MAX, 0, 0), (0, u64::MAX, 0), (0, 0, u64::MAX)] {
            let status = buttonup_search(start, 1, depth, nodes, ms, &mut result);
            assert_eq!(answered(status), ButtonupStatus::Ok, "{}", last_error());
        }
        buttonup_position_free(start);
        buttonup_position_free(over);
    }
}
