//! What the transposition tables store, shared by the table of wide entries
//! (`table`) and the lock-free one that threads share (`shared_table`).

use std::fmt;

/// How a stored value bounds the true one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Bound {
    Exact = 0,
    Lower = 1,
    Upper = 2,
}

impl Bound {
    /// How a fail-soft `value` searched in the window `(alpha, beta)` bounds the true one.
    #[inline]
    pub fn of(value: f64, alpha: f64, beta: f64) -> Bound {
        if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u128,
    pub value: f64,
    /// Plies searched below the position; at least the plies left means exact play.
    pub depth: u8,
    pub bound: Bound,
    /// The best move found (the index of the pile it lifts).
    pub best: u8,
    /// The search that stored it.
    pub generation: u32,
}

/// Bytes taken by one wide entry.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// Whether a value fits an entry of the shared table: a whole number in `i16`'s range.
#[inline]
pub fn fits(value: f64) -> bool {
    value.fract() == 0.0 && (f64::from(i16::MIN)..=f64::from(i16::MAX)).contains(&value)
}

/// A table that could not be allocated.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TableAllocError {
    /// The size asked for.
    pub bytes: usize,
}

impl crate::HasKind for TableAllocError {
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::Memory
    }
}

impl fmt::Display for TableAllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate a transposition table of {} MiB",
            self.bytes >> 20
        )
    }
}

impl std::error::Error for TableAllocError {}
