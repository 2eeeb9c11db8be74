//! AVX-512F lazy sums of 128-bit products for moduli up to 62 bits (no IFMA), shared by the FastBconv
//! dot product (`rns::dot_avx512`) and the key-switching inner product ([`super::vector::inner_product`]).
//!
//! A sum S = sum x y of products of x < 2^63 and y < 2^62 is kept in three 64-bit columns of weights
//! 1, 2^32 and 2^64 ([`Sum128`]): each product's four 32 x 32-bit pieces (`vpmuludq`) go to their
//! column, the middle pieces split in halves, so no carry is tracked. While S < 2^128 and there are
//! fewer than 2^30 terms no column wraps. [`Reduce128`] then returns S mod q: the high word by Shoup's
//! product with 2^64 mod q, the low word by Barrett (floor(2^64 / q)), both lazy, then two conditional
//! subtractions.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use super::vector::avx512::{mul_hi_approx, reduce_once};
use super::Modulus;

#[inline]
#[target_feature(enable = "avx512f")]
fn bcast(x: u64) -> __m512i {
    _mm512_set1_epi64(x as i64)
}

/// A lazy sum of products in three columns (weights 1, 2^32, 2^64), 8 lanes.
#[derive(Clone, Copy)]
pub(crate) struct Sum128 {
    l0: __m512i,
    l1: __m512i,
    h: __m512i,
}

impl Sum128 {
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(crate) fn zero() -> Self {
        let z = _mm512_setzero_si512();
        Sum128 { l0: z, l1: z, h: z }
    }

    /// S += x y for x < 2^63 and y < 2^62, with x_hi = x >> 32 and y_hi = y >> 32 (a broadcast
    /// constant's high half is computed once by the caller).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(crate) fn add_product(&mut self, x: __m512i, x_hi: __m512i, y: __m512i, y_hi: __m512i) {
        let m32 = bcast(u64::from(u32::MAX));
        let ll = _mm512_mul_epu32(x, y);
        // x_lo y_hi + x_hi y_lo < 2^32 (2^30 + 2^31) < 2^64.
        let mid = _mm512_add_epi64(_mm512_mul_epu32(x, y_hi), _mm512_mul_epu32(x_hi, y));
        self.l0 = _mm512_add_epi64(self.l0, _mm512_and_si512(ll, m32));
        let c1 = _mm512_add_epi64(_mm512_srli_epi64::<32>(ll), _mm512_and_si512(mid, m32));
        self.l1 = _mm512_add_epi64(self.l1, c1);
        let c2 = _mm512_add_epi64(_mm512_mul_epu32(x_hi, y_hi), _mm512_srli_epi64::<32>(mid));
        self.h = _mm512_add_epi64(self.h, c2);
    }

    /// S += a for any 64-bit a.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(crate) fn add_word(&mut self, a: __m512i) {
        let m32 = bcast(u64::from(u32::MAX));
        self.l0 = _mm512_add_epi64(self.l0, _mm512_and_si512(a, m32));
        self.l1 = _mm512_add_epi64(self.l1, _mm512_srli_epi64::<32>(a));
    }

    /// S as (low, high) 64-bit words (exact while S < 2^128).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(crate) fn words(&self) -> (__m512i, __m512i) {
        let m32 = bcast(u64::from(u32::MAX));
        let x1 = _mm512_add_epi64(self.l1, _mm512_srli_epi64::<32>(self.l0));
        let lo = _mm512_or_si512(_mm512_and_si512(self.l0, m32), _mm512_slli_epi64::<32>(x1));
        (lo, _mm512_add_epi64(self.h, _mm512_srli_epi64::<32>(x1)))
    }
}

/// Whether `terms` products below x_max * y_max (x_max <= 2^63, y_max <= 2^62) plus one addend below
/// 2^64 fit [`Sum128`]: the sum below 2^128, fewer than 2^30 terms.
pub(crate) fn fits(x_max: u64, y_max: u64, terms: usize) -> bool {
    let prod = u128::from(x_max) * u128::from(y_max);
    x_max <= 1 << 63
        && y_max <= 1 << 62
        && terms < 1 << 30
        && (terms as u128)
            .checked_mul(prod)
            .and_then(|s| s.checked_add(1 << 64))
            .is_some()
}

/// Broadcast constants reducing a 128-bit lane value modulo q < 2^62.
#[derive(Clone, Copy)]
pub(crate) struct Reduce128 {
    q: __m512i,
    two_q: __m512i,
    /// floor(2^64 / q) and its high half.
    ratio: __m512i,
    ratio_hi: __m512i,
    /// w = 2^64 mod q, its Shoup quotient floor(w 2^64 / q) and the quotient's high half.
    w: __m512i,
    wq: __m512i,
    wq_hi: __m512i,
}

