//! Interrupting long work from outside: the core's long loops (search, perft, playouts,
//! match tables) ask [`interrupted`] now and then, and stop early when it says so. What
//! it asks is a hook that a front end installs once: the Python bindings install one
//! that lets Python run its signal handlers, so that Ctrl-C stops any long call. Without
//! a hook nothing is ever interrupted.

use std::fmt;
use std::sync::OnceLock;

static HOOK: OnceLock<fn() -> bool> = OnceLock::new();

/// Installs the hook (only the first call has an effect).
pub fn set_hook(hook: fn() -> bool) {
    let _ = HOOK.set(hook);
}

/// Whether the work in progress should stop now. Cheap: the hook decides how often it
/// really looks.
#[inline]
pub fn interrupted() -> bool {
    match HOOK.get() {
        Some(hook) => hook(),
        None => false,
    }
}

/// Work that was interrupted before it finished.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Interrupted;

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "interrupted")
    }
}

impl crate::HasKind for Interrupted {
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::Interrupted
    }
}

impl std::error::Error for Interrupted {}
