//! `buttonup._core.Session`: a page's match (`buttonup::page::session`), as the server
//! keeps one for each of its matches. Conversions only. A change is made on a copy
//! (searches run without the GIL and without the lock), then stored: a page reading
//! the match or its chart never waits for a search.

use std::sync::{Mutex, MutexGuard};

use pyo3::prelude::*;

use super::ai::PyBot;
use super::analysis::with_searchers;
use super::convert::{self, move_index, player_from_py, player_to_py, Int, Real};
use super::draw::{battle_number, view_to_py};
use super::errors::OrRaise;
use super::interrupt::run;
use super::matches::PyMatch;
use super::position::PyPosition;
use super::search::seconds;
use buttonup::page::seats::AiTurn;
use buttonup::page::session::{AiAction, Session};
use buttonup::search::On;

/// A page's match: the match, who sits at its screen (`players` 1, the person playing
/// `human` against the AI, or 2 people sharing the screen), the chart of where it stood
/// after each change, and `cap`, the seconds its searches take at most (the AI's move
/// within 1 s of them, the chart's margins within half, a hint within all of it, a
/// review's looks within a quarter): the core's, as the offline page's.
#[pyclass(name = "Session", module = "buttonup._core", frozen)]
pub(crate) struct PySession {
    inner: Mutex<Session>,
}

impl PySession {
    fn session(&self) -> MutexGuard<'_, Session> {
        // Every change is stored whole, after it is made: a session left by a panic is
        // the last one stored.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Makes `change` on a copy (without the GIL), then stores the copy.
    fn change<T: Send>(
        &self,
        py: Python<'_>,
        change: impl FnOnce(&mut Session) -> PyResult<T> + Send,
    ) -> PyResult<T> {
        let mut work = self.session().clone();
        let answer = run(py, move || change(&mut work).map(|answer| (answer, work)))??;
        let (answer, work) = answer;
        let mut stored = self.session();
        let chart = stored.chart().clone(); // points noted meanwhile are kept
        *stored = work;
        stored.absorb(chart);
        Ok(answer)
    }
}

