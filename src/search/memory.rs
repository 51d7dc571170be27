//! The memory of a transposition table: one zeroed block, aligned so that a bucket never
//! straddles two cache lines, and (on Linux) advised to be backed by huge pages, since a
//! search probes it at random and would otherwise spend its time on TLB misses.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Blocks of at least this size are aligned to it and advised to use huge pages.
const HUGE_PAGE: usize = 2 << 20;

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
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { 64 };
        let layout = Layout::from_size_align(bytes, align.max(std::mem::align_of::<T>())).ok()?;
        // SAFETY: the layout has a non-zero size (the caller promises `len > 0`).
        let pointer = NonNull::new(unsafe { alloc_zeroed(layout) }.cast::<T>())?;
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE {
            // SAFETY: the range is the block just allocated, aligned to a page. Advice
            // only: a refusal changes nothing, so its result is not looked at.
            unsafe {
                libc::madvise(pointer.as_ptr().cast(), bytes, libc::MADV_HUGEPAGE);
            }
        }
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
