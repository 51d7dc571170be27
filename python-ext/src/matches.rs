//! `buttonup.Match`: the core's match state machine (rules 7 to 9) for Python.

use std::sync::{Mutex, MutexGuard, TryLockError};

use crate::errors::OrRaise;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

use super::convert::{move_index, optional_player_to_py, player_from_py, player_to_py, Int};
use super::errors::{notation_error, wrong_type};
use super::position::{seed_from_py, PyPosition};
use super::records::{self, RecordParts};
use super::results::{battle_to_py, outcome_to_py, standing_to_py};
use buttonup::draw::{self, svg};
use buttonup::game::match_rules::Match;
use buttonup::game::rules::Player;
use buttonup::game::standing::STANDARD_TARGET;
use buttonup::game::variant::{Capability, STANDARD_PER_COLOUR};
use buttonup::page::seats::{AiTurn, Seats};

/// A match of battles to `target` victory points (rules 7 to 9).
///
/// The match scores each finished battle, sets up the next one, and applies the tie rule:
/// when a starter must be chosen, `chooser` names the player who calls `choose_starter`.
/// Starts are taken in turn from `deals`, start orders such as `"WRBWBRRWB"` (all
/// checked at once), then shuffled from `seed`: the same seed gives the same match.
///
/// A match may be shared by threads: each call takes the match for a step that runs
/// no Python code, so no other thread can be inside one meanwhile (a call that finds it
/// taken raises `RuntimeError`: try again). Matches pickle and copy (their seed and
/// the shuffles to come included).
///
/// Args:
///     starter: the player who starts the first battle: a `Player` or `"r"`/`"b"`;
///         `None` for Red.
///     target: the victory points that win the match, 1 to `MAX_TARGET` (15 by default).
///     per_colour: the buttons of each colour of every battle (3 by default).
///     seed: the seed of the shuffled starts, an int from 0 to 2**64 - 1 (`None`: from
///         the operating system).
///     deals: an iterable of start orders (str) for the first battles.
///
/// Raises:
///     ValueError: if `target`, `per_colour` or `seed` is out of range, or `starter` is
///         a str other than `"r"` and `"b"`.
///     TypeError: if an argument has the wrong type (`deals` given as one str included).
///     NotationError: if a deal is not a start order.
///
/// Example:
///     >>> from buttonup import Match
///     >>> game = Match(target=1, per_colour=1, seed=5)
///     >>> game.position, game.legal_moves()
///     (Position('B/R/W r'), [2])
///     >>> game.play(2).position
///     Position('BW/R b')
///     >>> game.play(0).position
///     Position('RBW r')
///     >>> game
///     <Match 0-1 to 1, battle 1, winner=Black>
#[pyclass(module = "buttonup", name = "Match", frozen)]
pub struct PyMatch {
    inner: Mutex<Match>,
    /// The `Battle` records handed to Python so far (battles are never taken back).
    battles: Mutex<Vec<Py<PyAny>>>,
}

#[pymethods]
impl PyMatch {
    #[new]
    #[pyo3(signature = (starter = None, *, target = None, per_colour = None, seed = None, deals = None))]
    fn new(
        starter: Option<&Bound<'_, PyAny>>,
        target: Option<Int>,
        per_colour: Option<Int>,
        seed: Option<&Bound<'_, PyAny>>,
        deals: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let starter = player_from_py("starter", starter, Player::Red)?;
        let target = target
            .unwrap_or(Int::of(i64::from(STANDARD_TARGET)))
            .target()?;
        let per_colour = per_colour
            .unwrap_or(Int::of(STANDARD_PER_COLOUR as i64))
            .per_colour(Capability::Rules)?;
        let seed = seed_from_py(seed)?;
        let orders = match deals {
            Some(deals) if !deals.is_none() => deal_list(deals)?,
            _ => Vec::new(),
        };
        let orders: Vec<&str> = orders.iter().map(String::as_str).collect();
        let inner = Match::new(starter, target, per_colour, seed, &orders).or_raise()?;
        Ok(PyMatch::wrap(inner))
    }

