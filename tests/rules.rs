//! Unit tests of the Rust rules: sowing, overflow, extra moves, scoring, notation and
//! errors.

use buttonup::game::error::{IllegalMove, NotationError, PositionError};
use buttonup::game::notation::{parse, parse_start};
use buttonup::game::perft::perft;
use buttonup::game::rng::{random_start, SplitMix64};
use buttonup::game::scoring::max_margin;
use buttonup::{Colour, Player, Position, MAX_BUTTONS};

fn pos(text: &str) -> Position {
    parse(text).expect(text)
}

#[test]
fn notation_round_trips() {
    for text in ["W/R/B/W/B/R/R/W/B r", "RBW/BR/WW b", "RBWWBRWBR b", "W r"] {
        assert_eq!(pos(text).to_string(), text);
    }
    // White space around and between the fields is allowed and dropped.
    assert_eq!(pos("  W/R\t b\n").to_string(), "W/R b");
}

#[test]
fn piles_are_read_bottom_first() {
    let p = pos("RW/B/WWB r");
    let piles: Vec<String> = p
        .piles()
        .map(|pile| pile.map(Colour::letter).collect())
        .collect();
    assert_eq!(piles, ["RW", "B", "WWB"]);
    assert_eq!((p.pile_count(), p.button_count()), (3, 6));
    assert_eq!(p.to_move(), Player::Red);
}

#[test]
fn legal_moves_are_the_piles_with_white() {
    let p = pos("RW/B/WWB/R/W b");
    assert_eq!(p.legal_moves().collect::<Vec<_>>(), [0, 2, 4]);
    assert!(!p.is_legal(1) && !p.is_legal(99));
}

#[test]
fn illegal_moves_say_why() {
    let p = pos("RW/B/W r");
    assert_eq!(
        p.play(1),
        Err(IllegalMove::NoWhite {
            pile: 1,
            buttons: "B".into()
        })
    );
    assert_eq!(
        p.play(3),
        Err(IllegalMove::NoSuchPile {
            pile: "3".into(),
            piles: 3
        })
    );
    assert_eq!(
        p.play(3).unwrap_err().to_string(),
        "there is no pile 3: the piles are numbered 0 to 2"
    );
    assert_eq!(pos("RWB r").play(0), Err(IllegalMove::BattleOver));
}

#[test]
fn extra_move_keeps_the_player() {
    let outcome = pos("RW/B/W/B/R/R/W/B r").play(0).unwrap();
    assert!(outcome.extra_move && !outcome.overflow);
    assert_eq!(outcome.position.to_move(), Player::Red);
    // Same colour for Black.
    let outcome = pos("B/W/RB b").play(1).unwrap();
    assert_eq!(outcome.position.to_string(), "B/RBW r");
    assert!(!outcome.extra_move);
    let outcome = pos("W/BB/W b").play(2).unwrap();
    assert_eq!(outcome.position.to_string(), "WW/BB b");
    assert!(outcome.extra_move);
}

#[test]
fn no_extra_move_after_an_overflow() {
    // W lands on W in the overflow, still no extra move.
    let outcome = pos("WBW/W r").play(0).unwrap();
    assert_eq!(outcome.position.to_string(), "WWBW b");
    assert!(outcome.overflow && !outcome.extra_move);
    let outcome = pos("RWW/W/W r").play(0).unwrap();
    assert_eq!(outcome.position.to_string(), "WR/WWW b");
    assert!(outcome.overflow && !outcome.extra_move);
}

#[test]
fn scoring_counts_heights() {
    let p = pos("RBWWBRWBR b");
    assert_eq!(p.sums(), Some((16, 15)));
    assert_eq!(p.margin(), Some(1));
    assert_eq!(pos("W/R r").sums(), None);
}

#[test]
fn every_battle_has_one_move_per_removed_pile() {
    let mut rng = SplitMix64::new(7);
    for per_colour in 1..=7 {
        for _ in 0..50 {
            let mut p = random_start(per_colour, Player::Red, &mut rng).unwrap();
            let mut moves = 0;
            while !p.is_over() {
                let legal: Vec<usize> = p.legal_moves().collect();
                assert!(!legal.is_empty(), "{p}: no legal move before the end");
                let mv = legal[rng.below(legal.len() as u64) as usize];
                let next = p.play(mv).unwrap().position;
                assert_eq!(next.button_count(), p.button_count());
                assert_eq!(next.pile_count(), p.pile_count() - 1);
                assert_eq!(parse(&next.to_string()).unwrap(), next);
                p = next;
                moves += 1;
            }
            assert_eq!(moves, 3 * per_colour - 1);
            let (red, black) = p.sums().unwrap();
            let n = 3 * per_colour as u32;
            assert!(red + black <= n * (n + 1) / 2);
            assert!(red.abs_diff(black) <= max_margin(per_colour) as u32);
        }
    }
}

