//! Match odds: the graph evaluation against searching every start, and the rules' edge
//! cases against direct computations.

use buttonup::odds::MatchOdds;
use buttonup::search::{Payoff, Searcher};
use buttonup::variant::start_positions;
use buttonup::Player;

/// Red's value of a battle by searching every start with the match payoff.
fn searched(
    odds: &mut MatchOdds,
    red: u32,
    black: u32,
    starter: Player,
    chooser: Option<Player>,
) -> f64 {
    let mut searcher = Searcher::new(odds.payoff(red, black, starter, chooser), 1 << 22);
    let starts = start_positions(3, starter).expect("standard game");
    let total: f64 = starts
        .iter()
        .map(|s| {
            let v = searcher.solve(s);
            let red_value = if starter == Player::Red { v } else { -v };
            (red_value + 1.0) / 2.0
        })
        .sum();
    total / starts.len() as f64
}

#[test]
fn graph_values_equal_searched_values_with_non_monotone_payoffs() {
    let mut odds = MatchOdds::new(15, 3).unwrap();
    let mut non_monotone = 0;
    for (red, black, chooser) in [
        (0, 0, None),
        (3, 5, None),
        (12, 13, None),
        (7, 7, Some(Player::Black)),
        (13, 11, None),
    ] {
        for starter in [Player::Red, Player::Black] {
            let draw = odds.draw_value(red, black, starter, chooser);
            let values = odds.margin_values(red, black, draw);
            non_monotone += usize::from(values.windows(2).any(|w| w[0] > w[1]));
            let expected = searched(&mut odds, red, black, starter, chooser);
            let got = odds.win_probability(red, black, starter, chooser);
            assert!(
                (got - expected).abs() < 1e-12,
                "{red}-{black} {starter:?}: {got} vs {expected}"
            );
        }
    }
    assert!(
        non_monotone > 0,
        "the checks should include non-monotone payoffs"
    );
}

/// Red's share of won and drawn starts under perfect margin play.
fn shares(starter: Player) -> (f64, f64) {
    let mut searcher = Searcher::new(Payoff::Margin, 1 << 22);
    let starts = start_positions(3, starter).expect("standard game");
    let (mut won, mut drawn) = (0.0, 0.0);
    for s in &starts {
        let v = searcher.solve(s);
        let red = if starter == Player::Red { v } else { -v };
        if red > 0.0 {
            won += 1.0;
        } else if red == 0.0 {
            drawn += 1.0;
        }
    }
    let n = starts.len() as f64;
    (won / n, drawn / n)
}

#[test]
fn fourteen_all_is_the_share_of_won_battles() {
    let mut odds = MatchOdds::new(15, 3).unwrap();
    let [(wr, dr), (wb, db)] = [shares(Player::Red), shares(Player::Black)];
    // A draw at 14-14 sends the choice back to the chooser.
    let fixed = [wr / (1.0 - dr), wb / (1.0 - db)];
    for chooser in [Player::Red, Player::Black] {
        let tie = match chooser {
            Player::Red => fixed[0].max(fixed[1]),
            Player::Black => fixed[0].min(fixed[1]),
        };
        let direct = [wr + dr * tie, wb + db * tie];
        for (i, starter) in [Player::Red, Player::Black].into_iter().enumerate() {
            let got = odds.win_probability(14, 14, starter, Some(chooser));
            assert!((got - direct[i]).abs() < 1e-12);
        }
    }
}

#[test]
fn probabilities_are_bounded_and_colour_symmetric() {
    let mut odds = MatchOdds::new(15, 3).unwrap();
    for red in 0..15 {
        for black in 0..15 {
            for chooser in [None, Some(Player::Red), Some(Player::Black)] {
                let p = odds.win_probability(red, black, Player::Red, chooser);
                let mirrored =
                    odds.win_probability(black, red, Player::Black, chooser.map(Player::other));
                assert!((0.0..=1.0).contains(&p));
                assert!((p + mirrored - 1.0).abs() < 1e-12, "{red}-{black}");
            }
        }
    }
    assert_eq!(odds.win_probability(15, 3, Player::Black, None), 1.0);
    assert_eq!(odds.win_probability(3, 15, Player::Red, None), 0.0);
}

#[test]
fn variants_and_bad_targets() {
    assert!(MatchOdds::new(15, 4).is_err());
    assert!(MatchOdds::new(0, 3).is_err());
    let mut small = MatchOdds::new(5, 2).unwrap();
    let p = small.win_probability(0, 0, Player::Red, None);
    assert!(p > 0.0 && p < 1.0);
}
