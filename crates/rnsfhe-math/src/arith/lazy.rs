//! Lazy sums of 104-bit products with AVX-512 IFMA, shared by the FastBconv dot product
//! (`rns::dot_ifma`) and the pointwise inner product of key switching ([`super::vector::inner_product`]).
//!
//! Products of a < 2^52 and b < p < 2^51 are summed as their low and high 52-bit halves in 64-bit
//! lanes: V = hi 2^52 + lo. With fewer than 2^10 terms hi < 2^62 and lo < 2^62, and [`Ifma52::reduce`]
//! returns V mod p: two Montgomery REDC steps (R = 2^52) give V 2^-104 (< p + 2^11), one Montgomery
//! product by 2^156 mod p gives V mod p (< 2p, since p + 2^11 < 2^52), one subtraction finishes.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use super::Modulus;

/// The constants of [`Ifma52::reduce`] for one odd modulus p < 2^51.
#[derive(Clone, Copy)]
pub(crate) struct Ifma52 {
    m52: __m512i,
    p: __m512i,
    p_inv: __m512i,
    fix: __m512i,
}

/// Whether IFMA runs here (and the backend knob allows it) and p fits [`Ifma52`] (odd, below 2^51).
pub(crate) fn usable(p: &Modulus) -> bool {
    p.value() >> 51 == 0 && p.value() & 1 == 1 && super::ifma_allowed()
}

impl Ifma52 {
    /// Constants for p (odd, below 2^51): -p^-1 mod 2^52 and 2^156 mod p.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) fn new(p: &Modulus) -> Self {
        let pv = p.value();
        let mut inv = pv;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(pv.wrapping_mul(inv)));
        }
        let mask = (1u64 << 52) - 1;
        Ifma52 {
            m52: _mm512_set1_epi64(mask as i64),
            p: _mm512_set1_epi64(pv as i64),
            p_inv: _mm512_set1_epi64((inv.wrapping_neg() & mask) as i64),
            fix: _mm512_set1_epi64(p.pow(2, 156) as i64),
        }
    }

    /// REDC of h 2^52 + l (l < 2^52): h + hi52(m p) + carry with m = lo52(l p').
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn redc(&self, h: __m512i, l: __m512i) -> __m512i {
        let zero = _mm512_setzero_si512();
        let m = _mm512_madd52lo_epu64(zero, l, self.p_inv);
        let t = _mm512_madd52lo_epu64(l, m, self.p);
        let carry = _mm512_srli_epi64::<52>(t);
        _mm512_add_epi64(_mm512_madd52hi_epu64(h, m, self.p), carry)
    }

    /// (hi 2^52 + lo) mod p for hi, lo < 2^62.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) fn reduce(&self, lo: __m512i, hi: __m512i) -> __m512i {
        let zero = _mm512_setzero_si512();
        let h = _mm512_add_epi64(hi, _mm512_srli_epi64::<52>(lo));
        let v1 = self.redc(h, _mm512_and_si512(lo, self.m52));
        let v2 = self.redc(_mm512_srli_epi64::<52>(v1), _mm512_and_si512(v1, self.m52));
        let pl = _mm512_madd52lo_epu64(zero, v2, self.fix);
        let ph = _mm512_madd52hi_epu64(zero, v2, self.fix);
        let v3 = self.redc(ph, pl);
        _mm512_min_epu64(v3, _mm512_sub_epi64(v3, self.p))
    }
}

/// out[t] = sum_j a_j[t] b_j[t] mod p, 8 lanes at a time (the caller handles a tail).
/// Preconditions: [`usable`] for p, a values < 2^52, b values < p, fewer than 2^10 rows, every row at
/// least out.len() long, out.len() % 8 == 0.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) fn inner_product(p: &Modulus, a: &[&[u64]], b: &[&[u64]], out: &mut [u64]) {
    let red = Ifma52::new(p);
    let len = out.len() & !7;
    if a.iter().chain(b).any(|r| r.len() < len) {
        return;
    }
    for v in (0..len).step_by(8) {
        let (mut lo, mut hi) = (_mm512_setzero_si512(), _mm512_setzero_si512());
        for (ra, rb) in a.iter().zip(b) {
            // SAFETY: v + 8 <= len <= each row's length (checked above).
            let (x, y) = unsafe {
                (
                    _mm512_loadu_si512(ra.as_ptr().add(v).cast()),
                    _mm512_loadu_si512(rb.as_ptr().add(v).cast()),
                )
            };
            lo = _mm512_madd52lo_epu64(lo, x, y);
            hi = _mm512_madd52hi_epu64(hi, x, y);
        }
        // SAFETY: v + 8 <= out.len().
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(v).cast(), red.reduce(lo, hi)) };
    }
}

