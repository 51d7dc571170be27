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

use crate::game::variant::{start_orders, VariantError};

/// The classes of the starts of one variant under rotation and the colour swap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartClasses {
    /// One start order of each class, to be solved with Red to move: the smallest of its
    /// rotations, the classes numbered in the order in which [`rows`](Self::rows) first
    /// names them.
    pub representatives: Vec<String>,
    /// The class of every start, in the order of the table: the start order `i` of
    /// [`start_orders`] with Red to move is row `2 * i`, with Black to move row `2 * i +
    /// 1`. Its value is the value of its class's representative with Red to move.
    pub rows: Vec<u32>,
}

/// The smallest rotation of a start order (letters `B < R < W`).
fn smallest_rotation(order: &[u8]) -> Vec<u8> {
    let mut best = order.to_vec();
    let mut turned = order.to_vec();
    for _ in 1..order.len() {
        turned.rotate_left(1);
        if turned < best {
            best.clone_from(&turned);
        }
    }
    best
}

/// The start order with red and black exchanged.
fn swapped(order: &[u8]) -> Vec<u8> {
    order
        .iter()
        .map(|&letter| match letter {
            b'R' => b'B',
            b'B' => b'R',
            other => other,
        })
        .collect()
}

/// The classes of every start of `per_colour` buttons of each colour (as many as
/// [`start_orders`] lists).
pub fn start_classes(per_colour: usize) -> Result<StartClasses, VariantError> {
    let orders = start_orders(per_colour)?;
    let mut class_of: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut representatives = Vec::new();
    let mut rows = Vec::with_capacity(2 * orders.len());
    for order in &orders {
        let bytes = order.as_bytes();
        for smallest in [smallest_rotation(bytes), smallest_rotation(&swapped(bytes))] {
            let next = representatives.len() as u32;
            let class = *class_of.entry(smallest).or_insert_with_key(|smallest| {
                // Only the letters B, R and W: the bytes are text.
                representatives.push(String::from_utf8_lossy(smallest).into_owned());
                next
            });
            rows.push(class);
        }
    }
    Ok(StartClasses {
        representatives,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse_start;
    use crate::game::rules::Player;
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
        assert!(start_classes(6).is_err());
    }
}
