//! What the integration tests share: a plain minimax written from the rules alone (no
//! table, no ordering), the oracle the search and the AI are checked against.

use buttonup::{Player, Position};

/// Margin for the side to move under perfect play, by full minimax.
pub fn minimax(position: &Position) -> i32 {
    if position.is_over() {
        let margin = position.margin().unwrap();
        return if position.to_move() == Player::Red {
            margin
        } else {
            -margin
        };
    }
    position
        .legal_moves()
        .map(|mv| {
            let child = position.play_unchecked(mv).position;
            let value = minimax(&child);
            if child.to_move() == position.to_move() {
                value
            } else {
                -value
            }
        })
        .max()
        .unwrap()
}
