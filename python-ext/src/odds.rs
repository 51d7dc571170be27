//! Match odds for Python: `win_probability` and `match_analyze`, on the core's tables
//! (built once per target and buttons of each colour, shared by every thread).

use crate::errors::OrRaise;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::{self, type_name, Int};
use super::errors::wrong_type;
use super::interrupt::run;
use super::matches::PyMatch;
use super::results::{chances_to_py, is_standing, standing_from_py};
use super::search::lock;
use buttonup::game::rules::Position;
use buttonup::game::standing::Standing;
use buttonup::odds::{move_chances, red_chance_at, shared_odds, with_match_searcher, SharedOdds};

/// The process's match table of `standing`'s target and buttons (the core's, shared
/// with every door). Called without the GIL.
fn match_odds(standing: &Standing) -> PyResult<SharedOdds> {
    // An impossible standing is refused before a table is built for it.
    standing.check().or_raise()?;
    shared_odds(standing.target, standing.per_colour).or_raise()
}

/// What a match is at: its standing, and its position while a battle is played.
struct MatchState {
    standing: Standing,
    battle: Option<Position>,
}

impl MatchState {
    fn of(game: &Bound<'_, PyMatch>) -> PyResult<MatchState> {
        let game = game.get().lock()?;
        Ok(MatchState {
            standing: *game.standing(),
            battle: game.battle_position(),
        })
    }
}

/// Each player's exact probability of winning a match under perfect match play.
///
/// The shuffles are taken as chance. `of` is a `buttonup.results.Standing` (between
/// two battles: a battle about to be dealt, the tie rule's choice due, or the match
/// over) or a `Match`, taken as it stands: while a choice is due and after the match,
/// its `standing`'s chances; in a battle (from its dealt start on), the chances from
/// its current position, the mover choosing his best move (a standing's chance before
/// a battle is the mean of these over the starts it may deal). That position's moves
/// are solved on `threads` threads where that pays, from 16 piles (beyond the 9 of the
/// largest match the odds support today, so on the calling thread); a standing needs
/// no search.
///
/// Args:
///     of: a `Standing` or a `Match`.
///     threads: the threads of a big solve, 1 to 256 (`None`: every core).
///
/// Returns:
///     The `Chances` of Red and Black.
///
/// Raises:
///     MatchStateError: if the standing is impossible (at 0-0 without a `starter`, for
///         one).
///     ValueError: if the match has more buttons of each colour than the odds support
///         (`VARIANT_LIMITS["match_odds"]`), or `threads` is out of range.
///     TypeError: if `of` is neither a `Standing` nor a `Match`.
///
/// Example:
///     >>> from buttonup import Standing, win_probability
///     >>> chances = win_probability(Standing(3, 5))  # Red is behind, so Red starts
///     >>> round(chances.red, 5), round(chances.black, 5)
///     (0.48696, 0.51304)
#[pyfunction]
#[pyo3(signature = (of, *, threads = None), text_signature = "(of, *, threads=None)")]
pub fn win_probability<'py>(
    py: Python<'py>,
    of: &Bound<'py, PyAny>,
    threads: Option<Int>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = convert::threads(threads)?;
    let state = if let Ok(game) = of.cast::<PyMatch>() {
        MatchState::of(game)?
    } else if is_standing(of)? {
        MatchState {
            standing: standing_from_py(of)?,
            battle: None,
        }
    } else {
        return Err(wrong_type("of", "a Standing or a Match", &type_name(of)));
    };
    let red = run(py, || {
        with_match_searcher(|s| {
            red_chance_at(&state.standing, state.battle.as_ref(), threads, s, None)
        })
    })?
    .or_raise()?;
    chances_to_py(py, red)
}

/// The mover's exact probability of winning the match after each legal move.
///
/// For each legal move of the current battle of `match`, under perfect match play:
/// `{move: probability}` (empty while the tie rule's choice is due, or after the
/// match: no move is legal). A move that ends a battle is worth the standing it leads
/// to, the next start not dealt yet. The moves are solved on `threads` threads where
/// that pays, as for `win_probability`.
///
/// Args:
///     match: the match, in the state it is in.
///     threads: the threads of a big solve, 1 to 256 (`None`: every core).
///
/// Returns:
///     A dict from each legal move to the mover's probability of winning the match.
///
/// Raises:
///     ValueError: if the match has more buttons of each colour than the odds support
///         (`VARIANT_LIMITS["match_odds"]`), or `threads` is out of range.
///
/// Example:
///     >>> from buttonup import Match, match_analyze
///     >>> game = Match(target=3, per_colour=2, seed=1)
///     >>> game.position
///     Position('R/B/W/R/W/B r')
///     >>> {move: round(chance, 4) for move, chance in match_analyze(game).items()}
///     {2: 0.3906, 4: 0.0}
#[pyfunction]
#[pyo3(signature = (r#match, *, threads = None), text_signature = "(match, *, threads=None)")]
pub fn match_analyze<'py>(
    py: Python<'py>,
    r#match: &Bound<'py, PyMatch>,
    threads: Option<Int>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = convert::threads(threads)?;
    let state = MatchState::of(r#match)?;
    let dict = PyDict::new(py);
    let (Some(position), standing) = (state.battle, state.standing) else {
        return Ok(dict);
    };
    let chances = run(py, || -> PyResult<Vec<(usize, f64)>> {
        let table = match_odds(&standing)?;
        let payoff = lock(&table)?.payoff(&standing).or_raise()?;
        with_match_searcher(|s| move_chances(&payoff, &position, threads, s)).or_raise()
    })??;
    for (mv, chance) in chances {
        dict.set_item(mv, chance)?;
    }
    Ok(dict)
}
