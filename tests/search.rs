//! The search against a plain minimax written from the rules, with no table
//! (tests/common).

mod common;

use std::sync::atomic::Ordering;
use std::time::Duration;

use buttonup::game::notation::{parse, parse_start};
use buttonup::game::rng::{random_start, SplitMix64};
use buttonup::search::{Limits, Payoff, Searcher};
use buttonup::Player;

use common::minimax;

fn searcher() -> Searcher {
    Searcher::new(Payoff::Margin, 1 << 22)
}

#[test]
fn the_worked_example_is_worth_plus_one() {
    let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
    assert_eq!(searcher().solve(&start), 1.0);
    assert_eq!(minimax(&start), 1);
}

#[test]
fn solve_and_analyze_agree_with_minimax_on_random_starts() {
    let mut s = searcher();
    let mut rng = SplitMix64::new(99);
    for per_colour in [2, 3] {
        for _ in 0..150 {
            let side = if rng.below(2) == 0 {
                Player::Red
            } else {
                Player::Black
            };
            let start = random_start(per_colour, side, &mut rng).unwrap();
            assert_eq!(s.solve(&start), f64::from(minimax(&start)), "{start}");
            for (mv, value) in s.analyze(&start) {
                let child = start.play_unchecked(mv).position;
                let expected = if child.to_move() == side {
                    minimax(&child)
                } else {
                    -minimax(&child)
                };
                assert_eq!(value, f64::from(expected), "{start} move {mv}");
            }
        }
    }
}

/// A random position `moves` random moves after a random start of `per_colour` of each
/// colour (or sooner, if the battle ends).
fn random_position(per_colour: usize, moves: usize, rng: &mut SplitMix64) -> buttonup::Position {
    let side = if rng.below(2) == 0 {
        Player::Red
    } else {
        Player::Black
    };
    let mut position = random_start(per_colour, side, rng).unwrap();
    for _ in 0..moves {
        let legal: Vec<usize> = position.legal_moves().collect();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len() as u64) as usize];
        position = position.play_unchecked(mv).position;
    }
    position
}

#[test]
fn solve_agrees_with_minimax_on_random_positions_of_bigger_variants() {
    // Positions of 4 to 6 of each colour a few moves in: the lookahead at the children
    // (prefetched keys, transposition cutoffs) and the last move valued directly; one
    // table for all, so entries of earlier solves are met too.
    let mut s = searcher();
    let mut rng = SplitMix64::new(2026);
    for (per_colour, moves, count) in [(4, 0, 40), (4, 3, 40), (5, 4, 30), (6, 7, 20)] {
        for _ in 0..count {
            let position = random_position(per_colour, moves, &mut rng);
            assert_eq!(
                s.solve(&position),
                f64::from(minimax(&position)),
                "{position}"
            );
        }
    }
}

#[test]
fn solve_agrees_with_its_children_where_it_deepens() {
    // From 16 piles a solve deepens (every eighth depth, then the exact one). A position
    // of 16 piles is worth the best of its children's values, and those (15 piles) are
    // solved by one exact search, which the tests above hold to minimax.
    let mut rng = SplitMix64::new(7);
    for _ in 0..4 {
        let position = random_position(6, 2, &mut rng);
        assert_eq!(position.pile_count(), 16, "{position}");
        let side = position.to_move();
        let best = position
            .legal_moves()
            .map(|mv| {
                let child = position.play_unchecked(mv).position;
                let value = searcher().solve(&child);
                if child.to_move() == side {
                    value
                } else {
                    -value
                }
            })
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(searcher().solve(&position), best, "{position}");
    }
}

#[test]
fn unlimited_search_is_exact_with_a_line_that_achieves_the_value() {
    let mut s = searcher();
    let mut rng = SplitMix64::new(5);
    for _ in 0..100 {
        let start = random_start(3, Player::Red, &mut rng).unwrap();
        let result = s.search(&start, &Limits::default());
        assert!(result.exact);
        assert_eq!(result.value, f64::from(minimax(&start)));
        assert_eq!(result.pv.first().copied(), result.best_move);
        let mut p = start;
        for &mv in &result.pv {
            p = p.play(mv).expect("pv move is legal").position;
        }
        assert!(p.is_over());
        let margin = f64::from(p.margin().unwrap());
        let expected = if start.to_move() == Player::Red {
            margin
        } else {
            -margin
        };
        assert_eq!(result.value, expected, "{start}");
    }
}

