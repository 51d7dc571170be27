//! The C library fails as the Python library does: for the same input, the
//! status of the same kind of error (docs/reliability.md, "Error kinds") and the same
//! message. The messages are written here as Python gives them (checked with the Python
//! library; tests/rules/test_errors.py holds the same literals for the Python door).

use std::ffi::CString;
use std::ptr::{null, null_mut};

use buttonup_c::*;

mod common;
use common::{last_error, new_match, parse};

/// The status and the message of a call that must fail.
#[track_caller]
fn failed(status: ButtonupStatus) -> (ButtonupStatus, String) {
    assert_ne!(status, ButtonupStatus::Ok);
    (status, last_error())
}

/// Checks that the match refuses a move as an illegal move, in `message`.
#[track_caller]
fn move_refused(game: *mut ButtonupMatch, message: &str) {
    assert_eq!(
        failed(unsafe { buttonup_match_play(game, 0, null_mut()) }),
        (ButtonupStatus::IllegalMove, message.to_string())
    );
}

/// Plays the first legal move of the match's current battle.
fn play_first_move(game: *mut ButtonupMatch) {
    unsafe {
        let mut position = null_mut();
        assert_eq!(
            buttonup_match_position(game, &mut position),
            ButtonupStatus::Ok
        );
        let mut moves = [0u32; BUTTONUP_MAX_BUTTONS];
        let mut count = 0;
        let status =
            buttonup_position_legal_moves(position, moves.as_mut_ptr(), moves.len(), &mut count);
        assert_eq!(status, ButtonupStatus::Ok);
        buttonup_position_free(position);
        assert!(count > 0);
        assert_eq!(
            buttonup_match_play(game, moves[0], null_mut()),
            ButtonupStatus::Ok
        );
    }
}

fn state(game: *mut ButtonupMatch) -> (ButtonupPlayer, ButtonupPlayer) {
    let (mut winner, mut chooser) = (ButtonupPlayer::None, ButtonupPlayer::None);
    assert_eq!(
        unsafe { buttonup_match_state(game, &mut winner, &mut chooser) },
        ButtonupStatus::Ok
    );
    (winner, chooser)
}

#[test]
fn a_move_on_a_won_match_is_an_illegal_move() {
    // Python: Match(target=1, per_colour=1, seed=0), its first legal moves: Black wins.
    let game = new_match(1, 1, 0);
    while state(game).0 == ButtonupPlayer::None {
        play_first_move(game);
    }
    assert_eq!(state(game).0, ButtonupPlayer::Black);
    move_refused(game, "the match is over: Black won");
    // Not a move: a request the match refuses.
    assert_eq!(
        failed(unsafe { buttonup_match_undo(game, null_mut()) }),
        (
            ButtonupStatus::MatchError,
            "there is no move of the current battle to take back".to_string()
        )
    );
    unsafe { buttonup_match_free(game) };
}

#[test]
fn a_move_while_a_starter_must_be_chosen_is_an_illegal_move() {
    // Python: Match(target=15, per_colour=3, seed=1), its first legal moves: the first
    // battle is drawn and Red must choose.
    let game = new_match(15, 3, 1);
    while state(game).1 == ButtonupPlayer::None {
        assert_eq!(state(game).0, ButtonupPlayer::None, "won before a draw");
        play_first_move(game);
    }
    assert_eq!(state(game).1, ButtonupPlayer::Red);
    move_refused(game, "Red must first choose who starts the next battle");
    assert_eq!(
        unsafe { buttonup_match_choose_starter(game, 2) },
        ButtonupStatus::Ok
    );
    assert_eq!(
        failed(unsafe { buttonup_match_choose_starter(game, 1) }),
        (
            ButtonupStatus::MatchError,
            "no choice of starter is due".to_string()
        )
    );
    unsafe { buttonup_match_free(game) };
}

#[test]
fn the_scoring_of_a_battle_that_goes_on_is_refused_in_pythons_words() {
    let p = parse("W/R/B/W/B/R/R/W/B r");
    let mut scoring = std::mem::MaybeUninit::<ButtonupScoring>::uninit();
    assert_eq!(
        failed(unsafe { buttonup_position_scoring(p, scoring.as_mut_ptr()) }),
        (
            ButtonupStatus::WrongState,
            "the battle is not over: it has more than one pile".to_string()
        )
    );
    let mut over = true;
    assert_eq!(
        unsafe { buttonup_position_is_over(p, &mut over) },
        ButtonupStatus::Ok
    );
    assert!(!over);
    unsafe { buttonup_position_free(p) };
}

#[test]
fn a_finished_battle_has_no_move_in_pythons_words() {
    let last = parse("RBWWBRWBR b");
    let mut over = false;
    assert_eq!(
        unsafe { buttonup_position_is_over(last, &mut over) },
        ButtonupStatus::Ok
    );
    assert!(over);
    let mut next = null_mut();
    assert_eq!(
        failed(unsafe { buttonup_position_play(last, 0, &mut next, null_mut()) }),
        (
            ButtonupStatus::IllegalMove,
            "the battle is over: no pile can be lifted".to_string()
        )
    );
    let mut bot = null_mut();
    assert_eq!(
        unsafe { buttonup_bot_new(3, 1, &mut bot) },
        ButtonupStatus::Ok
    );
    let mut pile = 0;
    assert_eq!(
        failed(unsafe { buttonup_bot_choose(bot, last, null(), 0, &mut pile) }),
        (
            ButtonupStatus::IllegalMove,
            "the battle is over: there is no move to choose".to_string()
        )
    );
    unsafe {
        buttonup_bot_free(bot);
        buttonup_position_free(last);
    }
}

#[test]
fn out_of_range_counts_and_bad_records_are_told_as_python_tells_them() {
    let mut position = null_mut();
    assert_eq!(
        failed(unsafe { buttonup_position_random(0, 1, 1, &mut position) }),
        (
            ButtonupStatus::InvalidArgument,
            "per_colour must be from 1 to 10, not 0".to_string()
        )
    );
    assert_eq!(
        failed(unsafe { buttonup_position_random(11, 1, 1, &mut position) }),
        (
            ButtonupStatus::InvalidArgument,
            "per_colour must be from 1 to 10, not 11".to_string()
        )
    );
    let mut game = null_mut();
    assert_eq!(
        failed(unsafe { buttonup_match_new(1, 0, 3, 1, &mut game) }),
        (
            ButtonupStatus::InvalidArgument,
            "target must be from 1 to 1000, not 0".to_string()
        )
    );
    let mut bot = null_mut();
    assert_eq!(
        failed(unsafe { buttonup_bot_new(11, 1, &mut bot) }),
        (
            ButtonupStatus::InvalidArgument,
            "level must be an int from 1 to 10, not 11".to_string()
        )
    );
    let text = CString::new("garbage").unwrap();
    assert_eq!(
        failed(unsafe { buttonup_match_from_record(text.as_ptr(), &mut game) }),
        (
            ButtonupStatus::RecordError,
            "line 1, at 'garbage': unknown token 'garbage': expected a battle number such as \
             '2.', a start order, 'r' or 'b', a move such as '3' or '0+', a value such as \
             '(+1)', a comment in braces, a result such as 'R+1', 'B+2' or '=', or a score \
             such as '5-3'"
                .to_string()
        )
    );
    assert!(game.is_null());
}
