//! `buttonup._core.Bot`: the core's AI player (`buttonup::ai::Bot`) for Python, the one
//! every door plays. Its moves are chosen without the GIL; another thread may stop it.

use crate::errors::{raised, OrRaise};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::convert::{self, player_to_py, Int, Real};
use super::errors::out_of_range;
use super::interrupt::run;
use super::matches::PyMatch;
use super::position::{seed_from_py, PyPosition};
use super::results::result_to_py;
use super::search::{call_on_iteration, hold, limits, table_bytes, Held};
use buttonup::ai::{Bot, Level, LEVELS, RATINGS};
use buttonup::game::error_kind::BattleError;
use buttonup::game::match_rules::Match;
use buttonup::game::variant::Capability;

/// An AI player of the level scale (docs/ai.md): `Bot(level, seed)`, or
/// `Bot.noisy(epsilon, seed)` off the scale.
///
/// Without `tt_mb` it searches on the calling thread's table (as `buttonup.search`
/// does); with it, on a table of its own that carries over from move to move.
/// `buttonup.ai.bot` wraps it for front ends.
///
/// Args:
///     level: 1 to 10.
///     seed: fixes its random choices, 0 to 2**64 - 1 (`None`: drawn afresh).
///     tt_mb: the size of a table of its own, in MiB (`None`: none).
///     threads: how many threads its exact solves of big positions may use (`None`:
///         every core).
///
/// Raises:
///     ValueError: if an argument is out of range.
///
/// Example:
///     >>> from buttonup import Position
///     >>> from buttonup._core import Bot
///     >>> player = Bot(9, 1)
///     >>> player
///     Bot(level=9, epsilon=0.0, seed=1)
///     >>> player.choose(Position("W/R/B/W/B/R/R/W/B r"))
///     3
#[pyclass(module = "buttonup._core", name = "Bot", frozen)]
pub struct PyBot {
    /// Locked only while detached from the interpreter.
    bot: Mutex<Bot>,
    /// What `stop` sets without the lock.
    stop: Arc<AtomicBool>,
}

impl PyBot {
    fn made(bot: Bot, tt_mb: Option<Real>, threads: Option<Int>) -> PyResult<PyBot> {
        let mut bot = match tt_mb {
            None => bot.on_thread_table(),
            Some(mb) => {
                let mut bot = bot;
                bot.set_table_bytes(table_bytes(&mb)?)
                    .map_err(|error| pyo3::exceptions::PyMemoryError::new_err(error.to_string()))?;
                bot
            }
        };
        if threads.is_some() {
            bot.set_threads(convert::threads(threads)?);
        }
        Ok(PyBot {
            stop: bot.stop_flag(),
            bot: Mutex::new(bot),
        })
    }

    /// What `read` says of the bot, its lock taken without the GIL.
    fn read<T: Send>(&self, py: Python<'_>, read: impl FnOnce(&Bot) -> T + Send) -> PyResult<T> {
        run(py, || -> PyResult<T> { Ok(read(&*self.lock()?)) })?
    }

    /// Does `work` on the bot, its lock taken without the GIL.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut Bot) -> PyResult<T> + Send,
    ) -> PyResult<T> {
        run(py, || work(&mut *self.lock()?))?
    }

    pub(crate) fn lock(&self) -> PyResult<Held<'_, Bot>> {
        hold(
            &self.bot,
            "this Bot is busy with the move that called this progress callback: a \
             callback cannot ask its own Bot for a move",
        )
    }
}

