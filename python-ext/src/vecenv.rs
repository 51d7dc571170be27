//! `buttonup.VecEnv`: the batched environment, its outputs NumPy arrays written in place
//! with the GIL released.
//!
//! NumPy is imported by each call that needs it, with a clear `ImportError` when it is
//! missing (it is in the `rl` extra only), and before any use of its C API, whose
//! loading panics on failure. Arrays are made by `numpy.zeros` (an allocation that fails
//! is a `MemoryError`) and borrowed with the checked `try_readwrite`.

use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::Duration;

use crate::errors::OrRaise;
use numpy::{Element, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyImportError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyModule;

use super::convert::{optional_player, player_from_py, Int};
use super::interrupt::run;
use super::position::{seed_from_py, PyPosition};
use buttonup::game::variant::{Capability, STANDARD_PER_COLOUR};
use buttonup::sim::opponent::OpponentKind;
use buttonup::sim::pool::Panicked;
use buttonup::sim::vecenv::{observation_len, Failure, Outputs, VecEnv};

/// A panic of a step's worker, as the Python error it becomes (it never unwinds into
/// Python).
fn internal(error: Panicked) -> PyErr {
    PyRuntimeError::new_err(format!("VecEnv: {error}; please report it"))
}

/// Many battles stepped together, in the manner of EnvPool and pgx (docs/rl.md).
///
/// The arrays `current_player` (0 Red, 1 Black), `legal_action_mask` (games x piles),
/// `rewards` (games x 2: Red's and Black's margin on the step that ends a battle),
/// `terminated` and `observation` (games x cells, the mover's view) are made once and
/// rewritten by every `reset` and `step`. A finished game starts a new battle on its
/// next step, whatever its action (or at once, by `restart_finished`). A step writes
/// only what it changed (a game's mask when its legal moves changed, the cells of the
/// buttons in its observation): copy an array before changing it. With `threads` above
/// 1 the environment keeps its worker threads from the first step to its end.
///
/// With `agent` (a player) and `opponent` (a level, 1 to 10, of `buttonup.ai`)
/// it is single-agent: the opponent's moves are played inside each step, the agent is
/// to move in every unfinished game, and observations are the agent's view.
///
/// Threads may share one: each call takes the games in turn (a wait that Ctrl-C ends,
/// without the interpreter held). It needs NumPy (an `ImportError` names the extra to
/// install when it is missing).
///
/// Args:
///     num_envs: the number of games, 1 to 2**24.
///     per_colour: the buttons of each colour of every battle.
///     seed: an int from 0 to 2**64 - 1 (`None`: from the operating system).
///     threads: the threads a step uses, 1 to 256 (`None`: every core).
///     observations: whether to write `observation` (`False`: no cells).
///     agent: the agent's side (a `Player` or `"r"`/`"b"`), with `opponent`.
///     opponent: the opponent's level, with `agent`.
///
/// Raises:
///     ValueError: if an argument is out of range, or only one of `agent` and
///         `opponent` is given.
///
/// Example:
///     >>> import numpy as np
///     >>> from buttonup import VecEnv
///     >>> env = VecEnv(2, seed=1)
///     >>> env.positions()
///     [Position('W/B/W/R/B/R/B/R/W r'), Position('B/B/W/R/W/R/B/W/R r')]
///     >>> env.legal_action_mask.astype(int)
///     array([[1, 0, 1, 0, 0, 0, 0, 0, 1],
///            [0, 0, 1, 0, 1, 0, 0, 1, 0]])
///     >>> env.step(np.array([0, 2]))
///     >>> env.current_player, env.terminated
///     (array([1, 1], dtype=int8), array([False, False]))
#[pyclass(module = "buttonup", name = "VecEnv", frozen)]
pub struct PyVecEnv {
    /// Held through a call's work, which runs without the interpreter.
    inner: Mutex<VecEnv>,
    /// The number of games.
    #[pyo3(get)]
    num_envs: usize,
    /// Buttons of each colour.
    #[pyo3(get)]
    per_colour: usize,
    /// The threads a step uses.
    #[pyo3(get)]
    threads: usize,
    /// The agent's side in the single-agent form (`None`: two players).
    #[pyo3(get)]
    agent: Option<Py<PyAny>>,
    /// The opponent's level in the single-agent form.
    #[pyo3(get)]
    opponent: Option<i64>,
    observations: bool,
    /// Whose turn it is in each game: 0 Red, 1 Black.
    #[pyo3(get)]
    current_player: Py<PyArray1<i8>>,
    /// The legal piles of each game (games x piles; no pile once a battle is over).
    #[pyo3(get)]
    legal_action_mask: Py<PyArray2<bool>>,
    /// Red's and Black's reward of the last step (games x 2).
    #[pyo3(get)]
    rewards: Py<PyArray2<f32>>,
    /// Whether the last step ended each game's battle.
    #[pyo3(get)]
    terminated: Py<PyArray1<bool>>,
    /// The observation of each game from its mover's point of view (games x cells;
    /// no cells if made with `observations=False`).
    #[pyo3(get)]
    observation: Py<PyArray2<i8>>,
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(
        signature = (num_envs, *, per_colour = Int::of(STANDARD_PER_COLOUR as i64), seed = None, threads = None, observations = true, agent = None, opponent = None),
        text_signature = "(num_envs, *, per_colour=3, seed=None, threads=None, observations=True, agent=None, opponent=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: Int,
        per_colour: Int,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<Int>,
        observations: bool,
        agent: Option<&Bound<'_, PyAny>>,
        opponent: Option<Int>,
    ) -> PyResult<Self> {
        let num_envs = num_envs.within("num_envs", 1, 1 << 24)? as usize;
        let per_colour = per_colour.per_colour(Capability::Rules)?;
        let threads = super::convert::threads(threads)?;
        let seed = seed_from_py(seed)?;
        let side = optional_player("agent", agent)?;
        let against = match (side, opponent) {
            (None, None) => None,
            (Some(side), Some(level)) => {
                let level = level.within("opponent", 1, 10)?;
                let kind = OpponentKind::for_level(level).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "opponent: level {level} is not played inside VecEnv \
                         (levels played there: {}; other opponents: the single environment)",
                        OpponentKind::LEVELS
                    ))
                })?;
                Some((side, kind, level))
            }
            _ => {
                return Err(PyValueError::new_err(
                    "agent and opponent go together: give both (single-agent) or neither",
                ))
            }
        };
        let np = numpy(py)?;
        let inner = run(py, || match against {
            None => VecEnv::new(num_envs, per_colour, seed),
            Some((side, kind, _)) => VecEnv::against(num_envs, per_colour, seed, side, kind),
        })?
        .or_raise()?;
        // A Ctrl-C during the games' allocation (which does not poll) is raised now.
        py.check_signals()?;
        let width = inner.max_piles();
        let cells = if observations {
            observation_len(per_colour)
        } else {
            0
        };
        let env = PyVecEnv {
            inner: Mutex::new(inner),
            num_envs,
            per_colour,
            threads,
            agent: match side {
                Some(side) => Some(super::convert::player_to_py(py, side)?),
                None => None,
            },
            opponent: against.map(|(_, _, level)| level),
            observations,
            current_player: zeros(&np, (num_envs,), "int8")?,
            legal_action_mask: zeros(&np, (num_envs, width), "bool")?,
            rewards: zeros(&np, (num_envs, 2), "float32")?,
            terminated: zeros(&np, (num_envs,), "bool")?,
            observation: zeros(&np, (num_envs, cells), "int8")?,
        };
        env.write(py, &mut *env.games(py)?, None)?;
        Ok(env)
    }

    /// New battles in every game.
    ///
    /// Args:
    ///     seed: a new seed for all of them, or a sequence of one seed a game (game `i`
    ///         then deals what game 0 of a reset with `seed[i]` deals); `None`: from the
    ///         operating system.
    ///
    /// Raises:
    ///     ValueError: if a seed is out of range, or a sequence does not have one seed a
    ///         game.
    #[pyo3(signature = (seed = None))]
    fn reset(&self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        // One seed a game, or one for all of them.
        let seeds = match seed.map(|seed| self.seed_list(seed)).transpose()?.flatten() {
            Some(seeds) => Ok(seeds),
            None => Err(seed_from_py(seed)?),
        };
        let mut games = self.games(py)?;
        let inner = &mut *games;
        match seeds {
            Ok(seeds) => run(py, || inner.reset_each(&seeds))?.or_raise()?,
            Err(seed) => run(py, || inner.reset(seed))?.or_raise()?,
        }
        self.write(py, inner, None)
    }

    /// Plays one action (a pile index) in every game.
    ///
    /// Args:
    ///     actions: an int array of one pile a game.
    ///     waiting: a bool array of one flag a game, for the games that sit the step out
    ///         (their action unread, their battle unmoved, a finished one not started
    ///         again, reward 0).
    ///
    /// Raises:
    ///     ValueError: if an action is illegal, naming the game and the pile; no game
    ///         changes then.
    ///     TypeError: if `actions` is not an array of ints.
    #[pyo3(signature = (actions, waiting = None))]
    fn step(
        &self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        waiting: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let flags = waiting.map(|w| self.flags(py, w)).transpose()?;
        let waiting = flags.as_deref();
        // The common case, an int64 array of one pile a game (what `argmax` gives),
        // is read as it is: no NumPy call.
        if let Ok(array) = actions.cast::<PyArray1<i64>>() {
            if array.len() == self.num_envs && array.is_contiguous() {
                if let Ok(actions) = array.try_readonly() {
                    let mut games = self.games(py)?;
                    return self.write(py, &mut games, Some((actions.as_slice()?, waiting)));
                }
            }
        }
        let actions = int_actions(&numpy(py)?, actions, self.num_envs)?;
        let actions = actions
            .cast_into::<PyArray1<i64>>()
            .map_err(|_| PyValueError::new_err("actions must be a 1-D array of ints"))?;
        let actions = actions
            .try_readonly()
            .map_err(|error| PyValueError::new_err(error.to_string()))?;
        let mut games = self.games(py)?;
        self.write(py, &mut games, Some((actions.as_slice()?, waiting)))
    }

    /// A step in which every unfinished game plays a legal pile drawn uniformly at random.
    ///
    /// Each game draws from its own generator (reproducible from the seed, whatever the
    /// threads): no action array to make.
    ///
    /// Args:
    ///     actions: an int64 array of one entry a game, into which the piles played are
    ///         written, -1 for a game that started again (`None`: not written).
    #[pyo3(signature = (actions = None))]
    fn step_random(&self, py: Python<'_>, actions: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let Some(actions) = actions else {
            return self.write_with(py, &mut *self.games(py)?, |inner, out, threads| {
                inner.step_random(None, out, threads).map_err(internal)
            });
        };
        let array = actions.cast::<PyArray1<i64>>().map_err(|_| {
            PyTypeError::new_err("step_random: actions must be a 1-D int64 NumPy array")
        })?;
        if array.len() != self.num_envs {
            return Err(PyValueError::new_err(format!(
                "step_random: actions has {} entries for {} games",
                array.len(),
                self.num_envs
            )));
        }
        let mut chosen = array
            .try_readwrite()
            .map_err(|error| PyValueError::new_err(format!("step_random: actions: {error}")))?;
        let chosen = chosen.as_slice_mut().map_err(|_| {
            PyValueError::new_err("step_random: actions must be a contiguous array")
        })?;
        self.write_with(py, &mut *self.games(py)?, |inner, out, threads| {
            inner
                .step_random(Some(chosen), out, threads)
                .map_err(internal)
        })
    }

    /// Starts a new battle at once in every game whose battle ended on the last step.
    ///
    /// A same-step reset: it rewrites the game's player, mask and observation; `rewards`
    /// and `terminated` keep the step's values.
    fn restart_finished(&self, py: Python<'_>) -> PyResult<()> {
        self.write_with(py, &mut *self.games(py)?, |inner, out, threads| {
            inner.restart_finished(out, threads).map_err(internal)
        })
    }

    /// The current positions, for inspection (a list of `Position`, one a game).
    fn positions(&self, py: Python<'_>) -> PyResult<Vec<PyPosition>> {
        Ok(self.games(py)?.positions().map(PyPosition::from).collect())
    }
}

