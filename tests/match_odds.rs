//! Match odds: the graph evaluation against searching every start, and the rules' edge
//! cases against direct computations.

use buttonup::game::standing::{Next, Standing, StandingError};
use buttonup::game::variant::start_positions;
use buttonup::odds::{move_chances, red_chance, MatchOdds};
use buttonup::search::{Payoff, Searcher};
use buttonup::{MatchError, Player};

/// Red's value of a battle by searching every start with the match payoff.
fn searched(odds: &mut MatchOdds, at: &Standing) -> f64 {
    let starter = at.starter.unwrap();
    let mut searcher = Searcher::new(odds.payoff(at).unwrap(), 1 << 22);
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
    for (red, black, last_loser) in [
        (0, 0, None),
        (3, 5, Some(Player::Red)),
        (12, 13, Some(Player::Black)),
        (7, 7, Some(Player::Black)),
        (13, 11, Some(Player::Red)),
    ] {
        for starter in [Player::Red, Player::Black] {
            let at = Standing::standard(red, black, last_loser, Some(starter));
            if at.check().is_err() {
                continue; // the player behind starts
            }
            let draw = odds.draw_value(&at);
            let values = odds.margin_values(&at, draw);
            non_monotone += usize::from(values.windows(2).any(|w| w[0] > w[1]));
            let expected = searched(&mut odds, &at);
            let got = odds.win_probability(&at).unwrap();
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
            let got = odds
                .win_probability(&Standing::standard(14, 14, Some(chooser), Some(starter)))
                .unwrap();
            assert!((got - direct[i]).abs() < 1e-12);
        }
        // The choice still due: the chooser's better choice.
        let due = odds
            .win_probability(&Standing::standard(14, 14, Some(chooser), None))
            .unwrap();
        assert!((due - tie).abs() < 1e-12);
    }
}

#[test]
fn probabilities_are_bounded_and_colour_symmetric() {
    let mut odds = MatchOdds::new(15, 3).unwrap();
    let mirror = |p: Option<Player>| p.map(Player::other);
    let mut checked = 0;
    for red in 0..15 {
        for black in 0..15 {
            for last_loser in [None, Some(Player::Red), Some(Player::Black)] {
                for starter in [None, Some(Player::Red), Some(Player::Black)] {
                    let at = Standing::standard(red, black, last_loser, starter);
                    if at.check().is_err() {
                        continue;
                    }
                    let p = odds.win_probability(&at).unwrap();
                    let mirrored =
                        Standing::standard(black, red, mirror(last_loser), mirror(starter));
                    let mirrored = odds.win_probability(&mirrored).unwrap();
                    assert!((0.0..=1.0).contains(&p));
                    assert!((p + mirrored - 1.0).abs() < 1e-12, "{red}-{black}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 600, "{checked}");
    let won = Standing::standard(15, 3, Some(Player::Black), None);
    assert_eq!(odds.win_probability(&won).unwrap(), 1.0);
    let lost = Standing::standard(3, 15, Some(Player::Red), None);
    assert_eq!(odds.win_probability(&lost).unwrap(), 0.0);
    assert!(matches!(
        odds.payoff(&won),
        Err(MatchError::Standing(StandingError::NoBattle(Next::Won(
            Player::Red
        ))))
    ));
    // With unequal scores the last loser changes nothing and may be left out.
    let behind = odds
        .win_probability(&Standing::standard(3, 5, None, None))
        .unwrap();
    let told = odds
        .win_probability(&Standing::standard(3, 5, Some(Player::Red), None))
        .unwrap();
    assert_eq!(behind, told);
    let impossible = Standing::standard(4, 4, None, None);
    assert!(matches!(
        odds.win_probability(&impossible),
        Err(MatchError::Standing(StandingError::Impossible(_)))
    ));
}

#[test]
fn a_battle_is_worth_the_best_of_its_moves() {
    // Averaged over every start, the mover's best move is the battle's value.
    let mut odds = MatchOdds::new(5, 2).unwrap();
    let at = Standing {
        target: 5,
        per_colour: 2,
        ..Standing::standard(1, 3, Some(Player::Red), None)
    };
    let payoff = odds.payoff(&at).unwrap();
    let mut searcher = Searcher::new(Payoff::Margin, 1 << 20);
    let starts = start_positions(2, Player::Red).unwrap();
    let mut total = 0.0;
    for start in &starts {
        let one = red_chance(&payoff, start, 1, &mut searcher).unwrap();
        assert_eq!(red_chance(&payoff, start, 3, &mut searcher).unwrap(), one);
        let moves = move_chances(&payoff, start, 1, &mut searcher).unwrap();
        assert_eq!(
            move_chances(&payoff, start, 2, &mut searcher).unwrap(),
            moves
        );
        let best = moves.iter().map(|&(_, c)| c).fold(0.0, f64::max);
        assert_eq!(best, one);
        total += one;
    }
    let mean = total / starts.len() as f64;
    assert!((mean - odds.win_probability(&at).unwrap()).abs() < 1e-12);
}

#[test]
fn variants_and_bad_targets() {
    assert!(MatchOdds::new(15, 4).is_err());
    assert!(MatchOdds::new(0, 3).is_err());
    let mut small = MatchOdds::new(5, 2).unwrap();
    let first = Standing::new(5, 2, Player::Red).unwrap();
    let p = small.win_probability(&first).unwrap();
    assert!(p > 0.0 && p < 1.0);
    // A standing of another match than the table's.
    assert!(small
        .win_probability(&Standing::new(15, 3, Player::Red).unwrap())
        .is_err());
}
