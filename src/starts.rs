//! Every distinct start of rule 1, and the perfect-play values over them.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

use crate::rules::{Colour, Player, Position};
use crate::search::{Payoff, Searcher};

/// Every distinct circle of one-button piles with `per_colour` buttons of each colour
/// (1,680 for the standard game), in lexicographic order of their letters (`B < R < W`).
pub fn all_starts(per_colour: usize, to_move: Player) -> Vec<Position> {
    let mut out = Vec::new();
    let mut order = Vec::with_capacity(3 * per_colour);
    fill(&mut order, [per_colour; 3], to_move, &mut out);
    out
}

fn fill(order: &mut Vec<[Colour; 1]>, left: [usize; 3], to_move: Player, out: &mut Vec<Position>) {
    if left == [0, 0, 0] {
        if let Ok(position) = Position::from_piles(order, to_move) {
            out.push(position);
        }
        return;
    }
    for (i, colour) in [Colour::Black, Colour::Red, Colour::White]
        .into_iter()
        .enumerate()
    {
        if left[i] > 0 {
            let mut next = left;
            next[i] -= 1;
            order.push([colour]);
            fill(order, next, to_move, out);
            order.pop();
        }
    }
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
            all_starts(per_colour, starter)
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

/// How many starts have each perfect-play margin (Red's strength minus Black's) when
/// `starter` moves first.
pub fn margin_histogram(
    per_colour: usize,
    starter: Player,
    searcher: &mut Searcher,
) -> BTreeMap<i32, u64> {
    searcher.set_payoff(Payoff::Margin);
    let mut histogram = BTreeMap::new();
    for start in all_starts(per_colour, starter) {
        let value = searcher.solve(&start) as i32;
        let red_margin = if starter == Player::Red {
            value
        } else {
            -value
        };
        *histogram.entry(red_margin).or_insert(0) += 1;
    }
    histogram
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_1680_standard_starts() {
        let starts = all_starts(3, Player::Red);
        assert_eq!(starts.len(), 1680);
        let distinct: std::collections::HashSet<_> = starts.iter().collect();
        assert_eq!(distinct.len(), 1680);
        assert_eq!(all_starts(1, Player::Red).len(), 6);
    }
}
