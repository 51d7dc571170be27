//! Bit operations on the packed words of a position.

/// The bits of `x` below bit `n` (all of `x` when `n >= 64`).
#[inline]
pub(crate) const fn low64(x: u64, n: u32) -> u64 {
    if n >= 64 {
        x
    } else {
        x & ((1u64 << n) - 1)
    }
}

/// `x >> n`, which is 0 when `n >= 64`.
#[inline]
pub(crate) const fn shr64(x: u64, n: u32) -> u64 {
    if n >= 64 {
        0
    } else {
        x >> n
    }
}

/// `x << n`, which is 0 when `n >= 64`.
#[inline]
pub(crate) const fn shl64(x: u64, n: u32) -> u64 {
    if n >= 64 {
        0
    } else {
        x << n
    }
}

/// Index of the `n`-th (0-based) set bit of `x`, or 64 if `x` has no more than `n`.
#[inline]
pub(crate) fn select(mut x: u64, n: usize) -> u32 {
    for _ in 0..n {
        x &= x.wrapping_sub(1);
    }
    x.trailing_zeros()
}

/// Keeps one bit of every 2-bit cell: bit `i` of the result is bit `2i` of `x`.
#[inline]
pub(crate) const fn compress_even_bits(x: u64) -> u64 {
    let mut x = x & 0x5555_5555_5555_5555;
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333;
    x = (x | (x >> 2)) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF;
    x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
    (x | (x >> 16)) & 0x0000_0000_FFFF_FFFF
}
