//! Reading a record: the tags, the shape of each battle, then every move replayed by
//! the rules and every written result checked against theirs.

use std::collections::HashSet;

use super::error::RecordError;
use super::lex::{lex, Kind, TagLine};
use super::shape::{shape, BattleText, MoveText};
use super::tally::{letters, result_tag, result_text};
use super::{Notes, Record};
use crate::game::error::IllegalMove;
use crate::game::match_rules::Match;
use crate::game::notation::parse_start;
use crate::game::pieces::Player;
use crate::game::rng::entropy_seed;
use crate::game::standing::{check_target, StandingError, STANDARD_TARGET};
use crate::game::variant::{Capability, VariantError, STANDARD_PER_COLOUR};

/// Reads one record. A record without a `Seed` tag shuffles the battles after its own
/// from a fresh seed.
pub fn read(text: &str) -> Result<Record, RecordError> {
    read_at(text, 1)
}

/// A record's bytes as its text, or a `RecordError` at the line of the first byte that
/// is not UTF-8 (for doors that read bytes: C, a file).
pub fn text(bytes: &[u8]) -> Result<&str, RecordError> {
    std::str::from_utf8(bytes).map_err(|error| {
        let at = error.valid_up_to();
        let line_start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line_end = bytes[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| at + i);
        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
        RecordError::at(
            line,
            &String::from_utf8_lossy(&bytes[line_start..line_end]),
            format!("the text is not UTF-8 (byte 0x{:02x} at {at})", bytes[at]),
        )
    })
}

/// Reads every record of a text, such as a file of a tournament's records: a record
/// starts at a tag line that follows the battles of the one before.
pub fn read_all(text: &str) -> Result<Vec<Record>, RecordError> {
    split(text)
        .into_iter()
        .map(|(line, part)| read_at(part, line))
        .collect()
}

/// The records of a text, each with the number of its first line.
fn split(text: &str) -> Vec<(usize, &str)> {
    let mut parts = Vec::new();
    let (mut start, mut start_line, mut offset) = (0, 1, 0);
    let mut seen_body = false;
    for (index, line) in text.split('\n').enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && seen_body {
            parts.push((start_line, &text[start..offset]));
            (start, start_line, seen_body) = (offset, index + 1, false);
        } else if !trimmed.is_empty() && !trimmed.starts_with('[') {
            seen_body = true;
        }
        offset += line.len() + 1;
    }
    if !text[start..].trim().is_empty() {
        parts.push((start_line, &text[start..]));
    }
    parts
}

/// What the tags say about the match.
struct Header {
    tags: Vec<(String, String)>,
    target: u32,
    per_colour: usize,
    seed: Option<u64>,
    deals: Vec<(usize, String)>,
    score: Option<TagLine>,
    result: Option<TagLine>,
}

fn read_at(text: &str, first_line: usize) -> Result<Record, RecordError> {
    if text.len() > super::MAX_RECORD_BYTES {
        return Err(RecordError::TooLong { bytes: text.len() });
    }
    let (tag_lines, tokens) = lex(text, first_line)?;
    let end_line = tokens
        .last()
        .map(|t| t.line)
        .or(tag_lines.last().map(|t| t.line))
        .unwrap_or(first_line);
    let header = header(tag_lines)?;
    let mut notes = Notes::default();
    let battles = shape(tokens, &mut notes, end_line)?;
    let game = replay(&header, &battles, end_line)?;
    check_standing_tags(&header, &game)?;
    Ok(Record {
        tags: header.tags,
        game,
        notes,
    })
}

