//! Rules 6 to 9 in Rust: the scoring breakdown, the standing after a battle, and a
//! whole match with deals, the tie rule, undo and refused calls.

use buttonup::game::match_rules::{Match, MatchError};
use buttonup::game::notation::parse;
use buttonup::game::standing::{check_target, Next, Standing, StandingError};
use buttonup::Player::{Black, Red};

#[test]
fn scoring_names_every_strength() {
    // The worked example of the rules: Red 1 + 6 + 9, Black 2 + 5 + 8.
    let scoring = parse("RBWWBRWBR b").unwrap().scoring().unwrap();
    assert_eq!(scoring.strengths(Red).collect::<Vec<_>>(), [1, 6, 9]);
    assert_eq!(scoring.strengths(Black).collect::<Vec<_>>(), [2, 5, 8]);
    assert_eq!((scoring.red, scoring.black, scoring.margin()), (16, 15, 1));
    assert_eq!((scoring.winner(), scoring.points()), (Some(Red), 1));
    assert!(parse("W/R b").unwrap().scoring().is_none());
    let drawn = parse("RBWBR r").unwrap().scoring().unwrap();
    assert_eq!((drawn.winner(), drawn.points()), (None, 0));
}

#[test]
fn the_standing_follows_rules_8_and_9() {
    let start = Standing::new(15, 3, Black).unwrap();
    assert_eq!(start.next(), Next::Starts(Black));
    // A draw before any decided battle: the first starter again.
    assert_eq!(start.after_battle(0).next(), Next::Starts(Black));
    let red_ahead = start.after_battle(3);
    assert_eq!((red_ahead.red, red_ahead.black), (3, 0));
    assert_eq!(red_ahead.next(), Next::Starts(Black));
    // Level scores: the loser of the latest decided battle chooses, draws aside.
    let level = red_ahead.after_battle(-3);
    assert_eq!(level.next(), Next::Chooses(Red));
    assert_eq!(level.after_battle(0).next(), Next::Chooses(Red));
    assert_eq!(level.after_battle(-12).next(), Next::Won(Black));
    assert!(check_target(0).is_err() && check_target(1001).is_err());
    assert!(Standing::new(0, 3, Red).is_err() && Standing::new(15, 11, Red).is_err());
    // The tie rule's choice, and only when one is due.
    let chosen = level.choose(Black).unwrap();
    assert_eq!(
        (chosen.next(), chosen.starter),
        (Next::Starts(Black), Some(Black))
    );
    assert_eq!(chosen.after_battle(0).next(), Next::Chooses(Red));
    assert_eq!(red_ahead.choose(Red), Err(StandingError::NoChoiceDue));
    for standing in [start, red_ahead, level, chosen, level.after_battle(-12)] {
        assert_eq!(standing.check(), Ok(()), "{standing:?}");
    }
}

#[test]
fn impossible_standings_are_refused() {
    let at = Standing::standard;
    for (standing, reason) in [
        (at(0, 0, None, None), "at 0-0 the starter of the first battle must be given"),
        (at(0, 0, Some(Red), Some(Red)), "Red cannot have lost a battle while Black has no points"),
        (at(4, 4, None, None), "at 4-4 the last loser must be given: he chooses who starts"),
        (at(3, 5, Some(Red), Some(Black)), "Red is behind and so starts the next battle, not Black"),
        (at(15, 15, Some(Red), None), "both players have reached the target"),
        (at(40, 3, Some(Black), None), "Red cannot have 40 points: a match ends at the target of 15, and a battle is worth at most 18"),
        (at(16, 3, Some(Red), None), "Red has won the match, so Black lost the last battle"),
        (at(16, 3, Some(Black), Some(Black)), "the match is over, so no battle has a starter"),
    ] {
        assert_eq!(
            standing.check().unwrap_err().to_string(),
            format!("impossible standing: {reason}")
        );
    }
    for standing in [
        at(3, 5, None, None),
        at(3, 5, Some(Red), Some(Red)),
        at(3, 5, Some(Black), None),
        at(7, 7, Some(Black), None),
        at(7, 7, Some(Black), Some(Red)),
        at(32, 3, Some(Black), None),
    ] {
        assert_eq!(standing.check(), Ok(()), "{standing:?}");
    }
}

