//! The FastBconv dot product sum_i y_i c_i mod p with AVX2, 8 values per step: the 128-bit products
//! (four `vpmuludq` each) are summed exactly (`arith::avx2::add128`) and reduced once per value
//! (`reduce128`). The AVX2 twin of `dot_ifma`, for any p < 2^62 while the sum stays below 2^128; the
//! scalar twin is `dot::dot_lazy`.

use crate::arith::Modulus;

/// Whether the kernel runs here for target p: the knob allows AVX2 for p (AVX-512 CPUs without
/// IFMA for p run it too), and `terms` products
/// below max(y_max, p) * p plus one addend below 2^64 stay below 2^128.
pub(super) fn available(y_max: u64, p: &Modulus, terms: usize) -> bool {
    crate::arith::avx2_allowed(p) && fits(y_max, p, terms)
}

/// Whether `terms` products below max(y_max, p) * p plus one addend below 2^64 stay below 2^128.
fn fits(y_max: u64, p: &Modulus, terms: usize) -> bool {
    let prod = u128::from(y_max.max(p.value())) * u128::from(p.value());
    (terms as u128)
        .checked_mul(prod)
        .and_then(|s| s.checked_add(1 << 64))
        .is_some()
}

/// out[b] = (sum_i y[i * stride + start + b] c[i] + row[b] c_own + add[b]) mod p, the contract of
/// `dot_ifma::dot` (`add` below 2^64, `own` = (row, c_own)). Returns false, doing nothing, when out.len()
/// is not a multiple of 8, a length does not match, a row lies outside y, or avx2 is missing; the
/// caller checked [`available`] for the value bounds.
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
    if !len.is_multiple_of(8)
        || !super::dot::dot_args_fit(y, stride, start, c, add, own, len)
        || !is_x86_feature_detected!("avx2")
    {
        return false;
    }
    // SAFETY: avx2 was detected; the checks above keep every load inside y, row and add, and every
    // store inside out.
    unsafe {
        if p.bits() > 61 {
            dot_kernel::<true>(p, y, stride, start, c, add, own, out)
        } else {
            dot_kernel::<false>(p, y, stride, start, c, add, own, out)
        }
    }
    true
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)] // a kernel: plain slices and scalars
unsafe fn dot_kernel<const BIG: bool>(
    p: &Modulus,
    y: &[u64],
    stride: usize,
    start: usize,
    c: &[u64],
    add: Option<&[u64]>,
    own: Option<(&[u64], u64)>,
    out: &mut [u64],
) {
    use crate::arith::avx2::{add128, bcast, mul_wide, reduce128, tw_of, Consts};
    use core::arch::x86_64::*;
    let r64 = p.shoup(p.reduce_u128(1 << 64));
    // SAFETY: avx2 is enabled here. Every load and store: v + 8 <= out.len(), and `dot` checked that
    // the rows of y (at i * stride + start), `row` and `add` hold out.len() values.
    unsafe {
        let cst = Consts::new(p.value());
        let (ratio, tw) = (bcast(p.barrett_ratio().1), tw_of(r64.value, r64.quotient));
        let zero = _mm256_setzero_si256();
        let ld = |ptr: *const u64| _mm256_loadu_si256(ptr.cast());
        for v in (0..out.len()).step_by(8) {
            let (mut l0, mut h0, mut l1, mut h1) = (zero, zero, zero, zero);
            // One term: 8 values at `base` times the broadcast constant, added to the two sums.
            macro_rules! term {
                ($base:expr, $cv:expr) => {{
                    let (base, cv) = ($base, $cv);
                    let (p0, q0) = mul_wide(ld(base), cv);
                    let (p1, q1) = mul_wide(ld(base.add(4)), cv);
                    (l0, h0) = add128(l0, h0, p0, q0, &cst);
                    (l1, h1) = add128(l1, h1, p1, q1, &cst);
                }};
            }
            for (i, &ci) in c.iter().enumerate() {
                term!(y.as_ptr().add(i * stride + start + v), bcast(ci));
            }
            if let Some((row, cj)) = own {
                term!(row.as_ptr().add(v), bcast(cj));
            }
            if let Some(a) = add {
                let (a0, a1) = (ld(a.as_ptr().add(v)), ld(a.as_ptr().add(v + 4)));
                (l0, h0) = add128(l0, h0, a0, zero, &cst);
                (l1, h1) = add128(l1, h1, a1, zero, &cst);
            }
            let o = out.as_mut_ptr().add(v);
            _mm256_storeu_si256(o.cast(), reduce128::<BIG>(l0, h0, ratio, &tw, &cst));
            _mm256_storeu_si256(o.add(4).cast(), reduce128::<BIG>(l1, h1, ratio, &tw, &cst));
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;
    use crate::rns::dot::{dot_lazy, lazy_chunk};
    use crate::sample::Csprng;

    /// Against the scalar twin with the extras, random values and the edges y_max - 1, p - 1.
    #[test]
    fn matches_scalar_twin() {
        let mut rng = Csprng::from_seed([3; 32]);
        for (bits, ybits, k) in [
            (30u32, 30u32, 3usize),
            (49, 60, 9),
            (60, 60, 17),
            (61, 61, 30),
            (62, 62, 5),
        ] {
            let p = Modulus::new(crate::arith::ntt_primes(bits, 64, 1, &[]).unwrap()[0]).unwrap();
            let ymax = Modulus::new((1u64 << ybits) - 1).unwrap();
            if !fits(ymax.value(), &p, k + 2) || !is_x86_feature_detected!("avx2") {
                continue;
            }
            let n = 64;
            let mut y: Vec<u64> = (0..k * n).map(|_| rng.uniform_mod(&ymax)).collect();
            y.iter_mut().step_by(3).for_each(|v| *v = ymax.value() - 1);
            let mut c: Vec<u64> = (0..k).map(|_| rng.uniform_mod(&p)).collect();
            c[0] = p.value() - 1;
            let add: Vec<u64> = (0..32)
                .map(|i| if i % 2 == 0 { u64::MAX } else { i })
                .collect();
            let row: Vec<u64> = (0..32).map(|_| p.value() - 1).collect();
            let (mut a, mut b) = (vec![0u64; 32], vec![0u64; 32]);
            let mut acc = vec![0u128; 32];
            let chunk = lazy_chunk(ymax.value(), p.value());
            dot_lazy(&p, &y, n, 16, &c, chunk, &mut acc, &mut a);
            for (i, o) in a.iter_mut().enumerate() {
                *o = p.add(p.add(*o, p.reduce(add[i])), p.mul(row[i], p.value() - 1));
            }
            assert!(dot(
                &p,
                &y,
                n,
                16,
                &c,
                Some(&add),
                Some((&row, p.value() - 1)),
                &mut b
            ));
            assert_eq!(a, b, "{bits} bits, k = {k}");
            assert!(!dot(&p, &y, n, 16, &c, None, None, &mut b[..12]));
        }
    }
}
