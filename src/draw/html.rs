//! A match as an HTML fragment (what Jupyter shows of a `Match`): its board and a
//! caption with the score and what happens next.

use std::fmt::Write;

use super::{match_board, svg};
use crate::game::match_rules::Match;

/// The HTML of `game` now: a `<figure class="buttonup-match">` holding the picture of
/// its board ([`match_board`]) and a `<figcaption>`: the battle, the score and target,
/// who moves (or chooses, or won) and the moves of the battle drawn.
pub fn match_html(game: &Match) -> String {
    let board = match_board(game);
    let picture = svg::position(&board.position, &board.options()).unwrap_or_default();
    let standing = game.standing();
    // Between battles the board is the latest battle's final pile.
    let finished = game.moves().is_empty() && board.position.is_over();
    let (battle, shown) = match game.battles().last() {
        Some(last) if finished => (game.battles().len(), last.moves.as_slice()),
        _ => (game.battles().len() + 1, game.moves()),
    };
    let state = match (game.winner(), game.chooser()) {
        (Some(winner), _) => format!("{} won the match", winner.name()),
        (None, Some(chooser)) => format!("{} chooses who starts the next battle", chooser.name()),
        (None, None) => format!("{} to move", board.position.to_move().name()),
    };
    let mut out = String::from(r#"<figure class="buttonup-match" style="margin:0">"#);
    out.push_str(&picture);
    let _ = write!(
        out,
        r#"<figcaption style="font-family:sans-serif">Battle {}: Red {}, Black {} (to {}). {state}."#,
        battle, standing.red, standing.black, standing.target
    );
    if !shown.is_empty() {
        let moves: Vec<String> = shown.iter().map(usize::to_string).collect();
        let _ = write!(out, " Moves: {}.", moves.join(" "));
    }
    out.push_str("</figcaption></figure>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Player;

    #[test]
    fn the_caption_follows_the_match() {
        let mut game = Match::new(Player::Red, 15, 3, 3, &["WRBWBRRWB"]).unwrap();
        let html = match_html(&game);
        assert!(html.starts_with(r#"<figure class="buttonup-match" style="margin:0"><svg"#));
        assert!(html.ends_with(
            "<figcaption style=\"font-family:sans-serif\">Battle 1: Red 0, Black 0 (to 15). Red to move.</figcaption></figure>"
        ));
        game.play(3).unwrap();
        assert!(match_html(&game)
            .contains("Battle 1: Red 0, Black 0 (to 15). Black to move. Moves: 3.<"));
    }
}