#[test]
fn a_scripted_match_and_its_refusals() {
    let order = "WRBWBRRWB";
    let mut game = Match::new(Red, 3, 3, 1, &[order; 4]).unwrap();
    assert_eq!(game.position().to_string(), "W/R/B/W/B/R/R/W/B r");
    assert_eq!(game.battle_position(), Some(game.position()));
    assert!(matches!(game.undo(), Err(MatchError::NothingToUndo)));
    assert!(matches!(game.play(1), Err(MatchError::Illegal(_))));
    assert_eq!(game.position().to_string(), "W/R/B/W/B/R/R/W/B r");
    // The perfect line of the rules: Red wins by 1.
    for mv in [3, 0, 0, 1, 3, 3] {
        game.play(mv).unwrap();
    }
    assert_eq!(game.movers(), [Red, Black, Red, Red, Red, Black]);
    game.play(2).unwrap();
    assert_eq!(game.undo().unwrap(), 2);
    game.play(2).unwrap();
    let last = game.play(0).unwrap();
    assert_eq!(last.outcome.position.to_string(), "RBWWBRWBR b");
    assert_eq!(
        (last.outcome.extra_move, last.drops.as_slice()),
        (false, &[1; 5][..])
    );
    assert_eq!(game.battles().len(), 1);
    assert_eq!(game.standing().red, 1);
    assert_eq!(game.standing().starter, Some(Black));
    // Black is behind and starts the second battle, from the second deal.
    assert_eq!(game.starter(), Black);
    assert_eq!(game.position().to_string(), "W/R/B/W/B/R/R/W/B b");
    assert!(matches!(
        game.choose_starter(Red),
        Err(MatchError::Standing(StandingError::NoChoiceDue))
    ));
    assert!(matches!(game.undo(), Err(MatchError::NothingToUndo)));
}

#[test]
fn bad_deals_are_refused_up_front() {
    let error = Match::new(Red, 15, 3, 0, &["WRBWBRRWB", "WRX"]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "deal 2: unknown button 'X' at index 2: a start order is one letter a pile, 'R', 'B' or 'W'"
    );
    let error = Match::new(Red, 15, 3, 0, &["WRB"]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "deal 1 does not have 3 buttons of each colour"
    );
}

#[test]
fn a_seed_gives_the_same_match() {
    let play = |seed| {
        let mut game = Match::new(Red, 15, 3, seed, &[]).unwrap();
        while game.winner().is_none() {
            if let Some(chooser) = game.chooser() {
                assert_eq!(
                    (game.battle_position(), game.standing().starter),
                    (None, None)
                );
                game.choose_starter(chooser).unwrap();
                assert_eq!(game.standing().starter, Some(chooser));
            } else {
                let mv = game.legal_moves()[0];
                game.play(mv).unwrap();
            }
        }
        assert_eq!(game.battle_position(), None);
        assert!(game.legal_moves().is_empty());
        game.battles().to_vec()
    };
    assert_eq!(play(7), play(7));
    assert_ne!(play(7), play(8));
}

#[test]
fn drops_name_the_receiving_piles() {
    // Two piles after the lifted one receive a button each, wrapping round.
    let p = parse("W/R/BW/W/R/R/B/B r").unwrap();
    assert_eq!(p.drops(2).unwrap(), [3, 4]);
    let wrap = parse("R/B/W/B/R/R/W/B/W r").unwrap();
    assert_eq!(wrap.drops(8).unwrap(), [0]);
    // Overflow: three buttons, two other piles: the last one takes the rest.
    let overflow = parse("RBW/BR/WW r").unwrap();
    assert_eq!(overflow.drops(0).unwrap(), [1, 2, 2]);
    assert!(overflow.drops(5).is_err());
}

#[test]
fn a_battle_debugs_as_its_positions_notation() {
    let mut game = Match::new(Red, 15, 3, 7, &["WRBWBRRWB"]).unwrap();
    while game.battles().is_empty() {
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
    }
    let text = format!("{:?}", game.battles()[0]);
    assert!(
        text.contains(r#"start: Position("W/R/B/W/B/R/R/W/B r")"#),
        "{text}"
    );
    let last = game.battles()[0].last;
    assert!(
        text.contains(&format!("last: Position(\"{last}\")")),
        "{text}"
    );
    assert!(!text.contains("cells"), "{text}");
}
