//! Iterative deepening: the search a caller runs with limits, reporting each finished
//! iteration, and the result it returns.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::eval::Estimate;
use super::limits::{Iteration, Limits, SearchResult};
use super::negamax::{exact_depths, Root};
use super::ordering::ordered_children;
use super::searcher::Searcher;
use crate::game::rules::Position;
use crate::run::clock::Instant;
use crate::run::interrupt::interrupted;

/// Below this many piles (the standard game's start has 9) an exact search reports
/// every depth, which costs next to nothing there; from it, it iterates as an exact
/// solve does (the exact depth at once, or every 8 plies from 25 piles), the depths
/// before costing more than they order: level 9's exact battles at 5 of each colour
/// took half as long again with every depth (`benches/bot_battle.py`).
const EVERY_DEPTH_BELOW_PILES: usize = 10;

/// How far short of the end a limited search deepens every depth: its cheap first
/// iterations, whose move it plays if its later ones do not finish. From there it
/// iterates as an exact solve does (the exact depth at once up to 24 piles, else every
/// 8 plies counted down from it), the fastest way to the end: the depths between cost
/// more than they order (docs/performance.md).
const EVERY_DEPTH_UP_TO_PLIES_SHORT: u32 = 16;

/// How far below the last iteration's value a limited search's exact iteration makes its
/// first null-window test. That value overestimates the exact one for the side to move:
/// at 8 of each colour, 8 plies short of the end, by 2.6 points on average (183
/// positions of `benches/big_ai.py`, 140 of them too high), the side to move choosing
/// last among estimates that err both ways. Tests near the value each cost about a
/// whole search, one a point, whichever way they fail, so a first test nearer the
/// value saves whole tests: 16% of the exact iteration's positions on 60 of those
/// positions with 3 points below, 13% with 6 (docs/performance.md, "Iterations
/// and tests"). From 16 plies short (up to 24 piles) 0, 3 and 6 points below reached
/// the end as soon: 8.7, 9.1 and 9.6 s for 360 positions of 8 of each colour.
const EXACT_GUESS_BELOW: f64 = 3.0;

/// The depths of a search's iterations. Without limits, an exact solve's (the exact depth
/// at once, or a few spaced iterations for the biggest positions). Within a depth limit,
/// every depth up to it (the result is the last one's, whose move ordering the others
/// prepare). Within a time or node limit, every depth up to
/// [`EVERY_DEPTH_UP_TO_PLIES_SHORT`] plies short of the end, then an exact solve's
/// depths beyond them (measured in docs/ai.md, "Level 9 within a time").
fn iteration_depths(limits: &Limits, max_depth: u32, position: &Position) -> Vec<u32> {
    let plies_left = position.pile_count() as u32 - 1;
    if limits.are_none() && position.pile_count() >= EVERY_DEPTH_BELOW_PILES {
        return exact_depths(position).collect();
    }
    if limits.depth.is_some() || limits.are_none() {
        return (1..=max_depth).collect();
    }
    let shallow = plies_left
        .saturating_sub(EVERY_DEPTH_UP_TO_PLIES_SHORT)
        .max(1);
    (1..=shallow)
        .chain(exact_depths(position).filter(|&d| d > shallow))
        .collect()
}

