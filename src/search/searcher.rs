//! The searcher: its transposition table, payoff, threads, limits and stop flags, which
//! persist across searches, and the controls every search shares (start, end, when to
//! stop). This file is its whole public API; the searches themselves are in `negamax`,
//! `deepening`, `line` and `parallel` (which decides the threads of every search).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::entry::TableAllocError;
use super::eval::{projected_margin, Estimate};
use super::limits::{Iteration, Limits, SearchResult};
use super::net::net_margin;
use super::payoff::Payoff;
use super::shared_table::SharedTable;
use super::table::Table;
#[cfg(target_arch = "x86_64")]
use crate::game::bits::Bmi2;
use crate::game::rules::Position;
use crate::run::clock::Instant;
use crate::run::interrupt::interrupted;
use crate::run::parallel::{clamp_threads, THREADS_AVAILABLE};

/// The stop flag and the limits are looked at every this many nodes.
pub(super) const CHECK_EVERY: u64 = 1024;

/// Which copy of the recursion a search runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kernel {
    /// The target's baseline instruction set.
    Portable,
    /// x86-64 with BMI1, BMI2, POPCNT and LZCNT.
    #[cfg(target_arch = "x86_64")]
    Bmi,
    /// The same, where `pdep` and `pext` are fast too (the proof): moves sown without
    /// a loop.
    #[cfg(target_arch = "x86_64")]
    Pdep(Bmi2),
}

impl Kernel {
    /// The fastest copy this processor runs (asked once a process: the standard
    /// library caches the answer).
    pub(crate) fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if let Some(ops) = Bmi2::detect() {
            return Kernel::Pdep(ops);
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
        {
            return Kernel::Bmi;
        }
        Kernel::Portable
    }
}

/// A searcher: its transposition table, payoff, threads and stop flag persist across
/// searches.
///
/// ```
/// use buttonup::game::rng::{random_start, SplitMix64};
/// use buttonup::search::{Limits, Payoff, Searcher};
/// use buttonup::Player;
/// use std::sync::atomic::Ordering;
/// use std::time::Duration;
///
/// let big = random_start(8, Player::Red, &mut SplitMix64::new(1)).unwrap();
/// let mut searcher = Searcher::new(Payoff::Margin, 16 << 20);
/// // Within limits: the best move found, exact only if the search reached the end.
/// let limits = Limits { depth: Some(4), time: Some(Duration::from_millis(50)), ..Limits::default() };
/// let result = searcher.search(&big, &limits);
/// assert!(big.is_legal(result.best_move.unwrap()) && result.depth <= 4 && !result.exact);
/// // A stop set from another thread (here before the search) ends the next search.
/// searcher.stop_flag().store(true, Ordering::Relaxed);
/// let stopped = searcher.search(&big, &Limits::default());
/// assert!(!stopped.exact && searcher.was_cut_short());
/// ```
pub struct Searcher {
    pub(super) table: Table,
    pub(super) payoff: Payoff,
    pub(super) merge_colours: bool,
    pub(super) stop: Arc<AtomicBool>,
    /// A second stop flag, owned by the caller and never cleared here (a batch's).
    pub(super) halt: Option<Arc<AtomicBool>>,
    /// A second such flag: its owner's ([`Searcher::halt_also_with`]).
    owner_halt: Option<Arc<AtomicBool>>,
    pub(super) nodes: u64,
    pub(super) node_limit: u64,
    pub(super) deadline: Option<Instant>,
    /// Whether limits and the stop flag are obeyed (off for exact solving).
    pub(super) abortable: bool,
    pub(super) aborted: bool,
    /// Numbers the searches. Entries of earlier searches are used only where they come
    /// from searches to the end (true bounds of the game value) and the exact value is
    /// asked, so that a limited search gives the same result whatever was searched before.
    pub(super) generation: u32,
    /// Whether exact entries of earlier searches may be used (not in a node-limited
    /// search, whose result would then depend on what was searched before).
    pub(super) reuse_exact: bool,
    /// A helper of a parallel search: orders moves the other way round.
    pub(super) helper: bool,
    /// The copy of the recursion its searches run (the fastest this processor has).
    pub(super) kernel: Kernel,
    /// The horizon's estimate (chosen by each search as [`Estimate`] says).
    pub(super) estimate: Estimate,
    /// Whether its exact searches order children by the network near the root: yes,
    /// but not a helper thread's, whose own order (the other way round) explores what
    /// the main thread has not reached yet (with the network's order on both threads,
    /// the 10-per-colour starts of seeds 1-3 took 5.0-9.7 s against 3.5-7.1 s on the
    /// main thread only).
    pub(super) net_order: bool,
    /// Whether the search running now orders children by the network: an exact one, or
    /// a limited one in its exact iteration, of a searcher whose `net_order` is on.
    pub(super) sorting_by_net: bool,
    /// The threads its searches may take ([`worth_threads`](super::parallel) decides
    /// how many each takes).
    pub(super) threads: usize,
    /// The threads of the search running now (its helpers and itself).
    pub(super) running_threads: usize,
}

