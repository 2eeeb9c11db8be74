//! The AVX2 additive kernels (see [`crate::arith::vector::add_assign`] and the lifts of
//! [`crate::arith::vector::lift_centered`]): sums, differences, constants added, reductions and the
//! centred lift, each value kept below 2q < 2^63 so that one conditional subtraction finishes.
//!
//! Safety of the `_k` kernels: avx2, and n elements readable at the inputs and writable at the
//! output (which may alias an input: each lane is written after its reads).

use std::arch::x86_64::*;

use super::{load, store, supported};
use crate::arith::avx2::{bcast, reduce64, sub_if_ge, Consts};
use crate::arith::Modulus;

/// a = a + b mod q (or a - b mod q if `sub`) on the common prefix; false without avx2.
pub(in crate::arith::vector) fn add_sub(q: &Modulus, a: &mut [u64], b: &[u64], sub: bool) -> bool {
    let n = a.len().min(b.len());
    let p = a.as_mut_ptr();
    // SAFETY: both slices hold n elements.
    unsafe { add_sub_raw(q, p, p, b.as_ptr(), n, sub) }
}

/// out = a + b (or a - b) mod q on n elements; false without avx2. Safety: n elements readable at
/// a and b and writable at out (out may be a, b may be a: out is written at i after both reads at i).
pub(in crate::arith::vector) unsafe fn add_sub_raw(
    q: &Modulus,
    out: *mut u64,
    a: *const u64,
    b: *const u64,
    n: usize,
    sub: bool,
) -> bool {
    if !supported() {
        return false;
    }
    // SAFETY: avx2 was detected; the caller hands n valid elements at out, a and b.
    unsafe {
        add_sub_k(q.value(), out, a, b, n & !3, sub);
        for i in n & !3..n {
            let (x, y) = (*a.add(i), *b.add(i));
            *out.add(i) = if sub { q.sub(x, y) } else { q.add(x, y) };
        }
    }
    true
}

/// a[i] = a[i] + c mod q (a[i], c in [0, q)); false without avx2.
pub(in crate::arith::vector) fn add_scalar(q: &Modulus, a: &mut [u64], c: u64) -> bool {
    if !supported() {
        return false;
    }
    let n = a.len();
    // SAFETY: avx2 was detected; the kernel touches the first n & !3 elements of a.
    unsafe { add_scalar_k(q.value(), a.as_mut_ptr(), c, n & !3) };
    for x in &mut a[n & !3..] {
        *x = q.add(*x, c);
    }
    true
}

/// a[i] = a[i] - q where a[i] >= q (a[i] < 2q); false without avx2.
pub(in crate::arith::vector) fn sub_once(q: &Modulus, a: &mut [u64]) -> bool {
    if !supported() {
        return false;
    }
    let n = a.len();
    // SAFETY: avx2 was detected; the kernel touches the first n elements of a.
    unsafe { sub_once_k(q.value(), a.as_mut_ptr(), n & !3) };
    for x in &mut a[n & !3..] {
        if *x >= q.value() {
            *x -= q.value();
        }
    }
    true
}

/// dst[i] = src[i] mod q for any u64 src on the common prefix; false without avx2.
pub(in crate::arith::vector) fn reduce(q: &Modulus, src: &[u64], dst: &mut [u64]) -> bool {
    if !supported() {
        return false;
    }
    let n = src.len().min(dst.len());
    let ratio = q.barrett_ratio().1;
    // SAFETY: avx2 was detected; the kernel touches the first n elements of both slices.
    unsafe {
        if q.bits() > 61 {
            reduce_k::<true>(q.value(), ratio, src.as_ptr(), dst.as_mut_ptr(), n & !3)
        } else {
            reduce_k::<false>(q.value(), ratio, src.as_ptr(), dst.as_mut_ptr(), n & !3)
        }
    }
    for i in n & !3..n {
        dst[i] = q.reduce(src[i]);
    }
    true
}

/// dst[i] = dst[i] - c mod q where src[i] > half (values below 2^62); false without avx2.
pub(in crate::arith::vector) fn lift_fix(
    q: &Modulus,
    c: u64,
    half: u64,
    src: &[u64],
    dst: &mut [u64],
) -> bool {
    if !supported() {
        return false;
    }
    let n = src.len().min(dst.len());
    // SAFETY: avx2 was detected; the kernel touches the first n elements of both slices.
    unsafe { lift_fix_k(q.value(), c, half, src.as_ptr(), dst.as_mut_ptr(), n & !3) };
    for i in n & !3..n {
        if src[i] > half {
            dst[i] = q.sub(dst[i], c);
        }
    }
    true
}

