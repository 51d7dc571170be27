//! Batches of independent work shared out over threads: the calling thread works too,
//! the others take chunks as they come free, and the results come back in chunk order,
//! so that a batch gives the same answer on any number of threads.
//!
//! Only the calling thread asks [`interrupted`] (the Python bindings' hook answers there);
//! when it says stop, or any chunk fails, a shared flag stops the other threads at their
//! next look.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::run::interrupt::{interrupted, Interrupted};

/// The number of threads to use when none is asked: every core the system lets us use,
/// asked once (the answer reads cgroup files, some 45 us a call).
pub fn default_threads() -> usize {
    if !THREADS_AVAILABLE {
        return 1;
    }
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The most threads any call runs on, whatever it asks: past this, more threads only
/// cost start-up time (100,000 took 11 s for an 18-pile solve) and a huge ask such as
/// `u32::MAX` would never finish starting them, so could not be stopped.
pub const MAX_THREADS: usize = 256;

/// The most threads a call runs on for each core it may use: past this, threads only
/// share the same cores (no faster), and the calling thread, which answers Ctrl-C, gets
/// too small a share of its core to look often enough (256 threads on 2 cores answered
/// after more than a second).
pub const THREADS_PER_CORE: usize = 4;

/// `asked` threads held to `1..=MAX_THREADS` and to [`THREADS_PER_CORE`] a core: every
/// door's thread count passes here.
pub fn clamp_threads(asked: usize) -> usize {
    let most = MAX_THREADS.min(THREADS_PER_CORE * default_threads());
    asked.clamp(1, most.max(1))
}

/// Whether helper threads can be started at all: not on `wasm32-unknown-unknown`, where
/// everything runs on the calling thread (one thread, the same answers).
pub const THREADS_AVAILABLE: bool = !cfg!(all(target_arch = "wasm32", target_os = "unknown"));

/// What a chunk's work may ask while it runs.
pub struct Worker {
    cancel: Arc<AtomicBool>,
    calling_thread: bool,
}

impl Worker {
    /// Whether to stop now: another thread failed or was interrupted, or (on the calling
    /// thread) [`interrupted`] says so.
    #[inline]
    pub fn should_stop(&self) -> bool {
        if self.cancel.load(Ordering::Relaxed) {
            return true;
        }
        if self.calling_thread && interrupted() {
            self.cancel.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// The flag that is set when the batch is to stop (for a search's stop flag).
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }
}

/// Runs `work(&mut state, chunk, &worker)` for every chunk in `0..chunks` on up to
/// `threads` threads (each with its own `state` from `init`), and returns the states of
/// the threads that ran (the calling thread's first), or the first error met (an
/// interruption is an error too: `E` says how). Which thread runs which chunk is not
/// fixed: what is folded into a state must not depend on it.
pub fn fold_chunks<S, E>(
    chunks: u64,
    threads: usize,
    init: impl Fn() -> Result<S, E> + Sync,
    work: impl Fn(&mut S, u64, &Worker) -> Result<(), E> + Sync,
) -> Result<Vec<S>, E>
where
    S: Send,
    E: Send + From<Interrupted>,
{
    let threads = threads.clamp(1, usize::try_from(chunks.max(1)).unwrap_or(usize::MAX));
    let cancel = Arc::new(AtomicBool::new(false));
    // The error that stopped the batch (not the ones it then caused on other threads).
    let cause: Mutex<Option<E>> = Mutex::new(None);
    let next = AtomicU64::new(0);
    let run = |calling_thread: bool| -> Option<S> {
        let worker = Worker {
            cancel: Arc::clone(&cancel),
            calling_thread,
        };
        let fail = |error: E| {
            if !worker.cancel.swap(true, Ordering::Relaxed) {
                if let Ok(mut cause) = cause.lock() {
                    *cause = Some(error);
                }
            }
            None
        };
        let mut state = match init() {
            Ok(state) => state,
            Err(error) => return fail(error),
        };
        loop {
            if worker.should_stop() {
                return None;
            }
            let chunk = next.fetch_add(1, Ordering::Relaxed);
            if chunk >= chunks {
                return Some(state);
            }
            if let Err(error) = work(&mut state, chunk, &worker) {
                return fail(error);
            }
        }
    };
    let states = on_threads(threads, run);
    if let Some(error) = cause.into_inner().ok().flatten() {
        return Err(error);
    }
    // Every thread finished unless the calling thread saw an interruption.
    states
        .into_iter()
        .map(|state| state.ok_or_else(|| Interrupted.into()))
        .collect()
}

/// Runs `run` on the calling thread (`run(true)`) and on up to `threads - 1` helper
/// threads (`run(false)`), and returns what each gave, the calling thread's first. A
/// thread the system refuses to start is one helper fewer, not a failure: the calling
/// thread alone can do all the work. A helper's panic is raised again here.
fn on_threads<R: Send>(threads: usize, run: impl Fn(bool) -> R + Sync) -> Vec<R> {
    if !THREADS_AVAILABLE || threads <= 1 {
        return vec![run(true)];
    }
    let threads = clamp_threads(threads);
    std::thread::scope(|scope| {
        let run = &run;
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || run(false))
                    .ok()
            })
            .collect();
        let mut out = vec![run(true)];
        for helper in helpers {
            match helper.join() {
                Ok(result) => out.push(result),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

/// Runs `work` on every part, on up to `threads` threads (the calling thread works
/// too), each thread taking the next part as it comes free: for work that neither
/// fails nor stops early, on parts that own what they write (disjoint slices of one
/// batch's outputs, say).
pub fn for_each_part<T: Send>(parts: Vec<T>, threads: usize, work: impl Fn(T) + Sync) {
    let threads = threads.clamp(1, parts.len().max(1));
    if threads == 1 {
        parts.into_iter().for_each(work);
        return;
    }
    let parts = Mutex::new(parts.into_iter());
    on_threads(threads, |_| loop {
        let next = match parts.lock() {
            Ok(mut parts) => parts.next(),
            Err(_) => None,
        };
        match next {
            Some(part) => work(part),
            None => break,
        }
    });
}

/// [`fold_chunks`] whose chunks each give a result: the results in chunk order.
pub fn map_chunks<S, T, E>(
    chunks: usize,
    threads: usize,
    init: impl Fn() -> Result<S, E> + Sync,
    work: impl Fn(&mut S, usize, &Worker) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E>
where
    S: Send,
    T: Send,
    E: Send + From<Interrupted>,
{
    let states = fold_chunks(
        chunks as u64,
        threads,
        || init().map(|state| (state, Vec::new())),
        |(state, done), chunk, worker| {
            let chunk = chunk as usize;
            done.push((chunk, work(state, chunk, worker)?));
            Ok(())
        },
    )?;
    let mut done: Vec<(usize, T)> = states.into_iter().flat_map(|(_, done)| done).collect();
    done.sort_unstable_by_key(|&(chunk, _)| chunk);
    Ok(done.into_iter().map(|(_, result)| result).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_chunk_order_on_any_number_of_threads() {
        for threads in 1..=4 {
            let squares = map_chunks::<_, _, Interrupted>(
                100,
                threads,
                || Ok(()),
                |_, chunk, _| Ok(chunk * chunk),
            )
            .unwrap();
            assert_eq!(squares, (0..100).map(|c| c * c).collect::<Vec<_>>());
        }
    }

    #[test]
    fn every_part_is_worked_once_on_any_number_of_threads() {
        for threads in 1..=4 {
            let mut cells = vec![0u32; 1000];
            let parts: Vec<(usize, &mut [u32])> = cells.chunks_mut(64).enumerate().collect();
            for_each_part(parts, threads, |(c, part)| {
                for (j, cell) in part.iter_mut().enumerate() {
                    *cell += (c * 64 + j) as u32;
                }
            });
            assert_eq!(cells, (0..1000).collect::<Vec<u32>>());
        }
        for_each_part(Vec::<u8>::new(), 3, |_| unreachable!());
    }

    #[derive(Debug, PartialEq)]
    enum Failure {
        Bad(usize),
        Interrupted,
    }

    impl From<Interrupted> for Failure {
        fn from(_: Interrupted) -> Self {
            Failure::Interrupted
        }
    }

    #[test]
    fn a_failing_chunk_stops_the_batch() {
        let outcome = map_chunks(
            1000,
            2,
            || Ok(()),
            |_, chunk, _| {
                if chunk == 7 {
                    Err(Failure::Bad(7))
                } else {
                    Ok(chunk)
                }
            },
        );
        assert_eq!(outcome, Err(Failure::Bad(7)));
        let outcome: Result<Vec<usize>, Failure> =
            map_chunks(3, 2, || Err(Failure::Bad(0)), |_: &mut (), c, _| Ok(c));
        assert_eq!(outcome, Err(Failure::Bad(0)));
        assert_eq!(
            map_chunks::<(), usize, Failure>(0, 2, || Ok(()), |_, c, _| Ok(c)).unwrap(),
            Vec::<usize>::new()
        );
    }
}
