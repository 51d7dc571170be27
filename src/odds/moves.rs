//! The match odds of the moves of a battle played in a match: each move's position
//! solved with the match payoff of that battle.

use std::cell::RefCell;

use crate::game::rules::{Player, Position};
use crate::run::interrupt::Interrupted;
use crate::search::{Payoff, Searcher};

/// The table of each thread's searcher (cleared whenever the payoff changes, so small).
pub const MOVE_TABLE_BYTES: usize = 1 << 20;

thread_local! {
    static MATCH_SEARCHER: RefCell<Searcher> =
        RefCell::new(Searcher::new(Payoff::Margin, MOVE_TABLE_BYTES));
}

/// Runs `f` on this thread's searcher for match payoffs (or on a fresh one if it is
/// busy), the one every door's match odds use.
pub fn with_match_searcher<T>(f: impl FnOnce(&mut Searcher) -> T) -> T {
    MATCH_SEARCHER.with(|s| match s.try_borrow_mut() {
        Ok(mut searcher) => f(&mut searcher),
        Err(_) => f(&mut Searcher::new(Payoff::Margin, MOVE_TABLE_BYTES)),
    })
}

/// The mover's probability of winning the match after each legal move of `position`, in
/// legal-move order; `payoff` is the match payoff of its battle
/// ([`MatchOdds::payoff`](super::MatchOdds::payoff)). The moves are solved on
/// `searcher`, on up to `threads` threads where the search says that pays (each thread
/// then on a table of its own; the same values).
pub fn move_chances(
    payoff: &Payoff,
    position: &Position,
    threads: usize,
    searcher: &mut Searcher,
) -> Result<Vec<(usize, f64)>, Interrupted> {
    searcher.set_payoff(payoff.clone());
    searcher.set_threads(threads);
    let values = searcher.analyze(position);
    if searcher.was_cut_short() {
        return Err(Interrupted);
    }
    // Values for the mover of `2u - 1`, `u` his probability.
    Ok(values
        .into_iter()
        .map(|(mv, value)| (mv, (value + 1.0) / 2.0))
        .collect())
}

/// Red's probability of winning the match from `position` under perfect match play: the
/// mover's best of [`move_chances`], seen from Red (the payoff's own value once the
/// battle is over).
pub fn red_chance(
    payoff: &Payoff,
    position: &Position,
    threads: usize,
    searcher: &mut Searcher,
) -> Result<f64, Interrupted> {
    let mover = if position.is_over() {
        (payoff.terminal(position) + 1.0) / 2.0
    } else {
        let chances = move_chances(payoff, position, threads, searcher)?;
        chances
            .into_iter()
            .map(|(_, chance)| chance)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    Ok(match position.to_move() {
        Player::Red => mover,
        Player::Black => 1.0 - mover,
    })
}
