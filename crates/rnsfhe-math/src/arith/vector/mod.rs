//! Pointwise modular kernels on slices of residues modulo one [`Modulus`]: the NTT-domain polynomial
//! product `a[i] *= b[i]`, its fused accumulation `acc[i] += a[i] * b[i]`, and the product by one constant
//! with its Shoup quotient.
//!
//! Every kernel has a portable scalar reference ([`Backend::Scalar`], the [`Modulus`] methods) and, on
//! x86_64, AVX2 and AVX-512 versions chosen at run time by CPU detection within the `RNSFHE_BACKEND`
//! ceiling ([`backend_for`]). The selector is the NTT's [`Backend`] enum: its variants, feature
//! requirements and modulus ranges (IFMA for q < 2^50, AVX-512F and AVX2 for any q < 2^62) are exactly
//! those of these kernels, so [`Backend::is_available`] answers for both.
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
//! - **AVX2** (q < 2^62): the AVX-512F reduction on 4 lanes (`avx2.rs`); AVX2 lacks unsigned 64-bit
//!   compares, so the conditional subtractions test a sign (offset values for L = 62).
//! - **Shoup** (a constant w with its quotient): the lazy product of the NTT kernels, then a correction.
//!
//! The functions without a backend argument pick the fastest kernel measured for the operation
//! ([`mul_backend`], [`shoup_backend`]). They are internal hot-path kernels: preconditions (equal
//! lengths, inputs in [0, q)) are checked by `debug_assert!` only. Violating them never breaks memory
//! safety (the kernels work on the common prefix of the slices) but gives unspecified residues. The
//! `*_with` forms take an explicit backend and check it and the lengths, returning a `Result`.

#[cfg(target_arch = "x86_64")]
use super::avx2_allowed;
use super::{backend_for, Backend, Modulus, Shoup};
use crate::{Error, Result};

/// The backend [`mul_assign`] and [`mul_add_assign`] use for q on this CPU: [`backend_for`]`(q)`, the
/// fastest within the `RNSFHE_BACKEND` ceiling (AVX-512 IFMA for q < 2^50, AVX-512F, AVX2, scalar).
pub fn mul_backend(q: &Modulus) -> Backend {
    backend_for(q)
}

/// The backend [`mul_shoup_scalar_assign`] uses for q on this CPU (the same as [`mul_backend`]).
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
    run_mul(mul_backend(q), q, a, None, b);
}

/// `out[i] = a[i] * b[i] mod q`: [`mul_assign`] out of place, out written without being read (a fresh
/// product without a copy of a), with the fastest available backend.
///
/// Preconditions (checked by `debug_assert!` only): equal lengths, a and b in [0, q). Output in [0, q).
pub fn mul_into(q: &Modulus, a: &[u64], b: &[u64], out: &mut [u64]) {
    debug_assert!(a.len() == out.len() && b.len() == out.len());
    debug_assert!(below(q, a) && below(q, b));
    run_mul(mul_backend(q), q, out, Some(a), b);
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
    run_shoup_add(shoup_backend(q), q, a, None, w, None);
}

/// `dst[i] = src[i] * w mod q`: [`mul_shoup_scalar_assign`] out of place (one read of src, one
/// write of dst), with the fastest available backend.
///
/// Preconditions (checked by `debug_assert!` only): equal lengths, src in [0, q),
/// `w == q.shoup(w.value)`. Output in [0, q).
pub fn mul_shoup_scalar_into(q: &Modulus, src: &[u64], w: Shoup, dst: &mut [u64]) {
    debug_assert_eq!(src.len(), dst.len());
    debug_assert!(below(q, src));
    debug_assert_eq!(w, q.shoup(w.value));
    run_shoup_add(shoup_backend(q), q, dst, Some(src), w, None);
}

/// [`mul_shoup_scalar_into`] with an explicit backend; errors as [`mul_shoup_scalar_assign_with`].
pub fn mul_shoup_scalar_into_with(
    backend: Backend,
    q: &Modulus,
    src: &[u64],
    w: Shoup,
    dst: &mut [u64],
) -> Result<()> {
    check(backend, q, dst.len(), &[src])?;
    check_shoup(q, w)?;
    run_shoup_add(backend, q, dst, Some(src), w, None);
    Ok(())
}