/// The tags: the match's own read, the others kept.
fn header(tag_lines: Vec<TagLine>) -> Result<Header, RecordError> {
    let mut header = Header {
        tags: Vec::new(),
        target: STANDARD_TARGET,
        per_colour: STANDARD_PER_COLOUR,
        seed: None,
        deals: Vec::new(),
        score: None,
        result: None,
    };
    let mut seen = HashSet::new();
    for tag in tag_lines {
        let bad = |message: String| RecordError::at(tag.line, &tag.name, message);
        if !seen.insert(tag.name.clone()) {
            return Err(bad(format!("the tag {} is given twice", tag.name)));
        }
        let number = || tag.value.trim().parse::<i64>().ok();
        match tag.name.as_str() {
            // A value that is no number (or past i64) is named as written, not as -1.
            "Target" => {
                header.target = number()
                    .ok_or_else(|| StandingError::BadTarget(tag.value.trim().to_string()))
                    .and_then(check_target)
                    .map_err(|e| bad(format!("{e} (the tag Target is '{}')", tag.value)))?;
            }
            "PerColour" => {
                header.per_colour = number()
                    .ok_or_else(|| VariantError {
                        capability: Capability::Rules,
                        per_colour: tag.value.trim().to_string(),
                    })
                    .and_then(|n| Capability::Rules.check(n))
                    .map_err(|e| bad(format!("{e} (the tag PerColour is '{}')", tag.value)))?;
            }
            "Seed" => {
                let seed = tag.value.trim().parse::<u64>().map_err(|_| {
                    bad(format!(
                        "the seed is a whole number from 0 to 2^64 - 1, not '{}'",
                        tag.value
                    ))
                })?;
                header.seed = Some(seed);
            }
            "Deals" => {
                let orders = tag
                    .value
                    .split_whitespace()
                    .map(|o| (tag.line, o.to_string()));
                header.deals = orders.collect();
            }
            "Score" => header.score = Some(tag),
            "Result" => header.result = Some(tag),
            _ => header.tags.push((tag.name, tag.value)),
        }
    }
    Ok(header)
}

/// A start order checked: its letters and its count of each colour.
fn check_order(line: usize, order: &str, per_colour: usize, what: &str) -> Result<(), RecordError> {
    let start = parse_start(order, Player::Red)
        .map_err(|e| RecordError::at(line, order, format!("{what}: {e}")))?;
    if start.per_colour() != Some(per_colour) {
        return Err(RecordError::at(
            line,
            order,
            format!("{what} does not have {per_colour} buttons of each colour (the tag PerColour)"),
        ));
    }
    Ok(())
}

/// The match the battles make, every move checked by the rules.
fn replay(header: &Header, battles: &[BattleText], end_line: usize) -> Result<Match, RecordError> {
    let mut orders = Vec::new();
    for (b, battle) in battles.iter().enumerate() {
        let order = battle.order.as_ref().map(|t| (t.line, t.text.clone()));
        let (line, order) = order.unwrap_or_default();
        check_order(
            line,
            &order,
            header.per_colour,
            &format!("battle {}'s start", b + 1),
        )?;
        orders.push(order);
    }
    for (line, order) in &header.deals {
        check_order(*line, order, header.per_colour, "a deal of the tag Deals")?;
        orders.push(order.clone());
    }
    let orders: Vec<&str> = orders.iter().map(String::as_str).collect();
    let first = &battles[0];
    let starter = first.side.as_ref().map_or(Player::Red, |s| s.1);
    let seed = header.seed.unwrap_or_else(entropy_seed);
    let mut game = Match::new(starter, header.target, header.per_colour, seed, &orders)
        .map_err(|e| RecordError::at(first.number.line, &first.number.text, e.to_string()))?;
    for (b, battle) in battles.iter().enumerate() {
        start_battle(&mut game, b, battle)?;
        for (ply, mv) in battle.moves.iter().enumerate() {
            play(&mut game, b, ply, mv)?;
        }
        end_battle(&game, b, battle, battles.get(b + 1), end_line)?;
    }
    Ok(game)
}

/// Checks battle `b`'s number and starter (the tie rule's choice when one is due).
fn start_battle(game: &mut Match, b: usize, battle: &BattleText) -> Result<(), RecordError> {
    let number = b + 1;
    let token = &battle.number;
    if battle.number.kind != Kind::Number(number as u64) {
        let message = format!("battle {number} comes here, written '{number}.'");
        return Err(RecordError::at(token.line, &token.text, message));
    }
    let Some((side_token, side)) = &battle.side else {
        return Ok(());
    };
    let standing = *game.standing();
    if let Some(winner) = game.winner() {
        let message = format!(
            "the match is over: {} won {}-{}, so there is no battle {number}",
            winner.name(),
            standing.red,
            standing.black
        );
        return Err(RecordError::at(token.line, &token.text, message));
    }
    if game.chooser().is_some() {
        game.choose_starter(*side)
            .map_err(|e| RecordError::at(side_token.line, &side_token.text, e.to_string()))?;
    } else if game.starter() != *side {
        let starter = game.starter();
        let why = if standing.red != standing.black {
            format!(
                "{} is behind {}-{}",
                starter.name(),
                standing.red,
                standing.black
            )
        } else {
            format!(
                "no battle has had a winner, so {} starts again",
                starter.name()
            )
        };
        let message = format!(
            "{} starts battle {number}, not {} ({why})",
            starter.name(),
            side.name()
        );
        return Err(RecordError::at(side_token.line, &side_token.text, message));
    }
    Ok(())
}

