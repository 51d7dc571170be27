//! Reproducible shuffles. SplitMix64 and a Fisher-Yates shuffle with unbiased bounded
//! draws; the Python reference implements the same steps, so a seed gives the same start
//! in both engines.

use crate::error::PositionError;
use crate::rules::{Colour, Player, Position};

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

    /// A uniform draw from `0..bound` (`bound > 0`), by rejection of the biased low values.
    pub fn below(&mut self, bound: u64) -> u64 {
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let x = self.next_u64();
            if x >= threshold {
                return x % bound;
            }
        }
    }
}

/// Rule 1: `per_colour` buttons of each colour shuffled uniformly into one-button piles.
pub fn random_start(
    per_colour: usize,
    to_move: Player,
    rng: &mut SplitMix64,
) -> Result<Position, PositionError> {
    let mut buttons = Vec::with_capacity(3 * per_colour);
    for colour in [Colour::Red, Colour::Black, Colour::White] {
        buttons.extend(std::iter::repeat_n(colour, per_colour));
    }
    for i in (1..buttons.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        buttons.swap(i, j);
    }
    let piles: Vec<[Colour; 1]> = buttons.into_iter().map(|colour| [colour]).collect();
    Position::from_piles(&piles, to_move)
}

/// A seed from the operating system's hash randomness, for callers that give none.
pub fn entropy_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}
