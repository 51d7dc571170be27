//! The opponent that a batched environment plays inside Rust in its single-agent form
//! (docs/rl.md): its moves, extra moves included, are played in the same call as the
//! agent's, so that a library stepping the batch sees only the agent's turns.

use crate::game::rng::SplitMix64;
use crate::game::rules::Position;

/// Who plays the side that is not the agent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpponentKind {
    /// Uniformly random legal moves (the built-in level 1).
    Random,
}

impl OpponentKind {
    /// The levels played inside Rust, as text for messages.
    pub const LEVELS: &'static str = "1";

    /// The kind for a built-in level, where Rust plays it: `None` for a level it does
    /// not play (the caller then plays that opponent itself).
    pub fn for_level(level: i64) -> Option<OpponentKind> {
        match level {
            1 => Some(OpponentKind::Random),
            _ => None,
        }
    }
}

/// One game's opponent: its kind and a generator of its own (so that the deals of a
/// game do not depend on the opponent's moves).
#[derive(Clone, Debug)]
pub struct Opponent {
    kind: OpponentKind,
    rng: SplitMix64,
}

impl Opponent {
    /// An opponent of `kind` drawing from `seed`.
    pub fn new(kind: OpponentKind, seed: u64) -> Opponent {
        Opponent {
            kind,
            rng: SplitMix64::new(seed ^ 0x6f70_706f_6e65_6e74),
        }
    }

    /// A legal move of `position`, which must have one.
    pub fn choose(&mut self, position: &Position) -> usize {
        let mask = position.legal_move_mask();
        match self.kind {
            OpponentKind::Random => nth_set_bit(mask, self.rng.below(u64::from(mask.count_ones()))),
        }
    }
}

/// The index of the `n`-th set bit of `mask` (from 0), which must have more than `n`.
fn nth_set_bit(mut mask: u64, n: u64) -> usize {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_set_bit_walks_the_set_bits_in_order() {
        assert_eq!(nth_set_bit(0b1011_0100, 0), 2);
        assert_eq!(nth_set_bit(0b1011_0100, 1), 4);
        assert_eq!(nth_set_bit(0b1011_0100, 3), 7);
    }

    #[test]
    fn a_random_opponent_plays_legal_moves_and_each_of_them() {
        let position: Position = "W/R/B/W/B/R/R/W/B r".parse().unwrap();
        let mut opponent = Opponent::new(OpponentKind::Random, 7);
        let mut seen = [false; 9];
        for _ in 0..200 {
            let mv = opponent.choose(&position);
            assert!(position.is_legal(mv));
            seen[mv] = true;
        }
        assert_eq!(
            seen,
            [true, false, false, true, false, false, false, true, false]
        );
    }
}
