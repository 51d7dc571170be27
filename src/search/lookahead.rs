//! What a node learns of its children from the table before searching any of them: it
//! computes their keys and asks the processor to fetch their buckets all at once (a
//! probe otherwise waits for memory, one child after the other: the profile's largest
//! cost), and, deep enough in the tree, looks for a child whose stored bound already
//! refutes the node (an *enhanced transposition cutoff*).

use super::entry::Bound;
use super::key::table_key;
use super::near_end::NEAR_END_PILES;
use super::ordering::Children;
use super::searcher::Searcher;
use crate::game::rules::{Player, Position};

/// Nodes with at least this many plies to search look for a transposition cutoff among
/// their children (below, the probes cost more than the cutoffs save: tried from 2 and
/// 4 plies, both slower than from 6).
const CUTOFF_FROM_DEPTH: u32 = 6;

/// Whether a search of `child` probes the table (finished battles and the last plies,
/// near_end.rs, are valued without it).
#[inline]
fn probes(child: &Position) -> bool {
    child.pile_count() > NEAR_END_PILES
}

impl Searcher {
    /// Keys `children` (searched `depth - 1` plies deep) and prefetches their
    /// buckets; none when the children will not probe.
    #[inline(always)]
    pub(super) fn key_children(&self, children: &mut Children, depth: u32) {
        if depth >= 2 {
            for child in children.iter_mut() {
                if probes(&child.position) {
                    child.key = table_key(&child.position, self.merge_colours);
                    self.table.prefetch(child.key);
                }
            }
        }
    }

    /// A value at least `beta` for the side to move (`side`), if a child's stored bound
    /// proves one: the node is refuted without a search.
    #[inline(always)]
    pub(super) fn transposition_cutoff(
        &self,
        side: Player,
        children: &Children,
        depth: u32,
        beta: f64,
    ) -> Option<f64> {
        if depth < CUTOFF_FROM_DEPTH {
            return None;
        }
        for child in children.iter() {
            if child.key == 0 {
                continue;
            }
            let position = &child.position;
            let child_depth = (depth - 1).min(position.pile_count() as u32 - 1);
            let Some(entry) = self.usable(child.key, position, child_depth) else {
                continue;
            };
            if u32::from(entry.depth) < child_depth {
                continue;
            }
            // The child's value for `side`, and whether the entry bounds it from below.
            let (value, from_below) = if position.to_move() == side {
                (entry.value, entry.bound != Bound::Upper)
            } else {
                (-entry.value, entry.bound != Bound::Lower)
            };
            if from_below && value >= beta {
                return Some(value);
            }
        }
        None
    }
}
