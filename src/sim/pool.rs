//! A pool of worker threads kept for the life of a batched environment, so that a step
//! starts no thread: the workers wait for the next step spinning a little, then asleep.
//!
//! A step is `parts` pieces of work, numbered from 0. The calling thread and the workers
//! each claim the next part until none is left, and the call returns once every claimed
//! part is done; a worker slow to wake (on a loaded machine) leaves its parts to the
//! others. A part that panics is caught where it runs: the call then returns
//! [`Panicked`] after the other parts have finished, and the pool stays usable. Dropping
//! the pool wakes the workers and joins them.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::run::parallel::THREADS_AVAILABLE;

/// How long an idle worker spins before it sleeps: longer than the time a caller
/// usually takes between two steps (choosing the next actions), short enough to give
/// the core back soon when the steps stop.
const SPIN_FOR: Duration = Duration::from_micros(200);

/// A part of the work panicked (the other parts ran to their end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panicked;

impl std::fmt::Display for Panicked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a part of the step panicked (an internal error)")
    }
}

impl crate::HasKind for Panicked {
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::Internal
    }
}

impl std::error::Error for Panicked {}

/// The work of the current step, its lifetime erased: only ever called for a part
/// claimed in the step that set it, while that step's caller waits for the part.
#[derive(Clone, Copy)]
struct Job(*const (dyn Fn(usize) + Sync));

// SAFETY: the pointee is `Sync`, and the protocol of `Pool::run` keeps it alive for
// every call made through the pointer (see there).
unsafe impl Send for Job {}

/// What the caller and the workers share.
struct Shared {
    /// The step (bits 40-63), its number of parts (bits 20-39) and the next part to
    /// claim (bits 0-19): claiming is one compare-and-swap that fails once the step is
    /// over or another has begun.
    state: AtomicU64,
    job: Mutex<Option<Job>>,
    /// Parts of the current step done (run or panicked).
    finished: AtomicUsize,
    panicked: AtomicBool,
    /// Workers asleep or about to sleep (they are woken by `wake`).
    sleeping: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
    stop: AtomicBool,
}

const PART_BITS: u32 = 20;
const PART_MASK: u64 = (1 << PART_BITS) - 1;

/// The most parts a step may have.
pub const MAX_PARTS: usize = PART_MASK as usize;

fn step_of(state: u64) -> u64 {
    state >> (2 * PART_BITS)
}

impl Shared {
    /// Claims the next part of step `step`, if it is still running and has one left.
    fn claim(&self, step: u64) -> Option<usize> {
        let mut state = self.state.load(Ordering::Acquire);
        loop {
            let parts = state >> PART_BITS & PART_MASK;
            let next = state & PART_MASK;
            if step_of(state) != step || next >= parts {
                return None;
            }
            match self.state.compare_exchange_weak(
                state,
                state + 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some(next as usize),
                Err(now) => state = now,
            }
        }
    }

    /// Runs every part of step `step` this thread can claim.
    fn work(&self, step: u64) {
        while let Some(part) = self.claim(step) {
            // The job was set before the step was published, and the caller waits for
            // this part: it is the step's own and alive.
            let job = self.job.lock().map(|job| *job).unwrap_or(None);
            if let Some(Job(job)) = job {
                // SAFETY: see above; the caller does not return before `finished`
                // counts this part.
                let job = unsafe { &*job };
                if catch_unwind(AssertUnwindSafe(|| job(part))).is_err() {
                    self.panicked.store(true, Ordering::Release);
                }
            }
            self.finished.fetch_add(1, Ordering::AcqRel);
        }
    }
}

/// Worker threads kept between steps (none for one thread).
pub struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
    asked: usize,
}

impl Pool {
    /// A pool for `threads` threads in all: the calling thread and `threads - 1`
    /// workers (fewer if the system refuses to start one: the calling thread alone can
    /// do all the work).
    pub fn new(threads: usize) -> Pool {
        let shared = Arc::new(Shared {
            state: AtomicU64::new(0),
            job: Mutex::new(None),
            finished: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            sleeping: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        let helpers = if THREADS_AVAILABLE {
            crate::run::parallel::clamp_threads(threads) - 1
        } else {
            0
        };
        let workers = (0..helpers)
            .filter_map(|i| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("buttonup-pool{}", i + 1))
                    .spawn(move || worker(&shared))
                    .ok()
            })
            .collect();
        Pool {
            shared,
            workers,
            asked: threads.max(1),
        }
    }

    /// The threads that work a step: the caller's and the workers.
    pub fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// The threads asked for when it was made.
    pub fn asked(&self) -> usize {
        self.asked
    }

    /// Runs `work(part)` for every part in `0..parts` on the calling thread alone, a
    /// panic caught as in [`Pool::run`].
    pub fn alone(parts: usize, work: &(dyn Fn(usize) + Sync)) -> Result<(), Panicked> {
        let mut failed = false;
        for part in 0..parts {
            failed |= catch_unwind(AssertUnwindSafe(|| work(part))).is_err();
        }
        if failed {
            Err(Panicked)
        } else {
            Ok(())
        }
    }

