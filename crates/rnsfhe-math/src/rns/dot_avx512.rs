//! The FastBconv dot product sum_i y_i c_i mod p with AVX-512F, 16 values per step (two vectors of 8):
//! each product's 32 x 32-bit pieces summed in columns (`arith::wide512::Sum128`), one 128-bit
//! reduction per value (`Reduce128`). The AVX-512 twin of `dot_avx2` for the primes the IFMA kernel
//! (`dot_ifma`, p < 2^51) cannot take: any p < 2^62 while the sum stays below 2^128. Scalar twin:
//! `dot::dot_lazy`.

use crate::arith::Modulus;

/// Whether the kernel runs here for target p: the knob allows AVX-512F for p, and `terms` products below
/// max(y_max, p) * p plus one addend below 2^64 fit the column sums.
pub(super) fn available(y_max: u64, p: &Modulus, terms: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        crate::arith::avx512_allowed(p)
            && crate::arith::wide512::fits(y_max.max(p.value()), p.value(), terms)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (y_max, p, terms);
        false
    }
}

/// out[b] = (sum_i y[i * stride + start + b] c[i] + row[b] c_own + add[b]) mod p, the contract of
/// `dot_avx2::dot` for any out.len() (`add` below 2^64, `own` = (row, c_own), row below p). Returns false,
/// doing nothing, when a length does not match, a row lies outside y, or avx512f is missing; the caller
/// checked [`available`] for the value bounds.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)] // a kernel: plain slices and scalars
pub(super) fn dot(
    p: &Modulus,
    y: &[u64],
    stride: usize,
    start: usize,
    c: &[u64],
    add: Option<&[u64]>,
    own: Option<(&[u64], u64)>,
    out: &mut [u64],
) -> bool {
    let len = out.len();
    if !super::dot::dot_args_fit(y, stride, start, c, add, own, len)
        || !crate::arith::Backend::Avx512.is_supported()
    {
        return false;
    }
    // SAFETY: avx512f and avx512dq were detected (`Backend::Avx512`); the checks above keep every
    // load inside y, row and add, and every store inside out.
    unsafe { dot_kernel(p, y, stride, start, c, add, own, out) };
    true
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq")]
#[allow(clippy::too_many_arguments)] // a kernel: plain slices and scalars
unsafe fn dot_kernel(
    p: &Modulus,
    y: &[u64],
    stride: usize,
    start: usize,
    c: &[u64],
    add: Option<&[u64]>,
    own: Option<(&[u64], u64)>,
    out: &mut [u64],
) {
    use crate::arith::wide512::{Reduce128, Sum128};
    use core::arch::x86_64::*;
    let red = Reduce128::new(p);
    let len = out.len();
    let bc = |x: u64| {
        (
            _mm512_set1_epi64(x as i64),
            _mm512_set1_epi64((x >> 32) as i64),
        )
    };
    let cs: Vec<(__m512i, __m512i)> = c.iter().map(|&ci| bc(ci)).collect();
    let own = own.map(|(row, cj)| (row, bc(cj)));
    // Lanes of m at ptr (masked lanes are neither read nor written).
    let ld = |ptr: *const u64, m: __mmask8| {
        // SAFETY: the caller keeps the lanes of m inside the slice behind ptr (see `dot`).
        unsafe { _mm512_maskz_loadu_epi64(m, ptr.cast()) }
    };
    // The own row's product and the addend of the values v..v + 8 (lanes m).
    let extras = |v: usize, m: __mmask8, s: &mut Sum128| {
        if let Some((row, (cv, cv_hi))) = own {
            // SAFETY: row.len() == len and the lanes of m lie below len.
            let x = ld(unsafe { row.as_ptr().add(v) }, m);
            s.add_product(x, _mm512_srli_epi64::<32>(x), cv, cv_hi);
        }
        if let Some(a) = add {
            // SAFETY: a.len() == len and the lanes of m lie below len.
            s.add_word(ld(unsafe { a.as_ptr().add(v) }, m));
        }
    };
    let mut v = 0;
    while v + 16 <= len {
        let (mut s0, mut s1) = (Sum128::zero(), Sum128::zero());
        // Two independent sums: the column additions of one overlap the products of the other.
        for (i, &(cv, cv_hi)) in cs.iter().enumerate() {
            // SAFETY: i * stride + start + v + 16 <= y.len() (checked by `dot`).
            let base = unsafe { y.as_ptr().add(i * stride + start + v) };
            let (x0, x1) = (ld(base, !0), ld(base.wrapping_add(8), !0));
            s0.add_product(x0, _mm512_srli_epi64::<32>(x0), cv, cv_hi);
            s1.add_product(x1, _mm512_srli_epi64::<32>(x1), cv, cv_hi);
        }
        for (w, s) in [(v, &mut s0), (v + 8, &mut s1)] {
            extras(w, !0, s);
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
        for (i, &(cv, cv_hi)) in cs.iter().enumerate() {
            // SAFETY: i * stride + start + len <= y.len() and the lanes of m lie below len - v.
            let x = ld(unsafe { y.as_ptr().add(i * stride + start + v) }, m);
            s.add_product(x, _mm512_srli_epi64::<32>(x), cv, cv_hi);
        }
        extras(v, m, &mut s);
        let (lo, hi) = s.words();
        // SAFETY: the lanes of m lie below len.
        unsafe { _mm512_mask_storeu_epi64(out.as_mut_ptr().add(v).cast(), m, red.reduce(lo, hi)) };
        v += k;
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;
    use crate::rns::dot::{dot_lazy, lazy_chunk};
    use crate::sample::Csprng;

    /// Against the scalar twin with and without the extras: random values and the edges 0, y_max - 1,
    /// p - 1, addends 2^64 - 1; lengths 0, 5, 16, 37 and 64 (tails after 8 and 16 lanes).
    #[test]
    fn matches_scalar_twin() {
        let test = "rns::dot_avx512::matches_scalar_twin";
        if !crate::skip::runs(crate::arith::Backend::Avx512, test) {
            return;
        }
        let mut rng = Csprng::from_seed([4; 32]);
        for (bits, ybits, k) in [
            (30u32, 30u32, 3usize),
            (49, 60, 9),
            (60, 60, 17),
            (61, 61, 30),
            (62, 62, 5),
        ] {
            let p = Modulus::new(crate::arith::ntt_primes(bits, 64, 1, &[]).unwrap()[0]).unwrap();
            let ymax = Modulus::new((1u64 << ybits) - 1).unwrap();
            assert!(crate::arith::wide512::fits(
                ymax.value().max(p.value()),
                p.value(),
                k + 2
            ));
            let n = 80;
            let mut y: Vec<u64> = (0..k * n).map(|_| rng.uniform_mod(&ymax)).collect();
            y.iter_mut().step_by(3).for_each(|v| *v = ymax.value() - 1);
            y.iter_mut().skip(1).step_by(7).for_each(|v| *v = 0);
            let mut c: Vec<u64> = (0..k).map(|_| rng.uniform_mod(&p)).collect();
            c[0] = p.value() - 1;
            for len in [0usize, 5, 16, 37, 64] {
                let add: Vec<u64> = (0..len as u64)
                    .map(|i| if i % 2 == 0 { u64::MAX } else { i })
                    .collect();
                let row: Vec<u64> = (0..len).map(|i| p.value() - 1 - (i % 2) as u64).collect();
                for extras in [false, true] {
                    let (mut a, mut b) = (vec![0u64; len], vec![u64::MAX; len]);
                    let mut acc = vec![0u128; len];
                    let chunk = lazy_chunk(ymax.value(), p.value());
                    dot_lazy(&p, &y, n, 16, &c, chunk, &mut acc, &mut a);
                    let (add, own) = if extras {
                        for (i, o) in a.iter_mut().enumerate() {
                            *o = p.add(p.add(*o, p.reduce(add[i])), p.mul(row[i], p.value() - 1));
                        }
                        (Some(&add[..]), Some((&row[..], p.value() - 1)))
                    } else {
                        (None, None)
                    };
                    assert!(dot(&p, &y, n, 16, &c, add, own, &mut b));
                    assert_eq!(a, b, "{bits} bits, k = {k}, len = {len}, extras {extras}");
                }
            }
            // A row past the end of y is refused.
            assert!(!dot(&p, &y, n, n - 8, &c, None, None, &mut [0u64; 16]));
        }
    }
}
