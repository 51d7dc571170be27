//! Every position reachable from the starts of a small variant, explored once for the two
//! graphs built on it: the match-odds graph (`odds::graph`) and the playout graph
//! (`sim::move_graph`), and listed for callers ([`all_positions`]).

use std::collections::HashMap;
use std::hash::Hash;

use crate::game::rules::{Player, Position};
use crate::game::variant::{start_positions, Capability, VariantError};

/// Every position that play reaches from every start with `per_colour` buttons of each
/// colour (1 to 3), either player starting, finished battles included: 112,760 for the
/// standard game. Breadth first from the starts (Red's, then Black's), in the order met.
pub fn all_positions(per_colour: usize) -> Result<Vec<Position>, VariantError> {
    Capability::Positions.check(per_colour as i64)?;
    Ok(Reachable::explore(per_colour, |p| *p).positions)
}

/// Every position reachable from a set of starts, explored breadth first.
pub struct Reachable {
    /// One position per key, in the order they were met (the starts first).
    pub positions: Vec<Position>,
    /// Per position: the positions its legal moves lead to, in legal-move order.
    pub children: Vec<Vec<u32>>,
    /// The position of each start, per starter (Red, Black).
    pub starts: [Vec<u32>; 2],
}

impl Reachable {
    /// Explores from every start with `per_colour` buttons of each colour, both players
    /// starting; positions with the same `key` are one.
    pub fn explore<K: Hash + Eq>(per_colour: usize, key: impl Fn(&Position) -> K) -> Reachable {
        let mut index: HashMap<K, u32> = HashMap::new();
        let mut positions: Vec<Position> = Vec::new();
        let mut intern = |p: Position, positions: &mut Vec<Position>| -> u32 {
            *index.entry(key(&p)).or_insert_with(|| {
                positions.push(p);
                positions.len() as u32 - 1
            })
        };
        let starts = [Player::Red, Player::Black].map(|starter| {
            start_positions(per_colour, starter)
                .unwrap_or_default()
                .into_iter()
                .map(|start| intern(start, &mut positions))
                .collect::<Vec<u32>>()
        });
        let mut children = Vec::new();
        while children.len() < positions.len() {
            let position = positions[children.len()];
            let kids = position
                .legal_moves()
                .map(|mv| intern(position.play_unchecked(mv).position, &mut positions))
                .collect();
            children.push(kids);
        }
        Reachable {
            positions,
            children,
            starts,
        }
    }
}
