//! Match odds for Python: `win_probability` and `match_analyze`, on tables built once
//! per (target, buttons of each colour) and shared by every thread.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::{optional_player, Int};
use super::errors::out_of_range;
use super::interrupt::run;
use super::position::PyPosition;
use super::search::lock;
use crate::match_rules::MAX_TARGET;
use crate::odds::MatchOdds;
use crate::rules::{Colour, Player, Position};
use crate::search::{Payoff, Searcher};
use crate::variant::Capability;

/// Transposition table of the searcher each thread uses for match payoffs (cleared
/// whenever the payoff changes, so kept small).
const MATCH_TABLE_BYTES: usize = 1 << 20;

thread_local! {
    static MATCH_SEARCHER: RefCell<Searcher> =
        RefCell::new(Searcher::new(Payoff::Margin, MATCH_TABLE_BYTES));
}

type SharedOdds = Arc<Mutex<MatchOdds>>;

/// One table's slot: built once, by the first thread that needs it, while other
/// threads wait for that table only.
type Slot = Arc<Mutex<Option<SharedOdds>>>;

/// Match tables, built once per (target, buttons of each colour). The map's lock is
/// held only to find a slot, never while a table is built. Called without the GIL.
fn match_odds(target: u32, per_colour: usize) -> PyResult<SharedOdds> {
    static TABLES: OnceLock<Mutex<HashMap<(u32, usize), Slot>>> = OnceLock::new();
    let slot: Slot = {
        let mut tables = lock(TABLES.get_or_init(Default::default))?;
        Arc::clone(tables.entry((target, per_colour)).or_default())
    };
    let mut slot = lock(&slot)?;
    if let Some(table) = slot.as_ref() {
        return Ok(Arc::clone(table));
    }
    // An interrupted build leaves the slot empty for the next caller.
    let table = Arc::new(Mutex::new(MatchOdds::new(target, per_colour)?));
    *slot = Some(Arc::clone(&table));
    Ok(table)
}

/// The scores and the rest of a match state, checked: scores below the target.
struct State {
    red: u32,
    black: u32,
    starter: Player,
    target: u32,
    chooser: Option<Player>,
}

impl State {
    fn new(
        red_points: Int,
        black_points: Int,
        starter: Option<&Bound<'_, PyAny>>,
        to_start: Option<&Bound<'_, PyAny>>,
        target: Int,
        chooser: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<State> {
        let target = target.within("target", 1, i64::from(MAX_TARGET))? as u32;
        let points = |name: &str, value: Int| -> PyResult<u32> {
            let below = format!("{name} (below the target)");
            Ok(value.within(&below, 0, i64::from(target) - 1)? as u32)
        };
        let starter = match (
            optional_player("starter", starter)?,
            optional_player("to_start", to_start)?,
        ) {
            (Some(p), None) | (None, Some(p)) => p,
            (None, None) => return Err(PyTypeError::new_err("missing the argument 'starter'")),
            (Some(_), Some(_)) => {
                return Err(PyTypeError::new_err("give starter or to_start, not both"))
            }
        };
        Ok(State {
            red: points("red_points", red_points)?,
            black: points("black_points", black_points)?,
            starter,
            target,
            chooser: optional_player("chooser", chooser)?,
        })
    }
}

/// Red's exact probability of winning the match from a battle about to start at
/// `red_points`-`black_points`, `starter` starting (`to_start` is an older name for
/// it). `chooser` is the loser of the latest battle that had a winner (`None` if none
/// had): with equal scores he chooses the starter after a drawn battle.
#[pyfunction]
#[pyo3(
    signature = (red_points, black_points, starter = None, target = Int::of(15), chooser = None, per_colour = Int::of(3), *, to_start = None),
    text_signature = "(red_points, black_points, starter=None, target=15, chooser=None, per_colour=3, *, to_start=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn win_probability(
    py: Python<'_>,
    red_points: Int,
    black_points: Int,
    starter: Option<&Bound<'_, PyAny>>,
    target: Int,
    chooser: Option<&Bound<'_, PyAny>>,
    per_colour: Int,
    to_start: Option<&Bound<'_, PyAny>>,
) -> PyResult<f64> {
    let state = State::new(red_points, black_points, starter, to_start, target, chooser)?;
    let per_colour = per_colour.per_colour(Capability::MatchOdds)?;
    run(py, || {
        let table = match_odds(state.target, per_colour)?;
        let mut odds = lock(&table)?;
        Ok(odds.win_probability(state.red, state.black, state.starter, state.chooser))
    })?
}

/// The buttons of each colour of a position fit for match play: as many of each.
fn match_per_colour(position: &Position) -> PyResult<usize> {
    let count = |colour| position.piles().flatten().filter(|&c| c == colour).count();
    let [red, black, white] = [Colour::Red, Colour::Black, Colour::White].map(count);
    if red != black || black != white {
        return Err(out_of_range(format!(
            "match play needs as many buttons of each colour, not {red} red, {black} black \
             and {white} white"
        )));
    }
    Ok(Capability::MatchOdds.check(red as i64)?)
}

/// Red's exact probability of winning the match after each legal move of `position`, a
/// battle in a match at `red_points`-`black_points` started by `starter`:
/// `{move: probability}`.
#[pyfunction]
#[pyo3(
    signature = (position, red_points, black_points, starter = None, target = Int::of(15), chooser = None, *, to_start = None),
    text_signature = "(position, red_points, black_points, starter=None, target=15, chooser=None, *, to_start=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn match_analyze<'py>(
    py: Python<'py>,
    position: &PyPosition,
    red_points: Int,
    black_points: Int,
    starter: Option<&Bound<'py, PyAny>>,
    target: Int,
    chooser: Option<&Bound<'py, PyAny>>,
    to_start: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let state = State::new(red_points, black_points, starter, to_start, target, chooser)?;
    let p = position.inner;
    let per_colour = match_per_colour(&p)?;
    let values = run(py, || -> PyResult<Vec<(usize, f64)>> {
        let table = match_odds(state.target, per_colour)?;
        let payoff = lock(&table)?.payoff(state.red, state.black, state.starter, state.chooser);
        Ok(MATCH_SEARCHER.with(|s| {
            let mut fresh;
            let mut borrowed = s.try_borrow_mut();
            let searcher = match borrowed.as_deref_mut() {
                Ok(searcher) => searcher,
                Err(_) => {
                    fresh = Searcher::new(Payoff::Margin, MATCH_TABLE_BYTES);
                    &mut fresh
                }
            };
            searcher.set_payoff(payoff);
            let side = p.to_move();
            searcher
                .analyze(&p)
                .into_iter()
                .map(|(mv, v)| {
                    let red_value = if side == Player::Red { v } else { -v };
                    (mv, (red_value + 1.0) / 2.0)
                })
                .collect()
        }))
    })??;
    let dict = PyDict::new(py);
    for (mv, value) in values {
        dict.set_item(mv, value)?;
    }
    Ok(dict)
}
