//! What a node learns of its children from the table before searching any of them: it
//! computes their keys and asks the processor to fetch their buckets all at once (a
//! probe otherwise waits for memory, one child after the other: the profile's largest
//! cost), and, deep enough in the tree, looks for a child whose stored bound already
//! refutes the node (an *enhanced transposition cutoff*).

use super::entry::Bound;
use super::key::key;
use super::ordering::Children;
use super::searcher::Searcher;
use crate::game::rules::{Player, Position, MAX_BUTTONS};

/// Nodes with at least this many plies to search look for a transposition cutoff among
/// their children (below, the probes cost more than the cutoffs save: tried from 2 and
/// 4 plies, both slower than from 6).
const CUTOFF_FROM_DEPTH: u32 = 6;

/// The keys of a node's children, in search order, for those that will probe the table.
pub(super) type ChildKeys = [Option<(u128, usize)>; MAX_BUTTONS];

/// Whether a search of `child` probes the table (finished battles and the last move are
/// valued without it).
#[inline]
fn probes(child: &Position) -> bool {
    child.pile_count() > 2
}

impl Searcher {
    /// The keys of `children` (searched `depth - 1` plies deep), their buckets
    /// prefetched; none when the children will not probe.
    #[inline]
    pub(super) fn child_keys(&self, children: &Children, depth: u32) -> ChildKeys {
        let mut keys = [None; MAX_BUTTONS];
        if depth >= 2 {
            for (slot, child) in keys.iter_mut().zip(children.iter()) {
                if probes(&child.position) {
                    let found = key(&child.position, self.merge_colours);
                    self.table.prefetch(found.0);
                    *slot = Some(found);
                }
            }
        }
        keys
    }

    /// A value at least `beta` for the side to move (`side`), if a child's stored bound
    /// proves one: the node is refuted without a search.
    #[inline]
    pub(super) fn transposition_cutoff(
        &self,
        side: Player,
        children: &Children,
        keys: &ChildKeys,
        depth: u32,
        beta: f64,
    ) -> Option<f64> {
        if depth < CUTOFF_FROM_DEPTH {
            return None;
        }
        for (child, known) in children.iter().zip(keys.iter()) {
            let Some((child_key, _)) = known else {
                continue;
            };
            let position = &child.position;
            let child_depth = (depth - 1).min(position.pile_count() as u32 - 1);
            let Some(entry) = self.usable(*child_key, position, child_depth) else {
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