impl Reduce128 {
    /// Constants for q (below 2^62).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(crate) fn new(q: &Modulus) -> Self {
        let qv = q.value();
        let ratio = ((1u128 << 64) / u128::from(qv)) as u64;
        let r64 = q.shoup(q.reduce_u128(1 << 64));
        Reduce128 {
            q: bcast(qv),
            two_q: bcast(2 * qv),
            ratio: bcast(ratio),
            ratio_hi: bcast(ratio >> 32),
            w: bcast(r64.value),
            wq: bcast(r64.quotient),
            wq_hi: bcast(r64.quotient >> 32),
        }
    }

    /// (hi 2^64 + lo) mod q in [0, q) (low products by `vpmullq`). hi w - qhat q (Shoup, qhat from three products: at most 3
    /// short, so in [0, 4q)) and lo - est q (est = floor(lo ratio / 2^64) from three products: at
    /// most 3 short of floor(lo / q), so in [0, 4q)) are each brought to [0, 2q); their sum, below 4q
    /// < 2^64, to [0, q).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn reduce(&self, lo: __m512i, hi: __m512i) -> __m512i {
        // SAFETY: the helpers need avx512f, `vpmullq` avx512dq, both enabled here.
        unsafe {
            let qhat = mul_hi_approx(hi, self.wq, self.wq_hi);
            let h = _mm512_sub_epi64(
                _mm512_mullo_epi64(hi, self.w),
                _mm512_mullo_epi64(qhat, self.q),
            );
            let est = mul_hi_approx(lo, self.ratio, self.ratio_hi);
            let l = _mm512_sub_epi64(lo, _mm512_mullo_epi64(est, self.q));
            let s = _mm512_add_epi64(reduce_once(h, self.two_q), reduce_once(l, self.two_q));
            reduce_once(reduce_once(s, self.two_q), self.q)
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;
    use crate::sample::Csprng;

    /// Column sums and the reduction against u128 arithmetic: random and extreme products (x up to
    /// 2^63 - 1, y up to 2^62 - 1) and addends up to 2^64 - 1, as many terms as `fits` allows.
    #[test]
    fn sums_and_reduction_match_u128() {
        let test = "arith::wide512::sums_and_reduction_match_u128";
        if !crate::skip::runs(crate::arith::Backend::Avx512, test) {
            return;
        }
        let mut rng = Csprng::from_seed([5; 32]);
        for bits in [2u32, 30, 50, 59, 60, 61, 62] {
            let q = if bits == 2 {
                Modulus::new(3).unwrap()
            } else {
                Modulus::new(crate::arith::ntt_primes(bits, 64, 1, &[]).unwrap()[0]).unwrap()
            };
            for (x_max, y_max) in [(q.value(), q.value()), (1 << 63, 1 << 62)] {
                let terms = (1..=40).rev().find(|&t| fits(x_max, y_max, t)).unwrap_or(0);
                for edge in [false, true] {
                    let pick = |rng: &mut Csprng, max: u64| {
                        if edge {
                            max - 1
                        } else {
                            rng.next_u64() % max
                        }
                    };
                    let xs: Vec<[u64; 8]> = (0..terms)
                        .map(|_| core::array::from_fn(|_| pick(&mut rng, x_max)))
                        .collect();
                    let ys: Vec<[u64; 8]> = (0..terms)
                        .map(|_| core::array::from_fn(|_| pick(&mut rng, y_max)))
                        .collect();
                    let add: [u64; 8] =
                        core::array::from_fn(|i| if edge { u64::MAX } else { i as u64 });
                    let got = unsafe { run(&q, &xs, &ys, &add) };
                    for l in 0..8 {
                        let s = xs.iter().zip(&ys).fold(u128::from(add[l]), |s, (x, y)| {
                            s + u128::from(x[l]) * u128::from(y[l])
                        });
                        assert_eq!(u128::from(got[l]), s % u128::from(q.value()), "{bits} bits");
                    }
                }
            }
        }
        // The reduction alone takes any 128-bit value.
        if let Ok(q) = Modulus::new((1 << 62) - 57) {
            let lo: [u64; 8] = [0, 1, u64::MAX, u64::MAX, 7, q.value(), 1 << 63, 12345];
            let hi: [u64; 8] = [
                0,
                u64::MAX,
                0,
                u64::MAX,
                q.value() - 1,
                q.value(),
                1 << 63,
                1,
            ];
            let got = unsafe { reduce_words(&q, lo, hi) };
            for l in 0..8 {
                let v = (u128::from(hi[l]) << 64) | u128::from(lo[l]);
                assert_eq!(u128::from(got[l]), v % u128::from(q.value()));
            }
        }
    }

    #[target_feature(enable = "avx512f,avx512dq")]
    fn run(q: &Modulus, xs: &[[u64; 8]], ys: &[[u64; 8]], add: &[u64; 8]) -> [u64; 8] {
        let ld = |a: &[u64; 8]| unsafe { _mm512_loadu_si512(a.as_ptr().cast()) };
        let mut s = Sum128::zero();
        for (x, y) in xs.iter().zip(ys) {
            let (x, y) = (ld(x), ld(y));
            s.add_product(x, _mm512_srli_epi64::<32>(x), y, _mm512_srli_epi64::<32>(y));
        }
        s.add_word(ld(add));
        let (lo, hi) = s.words();
        let mut out = [0u64; 8];
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), Reduce128::new(q).reduce(lo, hi)) };
        out
    }

    #[target_feature(enable = "avx512f,avx512dq")]
    fn reduce_words(q: &Modulus, lo: [u64; 8], hi: [u64; 8]) -> [u64; 8] {
        let ld = |a: &[u64; 8]| unsafe { _mm512_loadu_si512(a.as_ptr().cast()) };
        let mut out = [0u64; 8];
        let r = Reduce128::new(q).reduce(ld(&lo), ld(&hi));
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), r) };
        out
    }
}
