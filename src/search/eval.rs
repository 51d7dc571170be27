//! The heuristic estimate used at the horizon of depth-limited searches.
//!
//! It projects the final tower: buttons in piles that hold a white button will be lifted
//! and dropped on top of others, so they are expected above every button of a pile
//! without white (which can only be covered); within each group a button higher in its
//! pile is expected higher in the tower. Ranking all buttons that way gives each an
//! estimated strength 1..N, and the estimate is Red's projected sum minus Black's.

use crate::rules::{Colour, Position};

/// Projected final margin (Red minus Black) of an unfinished position.
pub fn projected_margin(position: &Position) -> i32 {
    // Sort keys: (liftable pile, height in pile), stable over the clockwise order.
    let mut keys = [(0u8, 0u8, 0i8); crate::MAX_BUTTONS];
    let mut n = 0;
    for p in 0..position.pile_count() {
        let liftable = position.pile(p).any(|c| c == Colour::White);
        for (height, colour) in position.pile(p).enumerate() {
            let sign = match colour {
                Colour::Red => 1,
                Colour::Black => -1,
                Colour::White => 0,
            };
            keys[n] = (u8::from(liftable), height as u8, sign);
            n += 1;
        }
    }
    let keys = &mut keys[..n];
    keys.sort_by_key(|&(liftable, height, _)| (liftable, height));
    keys.iter()
        .enumerate()
        .map(|(rank, &(_, _, sign))| i32::from(sign) * (rank as i32 + 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse;

    #[test]
    fn finished_towers_are_scored_exactly() {
        let p = parse("RBWWBRWBR b").unwrap();
        assert_eq!(projected_margin(&p), p.margin().unwrap());
    }

    #[test]
    fn liftable_piles_are_expected_on_top() {
        // R sits in a pile with white: it is projected above B.
        assert!(projected_margin(&parse("B/RW r").unwrap()) > 0);
        assert!(projected_margin(&parse("R/BW r").unwrap()) < 0);
    }
}
