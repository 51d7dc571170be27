//! Iterative deepening: the search a caller runs with limits, reporting each finished
//! iteration, and the result it returns.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::eval::Estimate;
use super::limits::{Iteration, Limits, SearchResult};
use super::negamax::{deepening_depths, exact_depths, Root};
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

/// The plies short of the end from which a limited search skips depths.
const NEAR_THE_END: u32 = 8;
/// The plies between its iterations there: the last two before the exact one (an exact
/// solve's own step, 8, would go from `NEAR_THE_END` plies short straight to the end).
const NEAR_THE_END_STEP: u32 = 4;
/// Up to this many buttons a limited search goes from [`NEAR_THE_END`] plies short
/// straight to the exact depth, whose solve the children's order (ordering.rs) made
/// affordable there: at 8 of each colour within 100 ms, 0.065 points a move against
/// 0.082 with the step of 4 (docs/performance.md). With more buttons the exact depth is
/// rarely reached in time, and the iteration 4 plies short is a better fallback than
/// the one 8 short (9 and 10 of each colour within 50 ms: moves of 41 and 55 points).
const STRAIGHT_TO_THE_END_UP_TO_BUTTONS: usize = 24;

/// How far below the last iteration's value a limited search's exact iteration makes its
/// first null-window test. That value overestimates the exact one for the side to move:
/// at 8 of each colour, 8 plies short of the end, by 2.6 points on average (183
/// positions of `benches/big_ai.py`, 140 of them too high), the side to move choosing
/// last among estimates that err both ways. Tests near the value each cost about a
/// whole search, one a point, whichever way they fail, so a first test nearer the
/// value saves whole tests: 16% of the exact iteration's positions on 60 of those
/// positions with 3 points below, 13% with 6 (docs/performance.md, "Iterations
/// and tests").
const EXACT_GUESS_BELOW: f64 = 3.0;

/// The depths of a search's iterations. Without limits, an exact solve's (the exact depth
/// at once, or a few spaced iterations for the biggest positions). Within a depth limit,
/// every depth up to it (the result is the last one's, whose move ordering the others
/// prepare). Within a time or
/// node limit, every depth up to [`NEAR_THE_END`] plies short of the end, then every
/// fourth, counted down from the exact depth (or the exact depth at once, up to
/// [`STRAIGHT_TO_THE_END_UP_TO_BUTTONS`] buttons): there an iteration costs about as
/// much as all those before it, so skipping depths reaches the exact one sooner, while a
/// search cut short further from the end keeps its move from as deep a depth as before
/// (measured in docs/ai.md, "Level 9 within a time").
fn iteration_depths(limits: &Limits, max_depth: u32, position: &Position) -> Vec<u32> {
    let plies_left = position.pile_count() as u32 - 1;
    if limits.are_none() && position.pile_count() >= EVERY_DEPTH_BELOW_PILES {
        return exact_depths(position).collect();
    }
    if limits.depth.is_some() || limits.are_none() {
        return (1..=max_depth).collect();
    }
    let shallow = plies_left.saturating_sub(NEAR_THE_END).max(1);
    let step = if position.button_count() <= STRAIGHT_TO_THE_END_UP_TO_BUTTONS {
        plies_left
    } else {
        NEAR_THE_END_STEP
    };
    (1..=shallow)
        .chain(deepening_depths(plies_left, step).filter(|&d| d > shallow))
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

    #[test]
    fn a_search_within_a_time_skips_depths_near_the_end() {
        // 18 buttons, 17 plies: every depth to 9, then the exact one at once.
        let small = random_start(6, Player::Red, &mut SplitMix64::new(5)).unwrap();
        let mut expected: Vec<u32> = (1..=9).collect();
        expected.push(17);
        assert_eq!(depths_within_a_time(&small), expected);
        // 27 buttons on 12 piles, 11 plies: depths 1 to 3, then every fourth to the end.
        let mut big = random_start(9, Player::Red, &mut SplitMix64::new(5)).unwrap();
        let mut rng = SplitMix64::new(6);
        while big.pile_count() > 12 {
            let moves: Vec<usize> = big.legal_moves().collect();
            big = big
                .play_unchecked(moves[rng.next_u64() as usize % moves.len()])
                .position;
        }
        assert!(big.button_count() > STRAIGHT_TO_THE_END_UP_TO_BUTTONS);
        assert_eq!(depths_within_a_time(&big), vec![1, 2, 3, 7, 11]);
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
