//! Random playouts with the loop in Rust: the kind of call a Monte Carlo or reinforcement
//! learning user makes many times. The Python reference runs the same steps with the
//! same generator, so a seed gives the same games in both.

use crate::error::PositionError;
use crate::interrupt::{interrupted, Interrupted};
use crate::playout_graph::MoveGraph;
use crate::rng::{random_start, SplitMix64};
use crate::rules::{Player, Position};

/// Why playouts did not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayoutError {
    /// The variant cannot be set up.
    Position(PositionError),
    /// [`interrupted`] said to stop.
    Interrupted,
}

impl From<PositionError> for PlayoutError {
    fn from(error: PositionError) -> Self {
        PlayoutError::Position(error)
    }
}

impl From<Interrupted> for PlayoutError {
    fn from(_: Interrupted) -> Self {
        PlayoutError::Interrupted
    }
}

/// Battles played between two looks at [`interrupted`].
const CHECK_EVERY: u64 = 1024;

/// What a batch of random battles came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayoutSummary {
    pub battles: u64,
    pub moves: u64,
    pub red_wins: u64,
    pub black_wins: u64,
    pub draws: u64,
    /// Sum of the final margins (Red minus Black).
    pub margin_sum: i64,
    /// How many battles ended at each margin: index `margin + reach`, where `reach` is
    /// the largest possible margin.
    pub margins: Vec<u64>,
    pub reach: i32,
}

/// A uniformly random legal move of `position` (which must not be over).
#[inline]
pub fn random_move(position: &Position, rng: &mut SplitMix64) -> usize {
    let (mut mask, count) = position.legal_moves_counted();
    let pick = rng.below(u64::from(count));
    for _ in 0..pick {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

/// Plays `battles` battles from uniformly shuffled starts (Red moving first in even
/// battles, Black in odd ones) with uniformly random moves. Up to three buttons of each
/// colour the loop walks the precomputed [`MoveGraph`]; beyond, it plays the moves.
pub fn random_playouts(
    battles: u64,
    seed: u64,
    per_colour: usize,
) -> Result<PlayoutSummary, PlayoutError> {
    let mut rng = SplitMix64::new(seed);
    let mut summary = PlayoutSummary::new(per_colour);
    if let Some(graph) = MoveGraph::get(per_colour) {
        for i in 0..battles {
            if i % CHECK_EVERY == CHECK_EVERY - 1 && interrupted() {
                return Err(PlayoutError::Interrupted);
            }
            let first = if i % 2 == 0 {
                Player::Red
            } else {
                Player::Black
            };
            let (moves, margin) = graph.playout(first, &mut rng);
            summary.add(moves, margin);
        }
        return Ok(summary);
    }
    bitboard_playouts(battles, &mut rng, per_colour, summary)
}

/// The same playouts with the moves played on bit-packed positions (any variant).
pub fn bitboard_playouts(
    battles: u64,
    rng: &mut SplitMix64,
    per_colour: usize,
    mut summary: PlayoutSummary,
) -> Result<PlayoutSummary, PlayoutError> {
    for i in 0..battles {
        if i % CHECK_EVERY == CHECK_EVERY - 1 && interrupted() {
            return Err(PlayoutError::Interrupted);
        }
        let first = if i % 2 == 0 {
            Player::Red
        } else {
            Player::Black
        };
        let mut position = random_start(per_colour, first, rng)?;
        let mut moves = 0;
        while !position.is_over() {
            let mv = random_move(&position, rng);
            position = position.play_unchecked(mv).position;
            moves += 1;
        }
        summary.add(moves, position.margin().unwrap_or(0));
    }
    Ok(summary)
}

impl PlayoutSummary {
    /// An empty summary for battles of `per_colour` buttons of each colour.
    pub fn new(per_colour: usize) -> PlayoutSummary {
        let n = 3 * per_colour as i32;
        let reach = n * (n + 1) / 2;
        PlayoutSummary {
            margins: vec![0; 2 * reach as usize + 1],
            reach,
            ..PlayoutSummary::default()
        }
    }

    /// The margins that occurred, lowest first, with their counts.
    pub fn margin_counts(&self) -> impl Iterator<Item = (i32, u64)> + '_ {
        self.margins
            .iter()
            .enumerate()
            .filter(|(_, &count)| count > 0)
            .map(|(i, &count)| (i as i32 - self.reach, count))
    }

    fn add(&mut self, moves: u64, margin: i32) {
        let slot = (margin + self.reach).clamp(0, 2 * self.reach) as usize;
        if let Some(count) = self.margins.get_mut(slot) {
            *count += 1;
        }
        self.battles += 1;
        self.moves += moves;
        self.margin_sum += i64::from(margin);
        match margin.signum() {
            1 => self.red_wins += 1,
            -1 => self.black_wins += 1,
            _ => self.draws += 1,
        }
    }
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

    #[test]
    fn the_move_graph_plays_the_same_games_as_the_positions() {
        for per_colour in 1..=3 {
            for seed in [1, 2, 99] {
                let walked = random_playouts(2000, seed, per_colour).unwrap();
                let played = bitboard_playouts(
                    2000,
                    &mut SplitMix64::new(seed),
                    per_colour,
                    PlayoutSummary::new(per_colour),
                )
                .unwrap();
                assert_eq!(walked, played, "{per_colour} of each colour, seed {seed}");
            }
        }
    }
}
