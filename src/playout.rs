//! Random playouts with the loop in Rust: the kind of call a Monte Carlo or reinforcement
//! learning user makes many times. The Python reference runs the same steps with the
//! same generator, so a seed gives the same games in both.

use crate::error::PositionError;
use crate::rng::{random_start, SplitMix64};
use crate::rules::{Player, Position};

/// What a batch of random battles came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutSummary {
    pub battles: u64,
    pub moves: u64,
    pub red_wins: u64,
    pub black_wins: u64,
    pub draws: u64,
    /// Sum of the final margins (Red minus Black).
    pub margin_sum: i64,
}

/// A uniformly random legal move of `position` (which must not be over).
#[inline]
pub fn random_move(position: &Position, rng: &mut SplitMix64) -> usize {
    let mut mask = position.legal_move_mask();
    let pick = rng.below(u64::from(mask.count_ones()));
    for _ in 0..pick {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

/// Plays `battles` battles from uniformly shuffled starts (Red moving first in even
/// battles, Black in odd ones) with uniformly random moves.
pub fn random_playouts(
    battles: u64,
    seed: u64,
    per_colour: usize,
) -> Result<PlayoutSummary, PositionError> {
    let mut rng = SplitMix64::new(seed);
    let mut summary = PlayoutSummary::default();
    for i in 0..battles {
        let first = if i % 2 == 0 {
            Player::Red
        } else {
            Player::Black
        };
        let mut position = random_start(per_colour, first, &mut rng)?;
        while !position.is_over() {
            let mv = random_move(&position, &mut rng);
            position = position.play_unchecked(mv).position;
            summary.moves += 1;
        }
        let margin = position.margin().unwrap_or(0);
        summary.battles += 1;
        summary.margin_sum += i64::from(margin);
        match margin.signum() {
            1 => summary.red_wins += 1,
            -1 => summary.black_wins += 1,
            _ => summary.draws += 1,
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_battle_has_one_move_per_removed_pile() {
        let summary = random_playouts(1000, 1, 3).unwrap();
        assert_eq!(summary.battles, 1000);
        assert_eq!(summary.moves, 8000);
        assert_eq!(summary.red_wins + summary.black_wins + summary.draws, 1000);
        assert_eq!(random_playouts(1000, 1, 3).unwrap(), summary);
        assert_ne!(random_playouts(1000, 2, 3).unwrap(), summary);
        assert_eq!(random_playouts(10, 1, 5).unwrap().moves, 140);
    }
}