/// `dst[i] = src[i] * w + b[i] mod q` for every i, for a constant w with its Shoup quotient, in one
/// pass with the fastest available backend.
///
/// Preconditions (checked by `debug_assert!` only): equal lengths, inputs in [0, q),
/// `w == q.shoup(w.value)`. Output in [0, q).
pub fn mul_shoup_scalar_add_into(q: &Modulus, src: &[u64], w: Shoup, b: &[u64], dst: &mut [u64]) {
    debug_assert!(src.len() == dst.len() && b.len() == dst.len());
    debug_assert!(below(q, src) && below(q, b));
    debug_assert_eq!(w, q.shoup(w.value));
    run_shoup_add(shoup_backend(q), q, dst, Some(src), w, Some(b));
}

/// `acc[i] = acc[i] + x[i] * w mod q` for every i, for a constant w with its Shoup quotient: the
/// product of one vector by a constant added into another in one pass, with the fastest available
/// backend.
///
/// Preconditions (checked by `debug_assert!` only): equal lengths, inputs in [0, q),
/// `w == q.shoup(w.value)`. Output in [0, q).
pub fn mul_shoup_scalar_acc(q: &Modulus, acc: &mut [u64], x: &[u64], w: Shoup) {
    debug_assert_eq!(acc.len(), x.len());
    debug_assert!(below(q, acc) && below(q, x));
    debug_assert_eq!(w, q.shoup(w.value));
    #[cfg(target_arch = "x86_64")]
    {
        let backend = shoup_backend(q);
        if let Some(ifma) = avx512_kind(backend) {
            if avx512::shoup_acc(ifma, q, acc, x, w) {
                return;
            }
        } else if backend == Backend::Avx2 && avx2::shoup_acc(q, acc, x, w) {
            return;
        }
    }
    (acc.iter_mut().zip(x)).for_each(|(a, &y)| *a = q.add(q.mul_shoup(y, w), *a));
}

/// `acc[i] = acc[i] * w + b[i] mod q` for every i, for a constant w with its Shoup quotient: one step
/// of Horner's rule ([`horner`] for points too large for its small-point step), with the fastest available backend.
///
/// Preconditions (checked by `debug_assert!` only): equal lengths, inputs in [0, q),
/// `w == q.shoup(w.value)`. Output in [0, q).
pub fn mul_shoup_scalar_add_assign(q: &Modulus, acc: &mut [u64], w: Shoup, b: &[u64]) {
    debug_assert_eq!(acc.len(), b.len());
    debug_assert!(below(q, acc) && below(q, b));
    debug_assert_eq!(w, q.shoup(w.value));
    run_shoup_add(shoup_backend(q), q, acc, None, w, Some(b));
}

/// `out[i] = (x[i] wx + y[i] wy + c) mod q` for any x\[i], y\[i] < 2^64 and c in [0, q), with Shoup
/// constants wx, wy (from [`Modulus::shoup`]): one pass for the one-prime ModDown (x_B f q^-1 plus the
/// FastBconv part plus the rounding constant). AVX2 when present. Output in [0, q).
pub fn mul_shoup2_add(
    q: &Modulus,
    (x, wx): (&[u64], Shoup),
    (y, wy): (&[u64], Shoup),
    c: u64,
    out: &mut [u64],
) {
    debug_assert!(x.len() >= out.len() && y.len() >= out.len());
    debug_assert!(wx == q.shoup(wx.value) && wy == q.shoup(wy.value) && c < q.value());
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if avx2_allowed(q) && avx2::shoup2_add(q, (x, wx), (y, wy), c, out) {
        done = out.len() & !3;
    }
    for ((o, &a), &b) in out.iter_mut().zip(x).zip(y).skip(done) {
        *o = q.add(q.add(q.mul_shoup(a, wx), q.mul_shoup(b, wy)), c);
    }
}