/// How long a wait for another thread's call on the same games sleeps between looks.
const GAMES_POLL: Duration = Duration::from_micros(200);

impl PyVecEnv {
    /// The games, taken in turn with other threads: the wait lets go of the interpreter
    /// (the holder needs it to finish) and Ctrl-C ends it.
    fn games(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, VecEnv>> {
        loop {
            match self.inner.try_lock() {
                Ok(games) => return Ok(games),
                Err(TryLockError::Poisoned(_)) => {
                    return Err(PyRuntimeError::new_err(
                        "VecEnv: a step failed in another thread; make a new VecEnv",
                    ))
                }
                Err(TryLockError::WouldBlock) => {
                    py.detach(|| std::thread::sleep(GAMES_POLL));
                    py.check_signals()?;
                }
            }
        }
    }

    /// `seed` as one seed a game when it is a sequence (a list, tuple or array, not an
    /// int): one int from 0 to 2**64 - 1 for each game, else a `ValueError`.
    fn seed_list(&self, seed: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u64>>> {
        // An int, or one with `__index__` (NumPy's scalars); an array has it too, but
        // also a length.
        let kind = seed.get_type();
        let is_int =
            kind.hasattr("__index__").unwrap_or(false) && !kind.hasattr("__len__").unwrap_or(false);
        if seed.is_none() || is_int || seed.is_instance_of::<pyo3::types::PyString>() {
            return Ok(None);
        }
        let Ok(items) = seed.try_iter() else {
            return Ok(None); // not a sequence: `seed_from_py` names the wrong type
        };
        let mut seeds = Vec::with_capacity(self.num_envs);
        for item in items {
            seeds.push(seed_from_py(Some(&item?))?);
        }
        if seeds.len() != self.num_envs {
            return Err(PyValueError::new_err(format!(
                "seed: {} seeds for {} games: give one a game (or one int for all)",
                seeds.len(),
                self.num_envs
            )));
        }
        Ok(Some(seeds))
    }

    /// `waiting` as one flag a game: a bool array of `num_envs` entries.
    fn flags(&self, py: Python<'_>, waiting: &Bound<'_, PyAny>) -> PyResult<Vec<bool>> {
        let array = numpy(py)?.call_method1("asarray", (waiting,))?;
        let array = array.cast_into::<PyArray1<bool>>().map_err(|_| {
            PyTypeError::new_err("waiting must be a 1-D bool array (one flag a game)")
        })?;
        let flags = array
            .to_vec()
            .map_err(|error| PyValueError::new_err(error.to_string()))?;
        if flags.len() != self.num_envs {
            return Err(PyValueError::new_err(format!(
                "waiting: {} flags for {} games",
                flags.len(),
                self.num_envs
            )));
        }
        Ok(flags)
    }

    /// Steps with `actions` and the games sitting out (or, with `None`, only writes the
    /// state) into the arrays.
    fn write(
        &self,
        py: Python<'_>,
        games: &mut VecEnv,
        actions: Option<(&[i64], Option<&[bool]>)>,
    ) -> PyResult<()> {
        self.write_with(py, games, |inner, out, threads| match actions {
            None => inner.observe(out, threads).map_err(internal),
            Some((actions, waiting)) => {
                inner
                    .step_some(actions, waiting, out, threads)
                    .map_err(|error| match error {
                        Failure::Illegal(error) => PyValueError::new_err(error.to_string()),
                        Failure::Panicked(error) => internal(error),
                    })
            }
        })
    }

    /// Runs `work` on the games (taken by the caller) with the arrays borrowed for
    /// writing, without the GIL.
    fn write_with(
        &self,
        py: Python<'_>,
        games: &mut VecEnv,
        work: impl FnOnce(&mut VecEnv, Outputs<'_>, usize) -> PyResult<()> + Send,
    ) -> PyResult<()> {
        let n = self.num_envs;
        let cells = if self.observations {
            observation_len(self.per_colour)
        } else {
            0
        };
        let width = games.max_piles();
        let mut current = writable(self.current_player.bind(py), "current_player", n)?;
        let mut mask = writable(
            self.legal_action_mask.bind(py),
            "legal_action_mask",
            n * width,
        )?;
        let mut rewards = writable(self.rewards.bind(py), "rewards", n * 2)?;
        let mut terminated = writable(self.terminated.bind(py), "terminated", n)?;
        let mut observation = writable(self.observation.bind(py), "observation", n * cells)?;
        let out = Outputs {
            current_player: current.as_slice_mut()?,
            legal_action_mask: mask.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            observation: if self.observations {
                Some(observation.as_slice_mut()?)
            } else {
                None
            },
        };
        let threads = self.threads;
        run(py, || work(games, out, threads))?
    }
}

/// The observation of `position` from `player`'s point of view (by default its
/// mover's; docs/rl.md): a flat int8 array of `piles x heights x 3` cells, piles and
/// heights both up to the number of buttons; channel 0 the player's buttons, 1 the
/// opponent's, 2 the white ones.
#[pyfunction]
#[pyo3(signature = (position, player = None))]
pub fn encode_observation<'py>(
    py: Python<'py>,
    position: &PyPosition,
    player: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    let player = player_from_py("player", player, position.inner.to_move())?;
    numpy(py)?;
    let n = position.inner.button_count();
    let mut cells = vec![0i8; n * n * 3];
    buttonup::sim::encode::encode_for(&position.inner, player, &mut cells);
    Ok(PyArray1::from_vec(py, cells))
}

/// The legal piles of `position` as a bool array as long as its number of buttons.
#[pyfunction]
pub fn legal_action_mask<'py>(
    py: Python<'py>,
    position: &PyPosition,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    numpy(py)?;
    let mut mask = vec![false; position.inner.button_count()];
    buttonup::sim::vecenv::legal_mask(&position.inner, &mut mask);
    Ok(PyArray1::from_vec(py, mask))
}

/// NumPy, imported (a clear `ImportError` naming the extra when it is missing), with any
/// pending Ctrl-C raised first: loading NumPy's C API afterwards, on the first array,
/// runs no Python code that a signal handler could interrupt (its failure panics).
fn numpy(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.check_signals()?;
    let module = py.import("numpy").map_err(|error| {
        if error.is_instance_of::<PyImportError>(py) {
            PyImportError::new_err(format!(
                "VecEnv, encode_observation and legal_action_mask need NumPy: \
                 pip install numpy (the rl extra) ({error})"
            ))
        } else {
            error
        }
    })?;
    for core in ["numpy._core.multiarray", "numpy.core.multiarray"] {
        if let Ok(core) = py.import(core) {
            if core.hasattr("_ARRAY_API")? {
                py.check_signals()?;
                return Ok(module);
            }
        }
    }
    Err(PyImportError::new_err(
        "this NumPy has no C API that buttonup can load",
    ))
}

/// A zeroed array made by `numpy.zeros` (a failed allocation is `MemoryError`).
fn zeros<'py, T: Element, D: numpy::ndarray::Dimension>(
    np: &Bound<'py, PyModule>,
    shape: impl IntoPyObject<'py>,
    dtype: &str,
) -> PyResult<Py<numpy::PyArray<T, D>>> {
    let array = np.call_method1("zeros", (shape, dtype))?;
    Ok(array.cast_into::<numpy::PyArray<T, D>>()?.unbind())
}

