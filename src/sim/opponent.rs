//! The opponent that a batched environment plays inside Rust in its single-agent form
//! (docs/rl.md): its moves, extra moves included, are played in the same call as the
//! agent's, so that a library stepping the batch sees only the agent's turns.

use crate::ai::{Bot, Level};
use crate::game::rng::SplitMix64;
use crate::game::rules::Position;

/// Who plays the side that is not the agent's: a level of the scale of `crate::ai`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpponentKind {
    level: i64,
}

impl OpponentKind {
    /// The levels played inside Rust, as text for messages.
    pub const LEVELS: &'static str = "1 to 10";

    /// The kind for a built-in level, where Rust plays it: `None` for a level it does
    /// not play (the caller then plays that opponent itself).
    pub fn for_level(level: i64) -> Option<OpponentKind> {
        (1..=10).contains(&level).then_some(OpponentKind { level })
    }

    /// Its level.
    pub fn level(self) -> i64 {
        self.level
    }
}

/// One game's opponent: its kind and a generator of its own (so that the deals of a
/// game do not depend on the opponent's moves, nor its moves on which thread steps it).
#[derive(Clone, Debug)]
pub struct Opponent {
    kind: OpponentKind,
    rng: SplitMix64,
}

/// The bot that plays the levels above 1 for the games of one part of a batch: one
/// table for all of them, which soon holds the values of the variant's positions (the
/// same bot per game, with a table that cold, searches some 20 times longer). Each
/// move's random choices come from the game's own generator, so the table changes
/// only how fast a move is found, never which.
pub type SharedBot = Option<Bot>;

impl Opponent {
    /// An opponent of `kind` drawing from `seed`.
    pub fn new(kind: OpponentKind, seed: u64) -> Opponent {
        Opponent {
            kind,
            rng: SplitMix64::new(seed ^ 0x6f70_706f_6e65_6e74),
        }
    }

    /// A legal move of `position`, which must have one; `bot` is the part's bot (made
    /// on first need).
    pub fn choose(&mut self, position: &Position, bot: &mut SharedBot) -> usize {
        let mask = position.legal_move_mask();
        let level = self.kind.level;
        if level == 1 {
            return nth_set_bit(mask, self.rng.below(u64::from(mask.count_ones())));
        }
        let bot = bot.get_or_insert_with(|| {
            let mut bot = Bot::of(Level::RANDOM, 0);
            bot.set_threads(1);
            bot
        });
        // Cannot fail: the level was checked by `for_level`.
        let level = Level::new(level).unwrap_or(Level::PERFECT);
        bot.reset(level, self.rng.next_u64());
        bot.choose(position, None)
            .unwrap_or_else(|| mask.trailing_zeros() as usize)
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
        let mut opponent = Opponent::new(OpponentKind::for_level(1).unwrap(), 7);
        let mut seen = [false; 9];
        for _ in 0..200 {
            let mv = opponent.choose(&position, &mut None);
            assert!(position.is_legal(mv));
            seen[mv] = true;
        }
        assert_eq!(
            seen,
            [true, false, false, true, false, false, false, true, false]
        );
    }

    #[test]
    fn level_nine_plays_the_solved_best_move() {
        // docs/rules.md: from this start perfect play lifts pile 3 (the only best move).
        let position: Position = "W/R/B/W/B/R/R/W/B r".parse().unwrap();
        let mut opponent = Opponent::new(OpponentKind::for_level(9).unwrap(), 1);
        let mut bot = None;
        assert_eq!(opponent.choose(&position, &mut bot), 3);
        assert!(bot.is_some());
        assert!(OpponentKind::for_level(11).is_none() && OpponentKind::for_level(0).is_none());
    }
}
