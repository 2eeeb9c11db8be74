//! The AVX2 twins of scale-and-round's scalar steps (`scale::ScaleAndRound`, the HPS technique): the
//! rounded sum round(sum_i x_i F_i / 2^128) with 128-bit fractions, 4 coefficients per step, exact 128-bit
//! sums (`arith::avx2::add128`) in the very arithmetic of the scalar twin, and its reduction modulo an
//! output modulus added to the dot product. Bit-identical to the scalar path.

use crate::arith::{Backend, Modulus};

/// Whether the AVX2 kernels run here: the knob's ceiling is not scalar and the CPU has avx2.
pub(super) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        crate::arith::backend() != Backend::Scalar && is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// (lo, hi)[b] = round(sum_i x[i n + start + b] F_i 2^-128) as two 64-bit words, F_i = (f_hi, f_lo),
/// exactly (no per-term truncation): p = x f_hi + floor(x f_lo / 2^64) summed as whole and fraction
/// words, the low words of x f_lo summed apart (A), then whole + floor((fraction + floor(A / 2^64) +
/// 2^63) / 2^64) (the scalar `ScaleAndRound::round_scalar`, bit for bit). Returns false,
/// doing nothing, unless lo.len() = hi.len() is a multiple of 4, start + lo.len() <= n,
/// x.len() = k n and [`available`].
pub(super) fn round_fractions(
    x: &[u64],
    n: usize,
    start: usize,
    fracs: &[(u64, u64)],
    lo: &mut [u64],
    hi: &mut [u64],
) -> bool {
    let len = lo.len();
    if !available()
        || !len.is_multiple_of(4)
        || hi.len() != len
        || start + len > n
        || x.len() != fracs.len() * n
    {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: avx2 detected by `available`; lengths checked above.
    unsafe {
        round_kernel(x, n, start, fracs, lo, hi);
    }
    true
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn round_kernel(
    x: &[u64],
    n: usize,
    start: usize,
    fracs: &[(u64, u64)],
    lo: &mut [u64],
    hi: &mut [u64],
) {
    use crate::arith::avx2::{add128, bcast, mul_wide, Consts};
    use core::arch::x86_64::*;
    // SAFETY: avx2 is enabled here; every load reads x[i n + start + v .. + 4] with
    // start + v + 4 <= n and x.len() = k n, every store lo/hi[v .. v + 4] (checked by
    // `round_fractions`).
    unsafe {
        let cst = Consts::new(0);
        let zero = _mm256_setzero_si256();
        for v in (0..lo.len()).step_by(4) {
            let (mut wl, mut wh, mut fl, mut fh) = (zero, zero, zero, zero);
            let (mut al, mut ah) = (zero, zero);
            for (i, &(f_hi, f_lo)) in fracs.iter().enumerate() {
                let xv = _mm256_loadu_si256(x.as_ptr().add(i * n + start + v).cast());
                let xl_hi = mul_wide(xv, bcast(f_hi));
                let (bl, bh) = mul_wide(xv, bcast(f_lo));
                // p = x f_hi + floor(x f_lo / 2^64) < 2^128.
                let (pl, ph) = add128(xl_hi.0, xl_hi.1, bh, zero, &cst);
                (wl, wh) = add128(wl, wh, ph, zero, &cst);
                (fl, fh) = add128(fl, fh, pl, zero, &cst);
                (al, ah) = add128(al, ah, bl, zero, &cst);
            }
            // floor((fraction + floor(A / 2^64) + 2^63) / 2^64): the high word after both additions.
            let (fl, fh) = add128(fl, fh, ah, zero, &cst);
            let (_, carry) = add128(fl, fh, cst.sign, zero, &cst);
            let (rl, rh) = add128(wl, wh, carry, zero, &cst);
            _mm256_storeu_si256(lo.as_mut_ptr().add(v).cast(), rl);
            _mm256_storeu_si256(hi.as_mut_ptr().add(v).cast(), rh);
        }
    }
}

/// out[b] = (out[b] + (hi[b] 2^64 + lo[b]) mod m) mod m for out in [0, m). Returns false, doing
/// nothing, unless the lengths agree, are a multiple of 4, and the knob allows AVX2 for m.
pub(super) fn add_reduced(m: &Modulus, lo: &[u64], hi: &[u64], out: &mut [u64]) -> bool {
    let n = out.len();
    if !n.is_multiple_of(4)
        || lo.len() != n
        || hi.len() != n
        || !crate::arith::avx2_allowed(m)
        || !available()
    {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: avx2 detected by `available`; lengths checked above.
    unsafe {
        if m.bits() > 61 {
            add_kernel::<true>(m, lo, hi, out);
        } else {
            add_kernel::<false>(m, lo, hi, out);
        }
    }
    true
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_kernel<const BIG: bool>(m: &Modulus, lo: &[u64], hi: &[u64], out: &mut [u64]) {
    use crate::arith::avx2::{bcast, reduce128, sub_if_ge, tw_of, Consts};
    use core::arch::x86_64::*;
    let r64 = m.shoup(m.reduce_u128(1 << 64));
    // SAFETY: avx2 is enabled here; v + 4 <= n for every load and store (lengths checked).
    unsafe {
        let cst = Consts::new(m.value());
        let (ratio, tw) = (bcast(m.barrett_ratio().1), tw_of(r64.value, r64.quotient));
        for v in (0..out.len()).step_by(4) {
            let ld = |s: &[u64]| _mm256_loadu_si256(s.as_ptr().add(v).cast());
            let r = reduce128::<BIG>(ld(lo), ld(hi), ratio, &tw, &cst);
            let s = _mm256_add_epi64(ld(out), r);
            let o = out.as_mut_ptr().add(v).cast();
            _mm256_storeu_si256(o, sub_if_ge::<BIG>(s, cst.q, cst.q_b, &cst));
        }
    }
}