/// The actions as a contiguous int64 array of `games` entries: ints only (no bool,
/// float or object array: a pile is an int, as `Position.play` says), one a game.
fn int_actions<'py>(
    np: &Bound<'py, PyModule>,
    actions: &Bound<'py, PyAny>,
    games: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let array = np.call_method1("asarray", (actions,))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        let name: String = array.getattr("dtype")?.getattr("name")?.extract()?;
        return Err(PyTypeError::new_err(format!(
            "actions must be ints (pile indices) that fit in 64 bits, not an array of {name}"
        )));
    }
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    match shape[..] {
        [n] if n == games => {}
        [n] => {
            return Err(PyValueError::new_err(format!(
                "{n} actions for {games} games: actions must be one pile for each game"
            )))
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "actions must be one pile for each of the {games} games, \
                 not an array of shape {shape:?}"
            )))
        }
    }
    if kind == "u" {
        // Past i64's range is no pile anyway: clipped, it is refused as such.
        let clipped = np.call_method1("minimum", (&array, i64::MAX as u64))?;
        return np.call_method1("ascontiguousarray", (clipped, "int64"));
    }
    np.call_method1("ascontiguousarray", (array, "int64"))
}

/// An output array, borrowed for writing: still writeable and of its size (a caller
/// may have changed either).
fn writable<'py, T: Element, D: numpy::ndarray::Dimension>(
    array: &Bound<'py, numpy::PyArray<T, D>>,
    name: &str,
    len: usize,
) -> PyResult<numpy::PyReadwriteArray<'py, T, D>> {
    if array.len() != len {
        return Err(PyValueError::new_err(format!(
            "VecEnv.{name} was resized: it must keep its {len} entries"
        )));
    }
    array
        .try_readwrite()
        .map_err(|error| PyValueError::new_err(format!("VecEnv.{name}: {error}")))
}
