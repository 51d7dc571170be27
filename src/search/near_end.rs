//! The last plies of a battle: positions of up to [`NEAR_END_PILES`] piles, valued to
//! the end by plain loops, without the table. Every move takes a pile away, so such a
//! position has at most 4 x 3 x 2 lines. In a solve of 8 buttons of each colour they are
//! 85% of the nodes, and the table cut off 1-2% of them while each paid for a key, a
//! probe, a store, its children made in order and a call per child
//! (docs/performance.md, "The search").

use super::searcher::Searcher;
use crate::game::bits::WordOps;
use crate::game::rules::Position;

/// Positions of this many piles or fewer, searched to the end, are valued here.
pub(super) const NEAR_END_PILES: usize = 4;

/// A best move, its value for the side to move, and how many positions below the
/// one valued were looked at (each counts as a node of the search).
type Valued = (usize, f64, u64);

impl Searcher {
    /// The lowest-numbered best move of a position of two piles to the end, if it is
    /// one; else of one of up to [`NEAR_END_PILES`] piles, fail-soft within `alpha` and
    /// `beta` (a value of `beta` or more is a lower bound; its move may not be best).
    #[inline(always)]
    pub(super) fn best_near_end<O: WordOps>(
        &self,
        ops: O,
        position: &Position,
        alpha: f64,
        beta: f64,
    ) -> Option<Valued> {
        match position.pile_count() {
            2 => self
                .best_last_move(ops, position)
                .map(|(mv, value)| (mv, value, 0)),
            3 => self.best_of::<2, O>(ops, position, alpha, beta),
            4 => self.best_of::<3, O>(ops, position, alpha, beta),
            _ => None,
        }
    }

    /// The lowest-numbered best move of a position of two piles (every move ends the
    /// battle), with its value for the side to move; `None` when it has no move.
    #[inline(always)]
    pub(super) fn best_last_move(
        &self,
        ops: impl WordOps,
        position: &Position,
    ) -> Option<(usize, f64)> {
        // No extra move with one other pile: the opponent is to move at the end.
        let opponent = position.to_move().other();
        let mut best: Option<(usize, f64)> = None;
        for (mv, margin) in position.last_move_margins(ops).into_iter().enumerate() {
            let Some(margin) = margin else { continue };
            let value = -self.payoff.for_player(margin, opponent);
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((mv, value));
            }
        }
        best
    }

    /// [`best_near_end`](Self::best_near_end) of a position whose children have
    /// `CHILD_PILES` piles (two or three): its moves in pile order, alpha-beta, a move
    /// worth `beta` or more ending the loop. A constant, not recursion, so that both
    /// loops are inlined into the copy of the recursion that calls them (kernel.rs).
    #[inline(always)]
    fn best_of<const CHILD_PILES: usize, O: WordOps>(
        &self,
        ops: O,
        position: &Position,
        mut alpha: f64,
        beta: f64,
    ) -> Option<Valued> {
        let side = position.to_move();
        let mut best: Option<(usize, f64)> = None;
        let mut looked_at = 0;
        let mut legal = position.legal_move_mask_with(ops);
        while legal != 0 {
            let mv = legal.trailing_zeros() as usize;
            legal &= legal - 1;
            let child = position.play_unchecked_with(ops, mv).position;
            let same = child.to_move() == side;
            let (child_alpha, child_beta) = if same { (alpha, beta) } else { (-beta, -alpha) };
            let (value, below) = if CHILD_PILES == 2 {
                let (_, value) = self.best_last_move(ops, &child)?;
                (value, 0)
            } else {
                let (_, value, below) =
                    self.best_of::<2, O>(ops, &child, child_alpha, child_beta)?;
                (value, below)
            };
            looked_at += 1 + below;
            let value = if same { value } else { -value };
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((mv, value));
                alpha = alpha.max(value);
                if value >= beta {
                    break;
                }
            }
        }
        best.map(|(mv, value)| (mv, value, looked_at))
    }

    /// The search's value of a position of up to [`NEAR_END_PILES`] piles searched to
    /// the end (fail-soft), the positions looked at below it counted as nodes.
    #[inline(always)]
    pub(super) fn near_end_value<O: WordOps>(
        &mut self,
        ops: O,
        position: &Position,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        let Some((_, value, looked_at)) = self.best_near_end(ops, position, alpha, beta) else {
            return f64::NEG_INFINITY;
        };
        if looked_at > 0 && self.count_nodes(looked_at) {
            return 0.0;
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::bits::Portable;
    use crate::search::Payoff;

    /// Plain negamax to the end, every move in turn: the yardstick.
    fn plain(position: &Position) -> f64 {
        if position.is_over() {
            return Payoff::Margin.terminal(position);
        }
        let side = position.to_move();
        position
            .legal_moves()
            .map(|mv| {
                let child = position.play_unchecked(mv).position;
                let value = plain(&child);
                if child.to_move() == side {
                    value
                } else {
                    -value
                }
            })
            .fold(f64::NEG_INFINITY, f64::max)
    }

    #[test]
    fn positions_near_the_end_get_their_values_and_first_best_moves() {
        let searcher = Searcher::new(Payoff::Margin, 1 << 16);
        let mut checked = [0; 5];
        crate::sim::playout::each_random_battle(24, [1, 2, 3, 6, 10], 100, |p, _| {
            let piles = p.pile_count();
            if !(2..=NEAR_END_PILES).contains(&piles) {
                return;
            }
            let want = plain(p);
            let full = f64::INFINITY;
            let (mv, value, _) = searcher.best_near_end(Portable, p, -full, full).unwrap();
            assert_eq!(value, want, "{p}");
            // The lowest-numbered move of that value.
            let first = p.legal_moves().find(|&m| {
                let child = p.play_unchecked(m).position;
                let v = plain(&child);
                (if child.to_move() == p.to_move() {
                    v
                } else {
                    -v
                }) == want
            });
            assert_eq!(Some(mv), first, "{p}");
            // Fail-soft within a window around the value: a bound on the right side.
            for (alpha, beta) in [
                (want - 1.0, want),
                (want, want + 1.0),
                (want - 3.0, want - 2.0),
            ] {
                let (_, bound, _) = searcher.best_near_end(Portable, p, alpha, beta).unwrap();
                if bound <= alpha {
                    assert!(want <= bound, "{p} ({alpha}, {beta}): {bound}");
                } else if bound >= beta {
                    assert!(want >= bound, "{p} ({alpha}, {beta}): {bound}");
                } else {
                    assert_eq!(bound, want, "{p} ({alpha}, {beta})");
                }
            }
            checked[piles] += 1;
        });
        assert!(checked[2..].iter().all(|&n| n >= 200), "{checked:?}");
    }
}
