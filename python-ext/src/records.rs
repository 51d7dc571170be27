//! Match records for Python: `Match.record(**tags)`, `Match.from_record(text)`,
//! `read_records(text)` and the parts behind `buttonup.read_record` (the format of
//! docs/notation.md, read and written by `game::record`).

use crate::errors::OrRaise;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::convert::type_name;
use super::errors::{record_error, wrong_type};
use buttonup::game::match_rules::Match;
use buttonup::game::record::{self, Notes, Place};

/// The record of `game` with the tags of `tags` (a str each; `Seed=None` leaves the
/// seed out, and so the shuffles of the battles to come), the `comments` (str) and
/// `values` (float) of moves keyed by `(battle, move)`, the battle from 1, the move from 0.
pub(crate) fn write_record(
    game: &Match,
    tags: Option<&Bound<'_, PyDict>>,
    comments: Option<&Bound<'_, PyDict>>,
    values: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let mut pairs = Vec::new();
    let mut seed = true;
    if let Some(tags) = tags {
        for (name, value) in tags.iter() {
            let name: String = name
                .extract()
                .map_err(|_| not_writable("a tag name is not valid Unicode (a lone surrogate)"))?;
            if name == "Seed" && value.is_none() {
                seed = false;
                continue;
            }
            let text = value
                .cast::<PyString>()
                .map_err(|_| wrong_type(&format!("the tag {name}"), "a str", &type_name(&value)))?;
            let text = text.extract::<String>().map_err(|_| {
                not_writable(&format!(
                    "the tag {name} is not valid Unicode (a lone surrogate)"
                ))
            })?;
            pairs.push((name, text));
        }
    }
    let mut notes = Notes::default();
    for (key, text) in entries(comments)? {
        let text = text
            .cast::<PyString>()
            .map_err(|_| wrong_type("a comment", "a str", &type_name(&text)))?;
        let text = text
            .extract::<String>()
            .map_err(|_| not_writable("a comment is not valid Unicode (a lone surrogate)"))?;
        notes.comments.push((Place::Move(key.0, key.1), text));
    }
    for (key, value) in entries(values)? {
        let number = value
            .extract::<f64>()
            .map_err(|_| wrong_type("a value", "a float", &type_name(&value)))?;
        notes.values.push((key, number));
    }
    record::write(game, &pairs, &notes, seed).or_raise()
}

/// A note's `(battle, move)` with what the note holds.
type Keyed<'py> = ((usize, usize), Bound<'py, PyAny>);

/// The `(battle, move)` keys of a dict of notes, with their values.
fn entries<'py>(notes: Option<&Bound<'py, PyDict>>) -> PyResult<Vec<Keyed<'py>>> {
    let Some(notes) = notes else {
        return Ok(Vec::new());
    };
    notes
        .iter()
        .map(|(key, value)| {
            let key = key.extract::<(usize, usize)>().map_err(|_| {
                wrong_type(
                    "a note's key",
                    "(battle, move): the battle from 1, the move from 0",
                    &type_name(&key),
                )
            })?;
            Ok((key, value))
        })
        .collect()
}

/// A record that cannot be written, in the words of the core's writing errors.
fn not_writable(why: &str) -> PyErr {
    record_error(format!("cannot write the record: {why}"))
}

/// The text of a record argument (a str). A str that is not valid Unicode (a lone
/// surrogate, which Rust text cannot hold) is a `RecordError` naming its line.
fn record_text(text: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let text = text
        .cast::<PyString>()
        .map_err(|_| wrong_type(what, "a str", &type_name(text)))?;
    if let Ok(text) = text.extract::<String>() {
        return Ok(text);
    }
    let ord = text.py().import("builtins")?.getattr("ord")?;
    let mut line = 1;
    for (index, character) in text.try_iter()?.enumerate() {
        let code: u32 = ord.call1((character?,))?.extract()?;
        if code == u32::from(b'\n') {
            line += 1;
        } else if (0xD800..=0xDFFF).contains(&code) {
            return Err(record_error(format!(
                "line {line}: the text is not valid Unicode: a lone surrogate U+{code:04X} at index {index}"
            )));
        }
    }
    Err(record_error(format!("{what} is not valid Unicode")))
}

/// The match of a record's text (a str).
pub(crate) fn read_record(text: &Bound<'_, PyAny>) -> PyResult<Match> {
    Ok(record::read(&record_text(text, "a record")?)
        .or_raise()?
        .game)
}

/// The comments and values of moves, each with its `(battle, move)`.
type MoveNotes = (Vec<((usize, usize), String)>, Vec<((usize, usize), f64)>);

/// A record's match, its tags and the notes of its moves.
pub(crate) type RecordParts<M> = (M, Vec<(String, String)>, MoveNotes);

/// A record's match, its tags (all but those written from the match) and the
/// comments and values of its moves, keyed by `(battle, move)`: what
/// `buttonup.read_record` makes a `Record` of.
pub(crate) fn read_record_parts(text: &Bound<'_, PyAny>) -> PyResult<RecordParts<Match>> {
    let read = record::read(&record_text(text, "a record")?).or_raise()?;
    let comments = read
        .notes
        .comments
        .into_iter()
        .filter_map(|(place, text)| match place {
            Place::Move(battle, ply) => Some(((battle, ply), text)),
            _ => None,
        })
        .collect();
    Ok((read.game, read.tags, (comments, read.notes.values)))
}

/// Every match of a text of records one after the other: a record starts at a tag line
/// that follows the battles of the one before.
pub(crate) fn read_all(text: &Bound<'_, PyAny>) -> PyResult<Vec<Match>> {
    let records = record::read_all(&record_text(text, "records")?).or_raise()?;
    Ok(records.into_iter().map(|r| r.game).collect())
}
