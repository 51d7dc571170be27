//! Stable slots by walking a battle: where each pile stands after a list of moves, and
//! the last move as a picture marks it.

use super::layout::{layout_within, MAX_RADIUS};
use super::{DrawOptions, LastMove};
use crate::game::error::IllegalMove;
use crate::game::match_rules::Match;
use crate::game::rules::Position;

/// A position with what its picture needs to keep piles in place: each pile's slot
/// and the move that led to it.
#[derive(Clone, PartialEq, Debug)]
pub struct Board {
    /// The position reached.
    pub position: Position,
    /// The slot of each pile (strictly increasing).
    pub slots: Vec<usize>,
    /// The slots of the circle: the start's pile count.
    pub slot_count: usize,
    /// The last move played, if any.
    pub last_move: Option<LastMove>,
    /// The button radius of its picture: the smallest that any position of the walk
    /// needed, so that the buttons keep one size along a battle.
    pub radius: f64,
}

impl Board {
    /// Options drawing this board (the default look, its slots and last move).
    pub fn options(&self) -> DrawOptions {
        DrawOptions {
            slots: Some(self.slots.clone()),
            slot_count: Some(self.slot_count),
            last_move: self.last_move.clone(),
            max_radius: Some(self.radius),
            ..DrawOptions::default()
        }
    }
}

/// Plays `moves` from `start` and keeps track of the slots: a lift takes the lifted
/// pile's slot out of the list (the notation's renumbering, `docs/notation.md`), and
/// the drops are renumbered as in the position after the move. An illegal move is
/// refused with its error.
pub fn walk(start: &Position, moves: &[usize]) -> Result<Board, IllegalMove> {
    let mut board = Board::new(start);
    for &mv in moves {
        board.play(mv)?;
    }
    Ok(board)
}

impl Board {
    /// A battle's start: pile `i` at slot `i`, no move yet.
    pub fn new(start: &Position) -> Board {
        let mut board = Board {
            position: *start,
            slots: (0..start.pile_count()).collect(),
            slot_count: start.pile_count(),
            last_move: None,
            radius: MAX_RADIUS,
        };
        board.radius = board.needed_radius();
        board
    }

    /// The button radius at which this board's piles fit, at most its radius so far.
    fn needed_radius(&self) -> f64 {
        let heights: Vec<usize> = self.position.piles().map(Iterator::count).collect();
        layout_within(&heights, &self.slots, self.slot_count, self.radius).radius
    }

    /// Plays `mv` (checked) and moves the slots along, as [`walk`] does; an illegal move
    /// changes nothing.
    pub fn play(&mut self, mv: usize) -> Result<(), IllegalMove> {
        let sowing = self.position.sowing(mv)?;
        let drops = sowing
            .drops
            .iter()
            .map(|&pile| if pile > mv { pile - 1 } else { pile })
            .collect();
        let slot = self.slots.remove(mv);
        self.position = sowing.outcome.position;
        self.last_move = Some(LastMove { slot, drops });
        self.radius = self.needed_radius();
        Ok(())
    }
}

/// The board of a match now: its current battle's position with slots and last move;
/// once a battle is over and the next not begun (a starter to choose, or the match
/// won), the final pile of the latest battle, its last move marked.
pub fn match_board(game: &Match) -> Board {
    let position = game.position();
    let (start, moves) = match game.battles().last() {
        Some(battle) if game.moves().is_empty() && battle.last == position => {
            (battle.start, battle.moves.as_slice())
        }
        _ => (game.start(), game.moves()),
    };
    walk(&start, moves).unwrap_or_else(|_| Board::new(&position))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse;
    use crate::game::rules::Player;

    #[test]
    fn a_lift_frees_its_slot_and_renumbers_the_drops() {
        let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
        let board = walk(&start, &[3]).unwrap();
        assert_eq!(board.position.to_string(), "W/R/B/BW/R/R/W/B b");
        assert_eq!(board.slots, [0, 1, 2, 4, 5, 6, 7, 8]);
        // The white of pile 3 landed on pile 4, now pile 3.
        assert_eq!(
            board.last_move,
            Some(LastMove {
                slot: 3,
                drops: vec![3]
            })
        );
        assert_eq!(board.slot_count, 9);
    }

    #[test]
    fn drops_that_wrap_round_keep_their_numbers() {
        // `RBW/BR/WW r`, move 0 overflows: B and W both land on the last pile.
        let start = parse("RBW/BR/WW r").unwrap();
        let board = walk(&start, &[0]).unwrap();
        assert_eq!(board.position.to_string(), "BRR/WWBW b");
        assert_eq!(board.slots, [1, 2]);
        assert_eq!(board.last_move.unwrap().drops, [0, 1, 1]);
        // Lifting the last pile sows onto pile 0 first.
        let board = walk(&parse("B/R/W r").unwrap(), &[2]).unwrap();
        assert_eq!(board.slots, [0, 1]);
        assert_eq!(board.last_move.unwrap().drops, [0]);
    }

    #[test]
    fn the_buttons_keep_one_size_along_a_battle() {
        let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
        let mut board = Board::new(&start);
        assert_eq!(board.radius, MAX_RADIUS);
        let mut radii = vec![board.radius];
        while !board.position.is_over() {
            let mv = board.position.legal_moves().last().unwrap();
            board.play(mv).unwrap();
            radii.push(board.radius);
        }
        assert!(radii.windows(2).all(|pair| pair[1] <= pair[0]), "{radii:?}");
        assert!(radii[8] < radii[0]);
    }

    #[test]
    fn an_illegal_move_is_refused() {
        let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
        assert!(walk(&start, &[1]).is_err());
        assert!(walk(&start, &[0, 40]).is_err());
    }

    #[test]
    fn a_finished_battle_shows_its_last_move() {
        // Target 1: the first battle ends the match, or leaves a starter to choose.
        let mut game = Match::new(Player::Red, 1, 3, 7, &["WRBWBRRWB"]).unwrap();
        let mut played = Vec::new();
        while game.battles().is_empty() {
            let mv = game.legal_moves()[0];
            played.push(mv);
            game.play(mv).unwrap();
        }
        let board = match_board(&game);
        let battle = &game.battles()[0];
        assert_eq!(battle.moves, played);
        assert_eq!(board.position, battle.last);
        assert_eq!(board.slots.len(), 1);
        let before = walk(&battle.start, &played[..played.len() - 1]).unwrap();
        let lifted = before.slots[played[played.len() - 1]];
        assert_eq!(board.last_move.unwrap().slot, lifted);
    }
}
