//! A transposition table of bounded size: buckets of two entries, one kept for the
//! deepest search and one always replaced.

/// How a stored value bounds the true one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u128,
    pub value: f64,
    /// Plies searched below the position; at least the plies left means exact play.
    pub depth: u8,
    pub bound: Bound,
    /// The best move found, or `u8::MAX`.
    pub best: u8,
    /// The search that stored it.
    pub generation: u32,
}

const EMPTY: Entry = Entry {
    key: 0,
    value: 0.0,
    depth: 0,
    bound: Bound::Exact,
    best: u8::MAX,
    generation: 0,
};

/// The transposition table.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

/// Bytes taken by one entry.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

impl Table {
    /// A table of at most `bytes` bytes (at least one bucket), a power of two entries.
    pub fn with_bytes(bytes: usize) -> Table {
        let wanted = (bytes / ENTRY_BYTES).max(2);
        let entries = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Table {
            entries: vec![EMPTY; entries],
            mask: entries - 2,
        }
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }

    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
    }

    #[inline]
    fn bucket(&self, key: u128) -> usize {
        let mixed = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((mixed ^ (mixed >> 29)) as usize) & self.mask
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u128) -> Option<Entry> {
        let i = self.bucket(key);
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.key == key && key != 0)
            .copied()
    }

    /// Stores an entry: over the same key, else in the deep slot if at least as deep,
    /// else in the always-replace slot.
    #[inline]
    pub fn store(&mut self, entry: Entry) {
        let i = self.bucket(entry.key);
        let slot = if self.entries[i].key == entry.key || entry.depth >= self.entries[i].depth {
            i
        } else {
            i + 1
        };
        self.entries[slot] = entry;
    }
}
