//! The memory of a transposition table: one zeroed block, aligned so that a bucket never
//! straddles two cache lines. It is asked of the allocator with an alignment that
//! `calloc` serves (the system allocator zeroes a block of larger alignment by hand, a
//! write to every byte), a cache line to spare, then started at the first cache-line
//! boundary.
//!
//! The pages of a block of up to 256 MiB (the largest table a search makes itself) are
//! then taken from the system at once, one write a page, before any search; a larger
//! one's as they are used, so that it costs nothing until then. Threads that take a
//! shared table's pages as they first write them fault twice as often and wait on each
//! other: a two-thread solve of 8 of each colour on a fresh 256 MiB table took 1.0 s,
//! against 0.14 s to take the pages first and 0.1 s to solve; and a search slowed down
//! so looks at Ctrl-C too seldom. Taking the pages looks at [`interrupted`] every
//! megabyte, and stops early when asked (the search that follows stops at once; the
//! pages left are taken as they are used).
//!
//! Huge pages were tried (a 2 MiB-aligned block advised with `MADV_HUGEPAGE`): this
//! machine's kernel gave none, the 2 MiB alignment made the allocator zero the block by
//! hand, and the first solves after the advice stalled for milliseconds at a time (pages
//! being collapsed in the background, it seems), so they are not asked for.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use crate::run::interrupt::interrupted;

/// The alignment of a block: a cache line.
const LINE: usize = 64;

/// The largest alignment the system allocator zeroes through `calloc` (its
/// `MIN_ALIGN` on 64-bit targets), pages given as they are first written.
const CALLOC_ALIGN: usize = 16;

/// The smallest page size of the systems buttonup runs on: one write this far apart
/// takes every page.
const PAGE: usize = 4096;

/// The pages taken between two looks at [`interrupted`]: a megabyte.
const PAGES_PER_LOOK: usize = 256;

/// The largest block whose pages are taken when it is made.
const TAKEN_AT_ONCE: usize = 256 << 20;

/// How many entries of `entry_bytes` bytes a table asked for `bytes` bytes has: the
/// largest power of two that fits (at least two).
pub(super) fn entries_for(bytes: usize, entry_bytes: usize) -> usize {
    let wanted = (bytes / entry_bytes).max(2);
    if wanted.is_power_of_two() {
        wanted
    } else {
        wanted.next_power_of_two() / 2
    }
}

/// A zeroed array of `T` (a type without drop code) of a fixed length, allocated
/// fallibly.
pub struct Block<T> {
    /// The first value, at a cache-line boundary inside the allocation.
    pointer: NonNull<T>,
    len: usize,
    /// The allocation and its layout.
    allocation: NonNull<u8>,
    layout: Layout,
}

// SAFETY: a `Block` owns its memory like a `Box<[T]>` does.
unsafe impl<T: Send> Send for Block<T> {}
// SAFETY: shared access only reads through `&[T]`.
unsafe impl<T: Sync> Sync for Block<T> {}

impl<T> Block<T> {
    /// `len` values whose bytes are all zero, or `None` when the memory is refused.
    ///
    /// # Safety
    /// A `T` whose bytes are all zero must be a valid value, and `len` must not be zero.
    pub unsafe fn zeroed(len: usize) -> Option<Block<T>> {
        const { assert!(!std::mem::needs_drop::<T>()) };
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let align = std::mem::align_of::<T>();
        debug_assert!(align <= LINE && LINE % align == 0);
        // The block starts at a cache line inside the allocation, whatever its alignment.
        let layout =
            Layout::from_size_align(bytes.checked_add(LINE)?, align.min(CALLOC_ALIGN)).ok()?;
        // SAFETY: the layout has a non-zero size (at least `LINE` bytes).
        let allocation = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        if bytes <= TAKEN_AT_ONCE {
            // SAFETY: the allocation's own bytes.
            unsafe { take_pages(allocation.as_ptr(), layout.size()) };
        }
        let skip = allocation.as_ptr().align_offset(LINE);
        if skip > LINE {
            // SAFETY: allocated just above with this layout, not used since.
            unsafe { dealloc(allocation.as_ptr(), layout) };
            return None;
        }
        // SAFETY: `skip <= LINE`, so the `bytes` bytes from there lie inside the
        // allocation; the address is a multiple of `LINE`, hence of `align`.
        let pointer = unsafe { NonNull::new_unchecked(allocation.as_ptr().add(skip).cast::<T>()) };
        Some(Block {
            pointer,
            len,
            allocation,
            layout,
        })
    }
}

/// Takes the pages of the `bytes` zeroed bytes from `start` from the system now (a zero
/// written over a zero on each), unless [`interrupted`] says stop first.
///
/// # Safety
/// `start..start + bytes` must be one allocation, writable, not yet shared.
unsafe fn take_pages(start: *mut u8, bytes: usize) {
    for (page, offset) in (0..bytes).step_by(PAGE).enumerate() {
        if page % PAGES_PER_LOOK == PAGES_PER_LOOK - 1 && interrupted() {
            return;
        }
        // SAFETY: `offset < bytes`, inside the allocation; a volatile write, so that the
        // compiler keeps a store of the value already there.
        unsafe { std::ptr::write_volatile(start.add(offset), 0) };
    }
}

impl<T> Deref for Block<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialised values (zeroed, valid by `zeroed`'s contract).
        unsafe { std::slice::from_raw_parts(self.pointer.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for Block<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.pointer.as_ptr(), self.len) }
    }
}

impl<T> Drop for Block<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout; `T` needs no drop (checked
        // there).
        unsafe { dealloc(self.allocation.as_ptr(), self.layout) }
    }
}

/// Asks the processor to bring the cache line holding `value` into its caches, without
/// waiting for it (a hint: nothing else changes; a no-op off x86-64).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints the cache; it reads nothing and cannot fault, and
    // SSE (hence `prefetcht0`) is in the x86-64 baseline.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_zeroed_and_start_on_a_cache_line() {
        for len in [1usize, 3, 1000, 1 << 20] {
            // SAFETY: zero is a valid `u64`; `len > 0`.
            let mut block = unsafe { Block::<u64>::zeroed(len) }.unwrap();
            assert_eq!(block.as_ptr() as usize % LINE, 0);
            assert_eq!(block.len(), len);
            assert!(block.iter().all(|&x| x == 0));
            block[len - 1] = 7;
            assert_eq!(block[len - 1], 7);
        }
    }
}
