//! Negamax alpha-beta search.
//!
//! Values are for the side to move. An extra move keeps the same player to move, so the
//! value of such a child is taken as it is, not negated. Every move removes one pile, so
//! a position with `P` piles has exactly `P - 1` plies left: a search at least that deep
//! is exact, and a transposition entry that deep holds the true game value.

use super::entry::{Bound, Entry};
use super::key::table_key;
use super::ordering::ordered_children;
use super::payoff::Payoff;
use super::searcher::Searcher;
use crate::game::rules::{Player, Position};
use crate::run::clock::Instant;

/// Positions with at least this many piles are solved by null-window tests from the
/// horizon's guess (below, one full-window search costs less than the tests).
const DEEPEN_FROM_PILES: usize = 16;

/// Up to this many piles those tests are made at the exact depth at once: the order of
/// the children (piles woken, ordering.rs) orders them as well as shallower iterations
/// did, for less (docs/benchmarks.md: the 8-per-colour starts of seeds 1-16 in 4.5
/// rather than 5.7 s on one thread, 2.6-2.9 rather than 3.7-3.8 s on two). Above, the
/// iterations pay (9 of each colour: as fast in all, the median slower without them).
const ONE_ITERATION_UP_TO_PILES: usize = 24;

/// The plies between two iterations of an exact solve's deepening: the horizon
/// estimate's values swing from one depth to the next, and an iteration costs about as
/// much as all those before it, so a few well-spaced iterations order the exact one as
/// well as every depth does, for much less (docs/benchmarks.md: by 8 rather than 4, the
/// 9-per-colour starts of seeds 1-6 took a median of 1.6-1.7 s against 2.2-2.3 s on
/// two threads, 10 of each colour 65, 53 and 81 s against 68, 55 and 104 s; by 6 or 12
/// slower there).
const DEEPEN_STEP: u32 = 8;

/// The depths of an exact solve's iterations: the exact one at once up to
/// [`ONE_ITERATION_UP_TO_PILES`], else a deepening by [`DEEPEN_STEP`] to it.
pub(super) fn exact_depths(position: &Position) -> impl Iterator<Item = u32> {
    let plies_left = position.pile_count().saturating_sub(1) as u32;
    let step = if position.pile_count() <= ONE_ITERATION_UP_TO_PILES {
        plies_left
    } else {
        DEEPEN_STEP
    };
    deepening_depths(plies_left.max(1), step.max(1))
}

/// The depths of a deepening by `step` plies up to the exact one, `plies_left`, counted
/// down from it (an exact solve's by [`DEEPEN_STEP`]).
pub(super) fn deepening_depths(plies_left: u32, step: u32) -> impl Iterator<Item = u32> {
    let first = match plies_left % step {
        0 => step,
        rest => rest,
    };
    (first..=plies_left).step_by(step as usize)
}

/// How a root iteration ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Root {
    /// It finished: the value at its depth and the best move.
    Done(f64, usize),
    /// It was cut short (a limit, a stop or an interruption). `proven` is the move of
    /// its last finished test that failed high, if any: at this depth it is worth at
    /// least that test's bound, and every move tried before it in that test less. The
    /// tests try the last iteration's best move first, so `proven` is that move, or one
    /// this deeper search found better (at the exact depth: better in truth, which is
    /// where a limited search plays it).
    CutShort { proven: Option<usize> },
}

impl Searcher {
    /// The exact value of `position` for its side to move under perfect play, on this
    /// thread. Not exact if [`was_cut_short`](Self::was_cut_short) (a stop or an
    /// interruption).
    pub(super) fn solve_alone(&mut self, position: &Position) -> f64 {
        self.begin(None, None, false);
        self.exact_estimates();
        let value = if position.pile_count() < DEEPEN_FROM_PILES || position.is_over() {
            self.exact_value(position)
        } else {
            // Iterative deepening: each iteration's stored best moves order the next, and
            // its value is the next one's first guess.
            let mut value = self.horizon(position);
            for depth in exact_depths(position) {
                match self.root(position, depth, Some(value), true) {
                    Root::Done(found, _) => value = found,
                    Root::CutShort { .. } => break,
                }
            }
            value
        };
        self.finish();
        value
    }

    /// The exact value of every legal move, for the side to move, on this thread; not
    /// exact if [`was_cut_short`](Self::was_cut_short), which a `deadline` passed makes
    /// it.
    pub(super) fn analyze_alone(
        &mut self,
        position: &Position,
        deadline: Option<Instant>,
    ) -> Vec<(usize, f64)> {
        self.begin(None, deadline, deadline.is_some());
        self.exact_estimates();
        let side = position.to_move();
        let values = position
            .legal_moves()
            .map(|mv| {
                let child = position.play_unchecked(mv).position;
                (mv, self.exact_child_value(side, &child))
            })
            .collect();
        self.finish();
        values
    }

    /// The stored entry of `key` that this search may use at `position` searched to
    /// `depth` plies.
    #[inline(always)]
    pub(super) fn usable(&self, key: u128, position: &Position, depth: u32) -> Option<Entry> {
        let plies_left = position.pile_count() as u32 - 1;
        self.table.probe(key).filter(|e| {
            // A bound from a search to the end holds whatever search stored it (tables
            // are cleared when the payoff changes).
            e.generation == self.generation
                || (self.reuse_exact && depth >= plies_left && u32::from(e.depth) >= plies_left)
        })
    }

    fn exact_value(&mut self, position: &Position) -> f64 {
        let depth = position.pile_count() as u32;
        self.negamax(position, depth, f64::NEG_INFINITY, f64::INFINITY)
    }

