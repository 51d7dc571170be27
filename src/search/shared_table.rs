//! A transposition table that threads share without locks, for searches whose values
//! are whole numbers (the margin payoff). An entry is two 64-bit words: the position's
//! 64-bit check XOR its data, and the data (value, depth, bound, best move, search
//! number). A reader accepts an entry only when the first word XOR the second gives the
//! check, so an entry torn by two threads writing at once is never believed (Hyatt and
//! Mann's lockless hashing). At 16 bytes an entry it holds twice as many positions as
//! the table of wide entries in the same memory.
//!
//! The check is 64 bits of a hash of the key, so two positions could in principle share
//! an entry: a different position lands in the same bucket with the same check with
//! probability about 2^-64 a probe.

use std::sync::atomic::{AtomicU64, Ordering};

use super::entry::{Bound, Entry, TableAllocError};
use super::memory::{self, Block};

/// One slot: `[check ^ data, data]`.
type Slot = [AtomicU64; 2];

/// Bytes taken by one entry.
pub const SHARED_ENTRY_BYTES: usize = std::mem::size_of::<Slot>();

/// The entries of a bucket: four, one cache line (the block is aligned to one). A probe
/// reads one line either way, and four entries a bucket keep more of the deep results
/// of a solve that overfills the table than two did (9 of each colour, seeds 1-6, two
/// threads, 32 MiB: a median of 1.49 s against 1.65 s over eight alternated rounds;
/// docs/benchmarks.md).
const WAYS: usize = 4;

/// The shared table.
pub struct SharedTable {
    slots: Block<Slot>,
    mask: usize,
}

/// MurmurHash3's 64-bit finaliser: a bijection that mixes every bit into every bit.
#[inline(always)]
fn fmix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The bucket hash and the check of a key, independent of each other.
#[inline(always)]
fn hashes(key: u128) -> (u64, u64) {
    let (low, high) = (key as u64, (key >> 64) as u64);
    let bucket = fmix(low ^ fmix(high ^ 0x9E37_79B9_7F4A_7C15));
    let check = fmix(low.rotate_left(29) ^ fmix(high ^ 0x2545_F491_4F6C_DD1D)) | 1;
    (bucket, check)
}

#[inline(always)]
fn pack(entry: &Entry) -> u64 {
    u64::from(entry.value as i16 as u16)
        | u64::from(entry.depth) << 16
        | (entry.bound as u64) << 24
        | u64::from(entry.best & 0x3f) << 26
        | u64::from(entry.generation) << 32
}

#[inline(always)]
fn unpack(key: u128, data: u64) -> Entry {
    Entry {
        key,
        value: f64::from(data as u16 as i16),
        depth: (data >> 16) as u8,
        bound: match (data >> 24) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        best: ((data >> 26) & 0x3f) as u8,
        generation: (data >> 32) as u32,
    }
}

impl SharedTable {
    /// A table of at most `bytes` bytes (at least one bucket), asked of
    /// the system zeroed (an empty slot is two zero words, which no check matches: every
    /// check is odd).
    pub fn try_with_bytes(bytes: usize) -> Result<SharedTable, TableAllocError> {
        let count = Self::slots_for(bytes);
        let error = TableAllocError {
            bytes: count.saturating_mul(SHARED_ENTRY_BYTES),
        };
        // SAFETY: two zero `AtomicU64`s are a valid slot, and `count >= 2`.
        let slots = unsafe { Block::<Slot>::zeroed(count) }.ok_or(error)?;
        Ok(SharedTable {
            slots,
            mask: count - WAYS,
        })
    }

    /// The slots of a table asked for `bytes` bytes: a power of two, at least a bucket.
    fn slots_for(bytes: usize) -> usize {
        memory::entries_for(bytes, SHARED_ENTRY_BYTES).max(WAYS)
    }

    /// The size in bytes of a table asked for `bytes` bytes ([`bytes`](Self::bytes) of
    /// what [`try_with_bytes`](Self::try_with_bytes) makes).
    pub fn bytes_for(bytes: usize) -> usize {
        Self::slots_for(bytes).saturating_mul(SHARED_ENTRY_BYTES)
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * SHARED_ENTRY_BYTES
    }

