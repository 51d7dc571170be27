//! The memory of a transposition table: one zeroed block, aligned so that a bucket never
//! straddles two cache lines.
//!
//! Huge pages were tried (a 2 MiB-aligned block advised with `MADV_HUGEPAGE`): this
//! machine's kernel gave none, the 2 MiB alignment made the allocator zero the block by
//! hand, and the first solves after the advice stalled for milliseconds at a time (pages
//! being collapsed in the background, it seems), so they are not asked for.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The alignment of a block: a cache line.
const LINE: usize = 64;

/// A zeroed array of `T` (a type without drop code) of a fixed length, allocated
/// fallibly.
pub struct Block<T> {
    pointer: NonNull<T>,
    len: usize,
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
        let layout = Layout::from_size_align(bytes, LINE.max(std::mem::align_of::<T>())).ok()?;
        // SAFETY: the layout has a non-zero size (the caller promises `len > 0`).
        let pointer = NonNull::new(unsafe { alloc_zeroed(layout) }.cast::<T>())?;
        Some(Block {
            pointer,
            len,
            layout,
        })
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
        // SAFETY: allocated in `zeroed` with this layout; `T` needs no drop.
        unsafe { dealloc(self.pointer.as_ptr().cast(), self.layout) }
    }
}
