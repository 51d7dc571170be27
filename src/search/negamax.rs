//! Negamax alpha-beta search.
//!
//! Values are for the side to move. An extra move keeps the same player to move, so the
//! value of such a child is taken as it is, not negated. Every move removes one pile, so
//! a position with `P` piles has exactly `P - 1` plies left: a search at least that deep
//! is exact, and a transposition entry that deep holds the true game value.

use super::entry::{Bound, Entry};
use super::key::key;
use super::ordering::ordered_children;
use super::payoff::Payoff;
use super::searcher::Searcher;
use crate::game::rules::{Player, Position};
use crate::run::clock::Instant;

/// Positions with at least this many piles are solved by iterative deepening (below,
/// one exact search costs less than the iterations).
const DEEPEN_FROM_PILES: usize = 16;

/// The plies between two iterations of an exact solve's deepening: the horizon
/// estimate's values swing from one depth to the next, and an iteration costs about as
/// much as all those before it, so a few well-spaced iterations order the exact one as
/// well as every depth does, for much less (the 8-per-colour starts of seeds 1-6, one
/// thread: a median of 2.1 s by every depth, 1.3 s by 2, 0.9 s by 4, 1.1-1.3 s by 6
/// and 8).
const DEEPEN_STEP: u32 = 4;

/// The depths of an exact solve's iterations: every [`DEEPEN_STEP`]-th below the
/// exact one, `plies_left`, counted down from it.
pub(super) fn deepening_depths(plies_left: u32) -> impl Iterator<Item = u32> {
    let first = match plies_left % DEEPEN_STEP {
        0 => DEEPEN_STEP,
        rest => rest,
    };
    (first..=plies_left).step_by(DEEPEN_STEP as usize)
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
    /// The exact value of `position` for its side to move under perfect play.
    /// Not exact if [`was_cut_short`](Self::was_cut_short) (a stop or an interruption).
    pub fn solve(&mut self, position: &Position) -> f64 {
        self.begin(None, None, false);
        let value = if position.pile_count() < DEEPEN_FROM_PILES || position.is_over() {
            self.exact_value(position)
        } else {
            // Iterative deepening: each iteration's stored best moves order the next, and
            // its value is the next one's first guess.
            let plies_left = position.pile_count() as u32 - 1;
            let mut value = self.horizon(position);
            let depths = deepening_depths(plies_left);
            for depth in depths {
                match self.root(position, depth, Some(value)) {
                    Root::Done(found, _) => value = found,
                    Root::CutShort { .. } => break,
                }
            }
            value
        };
        self.finish();
        value
    }

    /// The exact value of every legal move, for the side to move (not exact if
    /// [`was_cut_short`](Self::was_cut_short)).
    pub fn analyze(&mut self, position: &Position) -> Vec<(usize, f64)> {
        self.analyze_with(position, None)
    }

    /// The exact value of every legal move, as [`analyze`](Self::analyze), or `None` if
    /// the analysis is not done by `deadline` (nor when stopped or interrupted).
    pub fn analyze_until(
        &mut self,
        position: &Position,
        deadline: Instant,
    ) -> Option<Vec<(usize, f64)>> {
        let values = self.analyze_with(position, Some(deadline));
        (!self.was_cut_short()).then_some(values)
    }

    fn analyze_with(
        &mut self,
        position: &Position,
        deadline: Option<Instant>,
    ) -> Vec<(usize, f64)> {
        self.begin(None, deadline, deadline.is_some());
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
    /// `guess` (MTD(f)); otherwise one full-window search.
    pub(super) fn root(&mut self, position: &Position, depth: u32, guess: Option<f64>) -> Root {
        let Some(guess) = guess.filter(|_| self.payoff == Payoff::Margin) else {
            return match self.root_window(position, depth, f64::NEG_INFINITY, f64::INFINITY) {
                Some((value, best)) => Root::Done(value, best),
                None => Root::CutShort { proven: None },
            };
        };
        let (mut lower, mut upper) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut value = guess.round();
        let mut best = None;
        while lower < upper {
            let beta = if value == lower { value + 1.0 } else { value };
            let Some((found, mv)) = self.root_window(position, depth, beta - 1.0, beta) else {
                return Root::CutShort { proven: best };
            };
            value = found;
            if value < beta {
                upper = value;
            } else {
                lower = value;
                best = Some(mv);
            }
        }
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
        let (key, first) = key(position, self.merge_colours);
        let hint = self.usable(key, position, depth).map(|e| e.best);
        let children = ordered_children(position, hint.map(|b| (b, first)), self.helper);
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
        self.store(key, first, position, best_value, depth, bound, best);
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

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn store(
        &mut self,
        key: u128,
        first: usize,
        position: &Position,
        value: f64,
        depth: u32,
        bound: Bound,
        best: usize,
    ) {
        let piles = position.pile_count();
        self.table.store(Entry {
            key,
            value,
            depth: depth.min(u32::from(u8::MAX)) as u8,
            bound,
            best: ((best + piles - first) % piles) as u8,
            generation: self.generation,
        });
    }
}
