//! Constant-time helpers. LLVM recognises `x & (0 - bit)` as a select and may lower it to a branch
//! (observed for the RNS lift on x86-64); mixing in a zero it cannot see through keeps masks opaque.

/// A zero hidden from the optimiser (one `black_box` per call site, hoisted out of loops).
#[inline(always)]
pub(crate) fn opaque_zero() -> u64 {
    core::hint::black_box(0)
}

/// All-ones if `bit` is 1, zero if `bit` is 0; `zero` must come from [`opaque_zero`].
#[inline(always)]
pub(crate) fn mask(bit: u64, zero: u64) -> u64 {
    0u64.wrapping_sub(bit) ^ zero
}

/// x - q if x >= q else x, for x < 2q, without a branch.
#[inline(always)]
pub(crate) fn sub_if_ge(x: u64, q: u64, zero: u64) -> u64 {
    let (d, borrow) = x.overflowing_sub(q);
    d.wrapping_add(q & mask(u64::from(borrow), zero))
}