/// Plays move `ply` of battle `b`, checking its `+`.
fn play(game: &mut Match, b: usize, ply: usize, mv: &MoveText) -> Result<(), RecordError> {
    let token = &mv.token;
    let bad = |message: String| RecordError::at(token.line, &token.text, message);
    if game.battles().len() > b {
        return Err(bad(format!(
            "battle {} is over after {ply} moves: its result comes next",
            b + 1
        )));
    }
    let position = game.position();
    let pile = mv.pile.ok_or_else(|| {
        let pile = token.text.trim_end_matches('+').to_string();
        let piles = position.pile_count();
        bad(IllegalMove::NoSuchPile { pile, piles }.to_string())
    })?;
    let sowing = game
        .play(pile)
        .map_err(|e| bad(format!("{e} (in {position})")))?;
    match (sowing.outcome.extra_move, mv.plus) {
        (true, false) => Err(bad(format!(
            "{pile} gives an extra move in {position}: it is written {pile}+"
        ))),
        (false, true) => Err(bad(format!(
            "{pile} gives no extra move in {position}: it is written {pile}, without '+'"
        ))),
        _ => Ok(()),
    }
}

/// Checks the ending written for battle `b` against the rules: the final pile, the
/// result and the score; none when the battle is not over, which only the last may be.
fn end_battle(
    game: &Match,
    b: usize,
    battle: &BattleText,
    next: Option<&BattleText>,
    end_line: usize,
) -> Result<(), RecordError> {
    let number = b + 1;
    let Some(done) = game.battles().get(b) else {
        let piles = game.position().pile_count();
        if let Some(token) = battle.ending() {
            let message = format!("battle {number} is not over: {piles} piles are left");
            return Err(RecordError::at(token.line, &token.text, message));
        }
        if let Some(next) = next {
            let message = format!(
                "battle {number} is not over ({piles} piles are left), so battle {} cannot start",
                number + 1
            );
            return Err(RecordError::at(
                next.number.line,
                &next.number.text,
                message,
            ));
        }
        return Ok(());
    };
    let margin = done.scoring.margin();
    let result = result_text(margin);
    let Some((result_token, written)) = &battle.result else {
        let message =
            format!("battle {number} is over: its result, {result}, follows its last move");
        return Err(match next.map(|n| &n.number).or(battle.ending()) {
            Some(token) => RecordError::at(token.line, &token.text, message),
            None => RecordError::at_end(end_line, message),
        });
    };
    let last = letters(&done.last);
    if let Some(token) = battle.last.as_ref().filter(|t| t.text != last) {
        let message = format!(
            "battle {number} ends in the pile {last}, not {}",
            token.text
        );
        return Err(RecordError::at(token.line, &token.text, message));
    }
    if i64::from(margin) != *written {
        let message = format!(
            "battle {number} ends with Red {} and Black {}: its result is {result}",
            done.scoring.red, done.scoring.black
        );
        return Err(RecordError::at(
            result_token.line,
            &result_token.text,
            message,
        ));
    }
    // Battle `b` is the latest finished one: the standing is the score after it.
    let (red, black) = (game.standing().red, game.standing().black);
    if let Some((token, r, k)) = &battle.score {
        if (*r, *k) != (u64::from(red), u64::from(black)) {
            let message = format!("the score after battle {number} is {red}-{black}");
            return Err(RecordError::at(token.line, &token.text, message));
        }
    }
    Ok(())
}

/// Checks the tags `Score` and `Result` against the match read.
fn check_standing_tags(header: &Header, game: &Match) -> Result<(), RecordError> {
    let standing = game.standing();
    let score = format!("{}-{}", standing.red, standing.black);
    if let Some(tag) = header.score.as_ref().filter(|t| t.value.trim() != score) {
        let message = format!("the battles make the score {score}, not '{}'", tag.value);
        return Err(RecordError::at(tag.line, &tag.name, message));
    }
    let result = result_tag(game);
    if let Some(tag) = header.result.as_ref().filter(|t| t.value.trim() != result) {
        let message = match game.winner() {
            Some(winner) => format!(
                "{} won the match: the tag Result is \"{result}\"",
                winner.name()
            ),
            None => "the match is not over: the tag Result is \"*\"".to_string(),
        };
        return Err(RecordError::at(tag.line, &tag.name, message));
    }
    Ok(())
}
