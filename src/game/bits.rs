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

/// The bits of `x` at the set bits of `mask`, packed to the low end in their order
/// (bit `i` of the result is `x`'s bit at the `i`-th set bit of `mask`).
#[inline]
pub(crate) fn gather(x: u64, mut mask: u64) -> u64 {
    let (mut packed, mut i) = (0u64, 0u32);
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        packed |= u64::from(x & low != 0) << i;
        i += 1;
        mask ^= low;
    }
    packed
}

/// The word operations whose fastest form needs instructions beyond the baseline
/// x86-64 that wheels are built for. Code generic over it is compiled once portable
/// ([`Portable`]) and once inside a function that enables those instructions
/// ([`Bmi2`]), chosen at run time: both give the same results.
pub(crate) trait WordOps: Copy {
    /// [`select`]: the index of the `n`-th set bit of `x`, or 64.
    fn select(self, x: u64, n: usize) -> u32;
    /// [`gather`]: the bits of `x` at the set bits of `mask`, packed low.
    fn gather(self, x: u64, mask: u64) -> u64;
    /// [`deposit`]: the low bits of `x` put at the set bits of `mask`, in order.
    fn deposit(self, x: u64, mask: u64) -> u64;
    /// Whether [`deposit`](Self::deposit) and [`gather`](Self::gather) are single
    /// instructions (so that word-parallel forms built on them pay).
    const FAST_DEPOSIT: bool;
}

/// The low bits of `x` put at the set bits of `mask`, lowest first (bit `i` of `x` at
/// the `i`-th set bit of `mask`).
#[inline]
pub(crate) fn deposit(x: u64, mut mask: u64) -> u64 {
    let (mut spread, mut i) = (0u64, 0u32);
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        spread |= if shr64(x, i) & 1 == 1 { low } else { 0 };
        i += 1;
        mask ^= low;
    }
    spread
}

/// The word operations of any processor: loops over the bits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl WordOps for Portable {
    #[inline(always)]
    fn select(self, x: u64, n: usize) -> u32 {
        select(x, n)
    }

    #[inline(always)]
    fn gather(self, x: u64, mask: u64) -> u64 {
        gather(x, mask)
    }

    #[inline(always)]
    fn deposit(self, x: u64, mask: u64) -> u64 {
        deposit(x, mask)
    }

    const FAST_DEPOSIT: bool = false;
}

/// The word operations by BMI2's `pdep` and `pext`: a proof, made only by
/// [`Bmi2::detect`], that the processor has BMI1, BMI2, POPCNT and LZCNT and does
/// `pdep`/`pext` in hardware (AMD's processors before Zen 3 run them as microcode,
/// some 100 times slower than the loops, and are not given one).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bmi2(());

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    /// The proof when this processor qualifies (worked out once a process).
    pub(crate) fn detect() -> Option<Bmi2> {
        static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let found = *FOUND.get_or_init(|| {
            std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && !slow_pdep()
        });
        found.then_some(Bmi2(()))
    }
}

/// Whether this is an AMD processor of a family before Zen 3 (0x19), whose `pdep` and
/// `pext` are microcoded.
#[cfg(target_arch = "x86_64")]
fn slow_pdep() -> bool {
    use std::arch::x86_64::__cpuid;
    // SAFETY: `cpuid` exists on every x86-64 processor; leaves 0 and 1 always do.
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1)) };
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
    let base = (signature.eax >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((signature.eax >> 20) & 0xFF)
    } else {
        base
    };
    amd && family < 0x19
}

#[cfg(target_arch = "x86_64")]
impl WordOps for Bmi2 {
    #[inline(always)]
    fn select(self, x: u64, n: usize) -> u32 {
        let bit = if n >= 64 { 0 } else { 1u64 << n };
        // SAFETY: a `Bmi2` exists only where the processor has BMI2 (`detect`).
        unsafe { std::arch::x86_64::_pdep_u64(bit, x) }.trailing_zeros()
    }

    #[inline(always)]
    fn gather(self, x: u64, mask: u64) -> u64 {
        // SAFETY: a `Bmi2` exists only where the processor has BMI2 (`detect`).
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }

    #[inline(always)]
    fn deposit(self, x: u64, mask: u64) -> u64 {
        // SAFETY: a `Bmi2` exists only where the processor has BMI2 (`detect`).
        unsafe { std::arch::x86_64::_pdep_u64(x, mask) }
    }

    const FAST_DEPOSIT: bool = true;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Words of every density: pseudo-random ones (xorshift64, enough for words of
    /// bits: this module sits below the game's generator) thinned by and-ing more.
    fn words() -> Vec<u64> {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut words = vec![0, 1, u64::MAX, 1 << 63, 0x5555_5555_5555_5555];
        for thin in 0..5 {
            for _ in 0..400 {
                let mut x = next();
                for _ in 0..thin {
                    x &= next();
                }
                words.push(x);
            }
        }
        words
    }

    #[test]
    fn select_and_gather_do_what_they_say() {
        for x in words() {
            let bits: Vec<u32> = (0..64).filter(|&i| x >> i & 1 == 1).collect();
            for n in 0..70 {
                let want = bits.get(n).copied().unwrap_or(64);
                assert_eq!(select(x, n), want, "{x:#x} {n}");
            }
            let mask = x.rotate_left(7) ^ x;
            let picked = (0..64).filter(|&i| mask >> i & 1 == 1);
            let want = picked
                .enumerate()
                .fold(0, |r, (k, i)| r | (x >> i & 1) << k);
            assert_eq!(gather(x, mask), want, "{x:#x} {mask:#x}");
            let mut k = 0;
            let mut want = 0;
            for i in 0..64 {
                if mask >> i & 1 == 1 {
                    want |= (x >> k & 1) << i;
                    k += 1;
                }
            }
            assert_eq!(deposit(x, mask), want, "{x:#x} {mask:#x}");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_bmi2_forms_equal_the_portable_ones() {
        let Some(fast) = Bmi2::detect() else {
            eprintln!("no fast BMI2 on this processor: only the portable forms tested");
            return;
        };
        for x in words() {
            for n in 0..70 {
                assert_eq!(fast.select(x, n), Portable.select(x, n), "{x:#x} {n}");
            }
            for mask in [x, !x, x.rotate_left(13), u64::MAX, 0] {
                let y = x ^ 0xF0F0;
                assert_eq!(fast.gather(y, mask), Portable.gather(y, mask));
                assert_eq!(fast.deposit(y, mask), Portable.deposit(y, mask));
            }
        }
    }
}
