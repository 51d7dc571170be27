//! Transposition keys that merge equivalent positions.
//!
//! Swapping Red and Black together with the side to move negates every margin; with a
//! payoff that is antisymmetric (the margin itself), a position with Black to move is
//! keyed as its colour-swapped twin with Red to move, and the value for the side to move
//! is the same for both. Rotating the circle changes nothing in the game either, so
//! [`key`] is the smallest of the rotations that start at a pile; a search's table
//! keys ([`table_key`]) do not merge rotations, which a search almost never meets.

use crate::game::rules::{Player, Position};

/// Rotates the low `width` bits of `x` right by `shift` (`0 < shift < width <= 64`).
#[inline]
fn rotate(x: u64, shift: u32, width: u32) -> u64 {
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    ((x >> shift) | (x << (width - shift))) & mask
}

/// Swaps red and black in every 2-bit cell (codes 1 and 2); white (3) stays.
#[inline]
fn swap_colours(cells: u64) -> u64 {
    ((cells & 0x5555_5555_5555_5555) << 1) | ((cells >> 1) & 0x5555_5555_5555_5555)
}

/// The words of `position` to key, colours swapped if `merge_colours` and Black is to
/// move: the cells, the bottoms, the number of buttons, and the key's tag.
#[inline(always)]
fn oriented(position: &Position, merge_colours: bool) -> (u64, u64, u32, u128) {
    let (mut cells, bottoms, len, mut side) = position.raw();
    if merge_colours && side == Player::Black {
        cells = swap_colours(cells);
        side = Player::Red;
    }
    let tag = (u128::from(side == Player::Black) << 100) | (u128::from(len) << 101);
    (cells, bottoms, len, tag)
}

/// The key of `position` in a search's transposition table: its words as they are
/// (no rotation merged), with the colour swap of the module's comment.
///
/// A search's positions keep the circle cut where the start's was, so two of them are
/// rotations of each other only when different piles were lifted to reach them: on the
/// exact solves of 120 positions of 21 to 23 piles, merging rotations saved 0.05% of
/// the positions visited and cost 17% of the time (docs/performance.md, "The
/// table").
#[inline(always)]
pub(crate) fn table_key(position: &Position, merge_colours: bool) -> u128 {
    let (cells, bottoms, _, tag) = oriented(position, merge_colours);
    (u128::from(bottoms) << 64) | u128::from(cells) | tag
}

/// The transposition key of `position`, merging rotations (the smallest of them), and
/// the index of the pile that comes first in the keyed rotation.
#[inline]
pub fn key(position: &Position, merge_colours: bool) -> (u128, usize) {
    let (cells, bottoms, len, tag) = oriented(position, merge_colours);
    let mut best = (u128::from(bottoms) << 64) | u128::from(cells);
    let mut first = 0;
    let mut starts = bottoms & !1;
    let mut pile = 0;
    while starts != 0 {
        let s = starts.trailing_zeros();
        starts &= starts - 1;
        pile += 1;
        let rotated =
            (u128::from(rotate(bottoms, s, len)) << 64) | u128::from(rotate(cells, 2 * s, 2 * len));
        if rotated < best {
            best = rotated;
            first = pile;
        }
    }
    (best | tag, first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse;

    fn k(text: &str, merge: bool) -> u128 {
        key(&parse(text).unwrap(), merge).0
    }

    #[test]
    fn the_first_pile_of_the_keyed_rotation_is_reported() {
        let (a, first_a) = key(&parse("RW/B/WWB r").unwrap(), false);
        let (b, first_b) = key(&parse("B/WWB/RW r").unwrap(), false);
        assert_eq!(a, b);
        // The same pile comes first in both: RW is pile 0 of the first, pile 2 of the second.
        assert_eq!((first_a + 2) % 3, first_b);
    }

    #[test]
    fn rotations_share_a_key() {
        assert_eq!(k("RW/B/WWB r", false), k("B/WWB/RW r", false));
        assert_eq!(k("RW/B/WWB r", false), k("WWB/RW/B r", false));
        assert_ne!(k("RW/B/WWB r", false), k("RW/WWB/B r", false));
        assert_ne!(k("RW/B/WWB r", false), k("RW/B/WWB b", false));
    }

    #[test]
    fn colour_swaps_share_a_key_when_asked() {
        assert_eq!(k("RW/B/WWB b", true), k("BW/R/WWR r", true));
        assert_ne!(k("RW/B/WWB b", false), k("BW/R/WWR r", false));
        assert_ne!(k("RW/B/WWB r", true), k("BW/R/WWR r", true));
    }

    #[test]
    fn table_keys_merge_colour_swaps_but_not_rotations() {
        let t = |text: &str, merge: bool| table_key(&parse(text).unwrap(), merge);
        assert_eq!(t("RW/B/WWB b", true), t("BW/R/WWR r", true));
        assert_ne!(t("RW/B/WWB b", false), t("BW/R/WWR r", false));
        assert_ne!(t("RW/B/WWB r", true), t("BW/R/WWR r", true));
        // Rotations are other keys for the table, one key for `key`.
        assert_ne!(t("RW/B/WWB r", true), t("B/WWB/RW r", true));
        assert_eq!(k("RW/B/WWB r", true), k("B/WWB/RW r", true));
        // Positions that differ in any word differ in key: the number of buttons, the
        // piles, the side to move.
        let keys = [
            "RW/B/WWB r",
            "RW/BW/WB r",
            "RWB/WWB r",
            "RW/B/WWB b",
            "RW/B/WW b",
        ]
        .map(|text| t(text, false));
        for (i, a) in keys.iter().enumerate() {
            assert!(keys[i + 1..].iter().all(|b| a != b), "{i}");
        }
    }

    #[test]
    fn large_positions_rotate() {
        let text = format!("{}/W/RB r", "R".repeat(29));
        let rotated = format!("W/RB/{} r", "R".repeat(29));
        assert_eq!(k(&text, true), k(&rotated, true));
    }
}
