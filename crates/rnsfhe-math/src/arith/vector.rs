//! Pointwise modular kernels on slices of residues modulo one [`Modulus`]: the NTT-domain polynomial
//! product `a[i] *= b[i]`, its fused accumulation `acc[i] += a[i] * b[i]`, and the product by one constant
//! with its Shoup quotient.
//!
//! Every kernel has a portable scalar reference ([`Backend::Scalar`], the [`Modulus`] methods) and, on
//! x86_64, AVX-512 versions chosen at run time by CPU detection. The selector is the NTT's
//! [`Backend`] enum: its variants, feature requirements and modulus ranges (IFMA for q < 2^50, AVX-512F for
//! any q < 2^62) are exactly those of these kernels, so [`Backend::is_available`] answers for both.
//! Outputs are in [0, q) and unique, so every backend returns bit-identical results.
//!
//! - **IFMA** (q < 2^50, L = bit length of q): the product P = a * b (< 2^2L) comes from
//!   `vpmadd52{lo,hi}uq` as two 52-bit halves; Barrett's quotient estimate is
//!   floor(floor(P / 2^(L-1)) * mu / 2^52) with mu = floor(2^(51+L) / q) < 2^52, at most 2 short, so the
//!   remainder (computed modulo 2^52) lies in [0, 3q) and two conditional subtractions finish.
//! - **AVX-512F** (q < 2^62): the same Barrett reduction in the 64-bit domain (q1 = floor(P / 2^(L-2)),
//!   mu = floor(2^(62+L) / q)). The 128-bit product takes four 32 x 32-bit `vpmuludq`, the estimate's high
//!   half three (up to 2 short; four, exact, for L = 62), est * q mod 2^64 three; the remainder lies in
//!   [0, 4q) and two conditional subtractions (2q, then q) finish. (`vpmullq` for est * q measured no
//!   faster, so the kernel needs avx512f only.)
//! - **Shoup** (a constant w with its quotient): the lazy product of the NTT kernels, then a correction.
//!
//! The functions without a backend argument pick the fastest kernel measured for the operation
//! ([`mul_backend`], [`shoup_backend`]). They are internal hot-path kernels: preconditions (equal
//! lengths, inputs in [0, q)) are checked by `debug_assert!` only. Violating them never breaks memory
//! safety (the kernels work on the common prefix of the slices) but gives unspecified residues. The
//! `*_with` forms take an explicit backend and check it and the lengths, returning a `Result`.

use super::{Modulus, Shoup};
use crate::ntt::Backend;
use crate::{Error, Result};

/// The backend [`mul_assign`] and [`mul_add_assign`] use for q on this CPU: AVX-512 IFMA for q < 2^50,
/// else AVX-512F, else scalar.
pub fn mul_backend(q: &Modulus) -> Backend {
    [Backend::Avx512Ifma, Backend::Avx512]
        .into_iter()
        .find(|b| b.is_available(q))
        .unwrap_or(Backend::Scalar)
}

/// The backend [`mul_shoup_scalar_assign`] uses for q on this CPU (the same order as [`mul_backend`]).
pub fn shoup_backend(q: &Modulus) -> Backend {
    mul_backend(q)
}

/// `a[i] = a[i] * b[i] mod q` for every i, with the fastest available backend.
///
/// Preconditions (checked by `debug_assert!` only): `a.len() == b.len()`, every input in [0, q).
/// Output in [0, q).
pub fn mul_assign(q: &Modulus, a: &mut [u64], b: &[u64]) {
    debug_assert_eq!(a.len(), b.len());
    debug_assert!(below(q, a) && below(q, b));
    run_mul(mul_backend(q), q, a, b);
}

/// `acc[i] = acc[i] + a[i] * b[i] mod q` for every i, with the fastest available backend.
///
/// Preconditions (checked by `debug_assert!` only): equal lengths, every input in [0, q). Output in
/// [0, q).
pub fn mul_add_assign(q: &Modulus, acc: &mut [u64], a: &[u64], b: &[u64]) {
    debug_assert!(acc.len() == a.len() && a.len() == b.len());
    debug_assert!(below(q, acc) && below(q, a) && below(q, b));
    run_mul_add(mul_backend(q), q, acc, a, b);
}

/// `a[i] = a[i] * w mod q` for every i, for a constant w with its Shoup quotient (from [`Modulus::shoup`]),
/// with the fastest available backend.
///
/// Preconditions (checked by `debug_assert!` only): every `a[i]` in [0, q), `w == q.shoup(w.value)`. Output
/// in [0, q).
pub fn mul_shoup_scalar_assign(q: &Modulus, a: &mut [u64], w: Shoup) {
    debug_assert!(below(q, a));
    debug_assert_eq!(w, q.shoup(w.value));
    run_shoup(shoup_backend(q), q, a, w);
}