#[test]
fn random_starts_are_reproducible_and_uniformish() {
    let a = random_start(3, Player::Red, &mut SplitMix64::new(42)).unwrap();
    let b = random_start(3, Player::Red, &mut SplitMix64::new(42)).unwrap();
    assert_eq!(a, b);
    // All 1,680 arrangements are reachable: count distinct starts over many seeds.
    let mut seen = std::collections::HashSet::new();
    let mut rng = SplitMix64::new(1);
    for _ in 0..40_000 {
        seen.insert(random_start(3, Player::Red, &mut rng).unwrap());
    }
    assert_eq!(seen.len(), 1680);
}

#[test]
fn notation_errors_name_the_problem() {
    let cases: &[(&str, NotationError)] = &[
        ("", NotationError::Empty),
        ("   ", NotationError::Empty),
        ("W/R", NotationError::MissingSide),
        ("W/R r x", NotationError::ExtraField { text: "x".into() }),
        ("W/R x", NotationError::BadSide { text: "x".into() }),
        ("W/R R", NotationError::BadSide { text: "R".into() }),
        (
            "W/X r",
            NotationError::BadButton {
                index: 2,
                character: 'X',
            },
        ),
        (
            "  W/w r",
            NotationError::BadButton {
                index: 4,
                character: 'w',
            },
        ),
        ("W//R r", PositionError::EmptyPile { pile: 1 }.into()),
        ("/W r", PositionError::EmptyPile { pile: 0 }.into()),
        ("W/ r", PositionError::EmptyPile { pile: 1 }.into()),
        ("R/B r", PositionError::NoWhite.into()),
        (
            "Wé r",
            NotationError::NonAscii {
                index: 1,
                character: 'é',
            },
        ),
    ];
    for (text, error) in cases {
        assert_eq!(parse(text).as_ref(), Err(error), "{text:?}");
    }
    let long = format!("{} r", "W".repeat(MAX_BUTTONS + 1));
    assert_eq!(
        parse(&long),
        Err(PositionError::TooManyButtons { max: MAX_BUTTONS }.into())
    );
    let huge = "W/".repeat(500_000);
    assert!(parse(&huge).is_err());
    assert_eq!(
        parse("W/R r x").unwrap_err().to_string(),
        "unexpected text after the side to move: 'x'"
    );
}

#[test]
fn start_orders() {
    let p = parse_start("WRBWBRRWB", Player::Black).unwrap();
    assert_eq!(p.to_string(), "W/R/B/W/B/R/R/W/B b");
    assert_eq!(
        parse_start("WRX", Player::Red),
        Err(NotationError::BadStartButton {
            index: 2,
            character: 'X'
        })
    );
    assert_eq!(parse_start("", Player::Red), Err(NotationError::Empty));
}

#[test]
fn the_largest_positions_work() {
    let text = format!("{}/W r", "R".repeat(MAX_BUTTONS - 1));
    let p = pos(&text);
    assert_eq!(p.button_count(), MAX_BUTTONS);
    let outcome = p.play(1).unwrap();
    assert_eq!(
        outcome.position.to_string(),
        format!("{}W b", "R".repeat(MAX_BUTTONS - 1))
    );
    let ones = format!("{} r", ["W"; MAX_BUTTONS].join("/"));
    assert_eq!(perft(&pos(&ones), 1), MAX_BUTTONS as u64);
    let spread = pos(&ones).play(MAX_BUTTONS - 1).unwrap().position;
    assert_eq!(
        spread.to_string(),
        format!("WW/{} r", ["W"; MAX_BUTTONS - 2].join("/"))
    );
}

#[test]
fn asking_for_a_pile_that_does_not_exist_gives_nothing() {
    let p = pos("RW/B r");
    assert_eq!(p.pile(2).count(), 0);
    assert_eq!(p.pile(1000).count(), 0);
    assert!(!p.is_legal(usize::MAX));
}
