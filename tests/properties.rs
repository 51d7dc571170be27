//! Property tests (proptest) of arbitrary valid positions up to `MAX_BUTTONS` buttons:
//! every move against a plain model of rules 2 to 6 written here, and the notation
//! round trip.

use buttonup::game::notation::parse;
use buttonup::{Colour, Player, Position, MAX_BUTTONS};
use proptest::prelude::*;

/// The plain model: piles as vectors of letters, bottom first.
type Piles = Vec<Vec<char>>;

/// Rules 3 and 4 on the model: the piles after lifting `lifted`, and the extra move.
fn sow(piles: &Piles, lifted: usize) -> (Piles, bool) {
    let buttons = piles[lifted].clone();
    let others: Vec<usize> = (lifted + 1..piles.len()).chain(0..lifted).collect();
    let mut after = piles.clone();
    let (k, m) = (buttons.len(), others.len());
    let extra = if k <= m {
        for (button, &target) in buttons.iter().zip(&others) {
            after[target].push(*button);
        }
        let landed_on = *piles[others[k - 1]].last().unwrap();
        landed_on == buttons[k - 1] && m > 1
    } else {
        for (button, &target) in buttons.iter().zip(&others[..m - 1]) {
            after[target].push(*button);
        }
        after[others[m - 1]].extend(&buttons[m - 1..]);
        false
    };
    after.remove(lifted);
    (after, extra)
}

fn letters(position: &Position) -> Piles {
    position
        .piles()
        .map(|pile| pile.map(Colour::letter).collect())
        .collect()
}

/// Any valid position: 1 to `MAX_BUTTONS` buttons, at least one white, cut into piles.
fn positions() -> impl Strategy<Value = (Piles, bool)> {
    (1..=MAX_BUTTONS)
        .prop_flat_map(|n| {
            (
                prop::collection::vec(prop::sample::select(vec!['R', 'B', 'W']), n),
                prop::collection::vec(any::<bool>(), n),
                0..n,
                any::<bool>(),
            )
        })
        .prop_map(|(mut buttons, cuts, white, red)| {
            buttons[white] = 'W';
            let mut piles: Piles = vec![vec![buttons[0]]];
            for (button, cut) in buttons.iter().zip(&cuts).skip(1) {
                if *cut {
                    piles.push(vec![*button]);
                } else if let Some(last) = piles.last_mut() {
                    last.push(*button);
                }
            }
            (piles, red)
        })
}

fn notation(piles: &Piles, red: bool) -> String {
    let piles: Vec<String> = piles.iter().map(|p| p.iter().collect()).collect();
    format!("{} {}", piles.join("/"), if red { 'r' } else { 'b' })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn notation_round_trips((piles, red) in positions()) {
        let text = notation(&piles, red);
        let position = parse(&text).unwrap();
        prop_assert_eq!(position.to_string(), text);
        prop_assert_eq!(letters(&position), piles);
    }

    #[test]
    fn every_move_agrees_with_the_model((piles, red) in positions()) {
        let position = parse(&notation(&piles, red)).unwrap();
        let legal: Vec<usize> = (0..piles.len())
            .filter(|&p| piles.len() > 1 && piles[p].contains(&'W'))
            .collect();
        prop_assert_eq!(position.legal_moves().collect::<Vec<_>>(), legal.clone());
        for p in 0..piles.len() + 2 {
            match position.play(p) {
                Ok(outcome) => {
                    prop_assert!(legal.contains(&p));
                    let (after, extra) = sow(&piles, p);
                    prop_assert_eq!(letters(&outcome.position), after);
                    prop_assert_eq!(outcome.extra_move, extra);
                    let mover = position.to_move();
                    let next = if extra { mover } else { mover.other() };
                    prop_assert_eq!(outcome.position.to_move(), next);
                }
                Err(_) => prop_assert!(!legal.contains(&p)),
            }
        }
        if piles.len() == 1 {
            let scoring = position.scoring().unwrap();
            let sum = |c| piles[0].iter().enumerate().filter(|(_, &b)| b == c).map(|(i, _)| i as u32 + 1).sum::<u32>();
            prop_assert_eq!((scoring.red, scoring.black), (sum('R'), sum('B')));
            prop_assert_eq!(scoring.strengths(Player::Red).sum::<u32>(), scoring.red);
        } else {
            prop_assert!(position.scoring().is_none());
        }
    }
}