/// [`inner_product`] of the rows a with two sets of rows at once, out0 = sum_j a_j b0_j and
/// out1 = sum_j a_j b1_j, reading each a_j once (the two parts of a key-switching key). The same
/// words as two calls of [`inner_product`]; the same preconditions, for b0 and b1 alike.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) fn inner_product2(
    p: &Modulus,
    a: &[&[u64]],
    (b0, b1): (&[&[u64]], &[&[u64]]),
    out0: &mut [u64],
    out1: &mut [u64],
) {
    let red = Ifma52::new(p);
    let len = out0.len().min(out1.len()) & !7;
    if a.len() != b0.len()
        || a.len() != b1.len()
        || a.iter().chain(b0).chain(b1).any(|r| r.len() < len)
    {
        return;
    }
    for v in (0..len).step_by(8) {
        let zero = _mm512_setzero_si512();
        let (mut lo0, mut hi0, mut lo1, mut hi1) = (zero, zero, zero, zero);
        for ((ra, r0), r1) in a.iter().zip(b0).zip(b1) {
            // SAFETY: v + 8 <= len <= each row's length (checked above).
            let (x, y0, y1) = unsafe {
                (
                    _mm512_loadu_si512(ra.as_ptr().add(v).cast()),
                    _mm512_loadu_si512(r0.as_ptr().add(v).cast()),
                    _mm512_loadu_si512(r1.as_ptr().add(v).cast()),
                )
            };
            lo0 = _mm512_madd52lo_epu64(lo0, x, y0);
            hi0 = _mm512_madd52hi_epu64(hi0, x, y0);
            lo1 = _mm512_madd52lo_epu64(lo1, x, y1);
            hi1 = _mm512_madd52hi_epu64(hi1, x, y1);
        }
        // SAFETY: v + 8 <= len <= out0.len(), out1.len().
        unsafe {
            _mm512_storeu_si512(out0.as_mut_ptr().add(v).cast(), red.reduce(lo0, hi0));
            _mm512_storeu_si512(out1.as_mut_ptr().add(v).cast(), red.reduce(lo1, hi1));
        }
    }
}

/// lo += lo52(a b), hi += hi52(a b) lane by lane for the first len & !7 elements.
/// Preconditions: [`usable`] for the modulus, a < 2^52, b < 2^52, all slices at least as long as lo.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) fn mul_acc(lo: &mut [u64], hi: &mut [u64], a: &[u64], b: &[u64]) {
    let len = lo.len().min(hi.len()).min(a.len()).min(b.len()) & !7;
    for v in (0..len).step_by(8) {
        // SAFETY: v + 8 <= len <= every slice's length.
        unsafe {
            let x = _mm512_loadu_si512(a.as_ptr().add(v).cast());
            let y = _mm512_loadu_si512(b.as_ptr().add(v).cast());
            let l = _mm512_loadu_si512(lo.as_ptr().add(v).cast());
            let h = _mm512_loadu_si512(hi.as_ptr().add(v).cast());
            _mm512_storeu_si512(
                lo.as_mut_ptr().add(v).cast(),
                _mm512_madd52lo_epu64(l, x, y),
            );
            _mm512_storeu_si512(
                hi.as_mut_ptr().add(v).cast(),
                _mm512_madd52hi_epu64(h, x, y),
            );
        }
    }
}

/// out = (hi 2^52 + lo) mod p for the first len & !7 elements. Preconditions: [`usable`] for p,
/// lo, hi < 2^62.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) fn finish(p: &Modulus, lo: &[u64], hi: &[u64], out: &mut [u64]) {
    let red = Ifma52::new(p);
    let len = lo.len().min(hi.len()).min(out.len()) & !7;
    for v in (0..len).step_by(8) {
        // SAFETY: v + 8 <= len <= every slice's length.
        unsafe {
            let l = _mm512_loadu_si512(lo.as_ptr().add(v).cast());
            let h = _mm512_loadu_si512(hi.as_ptr().add(v).cast());
            _mm512_storeu_si512(out.as_mut_ptr().add(v).cast(), red.reduce(l, h));
        }
    }
}