    /// Runs `work(part)` for every part in `0..parts` (at most [`MAX_PARTS`]) on the
    /// calling thread and the workers, and returns when all are done.
    pub fn run(&mut self, parts: usize, work: &(dyn Fn(usize) + Sync)) -> Result<(), Panicked> {
        let parts = parts.min(MAX_PARTS);
        if self.workers.is_empty() || parts <= 1 {
            return Pool::alone(parts, work);
        }
        let shared = &*self.shared;
        // SAFETY (of the erased lifetime): a worker calls the job only for a part it
        // claimed in this step, and this call does not return before every part is
        // done; `&mut self` keeps a second step from starting meanwhile. The pointer is
        // cleared before returning.
        let job: *const (dyn Fn(usize) + Sync + '_) = work;
        let job: *const (dyn Fn(usize) + Sync + 'static) = unsafe { std::mem::transmute(job) };
        if let Ok(mut slot) = shared.job.lock() {
            *slot = Some(Job(job));
        }
        shared.finished.store(0, Ordering::Release);
        shared.panicked.store(false, Ordering::Release);
        let step = step_of(shared.state.load(Ordering::Acquire)).wrapping_add(1) & 0xff_ffff;
        shared.state.store(
            step << (2 * PART_BITS) | (parts as u64) << PART_BITS,
            Ordering::SeqCst,
        );
        if shared.sleeping.load(Ordering::SeqCst) > 0 {
            let _guard = shared.lock.lock();
            shared.wake.notify_all();
        }
        shared.work(step);
        let mut spins = 0u32;
        while shared.finished.load(Ordering::Acquire) < parts {
            spins += 1;
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        if let Ok(mut slot) = shared.job.lock() {
            *slot = None;
        }
        if shared.panicked.load(Ordering::Acquire) {
            Err(Panicked)
        } else {
            Ok(())
        }
    }
}

/// A worker: waits for a step (spinning for [`SPIN_FOR`], then asleep), works it, again.
fn worker(shared: &Shared) {
    let mut seen = step_of(shared.state.load(Ordering::Acquire));
    loop {
        let started = Instant::now();
        let mut spins = 0u32;
        let step = loop {
            if shared.stop.load(Ordering::Acquire) {
                return;
            }
            let step = step_of(shared.state.load(Ordering::Acquire));
            if step != seen {
                break step;
            }
            spins = spins.wrapping_add(1);
            if spins % 64 != 0 || started.elapsed() < SPIN_FOR {
                std::hint::spin_loop();
                continue;
            }
            // Asleep until a step is published: `sleeping` is raised before the last
            // look, so a caller publishing after it sees a sleeper and wakes it.
            shared.sleeping.fetch_add(1, Ordering::SeqCst);
            if let Ok(mut guard) = shared.lock.lock() {
                while step_of(shared.state.load(Ordering::SeqCst)) == seen
                    && !shared.stop.load(Ordering::SeqCst)
                {
                    guard = match shared.wake.wait(guard) {
                        Ok(guard) => guard,
                        Err(_) => break,
                    };
                }
            }
            shared.sleeping.fetch_sub(1, Ordering::SeqCst);
            spins = 0;
        };
        seen = step;
        shared.work(step);
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        {
            let _guard = self.shared.lock.lock();
            self.shared.wake.notify_all();
        }
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_runs_once_on_any_number_of_threads() {
        for threads in 1..=4 {
            let mut pool = Pool::new(threads);
            for round in 0..200 {
                let parts = 1 + round % 9;
                let counts: Vec<AtomicUsize> = (0..parts).map(|_| AtomicUsize::new(0)).collect();
                pool.run(parts, &|part| {
                    counts[part].fetch_add(1, Ordering::Relaxed);
                })
                .unwrap();
                assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 1));
            }
        }
    }

    #[test]
    fn a_panicking_part_is_an_error_and_the_pool_goes_on() {
        let mut pool = Pool::new(2);
        let ran = AtomicUsize::new(0);
        let outcome = pool.run(4, &|part| {
            ran.fetch_add(1, Ordering::Relaxed);
            assert!(part != 2, "part 2 fails");
        });
        assert_eq!(outcome, Err(Panicked));
        assert_eq!(ran.load(Ordering::Relaxed), 4);
        let ran = AtomicUsize::new(0);
        pool.run(4, &|_| {
            ran.fetch_add(1, Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(ran.load(Ordering::Relaxed), 4);
        assert_eq!(Pool::new(1).run(1, &|_| panic!("alone")), Err(Panicked));
    }

    #[test]
    fn sleeping_workers_wake_for_the_next_step_and_drop_joins_them() {
        let mut pool = Pool::new(3);
        assert_eq!(pool.threads(), 3);
        std::thread::sleep(SPIN_FOR * 5);
        let seen = Mutex::new(std::collections::HashSet::new());
        for _ in 0..50 {
            pool.run(3, &|_| {
                seen.lock().unwrap().insert(std::thread::current().id());
                std::thread::sleep(Duration::from_millis(1));
            })
            .unwrap();
        }
        // Each part sleeps, so the workers take some of them.
        assert!(seen.lock().unwrap().len() > 1);
        drop(pool);
    }
}
