//! Writing a record: the tags, then one line of tokens a battle (wrapped when long),
//! with the comments and values given.

use std::collections::{BTreeMap, HashMap};

use super::error::RecordError;
use super::lex::{check_tag_name, value};
use super::tally::{letters, result_tag, result_text};
use super::{Notes, Place, MATCH_TAGS, ROSTER};
use crate::game::error::describe;
use crate::game::match_rules::Match;

/// The width lines of moves are wrapped to.
const WIDTH: usize = 79;

/// The record of `game`: the tags [`ROSTER`] (`?` where `tags` gives none), the other
/// `tags` in their order, the match's own tags (`Seed` only when `seed`, `Deals` when
/// deals given up front are still to come), then every battle so far with `notes`.
/// Refused: a tag of [`MATCH_TAGS`] or a bad or repeated tag name, a value or comment
/// that would not read back, a note for a move that is not in the match.
pub fn write(
    game: &Match,
    tags: &[(String, String)],
    notes: &Notes,
    seed: bool,
) -> Result<String, RecordError> {
    let mut out = String::new();
    for (name, value) in header(game, tags, seed)? {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&name, &value)?));
    }
    out.push('\n');
    check_notes(game, notes)?;
    let places = by_place(notes)?;
    let comments_at = |place: Place| places.get(&place).cloned().unwrap_or_default();
    // The last value given for a move is the one written.
    let values: HashMap<(usize, usize), f64> = notes.values.iter().copied().collect();
    let match_comments = comments_at(Place::Match);
    if !match_comments.is_empty() {
        out.push_str(&wrap(&match_comments));
    }
    let playing = game.check_playing().is_ok();
    let finished = game
        .battles()
        .iter()
        .map(|b| (b.start, b.starter, &b.moves[..]));
    let current = playing.then(|| (game.start(), game.starter(), game.moves()));
    let (mut red, mut black) = (0u32, 0u32);
    for (b, (start, starter, moves)) in finished.chain(current).enumerate() {
        let mut tokens = vec![
            format!("{}.", b + 1),
            letters(&start),
            starter.letter().to_string(),
        ];
        let number = b + 1;
        tokens.extend(comments_at(Place::Start(number)));
        let mut position = start;
        for (ply, &mv) in moves.iter().enumerate() {
            let outcome = position
                .play(mv)
                .map_err(|e| RecordError::Write(format!("battle {number}: {e}")))?;
            position = outcome.position;
            tokens.push(format!("{mv}{}", if outcome.extra_move { "+" } else { "" }));
            if let Some(&v) = values.get(&(number, ply)) {
                tokens.push(format!("({})", value_text(v)?));
            }
            tokens.extend(comments_at(Place::Move(number, ply)));
        }
        if let Some(done) = game.battles().get(b) {
            let margin = done.scoring.margin();
            match margin.signum() {
                1 => red = red.saturating_add(margin.unsigned_abs()),
                -1 => black = black.saturating_add(margin.unsigned_abs()),
                _ => {}
            }
            tokens.push(letters(&done.last));
            tokens.push(result_text(margin));
            tokens.push(format!("{red}-{black}"));
            tokens.extend(comments_at(Place::End(number)));
        }
        out.push_str(&wrap(&tokens));
    }
    Ok(out)
}

/// The tags in the order written, checked.
fn header(
    game: &Match,
    tags: &[(String, String)],
    seed: bool,
) -> Result<Vec<(String, String)>, RecordError> {
    let mut seen = std::collections::HashSet::new();
    for (name, _) in tags {
        check_tag_name(name).map_err(RecordError::Write)?;
        if MATCH_TAGS.contains(&name.as_str()) {
            return Err(RecordError::Write(format!(
                "the tag {name} is written from the match itself"
            )));
        }
        if !seen.insert(name.as_str()) {
            return Err(RecordError::Write(format!("the tag {name} is given twice")));
        }
    }
    let given = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let mut out: Vec<(String, String)> = ROSTER
        .iter()
        .map(|&name| {
            (
                name.to_string(),
                given(name).unwrap_or_else(|| "?".to_string()),
            )
        })
        .collect();
    out.extend(
        tags.iter()
            .filter(|(n, _)| !ROSTER.contains(&n.as_str()))
            .cloned(),
    );
    out.push(("Target".into(), game.target().to_string()));
    out.push(("PerColour".into(), game.per_colour().to_string()));
    if seed {
        out.push(("Seed".into(), game.seed().to_string()));
    }
    let begun = game.battles().len() + usize::from(game.check_playing().is_ok());
    let to_come: Vec<String> = game.deals().iter().skip(begun).map(letters).collect();
    if !to_come.is_empty() && game.winner().is_none() {
        out.push(("Deals".into(), to_come.join(" ")));
    }
    let standing = game.standing();
    out.push((
        "Score".into(),
        format!("{}-{}", standing.red, standing.black),
    ));
    out.push(("Result".into(), result_tag(game).to_string()));
    Ok(out)
}

