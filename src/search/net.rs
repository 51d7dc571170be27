//! The network estimate of limited searches: a small network over features of the
//! position, trained on exact values by `scripts/train_net.py` (its weights in
//! `net_weights.rs`, written by that script), evaluated here in `f32` with no dependency.
//!
//! Seen from the side to move: a button is the mover's, the other player's or white, so
//! colour-swapped positions get opposite estimates of the margin, as their true values
//! are (the transposition table shares entries between them). The features do not see
//! where the circle starts, as the rules do not. Each active feature adds its row of
//! `EMBED` to `HIDDEN` sums (an index active twice adds its row twice); the sums, clipped
//! below at 0, are weighed by `OUT`; the result, times the buttons over `SCALE`, is the
//! final margin for the side to move. The features:
//! - each button by (colour, its pile liftable, its height in the pile, the pile's size),
//!   heights from 7 and sizes from 8 up together;
//! - each liftable pile by (its top's colour, the colour of the top its last button
//!   drops on, whether it overflows: then the pile before it);
//! - (the plies left odd, the liftable piles up to 15), and the piles up to 31.
//!
//! The sums are made in one order on every target (and Rust fuses no multiply-add),
//! so every door gets the same estimate.

use super::net_weights::{EMBED, HIDDEN_BIAS, OUT, OUT_BIAS};
use crate::game::rules::{Player, Position};

/// The sums a position's features add their rows to.
pub const HIDDEN: usize = 16;
const HEIGHTS: usize = 8;
const SIZES: usize = 8;
const BY_DROP: usize = 3 * 2 * HEIGHTS * SIZES;
const BY_LIFTABLE: usize = BY_DROP + 3 * 3 * 2;
const BY_PILES: usize = BY_LIFTABLE + 2 * 16;
/// The number of features.
pub const FEATURES: usize = BY_PILES + 32;
/// The output is the margin a button, times this.
const SCALE: f32 = 10.0;
// The weights' file is generated with its sizes written out (it imports nothing from
// here): these check them.
const _: () = assert!(EMBED.len() == FEATURES, "one row a feature");
const _: () = assert!(EMBED[0].len() == HIDDEN && HIDDEN_BIAS.len() == HIDDEN);
const _: () = assert!(OUT.len() == HIDDEN, "a weight a sum");

/// Calls `each` with every active feature of an unfinished position, in the order of
/// `scripts/train_net.py` (`features`).
#[inline(always)]
pub fn each_feature(position: &Position, mut each: impl FnMut(usize)) {
    let (cells, _, _, to_move) = position.raw();
    let mine = match to_move {
        Player::Red => 1,
        Player::Black => 2,
    };
    // 0: the mover's, 1: the other player's, 2: white.
    let colour = |i: u32| -> usize {
        match (cells >> (2 * i)) & 3 {
            3 => 2,
            code if code == mine => 0,
            _ => 1,
        }
    };
    let liftable_tops = position.legal_tops();
    let mut spans = [(0u32, 0u32); crate::MAX_BUTTONS];
    let mut count = 0;
    for span in position.pile_spans() {
        spans[count] = span;
        count += 1;
    }
    let mut liftable = 0;
    for (j, &(start, end)) in spans[..count].iter().enumerate() {
        let lift = (liftable_tops >> (end - 1) & 1) as usize;
        let len = (end - start) as usize;
        let size = len.min(SIZES) - 1;
        for i in start..end {
            let height = ((i - start) as usize).min(HEIGHTS - 1);
            each(((colour(i) * 2 + lift) * HEIGHTS + height) * SIZES + size);
        }
        if lift == 1 {
            liftable += 1;
            let overflow = len > count - 1;
            let landing = if overflow {
                (j + count - 1) % count
            } else {
                (j + len) % count
            };
            let landing_top = colour(spans[landing].1 - 1);
            each(BY_DROP + (colour(end - 1) * 3 + landing_top) * 2 + usize::from(overflow));
        }
    }
    each(BY_LIFTABLE + ((count - 1) % 2) * 16 + liftable.min(15));
    each(BY_PILES + count.min(31));
}

/// The network's estimate of the final margin for the side to move of an unfinished
/// position (before rounding).
#[inline(always)]
pub fn net_value(position: &Position) -> f32 {
    let mut sums = HIDDEN_BIAS;
    each_feature(position, |feature| {
        for (sum, weight) in sums.iter_mut().zip(&EMBED[feature]) {
            *sum += weight;
        }
    });
    let mut out = OUT_BIAS;
    for (sum, weight) in sums.iter().zip(&OUT) {
        out += sum.max(0.0) * weight;
    }
    out * position.button_count() as f32 / SCALE
}

/// The network's estimate of the final margin, Red minus Black, of an unfinished
/// position.
#[inline(always)]
pub fn net_margin(position: &Position) -> i32 {
    let value = net_value(position).round() as i32;
    match position.to_move() {
        Player::Red => value,
        Player::Black => -value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse;

    /// The position's notation with the colours exchanged (and the other player to
    /// move), and turned `by` piles round the circle.
    fn transformed(position: &Position, swap: bool, by: usize) -> Position {
        let text = position.to_string();
        let (piles, side) = text.split_once(' ').unwrap();
        let mut piles: Vec<String> = piles.split('/').map(str::to_string).collect();
        let count = piles.len();
        piles.rotate_left(by % count);
        let mut text = format!("{} {side}", piles.join("/"));
        if swap {
            text = text
                .chars()
                .map(|c| match c {
                    'R' => 'B',
                    'B' => 'R',
                    'r' => 'b',
                    'b' => 'r',
                    c => c,
                })
                .collect();
        }
        parse(&text).unwrap()
    }

    #[test]
    fn the_estimate_changes_sign_with_the_colours_and_ignores_where_the_circle_starts() {
        crate::sim::playout::each_random_battle(9, [2, 5, 8, 10], 50, |p, mv| {
            if mv.is_some() {
                let value = net_value(p);
                assert_eq!(net_value(&transformed(p, true, 0)), value, "{p}");
                assert_eq!(net_margin(&transformed(p, true, 0)), -net_margin(p), "{p}");
                let turned = transformed(p, false, 1 + p.pile_count() / 2);
                let mut features = Vec::new();
                each_feature(p, |f| features.push(f));
                let mut turned_features = Vec::new();
                each_feature(&turned, |f| turned_features.push(f));
                features.sort_unstable();
                turned_features.sort_unstable();
                assert_eq!(features, turned_features, "{p}");
            }
        });
    }

    #[test]
    fn the_estimate_is_a_fair_guess_of_small_games() {
        // Not a yardstick of the fit (the training script's held-out error is): a check
        // that the weights are wired to the features in their order. At 3 of each
        // colour a margin is within -45..45; the network is within a few points.
        let mut searcher = crate::search::Searcher::new(crate::search::Payoff::Margin, 1 << 20);
        let mut total = 0.0;
        let mut count = 0.0;
        crate::sim::playout::each_random_battle(4, [3], 100, |p, mv| {
            if mv.is_some() && p.pile_count() >= 4 {
                let exact = searcher.solve(p);
                total += (f64::from(net_value(p)) - exact).abs();
                count += 1.0;
            }
        });
        assert!(total / count < 4.0, "mean error {}", total / count);
    }
}
