//! Reproducible shuffles. SplitMix64 and a Fisher-Yates shuffle with unbiased bounded
//! draws; the Python reference implements the same steps, so a seed gives the same start
//! in both engines.

use crate::game::error::PositionError;
use crate::game::rules::{Colour, Player, Position, MAX_BUTTONS};
use crate::game::variant::buttons;

/// The step SplitMix64 adds to its state for each number.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose stream is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The seed of item `i` of a batch seeded with `seed` (battle `i` of a batch of
    /// playouts): the `i`-th number the generator seeded with `seed` gives, found
    /// without drawing the ones before it, so that any thread can start anywhere.
    pub fn nth_seed(seed: u64, i: u64) -> u64 {
        SplitMix64::new(seed.wrapping_add(i.wrapping_mul(GAMMA))).next_u64()
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
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

/// Rule 1's shuffle: `per_colour` buttons of each colour (at most 10) in a uniformly
/// random order, as 2-bit colour codes, the first button lowest. Fisher-Yates from the
/// last place down, over the order red, black, white; the swaps are done on the word of
/// codes itself (two 2-bit fields exchanged by one xor), with no array in memory.
pub fn shuffled_codes(per_colour: usize, rng: &mut SplitMix64) -> u64 {
    let per_colour = per_colour.min(MAX_BUTTONS / 3);
    let n = buttons(per_colour);
    let fill =
        |code: u64, count: usize| -> u64 { (0..count).fold(0, |cells, i| cells | code << (2 * i)) };
    let mut cells = fill(Colour::White.code(), n);
    cells ^= fill(Colour::White.code() ^ Colour::Red.code(), per_colour);
    cells ^= fill(Colour::White.code() ^ Colour::Black.code(), per_colour) << (2 * per_colour);
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        let differ = ((cells >> (2 * i)) ^ (cells >> (2 * j))) & 3;
        cells ^= differ << (2 * i) | differ << (2 * j);
    }
    cells
}

/// Rule 1: `per_colour` buttons of each colour shuffled uniformly into one-button piles.
#[inline]
pub fn random_start(
    per_colour: usize,
    to_move: Player,
    rng: &mut SplitMix64,
) -> Result<Position, PositionError> {
    let n = buttons(per_colour);
    if n > MAX_BUTTONS {
        return Err(PositionError::TooManyButtons { max: MAX_BUTTONS });
    }
    if per_colour == 0 {
        return Err(PositionError::NoWhite);
    }
    let cells = shuffled_codes(per_colour, rng);
    Ok(Position::singletons(cells, n as u32, to_move))
}

impl Position {
    /// Rule 1 from a seed: `per_colour` buttons of each colour shuffled uniformly into
    /// one-button piles, `to_move` moving first; [`random_start`] on a fresh
    /// [`SplitMix64`] of `seed`, so the same start as Python's
    /// `Position.random(seed, to_move=..., per_colour=...)` (the reference engine's
    /// too).
    ///
    /// ```
    /// use buttonup::{Player, Position, PositionError};
    ///
    /// let start = Position::random(3, Player::Red, 7).unwrap();
    /// assert_eq!(start.to_string(), "B/B/R/W/R/W/W/R/B r");
    /// assert_eq!(Position::random(3, Player::Red, 7), Ok(start)); // the same seed
    /// assert_eq!(Position::random(2, Player::Black, 7).unwrap().to_string(), "W/W/R/B/R/B b");
    /// assert_eq!(Position::random(0, Player::Red, 7), Err(PositionError::NoWhite));
    /// ```
    pub fn random(
        per_colour: usize,
        to_move: Player,
        seed: u64,
    ) -> Result<Position, PositionError> {
        random_start(per_colour, to_move, &mut SplitMix64::new(seed))
    }
}

/// A seed from the operating system's hash randomness, for callers that give none.
pub fn entropy_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_seed_is_the_generators_nth_number() {
        let mut rng = SplitMix64::new(42);
        for i in 0..10 {
            assert_eq!(SplitMix64::nth_seed(42, i), rng.next_u64());
        }
    }

    /// The shuffle as first written: an array of codes, swapped, then packed.
    fn shuffled_codes_by_array(per_colour: usize, rng: &mut SplitMix64) -> u64 {
        let n = buttons(per_colour);
        let mut codes = [Colour::White.code() as u8; MAX_BUTTONS];
        for (i, code) in codes.iter_mut().enumerate().take(2 * per_colour) {
            let colour = if i < per_colour {
                Colour::Red
            } else {
                Colour::Black
            };
            *code = colour.code() as u8;
        }
        for i in (1..n).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            codes.swap(i, j);
        }
        codes[..n]
            .iter()
            .enumerate()
            .fold(0, |cells, (i, &code)| cells | u64::from(code) << (2 * i))
    }

    #[test]
    fn the_shuffle_on_the_word_is_the_shuffle_on_an_array() {
        for per_colour in 1..=10 {
            let mut a = SplitMix64::new(per_colour as u64);
            let mut b = a.clone();
            for _ in 0..500 {
                let want = shuffled_codes_by_array(per_colour, &mut a);
                assert_eq!(shuffled_codes(per_colour, &mut b), want, "{per_colour}");
            }
        }
    }

    #[test]
    fn a_random_start_is_the_shuffle_in_one_button_piles() {
        let start = random_start(4, Player::Black, &mut SplitMix64::new(3)).unwrap();
        let cells = shuffled_codes(4, &mut SplitMix64::new(3));
        let piles: Vec<[Colour; 1]> = (0..12)
            .map(|i| [Colour::from_code(cells >> (2 * i)).unwrap()])
            .collect();
        assert_eq!(start, Position::from_piles(&piles, Player::Black).unwrap());
        assert!(random_start(0, Player::Red, &mut SplitMix64::new(1)).is_err());
    }
}
