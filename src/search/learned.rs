//! The learned horizon estimate of limited searches: a linear model over features of the
//! position, fitted to exact values by `scripts/train_eval.py` (its weights in
//! `learned_weights.rs`, written by that script).
//!
//! Every feature changes sign when the colours are swapped (Red's buttons become Black's
//! and the other player moves), so the estimate does too, as the true value does: the
//! transposition table may then share entries between colour-swapped positions. Features
//! that do not depend on the colours enter multiplied by the side to move's sign.
//!
//! The features, Red minus Black throughout (`s` is +1 for a red button, -1 for a black
//! one, 0 for white; a pile is liftable when it holds white; ranks are the projection's of
//! [`super::eval`]: the buttons of unliftable piles under those of liftable ones, lower in a
//! pile under higher):
//! - the projection itself (the sum of `s` times rank), and its part over liftable piles;
//! - the sum of `s` by (liftable, height in pile), heights from 7 up together, alone and
//!   times the number of buttons (the features scale with the size of the game);
//! - by liftable or not: the tops' `s`, the tops' `s` times their pile's size, the
//!   bottoms' `s`, and `s` times the size of the pile the button is in;
//! - times the side to move's sign: one, the buttons, the piles, the liftable piles, the
//!   piles with white on top, and whether the plies left are odd.

use super::eval::{sign_at, Groups};
use super::learned_weights::WEIGHTS;
use crate::game::rules::{Player, Position};

/// Heights told apart by the features (higher ones count with the highest).
const HEIGHTS: usize = 8;

/// The number of features.
pub const FEATURES: usize = 2 + 4 * HEIGHTS + 8 + 6;
const _: () = assert!(WEIGHTS.len() == FEATURES, "one weight a feature");

/// The features of an unfinished position, in the order of the weights: the groups'
/// parts in one pass over the buttons (`eval::Groups`, as the projection), then the piles'
/// tops, bottoms and sums by their bits. Every feature is a whole number, so the order in
/// which it is summed does not change it. Inlined into the searches' kernels (kernel.rs),
/// as the projection is, to be compiled with their instructions.
#[inline(always)]
pub fn features(position: &Position) -> [f32; FEATURES] {
    let mut f = [0f32; FEATURES];
    let (cells, _, len, to_move) = position.raw();
    let n = len as f32;
    let by_height = 2;
    let by_height_sized = by_height + 2 * HEIGHTS;
    let tops = by_height_sized + 2 * HEIGHTS;
    Groups::of(position).each(|liftable, height, part, signs| {
        f[0] += part as f32;
        if liftable {
            f[1] += part as f32;
        }
        let h = usize::from(liftable) * HEIGHTS + height.min(HEIGHTS - 1);
        f[by_height + h] += signs as f32;
        f[by_height_sized + h] += signs as f32 * n;
    });
    let liftable_tops = position.legal_tops();
    let (mut piles, mut liftable_piles, mut white_tops) = (0, 0, 0);
    for (start, end) in position.pile_spans() {
        let lifted = usize::from(liftable_tops >> (end - 1) & 1 == 1);
        let size = (end - start) as f32;
        let top = sign_at(cells, end - 1) as f32;
        f[tops + lifted] += top;
        f[tops + 2 + lifted] += top * size;
        f[tops + 4 + lifted] += sign_at(cells, start) as f32;
        f[tops + 6 + lifted] += pile_signs(cells, start, end) as f32 * size;
        piles += 1;
        liftable_piles += lifted;
        white_tops += usize::from((cells >> (2 * (end - 1))) & 3 == 0);
    }
    let counts = [piles, liftable_piles, white_tops];
    times_the_side(&mut f[tops + 8..], to_move, len, counts);
    f
}

/// The last features, times the side to move's sign: one, the buttons (`len`), and of
/// `[piles, liftable piles, piles with white on top]` each, then whether the plies left
/// (piles - 1) are odd.
#[inline(always)]
fn times_the_side(
    moving: &mut [f32],
    to_move: Player,
    len: u32,
    [piles, liftable, white_tops]: [usize; 3],
) {
    let side = match to_move {
        Player::Red => 1.0,
        Player::Black => -1.0,
    };
    let counts = [
        1,
        len as usize,
        piles,
        liftable,
        white_tops,
        (piles - 1) % 2,
    ];
    for (feature, count) in moving.iter_mut().zip(counts) {
        *feature = side * count as f32;
    }
}

/// The red buttons minus the black ones of the buttons `start..end` (red is code 1, black
/// code 2: their low and high bits).
#[inline(always)]
fn pile_signs(cells: u64, start: u32, end: u32) -> i32 {
    const LOW: u64 = 0x5555_5555_5555_5555;
    let below_end = if end >= 32 {
        u64::MAX
    } else {
        (1u64 << (2 * end)) - 1
    };
    let span = cells & below_end & !((1u64 << (2 * start)) - 1);
    (span & LOW).count_ones() as i32 - (span & !LOW).count_ones() as i32
}

