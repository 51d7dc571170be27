//! What a record writes of a match's results: the final piles, the battles' results,
//! the scores and the `Result` tag, the same for reading and writing.

use crate::game::match_rules::Match;
use crate::game::pieces::Player;
use crate::game::rules::Position;

/// A battle's result as written: `R+3`, `B+2` or `=`.
pub(super) fn result_text(margin: i32) -> String {
    match margin.signum() {
        1 => format!("R+{margin}"),
        -1 => format!("B+{}", -margin),
        _ => "=".to_string(),
    }
}

/// The letters of a position's buttons, clockwise, each pile bottom first.
pub(super) fn letters(position: &Position) -> String {
    position.buttons().map(|c| c.letter()).collect()
}

/// The `Result` tag of a match: the winner's name, or `*` while it is not over.
pub(super) fn result_tag(game: &Match) -> &'static str {
    game.winner().map_or("*", Player::name)
}
