//! The FastBconv dot product sum_i y_i c_i mod p with AVX-512 IFMA, for y_i < 2^52 and c_i < p < 2^51:
//! the 104-bit products are summed as their low and high 52-bit halves in 64-bit lanes (no overflow
//! for fewer than 2^10 terms: the high sum stays below 2^62), then each lane is reduced by Montgomery
//! steps in the same unit (`arith::lazy`, which states the ranges). The scalar twin is `dot::dot_lazy`.

#[cfg(target_arch = "x86_64")]
use crate::arith::lazy::Ifma52;
use crate::arith::Modulus;

/// Whether the IFMA kernel can run here for these sizes.
/// `targets` must all be odd (Montgomery reduction) and below 2^51.
pub(super) fn available(y_max: u64, targets: &[Modulus], terms: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        y_max >> 52 == 0
            && targets
                .iter()
                .all(|p| p.value() >> 51 == 0 && p.value() & 1 == 1)
            && terms < 1 << 10
            && crate::arith::ifma_allowed()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (y_max, targets, terms);
        false
    }
}

/// The reduction constants of [`dot`] for p, built once per target row (not per block), or `None`
/// where [`available`] does not hold for p.
#[cfg(target_arch = "x86_64")]
pub(super) fn reducer(y_max: u64, p: &Modulus, terms: usize) -> Option<Ifma52> {
    // SAFETY: `available` checked the CPU features that `Ifma52::new` needs, and p odd below 2^51.
    available(y_max, std::slice::from_ref(p), terms).then(|| unsafe { Ifma52::new(p) })
}