/// [`mul_assign`] with an explicit backend (tests, benchmarks). Errors with `InvalidParameters` when the
/// backend is not available for q on this CPU and `LengthMismatch` on unequal lengths; inputs must be in
/// [0, q) (checked by `debug_assert!` only, as in [`mul_assign`]). Output in [0, q).
pub fn mul_assign_with(backend: Backend, q: &Modulus, a: &mut [u64], b: &[u64]) -> Result<()> {
    check(backend, q, a.len(), &[a, b])?;
    run_mul(backend, q, a, b);
    Ok(())
}

/// [`mul_add_assign`] with an explicit backend; errors as [`mul_assign_with`].
pub fn mul_add_assign_with(
    backend: Backend,
    q: &Modulus,
    acc: &mut [u64],
    a: &[u64],
    b: &[u64],
) -> Result<()> {
    check(backend, q, acc.len(), &[acc, a, b])?;
    run_mul_add(backend, q, acc, a, b);
    Ok(())
}

/// [`mul_shoup_scalar_assign`] with an explicit backend; errors as [`mul_assign_with`], and with
/// `InvalidParameters` when `w` is not `q.shoup(w.value)`.
pub fn mul_shoup_scalar_assign_with(
    backend: Backend,
    q: &Modulus,
    a: &mut [u64],
    w: Shoup,
) -> Result<()> {
    check(backend, q, a.len(), &[a])?;
    if w.value >= q.value() || w != q.shoup(w.value) {
        return Err(Error::InvalidParameters(format!(
            "Shoup constant {w:?} is not reduced modulo {}",
            q.value()
        )));
    }
    run_shoup(backend, q, a, w);
    Ok(())
}

/// `out[t] = sum_j a[j][t] * b[j][t] mod q`: the pointwise inner product of key switching, summed lazily
/// and reduced once per element (AVX-512 IFMA for odd q < 2^51 and fewer than 2^10 rows; otherwise one
/// reduced multiply-add per row with the fastest kernel for q). Preconditions (`debug_assert!`): as many a rows as b rows, each at least out.len() long,
/// inputs in [0, q). Output in [0, q).
pub fn inner_product(q: &Modulus, a: &[&[u64]], b: &[&[u64]], out: &mut [u64]) {
    debug_assert_eq!(a.len(), b.len());
    debug_assert!(a.iter().chain(b).all(|r| r.len() >= out.len()));
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if a.len() < 1 << 10
        && super::lazy::usable(q)
        && a.iter().chain(b).all(|r| r.len() >= out.len())
    {
        // SAFETY: `usable` checked the CPU features; the kernel checks the row lengths.
        unsafe { super::lazy::inner_product(q, a, b, out) };
        done = out.len() & !7;
    }
    // Otherwise (and for a tail) one reduced multiply-add per row with the fastest kernel for q.
    let len = out.len() - done;
    let tail = &mut out[done..];
    tail.iter_mut().for_each(|o| *o = 0);
    for (ra, rb) in a.iter().zip(b) {
        mul_add_assign(q, tail, &ra[done..done + len], &rb[done..done + len]);
    }
}

/// `a[i] = a[i] + b[i] mod q` (inputs in [0, q), output in [0, q)); AVX-512F when present.
pub fn add_assign(q: &Modulus, a: &mut [u64], b: &[u64]) {
    debug_assert_eq!(a.len(), b.len());
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx512f") {
        // SAFETY: avx512f was detected.
        unsafe { add_sub_avx512(q.value(), a, b, false) };
        return;
    }
    a.iter_mut().zip(b).for_each(|(x, &y)| *x = q.add(*x, y));
}

/// `a[i] = a[i] - b[i] mod q` (inputs in [0, q), output in [0, q)); AVX-512F when present.
pub fn sub_assign(q: &Modulus, a: &mut [u64], b: &[u64]) {
    debug_assert_eq!(a.len(), b.len());
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx512f") {
        // SAFETY: avx512f was detected.
        unsafe { add_sub_avx512(q.value(), a, b, true) };
        return;
    }
    a.iter_mut().zip(b).for_each(|(x, &y)| *x = q.sub(*x, y));
}

/// `dst[i] = src[i] mod q` for src values below `bound`: a copy when bound <= q, one conditional
/// subtraction (AVX-512F when present) when bound <= 2q, Barrett otherwise. Output in [0, q).
pub fn reduce_into(q: &Modulus, bound: u64, src: &[u64], dst: &mut [u64]) {
    debug_assert_eq!(src.len(), dst.len());
    if bound <= q.value() {
        dst.copy_from_slice(src);
        return;
    }
    if bound / 2 <= q.value() {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx512f") {
            dst.copy_from_slice(src);
            // SAFETY: avx512f was detected; a - 0 + q then min(s, s - q) leaves s mod q for s < 2q.
            unsafe { sub_once_avx512(q.value(), dst) };
            return;
        }
        for (d, &x) in dst.iter_mut().zip(src) {
            *d = if x >= q.value() { x - q.value() } else { x };
        }
        return;
    }
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = q.reduce(x);
    }
}

