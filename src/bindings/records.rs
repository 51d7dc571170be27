//! Match records for Python: `Match.record(**tags)` and `Match.from_record(text)`
//! (the format of docs/notation.md, read and written by `game::record`).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::convert::type_name;
use super::errors::wrong_type;
use super::matches::PyMatch;
use crate::game::match_rules::Match;
use crate::game::record::{self, Notes};

/// The record of `game` with the tags of `tags` (a str each; `Seed=None` leaves the
/// seed out, and so the shuffles of the battles to come).
pub(crate) fn write_record(game: &Match, tags: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
    let mut pairs = Vec::new();
    let mut seed = true;
    if let Some(tags) = tags {
        for (name, value) in tags.iter() {
            let name: String = name.extract()?;
            if name == "Seed" && value.is_none() {
                seed = false;
                continue;
            }
            let text = value
                .cast::<PyString>()
                .map_err(|_| wrong_type(&format!("the tag {name}"), "a str", &type_name(&value)))?;
            pairs.push((name, text.extract::<String>()?));
        }
    }
    Ok(record::write(game, &pairs, &Notes::default(), seed)?)
}

/// The match of a record's text (a str).
pub(crate) fn read_record(text: &Bound<'_, PyAny>) -> PyResult<Match> {
    let text = text
        .cast::<PyString>()
        .map_err(|_| wrong_type("a record", "a str", &type_name(text)))?;
    Ok(record::read(&text.extract::<String>()?)?.game)
}

/// Every match of a text of records one after the other (a tournament's file): a
/// record starts at a tag line that follows the battles of the one before.
/// `RecordError` names the line (in the whole text) and the token of the first fault.
#[pyfunction]
pub(crate) fn read_records(text: &Bound<'_, PyAny>) -> PyResult<Vec<PyMatch>> {
    let text = text
        .cast::<PyString>()
        .map_err(|_| wrong_type("records", "a str", &type_name(text)))?;
    let records = record::read_all(&text.extract::<String>()?)?;
    Ok(records.into_iter().map(|r| PyMatch::wrap(r.game)).collect())
}