/// A tag's value with `\` and `"` escaped; a control character is refused.
fn escape(name: &str, value: &str) -> Result<String, RecordError> {
    if let Some(c) = value.chars().find(|c| c.is_control()) {
        return Err(RecordError::Write(format!(
            "the tag {name} holds {}: a tag's value is one line without control characters",
            describe(c)
        )));
    }
    Ok(value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The comments of each place, each in braces, in their order; a comment that would
/// not read back is refused.
fn by_place(notes: &Notes) -> Result<BTreeMap<Place, Vec<String>>, RecordError> {
    let mut places: BTreeMap<Place, Vec<String>> = BTreeMap::new();
    for (place, text) in &notes.comments {
        if let Some(c) = text
            .chars()
            .find(|&c| c == '{' || c == '}' || c.is_control())
        {
            return Err(RecordError::Write(format!(
                "a comment {} holds {}: a comment is one line without braces or control \
                 characters",
                where_is(*place),
                describe(c)
            )));
        }
        places
            .entry(*place)
            .or_default()
            .push(format!("{{{}}}", text.trim()));
    }
    Ok(places)
}

/// A value as written (`+1`, `-0.25`, or with an exponent, `+2.5e-30`, when plain
/// digits would be too many), refused when it would not read back the same: only a
/// value that is not finite.
fn value_text(v: f64) -> Result<String, RecordError> {
    [format!("{v:+}"), format!("{v:+e}")]
        .into_iter()
        .find(|text| value(text).is_ok_and(|back| back == v))
        .ok_or_else(|| {
            RecordError::Write(format!("the value {v} cannot be written: it is not finite"))
        })
}

/// Every note's place is in the match.
fn check_notes(game: &Match, notes: &Notes) -> Result<(), RecordError> {
    let battles = game.battles().len() + usize::from(game.check_playing().is_ok());
    let moves = |number: usize| match game.battles().get(number - 1) {
        Some(battle) => battle.moves.len(),
        None => game.moves().len(),
    };
    let known = |place: Place| match place {
        Place::Match => true,
        Place::Start(n) => (1..=battles).contains(&n),
        Place::Move(n, ply) => (1..=battles).contains(&n) && ply < moves(n),
        Place::End(n) => (1..=game.battles().len()).contains(&n),
    };
    let places = notes.comments.iter().map(|(p, _)| *p);
    let places = places.chain(
        notes
            .values
            .iter()
            .map(|((n, ply), _)| Place::Move(*n, *ply)),
    );
    for place in places {
        if !known(place) {
            return Err(RecordError::Write(format!(
                "a note {}: the match has no such place",
                where_is(place)
            )));
        }
    }
    Ok(())
}

/// Where a note stands, in words.
fn where_is(place: Place) -> String {
    match place {
        Place::Match => "before the first battle".to_string(),
        Place::Start(n) => format!("at the start of battle {n}"),
        Place::Move(n, ply) => format!("after move {ply} of battle {n}"),
        Place::End(n) => format!("after the result of battle {n}"),
    }
}

/// Tokens joined by spaces into lines of at most [`WIDTH`] characters (a longer token
/// stands alone), continuation lines indented by two spaces.
fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for token in tokens {
        if !line.trim().is_empty() && line.len() + 1 + token.len() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = "  ".to_string();
        }
        if !line.trim().is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}