/// `dst[i]` = the centred representative of `src[i]` modulo `from` (in (-from/2, from/2]), reduced
/// modulo q: the lift of one RNS limb into another, as rescaling and ModDown need. Inputs src < from.
pub fn lift_centered(from: &Modulus, q: &Modulus, src: &[u64], dst: &mut [u64]) {
    debug_assert_eq!(src.len(), dst.len());
    reduce_into(q, from.value(), src, dst);
    // Values above from/2 stand for x - from: subtract from mod q.
    let half = from.value() / 2;
    let c = q.reduce(from.value());
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx512f") {
        // SAFETY: avx512f was detected.
        unsafe { lift_fix_avx512(q.value(), c, half, src, dst) };
        return;
    }
    for (d, &x) in dst.iter_mut().zip(src) {
        if x > half {
            *d = q.sub(*d, c);
        }
    }
}

/// dst[i] = dst[i] - c mod q where src[i] > half.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn lift_fix_avx512(q: u64, c: u64, half: u64, src: &[u64], dst: &mut [u64]) {
    use core::arch::x86_64::*;
    let len = src.len().min(dst.len());
    let main = len & !7;
    let (qv, cv, hv) = (
        _mm512_set1_epi64(q as i64),
        _mm512_set1_epi64(c as i64),
        _mm512_set1_epi64(half as i64),
    );
    for i in (0..main).step_by(8) {
        // SAFETY: i + 8 <= len <= both lengths.
        unsafe {
            let x = _mm512_loadu_si512(src.as_ptr().add(i).cast());
            let d = _mm512_loadu_si512(dst.as_ptr().add(i).cast());
            let s = _mm512_add_epi64(_mm512_sub_epi64(d, cv), qv);
            let r = _mm512_min_epu64(s, _mm512_sub_epi64(s, qv));
            let mask = _mm512_cmpgt_epu64_mask(x, hv);
            _mm512_storeu_si512(
                dst.as_mut_ptr().add(i).cast(),
                _mm512_mask_mov_epi64(d, mask, r),
            );
        }
    }
    for i in main..len {
        if src[i] > half {
            let s = dst[i] + q - c;
            dst[i] = if s >= q { s - q } else { s };
        }
    }
}

/// a[i] = min(a[i], a[i] - q) (unsigned): a[i] mod q for a[i] < 2q.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn sub_once_avx512(q: u64, a: &mut [u64]) {
    use core::arch::x86_64::*;
    let qv = _mm512_set1_epi64(q as i64);
    let main = a.len() & !7;
    for i in (0..main).step_by(8) {
        // SAFETY: i + 8 <= a.len().
        unsafe {
            let x = _mm512_loadu_si512(a.as_ptr().add(i).cast());
            let r = _mm512_min_epu64(x, _mm512_sub_epi64(x, qv));
            _mm512_storeu_si512(a.as_mut_ptr().add(i).cast(), r);
        }
    }
    for x in &mut a[main..] {
        if *x >= q {
            *x -= q;
        }
    }
}

/// s = a + b (or a - b + q), then min(s, s - q) as unsigned: the reduced value (the wrapped one is huge).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn add_sub_avx512(q: u64, a: &mut [u64], b: &[u64], sub: bool) {
    use core::arch::x86_64::*;
    let len = a.len().min(b.len());
    let qv = _mm512_set1_epi64(q as i64);
    let main = len & !7;
    for i in (0..main).step_by(8) {
        // SAFETY: i + 8 <= len <= both lengths.
        unsafe {
            let x = _mm512_loadu_si512(a.as_ptr().add(i).cast());
            let y = _mm512_loadu_si512(b.as_ptr().add(i).cast());
            let s = if sub {
                _mm512_add_epi64(_mm512_sub_epi64(x, y), qv)
            } else {
                _mm512_add_epi64(x, y)
            };
            let r = _mm512_min_epu64(s, _mm512_sub_epi64(s, qv));
            _mm512_storeu_si512(a.as_mut_ptr().add(i).cast(), r);
        }
    }
    for i in main..len {
        let s = if sub { a[i] + q - b[i] } else { a[i] + b[i] };
        a[i] = if s >= q { s - q } else { s };
    }
}

/// A lazy sum of pointwise products modulo q: `mul_add(a, b)` adds a[t] b[t] for every t without
/// reducing (IFMA 52-bit halves for odd q < 2^51, up to 2^10 terms; a reduced multiply-add otherwise),
/// `finish` writes the sum in [0, q). The accumulator of key switching.
pub struct LazySum {
    q: Modulus,
    lo: Vec<u64>,
    hi: Vec<u64>,
    terms: usize,
    ifma: bool,
}

impl LazySum {
    /// A zero sum of n elements modulo q.
    pub fn new(q: &Modulus, n: usize) -> Self {
        #[cfg(target_arch = "x86_64")]
        let ifma = n.is_multiple_of(8) && super::lazy::usable(q);
        #[cfg(not(target_arch = "x86_64"))]
        let ifma = false;
        LazySum {
            q: *q,
            lo: crate::pool::zeroed(n),
            hi: if ifma {
                crate::pool::zeroed(n)
            } else {
                Vec::new()
            },
            terms: 0,
            ifma,
        }
    }

