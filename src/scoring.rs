//! Rule 6, the scoring of a finished battle.

use crate::pieces::Player;

/// Rule 6: the buttons of the final pile have strengths 1 (bottom) to `N` (top); each
/// player adds those of his colour, and the larger sum wins the difference.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Scoring {
    /// Red's sum.
    pub red: u32,
    /// Black's sum.
    pub black: u32,
    /// Bit `s` set when Red has the button of strength `s`.
    red_strengths: u64,
    /// Bit `s` set when Black has the button of strength `s`.
    black_strengths: u64,
}

impl Scoring {
    /// Counts a button of `player` at `strength`.
    pub(crate) fn add(&mut self, player: Player, strength: u32) {
        match player {
            Player::Red => {
                self.red += strength;
                self.red_strengths |= 1 << strength;
            }
            Player::Black => {
                self.black += strength;
                self.black_strengths |= 1 << strength;
            }
        }
    }

    /// The strengths of `player`'s buttons, lowest first.
    pub fn strengths(&self, player: Player) -> impl Iterator<Item = u32> {
        let mut bits = match player {
            Player::Red => self.red_strengths,
            Player::Black => self.black_strengths,
        };
        std::iter::from_fn(move || {
            let s = (bits != 0).then(|| bits.trailing_zeros())?;
            bits &= bits - 1;
            Some(s)
        })
    }

    /// Red's sum minus Black's.
    pub fn margin(&self) -> i32 {
        self.red as i32 - self.black as i32
    }

    /// The player with the larger sum; `None` when the sums are equal.
    pub fn winner(&self) -> Option<Player> {
        match self.red.cmp(&self.black) {
            std::cmp::Ordering::Greater => Some(Player::Red),
            std::cmp::Ordering::Less => Some(Player::Black),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The victory points the winner gains: the difference of the sums.
    pub fn points(&self) -> u32 {
        self.red.abs_diff(self.black)
    }
}