    /// Empties every slot (not while other threads use the table: their entries may
    /// survive).
    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot[0].store(0, Ordering::Relaxed);
            slot[1].store(0, Ordering::Relaxed);
        }
    }

    /// Asks the processor to bring `key`'s bucket into the cache (a hint only).
    #[inline(always)]
    pub fn prefetch(&self, key: u128) {
        let (bucket, _) = hashes(key);
        super::memory::prefetch(&self.slots[bucket as usize & self.mask]);
    }

    /// The entry stored for `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u128) -> Option<Entry> {
        let (bucket, check) = hashes(key);
        let i = bucket as usize & self.mask;
        for slot in &self.slots[i..i + WAYS] {
            let data = slot[1].load(Ordering::Relaxed);
            if slot[0].load(Ordering::Relaxed) ^ data == check {
                return Some(unpack(key, data));
            }
        }
        None
    }

    /// Stores an entry (whose value must fit (`entry::fits`)): over the same position's,
    /// else over the shallowest of its bucket (an empty slot is of depth 0).
    #[inline(always)]
    pub fn store(&self, entry: &Entry) {
        let (bucket, check) = hashes(entry.key);
        let i = bucket as usize & self.mask;
        let bucket = &self.slots[i..i + WAYS];
        // The entry of the same position, else the shallowest of the bucket.
        let mut chosen = 0;
        let mut shallowest = u8::MAX;
        for (way, slot) in bucket.iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            if slot[0].load(Ordering::Relaxed) ^ data == check {
                chosen = way;
                break;
            }
            let depth = (data >> 16) as u8;
            if depth < shallowest {
                shallowest = depth;
                chosen = way;
            }
        }
        let slot = &bucket[chosen];
        let data = pack(entry);
        slot[0].store(check ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::super::entry::fits;
    use super::*;

    #[test]
    fn entries_come_back_as_stored() {
        let table = SharedTable::try_with_bytes(1 << 12).unwrap();
        let entry = Entry {
            key: 12345 << 70 | 678,
            value: -465.0,
            depth: 31,
            bound: Bound::Upper,
            best: 29,
            generation: u32::MAX - 3,
        };
        assert!(table.probe(entry.key).is_none());
        table.store(&entry);
        let back = table.probe(entry.key).unwrap();
        assert_eq!(
            (
                back.key,
                back.value,
                back.depth,
                back.bound,
                back.best,
                back.generation
            ),
            (
                entry.key,
                entry.value,
                entry.depth,
                entry.bound,
                entry.best,
                entry.generation
            )
        );
        assert!(table.probe(entry.key + 1).is_none());
        table.clear();
        assert!(table.probe(entry.key).is_none());
        assert!(fits(465.0) && fits(-32768.0) && !fits(0.5) && !fits(40000.0));
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_entry() {
        let table = SharedTable::try_with_bytes(64 * SHARED_ENTRY_BYTES).unwrap();
        let bucket_of = |key: u128| hashes(key).0 as usize & table.mask;
        let keys: Vec<u128> = (1..10_000u128)
            .filter(|&key| bucket_of(key) == bucket_of(1))
            .take(WAYS + 1)
            .collect();
        let entry = |key: u128, depth: u8| Entry {
            key,
            value: f64::from(depth),
            depth,
            bound: Bound::Exact,
            best: 0,
            generation: 1,
        };
        let depths = [20, 10, 40, 30];
        for (&key, &depth) in keys.iter().zip(&depths) {
            table.store(&entry(key, depth));
        }
        // The same position again replaces its own entry, shallower or not.
        table.store(&entry(keys[0], 15));
        assert_eq!(table.probe(keys[0]).map(|e| e.depth), Some(15));
        // A new one takes the place of the shallowest (10), even when shallower still.
        table.store(&entry(keys[WAYS], 5));
        let kept: Vec<Option<u8>> = keys
            .iter()
            .map(|&k| table.probe(k).map(|e| e.depth))
            .collect();
        assert_eq!(kept, [Some(15), None, Some(40), Some(30), Some(5)]);
    }

    #[test]
    fn a_torn_entry_is_not_believed() {
        let table = SharedTable::try_with_bytes(1 << 12).unwrap();
        let entry = Entry {
            key: 99,
            value: 7.0,
            depth: 3,
            bound: Bound::Exact,
            best: 1,
            generation: 1,
        };
        table.store(&entry);
        let (bucket, _) = hashes(99);
        let i = bucket as usize & table.mask;
        // Another writer's data half landed, its check half did not.
        table.slots[i][1].fetch_xor(1 << 40, Ordering::Relaxed);
        assert!(table.probe(99).is_none());
    }
}