    /// The record of the match so far (docs/notation.md, "Match records").
    ///
    /// `Target`, `PerColour`, `Seed`, `Deals`, `Score` and `Result` are written from the
    /// match itself.
    ///
    /// Args:
    ///     comments: str comments, written after the moves of their keys `(battle, move)`:
    ///         the battle from 1, the move from 0.
    ///     values: float values, keyed and written as `comments` are.
    ///     **tags: the tags, each a str: `Event`, `Date`, `Red` and `Black` are written `?`
    ///         when not given; `Seed=None` leaves out the seed (and with it the shuffles of
    ///         the battles to come).
    ///
    /// Returns:
    ///     The record's text.
    ///
    /// Raises:
    ///     TypeError: if a tag, comment, value or key has the wrong type.
    ///     RecordError: if the match cannot be written as a record (a text that is not
    ///         valid Unicode, for one).
    ///
    /// Example:
    ///     >>> from buttonup import Match
    ///     >>> game = Match(target=1, per_colour=1, seed=5)
    ///     >>> _ = game.play(2), game.play(0)
    ///     >>> print(game.record(Red="Ann", Black="Bob", Seed=None, comments={(1, 0): "forced"}))
    ///     [Event "?"]
    ///     [Date "?"]
    ///     [Red "Ann"]
    ///     [Black "Bob"]
    ///     [Target "1"]
    ///     [PerColour "1"]
    ///     [Score "0-1"]
    ///     [Result "Black"]
    ///     <BLANKLINE>
    ///     1. BRW r 2 {forced} 0 RBW B+1 0-1
    ///     <BLANKLINE>
    #[pyo3(signature = (*, comments = None, values = None, **tags))]
    fn record(
        &self,
        comments: Option<&Bound<'_, PyDict>>,
        values: Option<&Bound<'_, PyDict>>,
        tags: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        records::write_record(&self.snapshot()?, tags, comments, values)
    }

    /// The match of a record (docs/notation.md), every move checked by the rules.
    ///
    /// The battles after the record's are shuffled from its `Seed` (a fresh seed without
    /// one).
    ///
    /// Args:
    ///     text: the record's text (a str).
    ///
    /// Raises:
    ///     RecordError: if `text` is not a record; the message names the line and token of
    ///         the first fault.
    ///     TypeError: if `text` is not a str.
    ///
    /// Example:
    ///     >>> from buttonup import Match
    ///     >>> game = Match(target=1, per_colour=1, seed=5)
    ///     >>> _ = game.play(2), game.play(0)
    ///     >>> Match.from_record(game.record())
    ///     <Match 0-1 to 1, battle 1, winner=Black>
    #[classmethod]
    fn from_record(_cls: &Bound<'_, PyType>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyMatch::wrap(records::read_record(text)?))
    }

    /// A record's match, tags and the notes of its moves (what
    /// `buttonup.records.read_record` makes a `Record` of).
    #[staticmethod]
    fn _read_record(text: &Bound<'_, PyAny>) -> PyResult<RecordParts<PyMatch>> {
        let (game, tags, notes) = records::read_record_parts(text)?;
        Ok((PyMatch::wrap(game), tags, notes))
    }

    /// The state for `pickle`: the match's record, its seed and deals to come included.
    fn __getstate__(&self) -> PyResult<String> {
        records::write_record(&self.snapshot()?, None, None, None)
    }

    /// Restores the state `__getstate__` gave.
    fn __setstate__(&self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let game = records::read_record(state)?;
        *self.lock()? = game;
        // Dropped once the lock is let go: dropping a record may run Python code.
        let gone = std::mem::take(&mut *self.cached_battles()?);
        drop(gone);
        Ok(())
    }

