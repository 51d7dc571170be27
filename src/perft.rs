//! Move-path enumeration, the usual first check of a move generator.

use crate::rules::Position;

/// The number of move sequences of length `depth` from `position`; a sequence that ends
/// the battle sooner counts as one leaf.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 || position.is_over() {
        return 1;
    }
    position
        .legal_moves()
        .map(|p| perft(&position.play_unchecked(p).position, depth - 1))
        .sum()
}