impl Searcher {
    /// A searcher for one thread with a transposition table of at most `table_bytes`
    /// bytes. Small sizes only: a table that cannot be allocated aborts the process
    /// ([`try_new`](Self::try_new) says so instead).
    pub fn new(payoff: Payoff, table_bytes: usize) -> Searcher {
        Self::with_table(payoff, Table::with_bytes(table_bytes))
    }

    /// A searcher with a table of any size, or the error if it cannot be allocated.
    pub fn try_new(payoff: Payoff, table_bytes: usize) -> Result<Searcher, TableAllocError> {
        Ok(Self::with_table(
            payoff,
            Table::try_with_bytes(table_bytes)?,
        ))
    }

    /// A margin searcher that may take up to `threads` threads (held to 1 to
    /// [`MAX_THREADS`](crate::run::parallel::MAX_THREADS) and to
    /// [`THREADS_PER_CORE`](crate::run::parallel::THREADS_PER_CORE) a core; 1 where
    /// threads cannot start),
    /// on a table of `table_bytes` bytes that they share (for one thread, a table of its
    /// own: a little faster alone). Its solves, analyses and searches take the threads
    /// where the position is big enough to pay for them; a depth or node limit keeps a
    /// search on one thread, so that its answer is the same on every run.
    pub fn with_threads(table_bytes: usize, threads: usize) -> Result<Searcher, TableAllocError> {
        let threads = if THREADS_AVAILABLE {
            clamp_threads(threads)
        } else {
            1
        };
        // Alone, a table of its own, whose wide entries are a little faster for one
        // thread (5% at 6 of each colour).
        let mut searcher = if threads > 1 {
            Searcher::sharing(Arc::new(SharedTable::try_with_bytes(table_bytes)?), 0)
        } else {
            Searcher::try_new(Payoff::Margin, table_bytes)?
        };
        searcher.threads = threads;
        Ok(searcher)
    }

    /// A margin searcher whose table is a share of `shared`: threads that each have one
    /// see each other's results. `lane` (the thread's number) keeps their searches'
    /// numbers apart.
    pub(super) fn sharing(shared: Arc<SharedTable>, lane: u32) -> Searcher {
        let mut searcher = Self::with_table(Payoff::Margin, Table::sharing(shared));
        searcher.generation = lane << 24;
        searcher
    }

    fn with_table(payoff: Payoff, table: Table) -> Searcher {
        Searcher {
            table,
            reuse_exact: true,
            merge_colours: payoff.is_antisymmetric(),
            payoff,
            stop: Arc::new(AtomicBool::new(false)),
            halt: None,
            owner_halt: None,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            abortable: false,
            aborted: false,
            generation: 0,
            helper: false,
            kernel: Kernel::detect(),
            estimate: Estimate::Projection,
            net_order: true,
            sorting_by_net: false,
            threads: 1,
            running_threads: 1,
        }
    }

    /// The exact value of `position` for its side to move under perfect play. Not
    /// exact if [`was_cut_short`](Self::was_cut_short) (a stop or an interruption).
    pub fn solve(&mut self, position: &Position) -> f64 {
        self.solve_helped(position)
    }

    /// The exact value of every legal move, for the side to move, in legal-move order
    /// (not exact if [`was_cut_short`](Self::was_cut_short)).
    pub fn analyze(&mut self, position: &Position) -> Vec<(usize, f64)> {
        self.analyze_helped(position)
    }

    /// The exact value of every legal move, as [`analyze`](Self::analyze) (on the
    /// calling thread), or `None` if the analysis is not done by `deadline` (nor when
    /// stopped or interrupted).
    pub fn analyze_until(
        &mut self,
        position: &Position,
        deadline: Instant,
    ) -> Option<Vec<(usize, f64)>> {
        let values = self.analyze_alone(position, Some(deadline));
        (!self.was_cut_short()).then_some(values)
    }

    /// An iterative-deepening search within `limits` (exact with none), stoppable
    /// through the stop flag. A stop set while no search runs stops the next one (a
    /// stop is never lost); the flag is cleared when a search ends.
    pub fn search(&mut self, position: &Position, limits: &Limits) -> SearchResult {
        self.search_with(position, limits, &mut |_| true)
    }

    /// [`search`](Self::search), telling `progress` of every finished iteration; the
    /// search stops after an iteration for which `progress` returns `false`.
    pub fn search_with(
        &mut self,
        position: &Position,
        limits: &Limits,
        progress: &mut dyn FnMut(&Iteration) -> bool,
    ) -> SearchResult {
        self.search_helped(position, limits, progress)
    }