#[pymethods]
impl PySession {
    #[new]
    #[pyo3(
        signature = (r#match, human, *, players = None, cap = Real::of(2.0)),
        text_signature = "(match, human, *, players=None, cap=2.0)"
    )]
    fn new(
        r#match: PyRef<'_, PyMatch>,
        human: &Bound<'_, PyAny>,
        players: Option<Int>,
        cap: Real,
    ) -> PyResult<Self> {
        let human = player_from_py("human", Some(human), buttonup::Player::Red)?;
        let players = match players {
            Some(players) => players.within("players", 0, i64::from(u8::MAX))? as u8,
            None => 1,
        };
        let cap = seconds(&cap, "cap")?;
        let session = Session::new(r#match.snapshot()?, human, players, cap).or_raise()?;
        Ok(PySession {
            inner: Mutex::new(session),
        })
    }

    /// The match (a copy).
    #[getter]
    fn r#match(&self) -> PyMatch {
        PyMatch::wrap(self.session().game().clone())
    }

    /// The colour the person plays against the AI.
    #[getter]
    fn human(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        player_to_py(py, self.session().human())
    }

    /// The people at the screen: 1 or 2.
    #[getter]
    fn players(&self) -> u8 {
        self.session().players()
    }

    /// The seconds the AI searches for a move.
    #[getter]
    fn ai_time(&self) -> f64 {
        let limits = self.session().ai_limits();
        limits.time.map_or(0.0, |time| time.as_secs_f64())
    }

    /// The side whose hints and choices the page shows.
    fn acts(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        player_to_py(py, self.session().acts())
    }

    /// A person's move (with two people, the side to move's).
    fn play(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = move_index(&self.session().game().position(), r#move)?;
        self.change(py, move |session| session.play(mv).or_raise())
    }

    /// A person's choice of starter (the tie rule).
    fn choose(&self, py: Python<'_>, starter: &Bound<'_, PyAny>) -> PyResult<()> {
        let starter = player_from_py("starter", Some(starter), buttonup::Player::Red)?;
        self.change(py, move |session| session.choose(starter).or_raise())
    }

    /// Takes back the person's last move of the battle and the AI's replies after it.
    fn undo(&self, py: Python<'_>) -> PyResult<()> {
        self.change(py, |session| session.undo().or_raise())
    }

    /// What the AI is to do now: `"choose_starter"` or `"move"`.
    fn ai_turn(&self) -> PyResult<&'static str> {
        Ok(match self.session().ai_turn().or_raise()? {
            AiTurn::ChooseStarter => "choose_starter",
            AiTurn::Move => "move",
        })
    }

    /// The AI's turn taken by `bot` (a bot of the level scale, searching within the
    /// AI's time): `("move", pile)` or `("choose_starter", player)`.
    fn ai_move(
        &self,
        py: Python<'_>,
        bot: &Bound<'_, PyBot>,
    ) -> PyResult<(&'static str, Py<PyAny>)> {
        let bot = bot.get();
        let action = self.change(py, |session| {
            let mut bot = bot.lock()?;
            session.ai_move(&mut bot).or_raise()
        })?;
        Ok(match action {
            AiAction::Played(mv) => ("move", mv.into_pyobject(py)?.into_any().unbind()),
            AiAction::Chose(starter) => ("choose_starter", player_to_py(py, starter)?),
        })
    }

    /// The AI's move chosen by a player of the server's own (an extra opponent).
    fn play_for_ai(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = move_index(&self.session().game().position(), r#move)?;
        self.change(py, move |session| session.play_for_ai(mv).or_raise())
    }

    /// The AI's choice of starter made by a player of the server's own.
    fn choose_for_ai(&self, py: Python<'_>, starter: &Bound<'_, PyAny>) -> PyResult<()> {
        let starter = player_from_py("starter", Some(starter), buttonup::Player::Red)?;
        self.change(py, move |session| session.choose_for_ai(starter).or_raise())
    }

    /// Records the chart's point for the state the last change left.
    fn note(&self, py: Python<'_>) -> PyResult<()> {
        self.chart_change(py, Session::note)
    }

    /// Records the points `note` would have for a match read from a record.
    fn backfill(&self, py: Python<'_>) -> PyResult<()> {
        self.chart_change(py, Session::backfill)
    }

    /// Battle `number`'s start and its first `ply` moves (every move so far without
    /// `ply`); a battle the match does not have, or more moves than it has, is a
    /// `ValueError` in the core's words.
    #[pyo3(signature = (number, ply = None))]
    fn battle(&self, number: Int, ply: Option<Int>) -> PyResult<(PyPosition, Vec<usize>)> {
        let number = battle_number(&number)?;
        let ply = ply.map(|ply| battle_number(&ply)).transpose()?;
        let (start, moves) = self.session().battle(number, ply).or_raise()?;
        Ok((PyPosition::from(start), moves))
    }

    /// The match's whole state as the page shows it (a dict): the core's view, the
    /// chart's points of the battle shown, `human` and `players`.
    #[pyo3(signature = (*, battles = true, played = false))]
    fn view(&self, py: Python<'_>, battles: bool, played: bool) -> PyResult<Py<PyAny>> {
        let view = self.session().view(battles, played).or_raise()?;
        view_to_py(py, &view)
    }

    /// Battle `number` as the page shows it, with the chart's points.
    fn battle_view(&self, py: Python<'_>, number: Int) -> PyResult<Py<PyAny>> {
        let number = battle_number(&number)?;
        let view = self.session().battle_view(number).or_raise()?;
        view_to_py(py, &view)
    }

    /// The position after the first `ply` moves of battle `number`, drawn.
    fn ply_view(&self, py: Python<'_>, number: Int, ply: Int) -> PyResult<Py<PyAny>> {
        let (number, ply) = (battle_number(&number)?, battle_number(&ply)?);
        let session = self.session().clone();
        let view = run(py, move || session.ply_view(number, ply))?.or_raise()?;
        view_to_py(py, &view)
    }

    /// The hint for the side that acts, within the cap.
    fn hint(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let session = self.session().clone();
        let threads = convert::threads(None)?;
        let found = run(py, move || {
            with_searchers(threads, |searchers| session.hint(searchers))
        })?
        .or_raise()?;
        view_to_py(py, &found)
    }

    /// Battle `number`'s moves judged against perfect play, within the cap.
    fn review(&self, py: Python<'_>, number: Int) -> PyResult<Py<PyAny>> {
        let number = battle_number(&number)?;
        let session = self.session().clone();
        let found = run(py, move || session.review(number, On::thread(1)))?.or_raise()?;
        view_to_py(py, &found)
    }

    /// The match's record, its sides named as the seats name them (`ai`: the AI's
    /// name), with the `event` and `date` tags.
    fn record(&self, ai: &str, event: &str, date: &str) -> PyResult<String> {
        self.session().record(ai, event, date).or_raise()
    }
}

impl PySession {
    /// A change of the chart, made on a copy without the GIL, merged back.
    fn chart_change(
        &self,
        py: Python<'_>,
        change: fn(
            &mut Session,
            &mut buttonup::page::analysis::Searchers<'_>,
        ) -> Result<(), buttonup::MatchError>,
    ) -> PyResult<()> {
        let mut work = self.session().clone();
        let threads = convert::threads(None)?;
        let work = run(py, move || {
            with_searchers(threads, |searchers| change(&mut work, searchers)).map(|()| work)
        })?
        .or_raise()?;
        self.session().absorb(work.chart().clone());
        Ok(())
    }
}