#[test]
fn limited_searches_return_legal_moves() {
    let (mut s, start) = (searcher(), parse_start("WRBWBRRWB", Player::Red).unwrap());
    let depth_one = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let by_nodes = [0, 1, 5, 50].map(|nodes| Limits {
        nodes: Some(nodes),
        ..Limits::default()
    });
    let no_time = Limits {
        time: Some(Duration::ZERO),
        ..Limits::default()
    };
    for limits in [depth_one].iter().chain(&by_nodes).chain([&no_time]) {
        let r = s.search(&start, limits);
        assert!(start.is_legal(r.best_move.unwrap()), "{limits:?}");
        if limits.depth.is_some() {
            assert_eq!((r.depth, r.exact), (1, false));
        }
    }
}

#[test]
fn a_time_limit_past_the_clocks_range_is_no_limit() {
    let mut s = searcher();
    let start = parse_start("WRBWBRRWB", Player::Red).unwrap();
    let r = s.search(
        &start,
        &Limits {
            time: Some(Duration::MAX),
            ..Limits::default()
        },
    );
    assert!(r.exact);
    assert_eq!(r.value, s.solve(&start));
}

#[test]
fn a_search_stopped_from_another_thread_returns_a_legal_move() {
    let mut s = Searcher::new(Payoff::Margin, 1 << 20);
    let big = random_start(10, Player::Red, &mut SplitMix64::new(3)).unwrap();
    let flag = s.stop_flag();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, Ordering::Relaxed);
    });
    let result = s.search(&big, &Limits::default());
    stopper.join().unwrap();
    assert!(!result.exact);
    assert!(big.is_legal(result.best_move.unwrap()));
    assert!(result.elapsed < Duration::from_secs(5));
}

#[test]
fn table_payoffs_change_what_is_best() {
    // Red only cares about winning: +1 for any positive margin, -1 for any negative.
    let values: Vec<f64> = (-45..=45).map(|d: i32| f64::from(d.signum())).collect();
    let mut s = Searcher::new(Payoff::table(-45, values), 1 << 20);
    let mut margin = searcher();
    let mut rng = SplitMix64::new(8);
    for _ in 0..100 {
        let start = random_start(3, Player::Red, &mut rng).unwrap();
        let v = margin.solve(&start);
        assert_eq!(s.solve(&start), v.signum() * f64::from(v != 0.0), "{start}");
    }
}

#[test]
fn a_tiny_table_still_gives_exact_values() {
    let mut s = Searcher::new(Payoff::Margin, 64);
    let mut rng = SplitMix64::new(4);
    for _ in 0..20 {
        let start = random_start(3, Player::Black, &mut rng).unwrap();
        assert_eq!(s.solve(&start), f64::from(minimax(&start)));
    }
}

/// A limited search cut short in its last, exact iteration plays the move that iteration
/// proved before the cut: the previous iteration's move, or one truly better than it.
#[test]
fn a_search_cut_short_in_its_exact_iteration_keeps_what_it_proved() {
    let mut rng = SplitMix64::new(33);
    let (mut changed, mut cut_in_exact) = (0, 0);
    for _ in 0..12 {
        let start = random_start(6, Player::Red, &mut rng).unwrap();
        let values: Vec<(usize, i32)> = buttonup::search::analyze(&start, 1).unwrap();
        let value_of = |mv: usize| values.iter().find(|&&(m, _)| m == mv).unwrap().1;
        // The whole search once, for its schedule of depths and its node count.
        let mut depths = Vec::new();
        let whole = Limits {
            nodes: Some(u64::MAX),
            ..Limits::default()
        };
        let full = searcher().search_with(&start, &whole, &mut |it| {
            depths.push(it.depth);
            true
        });
        assert!(full.exact);
        let before_exact = depths[depths.len() - 2];
        for tenths in 3..10 {
            let limits = Limits {
                nodes: Some(full.nodes * tenths / 10),
                ..Limits::default()
            };
            let mut last = None;
            let cut = searcher().search_with(&start, &limits, &mut |it| {
                last = Some((it.depth, it.pv[0]));
                true
            });
            let Some((depth, previous)) = last else {
                continue;
            };
            if cut.exact || depth != before_exact {
                continue;
            }
            cut_in_exact += 1;
            let played = cut.best_move.unwrap();
            assert!(value_of(played) >= value_of(previous), "{start} {limits:?}");
            if played != previous {
                changed += 1;
                assert!(value_of(played) > value_of(previous), "{start} {limits:?}");
            }
        }
    }
    // The cases this test is about happened.
    assert!(
        cut_in_exact >= 10 && changed >= 1,
        "{cut_in_exact} cut, {changed} changed"
    );
}
