//! Ctrl-C in long calls. The core asks `buttonup::run::interrupt::interrupted` now and then;
//! the hook installed here answers, about every 10 ms of work, by attaching to the
//! interpreter and letting it run its signal handlers (on the main thread Ctrl-C raises
//! `KeyboardInterrupt` there). The exception is kept for the thread until the binding
//! that started the work raises it: every long call goes through [`run`].

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

use pyo3::marker::Ungil;
use pyo3::prelude::*;

/// How often the interpreter is asked, at most.
const EVERY: Duration = Duration::from_millis(10);

thread_local! {
    static CALLS: Cell<u32> = const { Cell::new(0) };
    static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
    static PENDING: RefCell<Option<PyErr>> = const { RefCell::new(None) };
    /// Whether this thread is running a call's work (other threads, such as a batch's
    /// helpers, never ask the interpreter: the calling thread tells them to stop).
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
}

/// The hook: `true` once a signal handler has raised during this thread's call.
fn hook() -> bool {
    if !ACTIVE.with(Cell::get) {
        return false;
    }
    if PENDING.with(|p| p.borrow().is_some()) {
        return true;
    }
    // Reading the clock costs more than a counter: look at it every 16th call.
    let calls = CALLS.with(|c| {
        c.set(c.get().wrapping_add(1));
        c.get()
    });
    if calls % 16 != 0 {
        return false;
    }
    let now = Instant::now();
    match LAST.with(Cell::get) {
        Some(last) if now.duration_since(last) < EVERY => return false,
        Some(_) => {}
        None => {
            LAST.with(|l| l.set(Some(now)));
            return false;
        }
    }
    LAST.with(|l| l.set(Some(now)));
    match Python::attach(|py| py.check_signals()) {
        Ok(()) => false,
        Err(error) => {
            PENDING.with(|p| *p.borrow_mut() = Some(error));
            true
        }
    }
}

/// Installs the hook; called when the module is loaded.
pub(crate) fn install() {
    buttonup::run::interrupt::set_hook(hook);
}

/// Runs `work` without the GIL and raises what a signal handler raised meanwhile (the
/// work then stopped early, and its result is dropped).
pub(crate) fn run<T: Ungil>(py: Python<'_>, work: impl FnOnce() -> T + Ungil) -> PyResult<T> {
    // The clock starts at the hook's first look (no clock read for short calls).
    LAST.with(|l| l.set(None));
    let was_active = ACTIVE.with(|a| a.replace(true));
    let out = py.detach(work);
    ACTIVE.with(|a| a.set(was_active));
    match PENDING.with(|p| p.borrow_mut().take()) {
        Some(error) => Err(error),
        None => Ok(out),
    }
}
