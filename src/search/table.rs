//! A transposition table of bounded size: buckets of two entries, one kept for the
//! deepest search and one always replaced.

use std::alloc::Layout;
use std::sync::Arc;

use super::entry::{fits, Bound, Entry, TableAllocError, ENTRY_BYTES};
use super::memory::{self, Block};
use super::shared_table::SharedTable;

/// An unused slot: all zero bytes, so that a table can be allocated zeroed (key 0 is
/// never a position's key, see `probe`).
const EMPTY: Entry = Entry {
    key: 0,
    value: 0.0,
    depth: 0,
    bound: Bound::Exact,
    best: 0,
    generation: 0,
};

/// The transposition table: wide entries of its own, or a share of a [`SharedTable`]
/// (for whole-number values only).
pub struct Table {
    entries: Block<Entry>,
    mask: usize,
    shared: Option<Arc<SharedTable>>,
}

impl Table {
    /// A table of at most `bytes` bytes (at least one bucket), a power of two entries.
    /// Small sizes only: a failed allocation aborts, see [`try_with_bytes`](Self::try_with_bytes).
    pub fn with_bytes(bytes: usize) -> Table {
        match Self::try_with_bytes(bytes) {
            Ok(table) => table,
            Err(_) => std::alloc::handle_alloc_error(
                Layout::array::<Entry>(Self::entries_for(bytes)).unwrap_or(Layout::new::<Entry>()),
            ),
        }
    }

    /// [`with_bytes`](Self::with_bytes) for any size: the memory is asked of the system
    /// zeroed, and a refusal is an error (its pages are taken as [`Block::zeroed`] says).
    pub fn try_with_bytes(bytes: usize) -> Result<Table, TableAllocError> {
        let count = Self::entries_for(bytes);
        let error = TableAllocError {
            bytes: count.saturating_mul(ENTRY_BYTES),
        };
        // SAFETY: an `Entry` whose bytes are all zero is a valid value (integers, an
        // `f64` and a `repr(u8)` enum whose variant 0 is `Exact`), namely `EMPTY`; and
        // `count` is at least 2.
        let entries = unsafe { Block::<Entry>::zeroed(count) }.ok_or(error)?;
        Ok(Table {
            entries,
            mask: count - 2,
            shared: None,
        })
    }

    /// A table that is a share of `shared` (its own wide entries are a token bucket).
    pub fn sharing(shared: Arc<SharedTable>) -> Table {
        let mut table = Table::with_bytes(0);
        table.shared = Some(shared);
        table
    }

    /// The shared table this one uses, if any.
    pub fn shared(&self) -> Option<&Arc<SharedTable>> {
        self.shared.as_ref()
    }

    fn entries_for(bytes: usize) -> usize {
        memory::entries_for(bytes, ENTRY_BYTES)
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        match &self.shared {
            Some(shared) => shared.bytes(),
            None => self.entries.len() * ENTRY_BYTES,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        match &self.shared {
            Some(shared) => shared.clear(),
            None => self.entries.fill(EMPTY),
        }
    }

    #[inline]
    fn bucket(&self, key: u128) -> usize {
        let mixed = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((mixed ^ (mixed >> 29)) as usize) & self.mask
    }

    /// Asks the processor to bring `key`'s bucket into the cache (a hint: it changes
    /// nothing else), so that a probe soon after does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u128) {
        match &self.shared {
            Some(shared) => shared.prefetch(key),
            None => super::memory::prefetch(&self.entries[self.bucket(key)]),
        }
    }

    /// The entry stored for `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u128) -> Option<Entry> {
        if let Some(shared) = &self.shared {
            return shared.probe(key);
        }
        let i = self.bucket(key);
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.key == key && key != 0)
            .copied()
    }

    /// Stores an entry: over the same key, else in the deep slot if at least as deep,
    /// else in the always-replace slot.
    #[inline(always)]
    pub fn store(&mut self, entry: Entry) {
        if let Some(shared) = &self.shared {
            if fits(entry.value) {
                shared.store(&entry);
            }
            return;
        }
        let i = self.bucket(entry.key);
        let slot = if self.entries[i].key == entry.key || entry.depth >= self.entries[i].depth {
            i
        } else {
            i + 1
        };
        self.entries[slot] = entry;
    }
}
