//! `buttonup._core.UgiEngine`: the core's UGI protocol (`buttonup::ugi`) for the Python
//! package's `buttonup engine`, which only reads lines and hands them over. Every call
//! that may wait for a search waits without the GIL (the engine's threads take it to
//! write to a Python stream), a few milliseconds at a time, so that Ctrl-C is seen.

use std::sync::Mutex;
use std::time::Duration;

use pyo3::exceptions::PyBrokenPipeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::position::PyPosition;
use super::search::lock;
use buttonup::ugi::{decode, exit_quietly, Engine, Output};

/// A UGI engine (docs/protocol.md) that calls itself `name` in its `id name` line. Its
/// answers go to standard output (a closed one ends the process quietly, with status
/// 141), or to `write`, called with each line and its end of line (a
/// `BrokenPipeError` or `ConnectionResetError` from it: nobody reads, nothing more is
/// written).
#[pyclass(module = "buttonup._core", name = "UgiEngine", frozen)]
pub struct PyUgiEngine {
    engine: Mutex<Engine>,
}

/// The output that writes each line to `write`, taking the GIL for it.
fn python_output(write: Py<PyAny>) -> Output {
    Output::to_reader(
        move |line| {
            Python::attach(|py| match write.call1(py, (format!("{line}\n"),)) {
                Ok(_) => true,
                Err(error) if error.is_instance_of::<PyBrokenPipeError>(py) => false,
                Err(error)
                    if error.is_instance_of::<pyo3::exceptions::PyConnectionResetError>(py) =>
                {
                    false
                }
                Err(error) => {
                    // Any other failure of the caller's stream is reported, not hidden,
                    // and the line is taken as written.
                    error.write_unraisable(py, None);
                    true
                }
            })
        },
        || {},
    )
}

/// How long a wait lasts between two looks at Python's signals.
const SIGNAL_LOOK: Duration = Duration::from_millis(10);

impl PyUgiEngine {
    /// Runs `work` on the engine without the GIL.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut Engine) -> T + Send,
    ) -> PyResult<T> {
        py.detach(|| -> PyResult<T> { Ok(work(&mut *lock(&self.engine)?)) })
    }

    /// Repeats `wait` (a wait of at most the time it is given) without the GIL until
    /// it answers `true`, raising what a signal handler raises (`KeyboardInterrupt`).
    fn until(
        &self,
        py: Python<'_>,
        wait: impl Fn(&mut Engine, Duration) -> bool + Send + Sync,
    ) -> PyResult<()> {
        while !self.with(py, |engine| wait(engine, SIGNAL_LOOK))? {
            py.check_signals()?;
        }
        Ok(())
    }
}

#[pymethods]
impl PyUgiEngine {
    #[new]
    #[pyo3(signature = (name, write = None))]
    fn new(name: &str, write: Option<Py<PyAny>>) -> PyUgiEngine {
        let out = match write {
            Some(write) => python_output(write),
            None => Output::stdout(|| exit_quietly(141)),
        };
        PyUgiEngine {
            engine: Mutex::new(Engine::new(out, name)),
        }
    }

    /// Carries out one line, given as text or as the bytes read (a line that is not
    /// UTF-8 is answered with an error line).
    fn handle(&self, py: Python<'_>, line: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = match line.cast::<PyBytes>() {
            Ok(bytes) => decode(bytes.as_bytes()),
            Err(_) => Ok(line.extract::<String>()?),
        };
        self.with(py, |engine| match text {
            Ok(text) => engine.handle(&text),
            Err(message) => engine.error(&message),
        })
    }

    /// Answers a line over the protocol's length limit, which the door skipped.
    fn line_too_long(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, |engine| engine.line_too_long())
    }

    /// The end of input: every line before it is carried out (a finite search answers
    /// first), then the engine quits.
    fn end_of_input(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, Engine::begin_end)?;
        self.until(py, Engine::end)
    }

    /// Ctrl-C: stops any search and waits for it, writing nothing more.
    fn interrupt(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, Engine::interrupt)
    }

    /// The door ends: after `quit` or the end of input, waits for every line before
    /// them to be carried out; otherwise stops any search and waits for it.
    fn finish(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, Engine::begin_finish)?;
        self.until(py, Engine::end)
    }

    /// Whether it reads on (not after `quit`).
    #[getter]
    fn running(&self, py: Python<'_>) -> PyResult<bool> {
        self.with(py, |engine| engine.running())
    }

    /// The position that `go` searches once every line handed over is carried out
    /// (it waits for them): the last `position` command's, or `None` (before one, and
    /// after `uginewgame`). `buttonup engine --policy` plays it.
    #[getter]
    fn position(&self, py: Python<'_>) -> PyResult<Option<PyPosition>> {
        self.until(py, |engine, timeout| engine.settle(timeout))?;
        self.with(py, |engine| engine.position().map(PyPosition::from))
    }
}