/// `out[i] = (x[i] - y[i] + c) w mod q` for x\[i], y\[i], c in [0, q) and a Shoup constant w: the
/// one-prime ModDown with f = 1, (x_B - \[x_p]_B + half) p^-1, with one product instead of two. AVX2 when
/// present. Output in [0, q).
pub fn sub_mul_shoup(q: &Modulus, x: &[u64], y: &[u64], c: u64, w: Shoup, out: &mut [u64]) {
    debug_assert!(x.len() >= out.len() && y.len() >= out.len());
    debug_assert!(below(q, x) && below(q, y) && c < q.value() && w == q.shoup(w.value));
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if avx2_allowed(q) && avx2::sub_mul_shoup(q, x, y, c, w, out) {
        done = out.len() & !3;
    }
    for ((o, &a), &b) in out.iter_mut().zip(x).zip(y).skip(done) {
        *o = q.mul_shoup(q.add(q.sub(a, b), c), w);
    }
}

/// [`mul_assign`] with an explicit backend (tests, benchmarks). Errors with `InvalidParameters` when the
/// backend is not available for q on this CPU and `LengthMismatch` on unequal lengths; inputs must be in
/// [0, q) (checked by `debug_assert!` only, as in [`mul_assign`]). Output in [0, q).
pub fn mul_assign_with(backend: Backend, q: &Modulus, a: &mut [u64], b: &[u64]) -> Result<()> {
    check(backend, q, a.len(), &[a, b])?;
    run_mul(backend, q, a, None, b);
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
    check_shoup(q, w)?;
    run_shoup_add(backend, q, a, None, w, None);
    Ok(())
}

fn check_shoup(q: &Modulus, w: Shoup) -> Result<()> {
    if w.value >= q.value() || w != q.shoup(w.value) {
        return Err(Error::InvalidParameters(format!(
            "Shoup constant {w:?} is not reduced modulo {}",
            q.value()
        )));
    }
    Ok(())
}

/// [`mul_shoup_scalar_add_assign`] with an explicit backend; errors as
/// [`mul_shoup_scalar_assign_with`].
pub fn mul_shoup_scalar_add_assign_with(
    backend: Backend,
    q: &Modulus,
    acc: &mut [u64],
    w: Shoup,
    b: &[u64],
) -> Result<()> {
    check(backend, q, acc.len(), &[acc, b])?;
    check_shoup(q, w)?;
    run_shoup_add(backend, q, acc, None, w, Some(b));
    Ok(())
}

/// `out[t] = sum_j a[j][t] * b[j][t] mod q`: the pointwise inner product of key switching, summed lazily
/// and reduced once per element (AVX-512 IFMA for odd q < 2^51 and fewer than 2^10 rows; AVX-512F, or
/// AVX2, with 128-bit sums while rows * (q - 1)^2 < 2^128; otherwise one
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
    } else if avx512::inner_product(q, a, b, out) {
        done = out.len();
    } else if avx2_allowed(q) && avx2::inner_product(q, a, b, out) {
        done = out.len() & !3;
    }
    // Otherwise (and for a tail) the scalar lazy sums.
    inner_product_scalar(q, a, b, done, &mut out[done..]);
}

/// [`inner_product`] of the rows `a` with two sets of rows, `out0 = sum_j a_j b0_j` and
/// `out1 = sum_j a_j b1_j` (the two parts of a key-switching key), each row of `a` read once where the
/// IFMA kernel runs: the same words as two calls of [`inner_product`].
pub fn inner_product2(
    q: &Modulus,
    a: &[&[u64]],
    (b0, b1): (&[&[u64]], &[&[u64]]),
    out0: &mut [u64],
    out1: &mut [u64],
) {
    #[cfg(target_arch = "x86_64")]
    if a.len() < 1 << 10
        && out0.len() == out1.len()
        && super::lazy::usable(q)
        && a.len() == b0.len()
        && a.len() == b1.len()
        && a.iter().chain(b0).chain(b1).all(|r| r.len() >= out0.len())
    {
        // SAFETY: `usable` checked the CPU features; the kernel checks the row lengths.
        unsafe { super::lazy::inner_product2(q, a, (b0, b1), out0, out1) };
        let done = out0.len() & !7;
        inner_product_scalar(q, a, b0, done, &mut out0[done..]);
        inner_product_scalar(q, a, b1, done, &mut out1[done..]);
        return;
    }
    inner_product(q, a, b0, out0);
    inner_product(q, a, b1, out1);
}