/// The position and, for a bot that plays for the match, the match it is played in.
fn game_of(bot_level: Level, game: Option<&Bound<'_, PyMatch>>) -> PyResult<Option<Match>> {
    match game {
        Some(game) if bot_level.plays_for_the_match() => Ok(Some(game.get().snapshot()?)),
        _ => Ok(None),
    }
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (level, seed = None, *, tt_mb = None, threads = None))]
    fn new(
        level: Int,
        seed: Option<&Bound<'_, PyAny>>,
        tt_mb: Option<Real>,
        threads: Option<Int>,
    ) -> PyResult<Self> {
        PyBot::made(Bot::of(level.level()?, seed_from_py(seed)?), tt_mb, threads)
    }

    /// A bot that plays perfectly for the battle margin but for a chance of a random move.
    ///
    /// With probability `epsilon` it plays a uniformly random legal move instead: the dial
    /// of the level scale. The other arguments are the constructor's.
    ///
    /// Args:
    ///     epsilon: the chance of a random move, 0 to 1.
    ///
    /// Raises:
    ///     ValueError: if `epsilon` is out of range.
    #[staticmethod]
    #[pyo3(signature = (epsilon, seed = None, *, tt_mb = None, threads = None))]
    fn noisy(
        epsilon: Real,
        seed: Option<&Bound<'_, PyAny>>,
        tt_mb: Option<Real>,
        threads: Option<Int>,
    ) -> PyResult<Self> {
        let bot = Bot::with_epsilon(epsilon.value("epsilon")?, seed_from_py(seed)?).or_raise()?;
        PyBot::made(bot, tt_mb, threads)
    }

    /// The bot of a rating on the level scale's ratings (`buttonup.RATINGS`).
    ///
    /// Between the two levels around `rating`, its chance of a random move lies as far
    /// between theirs as the rating between their ratings, at every size of battle; from
    /// halfway between levels 9 and 10 it plays for the match as level 10 does. It
    /// reports the level nearest. The other arguments are the constructor's.
    ///
    /// Args:
    ///     rating: from level 1's rating to level 10's.
    ///
    /// Raises:
    ///     ValueError: if `rating` is out of range.
    ///
    /// Example:
    ///     >>> from buttonup import RATINGS
    ///     >>> from buttonup._core import Bot
    ///     >>> middle = (RATINGS[4] + RATINGS[5]) / 2
    ///     >>> bot = Bot.rated(middle, seed=1)
    ///     >>> bot.rating == middle, bot.level in (5, 6)
    ///     (True, True)
    #[staticmethod]
    #[pyo3(signature = (rating, seed = None, *, tt_mb = None, threads = None))]
    fn rated(
        rating: Real,
        seed: Option<&Bound<'_, PyAny>>,
        tt_mb: Option<Real>,
        threads: Option<Int>,
    ) -> PyResult<Self> {
        let bot = Bot::with_rating(rating.value("rating")?, seed_from_py(seed)?).or_raise()?;
        PyBot::made(bot, tt_mb, threads)
    }

    /// Its move in `position`.
    ///
    /// Its perfect moves are the best move of one deepening search within `depth`, `nodes`
    /// and `time_limit` (exact without them), the lowest-numbered of equally good ones.
    ///
    /// Args:
    ///     position: the position to move in.
    ///     match: the match being played (level 10 then plays for it when its position is
    ///         `position`).
    ///     depth: the most plies of the search (`None`: no limit).
    ///     nodes: the most positions visited (`None`: no limit).
    ///     time_limit: the most seconds (`None`: no limit).
    ///     on_iteration: called with each finished iteration's `SearchResult` (`False`
    ///         ends the search).
    ///
    /// Raises:
    ///     IllegalMoveError: if the battle is over.
    ///     ValueError: if a limit is out of range.
    #[pyo3(signature = (position, r#match = None, *, depth = None, nodes = None, time_limit = None, on_iteration = None))]
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        r#match: Option<&Bound<'_, PyMatch>>,
        depth: Option<Int>,
        nodes: Option<Int>,
        time_limit: Option<Real>,
        on_iteration: Option<Py<PyAny>>,
    ) -> PyResult<usize> {
        let limits = limits(depth, nodes, time_limit)?;
        let p = position.inner;
        if p.legal_moves().next().is_none() {
            return Err(raised(BattleError::NoMoveToChoose));
        }
        let level = self.read(py, Bot::level)?;
        let game = game_of(level, r#match)?;
        let callback = on_iteration.as_ref();
        run(py, || -> PyResult<usize> {
            let mut bot = self.lock()?;
            bot.set_limits(limits);
            let mut failure = None;
            let chosen = bot.choose_with(&p, game.as_ref(), &mut |iteration| {
                call_on_iteration(callback, iteration, &mut failure)
            });
            if let Some(error) = failure {
                return Err(error);
            }
            // A position with a legal move always has a choice.
            Ok(chosen.unwrap_or(0))
        })?
    }

    /// Who starts the next battle of `match` when the tie rule lets this bot choose.
    ///
    /// Level 10 takes the better chance of winning the match; the others start themselves.
    #[pyo3(signature = (r#match))]
    fn choose_starter(&self, py: Python<'_>, r#match: &Bound<'_, PyMatch>) -> PyResult<Py<PyAny>> {
        let game = r#match.get().snapshot()?;
        let starter = self.with(py, |bot| Ok(bot.choose_starter(&game)))?;
        player_to_py(py, starter)
    }

    /// Stops its move being chosen in another thread (it then plays the best move found so
    /// far).
    ///
    /// A stop sent while it chooses nothing stops its next search.
    fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Withdraws a `stop()` that no search has used yet.
    fn clear_stop(&self) {
        self.stop.store(false, Ordering::SeqCst);
    }

    /// Forgets what its own table has learned (a new game).
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, |bot| {
            bot.clear();
            Ok(())
        })
    }

    /// Its level, 1 to 10 (a noisy bot's is 9, or 1 when it only plays random moves).
    #[getter]
    fn level(&self, py: Python<'_>) -> PyResult<u8> {
        self.read(py, |bot| bot.level().number())
    }

    /// Its chance of a random move in the standard game.
    #[getter]
    fn epsilon(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |bot| bot.epsilon())
    }

    /// Its rating on the level scale's ratings: its level's, or the one it was made for
    /// (`None` for a noisy bot).
    #[getter]
    fn rating(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        self.read(py, |bot| bot.rating())
    }

    /// Its chance of a random move in a battle of `per_colour` buttons of each colour (a
    /// level's is smaller from 5 of each colour).
    fn epsilon_for(&self, py: Python<'_>, per_colour: Int) -> PyResult<f64> {
        let per_colour = per_colour.per_colour(Capability::Rules)?;
        self.read(py, |bot| bot.epsilon_for(per_colour))
    }

    /// The seed of its random choices (drawn afresh when none was given).
    #[getter]
    fn seed(&self, py: Python<'_>) -> PyResult<u64> {
        self.read(py, |bot| bot.seed())
    }

    /// The size of the table it searches on, in bytes.
    #[getter]
    fn tt_bytes(&self, py: Python<'_>) -> PyResult<usize> {
        self.read(py, |bot| bot.table_bytes())
    }

    /// Whether its last move was a random one.
    #[getter]
    fn last_random(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |bot| bot.last_random())
    }

    /// The `SearchResult` of the search behind its last move, when one search chose it.
    #[getter]
    fn last_search<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let result = self.read(py, |bot| bot.last_search().cloned())?;
        result.map(|r| result_to_py(py, &r)).transpose()
    }

    /// Makes it the bot of `level` from `seed` again, as new but for its table and its
    /// threads (an engine's options changed).
    ///
    /// Raises:
    ///     ValueError: if `level` or `seed` is out of range.
    #[pyo3(signature = (level, seed = None))]
    fn reset(&self, py: Python<'_>, level: Int, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let level = Level::new(level.within("level", 1, 10)?)
            .map_err(|error| out_of_range(error.to_string()))?;
        let seed = seed_from_py(seed)?;
        self.with(py, |bot| {
            bot.reset(level, seed);
            Ok(())
        })
    }

    /// Gives it a table of its own of `tt_mb` MiB in place of the one it has.
    ///
    /// Raises:
    ///     MemoryError: if the table cannot be allocated (the old table is kept).
    ///     ValueError: if `tt_mb` is out of range.
    fn resize(&self, py: Python<'_>, tt_mb: Real) -> PyResult<()> {
        let bytes = table_bytes(&tt_mb)?;
        self.with(py, |bot| {
            bot.set_table_bytes(bytes)
                .map_err(|error| pyo3::exceptions::PyMemoryError::new_err(error.to_string()))
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.read(py, |bot| {
            format!(
                "Bot(level={}, epsilon={:?}, seed={})",
                bot.level().number(),
                bot.epsilon(),
                bot.seed()
            )
        })
    }
}

/// Each level's rating, from level 1, from the core.
pub(crate) fn ratings(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(py, RATINGS)
}

/// The level scale, from the core: `(level, epsilon, what it is)` for levels 1 to 10.
pub(crate) fn levels(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    let rows: PyResult<Vec<Bound<'_, PyTuple>>> = LEVELS
        .iter()
        .map(|&(number, text)| {
            let level = Level::new(i64::from(number)).map_err(|e| out_of_range(e.to_string()))?;
            PyTuple::new(
                py,
                [
                    number.into_pyobject(py)?.into_any(),
                    level.epsilon().into_pyobject(py)?.into_any(),
                    text.into_pyobject(py)?.into_any(),
                ],
            )
        })
        .collect();
    PyTuple::new(py, rows?)
}
