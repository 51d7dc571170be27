//! Every position reachable from the standard starts, as a graph evaluated backwards in
//! one pass for any payoff of the final margin. Match odds need thousands of such
//! evaluations, and a pass over the graph is far cheaper than a search.

use crate::game::reachable::Reachable;
use crate::game::rules::Player;
use crate::search::key;

/// The reachable positions (merged by rotation), children before parents.
pub struct BattleGraph {
    /// Per node: whether Red is to move.
    red_to_move: Vec<bool>,
    /// Per node: the final margin (leaves only; 0 elsewhere).
    margin: Vec<i32>,
    /// Per node: its children are `children[first_child[i]..first_child[i + 1]]`, each
    /// with bit 31 set when the child has the other player to move.
    first_child: Vec<u32>,
    children: Vec<u32>,
    /// The node of every start, per starter (Red, Black).
    starts: [Vec<u32>; 2],
}

/// Red's mean value over the starts and the share of starts whose perfect-play outcome
/// is a draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StartsValue {
    /// The mean value over the starts.
    pub mean: f64,
    /// The share of starts whose value is a draw.
    pub draw_share: f64,
}

impl BattleGraph {
    /// The graph of the battles starting from every start with `per_colour` buttons of
    /// each colour (both players starting).
    pub fn new(per_colour: usize) -> BattleGraph {
        let Reachable {
            positions: nodes,
            children: edges,
            starts,
        } = Reachable::explore(per_colour, |p| key(p, false).0);
        // Order by pile count, fewest first, so that children come before parents.
        let mut order: Vec<u32> = (0..nodes.len() as u32).collect();
        order.sort_by_key(|&i| nodes[i as usize].pile_count());
        let mut rank = vec![0u32; nodes.len()];
        for (new, &old) in order.iter().enumerate() {
            rank[old as usize] = new as u32;
        }
        let mut graph = BattleGraph {
            red_to_move: Vec::with_capacity(nodes.len()),
            margin: Vec::with_capacity(nodes.len()),
            first_child: Vec::with_capacity(nodes.len() + 1),
            children: Vec::new(),
            starts: starts.map(|s| s.iter().map(|&i| rank[i as usize]).collect()),
        };
        for &old in &order {
            let position = nodes[old as usize];
            graph.red_to_move.push(position.to_move() == Player::Red);
            graph.margin.push(position.margin().unwrap_or(0));
            graph.first_child.push(graph.children.len() as u32);
            graph.children.extend(edges[old as usize].iter().map(|&c| {
                let other = nodes[c as usize].to_move() != position.to_move();
                rank[c as usize] | (u32::from(other) << 31)
            }));
        }
        graph.first_child.push(graph.children.len() as u32);
        graph
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.red_to_move.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.red_to_move.is_empty()
    }

    /// Evaluates every start under perfect play for Red's payoff `value(margin)` (Red
    /// maximises it, Black minimises it). Returns, per starter (Red, Black), the mean over
    /// the starts and the share of starts whose outcome is a draw.
    pub fn evaluate(&self, value: impl Fn(i32) -> f64) -> [StartsValue; 2] {
        let (values, draws) = self.backward(value);
        self.starts.each_ref().map(|starts| {
            let count = starts.len() as f64;
            StartsValue {
                mean: starts
                    .iter()
                    .map(|&s| self.for_red(&values, s))
                    .sum::<f64>()
                    / count,
                draw_share: starts.iter().filter(|&&s| draws[s as usize]).count() as f64 / count,
            }
        })
    }

    /// Red's perfect-play margin of every start, per starter (Red, Black).
    pub fn start_margins(&self) -> [Vec<i32>; 2] {
        let (values, _) = self.backward(f64::from);
        self.starts.each_ref().map(|starts| {
            starts
                .iter()
                .map(|&s| self.for_red(&values, s) as i32)
                .collect()
        })
    }

    fn for_red(&self, values: &[f64], node: u32) -> f64 {
        let v = values[node as usize];
        if self.red_to_move[node as usize] {
            v
        } else {
            -v
        }
    }

    /// Every node's value for its side to move (as in negamax), and whether its
    /// perfect-play outcome is a draw.
    fn backward(&self, value: impl Fn(i32) -> f64) -> (Vec<f64>, Vec<bool>) {
        let n = self.len();
        let mut values = vec![0.0f64; n];
        let mut draws = vec![false; n];
        for i in 0..n {
            let (from, to) = (
                self.first_child[i] as usize,
                self.first_child[i + 1] as usize,
            );
            if from == to {
                let red = value(self.margin[i]);
                values[i] = if self.red_to_move[i] { red } else { -red };
                draws[i] = self.margin[i] == 0;
                continue;
            }
            let (mut best, mut draw) = (f64::NEG_INFINITY, false);
            for &edge in &self.children[from..to] {
                let child = (edge & !(1 << 31)) as usize;
                let v = if edge >> 31 == 1 {
                    -values[child]
                } else {
                    values[child]
                };
                if v > best {
                    best = v;
                    draw = draws[child];
                }
            }
            values[i] = best;
            draws[i] = draw;
        }
        (values, draws)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::variant::start_positions;
    use crate::search::{Payoff, Searcher};

    #[test]
    fn margins_evaluated_on_the_graph_match_the_search() {
        let graph = BattleGraph::new(2);
        let [red, black] = graph.evaluate(f64::from);
        let mut searcher = Searcher::new(Payoff::Margin, 1 << 20);
        for (starter, got) in [(Player::Red, red), (Player::Black, black)] {
            let starts = start_positions(2, starter).unwrap();
            let sign = if starter == Player::Red { 1.0 } else { -1.0 };
            let values: Vec<f64> = starts.iter().map(|s| sign * searcher.solve(s)).collect();
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            let draws = values.iter().filter(|&&v| v == 0.0).count() as f64 / values.len() as f64;
            assert!((got.mean - mean).abs() < 1e-12);
            assert_eq!(got.draw_share, draws);
        }
    }
}
