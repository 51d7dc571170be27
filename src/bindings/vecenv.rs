//! `buttonup.VecEnv`: the batched environment, its outputs NumPy arrays written in place
//! with the GIL released.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::convert::Int;
use super::interrupt::run;
use super::position::{seed_from_py, PyPosition};
use crate::game::variant::{Capability, STANDARD_PER_COLOUR};
use crate::sim::vecenv::{observation_len, Outputs, VecEnv};

/// Many battles stepped together, in the manner of EnvPool and pgx (docs/rl.md).
///
/// The arrays `current_player` (0 Red, 1 Black), `legal_action_mask` (games x piles),
/// `rewards` (games x 2: Red's and Black's margin on the step that ends a battle),
/// `terminated` and `observation` (games x cells, the mover's view) are made once and
/// rewritten by every `reset` and `step`. A finished game starts a new battle on its
/// next step, whatever its action.
#[pyclass(module = "buttonup", name = "VecEnv")]
pub struct PyVecEnv {
    inner: VecEnv,
    /// The number of games.
    #[pyo3(get)]
    num_envs: usize,
    /// Buttons of each colour.
    #[pyo3(get)]
    per_colour: usize,
    /// The threads a step uses.
    #[pyo3(get)]
    threads: usize,
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
        signature = (num_envs, *, per_colour = Int::of(STANDARD_PER_COLOUR as i64), seed = None, threads = None, observations = true),
        text_signature = "(num_envs, *, per_colour=3, seed=None, threads=None, observations=True)"
    )]
    fn new(
        py: Python<'_>,
        num_envs: Int,
        per_colour: Int,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<Int>,
        observations: bool,
    ) -> PyResult<Self> {
        let num_envs = num_envs.within("num_envs", 1, 1 << 24)? as usize;
        let per_colour = per_colour.per_colour(Capability::Rules)?;
        let threads = super::convert::threads(threads)?;
        let seed = seed_from_py(seed)?;
        let inner = run(py, || VecEnv::new(num_envs, per_colour, seed))??;
        let width = inner.max_piles();
        let cells = if observations {
            observation_len(per_colour)
        } else {
            0
        };
        let mut env = PyVecEnv {
            inner,
            num_envs,
            per_colour,
            threads,
            observations,
            current_player: PyArray1::zeros(py, num_envs, false).unbind(),
            legal_action_mask: PyArray2::zeros(py, [num_envs, width], false).unbind(),
            rewards: PyArray2::zeros(py, [num_envs, 2], false).unbind(),
            terminated: PyArray1::zeros(py, num_envs, false).unbind(),
            observation: PyArray2::zeros(py, [num_envs, cells], false).unbind(),
        };
        env.write(py, None)?;
        Ok(env)
    }

    /// New battles in every game (`seed`: a new seed for all of them).
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let seed = seed_from_py(seed)?;
        run(py, || self.inner.reset(seed))?;
        self.write(py, None)
    }

    /// Plays one action (a pile index) in every game. An illegal action is a
    /// `ValueError` naming the game and the pile, and no game changes.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let numpy = py.import("numpy")?;
        let actions =
            numpy.call_method1("ascontiguousarray", (actions, numpy.getattr("int64")?))?;
        let actions: PyReadonlyArray1<'_, i64> = actions
            .extract()
            .map_err(|_| PyValueError::new_err("actions must be a 1-D array of ints"))?;
        self.write(py, Some(actions.as_slice()?))
    }

    /// The current positions, for inspection.
    fn positions(&self) -> Vec<PyPosition> {
        self.inner.positions().map(PyPosition::from).collect()
    }
}

impl PyVecEnv {
    /// Steps with `actions` (or, with `None`, only writes the state) into the arrays.
    fn write(&mut self, py: Python<'_>, actions: Option<&[i64]>) -> PyResult<()> {
        let mut current = self.current_player.bind(py).readwrite();
        let mut mask = self.legal_action_mask.bind(py).readwrite();
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut terminated = self.terminated.bind(py).readwrite();
        let mut observation = self.observation.bind(py).readwrite();
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
        let (inner, threads) = (&mut self.inner, self.threads);
        match actions {
            None => run(py, || inner.observe(out, threads)),
            Some(actions) => run(py, || inner.step(actions, out, threads))?
                .map_err(|error| PyValueError::new_err(error.to_string())),
        }
    }
}

/// The observation of `position` from its mover's point of view (docs/rl.md): a flat
/// int8 array of `piles x heights x 3` cells, piles and heights both up to the number
/// of buttons; channel 0 the mover's buttons, 1 the opponent's, 2 the white ones.
#[pyfunction]
pub fn encode_observation<'py>(py: Python<'py>, position: &PyPosition) -> Bound<'py, PyArray1<i8>> {
    let n = position.inner.button_count();
    let mut cells = vec![0i8; n * n * 3];
    crate::sim::vecenv::encode(&position.inner, &mut cells);
    PyArray1::from_vec(py, cells)
}

/// The legal piles of `position` as a bool array as long as its number of buttons.
#[pyfunction]
pub fn legal_action_mask<'py>(
    py: Python<'py>,
    position: &PyPosition,
) -> Bound<'py, PyArray1<bool>> {
    let mut mask = vec![false; position.inner.button_count()];
    crate::sim::vecenv::legal_mask(&position.inner, &mut mask);
    PyArray1::from_vec(py, mask)
}