/// out[b] = (sum_i y[i * stride + start + b] c[i] + row[b] c_own + add[b]) mod p, for out.len() a
/// multiple of 16; `add`, when given, holds out.len() values below 2^62, and `own` = (row, c_own) a row
/// below 2^52 with its constant below p (one more term).
/// Preconditions (checked by [`available`]): IFMA present, every y below 2^52, every c below
/// p < 2^51, c.len() < 2^10. Returns false, doing nothing, when out.len() is not a multiple of 16, c
/// is empty, a length does not match or a row lies outside y (`dot::dot_args_fit`, the check of
/// the AVX2 and AVX-512 twins).
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)] // a kernel: plain slices and scalars
pub(super) fn dot(
    p: &Modulus,
    red: &Ifma52,
    y: &[u64],
    stride: usize,
    start: usize,
    c: &[u64],
    add: Option<&[u64]>,
    own: Option<(&[u64], u64)>,
    out: &mut [u64],
) -> bool {
    let len = out.len();
    if !len.is_multiple_of(16)
        || c.is_empty()
        || !super::dot::dot_args_fit(y, stride, start, c, add, own, len)
    {
        return false;
    }
    // SAFETY: the caller checked IFMA support through `available`; the checks above keep every load
    // inside y, row and add, and every store inside out.
    unsafe { dot_kernel(p, red, y, stride, start, c, add, own, out) };
    true
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512ifma")]
#[allow(clippy::too_many_arguments)] // a kernel: plain slices and scalars
unsafe fn dot_kernel(
    p: &Modulus,
    red: &Ifma52,
    y: &[u64],
    stride: usize,
    start: usize,
    c: &[u64],
    add: Option<&[u64]>,
    own: Option<(&[u64], u64)>,
    out: &mut [u64],
) {
    use core::arch::x86_64::*;
    let len = out.len();
    debug_assert!(p.value() >> 51 == 0);
    let m52 = _mm512_set1_epi64(((1u64 << 52) - 1) as i64);
    let zero = _mm512_setzero_si512();
    for v in (0..len).step_by(16) {
        let (mut lo0, mut hi0, mut lo1, mut hi1) = (zero, zero, zero, zero);
        for (i, &ci) in c.iter().enumerate() {
            let cv = _mm512_set1_epi64(ci as i64);
            // SAFETY: i * stride + start + v + 16 <= y.len() by the check in `dot`.
            let base = unsafe { y.as_ptr().add(i * stride + start + v) };
            let y0 = unsafe { _mm512_loadu_si512(base.cast()) };
            let y1 = unsafe { _mm512_loadu_si512(base.add(8).cast()) };
            lo0 = _mm512_madd52lo_epu64(lo0, y0, cv);
            hi0 = _mm512_madd52hi_epu64(hi0, y0, cv);
            lo1 = _mm512_madd52lo_epu64(lo1, y1, cv);
            hi1 = _mm512_madd52hi_epu64(hi1, y1, cv);
        }
        if let Some((row, cj)) = own {
            let cv = _mm512_set1_epi64(cj as i64);
            // SAFETY: row.len() == out.len() (checked in `dot`) and v + 16 <= out.len().
            let (y0, y1) = unsafe {
                let b = row.as_ptr().add(v);
                (
                    _mm512_loadu_si512(b.cast()),
                    _mm512_loadu_si512(b.add(8).cast()),
                )
            };
            lo0 = _mm512_madd52lo_epu64(lo0, y0, cv);
            hi0 = _mm512_madd52hi_epu64(hi0, y0, cv);
            lo1 = _mm512_madd52lo_epu64(lo1, y1, cv);
            hi1 = _mm512_madd52hi_epu64(hi1, y1, cv);
        }
        if let Some(a) = add {
            // SAFETY: a.len() == out.len() (checked in `dot`) and v + 16 <= out.len().
            let (a0, a1) = unsafe {
                let b = a.as_ptr().add(v);
                (
                    _mm512_loadu_si512(b.cast()),
                    _mm512_loadu_si512(b.add(8).cast()),
                )
            };
            lo0 = _mm512_add_epi64(lo0, _mm512_and_si512(a0, m52));
            hi0 = _mm512_add_epi64(hi0, _mm512_srli_epi64::<52>(a0));
            lo1 = _mm512_add_epi64(lo1, _mm512_and_si512(a1, m52));
            hi1 = _mm512_add_epi64(hi1, _mm512_srli_epi64::<52>(a1));
        }
        // SAFETY: v + 16 <= out.len().
        unsafe {
            let o = out.as_mut_ptr().add(v);
            _mm512_storeu_si512(o.cast(), red.reduce(lo0, hi0));
            _mm512_storeu_si512(o.add(8).cast(), red.reduce(lo1, hi1));
        }
    }
}

/// out[b] = round(sum_i x[i n + b] F_i 2^-128), exactly, for k rows of x below 2^52 and 128-bit
/// fractions given as 52-bit limbs F_i = g0 + g1 2^52 + g2 2^104 (g2 < 2^24): the bit-identical twin of
/// the scalar `ScaleAndRound::round_scalar` (whose results are below 2^62 here). The 104-bit limb
/// products go into four columns of weight 2^0, 2^52, 2^104, 2^156 (each below 2k 2^52 < 2^63), then
/// the carries are propagated: a1 = c1 + c0 / 2^52, a2 = c2 + a1 / 2^52 + 2^23 (the half at 2^127),
/// out = a2 / 2^24 + c3 2^28. Preconditions: IFMA present, n % 8 == 0, x.len() == k n,
/// out.len() == n, k < 2^10.
#[cfg(target_arch = "x86_64")]
pub(super) fn round_fractions(x: &[u64], fracs: &[[u64; 3]], out: &mut [u64]) {
    let n = out.len();
    if !n.is_multiple_of(8) || x.len() != fracs.len() * n || fracs.len() >= 1 << 10 {
        out.iter_mut().for_each(|o| *o = 0);
        return;
    }
    // SAFETY: IFMA checked by the caller through `available`; lengths checked above.
    unsafe { round_kernel(x, fracs, out) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn round_kernel(x: &[u64], fracs: &[[u64; 3]], out: &mut [u64]) {
    use core::arch::x86_64::*;
    let n = out.len();
    let zero = _mm512_setzero_si512();
    let half = _mm512_set1_epi64(1 << 23);
    for v in (0..n).step_by(8) {
        let (mut c0, mut c1, mut c2, mut c3) = (zero, zero, zero, zero);
        for (i, &[g0, g1, g2]) in fracs.iter().enumerate() {
            // SAFETY: i n + v + 8 <= x.len().
            let xv = unsafe { _mm512_loadu_si512(x.as_ptr().add(i * n + v).cast()) };
            let (g0, g1, g2) = (
                _mm512_set1_epi64(g0 as i64),
                _mm512_set1_epi64(g1 as i64),
                _mm512_set1_epi64(g2 as i64),
            );
            c0 = _mm512_madd52lo_epu64(c0, xv, g0);
            c1 = _mm512_madd52hi_epu64(c1, xv, g0);
            c1 = _mm512_madd52lo_epu64(c1, xv, g1);
            c2 = _mm512_madd52hi_epu64(c2, xv, g1);
            c2 = _mm512_madd52lo_epu64(c2, xv, g2);
            c3 = _mm512_madd52hi_epu64(c3, xv, g2);
        }
        let a1 = _mm512_add_epi64(c1, _mm512_srli_epi64::<52>(c0));
        let a2 = _mm512_add_epi64(_mm512_add_epi64(c2, half), _mm512_srli_epi64::<52>(a1));
        let r = _mm512_add_epi64(_mm512_srli_epi64::<24>(a2), _mm512_slli_epi64::<28>(c3));
        // SAFETY: v + 8 <= n.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(v).cast(), r) };
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;
    use crate::rns::dot::{dot_lazy, lazy_chunk};
    use crate::sample::Csprng;

    #[test]
    fn matches_scalar_twin() {
        let test = "rns::dot_ifma::matches_scalar_twin";
        if !crate::skip::runs(crate::arith::Backend::Avx512Ifma, test) {
            return;
        }
        let mut rng = Csprng::from_seed([9; 32]);
        for (bits, k) in [(30u32, 3usize), (49, 9), (50, 17), (51, 40)] {
            let p = Modulus::new(crate::arith::ntt_primes(bits, 64, 1, &[]).unwrap()[0]).unwrap();
            let ymax = Modulus::new((1u64 << 52) - 1).unwrap();
            if !available(ymax.value(), std::slice::from_ref(&p), k) {
                // Only a knob (RNSFHE_BACKEND) below avx512ifma turns the kernel off for these sizes.
                assert_ne!(crate::arith::backend(), crate::arith::Backend::Avx512Ifma);
                return;
            }
            let n = 64;
            let mut y: Vec<u64> = (0..k * n).map(|_| rng.uniform_mod(&ymax)).collect();
            y[0] = ymax.value() - 1;
            let c: Vec<u64> = (0..k).map(|_| rng.uniform_mod(&p)).collect();
            let (mut a, mut b) = (vec![0u64; 32], vec![0u64; 32]);
            let mut acc = vec![0u128; 32];
            dot_lazy(
                &p,
                &y,
                n,
                16,
                &c,
                lazy_chunk(ymax.value(), p.value()),
                &mut acc,
                &mut a,
            );
            let red = reducer(ymax.value(), &p, k).unwrap();
            dot(&p, &red, &y, n, 16, &c, None, None, &mut b);
            assert_eq!(a, b, "{bits} bits, k = {k}");
            let (mut a0, mut b0) = (vec![0u64; 16], vec![0u64; 16]);
            dot_lazy(&p, &y, n, 0, &c, 1, &mut acc[..16], &mut a0);
            dot(&p, &red, &y, n, 0, &c, None, None, &mut b0);
            assert_eq!(a0, b0);
        }
    }
}
