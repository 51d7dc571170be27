//! Move-path enumeration, the usual first check of a move generator.

use crate::rules::Position;

/// The number of move sequences of length `depth` from `position`; a sequence that ends
/// the battle sooner counts as one leaf. The last ply is counted without being played
/// (every legal move makes one sequence), as chess engines do.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 || position.is_over() {
        return 1;
    }
    if depth == 1 {
        return u64::from(position.legal_move_count());
    }
    position
        .legal_moves()
        .map(|p| perft(&position.play_unchecked(p).position, depth - 1))
        .sum()
}

/// The same count, playing every move of the last ply too: the figure to compare with an
/// engine that counts plainly.
pub fn perft_plain(position: &Position, depth: u32) -> u64 {
    if depth == 0 || position.is_over() {
        return 1;
    }
    position
        .legal_moves()
        .map(|p| perft_plain(&position.play_unchecked(p).position, depth - 1))
        .sum()
}
