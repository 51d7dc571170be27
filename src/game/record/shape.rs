//! The shape of the battles of a record, before the rules look at them: each battle's
//! number, start, moves and ending, the comments and values put aside.

use super::error::RecordError;
use super::lex::{Kind, Token};
use super::{Notes, Place};
use crate::game::pieces::Player;

/// A move as written.
pub(super) struct MoveText {
    pub token: Token,
    pub pile: Option<usize>,
    pub plus: bool,
}

/// A battle as written, before the rules look at it.
pub(super) struct BattleText {
    pub number: Token,
    pub order: Option<Token>,
    pub side: Option<(Token, Player)>,
    pub moves: Vec<MoveText>,
    pub last: Option<Token>,
    pub result: Option<(Token, i64)>,
    pub score: Option<(Token, u64, u64)>,
}

impl BattleText {
    /// The first token written after the moves, if any.
    pub fn ending(&self) -> Option<&Token> {
        self.last
            .as_ref()
            .or(self.result.as_ref().map(|r| &r.0))
            .or(self.score.as_ref().map(|s| &s.0))
    }
}

/// The battles as written: numbers, starts, moves, endings, in their order; the
/// comments and values go to `notes`.
pub(super) fn shape(
    tokens: Vec<Token>,
    notes: &mut Notes,
    end_line: usize,
) -> Result<Vec<BattleText>, RecordError> {
    let mut battles: Vec<BattleText> = Vec::new();
    let mut place = Place::Match;
    let mut after_move = false;
    for token in tokens {
        let bad = |message: String| Err(RecordError::at(token.line, &token.text, message));
        let number = battles.len();
        if let Kind::Comment(text) = &token.kind {
            notes.comments.push((place, text.clone()));
            continue;
        }
        let was_after_move = std::mem::replace(&mut after_move, false);
        let Some(battle) = battles.last_mut().filter(|b| b.side.is_some()) else {
            // Before the first battle, or inside a battle's start.
            match (battles.last_mut(), &token.kind) {
                (None, Kind::Number(_)) => battles.push(new_battle(token)),
                (None, _) => return bad("a record's battles start with '1.', after the tags".into()),
                (Some(battle), Kind::Pile) if battle.order.is_none() => battle.order = Some(token),
                (Some(battle), _) if battle.order.is_none() => {
                    return bad(format!(
                        "battle {number}'s start order comes here, one letter a pile, such as WRBWBRRWB"
                    ))
                }
                (Some(battle), Kind::Side(player)) => {
                    let player = *player;
                    battle.side = Some((token, player));
                    place = Place::Start(number);
                }
                (Some(_), _) => {
                    return bad(format!("battle {number}'s starter comes here, 'r' or 'b'"))
                }
            }
            continue;
        };
        let ended = battle.ending().is_some();
        match &token.kind {
            Kind::Number(_) => {
                battles.push(new_battle(token));
                place = Place::Match;
            }
            Kind::Move { pile, plus } if !ended => {
                place = Place::Move(number, battle.moves.len());
                let (pile, plus) = (*pile, *plus);
                battle.moves.push(MoveText { token, pile, plus });
                after_move = true;
            }
            Kind::Move { .. } => {
                return bad(format!("a move cannot follow battle {number}'s result"))
            }
            Kind::Value(value) if was_after_move => {
                notes
                    .values
                    .push(((number, battle.moves.len() - 1), *value));
            }
            Kind::Value(_) => {
                return bad("a value in parentheses comes right after its move".into())
            }
            Kind::Pile if !ended => {
                battle.last = Some(token);
                place = Place::End(number);
            }
            Kind::Result(margin) if battle.result.is_none() && battle.score.is_none() => {
                battle.result = Some((token.clone(), *margin));
                place = Place::End(number);
            }
            Kind::Score(red, black) if battle.result.is_some() && battle.score.is_none() => {
                battle.score = Some((token.clone(), *red, *black));
            }
            Kind::Score(..) => {
                return bad(format!(
                    "the score comes after battle {number}'s result, once"
                ))
            }
            Kind::Side(_) => return bad("a starter, 'r' or 'b', follows a start order only".into()),
            _ => return bad(format!("this cannot follow the moves of battle {number}")),
        }
    }
    match battles.last() {
        None => Err(RecordError::at_end(
            end_line,
            "a record holds at least the start of battle 1, such as '1. WRBWBRRWB r'".into(),
        )),
        Some(battle) if battle.side.is_none() => Err(RecordError::at_end(
            end_line,
            format!(
                "battle {}'s start is cut short: its start order and starter",
                battles.len()
            ),
        )),
        Some(_) => Ok(battles),
    }
}

fn new_battle(number: Token) -> BattleText {
    BattleText {
        number,
        order: None,
        side: None,
        moves: Vec::new(),
        last: None,
        result: None,
        score: None,
    }
}
