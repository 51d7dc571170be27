//! The recursion of every search: one node of negamax alpha-beta, compiled three times.
//!
//! The portable copy uses the baseline instruction set of the target (what a wheel is
//! built for); on x86-64 a second copy is compiled for processors with BMI1, BMI2,
//! POPCNT and LZCNT (every x86-64 processor since about 2013), with the hot callees
//! (moves, keys, table probes, scores) inlined into it so that they are compiled with
//! those instructions too, and a third that also sows by `pdep` and `pext` (not for
//! AMD's processors before Zen 3, which run them as microcode). A search picks its copy
//! once, when it begins, by asking the processor; the copies are the same source, so
//! they visit the same nodes and find the same values (a test checks the values and
//! the node counts). Which copy is `Kernel`, chosen by the searcher (searcher.rs).

use super::entry::Bound;
use super::key::table_key;
use super::near_end::NEAR_END_PILES;
use super::ordering::{hinted_move, Children};
use super::searcher::{Kernel, Searcher, CHECK_EVERY};
use crate::game::bits::{Portable, WordOps};
use crate::game::rules::Position;

/// Nodes with at least this many plies to search order their children by the network
/// in an exact search (see `Searcher::net_order`): on 60 positions of 24 and 25 piles
/// at 9 of each colour it visits 44% fewer positions (36% less time); from fewer plies
/// the network's cost a node takes the gain back. By the plies to search, not by the
/// piles: a shallow iteration's nodes near its horizon have many piles and small trees
/// (ordering every node of 10 piles or more, the 10-per-colour start of seed 2 took
/// 9.4 s on one thread, 8.4 s with no network order, 5.9 s ordering by the plies;
/// docs/performance.md).
const NET_ORDER_FROM_DEPTH: u32 = 9;

