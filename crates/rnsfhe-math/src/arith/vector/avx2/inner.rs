//! The AVX2 key-switching inner product (see [`crate::arith::vector::inner_product`]): for q < 2^60 the
//! four 32 x 32-bit partial products summed in their own columns and one Barrett reduction per block of
//! rows; above, 128-bit sums with carries and one reduction.

use std::arch::x86_64::*;

use super::{load, store, supported};
use crate::arith::avx2::{
    add128, bcast, hi32, mul32, mul_hi_approx, mul_lo, mul_wide, reduce128, sub_if_ge, tw_of,
    Consts,
};
use crate::arith::{Modulus, Shoup};

/// out[t] = sum_j a[j][t] b[j][t] mod q for t < out.len() & !3. False (doing nothing) without avx2, when
/// a row is shorter than out, or (q above 2^60) when rows * (q - 1)^2 could pass 2^128. For q < 2^60 the
/// split sums of `inner_split_k`; above, the 128-bit products summed exactly (low words with carries into
/// the high words), then reduced once.
pub(in crate::arith::vector) fn inner_product(
    q: &Modulus,
    a: &[&[u64]],
    b: &[&[u64]],
    out: &mut [u64],
) -> bool {
    let sq = u128::from(q.value() - 1).pow(2).max(1);
    if !supported() || a.len() != b.len() || a.iter().chain(b).any(|r| r.len() < out.len()) {
        return false;
    }
    if let Some(chunk) = split_chunk(q) {
        let s = u64::from(q.bits()) - 2;
        let mu = ((1u128 << (64 + s)) / u128::from(q.value())) as u64;
        // SAFETY: avx2 was detected; every row holds at least out.len() values (checked above).
        unsafe { inner_split_k(q.value(), mu, s, chunk, a, b, out) };
        return true;
    }
    if a.len() as u128 > u128::MAX / sq {
        return false;
    }
    // 2^64 mod q as a Shoup constant: hi 2^64 + lo = (hi mod q) (2^64 mod q) + lo mod q.
    let r64 = q.shoup(q.reduce_u128(1 << 64));
    let ratio = q.barrett_ratio().1;
    // SAFETY: avx2 was detected; every row holds at least out.len() values (checked above).
    unsafe {
        if q.bits() > 61 {
            inner_k::<true>(q.value(), ratio, r64, a, b, out)
        } else {
            inner_k::<false>(q.value(), ratio, r64, a, b, out)
        }
    }
    true
}

/// The rows per block of `inner_split_k` for q of L = 2..=60 bits (None above): the most R >= 1 with
/// (q - 1) + R (q - 1)^2 < 2^(62 + L) (the Barrett bound, the block starting from the previous block's
/// remainder) and R (m + 2^32) <= 2^64 - 2^34, m the largest middle column a_lo b_hi + a_hi b_lo of one
/// product (its 64-bit sum, with the carries of the low column, does not wrap).
fn split_chunk(q: &Modulus) -> Option<usize> {
    let l = q.bits();
    if !(2..=60).contains(&l) {
        return None;
    }
    let q1 = u128::from(q.value() - 1);
    let barrett = ((1u128 << (62 + l)) - q1 - 1) / (q1 * q1).max(1);
    let mid = 2 * u128::from(u32::MAX) * (q1 >> 32);
    let carry = ((1u128 << 64) - (1 << 34)) / (mid + (1 << 32));
    let r = barrett.min(carry).min(1 << 30) as usize;
    (r >= 1).then_some(r)
}