    /// sum += a * b pointwise (inputs in [0, q), lengths n).
    pub fn mul_add(&mut self, a: &[u64], b: &[u64]) {
        debug_assert!(a.len() == self.lo.len() && b.len() == self.lo.len());
        #[cfg(target_arch = "x86_64")]
        if self.ifma {
            if self.terms == (1 << 10) - 1 {
                // Fold the halves back into [0, q) before the high sums could overflow.
                let mut folded = crate::pool::zeroed(self.lo.len());
                // SAFETY: `usable` held at construction.
                unsafe { super::lazy::finish(&self.q, &self.lo, &self.hi, &mut folded) };
                self.hi.iter_mut().for_each(|h| *h = 0);
                crate::pool::recycle(std::mem::replace(&mut self.lo, folded));
                self.terms = 1;
            }
            // SAFETY: `usable` held at construction; the lengths are n, a multiple of 8.
            unsafe { super::lazy::mul_acc(&mut self.lo, &mut self.hi, a, b) };
            self.terms += 1;
            return;
        }
        mul_add_assign(&self.q, &mut self.lo, a, b);
    }

    /// Writes the sum, in [0, q), to `out` (length n).
    pub fn finish(self, out: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if self.ifma {
            // SAFETY: `usable` held at construction; lengths n.
            unsafe { super::lazy::finish(&self.q, &self.lo, &self.hi, out) };
            return;
        }
        out.copy_from_slice(&self.lo);
    }
}

impl Drop for LazySum {
    fn drop(&mut self) {
        crate::pool::recycle(std::mem::take(&mut self.lo));
        crate::pool::recycle(std::mem::take(&mut self.hi));
    }
}

fn below(q: &Modulus, a: &[u64]) -> bool {
    a.iter().all(|&x| x < q.value())
}

fn check(backend: Backend, q: &Modulus, n: usize, slices: &[&[u64]]) -> Result<()> {
    if !backend.is_available(q) {
        return Err(Error::InvalidParameters(format!(
            "vector backend {} is not available for q = {} on this CPU",
            backend.name(),
            q.value()
        )));
    }
    for s in slices {
        if s.len() != n {
            return Err(Error::LengthMismatch {
                what: "vector operand",
                expected: n,
                got: s.len(),
            });
        }
        debug_assert!(below(q, s));
    }
    Ok(())
}

fn run_mul(backend: Backend, q: &Modulus, a: &mut [u64], b: &[u64]) {
    #[cfg(target_arch = "x86_64")]
    if backend != Backend::Scalar && avx512::mul(backend == Backend::Avx512Ifma, q, a, b) {
        return;
    }
    let _ = backend;
    let q = *q;
    a.iter_mut().zip(b).for_each(|(x, &y)| *x = q.mul(*x, y));
}

fn run_mul_add(backend: Backend, q: &Modulus, acc: &mut [u64], a: &[u64], b: &[u64]) {
    #[cfg(target_arch = "x86_64")]
    if backend != Backend::Scalar && avx512::mul_add(backend == Backend::Avx512Ifma, q, acc, a, b) {
        return;
    }
    let _ = backend;
    let q = *q;
    acc.iter_mut()
        .zip(a.iter().zip(b))
        .for_each(|(z, (&x, &y))| *z = q.mul_add(x, y, *z));
}