    /// How `pickle` (every protocol) and `copy` rebuild the match: a new `Match`
    /// given this one's state.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>, String)> {
        let state = slf.get().__getstate__()?;
        Ok((slf.get_type(), PyTuple::empty(slf.py()), state))
    }

    /// A copy of the match (its future shuffles included), independent of this one.
    fn __copy__(&self) -> PyResult<Self> {
        Ok(PyMatch::wrap(self.snapshot()?))
    }

    /// A copy of the match, as `__copy__`: a match holds no other Python objects.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.__copy__()
    }

    /// The victory points that win the match.
    #[getter]
    fn target(&self) -> PyResult<u32> {
        Ok(self.lock()?.target())
    }

    /// The buttons of each colour of every battle.
    #[getter]
    fn per_colour(&self) -> PyResult<usize> {
        Ok(self.lock()?.per_colour())
    }

    /// The current battle's position.
    ///
    /// While a starter is chosen, or after the match, the final pile of the latest battle.
    #[getter]
    fn position(&self) -> PyResult<PyPosition> {
        Ok(self.lock()?.position().into())
    }

    /// The player to move in the current battle.
    #[getter]
    #[allow(clippy::wrong_self_convention)] // a Python property, not a conversion
    fn to_move(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let player = self.lock()?.position().to_move();
        player_to_py(py, player)
    }

    /// The start of the current battle.
    ///
    /// With `moves`, the whole battle so far. While a starter is chosen, or after the
    /// match, the final pile of the latest battle.
    #[getter]
    fn battle_start(&self) -> PyResult<PyPosition> {
        Ok(self.lock()?.start().into())
    }

    /// Who started the current battle.
    #[getter]
    fn starter(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let starter = self.lock()?.starter();
        player_to_py(py, starter)
    }

    /// The moves played so far in the current battle (a tuple of pile indices).
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let moves = self.lock()?.moves().to_vec();
        PyTuple::new(py, moves)
    }

    /// Red's and Black's victory points.
    #[getter]
    fn scores(&self) -> PyResult<(u32, u32)> {
        let game = self.lock()?;
        let standing = game.standing();
        Ok((standing.red, standing.black))
    }

    /// The victory points of `player`.
    ///
    /// Args:
    ///     player: a `Player` or `"r"`/`"b"`.
    ///
    /// Raises:
    ///     TypeError: if `player` is not a player (`None` included).
    ///     ValueError: if `player` is a str other than `"r"` and `"b"`.
    fn score(&self, player: &Bound<'_, PyAny>) -> PyResult<u32> {
        if player.is_none() {
            return Err(wrong_type("player", "a Player or 'r' or 'b'", "None"));
        }
        let player = player_from_py("player", Some(player), Player::Red)?;
        Ok(self.lock()?.standing().points(player))
    }

    /// The finished battles, first to last (a tuple of `buttonup.results.Battle`).
    #[getter]
    fn battles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let (known, new) = {
            let game = self.lock()?;
            let known = self.cached_battles()?.len();
            (
                known,
                game.battles()[known.min(game.battles().len())..].to_vec(),
            )
        };
        let mut made = Vec::with_capacity(new.len());
        for battle in &new {
            let start = Bound::new(py, PyPosition::from(battle.start))?.into_any();
            let last = Bound::new(py, PyPosition::from(battle.last))?.into_any();
            made.push(battle_to_py(py, battle, start, last)?.unbind());
        }
        let all: Vec<Py<PyAny>> = {
            let mut cached = self.cached_battles()?;
            if cached.len() == known {
                cached.append(&mut made);
            }
            cached.iter().map(|b| b.clone_ref(py)).collect()
        };
        drop(made); // another thread's records came first: these go, outside the lock
        PyTuple::new(py, all)
    }

    /// The player who must now choose who starts the next battle (the tie rule), or `None`.
    #[getter]
    fn chooser(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let chooser = self.lock()?.chooser();
        optional_player_to_py(py, chooser)
    }

    /// The loser of the latest battle that had a winner (`None` if none had).
    ///
    /// The player who chooses the starter when the scores are equal.
    #[getter]
    fn last_loser(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let loser = self.lock()?.standing().last_loser;
        optional_player_to_py(py, loser)
    }

    /// The standing before the current battle (a `buttonup.results.Standing`).
    ///
    /// The scores, the last loser, the current battle's starter (`None` while the tie
    /// rule's choice is due, or after the match), `per_colour` and `target`.
    #[getter]
    fn standing<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let standing = *self.lock()?.standing();
        standing_to_py(py, &standing)
    }

    /// The winner of the match once it is over, else `None`.
    #[getter]
    fn winner(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let winner = self.lock()?.winner();
        optional_player_to_py(py, winner)
    }

    /// Whether a player has reached the target.
    #[getter]
    fn is_over(&self) -> PyResult<bool> {
        Ok(self.lock()?.winner().is_some())
    }

    /// The legal moves now: none while a starter is due or after the match.
    fn legal_moves(&self) -> PyResult<Vec<usize>> {
        Ok(self.lock()?.legal_moves())
    }

    /// Plays `move` in the current battle and returns its `MoveOutcome`, from one evaluation.
    ///
    /// The outcome's position is the final pile when the move ends the battle; `position`
    /// then shows the next battle's start. A finished battle is scored, and the next one
    /// set up unless a starter must be chosen or the match is won. A refused move changes
    /// nothing.
    ///
    /// Args:
    ///     move: the index of the pile to lift.
    ///
    /// Raises:
    ///     IllegalMoveError: if `move` is not legal now: no such pile, no white button, a
    ///         starter to be chosen, or the match over.
    ///     TypeError: if `move` is not an int.
    ///
    /// Example:
    ///     >>> from buttonup import Match
    ///     >>> game = Match(target=1, per_colour=1, seed=5)
    ///     >>> game.play(2)
    ///     MoveOutcome(position=Position('BW/R b'), extra_move=False, drops=(0,))
    fn play<'py>(
        &self,
        py: Python<'py>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let position = {
            let game = self.lock()?;
            game.check_playing().or_raise()?;
            game.position()
        };
        // Read without the match (it may run the argument's `__index__`); the rules
        // check the move again against the match as it is when it is played.
        let mv = move_index(&position, r#move)?;
        let sowing = self.lock()?.play(mv).or_raise()?;
        let after = Bound::new(py, PyPosition::from(sowing.outcome.position))?;
        outcome_to_py(py, after.into_any(), &sowing)
    }

    /// Takes back the last move of the current battle and returns it.
    ///
    /// Raises:
    ///     MatchStateError: if the current battle has no move to take back (a finished
    ///         battle cannot be taken back).
    ///
    /// Example:
    ///     >>> from buttonup import Match
    ///     >>> game = Match(target=1, per_colour=1, seed=5)
    ///     >>> _ = game.play(2)
    ///     >>> game.undo(), game.moves
    ///     (2, ())
    fn undo(&self) -> PyResult<usize> {
        self.lock()?.undo().or_raise()
    }

    /// Who played each move of the current battle (a list of `Player`).
    fn movers(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let movers = self.lock()?.movers();
        movers.into_iter().map(|p| player_to_py(py, p)).collect()
    }

    /// The tie rule: the chooser names who starts the next battle.
    ///
    /// Args:
    ///     starter: a `Player` or `"r"`/`"b"` (`None` is refused).
    ///
    /// Raises:
    ///     MatchStateError: if no choice of starter is due.
    ///     TypeError: if `starter` is not a player.
    ///     ValueError: if `starter` is a str other than `"r"` and `"b"`.
    fn choose_starter(&self, starter: &Bound<'_, PyAny>) -> PyResult<()> {
        // The argument is checked before the match's state, None included (as the
        // reference engine does): None is no default here.
        if starter.is_none() {
            return Err(super::errors::wrong_type(
                "starter",
                "a Player or 'r' or 'b'",
                "None",
            ));
        }
        let starter = player_from_py("starter", Some(starter), Player::Red)?;
        self.lock()?.choose_starter(starter).or_raise()
    }

    /// The picture of the match's board now for Jupyter (`buttonup.svg.match_board`).
    fn _repr_svg_(&self) -> PyResult<String> {
        let board = draw::match_board(&*self.lock()?);
        svg::position(&board.position, &board.options()).or_raise()
    }

    /// The board now and a caption (the score, who moves) for Jupyter.
    fn _repr_html_(&self) -> PyResult<String> {
        Ok(draw::match_html(&*self.lock()?))
    }

    fn __repr__(&self) -> PyResult<String> {
        let game = self.lock()?;
        let standing = game.standing();
        let state = match (game.winner(), game.chooser()) {
            (Some(winner), _) => format!("winner={}", winner.name()),
            (None, Some(chooser)) => format!("chooser={}", chooser.name()),
            (None, None) => format!("position='{}'", game.position()),
        };
        Ok(format!(
            "<Match {}-{} to {}, battle {}, {state}>",
            standing.red,
            standing.black,
            standing.target,
            game.battles().len() + usize::from(game.winner().is_none())
        ))
    }
}