impl Searcher {
    /// The negamax value of `position` (fail-soft), its table key `known` or
    /// computed here, by the copy of the recursion this search chose.
    #[inline]
    pub(super) fn negamax_keyed(
        &mut self,
        position: &Position,
        known: Option<u128>,
        depth: u32,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        match self.kernel {
            Kernel::Portable => self.node_portable(Portable, position, known, depth, alpha, beta),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Kernel::Bmi` is only chosen by `Kernel::detect`, when the
            // processor has every feature that `node_bmi` is compiled for.
            Kernel::Bmi => unsafe { self.node_bmi(Portable, position, known, depth, alpha, beta) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above (a `Bmi2` proves those features and more).
            Kernel::Pdep(ops) => unsafe { self.node_bmi(ops, position, known, depth, alpha, beta) },
        }
    }
}

/// Defines one copy of the recursion, `$name`, with the attributes given (a target
/// feature, or none); it calls only itself below the node.
macro_rules! node_kernel {
    ($(#[$attribute:meta])* $name:ident) => {
        impl Searcher {
            $(#[$attribute])*
            fn $name<O: WordOps>(
                &mut self,
                ops: O,
                position: &Position,
                known: Option<u128>,
                depth: u32,
                mut alpha: f64,
                mut beta: f64,
            ) -> f64 {
                self.nodes += 1;
                if self.nodes % CHECK_EVERY == 0 || self.nodes >= self.node_limit {
                    self.should_stop();
                }
                if self.aborted {
                    return 0.0;
                }
                if position.is_over() {
                    return self.payoff.terminal(position);
                }
                let depth = depth.min(position.pile_count() as u32 - 1);
                if depth == 0 {
                    return self.horizon(position);
                }
                if position.pile_count() <= NEAR_END_PILES
                    && depth == position.pile_count() as u32 - 1
                {
                    return self.near_end_value(ops, position, alpha, beta);
                }
                let key = known.unwrap_or_else(|| table_key(position, self.merge_colours));
                let mut hint = None;
                if let Some(entry) = self.usable(key, position, depth) {
                    if u32::from(entry.depth) >= depth {
                        match entry.bound {
                            Bound::Exact => return entry.value,
                            Bound::Lower => alpha = alpha.max(entry.value),
                            Bound::Upper => beta = beta.min(entry.value),
                        }
                        if alpha >= beta {
                            return entry.value;
                        }
                    }
                    hint = Some(entry.best);
                }
                let original_alpha = alpha;
                let side = position.to_move();
                let mut best_value = f64::NEG_INFINITY;
                let mut best_move = 0;
                // The stored best move first, on its own: when it cuts off, no other
                // child is made. Then the others, in the order of `Children::fill`,
                // their table buckets fetched together and looked at for a cutoff
                // before any is searched.
                let legal = position.legal_move_mask_with(ops);
                let hinted = hinted_move(position, hint).filter(|&mv| legal >> mv & 1 == 1);
                let mut cut = false;
                if let Some(mv) = hinted {
                    let child = position.play_unchecked_with(ops, mv).position;
                    let value = if child.to_move() == side {
                        self.$name(ops, &child, None, depth - 1, alpha, beta)
                    } else {
                        -self.$name(ops, &child, None, depth - 1, -beta, -alpha)
                    };
                    if self.aborted {
                        return 0.0;
                    }
                    best_value = value;
                    best_move = mv;
                    alpha = alpha.max(value);
                    cut = alpha >= beta;
                }
                if !cut {
                    let rest = legal & !hinted.map_or(0, |mv| 1u64 << mv);
                    let mut children = Children::new();
                    children.fill(ops, position, legal, rest, self.helper);
                    if self.sorting_by_net && depth >= NET_ORDER_FROM_DEPTH
                    {
                        children.sort_by_net(side);
                    }
                    self.key_children(&mut children, depth);
                    if let Some(value) = self.transposition_cutoff(side, &children, depth, beta)
                    {
                        return value;
                    }
                    for child in children.iter() {
                        let known = (child.key != 0).then_some(child.key);
                        let value = if child.position.to_move() == side {
                            self.$name(ops, &child.position, known, depth - 1, alpha, beta)
                        } else {
                            -self.$name(ops, &child.position, known, depth - 1, -beta, -alpha)
                        };
                        if self.aborted {
                            return 0.0;
                        }
                        if value > best_value {
                            best_value = value;
                            best_move = child.mv;
                        }
                        alpha = alpha.max(value);
                        if alpha >= beta {
                            break;
                        }
                    }
                }
                let bound = Bound::of(best_value, original_alpha, beta);
                self.store(key, best_value, depth, bound, best_move);
                best_value
            }
        }
    };
}

node_kernel!(node_portable);

#[cfg(target_arch = "x86_64")]
node_kernel!(
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
    node_bmi
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::{random_start, SplitMix64};
    use crate::search::{Limits, Payoff};
    use crate::Player;

    /// A solve's value and nodes, and an exact search's result, by `kernel`.
    fn run(kernel: Kernel, position: &Position) -> (f64, u64, crate::search::SearchResult) {
        let mut searcher = Searcher::new(Payoff::Margin, 1 << 20);
        searcher.kernel = kernel;
        let value = searcher.solve(position);
        let nodes = searcher.nodes;
        let mut result = searcher.search(position, &Limits::default());
        result.elapsed = std::time::Duration::ZERO;
        (value, nodes, result)
    }

    #[test]
    fn every_copy_visits_the_same_nodes_and_finds_the_same_values() {
        // The copies this processor runs: the fastest, and those it implies.
        let fastest = Kernel::detect();
        let mut copies = vec![fastest];
        #[cfg(target_arch = "x86_64")]
        if let Kernel::Pdep(_) = fastest {
            copies.push(Kernel::Bmi);
        }
        if fastest == Kernel::Portable {
            eprintln!("this processor runs the portable copy only: nothing to compare it with");
        }
        let mut rng = SplitMix64::new(22);
        for per_colour in [2, 4, 6] {
            for _ in 0..4 {
                let start = random_start(per_colour, Player::Black, &mut rng).unwrap();
                let portable = run(Kernel::Portable, &start);
                for &copy in &copies {
                    assert_eq!(run(copy, &start), portable, "{start} {copy:?}");
                }
                assert!(portable.1 > 0 && portable.2.exact);
            }
        }
    }
}
