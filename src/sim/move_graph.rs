//! The playout graph of a small variant: every position reachable from every start, with its
//! moves in legal-move order, flattened into one array that a random playout walks with
//! one memory load a move. For the standard game it holds 112,760 positions in about
//! 1.5 MB, so a walk stays in the processor's cache. Walking it gives exactly the games
//! that playing the moves on the bit-packed positions gives.

use std::sync::OnceLock;

use crate::game::reachable::Reachable;
use crate::game::rng::{shuffled_codes, SplitMix64};
use crate::game::rules::Player;
use crate::game::variant::Capability;

/// The largest number of buttons of each colour a graph is built for.
const MAX_PER_COLOUR: usize = Capability::MoveGraph.max_per_colour();

/// The flattened graph. A position is a *link*: a `u32` holding where its moves start in
/// `data` (bits 0-19), how many there are (bits 20-23) and, for a finished battle (no
/// moves), its final margin plus 64 (bits 24-30). Its moves are `count` consecutive links
/// in `data`, in legal-move order. A walk thus needs one memory load a move.
pub struct MoveGraph {
    per_colour: usize,
    data: Vec<u32>,
    /// Offset of each start, indexed by side to move and the colour codes of its piles.
    start: [Vec<u32>; 2],
    positions: usize,
}

impl MoveGraph {
    /// The graph for `per_colour` buttons of each colour (1 to 3), built on first use.
    pub fn get(per_colour: usize) -> Option<&'static MoveGraph> {
        static GRAPHS: [OnceLock<MoveGraph>; MAX_PER_COLOUR] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let cell = GRAPHS.get(per_colour.checked_sub(1)?)?;
        Some(cell.get_or_init(|| MoveGraph::build(per_colour)))
    }

    fn build(per_colour: usize) -> MoveGraph {
        let Reachable {
            positions: nodes,
            children,
            starts,
        } = Reachable::explore(per_colour, |p| *p);
        // Lay the nodes out in depth-first order from the starts, so that a walk tends to
        // find the next node near the last one.
        let order = depth_first(&children, starts[0].len() + starts[1].len());
        let mut offsets = vec![0u32; nodes.len()];
        let mut total = 0u32;
        for &node in &order {
            offsets[node as usize] = total;
            total += children[node as usize].len() as u32;
        }
        assert!(total < 1 << 20, "the move graph is too large to link");
        let link = |node: u32| -> u32 {
            let kids = children[node as usize].len() as u32;
            let margin = nodes[node as usize].margin().unwrap_or(0);
            offsets[node as usize] | kids << 20 | ((margin + 64) as u32) << 24
        };
        let mut data = Vec::with_capacity(total as usize);
        for &node in &order {
            data.extend(children[node as usize].iter().map(|&k| link(k)));
        }
        let size = 1usize << (6 * per_colour);
        let mut start = [vec![u32::MAX; size], vec![u32::MAX; size]];
        for &node in starts.iter().flatten() {
            let (cells, _, _, side) = nodes[node as usize].raw();
            start[side as usize][cells as usize] = link(node);
        }
        MoveGraph {
            per_colour,
            data,
            start,
            positions: nodes.len(),
        }
    }

    /// The number of positions.
    pub fn positions(&self) -> usize {
        self.positions
    }

    /// The size of the walked array in bytes.
    pub fn bytes(&self) -> usize {
        self.data.len() * 4
    }

    /// Plays one battle from a shuffled start with uniformly random moves, drawing from
    /// `rng` exactly as the bit-packed playout does; returns the moves and the margin.
    #[inline]
    pub fn playout(&self, first: Player, rng: &mut SplitMix64) -> (u64, i32) {
        let cells = shuffled_codes(self.per_colour, rng);
        let mut link = self.start[first as usize][cells as usize];
        let mut moves = 0;
        loop {
            let count = (link >> 20) & 0xf;
            if count == 0 {
                return (moves, (link >> 24) as i32 - 64);
            }
            let pick = rng.below(u64::from(count)) as u32;
            link = self.data[((link & 0xf_ffff) + pick) as usize];
            moves += 1;
        }
    }
}

/// The nodes in depth-first preorder from the first `roots` nodes.
fn depth_first(children: &[Vec<u32>], roots: usize) -> Vec<u32> {
    let mut seen = vec![false; children.len()];
    let mut order = Vec::with_capacity(children.len());
    let mut stack: Vec<u32> = (0..roots as u32).rev().collect();
    while let Some(node) = stack.pop() {
        if std::mem::replace(&mut seen[node as usize], true) {
            continue;
        }
        order.push(node);
        stack.extend(
            children[node as usize]
                .iter()
                .rev()
                .filter(|&&c| !seen[c as usize]),
        );
    }
    order
}