    /// The threads its searches may take.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sets the threads its searches may take (see [`with_threads`](Self::with_threads);
    /// on a table of its own, only an analysis takes them, each thread solving moves on
    /// a table of its own of the same size).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = if crate::run::parallel::THREADS_AVAILABLE {
            crate::run::parallel::clamp_threads(threads)
        } else {
            1
        };
    }

    /// The flag that stops a running search from another thread.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Makes every later search stop as soon as `flag` is set, too (the searcher never
    /// clears it).
    pub fn halt_with(&mut self, flag: Arc<AtomicBool>) {
        self.halt = Some(flag);
    }

    /// Puts `flag` in place of the flag given to [`halt_with`](Self::halt_with) (none:
    /// no such flag) and gives back the one it had: a searcher lent for a while, such
    /// as a thread's, takes its borrower's flag and gets its own back.
    pub fn replace_halt(&mut self, flag: Option<Arc<AtomicBool>>) -> Option<Arc<AtomicBool>> {
        std::mem::replace(&mut self.halt, flag)
    }

    /// Makes every later search stop as soon as `flag` is set, besides the flag of
    /// [`halt_with`](Self::halt_with) (which a parallel solve gives its lanes): the
    /// owner's stop reaches every lane, and no lane clears it.
    pub fn halt_also_with(&mut self, flag: Arc<AtomicBool>) {
        self.owner_halt = Some(flag);
    }

    /// The positions its last search or solve visited (so far, while one runs).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The size of its transposition table in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Whether its table is one that helper threads share ([`with_threads`](
    /// Self::with_threads) of more than one thread).
    pub fn is_shared(&self) -> bool {
        self.table.shared().is_some()
    }

    /// Changes the payoff; stored values of another payoff are dropped.
    pub fn set_payoff(&mut self, payoff: Payoff) {
        if payoff != self.payoff {
            self.merge_colours = payoff.is_antisymmetric();
            self.payoff = payoff;
            self.table.clear();
        }
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Whether the last search, solve or analysis was cut short by its limits, a stop
    /// or an interruption (a solve's or an analysis's values are then not exact).
    pub fn was_cut_short(&self) -> bool {
        self.aborted
    }

    pub(super) fn begin(&mut self, nodes: Option<u64>, deadline: Option<Instant>, abortable: bool) {
        self.nodes = 0;
        self.node_limit = nodes.unwrap_or(u64::MAX);
        self.deadline = deadline;
        self.abortable = abortable;
        self.aborted = false;
        self.reuse_exact = nodes.is_none();
        self.estimate = Estimate::Projection;
        self.sorting_by_net = false;
        self.generation = self.generation.wrapping_add(1);
    }

    /// Sets the estimates of an exact search: the network at the horizon of its
    /// iterations (a first test nearer the value saves whole tests), and the network's
    /// order of the children near the root where `net_order` says.
    pub(super) fn exact_estimates(&mut self) {
        self.estimate = Estimate::Net;
        self.sorting_by_net = self.net_order;
    }

    /// Ends a search, solve or analysis: a stop asked of it is used up.
    pub(super) fn finish(&mut self) {
        self.stop.store(false, Ordering::Relaxed);
    }

    /// Counts `more` nodes visited without a call of their own, looking at the stop
    /// flag and the limits as the node function does when they pass a multiple of
    /// [`CHECK_EVERY`] or the node limit; whether the search is stopped.
    #[inline(always)]
    pub(super) fn count_nodes(&mut self, more: u64) -> bool {
        let before = self.nodes;
        self.nodes += more;
        if self.nodes / CHECK_EVERY != before / CHECK_EVERY || self.nodes >= self.node_limit {
            self.should_stop();
        }
        self.aborted
    }

    /// Whether to stop now: the limits (of a limited search), a stop from another
    /// thread or an interruption (of any search).
    pub(super) fn should_stop(&mut self) -> bool {
        if !self.aborted {
            let limited = self.abortable
                && (self.nodes >= self.node_limit
                    || self.deadline.is_some_and(|d| Instant::now() >= d));
            let halted = [&self.halt, &self.owner_halt]
                .into_iter()
                .flatten()
                .any(|h| h.load(Ordering::Relaxed));
            if limited || halted || self.stop.load(Ordering::Relaxed) || interrupted() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The horizon estimate for the side to move.
    #[inline(always)]
    pub(super) fn horizon(&self, position: &Position) -> f64 {
        let margin = match self.estimate {
            Estimate::Projection => projected_margin(position),
            Estimate::Net => net_margin(position),
        };
        self.payoff.for_player(margin, position.to_move())
    }
}
