//! Lines out, from both threads, one whole line at a time. Once nobody reads (a closed
//! pipe) the engine ends at once and quietly, with status 141, as `buttonup engine`.

use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

/// The engine's standard output, shared by the reading and the searching thread.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Standard output.
    pub fn stdout() -> Output {
        Output {
            sink: Arc::new(Mutex::new(Box::new(std::io::stdout()))),
        }
    }

    /// The lock on the output: lines written under one lock stay together, in order.
    pub fn lock(&self) -> Locked<'_> {
        Locked(
            self.sink
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        )
    }

    /// Writes one line.
    pub fn send(&self, line: &str) {
        self.lock().send(line);
    }
}

/// The output, locked.
pub struct Locked<'a>(MutexGuard<'a, Box<dyn Write + Send>>);

impl Locked<'_> {
    /// Writes one line; a closed output ends the process quietly.
    pub fn send(&mut self, line: &str) {
        let sink = &mut self.0;
        if writeln!(sink, "{line}")
            .and_then(|()| sink.flush())
            .is_err()
        {
            crate::signals::quiet_exit(141);
        }
    }
}
