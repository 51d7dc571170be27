//! The lines a search reports: its principal variation and, for an exact result, the
//! lowest-numbered best move, found by null-window tests after the search.

use super::key::table_key;
use super::near_end::NEAR_END_PILES;
use super::searcher::Searcher;
use crate::game::bits::Portable;
use crate::game::rules::{Player, Position};

impl Searcher {
    /// Whether moving to `child` is worth at least `value` (the exact value of its
    /// parent, so exactly `value`): a null-window search, far cheaper than the value.
    fn reaches(&mut self, side: Player, child: &Position, value: f64) -> bool {
        let depth = child.pile_count() as u32;
        self.child_value(side, child, depth, value.next_down(), value) >= value
    }

    /// The lowest-numbered move that achieves the exact value `value`, or `None` if the
    /// search is stopped first.
    pub(super) fn first_best_move(&mut self, position: &Position, value: f64) -> Option<usize> {
        let side = position.to_move();
        let found = position.legal_moves().find(|&mv| {
            let child = position.play_unchecked(mv).position;
            self.reaches(side, &child, value) || self.aborted
        });
        found.filter(|_| !self.aborted)
    }

    /// A line that achieves the exact value `value` from `position`, starting with
    /// `first` when that move achieves it; shorter if the search is stopped.
    pub(super) fn exact_line(
        &mut self,
        position: &Position,
        value: f64,
        first: Option<usize>,
    ) -> Vec<usize> {
        let mut line = Vec::new();
        let mut position = *position;
        let mut value = value;
        let mut preferred = first;
        while !position.is_over() && !self.aborted {
            let side = position.to_move();
            let mut next = None;
            for mv in preferred.take().into_iter().chain(position.legal_moves()) {
                let child = position.play_unchecked(mv).position;
                if self.reaches(side, &child, value) && !self.aborted {
                    next = Some((mv, child));
                    break;
                }
            }
            let Some((mv, child)) = next else {
                break;
            };
            line.push(mv);
            if child.to_move() != side {
                value = -value;
            }
            position = child;
        }
        line
    }

    /// The line of stored best moves from `position`, at most `depth` moves long.
    pub(super) fn table_line(
        &self,
        position: &Position,
        first_move: Option<usize>,
        depth: u32,
    ) -> Vec<usize> {
        let mut line = Vec::new();
        let mut position = *position;
        let mut mv = first_move;
        while let Some(m) = mv {
            if line.len() as u32 >= depth.max(1) || !position.is_legal(m) {
                break;
            }
            line.push(m);
            position = position.play_unchecked(m).position;
            let piles = position.pile_count();
            let remaining = depth.max(1) - line.len() as u32;
            mv = if position.is_over() {
                None
            } else if piles <= NEAR_END_PILES && remaining >= piles as u32 - 1 {
                // The search valued it without the table (its entry, if any, is that
                // of a shallower iteration): its best move is worked out.
                let full = f64::INFINITY;
                self.best_near_end(Portable, &position, -full, full)
                    .map(|(mv, _, _)| mv)
            } else {
                self.table
                    .probe(table_key(&position, self.merge_colours))
                    .filter(|e| e.generation == self.generation)
                    .filter(|e| usize::from(e.best) < piles)
                    .map(|e| usize::from(e.best))
            };
        }
        line
    }
}
