//! `buttonup_bot_stop` ends a `buttonup_bot_choose` of another thread at once, even an
//! exact one (`time_limit_ms` 0) on 30 piles, whose moves are solved on several threads
//! (the stop must reach those threads, not only the one that asked).

use std::ptr::{null, null_mut};
use std::time::{Duration, Instant};

use buttonup_c::*;

struct Shared(*const ButtonupBot);
// SAFETY: the library's bot is made to be stopped from another thread.
unsafe impl Send for Shared {}

#[test]
fn a_stop_ends_an_exact_move_on_thirty_piles() {
    let mut position = null_mut();
    let mut bot = null_mut();
    // SAFETY: every pointer is valid or NULL where the header allows it.
    unsafe {
        assert_eq!(
            buttonup_position_random(10, ButtonupPlayer::Red as u32, 3, &mut position),
            ButtonupStatus::Ok
        );
        assert_eq!(buttonup_bot_new(9, 1, &mut bot), ButtonupStatus::Ok);
    }
    let shared = Shared(bot);
    let stopper = std::thread::spawn(move || {
        let shared = shared;
        std::thread::sleep(Duration::from_millis(100));
        // SAFETY: the bot lives until the move is back and this thread is joined.
        assert_eq!(unsafe { buttonup_bot_stop(shared.0) }, ButtonupStatus::Ok);
        Instant::now()
    });
    let mut pile = u32::MAX;
    // SAFETY: as above; `pile` is writable.
    let status = unsafe { buttonup_bot_choose(bot, position, null(), 0, &mut pile) };
    let answered = Instant::now();
    let stopped = stopper.join().unwrap();
    assert_eq!(status, ButtonupStatus::Ok);
    assert!(pile < 30, "pile {pile}");
    let late = answered.saturating_duration_since(stopped);
    // A generous bound on a shared machine: before the fix no move came in a minute.
    assert!(late < Duration::from_secs(10), "{late:?} after the stop");
    // SAFETY: both were made above and are freed once.
    unsafe {
        buttonup_bot_free(bot);
        buttonup_position_free(position);
    }
}