impl Searcher {
    /// An iterative-deepening search within `limits` on this thread, telling `progress`
    /// of every finished iteration; the search stops after an iteration for which
    /// `progress` returns `false`.
    pub(super) fn deepen(
        &mut self,
        position: &Position,
        limits: &Limits,
        progress: &mut dyn FnMut(&Iteration) -> bool,
    ) -> SearchResult {
        let started = Instant::now();
        // A limit past the clock's range is no deadline at all (not an overflow panic).
        let deadline = limits.time.and_then(|t| started.checked_add(t));
        self.begin(limits.nodes, deadline, true);
        if limits.are_none() {
            self.exact_estimates();
        } else {
            self.estimate = Estimate::for_limited_search();
        }
        let plies_left = position.pile_count() as u32 - 1;
        let max_depth = limits
            .depth
            .unwrap_or(plies_left)
            .clamp(1, plies_left.max(1));
        let children = ordered_children(position, None, self.helper);
        let mut result = SearchResult {
            best_move: children.first().map(|c| c.mv),
            value: if position.is_over() {
                self.payoff.terminal(position)
            } else {
                self.horizon(position)
            },
            exact: position.is_over(),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
            threads: self.running_threads,
        };
        if !position.is_over() {
            let mut last_pv = Vec::new();
            for depth in iteration_depths(limits, max_depth, position) {
                // The exact iteration's first test a little below the last value: see
                // `EXACT_GUESS_BELOW`.
                let below = if depth >= plies_left {
                    EXACT_GUESS_BELOW
                } else {
                    0.0
                };
                let guess = Some(result.value - below);
                // The exact iteration orders its children as an exact solve does (by the
                // network near the root), and so reaches the end sooner
                // (docs/performance.md); the shallower ones ordering so chose no better.
                if depth >= plies_left {
                    self.sorting_by_net = self.net_order;
                }
                let (value, best) = match self.root(position, depth, guess, limits.are_none()) {
                    Root::Done(value, best) => (value, best),
                    Root::CutShort { proven } => {
                        // The exact iteration's word on the move (better in truth than
                        // the last iteration's, when it differs), though not on its
                        // value. Not a shallower one's: the horizon's values swing from
                        // one depth to the next, and there a move that fails high was
                        // measured to blunder now and then (`benches/big_ai.py`, node
                        // budgets at 9 and 10 of each colour).
                        if depth >= plies_left {
                            result.best_move = proven.or(result.best_move);
                        }
                        break;
                    }
                };
                result.value = value;
                result.best_move = Some(best);
                result.depth = depth;
                result.exact = depth >= plies_left;
                let iteration = Iteration {
                    depth,
                    value,
                    exact: result.exact,
                    nodes: self.nodes,
                    // An exact iteration's line is proven move by move: the table's best
                    // moves are those of null-window tests, not always best.
                    pv: if result.exact {
                        self.exact_line(position, value, Some(best))
                    } else {
                        self.table_line(position, Some(best), depth)
                    },
                    elapsed: started.elapsed(),
                    threads: self.running_threads,
                };
                let go_on = progress(&iteration);
                last_pv = iteration.pv;
                if !go_on || self.should_stop() {
                    break;
                }
            }
            if result.exact {
                // The line of an exact result is wanted whole: the limits no longer hold
                // (the tests below are cheap after the search), a stop still does.
                self.abortable = false;
                self.aborted = self.stop.load(Ordering::Relaxed) || interrupted();
                // Of the moves that achieve the value, the first clockwise.
                result.best_move = self
                    .first_best_move(position, result.value)
                    .or(result.best_move);
            }
            result.pv = if result.exact {
                self.exact_line(position, result.value, result.best_move)
            } else {
                self.table_line(position, result.best_move, result.depth)
            };
            // A line cut short by a stop: the last iteration's line, if it is longer and
            // starts with the best move.
            if self.aborted
                && last_pv.len() > result.pv.len()
                && last_pv.first() == result.best_move.as_ref()
            {
                result.pv = last_pv;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = started.elapsed();
        self.finish();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::{random_start, SplitMix64};
    use crate::search::Payoff;
    use crate::Player;

    /// The depths a search within a time (long enough to finish) reports.
    fn depths_within_a_time(position: &Position) -> Vec<u32> {
        let mut searcher = Searcher::new(Payoff::Margin, 1 << 20);
        let limits = Limits {
            time: Some(Duration::from_secs(600)),
            ..Limits::default()
        };
        let mut depths = Vec::new();
        let result = searcher.search_with(position, &limits, &mut |iteration| {
            depths.push(iteration.depth);
            true
        });
        assert!(result.exact, "{position}");
        depths
    }

    /// A random battle of `per_colour` buttons of each colour played down to `piles`.
    fn played_down_to(per_colour: usize, piles: usize, seed: u64) -> Position {
        let mut position =
            random_start(per_colour, Player::Red, &mut SplitMix64::new(seed)).unwrap();
        let mut rng = SplitMix64::new(seed + 1);
        while position.pile_count() > piles {
            let moves: Vec<usize> = position.legal_moves().collect();
            position = position
                .play_unchecked(moves[rng.next_u64() as usize % moves.len()])
                .position;
        }
        position
    }

    #[test]
    fn a_search_within_a_time_deepens_every_depth_to_16_plies_short_then_as_a_solve() {
        // 18 buttons, 17 plies: depth 1, then the exact one at once, to the end.
        let small = random_start(6, Player::Red, &mut SplitMix64::new(5)).unwrap();
        assert_eq!(depths_within_a_time(&small), vec![1, 17]);
        let timed = Limits {
            time: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        // 30 piles, 29 plies: every depth to 13, then every eighth counted down from 29.
        let start = random_start(10, Player::Red, &mut SplitMix64::new(5)).unwrap();
        let mut expected: Vec<u32> = (1..=13).collect();
        expected.extend([21, 29]);
        assert_eq!(iteration_depths(&timed, 29, &start), expected);
        assert_eq!(
            exact_depths(&start).filter(|&d| d > 13).collect::<Vec<_>>(),
            [21, 29],
            "the depths of an exact solve",
        );
        // 27 buttons on 24 piles: every depth to 7, then the exact one, as a solve does.
        let big = played_down_to(9, 24, 5);
        let mut expected: Vec<u32> = (1..=7).collect();
        expected.push(23);
        assert_eq!(iteration_depths(&timed, 23, &big), expected);
        // A node limit deepens the same way; a depth limit through every depth.
        let nodes = Limits {
            nodes: Some(1_000),
            ..Limits::default()
        };
        assert_eq!(iteration_depths(&nodes, 23, &big), expected);
        let depth = Limits {
            depth: Some(12),
            ..Limits::default()
        };
        assert_eq!(
            iteration_depths(&depth, 12, &big),
            (1..=12).collect::<Vec<_>>()
        );
    }

    #[test]
    fn every_iteration_to_the_end_reports_a_line_of_best_moves() {
        // The line of an iteration comes from the table, less the last plies (valued
        // without it, near_end.rs), which an earlier, shallower iteration may have
        // stored: each move of the line must be best to the end.
        let mut rng = SplitMix64::new(31);
        let mut judge = Searcher::new(Payoff::Margin, 1 << 20);
        for per_colour in [3, 3, 4, 5] {
            let start = random_start(per_colour, Player::Red, &mut rng).unwrap();
            let mut searcher = Searcher::new(Payoff::Margin, 1 << 20);
            let mut lines = Vec::new();
            let result = searcher.search_with(&start, &Limits::default(), &mut |iteration| {
                if iteration.exact {
                    lines.push(iteration.pv.clone());
                }
                true
            });
            assert!(result.exact && !lines.is_empty(), "{start}");
            for line in lines.iter().chain([&result.pv]) {
                let mut position = start;
                for &mv in line {
                    let value = judge.solve(&position);
                    let child = position.play(mv).unwrap().position;
                    let after = judge.solve(&child);
                    let after = if child.to_move() == position.to_move() {
                        after
                    } else {
                        -after
                    };
                    assert_eq!(after, value, "{start}: {line:?}, {mv} at {position}");
                    position = child;
                }
                assert!(position.is_over(), "{start}: {line:?} stops at {position}");
            }
        }
    }
}
