//! What a finished battle is worth: the margin itself, or any table of values indexed by
//! the final margin (what match play needs). Values are for Red; Black's are their
//! negation (the battle is zero-sum).

use crate::game::rules::{Player, Position};

/// The value of each final margin, for Red.
#[derive(Clone, Debug, PartialEq)]
pub enum Payoff {
    /// The margin: Red's strength minus Black's.
    Margin,
    /// `values[margin + offset]`; margins past either end take the end value.
    Table {
        /// Added to a margin to index `values`.
        offset: i32,
        /// The value of each margin, the lowest first.
        values: Vec<f64>,
    },
}

impl Payoff {
    /// A table payoff over the margins `lowest..lowest + values.len()`.
    pub fn table(lowest: i32, values: Vec<f64>) -> Payoff {
        Payoff::Table {
            offset: -lowest,
            values,
        }
    }

    /// Red's value of a final margin (or of an estimated one).
    #[inline]
    pub fn for_red(&self, margin: i32) -> f64 {
        match self {
            Payoff::Margin => f64::from(margin),
            Payoff::Table { offset, values } => {
                let last = values.len() as i32 - 1;
                values[(margin + offset).clamp(0, last) as usize]
            }
        }
    }

    /// The value of a margin for `player`.
    #[inline]
    pub fn for_player(&self, margin: i32, player: Player) -> f64 {
        let red = self.for_red(margin);
        match player {
            Player::Red => red,
            Player::Black => -red,
        }
    }

    /// The value of a finished battle for its side to move.
    #[inline]
    pub fn terminal(&self, position: &Position) -> f64 {
        let margin = if position.is_over() {
            position.final_margin()
        } else {
            0
        };
        self.for_player(margin, position.to_move())
    }

    /// Whether swapping the colours negates every value, so that colour-swapped
    /// positions can share transposition entries.
    pub fn is_antisymmetric(&self) -> bool {
        match self {
            Payoff::Margin => true,
            Payoff::Table { offset, values } => {
                let reach = (*offset).max(values.len() as i32);
                (0..=reach).all(|d| self.for_red(d) == -self.for_red(-d))
            }
        }
    }
}
