//! The AVX-512F key-switching inner product (see [`crate::arith::vector::inner_product`]) for the moduli
//! the IFMA kernel cannot take (q up to 2^62): 16 values per step, each product's 32 x 32-bit pieces
//! summed in columns (`arith::wide512::Sum128`), one 128-bit reduction per value. The AVX2 twin is
//! `vector::avx2::inner`, the scalar one `vector::inner_product_scalar`.

use std::arch::x86_64::*;

use crate::arith::wide512::{fits, Reduce128, Sum128};
use crate::arith::Modulus;

/// out[t] = sum_j a[j][t] b[j][t] mod q for every t < out.len(). False (doing nothing) when the knob or
/// the CPU does not allow AVX-512F for q, the row counts differ, a row is shorter than out, or
/// rows * (q - 1)^2 could pass 2^128.
pub(in crate::arith::vector) fn inner_product(
    q: &Modulus,
    a: &[&[u64]],
    b: &[&[u64]],
    out: &mut [u64],
) -> bool {
    let qm = q.value() - 1;
    if !crate::arith::avx512_allowed(q)
        || a.len() != b.len()
        || a.iter().chain(b).any(|r| r.len() < out.len())
        || !fits(qm, qm, a.len())
    {
        return false;
    }
    // SAFETY: avx512f and avx512dq are present (`avx512_allowed`); every row holds at least
    // out.len() values.
    unsafe { inner_k(q, a, b, out) };
    true
}

/// Safety: avx512f and avx512dq (`avx512_allowed`); every row of a and b holds at least out.len()
/// values; values below q < 2^62.
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn inner_k(q: &Modulus, a: &[&[u64]], b: &[&[u64]], out: &mut [u64]) {
    let red = Reduce128::new(q);
    let len = out.len();
    let rows: Vec<(*const u64, *const u64)> = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x.as_ptr(), y.as_ptr()))
        .collect();
    let ld = |ptr: *const u64, m: __mmask8| {
        // SAFETY: the lanes of m at ptr lie inside a row (the callers below).
        unsafe { _mm512_maskz_loadu_epi64(m, ptr.cast()) }
    };
    let add = |s: &mut Sum128, x: __m512i, y: __m512i| {
        s.add_product(x, _mm512_srli_epi64::<32>(x), y, _mm512_srli_epi64::<32>(y));
    };
    let mut v = 0;
    while v + 16 <= len {
        let (mut s0, mut s1) = (Sum128::zero(), Sum128::zero());
        for &(ra, rb) in &rows {
            // The b rows (key-switching keys) stream from memory, dozens at once: too many streams for
            // the hardware prefetcher, so each asks for its lines 512 bytes ahead.
            _mm_prefetch::<_MM_HINT_T0>(rb.wrapping_add(v + 64).cast());
            _mm_prefetch::<_MM_HINT_T0>(rb.wrapping_add(v + 72).cast());
            // SAFETY: v + 16 <= len <= every row's length.
            let (pa, pb) = unsafe { (ra.add(v), rb.add(v)) };
            add(&mut s0, ld(pa, !0), ld(pb, !0));
            add(
                &mut s1,
                ld(pa.wrapping_add(8), !0),
                ld(pb.wrapping_add(8), !0),
            );
        }
        for (w, s) in [(v, s0), (v + 8, s1)] {
            let (lo, hi) = s.words();
            // SAFETY: w + 8 <= len.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(w).cast(), red.reduce(lo, hi)) };
        }
        v += 16;
    }
    while v < len {
        let k = (len - v).min(8);
        let m = ((1u16 << k) - 1) as __mmask8;
        let mut s = Sum128::zero();
        for &(ra, rb) in &rows {
            // SAFETY: the lanes of m lie below len <= every row's length.
            let (pa, pb) = unsafe { (ra.add(v), rb.add(v)) };
            add(&mut s, ld(pa, m), ld(pb, m));
        }
        let (lo, hi) = s.words();
        // SAFETY: the lanes of m lie below len.
        unsafe { _mm512_mask_storeu_epi64(out.as_mut_ptr().add(v).cast(), m, red.reduce(lo, hi)) };
        v += k;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;
    use crate::sample::Csprng;

    /// The kernel against its scalar twin (`inner_product_scalar`): 43- to 62-bit q, 0..=3, 9 and 17
    /// rows (the most that fit 128-bit sums for 62-bit q), operands random or q - 1, lengths 0, 7, 8,
    /// 16, 37 and 64.
    #[test]
    fn matches_scalar_twin() {
        let test = "arith::vector::avx512::inner::matches_scalar_twin";
        if !crate::skip::runs(crate::arith::Backend::Avx512, test) {
            return;
        }
        let mut rng = Csprng::from_seed([6; 32]);
        for bits in [43u32, 55, 59, 60, 61, 62] {
            let q = Modulus::new(crate::arith::ntt_primes(bits, 64, 1, &[]).unwrap()[0]).unwrap();
            for rows in [0usize, 1, 2, 3, 9, 17] {
                if !fits(q.value() - 1, q.value() - 1, rows) {
                    continue;
                }
                for max in [false, true] {
                    let mut mk = || -> Vec<Vec<u64>> {
                        (0..rows)
                            .map(|_| {
                                (0..64)
                                    .map(|_| {
                                        if max {
                                            q.value() - 1
                                        } else {
                                            rng.uniform_mod(&q)
                                        }
                                    })
                                    .collect()
                            })
                            .collect()
                    };
                    let (ra, rb) = (mk(), mk());
                    let sa: Vec<&[u64]> = ra.iter().map(Vec::as_slice).collect();
                    let sb: Vec<&[u64]> = rb.iter().map(Vec::as_slice).collect();
                    for len in [0usize, 7, 8, 16, 37, 64] {
                        let (mut want, mut got) = (vec![0u64; len], vec![u64::MAX; len]);
                        super::super::super::inner_product_scalar(&q, &sa, &sb, 0, &mut want);
                        // SAFETY: avx512f was detected; every row holds 64 >= len values.
                        unsafe { inner_k(&q, &sa, &sb, &mut got) };
                        assert_eq!(got, want, "{bits} bits, {rows} rows, len {len}, max {max}");
                    }
                }
            }
        }
    }
}