/// A match taken by a step of another thread's that called Python code meanwhile.
fn in_use() -> PyErr {
    PyRuntimeError::new_err("this Match is in use by another thread's call: try again")
}

/// `mutex` taken without waiting: never held while Python code runs, so never held by
/// another thread while this one has the interpreter (a poisoned one is still whole:
/// every step changes it at once or not at all).
fn take<T>(mutex: &Mutex<T>) -> PyResult<MutexGuard<'_, T>> {
    match mutex.try_lock() {
        Ok(guard) => Ok(guard),
        Err(TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => Err(in_use()),
    }
}

impl PyMatch {
    /// The Python match of a core match.
    pub(crate) fn wrap(inner: Match) -> PyMatch {
        PyMatch {
            inner: Mutex::new(inner),
            battles: Mutex::new(Vec::new()),
        }
    }

    /// The match, for a step that runs no Python code.
    pub(crate) fn lock(&self) -> PyResult<MutexGuard<'_, Match>> {
        take(&self.inner)
    }

    /// A copy of the match as it is now.
    pub(crate) fn snapshot(&self) -> PyResult<Match> {
        Ok(self.lock()?.clone())
    }

    fn cached_battles(&self) -> PyResult<MutexGuard<'_, Vec<Py<PyAny>>>> {
        take(&self.battles)
    }
}