/// out[t] for t < out.len() & !3 (q of L <= 60 bits, s = L - 2, mu = floor(2^(64 + s) / q)), rows in
/// blocks of `chunk` (see `split_chunk`): per block the four 32 x 32-bit products of each row summed in
/// their own columns (low column split in halves, middle, high; no carries to track), the block's sum S
/// (the previous block's remainder included) < 2^(62 + L) rebuilt once and reduced by Barrett:
/// q1 = floor(S / 2^s) < 2^64, est = floor(q1 mu / 2^64) - e (e <= 2, `mul_hi_approx`) is at most 4 short
/// of floor(S / q) (S/q - q1 mu / 2^64 < 2^s / q + q1 / 2^64 < 1.5), so S - est q lies in [0, 4.5q) and
/// three conditional subtractions (4q, 2q, q) finish. Safety: avx2; rows as in `inner_k`.
#[target_feature(enable = "avx2")]
unsafe fn inner_split_k(
    q: u64,
    mu: u64,
    s: u64,
    chunk: usize,
    a: &[&[u64]],
    b: &[&[u64]],
    out: &mut [u64],
) {
    // SAFETY: v + 4 <= out.len() <= every row's length.
    unsafe {
        let c = Consts::new(q);
        let (muv, four_q) = (bcast(mu), bcast(4 * q));
        let (shr, shl) = (
            _mm_cvtsi64_si128(s as i64),
            _mm_cvtsi64_si128((64 - s) as i64),
        );
        let m32 = bcast(u64::from(u32::MAX));
        let zero = _mm256_setzero_si256();
        // The rows' pointers, and the blocks as ranges of them (no division per output).
        let rows: Vec<(*const u64, *const u64)> = a
            .iter()
            .zip(b)
            .map(|(x, y)| (x.as_ptr(), y.as_ptr()))
            .collect();
        let blocks: Vec<&[(*const u64, *const u64)]> = rows.chunks(chunk).collect();
        for v in (0..out.len() & !3).step_by(4) {
            let mut r = zero;
            for block in &blocks {
                let (mut l0, mut l1) = (_mm256_and_si256(r, m32), _mm256_srli_epi64::<32>(r));
                let (mut m, mut h) = (zero, zero);
                for &(ra, rb) in *block {
                    // The b rows (key-switching keys) stream from memory, dozens at once: too many
                    // streams for the hardware prefetcher, so each asks for its line 512 bytes ahead.
                    if v % 8 == 0 {
                        _mm_prefetch::<_MM_HINT_T0>(rb.wrapping_add(v + 64).cast());
                    }
                    let (x, y) = (load(ra, v), load(rb, v));
                    let (xh, yh) = (hi32(x), hi32(y));
                    let ll = mul32(x, y);
                    l0 = _mm256_add_epi64(l0, _mm256_and_si256(ll, m32));
                    l1 = _mm256_add_epi64(l1, _mm256_srli_epi64::<32>(ll));
                    m = _mm256_add_epi64(m, _mm256_add_epi64(mul32(x, yh), mul32(xh, y)));
                    h = _mm256_add_epi64(h, mul32(xh, yh));
                }
                // S = l0 + 2^32 (l1 + m) + 2^64 h as (hi, lo).
                let x1 = _mm256_add_epi64(_mm256_add_epi64(l1, m), _mm256_srli_epi64::<32>(l0));
                let lo = _mm256_or_si256(_mm256_and_si256(l0, m32), _mm256_slli_epi64::<32>(x1));
                let hi = _mm256_add_epi64(h, _mm256_srli_epi64::<32>(x1));
                let q1 = _mm256_or_si256(_mm256_sll_epi64(hi, shl), _mm256_srl_epi64(lo, shr));
                let est = mul_hi_approx(q1, muv);
                let t = _mm256_sub_epi64(lo, mul_lo(est, c.q));
                let t = sub_if_ge::<false>(t, four_q, four_q, &c);
                let t = sub_if_ge::<false>(t, c.two_q, c.two_q_b, &c);
                r = sub_if_ge::<false>(t, c.q, c.q_b, &c);
            }
            store(out.as_mut_ptr(), v, r);
        }
    }
}

/// Safety: avx2; every row of a and b holds at least out.len() values.
#[target_feature(enable = "avx2")]
unsafe fn inner_k<const BIG: bool>(
    q: u64,
    ratio: u64,
    r64: Shoup,
    a: &[&[u64]],
    b: &[&[u64]],
    out: &mut [u64],
) {
    // SAFETY: v + 4 <= out.len() <= every row's length.
    unsafe {
        let c = Consts::new(q);
        let (rv, tw) = (bcast(ratio), tw_of(r64.value, r64.quotient));
        let zero = _mm256_setzero_si256();
        for v in (0..out.len() & !3).step_by(4) {
            let (mut lo, mut hi) = (zero, zero);
            for (ra, rb) in a.iter().zip(b) {
                // The b rows (key-switching keys) stream from memory, dozens at once: too many
                // streams for the hardware prefetcher, so each asks for its line 512 bytes ahead.
                if v % 8 == 0 {
                    _mm_prefetch::<_MM_HINT_T0>(rb.as_ptr().wrapping_add(v + 64).cast());
                }
                let (pl, ph) = mul_wide(load(ra.as_ptr(), v), load(rb.as_ptr(), v));
                (lo, hi) = add128(lo, hi, pl, ph, &c);
            }
            store(out.as_mut_ptr(), v, reduce128::<BIG>(lo, hi, rv, &tw, &c));
        }
    }
}
