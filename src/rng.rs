//! Reproducible shuffles. SplitMix64 and a Fisher-Yates shuffle with unbiased bounded
//! draws; the Python reference implements the same steps, so a seed gives the same start
//! in both engines.

use crate::error::PositionError;
use crate::rules::{Colour, Player, Position, MAX_BUTTONS};

/// The SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform draw from `0..bound` (`bound > 0`): the high word of `x * bound`,
    /// rejecting the few `x` that would bias it (Lemire's method, which divides only in
    /// the rare case that a rejection is possible).
    #[inline]
    pub fn below(&mut self, bound: u64) -> u64 {
        let mut m = u128::from(self.next_u64()) * u128::from(bound);
        if (m as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(bound);
            }
        }
        (m >> 64) as u64
    }
}

/// Rule 1: `per_colour` buttons of each colour shuffled uniformly into one-button piles.
pub fn random_start(
    per_colour: usize,
    to_move: Player,
    rng: &mut SplitMix64,
) -> Result<Position, PositionError> {
    let n = 3 * per_colour;
    if n > MAX_BUTTONS {
        return Err(PositionError::TooManyButtons { max: MAX_BUTTONS });
    }
    let mut buttons = [[Colour::White]; MAX_BUTTONS];
    for (i, button) in buttons.iter_mut().enumerate().take(2 * per_colour) {
        *button = [if i < per_colour { Colour::Red } else { Colour::Black }];
    }
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        buttons.swap(i, j);
    }
    Position::from_piles(&buttons[..n], to_move)
}

/// A seed from the operating system's hash randomness, for callers that give none.
pub fn entropy_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}