    fn exact_child_value(&mut self, side: Player, child: &Position) -> f64 {
        let value = self.exact_value(child);
        if child.to_move() == side {
            value
        } else {
            -value
        }
    }

    /// One root iteration. With the margin as payoff every value is a whole number, and
    /// the iteration is a series of null-window tests that close in on the value from
    /// `guess` (MTD(f)); otherwise one full-window search. With `widen` (exact solves),
    /// tests that fail the same way in a row step twice as far each time, and once the
    /// value is bracketed they halve the gap: a horizon's guess can be far off (a
    /// 10-per-colour start guessed 26 from 8 plies short, its value +1: 26 tests one
    /// point apart, docs/benchmarks.md).
    pub(super) fn root(
        &mut self,
        position: &Position,
        depth: u32,
        guess: Option<f64>,
        widen: bool,
    ) -> Root {
        let Some(guess) = guess.filter(|_| self.payoff == Payoff::Margin) else {
            return match self.root_window(position, depth, f64::NEG_INFINITY, f64::INFINITY) {
                Some((value, best)) => Root::Done(value, best),
                None => Root::CutShort { proven: None },
            };
        };
        let (mut lower, mut upper) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut beta = guess.round();
        let mut best = None;
        // How far beyond the last bound the next test goes: one point (MTD(f): the
        // next test at the value found, one above it after a fail high); with `widen`,
        // doubled after each test that failed as the last, until both sides are bounded.
        let mut step = 1.0;
        let mut last_high = None;
        while lower < upper {
            let Some((found, mv)) = self.root_window(position, depth, beta - 1.0, beta) else {
                return Root::CutShort { proven: best };
            };
            let high = found >= beta;
            if high {
                lower = found;
                best = Some(mv);
            } else {
                upper = found;
            }
            if widen && last_high == Some(high) {
                step *= 2.0;
            }
            last_high = Some(high);
            beta = if widen && lower.is_finite() && upper.is_finite() {
                // Between two bounds: halve the gap (a test at `beta` tells `< beta` from
                // `>= beta`, so `lower < beta <= upper`).
                ((lower + upper + 1.0) / 2.0).floor()
            } else if high {
                lower + step
            } else {
                upper + 1.0 - step
            };
        }
        let value = lower;
        match best {
            Some(best) => Root::Done(value, best),
            None => Root::CutShort { proven: None },
        }
    }

    /// A root search within the window `(alpha, beta)`: the value (fail-soft) and the
    /// move that gave it.
    fn root_window(
        &mut self,
        position: &Position,
        depth: u32,
        mut alpha: f64,
        beta: f64,
    ) -> Option<(f64, usize)> {
        let key = table_key(position, self.merge_colours);
        let hint = self.usable(key, position, depth).map(|e| e.best);
        let children = ordered_children(position, hint, self.helper);
        let side = position.to_move();
        let original_alpha = alpha;
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        for child in &children {
            let value = self.child_value(side, &child.position, depth - 1, alpha, beta);
            if self.aborted {
                return None;
            }
            if best.is_none() || value > best_value {
                best_value = value;
                best = Some(child.mv);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        let best = best?;
        let bound = Bound::of(best_value, original_alpha, beta);
        self.store(key, best_value, depth, bound, best);
        Some((best_value, best))
    }

    /// The value of `child` for `side` (who moved to it), searched `depth` plies in
    /// the window `(alpha, beta)` for `side`.
    pub(super) fn child_value(
        &mut self,
        side: Player,
        child: &Position,
        depth: u32,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        if child.to_move() == side {
            self.negamax(child, depth, alpha, beta)
        } else {
            -self.negamax(child, depth, -beta, -alpha)
        }
    }

    fn negamax(&mut self, position: &Position, depth: u32, alpha: f64, beta: f64) -> f64 {
        self.negamax_keyed(position, None, depth, alpha, beta)
    }

    #[inline(always)]
    pub(super) fn store(&mut self, key: u128, value: f64, depth: u32, bound: Bound, best: usize) {
        self.table.store(Entry {
            key,
            value,
            depth: depth.min(u32::from(u8::MAX)) as u8,
            bound,
            // A pile index: below `MAX_BUTTONS`.
            best: best as u8,
            generation: self.generation,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::{random_start, SplitMix64};

    /// Tests that widen their steps and halve the gap find the value that tests one
    /// point apart find, and a move worth it, from guesses near and far.
    #[test]
    fn widened_tests_find_the_value_of_mtdf() {
        let mut rng = SplitMix64::new(33);
        for per_colour in [3, 4, 5] {
            for _ in 0..3 {
                let start = random_start(per_colour, Player::Red, &mut rng).unwrap();
                let exact = start.pile_count() as u32 - 1;
                let mut plain = Searcher::new(Payoff::Margin, 1 << 20);
                plain.begin(None, None, false);
                let Root::Done(value, _) = plain.root(&start, exact, Some(0.0), false) else {
                    panic!("not cut short")
                };
                for guess in [-60.0, -7.0, value - 1.0, value, value + 1.0, 9.0, 60.0] {
                    let mut searcher = Searcher::new(Payoff::Margin, 1 << 20);
                    searcher.begin(None, None, false);
                    let Root::Done(found, best) = searcher.root(&start, exact, Some(guess), true)
                    else {
                        panic!("not cut short")
                    };
                    assert_eq!(found, value, "{start} from {guess}");
                    searcher.finish();
                    let child = start.play_unchecked(best).position;
                    let worth = if child.to_move() == start.to_move() {
                        searcher.solve(&child)
                    } else {
                        -searcher.solve(&child)
                    };
                    assert_eq!(worth, value, "{start}: move {best} from {guess}");
                }
            }
        }
    }
}