/// The scalar [`inner_product`] of elements offset.. of the rows into `out`: per element, 128-bit sums of
/// up to 15 products (each below 2^124 as q < 2^62) between reductions, one Barrett reduction at the
/// end (the lazy dyadic accumulation of SEAL's key switching), block by block of rows' elements.
fn inner_product_scalar(q: &Modulus, a: &[&[u64]], b: &[&[u64]], offset: usize, out: &mut [u64]) {
    const BLOCK: usize = 64;
    const TERMS: usize = 15;
    let mut acc = [0u128; BLOCK];
    for (bi, ob) in out.chunks_mut(BLOCK).enumerate() {
        let (start, len) = (offset + bi * BLOCK, ob.len());
        let acc = &mut acc[..len];
        acc.iter_mut().for_each(|s| *s = 0);
        for (j, (ra, rb)) in a.iter().zip(b).enumerate() {
            if j > 0 && j % TERMS == 0 {
                acc.iter_mut()
                    .for_each(|s| *s = u128::from(q.reduce_u128(*s)));
            }
            let (ra, rb) = (&ra[start..start + len], &rb[start..start + len]);
            for ((s, &x), &y) in acc.iter_mut().zip(ra).zip(rb) {
                *s += u128::from(x) * u128::from(y);
            }
        }
        for (o, &s) in ob.iter_mut().zip(acc.iter()) {
            *o = q.reduce_u128(s);
        }
    }
}

/// A lazy sum of pointwise products modulo q: `mul_add(a, b)` adds a\[t] b\[t] for every t without
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

/// a[i] = x[i] b[i] mod q on `backend`, x = `src` or a itself; the scalar loops are the reference.
fn run_mul(backend: Backend, q: &Modulus, a: &mut [u64], src: Option<&[u64]>, b: &[u64]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(ifma) = avx512_kind(backend) {
        if avx512::mul(ifma, q, a, src, b) {
            return;
        }
    } else if backend == Backend::Avx2 && avx2::mul(q, a, src, b) {
        return;
    }
    let q = *q;
    match src {
        None => a.iter_mut().zip(b).for_each(|(x, &y)| *x = q.mul(*x, y)),
        Some(src) => (a.iter_mut().zip(src).zip(b)).for_each(|((o, &x), &y)| *o = q.mul(x, y)),
    }
}

fn run_mul_add(backend: Backend, q: &Modulus, acc: &mut [u64], a: &[u64], b: &[u64]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(ifma) = avx512_kind(backend) {
        if avx512::mul_add(ifma, q, acc, a, b) {
            return;
        }
    } else if backend == Backend::Avx2 && avx2::mul_add(q, acc, a, b) {
        return;
    }
    let q = *q;
    acc.iter_mut()
        .zip(a.iter().zip(b))
        .for_each(|(z, (&x, &y))| *z = q.mul_add(x, y, *z));
}

/// a[i] = x[i] w (+ b[i]) mod q on `backend`, x = `src` or a itself; the scalar loops are the
/// reference.
fn run_shoup_add(
    backend: Backend,
    q: &Modulus,
    a: &mut [u64],
    src: Option<&[u64]>,
    w: Shoup,
    b: Option<&[u64]>,
) {
    #[cfg(target_arch = "x86_64")]
    if let Some(ifma) = avx512_kind(backend) {
        if avx512::shoup(ifma, q, a, src, w, b) {
            return;
        }
    } else if backend == Backend::Avx2 && avx2::shoup(q, a, src, w, b) {
        return;
    }
    let q = *q;
    if let Some(src) = src {
        a.iter_mut().zip(src).for_each(|(y, &x)| *y = x);
    }
    match b {
        None => a.iter_mut().for_each(|x| *x = q.mul_shoup(*x, w)),
        Some(b) => (a.iter_mut().zip(b)).for_each(|(x, &y)| *x = q.add(q.mul_shoup(*x, w), y)),
    }
}

/// Some(true) for the IFMA kernels, Some(false) for AVX-512F, None for the others.
fn avx512_kind(backend: Backend) -> Option<bool> {
    match backend {
        Backend::Avx512Ifma => Some(true),
        Backend::Avx512 => Some(false),
        _ => None,
    }
}

mod additive;
mod horner;
mod small_point;
pub use additive::{
    add_assign, add_into, add_scalar_assign, double_assign, lift_centered, reduce_into,
    reduce_signed_into, sub_assign, sub_into,
};
pub use horner::{horner, horner_with};

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
