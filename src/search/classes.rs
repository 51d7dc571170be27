//! The symmetries of a start, for solving every start of a variant once per class.
//!
//! Two symmetries of the rules keep the value of a position (the final margin for the
//! side to move under perfect play):
//! - turning the circle: the piles have no first one (rule 3 sows clockwise from the
//!   lifted pile, wherever it stands), so every rotation of a start order is the same
//!   battle;
//! - swapping the players: the rules treat Red and Black alike (rules 2 to 6 ask only
//!   for white buttons and for a button's own colour), so a start with Black to move is
//!   worth, for Black, what the start with red and black exchanged is worth for Red.
//!
//! So the starts of a variant with either side to move fall into classes of starts with
//! Red to move under rotation: 188 for the 3,360 standard starts, 50,452 for the
//! 1,513,512 of five of each colour. [`start_classes`] names one start of each class
//! and the class of every start.

use std::collections::HashMap;
use std::fmt;

use crate::game::error::wraps;
use crate::game::variant::{buttons, start_order_count, StartOrders, VariantError};
use crate::run::interrupt::{interrupted, Interrupted};

/// The classes of the starts of one variant under rotation and the colour swap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartClasses {
    /// One start order of each class, to be solved with Red to move: the smallest of its
    /// rotations, the classes numbered in the order in which [`rows`](Self::rows) first
    /// names them.
    pub representatives: Vec<String>,
    /// The class of every start, in the order of the table: the start order `i` of
    /// [`start_orders`](crate::game::variant::start_orders) with Red to move is row `2 *
    /// i`, with Black to move row `2 * i + 1`. Its value is the value of its class's
    /// representative with Red to move.
    pub rows: Vec<u32>,
}

/// A start order of at most 32 piles as a number, two bits a pile (`B` 0, `R` 1, `W`
/// 2), the first pile highest: numbers compare as the orders do, and turning the circle
/// or swapping the colours is a few operations on it.
#[derive(Clone, Copy)]
struct Circle {
    piles: u32,
}

impl Circle {
    fn mask(self) -> u64 {
        u64::MAX >> (64 - 2 * self.piles)
    }

    fn code(self, letters: &[u8]) -> u64 {
        letters.iter().fold(0, |code, &letter| {
            (code << 2)
                | match letter {
                    b'B' => 0,
                    b'R' => 1,
                    _ => 2,
                }
        })
    }

    fn letters(self, code: u64) -> String {
        (0..self.piles)
            .rev()
            .map(|pile| ['B', 'R', 'W'][((code >> (2 * pile)) & 3) as usize])
            .collect()
    }

    /// The smallest of the rotations of a start order.
    fn smallest_rotation(self, code: u64) -> u64 {
        let high = 2 * (self.piles - 1);
        let mut best = code;
        let mut turned = code;
        for _ in 1..self.piles {
            // The first pile moved to the end.
            turned = ((turned << 2) & self.mask()) | (turned >> high);
            best = best.min(turned);
        }
        best
    }

    /// The start order with red and black exchanged: `B` (00) and `R` (01) swap their
    /// low bit, `W` (10) stays.
    fn swapped(self, code: u64) -> u64 {
        let low_bits = 0x5555_5555_5555_5555 & self.mask();
        code ^ (!(code >> 1) & low_bits)
    }
}

/// Why the classes of a variant's starts were not listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartClassesError {
    /// The variant has no start orders to list.
    Variant(VariantError),
    /// The rows (4 bytes a start) could not be allocated.
    Memory {
        /// The size asked for.
        bytes: usize,
    },
    /// The calling thread was interrupted.
    Interrupted,
}

wraps! { StartClassesError::Variant(VariantError) }

impl From<Interrupted> for StartClassesError {
    fn from(_: Interrupted) -> Self {
        StartClassesError::Interrupted
    }
}

impl crate::HasKind for StartClassesError {
    fn kind(&self) -> crate::ErrorKind {
        match self {
            StartClassesError::Variant(error) => error.kind(),
            StartClassesError::Memory { .. } => crate::ErrorKind::Memory,
            StartClassesError::Interrupted => crate::ErrorKind::Interrupted,
        }
    }
}

impl fmt::Display for StartClassesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartClassesError::Variant(error) => error.fmt(f),
            StartClassesError::Memory { bytes } => write!(
                f,
                "cannot allocate the classes of every start ({} MiB)",
                bytes.div_ceil(1 << 20)
            ),
            StartClassesError::Interrupted => Interrupted.fmt(f),
        }
    }
}

impl std::error::Error for StartClassesError {}

/// Start orders listed between two looks at [`interrupted`].
const ORDERS_BETWEEN_LOOKS: u32 = 1 << 14;

