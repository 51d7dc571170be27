//! Lines out, from the reading and the searching thread, one whole line at a time. What
//! happens once nobody reads (a closed pipe) is the door's to say: the native engine
//! ends the process quietly; a door that cannot, stops writing.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Where the lines go.
enum Sink {
    /// A byte stream, flushed after each line.
    Stream(Box<dyn Write + Send>),
    /// A function given each line, without its end of line; `false` when nobody reads.
    Lines(Box<dyn FnMut(&str) -> bool + Send>),
}

/// The engine's output, shared by the reading and the searching thread.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Sink>>,
    closed: Arc<AtomicBool>,
    on_closed: Arc<dyn Fn() + Send + Sync>,
}

impl Output {
    /// Standard output; `on_closed` is called (once) when a line cannot be written.
    pub fn stdout(on_closed: impl Fn() + Send + Sync + 'static) -> Output {
        Output::of(Sink::Stream(Box::new(std::io::stdout())), on_closed)
    }

    /// Each line handed to `write` (a front end's buffer, a test).
    pub fn to_lines(mut write: impl FnMut(&str) + Send + 'static) -> Output {
        Output::of(
            Sink::Lines(Box::new(move |line| {
                write(line);
                true
            })),
            || {},
        )
    }

    /// Each line handed to `write`, which answers `false` when nobody reads any more;
    /// `on_closed` is called once then, and nothing more is written.
    pub fn to_reader(
        write: impl FnMut(&str) -> bool + Send + 'static,
        on_closed: impl Fn() + Send + Sync + 'static,
    ) -> Output {
        Output::of(Sink::Lines(Box::new(write)), on_closed)
    }

    fn of(sink: Sink, on_closed: impl Fn() + Send + Sync + 'static) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
            closed: Arc::new(AtomicBool::new(false)),
            on_closed: Arc::new(on_closed),
        }
    }

    /// The lock on the output: lines written under one lock stay together, in order.
    pub fn lock(&self) -> Locked<'_> {
        Locked {
            sink: self
                .sink
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
            output: self,
        }
    }

    /// Writes one line.
    pub fn send(&self, line: &str) {
        self.lock().send(line);
    }

    /// Writes nothing more from now on (the door was interrupted).
    pub fn close(&self) {
        let _held = self.lock();
        self.closed.store(true, Ordering::SeqCst);
    }

    /// Whether it writes no more: closed, or nobody reads.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }
}

/// The output, locked.
pub struct Locked<'a> {
    sink: MutexGuard<'a, Sink>,
    output: &'a Output,
}

impl Locked<'_> {
    /// Writes one line; when nobody reads, the output's `on_closed` is called once.
    pub fn send(&mut self, line: &str) {
        if self.output.is_closed() {
            return;
        }
        let written = match &mut *self.sink {
            Sink::Stream(stream) => writeln!(stream, "{line}")
                .and_then(|()| stream.flush())
                .is_ok(),
            Sink::Lines(write) => write(line),
        };
        if !written && !self.output.closed.swap(true, Ordering::SeqCst) {
            (self.output.on_closed)();
        }
    }
}

/// Ends the process at once with `status`, running no exit handler and flushing
/// nothing (a door whose output is closed: status 141, and nothing printed).
pub fn exit_quietly(status: i32) -> ! {
    #[cfg(unix)]
    {
        extern "C" {
            fn _exit(status: std::ffi::c_int) -> !;
        }
        // SAFETY: `_exit` takes any status and does not return.
        unsafe { _exit(status) }
    }
    #[cfg(not(unix))]
    std::process::exit(status)
}
