//! Additive kernels: `a += b`, `a += a`, `a -= b`, the reduction of values below a bound, and the
//! centred lift of one RNS limb into another (rescaling, ModDown); AVX-512F or AVX2 when present,
//! each with its scalar loop beside it.

#[cfg(target_arch = "x86_64")]
use super::avx2;
#[cfg(target_arch = "x86_64")]
use super::avx2_allowed;
use super::{backend_for, Backend, Modulus};

/// `a[i] = a[i] + b[i] mod q` (inputs in [0, q), output in [0, q)); AVX-512F or AVX2 when present.
pub fn add_assign(q: &Modulus, a: &mut [u64], b: &[u64]) {
    debug_assert_eq!(a.len(), b.len());
    #[cfg(target_arch = "x86_64")]
    if avx512f(q) {
        // SAFETY: avx512f was detected.
        unsafe { add_sub_avx512(q.value(), a, b, false) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if avx2_allowed(q) && avx2::add_sub(q, a, b, false) {
        return;
    }
    a.iter_mut().zip(b).for_each(|(x, &y)| *x = q.add(*x, y));
}

/// `a[i] = a[i] + a[i] mod q`: [`add_assign`]'s kernel with both operands at `a` (Lattigo's in-place
/// `Add(s, s, s)`, which safe Rust cannot alias). Inputs in [0, q), output in [0, q).
pub fn double_assign(q: &Modulus, a: &mut [u64]) {
    let (n, p) = (a.len(), a.as_mut_ptr());
    #[cfg(target_arch = "x86_64")]
    if avx512f(q) {
        // SAFETY: avx512f was detected; p holds n elements, read and written through p only.
        unsafe { add_sub_avx512_raw(q.value(), p, p, p, n, false) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: p holds n elements, read and written through p only.
    if avx2_allowed(q) && unsafe { avx2::add_sub_raw(q, p, p, p, n, false) } {
        return;
    }
    let _ = (n, p);
    a.iter_mut().for_each(|x| *x = q.add(*x, *x));
}

/// `out[i] = a[i] + b[i] mod q`: [`add_assign`] out of place, out written without being read (a
/// fresh output without its copy of a). Inputs in [0, q), output in [0, q); AVX-512F or AVX2 when present.
pub fn add_into(q: &Modulus, a: &[u64], b: &[u64], out: &mut [u64]) {
    add_sub_into(q, a, b, out, false);
}

/// `out[i] = a[i] - b[i] mod q`: [`sub_assign`] out of place (see [`add_into`]).
pub fn sub_into(q: &Modulus, a: &[u64], b: &[u64], out: &mut [u64]) {
    add_sub_into(q, a, b, out, true);
}

fn add_sub_into(q: &Modulus, a: &[u64], b: &[u64], out: &mut [u64], sub: bool) {
    debug_assert!(a.len() == out.len() && b.len() == out.len());
    let n = out.len().min(a.len()).min(b.len());
    #[cfg(target_arch = "x86_64")]
    if avx512f(q) {
        // SAFETY: avx512f was detected; the three slices hold n elements, out apart from a and b.
        unsafe { add_sub_avx512_raw(q.value(), out.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n, sub) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the three slices hold n elements, out apart from a and b.
    if avx2_allowed(q)
        && unsafe { avx2::add_sub_raw(q, out.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n, sub) }
    {
        return;
    }
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = if sub { q.sub(x, y) } else { q.add(x, y) };
    }
}

/// `a[i] = a[i] + c mod q` for one constant c (inputs and c in [0, q), output in [0, q)); AVX-512F or
/// AVX2 when present.
pub fn add_scalar_assign(q: &Modulus, a: &mut [u64], c: u64) {
    debug_assert!(c < q.value());
    #[cfg(target_arch = "x86_64")]
    if avx512f(q) {
        // SAFETY: avx512f was detected.
        unsafe { add_scalar_avx512(q.value(), a, c) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if avx2_allowed(q) && avx2::add_scalar(q, a, c) {
        return;
    }
    a.iter_mut().for_each(|x| *x = q.add(*x, c));
}

/// `a[i] = a[i] - b[i] mod q` (inputs in [0, q), output in [0, q)); AVX-512F or AVX2 when present.
pub fn sub_assign(q: &Modulus, a: &mut [u64], b: &[u64]) {
    debug_assert_eq!(a.len(), b.len());
    #[cfg(target_arch = "x86_64")]
    if avx512f(q) {
        // SAFETY: avx512f was detected.
        unsafe { add_sub_avx512(q.value(), a, b, true) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if avx2_allowed(q) && avx2::add_sub(q, a, b, true) {
        return;
    }
    a.iter_mut().zip(b).for_each(|(x, &y)| *x = q.sub(*x, y));
}

/// `dst[i] = src[i] mod q` for src values below `bound`: a copy when bound <= q, one conditional
/// subtraction (AVX-512F or AVX2 when present) when bound <= 2q, Barrett otherwise (AVX2 when present). Output in [0, q).
pub fn reduce_into(q: &Modulus, bound: u64, src: &[u64], dst: &mut [u64]) {
    debug_assert_eq!(src.len(), dst.len());
    if bound <= q.value() {
        dst.copy_from_slice(src);
        return;
    }
    if bound / 2 <= q.value() {
        #[cfg(target_arch = "x86_64")]
        if avx512f(q) {
            dst.copy_from_slice(src);
            // SAFETY: avx512f was detected; a - 0 + q then min(s, s - q) leaves s mod q for s < 2q.
            unsafe { sub_once_avx512(q.value(), dst) };
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if avx2_allowed(q) {
            dst.copy_from_slice(src);
            if avx2::sub_once(q, dst) {
                return;
            }
        }
        for (d, &x) in dst.iter_mut().zip(src) {
            *d = if x >= q.value() { x - q.value() } else { x };
        }
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if avx2_allowed(q) && avx2::reduce(q, src, dst) {
        return;
    }
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = q.reduce(x);
    }
}

/// `dst[i] = src[i] mod q` for signed values with |src\[i]| <= `max_abs`: a negative value becomes
/// value + q by a mask (branch-free, vectorisable) when max_abs < q, Barrett per value otherwise.
pub fn reduce_signed_into(q: &Modulus, max_abs: u64, src: &[i64], dst: &mut [u64]) {
    debug_assert_eq!(src.len(), dst.len());
    let qv = q.value();
    if max_abs < qv {
        #[cfg(target_arch = "x86_64")]
        if avx512f(q) {
            // SAFETY: avx512f was detected.
            unsafe { signed_small_avx512(qv, src, dst) };
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if avx2_allowed(q) {
            // SAFETY: `avx2_allowed` checked the CPU's avx2.
            unsafe { signed_small_avx2(qv, src, dst) };
            return;
        }
        signed_small(qv, src, dst);
    } else {
        for (d, &c) in dst.iter_mut().zip(src) {
            *d = q.reduce_i64(c);
        }
    }
}

/// The small case of [`reduce_signed_into`]: x + q where x < 0 (|x| < q), by the sign mask. One body
/// for every backend: the wrappers below only let the compiler vectorise it with wider registers, so
/// their bits are this loop's.
#[inline(always)]
fn signed_small(qv: u64, src: &[i64], dst: &mut [u64]) {
    for (d, &c) in dst.iter_mut().zip(src) {
        *d = (c as u64).wrapping_add(qv & ((c >> 63) as u64));
    }
}

/// [`signed_small`] compiled for AVX-512F (8 lanes: `vpsraq`, `vpandq`, `vpaddq`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn signed_small_avx512(qv: u64, src: &[i64], dst: &mut [u64]) {
    signed_small(qv, src, dst);
}

/// [`signed_small`] compiled for AVX2 (4 lanes).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn signed_small_avx2(qv: u64, src: &[i64], dst: &mut [u64]) {
    signed_small(qv, src, dst);
}

/// `dst[i]` = the centred representative of `src[i]` modulo `from` (in (-from/2, from/2]), reduced
/// modulo q: the lift of one RNS limb into another, as rescaling and ModDown need. Inputs src < from.
pub fn lift_centered(from: &Modulus, q: &Modulus, src: &[u64], dst: &mut [u64]) {
    debug_assert_eq!(src.len(), dst.len());
    // Values above from/2 stand for x - from: subtract from mod q.
    let half = from.value() / 2;
    let c = q.reduce(from.value());
    #[cfg(target_arch = "x86_64")]
    if !avx512f(q)
        && backend_for(q) == Backend::Avx2
        && avx2::lift(q, from.value(), c, half, src, dst)
    {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    let simd = avx512f(q) || avx2_allowed(q);
    #[cfg(not(target_arch = "x86_64"))]
    let simd = false;
    if !simd {
        // Scalar: one pass, the reduction and the fix per element, branch-free (the fix is taken for
        // half of the inputs: a branch there mispredicts), one loop per reduction.
        let (f, qv) = (from.value(), q.value());
        if f <= qv {
            lift_scalar(qv, c, half, src, dst, |x| x);
        } else if f / 2 <= qv {
            lift_scalar(qv, c, half, src, dst, |x| x.min(x.wrapping_sub(qv)));
        } else {
            lift_scalar(qv, c, half, src, dst, |x| q.reduce(x));
        }
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if avx512f(q) && from.value() / 2 <= q.value() {
        // SAFETY: avx512f was detected; src < from <= 2q + 1.
        unsafe { lift_avx512(q.value(), c, half, src, dst) };
        return;
    }
    reduce_into(q, from.value(), src, dst);
    #[cfg(target_arch = "x86_64")]
    if avx512f(q) {
        // SAFETY: avx512f was detected.
        unsafe { lift_fix_avx512(q.value(), c, half, src, dst) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if avx2_allowed(q) && avx2::lift_fix(q, c, half, src, dst) {
        return;
    }
    for (d, &x) in dst.iter_mut().zip(src) {
        if x > half {
            *d = q.sub(*d, c);
        }
    }
}

/// `dst[i]` = `reduce(src[i])`, less c modulo q where src[i] > half: [`lift_centered`]'s scalar loop,
/// with min(x, x - m) and a mask instead of compare-and-branch.
#[inline(always)]
fn lift_scalar(
    qv: u64,
    c: u64,
    half: u64,
    src: &[u64],
    dst: &mut [u64],
    reduce: impl Fn(u64) -> u64,
) {
    for (d, &x) in dst.iter_mut().zip(src) {
        let r = reduce(x);
        let s = r.wrapping_sub(c);
        let s = s.min(s.wrapping_add(qv));
        let m = 0u64.wrapping_sub(u64::from(x > half));
        *d = r ^ ((r ^ s) & m);
    }
}

/// Whether the AVX-512F kernels may run for q (the CPU has them and the knob allows them).
#[cfg(target_arch = "x86_64")]
fn avx512f(q: &Modulus) -> bool {
    crate::arith::avx512_allowed(q)
}

/// [`lift_centered`] in one pass for src below 2q: r = min(x, x - q) (unsigned), then r - c mod q
/// where x > half.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn lift_avx512(q: u64, c: u64, half: u64, src: &[u64], dst: &mut [u64]) {
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
            let r = _mm512_min_epu64(x, _mm512_sub_epi64(x, qv));
            let s = _mm512_add_epi64(_mm512_sub_epi64(r, cv), qv);
            let s = _mm512_min_epu64(s, _mm512_sub_epi64(s, qv));
            let mask = _mm512_cmpgt_epu64_mask(x, hv);
            _mm512_storeu_si512(
                dst.as_mut_ptr().add(i).cast(),
                _mm512_mask_mov_epi64(r, mask, s),
            );
        }
    }
    for i in main..len {
        let x = src[i];
        let r = if x >= q { x - q } else { x };
        dst[i] = if x > half {
            let s = r + q - c;
            if s >= q {
                s - q
            } else {
                s
            }
        } else {
            r
        };
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

/// a[i] = a[i] + c mod q: s = a + c, then min(s, s - q) as unsigned.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn add_scalar_avx512(q: u64, a: &mut [u64], c: u64) {
    use core::arch::x86_64::*;
    let (qv, cv) = (_mm512_set1_epi64(q as i64), _mm512_set1_epi64(c as i64));
    let main = a.len() & !7;
    for i in (0..main).step_by(8) {
        // SAFETY: i + 8 <= a.len().
        unsafe {
            let s = _mm512_add_epi64(_mm512_loadu_si512(a.as_ptr().add(i).cast()), cv);
            let r = _mm512_min_epu64(s, _mm512_sub_epi64(s, qv));
            _mm512_storeu_si512(a.as_mut_ptr().add(i).cast(), r);
        }
    }
    for x in &mut a[main..] {
        let s = *x + c;
        *x = if s >= q { s - q } else { s };
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

/// a = a + b (or a - b) mod q on the common prefix.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn add_sub_avx512(q: u64, a: &mut [u64], b: &[u64], sub: bool) {
    let len = a.len().min(b.len());
    let p = a.as_mut_ptr();
    // SAFETY: both slices hold len elements.
    unsafe { add_sub_avx512_raw(q, p, p, b.as_ptr(), len, sub) }
}

/// out = a + b (or a - b) mod q: s = a + b (or a - b + q), then min(s, s - q) as unsigned, the
/// reduced value (the wrapped one is huge). Safety: avx512f; len elements readable at a and b and
/// writable at out (out may be a, b may be a; out is written at i after a and b are read at i).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn add_sub_avx512_raw(
    q: u64,
    out: *mut u64,
    a: *const u64,
    b: *const u64,
    len: usize,
    sub: bool,
) {
    use core::arch::x86_64::*;
    let qv = _mm512_set1_epi64(q as i64);
    let main = len & !7;
    for i in (0..main).step_by(8) {
        // SAFETY: i + 8 <= len.
        unsafe {
            let x = _mm512_loadu_si512(a.add(i).cast());
            let y = _mm512_loadu_si512(b.add(i).cast());
            let s = if sub {
                _mm512_add_epi64(_mm512_sub_epi64(x, y), qv)
            } else {
                _mm512_add_epi64(x, y)
            };
            let r = _mm512_min_epu64(s, _mm512_sub_epi64(s, qv));
            _mm512_storeu_si512(out.add(i).cast(), r);
        }
    }
    for i in main..len {
        // SAFETY: i < len.
        unsafe {
            let (x, y) = (*a.add(i), *b.add(i));
            let s = if sub { x + q - y } else { x + y };
            *out.add(i) = if s >= q { s - q } else { s };
        }
    }
}
