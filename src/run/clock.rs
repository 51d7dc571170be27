//! The clock that time limits read. Natively it is `std::time::Instant`. On
//! `wasm32-unknown-unknown` the standard library has no clock (`Instant::now` panics
//! there), so this module gives an `Instant` of the same shape that reads a millisecond
//! source a front end installs once (`set_source`; the WebAssembly crate installs
//! JavaScript's `performance.now`). Until one is installed, each reading is one
//! microsecond after the previous one, so that a time limit still ends a search.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use self::installed::{set_source, Instant};

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod installed {
    use std::ops::{Add, AddAssign, Sub};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::OnceLock;
    use std::time::Duration;

    static SOURCE: OnceLock<fn() -> f64> = OnceLock::new();
    static TICKS: AtomicU64 = AtomicU64::new(0);

    /// Installs the clock: a function giving milliseconds from any fixed origin (only
    /// the first call has an effect).
    pub fn set_source(now_ms: fn() -> f64) {
        let _ = SOURCE.set(now_ms);
    }

    /// A moment, as time since the installed source's origin.
    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
    pub struct Instant(Duration);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            let since = match SOURCE.get() {
                Some(now_ms) => {
                    let ms = now_ms();
                    if ms.is_finite() && ms > 0.0 {
                        Duration::from_secs_f64((ms / 1000.0).min(1e12))
                    } else {
                        Duration::ZERO
                    }
                }
                None => Duration::from_micros(TICKS.fetch_add(1, Ordering::Relaxed)),
            };
            Instant(since)
        }

        /// The time since this moment (zero for a moment in the future).
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// The time from `earlier` to this moment (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }

        /// This moment plus `duration`, if that can be represented.
        pub fn checked_add(&self, duration: Duration) -> Option<Instant> {
            self.0.checked_add(duration).map(Instant)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, duration: Duration) -> Instant {
            Instant(self.0.saturating_add(duration))
        }
    }

    impl AddAssign<Duration> for Instant {
        fn add_assign(&mut self, duration: Duration) {
            *self = *self + duration;
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}