/// The classes of every start of `per_colour` buttons of each colour (as many as
/// [`start_orders`](crate::game::variant::start_orders) lists), without listing them
/// all at once: 137 MB of rows for the 34 million of six of each colour. Stops when
/// [`interrupted`] says so, and says so when the rows cannot be allocated (rather than
/// ending the process).
pub fn start_classes(per_colour: usize) -> Result<StartClasses, StartClassesError> {
    let count = start_order_count(per_colour)? as usize;
    let circle = Circle {
        piles: buttons(per_colour) as u32,
    };
    let memory = |bytes: usize| StartClassesError::Memory { bytes };
    let mut rows = Vec::new();
    rows.try_reserve_exact(2 * count)
        .map_err(|_| memory(2 * count * std::mem::size_of::<u32>()))?;
    // The classes as codes until the end, every table grown by `try_reserve`: a lack
    // of memory is an error at any point, not the end of the process.
    let mut class_of: HashMap<u64, u32> = HashMap::new();
    let mut representatives: Vec<u64> = Vec::new();
    let mut orders = StartOrders::from(per_colour, 0)?;
    let mut until_look = ORDERS_BETWEEN_LOOKS;
    while let Some(letters) = orders.next_letters() {
        until_look -= 1;
        if until_look == 0 {
            until_look = ORDERS_BETWEEN_LOOKS;
            if interrupted() {
                return Err(StartClassesError::Interrupted);
            }
        }
        let code = circle.code(letters);
        for smallest in [
            circle.smallest_rotation(code),
            circle.smallest_rotation(circle.swapped(code)),
        ] {
            if representatives.len() == representatives.capacity()
                || class_of.len() == class_of.capacity()
            {
                let more = representatives.len().max(1 << 10);
                representatives
                    .try_reserve(more)
                    .map_err(|_| memory(8 * more))?;
                class_of.try_reserve(more).map_err(|_| memory(16 * more))?;
            }
            let next = representatives.len() as u32;
            let class = *class_of.entry(smallest).or_insert_with(|| {
                representatives.push(smallest);
                next
            });
            rows.push(class);
        }
    }
    let mut letters = Vec::new();
    letters
        .try_reserve_exact(representatives.len())
        .map_err(|_| memory(24 * representatives.len()))?;
    letters.extend(representatives.into_iter().map(|code| circle.letters(code)));
    Ok(StartClasses {
        representatives: letters,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse_start;
    use crate::game::rules::Player;
    use crate::game::variant::start_orders;
    use crate::search::{Payoff, Searcher};

    #[test]
    fn the_standard_starts_fall_into_188_classes() {
        let classes = start_classes(3).unwrap();
        assert_eq!(classes.representatives.len(), 188);
        assert_eq!(classes.rows.len(), 3360);
        // Burnside's count of the circles of 3 of each colour up to rotation.
        assert_eq!(start_classes(4).unwrap().representatives.len(), 2896);
        assert_eq!(start_classes(1).unwrap().representatives.len(), 2);
    }

    #[test]
    fn every_start_is_worth_its_representative_with_red_to_move() {
        let mut searcher = Searcher::new(Payoff::Margin, 1 << 20);
        for per_colour in [2, 3] {
            let classes = start_classes(per_colour).unwrap();
            let solved: Vec<i32> = classes
                .representatives
                .iter()
                .map(|order| searcher.solve(&parse_start(order, Player::Red).unwrap()) as i32)
                .collect();
            for (i, order) in start_orders(per_colour).unwrap().iter().enumerate() {
                for (side, player) in [Player::Red, Player::Black].into_iter().enumerate() {
                    let direct = searcher.solve(&parse_start(order, player).unwrap()) as i32;
                    let class = classes.rows[2 * i + side] as usize;
                    assert_eq!(solved[class], direct, "{order} {player:?}");
                }
            }
        }
    }

    #[test]
    fn classes_are_numbered_as_the_rows_first_need_them() {
        let classes = start_classes(3).unwrap();
        let mut next = 0;
        for &class in &classes.rows {
            assert!(class <= next);
            if class == next {
                next += 1;
            }
        }
        assert_eq!(next as usize, classes.representatives.len());
        assert!(start_classes(7).is_err());
    }

    #[test]
    fn each_class_holds_a_rotation_of_its_start_or_of_its_colour_swap() {
        let rotations = |order: &str| -> Vec<String> {
            (0..order.len())
                .map(|i| format!("{}{}", &order[i..], &order[..i]))
                .collect()
        };
        let swap = |order: &str| -> String {
            order
                .chars()
                .map(|c| match c {
                    'R' => 'B',
                    'B' => 'R',
                    c => c,
                })
                .collect()
        };
        let classes = start_classes(4).unwrap();
        for (i, order) in start_orders(4).unwrap().iter().enumerate() {
            let red = &classes.representatives[classes.rows[2 * i] as usize];
            let black = &classes.representatives[classes.rows[2 * i + 1] as usize];
            assert_eq!(red, rotations(order).iter().min().unwrap());
            assert_eq!(black, rotations(&swap(order)).iter().min().unwrap());
        }
    }
}