/// The centred lift of `lift_centered` in one pass: dst[i] = src[i] mod q (src below `from` < 2^62),
/// minus c = from mod q where src[i] > half; false without avx2. The same bits as `reduce_into`
/// followed by `lift_fix`.
pub(in crate::arith::vector) fn lift(
    q: &Modulus,
    from: u64,
    c: u64,
    half: u64,
    src: &[u64],
    dst: &mut [u64],
) -> bool {
    if !supported() || from >= 1 << 62 || q.bits() > 61 {
        return false;
    }
    let n = src.len().min(dst.len());
    let ratio = q.barrett_ratio().1;
    let (qv, m) = (q.value(), n & !3);
    // SAFETY: avx2 was detected; the kernel touches the first m elements of both slices.
    unsafe {
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        if from / 2 <= qv {
            lift_k::<false>(qv, ratio, c, half, s, d, m)
        } else {
            lift_k::<true>(qv, ratio, c, half, s, d, m)
        }
    }
    for i in m..n {
        let r = q.reduce(src[i]);
        dst[i] = if src[i] > half { q.sub(r, c) } else { r };
    }
    true
}

/// `lift` for i < n (n % 4 == 0), with Barrett (`reduce64`, q < 2^62) when `BARRETT`, else for
/// from <= 2q: there every src >= q is above half = from / 2, so only src <= half < q is kept as it is,
/// and src - c + q < 2q for src < from. Safety: see the module doc.
#[target_feature(enable = "avx2")]
unsafe fn lift_k<const BARRETT: bool>(
    q: u64,
    ratio: u64,
    c: u64,
    half: u64,
    src: *const u64,
    dst: *mut u64,
    n: usize,
) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let m = Consts::new(q);
        let (cv, hv, rv) = (bcast(c), bcast(half), bcast(ratio));
        for i in (0..n).step_by(4) {
            let x = load(src, i);
            let d = if BARRETT {
                reduce64::<false>(x, rv, &m)
            } else {
                x
            };
            let s = _mm256_add_epi64(_mm256_sub_epi64(d, cv), m.q);
            let r = sub_if_ge::<false>(s, m.q, m.q_b, &m);
            let mask = _mm256_cmpgt_epi64(x, hv);
            store(dst, i, _mm256_blendv_epi8(d, r, mask));
        }
    }
}

/// out = s - q where s >= q, for s = a + b (or a - b + q): values below 2q < 2^63. Safety: see the
/// module doc.
#[target_feature(enable = "avx2")]
unsafe fn add_sub_k(q: u64, out: *mut u64, a: *const u64, b: *const u64, n: usize, sub: bool) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let c = Consts::new(q);
        for i in (0..n).step_by(4) {
            let (x, y) = (load(a, i), load(b, i));
            let s = if sub {
                _mm256_add_epi64(_mm256_sub_epi64(x, y), c.q)
            } else {
                _mm256_add_epi64(x, y)
            };
            store(out, i, sub_if_ge::<false>(s, c.q, c.q_b, &c));
        }
    }
}

/// a[i] = a[i] + c, less q where >= q (values below 2q < 2^63), i < n (n % 4 == 0). Safety: see the
/// module doc.
#[target_feature(enable = "avx2")]
unsafe fn add_scalar_k(q: u64, a: *mut u64, c: u64, n: usize) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let k = Consts::new(q);
        let cv = bcast(c);
        for i in (0..n).step_by(4) {
            let s = _mm256_add_epi64(load(a, i), cv);
            store(a, i, sub_if_ge::<false>(s, k.q, k.q_b, &k));
        }
    }
}

/// a[i] mod q for a[i] < 2q, i < n (n % 4 == 0). Safety: see the module doc.
#[target_feature(enable = "avx2")]
unsafe fn sub_once_k(q: u64, a: *mut u64, n: usize) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let c = Consts::new(q);
        for i in (0..n).step_by(4) {
            store(a, i, sub_if_ge::<false>(load(a, i), c.q, c.q_b, &c));
        }
    }
}

/// dst[i] = src[i] mod q, i < n (n % 4 == 0), with ratio = floor(2^64 / q) (see `reduce64`). Safety: see
/// the module doc.
#[target_feature(enable = "avx2")]
unsafe fn reduce_k<const BIG: bool>(q: u64, ratio: u64, src: *const u64, dst: *mut u64, n: usize) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let c = Consts::new(q);
        let rv = bcast(ratio);
        for i in (0..n).step_by(4) {
            store(dst, i, reduce64::<BIG>(load(src, i), rv, &c));
        }
    }
}

/// dst[i] = dst[i] - c mod q where src[i] > half, i < n (n % 4 == 0); every value below 2^62 (signed
/// comparisons). Safety: see the module doc.
#[target_feature(enable = "avx2")]
unsafe fn lift_fix_k(q: u64, c: u64, half: u64, src: *const u64, dst: *mut u64, n: usize) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let m = Consts::new(q);
        let (cv, hv) = (bcast(c), bcast(half));
        for i in (0..n).step_by(4) {
            let (x, d) = (load(src, i), load(dst, i));
            let s = _mm256_add_epi64(_mm256_sub_epi64(d, cv), m.q);
            let r = sub_if_ge::<false>(s, m.q, m.q_b, &m);
            let mask = _mm256_cmpgt_epi64(x, hv);
            store(dst, i, _mm256_blendv_epi8(d, r, mask));
        }
    }
}
