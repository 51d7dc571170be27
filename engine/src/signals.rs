//! Ctrl-C ends the engine with status 130 and one line on standard error, as the
//! project's other commands (a closed output is `buttonup::ugi::exit_quietly`'s).

#[cfg(unix)]
mod unix {
    use std::ffi::c_int;

    extern "C" {
        fn signal(signum: c_int, handler: extern "C" fn(c_int)) -> usize;
        fn write(fd: c_int, buf: *const u8, count: usize) -> isize;
        fn _exit(status: c_int) -> !;
    }

    const SIGINT: c_int = 2;
    const MESSAGE: &[u8] = b"\nbuttonup-engine: interrupted\n";

    extern "C" fn on_interrupt(_: c_int) {
        // Only async-signal-safe calls here.
        unsafe {
            write(2, MESSAGE.as_ptr(), MESSAGE.len());
            _exit(130);
        }
    }

    pub fn exit_130_on_interrupt() {
        unsafe {
            signal(SIGINT, on_interrupt);
        }
    }
}

#[cfg(unix)]
pub use unix::exit_130_on_interrupt;

/// Elsewhere the system's own Ctrl-C handling stays.
#[cfg(not(unix))]
pub fn exit_130_on_interrupt() {}