fn run_shoup(backend: Backend, q: &Modulus, a: &mut [u64], w: Shoup) {
    #[cfg(target_arch = "x86_64")]
    if backend != Backend::Scalar && avx512::shoup(backend == Backend::Avx512Ifma, q, a, w) {
        return;
    }
    let _ = backend;
    let q = *q;
    a.iter_mut().for_each(|x| *x = q.mul_shoup(*x, w));
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    //! The AVX-512 kernels, 8 lanes of u64 per vector; tails run through masked loads and stores.

    use std::arch::x86_64::*;

    use crate::arith::{Modulus, Shoup};
    use crate::ntt::Backend;

    /// Whether the kernel may run for q on this CPU (the features are detected at run time).
    fn supported(q: &Modulus, ifma: bool) -> bool {
        let b = if ifma {
            Backend::Avx512Ifma
        } else {
            Backend::Avx512
        };
        b.is_available(q)
    }

    /// Runs the product kernel on the common prefix of a and b; false (doing nothing) when unsupported.
    pub(super) fn mul(ifma: bool, q: &Modulus, a: &mut [u64], b: &[u64]) -> bool {
        if !supported(q, ifma) {
            return false;
        }
        let n = a.len().min(b.len());
        let c = Barrett::new(q, ifma);
        let (pa, pb) = (a.as_mut_ptr(), b.as_ptr());
        if ifma {
            // SAFETY: avx512f and avx512ifma were detected and q < 2^50 (`supported`); pa and pb hold n
            // elements each.
            unsafe { mul_ifma(&c, pa, pa, pb, n) }
        } else {
            // SAFETY: avx512f was detected and q < 2^62; pa and pb hold n elements each.
            unsafe {
                if c.exact {
                    mul_f::<true>(&c, pa, pa, pb, n)
                } else {
                    mul_f::<false>(&c, pa, pa, pb, n)
                }
            }
        }
        true
    }

    /// Runs the fused multiply-add kernel on the common prefix; false when unsupported.
    pub(super) fn mul_add(ifma: bool, q: &Modulus, acc: &mut [u64], a: &[u64], b: &[u64]) -> bool {
        if !supported(q, ifma) {
            return false;
        }
        let n = acc.len().min(a.len()).min(b.len());
        let c = Barrett::new(q, ifma);
        let (pz, pa, pb) = (acc.as_mut_ptr(), a.as_ptr(), b.as_ptr());
        if ifma {
            // SAFETY: as in `mul`; pz, pa and pb hold n elements each.
            unsafe { mul_add_ifma(&c, pz, pa, pb, n) }
        } else {
            // SAFETY: as in `mul`; pz, pa and pb hold n elements each.
            unsafe {
                if c.exact {
                    mul_add_f::<true>(&c, pz, pa, pb, n)
                } else {
                    mul_add_f::<false>(&c, pz, pa, pb, n)
                }
            }
        }
        true
    }

    /// Runs the Shoup constant-product kernel; false when unsupported.
    pub(super) fn shoup(ifma: bool, q: &Modulus, a: &mut [u64], w: Shoup) -> bool {
        if !supported(q, ifma) {
            return false;
        }
        let n = a.len();
        let pa = a.as_mut_ptr();
        if ifma {
            let wq = ((u128::from(w.value) << 52) / u128::from(q.value())) as u64;
            // SAFETY: avx512f and avx512ifma were detected and q < 2^50; pa holds n elements.
            unsafe { shoup_ifma(q.value(), w.value, wq, pa, n) }
        } else {
            // SAFETY: avx512f was detected and q < 2^62; pa holds n elements.
            unsafe { shoup_f(q.value(), w.value, w.quotient, pa, n) }
        }
        true
    }

    /// Scalar constants of the Barrett kernels for q of bit length L. The quotient estimate is
    /// floor(q1 * mu / 2^W) with q1 = floor(P / 2^s) and mu = floor(2^(W+s) / q), where W is the word
    /// (52 for IFMA, 64 for AVX-512F) and s = L - 1 (IFMA) or L - 2 (AVX-512F).
    struct Barrett {
        q: u64,
        /// floor(2^(W+s) / q) < 2^W, capped at 2^52 - 1 for IFMA (the cap only bites for a power of two q
        /// and keeps the bounds of the kernels).
        mu: u64,
        /// q1 = (hi << shl) + (lo >> shr), with hi the bits of P above W: shr = s, shl = W - s.
        shr: u64,
        shl: u64,
        /// AVX-512F only: the exact high half of q1 * mu is needed (L = 62); below, the 3-product
        /// estimate suffices.
        exact: bool,
    }

    impl Barrett {
        fn new(q: &Modulus, ifma: bool) -> Self {
            let l = u64::from(q.bits());
            let width = if ifma { 52 } else { 64 };
            let cap = if ifma {
                (1u128 << 52) - 1
            } else {
                u128::from(u64::MAX)
            };
            let s = if ifma { l - 1 } else { l.max(2) - 2 };
            let mu = ((1u128 << (width + s)) / u128::from(q.value())).min(cap) as u64;
            Barrett {
                q: q.value(),
                mu,
                shr: s,
                shl: width - s,
                exact: l > 61,
            }
        }
    }

    /// Broadcast constants of the Barrett kernels.
    #[derive(Clone, Copy)]
    struct Vc {
        q: __m512i,
        two_q: __m512i,
        /// 2^64 - q: its low 52 bits are the IFMA kernel's -q.
        neg_q: __m512i,
        q_hi: __m512i,
        mu: __m512i,
        mu_hi: __m512i,
        mask52: __m512i,
        mask32: __m512i,
        /// Per-lane shift counts (`vpsrlvq` is one uop; the shift by an xmm count is two).
        shr: __m512i,
        shl: __m512i,
    }

    impl Vc {
        #[inline(always)]
        unsafe fn new(c: &Barrett) -> Self {
            // SAFETY: only called from the kernels, which run with avx512f enabled.
            unsafe {
                Vc {
                    q: bcast(c.q),
                    two_q: bcast(2 * c.q),
                    neg_q: bcast(c.q.wrapping_neg()),
                    q_hi: bcast(c.q >> 32),
                    mu: bcast(c.mu),
                    mu_hi: bcast(c.mu >> 32),
                    mask52: bcast((1 << 52) - 1),
                    mask32: bcast(u64::from(u32::MAX)),
                    shr: bcast(c.shr),
                    shl: bcast(c.shl),
                }
            }
        }
    }

    #[inline(always)]
    unsafe fn bcast(x: u64) -> __m512i {
        // SAFETY: the caller runs with avx512f.
        unsafe { _mm512_set1_epi64(x as i64) }
    }

    /// Lane mask of the first `k` < 8 lanes.
    #[inline(always)]
    fn tail_mask(k: usize) -> __mmask8 {
        ((1u16 << k) - 1) as __mmask8
    }

    #[inline(always)]
    unsafe fn load(p: *const u64, i: usize, m: __mmask8) -> __m512i {
        // SAFETY: the caller guarantees that the lanes of m at p + i are readable, and avx512f; masked-off
        // lanes are not accessed.
        unsafe { _mm512_maskz_loadu_epi64(m, p.add(i).cast()) }
    }

    #[inline(always)]
    unsafe fn store(p: *mut u64, i: usize, m: __mmask8, v: __m512i) {
        // SAFETY: the caller guarantees that the lanes of m at p + i are writable, and avx512f.
        unsafe { _mm512_mask_storeu_epi64(p.add(i).cast(), m, v) }
    }

    /// Maps [0, 2r) to [0, r) lane-wise: x - r wraps to a huge value when x < r, so the minimum is right.
    #[inline(always)]
    unsafe fn reduce_once(x: __m512i, r: __m512i) -> __m512i {
        // SAFETY: the caller runs with avx512f.
        unsafe { _mm512_min_epu64(x, _mm512_sub_epi64(x, r)) }
    }

    /// The full product a * b as (low, high) 64-bit words, from four 32 x 32-bit products; b_hi = b >> 32.
    #[inline(always)]
    unsafe fn mul_wide(a: __m512i, b: __m512i, b_hi: __m512i, c: &Vc) -> (__m512i, __m512i) {
        // SAFETY: the caller runs with avx512f.
        unsafe {
            let a_hi = _mm512_srli_epi64::<32>(a);
            let ll = _mm512_mul_epu32(a, b);
            let lh = _mm512_mul_epu32(a, b_hi);
            let hl = _mm512_mul_epu32(a_hi, b);
            let hh = _mm512_mul_epu32(a_hi, b_hi);
            // Each sum is at most (2^32 - 1)^2 + 2 (2^32 - 1) < 2^64: no carry is lost.
            let mid = _mm512_add_epi64(lh, _mm512_srli_epi64::<32>(ll));
            let mid2 = _mm512_add_epi64(hl, _mm512_and_si512(mid, c.mask32));
            let hi = _mm512_add_epi64(
                _mm512_add_epi64(hh, _mm512_srli_epi64::<32>(mid)),
                _mm512_srli_epi64::<32>(mid2),
            );
            let lo = _mm512_or_si512(
                _mm512_slli_epi64::<32>(mid2),
                _mm512_and_si512(ll, c.mask32),
            );
            (lo, hi)
        }
    }

    /// a * b mod 2^64 from three 32 x 32-bit products; b_hi = b >> 32.
    #[inline(always)]
    unsafe fn mul_lo(a: __m512i, b: __m512i, b_hi: __m512i) -> __m512i {
        // SAFETY: the caller runs with avx512f.
        unsafe {
            let a_hi = _mm512_srli_epi64::<32>(a);
            let cross = _mm512_add_epi64(_mm512_mul_epu32(a, b_hi), _mm512_mul_epu32(a_hi, b));
            _mm512_add_epi64(_mm512_mul_epu32(a, b), _mm512_slli_epi64::<32>(cross))
        }
    }

    /// floor(a * b / 2^64) - e with e in {0, 1, 2}, from three 32 x 32-bit products; b_hi = b >> 32.
    #[inline(always)]
    unsafe fn mul_hi_approx(a: __m512i, b: __m512i, b_hi: __m512i) -> __m512i {
        // SAFETY: the caller runs with avx512f.
        unsafe {
            let a_hi = _mm512_srli_epi64::<32>(a);
            let hh = _mm512_mul_epu32(a_hi, b_hi);
            let lh = _mm512_srli_epi64::<32>(_mm512_mul_epu32(a, b_hi));
            let hl = _mm512_srli_epi64::<32>(_mm512_mul_epu32(a_hi, b));
            // Dropping a_lo * b_lo and the low halves of the middle column loses less than 3.
            _mm512_add_epi64(_mm512_add_epi64(hh, lh), hl)
        }
    }

    /// P mod q for P = (lo, hi) < 2^2L (AVX-512F); EXACT when L = 62.
    #[inline(always)]
    unsafe fn barrett_f<const EXACT: bool>(lo: __m512i, hi: __m512i, c: &Vc) -> __m512i {
        // SAFETY: the caller runs with avx512f.
        unsafe {
            // q1 = floor(P / 2^(L-2)) < 2^(L+2) <= 2^64.
            let q1 = _mm512_or_si512(_mm512_sllv_epi64(hi, c.shl), _mm512_srlv_epi64(lo, c.shr));
            // q1 * mu / 2^64 > P/q - 1/2 - q1/2^64 (the truncations of q1 and of mu). For L <= 61 that is
            // > floor(P/q) - 1, and the 3-product high half loses at most 2 more: est >= floor(P/q) - 3.
            // For L = 62 the exact high half gives est >= floor(P/q) - 2. Either way r = P - est q lies in
            // [0, 4q) with 4q < 2^64, so it is exact modulo 2^64.
            let est = if EXACT {
                mul_wide(q1, c.mu, c.mu_hi, c).1
            } else {
                mul_hi_approx(q1, c.mu, c.mu_hi)
            };
            let r = _mm512_sub_epi64(lo, mul_lo(est, c.q, c.q_hi));
            reduce_once(reduce_once(r, c.two_q), c.q)
        }
    }

    /// a * b + z mod q for a, b, z in [0, q), q < 2^50 (IFMA); z = 0 for the plain product.
    #[inline(always)]
    unsafe fn mul_add_vec_ifma(a: __m512i, b: __m512i, z: __m512i, c: &Vc) -> __m512i {
        // SAFETY: the caller runs with avx512f and avx512ifma.
        unsafe {
            // P = a b + z = hi 2^52 + lo with lo < 2^52 + q (the carry of z stays in lo), P < 2^2L.
            let lo = _mm512_madd52lo_epu64(z, a, b);
            let hi = _mm512_madd52hi_epu64(_mm512_setzero_si512(), a, b);
            // q1 = floor(P / 2^(L-1)) < 2^(L+1) <= 2^51 (an add: lo >> (L-1) may carry into hi's bits).
            let q1 = _mm512_add_epi64(_mm512_sllv_epi64(hi, c.shl), _mm512_srlv_epi64(lo, c.shr));
            // est = floor(q1 * mu / 2^52) is at most 2 short of floor(P / q); r = P - est q in [0, 3q)
            // with 3q < 2^52, so its low 52 bits are it.
            let est = _mm512_madd52hi_epu64(_mm512_setzero_si512(), q1, c.mu);
            let r = _mm512_and_si512(_mm512_madd52lo_epu64(lo, est, c.neg_q), c.mask52);
            reduce_once(reduce_once(r, c.q), c.q)
        }
    }

    /// a * b mod q for a, b in [0, q), q < 2^62 (AVX-512F); EXACT when L = 62.
    #[inline(always)]
    unsafe fn mul_vec_f<const EXACT: bool>(a: __m512i, b: __m512i, c: &Vc) -> __m512i {
        // SAFETY: the caller runs with avx512f.
        unsafe {
            let (lo, hi) = mul_wide(a, b, _mm512_srli_epi64::<32>(b), c);
            barrett_f::<EXACT>(lo, hi, c)
        }
    }

    /// out[i] = a[i] * b[i] mod q for i < n. Safety: avx512f and avx512ifma, q < 2^50, `c` built for the
    /// IFMA kernel, n elements readable at a and b and writable at out (out may equal a).
    #[target_feature(enable = "avx512f,avx512ifma")]
    unsafe fn mul_ifma(c: &Barrett, out: *mut u64, a: *const u64, b: *const u64, n: usize) {
        // SAFETY: full vectors cover [i, i + 8) with i + 8 <= n, the tail only its k = n - i lanes.
        unsafe {
            let v = Vc::new(c);
            let zero = _mm512_setzero_si512();
            let mut i = 0;
            while i + 8 <= n {
                let r = mul_add_vec_ifma(load(a, i, !0), load(b, i, !0), zero, &v);
                store(out, i, !0, r);
                i += 8;
            }
            if i < n {
                let m = tail_mask(n - i);
                store(
                    out,
                    i,
                    m,
                    mul_add_vec_ifma(load(a, i, m), load(b, i, m), zero, &v),
                );
            }
        }
    }

    /// acc[i] = acc[i] + a[i] * b[i] mod q for i < n; safety as in `mul_ifma` (acc read and written).
    #[target_feature(enable = "avx512f,avx512ifma")]
    unsafe fn mul_add_ifma(c: &Barrett, acc: *mut u64, a: *const u64, b: *const u64, n: usize) {
        // SAFETY: as in `mul_ifma`.
        unsafe {
            let v = Vc::new(c);
            let mut i = 0;
            while i + 8 <= n {
                let z = load(acc, i, !0);
                let r = mul_add_vec_ifma(load(a, i, !0), load(b, i, !0), z, &v);
                store(acc, i, !0, r);
                i += 8;
            }
            if i < n {
                let m = tail_mask(n - i);
                let z = load(acc, i, m);
                store(
                    acc,
                    i,
                    m,
                    mul_add_vec_ifma(load(a, i, m), load(b, i, m), z, &v),
                );
            }
        }
    }

    /// out[i] = a[i] * b[i] mod q for i < n. Safety: avx512f, q < 2^62, `c` built for the AVX-512F kernel,
    /// n elements readable at a and b and writable at out (out may equal a).
    #[target_feature(enable = "avx512f")]
    unsafe fn mul_f<const EXACT: bool>(
        c: &Barrett,
        out: *mut u64,
        a: *const u64,
        b: *const u64,
        n: usize,
    ) {
        // SAFETY: as in `mul_ifma`.
        unsafe {
            let v = Vc::new(c);
            let mut i = 0;
            while i + 8 <= n {
                store(
                    out,
                    i,
                    !0,
                    mul_vec_f::<EXACT>(load(a, i, !0), load(b, i, !0), &v),
                );
                i += 8;
            }
            if i < n {
                let m = tail_mask(n - i);
                store(
                    out,
                    i,
                    m,
                    mul_vec_f::<EXACT>(load(a, i, m), load(b, i, m), &v),
                );
            }
        }
    }

    /// acc[i] = acc[i] + a[i] * b[i] mod q for i < n; safety as in `mul_f` (acc read and written).
    #[target_feature(enable = "avx512f")]
    unsafe fn mul_add_f<const EXACT: bool>(
        c: &Barrett,
        acc: *mut u64,
        a: *const u64,
        b: *const u64,
        n: usize,
    ) {
        // SAFETY: as in `mul_ifma`.
        unsafe {
            let v = Vc::new(c);
            let mut i = 0;
            while i + 8 <= n {
                let r = mul_vec_f::<EXACT>(load(a, i, !0), load(b, i, !0), &v);
                let s = reduce_once(_mm512_add_epi64(load(acc, i, !0), r), v.q);
                store(acc, i, !0, s);
                i += 8;
            }
            if i < n {
                let m = tail_mask(n - i);
                let r = mul_vec_f::<EXACT>(load(a, i, m), load(b, i, m), &v);
                let s = reduce_once(_mm512_add_epi64(load(acc, i, m), r), v.q);
                store(acc, i, m, s);
            }
        }
    }

    /// a[i] = a[i] * w mod q for i < n, a[i] in [0, q), wq = floor(w 2^52 / q). Safety: avx512f and
    /// avx512ifma, q < 2^50, n elements readable and writable at a.
    #[target_feature(enable = "avx512f,avx512ifma")]
    unsafe fn shoup_ifma(q: u64, w: u64, wq: u64, a: *mut u64, n: usize) {
        // SAFETY: as in `mul_ifma`.
        unsafe {
            let (vq, vw, vwq) = (bcast(q), bcast(w), bcast(wq));
            let (neg_q, mask52) = (bcast(q.wrapping_neg()), bcast((1 << 52) - 1));
            let z = _mm512_setzero_si512();
            // y w - floor(y wq / 2^52) q lies in [0, 2q) and 2q < 2^52, so its low 52 bits are it.
            let f = |y: __m512i| {
                let qhat = _mm512_madd52hi_epu64(z, y, vwq);
                let r = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(z, y, vw), qhat, neg_q);
                reduce_once(_mm512_and_si512(r, mask52), vq)
            };
            let mut i = 0;
            while i + 8 <= n {
                store(a, i, !0, f(load(a, i, !0)));
                i += 8;
            }
            if i < n {
                let m = tail_mask(n - i);
                store(a, i, m, f(load(a, i, m)));
            }
        }
    }

    /// a[i] = a[i] * w mod q for i < n with the 64-bit Shoup quotient wq. Safety: avx512f, q < 2^62, n
    /// elements readable and writable at a.
    #[target_feature(enable = "avx512f")]
    unsafe fn shoup_f(q: u64, w: u64, wq: u64, a: *mut u64, n: usize) {
        // SAFETY: as in `mul_ifma`.
        unsafe {
            let (vq, two_q) = (bcast(q), bcast(2 * q));
            let (vw, vwq) = (bcast(w), bcast(wq));
            let (q_hi, w_hi, wq_hi) = (bcast(q >> 32), bcast(w >> 32), bcast(wq >> 32));
            let f = |y: __m512i| {
                // floor(y wq / 2^64) up to 2 short from three products (a_lo b_lo and the middle
                // column's carries dropped), so y w - qhat q lies in [0, 4q) with 4q < 2^64.
                let y_hi = _mm512_srli_epi64::<32>(y);
                let hh = _mm512_mul_epu32(y_hi, wq_hi);
                let lh = _mm512_srli_epi64::<32>(_mm512_mul_epu32(y, wq_hi));
                let hl = _mm512_srli_epi64::<32>(_mm512_mul_epu32(y_hi, vwq));
                let qhat = _mm512_add_epi64(_mm512_add_epi64(hh, lh), hl);
                let r = _mm512_sub_epi64(mul_lo(y, vw, w_hi), mul_lo(qhat, vq, q_hi));
                reduce_once(reduce_once(r, two_q), vq)
            };
            let mut i = 0;
            while i + 8 <= n {
                store(a, i, !0, f(load(a, i, !0)));
                i += 8;
            }
            if i < n {
                let m = tail_mask(n - i);
                store(a, i, m, f(load(a, i, m)));
            }
        }
    }
}