/// Every match of a text of records one after the other (a tournament's file).
///
/// A record starts at a tag line that follows the battles of the one before.
///
/// Args:
///     text: the records' text (a str).
///
/// Returns:
///     A list of `Match`, in the order of the text.
///
/// Raises:
///     RecordError: if a record is at fault; the message names the line (in the whole
///         text) and the token of the first fault.
///     TypeError: if `text` is not a str.
///
/// Example:
///     >>> from buttonup import Match, read_records
///     >>> game = Match(target=1, per_colour=1, seed=5)
///     >>> _ = game.play(2), game.play(0)
///     >>> read_records(game.record() + "\n" + game.record())
///     [<Match 0-1 to 1, battle 1, winner=Black>, <Match 0-1 to 1, battle 1, winner=Black>]
#[pyfunction]
pub(crate) fn read_records(text: &Bound<'_, PyAny>) -> PyResult<Vec<PyMatch>> {
    Ok(records::read_all(text)?
        .into_iter()
        .map(PyMatch::wrap)
        .collect())
}

/// The start orders of `deals`, an iterable of str.
fn deal_list(deals: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if deals.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "deals must be an iterable of start orders, not one str",
        ));
    }
    let mut orders = Vec::new();
    for deal in deals.try_iter()? {
        let deal = deal?;
        if !deal.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "a deal must be a str, not {}",
                super::convert::type_name(&deal)
            )));
        }
        // A lone surrogate is a notation error, as in any notation argument, worded as
        // the core words a bad deal.
        let number = orders.len() + 1;
        let order = super::position::notation_text(&deal, "a deal").map_err(|error| {
            notation_error(format!("deal {number}: {}", error.value(deal.py())))
        })?;
        orders.push(order);
    }
    Ok(orders)
}

/// Who sits at a match's screen and the turn rules that follow (the web page's
/// matches): `players` 1, one person playing `human` against the AI, or 2, two people
/// sharing the screen. Each method asks the seats' rules, then the match's; a refusal
/// is `MatchStateError` (or the match's own error), with the same words on every door.
#[pyclass(module = "buttonup", name = "Seats", frozen)]
pub struct PySeats {
    inner: Seats,
}

#[pymethods]
impl PySeats {
    #[new]
    #[pyo3(signature = (human, players = None))]
    fn new(human: &Bound<'_, PyAny>, players: Option<Int>) -> PyResult<Self> {
        let human = player_from_py("human", Some(human), Player::Red)?;
        // As WebAssembly's: a count past a byte refused here, the rest by the core.
        let players = match players {
            Some(players) => players.within("players", 0, i64::from(u8::MAX))? as u8,
            None => 1,
        };
        Ok(PySeats {
            inner: Seats::new(human, players).or_raise()?,
        })
    }

    /// The AI's colour (`None` with two people).
    #[getter]
    fn ai(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        optional_player_to_py(py, self.inner.ai())
    }

    /// The side whose hints and choices the screen shows in `game`: the person's, or
    /// with two people the side to move's.
    fn acts(&self, py: Python<'_>, game: PyRef<'_, PyMatch>) -> PyResult<Py<PyAny>> {
        let side = self.inner.acts(&*game.lock()?);
        player_to_py(py, side)
    }

    /// The names a record gives the sides, Red's first: `You` and `ai` for one person
    /// against the AI, `Red player` and `Black player` for two.
    fn names(&self, ai: &str) -> (String, String) {
        let [red, black] = self.inner.names(ai);
        (red, black)
    }

    /// A person's move in `game` (`Match.play`'s answer).
    fn play<'py>(
        &self,
        py: Python<'py>,
        game: PyRef<'py, PyMatch>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.inner.check_play(&*game.lock()?).or_raise()?;
        game.play(py, r#move)
    }

    /// What the AI is to do in `game`: `"choose_starter"` or `"move"`.
    fn ai_turn(&self, game: PyRef<'_, PyMatch>) -> PyResult<&'static str> {
        let turn = self.inner.ai_turn(&*game.lock()?).or_raise()?;
        Ok(match turn {
            AiTurn::ChooseStarter => "choose_starter",
            AiTurn::Move => "move",
        })
    }

    /// A person's choice of starter in `game` (the tie rule).
    fn choose(&self, game: PyRef<'_, PyMatch>, starter: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.check_choose(&*game.lock()?).or_raise()?;
        game.choose_starter(starter)
    }

    /// Takes back the person's last move of the battle and the AI's replies after it
    /// (with two people, the battle's last move); the moves taken back, the last first.
    fn undo(&self, game: PyRef<'_, PyMatch>) -> PyResult<Vec<usize>> {
        self.inner.undo(&mut *game.lock()?).or_raise()
    }

    fn __repr__(&self) -> String {
        match self.inner {
            Seats::Against(human) => format!("Seats({:?}, players=1)", human.letter()),
            Seats::PassAndPlay => "Seats(players=2)".to_string(),
        }
    }
}
