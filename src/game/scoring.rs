//! Rule 6, the scoring of a finished battle.

use crate::game::pieces::Player;

/// The largest final margin of a battle of `per_colour` buttons of each colour, `2k²`
/// for `k` of each colour: one colour's buttons all on top of the final pile and the
/// other's at its bottom, `k (5k + 1) / 2 - k (k + 1) / 2` (18 for the standard game;
/// the sum of every strength, `n (n + 1) / 2` for `n = 3k` buttons, is a far looser
/// bound). No final pile has a larger margin, so every margin lies in
/// `-max_margin..=max_margin`.
///
/// From two buttons of each colour up, play reaches it: `tests/reachable.rs` checks it
/// exhaustively for 2 and 3 of each colour and by finding such a battle for 4 and 5 (a
/// search found one for 6 too). With one of each, play never does: the first move
/// lifts the white button onto a coloured one and the second lifts those two onto the
/// last, so the white always ends on top and the largest margin played is 1.
pub const fn max_margin(per_colour: usize) -> i32 {
    let k = per_colour as i32;
    2 * k * k
}

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

    /// The sum of `player`'s strengths.
    pub fn sum(&self, player: Player) -> u32 {
        match player {
            Player::Red => self.red,
            Player::Black => self.black,
        }
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