/// The learned estimate of the final margin (Red minus Black) of an unfinished position.
/// The products are summed in eight lanes (vector registers where there are), then the
/// lanes in order: the same sum on every target.
#[inline(always)]
pub fn learned_margin(position: &Position) -> i32 {
    let f = features(position);
    let mut lanes = [0f32; LANES];
    for (xs, ws) in f.chunks_exact(LANES).zip(WEIGHTS.chunks_exact(LANES)) {
        for lane in 0..LANES {
            lanes[lane] += xs[lane] * ws[lane];
        }
    }
    lanes.iter().sum::<f32>().round() as i32
}

const LANES: usize = 8;
const _: () = assert!(FEATURES % LANES == 0, "whole lanes");

/// The largest games (buttons in all) whose limited searches use the learned estimate:
/// at 10 of each colour it gave away more than the projection in `benches/big_ai.py`
/// (one 21-pile position lost 55 points there, its true value about 100: the linear
/// model shrinks big margins towards 0, which lowers its mean error but hides big wins).
pub const LEARNED_UP_TO_BUTTONS: usize = 27;

/// The horizon estimates a search may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Estimate {
    /// The projection of [`super::eval`].
    Projection,
    /// The linear model of this module.
    Linear,
    /// The network of [`super::net`].
    Net,
}

impl Estimate {
    /// The estimate of limited searches from `position`: the environment's
    /// `BUTTONUP_EVAL` (`projection`, `linear` or `net`, read once; for benchmarks that
    /// compare them in one build, as `benches/big_ai.py --variant` does), else the linear
    /// model up to [`LEARNED_UP_TO_BUTTONS`] and the projection above.
    pub fn for_limited_search(position: &Position) -> Estimate {
        static CHOSEN: std::sync::OnceLock<Option<Estimate>> = std::sync::OnceLock::new();
        let chosen = CHOSEN.get_or_init(|| match std::env::var("BUTTONUP_EVAL").as_deref() {
            Ok("projection") => Some(Estimate::Projection),
            Ok("linear") => Some(Estimate::Linear),
            Ok("net") => Some(Estimate::Net),
            _ => None,
        });
        match chosen {
            Some(estimate) => *estimate,
            None if position.button_count() <= LEARNED_UP_TO_BUTTONS => Estimate::Linear,
            None => Estimate::Projection,
        }
    }
}

/// The features button by button, as the module's doc says them (the test's yardstick).
#[cfg(test)]
fn features_button_by_button(position: &Position) -> [f32; FEATURES] {
    let mut f = [0f32; FEATURES];
    let (cells, _, len, to_move) = position.raw();
    let liftable_tops = position.legal_tops();
    // The projection's ranks: the group (liftable, height) of each button, counted first.
    const GROUPS: usize = 2 * crate::MAX_BUTTONS;
    let mut count = [0i32; GROUPS];
    let mut pile_of = [(0usize, 0usize, false); crate::MAX_BUTTONS];
    let mut piles = 0;
    let mut liftable_piles = 0;
    let mut white_tops = 0;
    for (start, end) in position.pile_spans() {
        let liftable = liftable_tops >> (end - 1) & 1 == 1;
        let base = if liftable { crate::MAX_BUTTONS } else { 0 };
        for i in start..end {
            count[base + (i - start) as usize] += 1;
            pile_of[i as usize] = (start as usize, end as usize, liftable);
        }
        piles += 1;
        liftable_piles += i32::from(liftable);
        white_tops += i32::from((cells >> (2 * (end - 1))) & 3 == 0);
    }
    let mut first_rank = [0i32; GROUPS];
    let mut offset = 0;
    for base in [0, crate::MAX_BUTTONS] {
        for group in base..base + crate::MAX_BUTTONS {
            first_rank[group] = offset;
            offset += count[group];
        }
    }
    let n = len as f32;
    let mut seen = [0i32; GROUPS];
    let by_height = 2;
    let by_height_sized = by_height + 2 * HEIGHTS;
    let tops = by_height_sized + 2 * HEIGHTS;
    for (i, &(start, end, liftable)) in pile_of.iter().enumerate().take(len as usize) {
        // White buttons add nothing, but take their places in the ranks.
        let s = match (cells >> (2 * i)) & 3 {
            1 => 1.0,
            2 => -1.0,
            _ => 0.0,
        };
        let height = i - start;
        let group = if liftable { crate::MAX_BUTTONS } else { 0 } + height;
        let rank = (first_rank[group] + seen[group] + 1) as f32;
        let lifted = usize::from(liftable);
        let size = (end - start) as f32;
        f[0] += s * rank;
        if liftable {
            f[1] += s * rank;
        }
        let h = lifted * HEIGHTS + height.min(HEIGHTS - 1);
        f[by_height + h] += s;
        f[by_height_sized + h] += s * n;
        if i + 1 == end {
            f[tops + lifted] += s;
            f[tops + 2 + lifted] += s * size;
        }
        if i == start {
            f[tops + 4 + lifted] += s;
        }
        f[tops + 6 + lifted] += s * size;
        seen[group] += 1;
    }
    let counts = [piles, liftable_piles, white_tops].map(|count| count as usize);
    times_the_side(&mut f[tops + 8..], to_move, len, counts);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_features_by_groups_are_those_button_by_button() {
        crate::sim::playout::each_random_battle(7, [1, 3, 6, 8, 10], 200, |p, mv| {
            if mv.is_some() {
                assert_eq!(features(p), features_button_by_button(p), "{p:?}");
            }
        });
    }
}
