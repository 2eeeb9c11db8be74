//! The AVX2 kernels, 4 lanes of u64 per vector (building blocks in [`crate::arith::avx2`]); tails of fewer
//! than 4 elements run the scalar [`Modulus`] methods, which give the same unique results.
//!
//! Products: the Barrett reduction of the AVX-512F kernel (`avx512::Barrett`, q1 = floor(P / 2^(L-2)),
//! mu = floor(2^(62+L) / q)) with the 128-bit product from four `vpmuludq`, the estimate's high half from
//! three (four, exact, for L = 62) and est * q mod 2^64 from three; the remainder lies in [0, 4q) and two
//! conditional subtractions finish. Shoup: the NTT's lazy product and one subtraction.

use std::arch::x86_64::*;

use super::avx512::Barrett;
use super::small_point::SmallPoint;
use crate::arith::avx2::{
    barrett_word, bcast, hi32, mul32, mul_hi_approx, mul_lazy, mul_lo, mul_wide, reduce64,
    sub_if_ge, tw_of, Consts,
};
use crate::arith::{Modulus, Shoup};

mod inner;
pub(super) use inner::inner_product;

/// Whether the AVX2 kernels may run on this CPU.
fn supported() -> bool {
    is_x86_feature_detected!("avx2")
}

#[inline(always)]
unsafe fn load(p: *const u64, i: usize) -> __m256i {
    // SAFETY: the caller guarantees 4 readable u64 at p + i and avx2.
    unsafe { _mm256_loadu_si256(p.add(i).cast()) }
}

#[inline(always)]
unsafe fn store(p: *mut u64, i: usize, v: __m256i) {
    // SAFETY: the caller guarantees 4 writable u64 at p + i and avx2.
    unsafe { _mm256_storeu_si256(p.add(i).cast(), v) }
}

/// Broadcast Barrett constants.
struct Vc {
    m: Consts,
    mu: __m256i,
    shr: __m256i,
    shl: __m256i,
}

impl Vc {
    #[inline(always)]
    unsafe fn new(c: &Barrett) -> Self {
        // SAFETY: only called from the kernels, which run with avx2.
        unsafe {
            Vc {
                m: Consts::new(c.q),
                mu: bcast(c.mu),
                shr: bcast(c.shr),
                shl: bcast(c.shl),
            }
        }
    }
}

/// a * b mod q for a, b in [0, q); BIG when L = 62 (exact estimate, offset comparisons).
#[inline(always)]
unsafe fn mul_vec<const BIG: bool>(a: __m256i, b: __m256i, c: &Vc) -> __m256i {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let (lo, hi) = mul_wide(a, b);
        // q1 = floor(P / 2^(L-2)) < 2^64; est >= floor(P / q) - 3 (see `avx512::barrett_f`), so
        // r = P - est q lies in [0, 4q) and is exact modulo 2^64.
        let q1 = _mm256_or_si256(_mm256_sllv_epi64(hi, c.shl), _mm256_srlv_epi64(lo, c.shr));
        let est = if BIG {
            mul_wide(q1, c.mu).1
        } else {
            mul_hi_approx(q1, c.mu)
        };
        let r = _mm256_sub_epi64(lo, mul_lo(est, c.m.q));
        let r = sub_if_ge::<BIG>(r, c.m.two_q, c.m.two_q_b, &c.m);
        sub_if_ge::<BIG>(r, c.m.q, c.m.q_b, &c.m)
    }
}

/// Whether the binary64 product kernels run for q: q < 2^50 and the CPU has fma.
fn fma_for(q: &Modulus) -> bool {
    q.bits() <= crate::ntt::AVX2_FMA_MAX_BITS && is_x86_feature_detected!("fma")
}

/// Runs the product kernel a = x b, x = `src` (or a itself), on the common prefix; false (doing
/// nothing) without avx2.
pub(super) fn mul(q: &Modulus, a: &mut [u64], src: Option<&[u64]>, b: &[u64]) -> bool {
    if !supported() {
        return false;
    }
    let n = a
        .len()
        .min(b.len())
        .min(src.map_or(usize::MAX, <[u64]>::len));
    let c = Barrett::new(q, false);
    let pa = a.as_mut_ptr();
    let px = src.map_or(pa.cast_const(), <[u64]>::as_ptr);
    // SAFETY: avx2 was detected (and fma for the binary64 kernel, q < 2^50); the kernel touches the
    // first n elements of the slices.
    unsafe {
        if fma_for(q) {
            mul_fma_k::<false>(q.value(), pa, px, b.as_ptr(), n & !3)
        } else if c.exact {
            mul_k::<true>(&c, pa, px, b.as_ptr(), n & !3)
        } else {
            mul_k::<false>(&c, pa, px, b.as_ptr(), n & !3)
        }
    }
    for i in n & !3..n {
        a[i] = q.mul(src.map_or(a[i], |x| x[i]), b[i]);
    }
    true
}

/// Runs the fused multiply-add kernel on the common prefix; false without avx2.
pub(super) fn mul_add(q: &Modulus, acc: &mut [u64], a: &[u64], b: &[u64]) -> bool {
    if !supported() {
        return false;
    }
    let n = acc.len().min(a.len()).min(b.len());
    let c = Barrett::new(q, false);
    let (pz, pa, pb) = (acc.as_mut_ptr(), a.as_ptr(), b.as_ptr());
    // SAFETY: avx2 was detected (and fma for the binary64 kernel, q < 2^50); the kernel touches the
    // first n elements of the three slices.
    unsafe {
        if fma_for(q) {
            mul_fma_k::<true>(q.value(), pz, pa, pb, n & !3)
        } else if c.exact {
            mul_add_k::<true>(&c, pz, pa, pb, n & !3)
        } else {
            mul_add_k::<false>(&c, pz, pa, pb, n & !3)
        }
    }
    for i in n & !3..n {
        acc[i] = q.mul_add(a[i], b[i], acc[i]);
    }
    true
}

/// Runs the Shoup constant-product kernel; false without avx2.
pub(super) fn shoup(
    q: &Modulus,
    a: &mut [u64],
    src: Option<&[u64]>,
    w: Shoup,
    b: Option<&[u64]>,
) -> bool {
    if !supported() {
        return false;
    }
    let n = [src, b]
        .iter()
        .flatten()
        .fold(a.len(), |n, s| n.min(s.len()));
    let (pa, pb) = (a.as_mut_ptr(), b.map_or(core::ptr::null(), <[u64]>::as_ptr));
    let px = src.map_or(pa.cast_const(), <[u64]>::as_ptr);
    // SAFETY: avx2 was detected; n is at most the length of a, src and b: the kernel touches the
    // first n & !3 elements of a, of src (or a) and of b when it reads it (ADD, b given).
    unsafe {
        match (q.bits() > 61, b.is_some()) {
            (true, false) => shoup_k::<true, false>(q.value(), w, pa, px, pb, n & !3),
            (false, false) => shoup_k::<false, false>(q.value(), w, pa, px, pb, n & !3),
            (true, true) => shoup_k::<true, true>(q.value(), w, pa, px, pb, n & !3),
            (false, true) => shoup_k::<false, true>(q.value(), w, pa, px, pb, n & !3),
        }
    }
    for i in n & !3..n {
        a[i] = q.mul_shoup(src.map_or(a[i], |x| x[i]), w);
        if let Some(b) = b {
            a[i] = q.add(a[i], b[i]);
        }
    }
    true
}

/// Runs the Shoup kernel as an accumulation, acc = x w + acc, on the common prefix; false without
/// avx2.
pub(super) fn shoup_acc(q: &Modulus, acc: &mut [u64], x: &[u64], w: Shoup) -> bool {
    if !supported() {
        return false;
    }
    let n = acc.len().min(x.len());
    let (pa, px) = (acc.as_mut_ptr(), x.as_ptr());
    // SAFETY: avx2 was detected; the kernel touches the first n & !3 elements of acc and x, the
    // addend acc read at i before i is written.
    unsafe {
        if q.bits() > 61 {
            shoup_k::<true, true>(q.value(), w, pa, px, pa, n & !3)
        } else {
            shoup_k::<false, true>(q.value(), w, pa, px, pa, n & !3)
        }
    }
    for i in n & !3..n {
        acc[i] = q.add(q.mul_shoup(x[i], w), acc[i]);
    }
    true
}

/// One small-point Horner step ([`super::small_point::SmallPoint`]) on the common prefix: acc = acc x + c
/// from [0, 2q) to [0, 2q), or to [0, q) when `last`; false without avx2.
pub(super) fn horner_small(sp: &SmallPoint, acc: &mut [u64], row: &[u64], last: bool) -> bool {
    if !supported() {
        return false;
    }
    let n = acc.len().min(row.len());
    let (pa, pc) = (acc.as_mut_ptr(), row.as_ptr());
    // SAFETY: avx2 was detected; the kernel touches the first n & !3 elements of both slices.
    unsafe {
        if last {
            horner_small_k::<true>(sp, pa, pc, n & !3);
        } else {
            horner_small_k::<false>(sp, pa, pc, n & !3);
        }
    }
    for i in n & !3..n {
        acc[i] = sp.step(acc[i], row[i], last);
    }
    true
}

/// out = x wx + y wy + c mod q on the first out.len() & !3 elements; false (doing nothing) without avx2
/// or when x or y is shorter than out.
pub(super) fn shoup2_add(
    q: &Modulus,
    (x, wx): (&[u64], Shoup),
    (y, wy): (&[u64], Shoup),
    c: u64,
    out: &mut [u64],
) -> bool {
    let Some((xy, o, n)) = two_inputs(x, y, out) else {
        return false;
    };
    // SAFETY: avx2 was detected; x, y and out hold at least n elements.
    unsafe {
        if q.bits() > 61 {
            shoup2_add_k::<true>(q.value(), [wx, wy], c, xy, o, n)
        } else {
            shoup2_add_k::<false>(q.value(), [wx, wy], c, xy, o, n)
        }
    }
    true
}

/// The pointers of x, y and out and the length n = out.len() & !3 of a two-input kernel, or `None`
/// without avx2 or when x or y is shorter than n.
fn two_inputs(x: &[u64], y: &[u64], out: &mut [u64]) -> Option<([*const u64; 2], *mut u64, usize)> {
    let n = out.len() & !3;
    (supported() && x.len() >= n && y.len() >= n).then_some((
        [x.as_ptr(), y.as_ptr()],
        out.as_mut_ptr(),
        n,
    ))
}

/// o[i] = x[i] w0 + y[i] w1 + c mod q for i < n (n % 4 == 0), any x[i], y[i] < 2^64: the two lazy
/// products in [0, 2q) each, their sum less 2q where >= 2q, less q where >= q, plus c, less q where >= q.
/// Safety: avx2; x, y, o valid for n elements.
#[target_feature(enable = "avx2")]
unsafe fn shoup2_add_k<const BIG: bool>(
    q: u64,
    w: [Shoup; 2],
    c: u64,
    [x, y]: [*const u64; 2],
    o: *mut u64,
    n: usize,
) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let m = Consts::new(q);
        let (t0, t1, cv) = (
            tw_of(w[0].value, w[0].quotient),
            tw_of(w[1].value, w[1].quotient),
            bcast(c),
        );
        for i in (0..n).step_by(4) {
            let s = _mm256_add_epi64(
                mul_lazy::<BIG>(load(x, i), &t0, &m),
                mul_lazy::<BIG>(load(y, i), &t1, &m),
            );
            let s = sub_if_ge::<BIG>(s, m.two_q, m.two_q_b, &m);
            let s = _mm256_add_epi64(sub_if_ge::<BIG>(s, m.q, m.q_b, &m), cv);
            store(o, i, sub_if_ge::<BIG>(s, m.q, m.q_b, &m));
        }
    }
}

/// out = (x - y + c) w mod q on the first out.len() & !3 elements; false (doing nothing) without avx2 or
/// when x or y is shorter than out.
pub(super) fn sub_mul_shoup(
    q: &Modulus,
    x: &[u64],
    y: &[u64],
    c: u64,
    w: Shoup,
    out: &mut [u64],
) -> bool {
    let Some((xy, o, n)) = two_inputs(x, y, out) else {
        return false;
    };
    // SAFETY: avx2 was detected; x, y and out hold at least n elements.
    unsafe {
        if q.bits() > 61 {
            sub_mul_shoup_k::<true>(q.value(), w, c, xy, o, n)
        } else {
            sub_mul_shoup_k::<false>(q.value(), w, c, xy, o, n)
        }
    }
    true
}

/// o[i] = (x[i] - y[i] + c) w mod q for i < n (n % 4 == 0), x[i], y[i], c in [0, q): x + c - y + q in
/// [0, 3q) less q where >= q (the lazy product takes any word), the lazy product in [0, 2q) less q.
/// Safety: avx2; x, y, o valid for n elements.
#[target_feature(enable = "avx2")]
unsafe fn sub_mul_shoup_k<const BIG: bool>(
    q: u64,
    w: Shoup,
    c: u64,
    [x, y]: [*const u64; 2],
    o: *mut u64,
    n: usize,
) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let m = Consts::new(q);
        let (tw, cq) = (tw_of(w.value, w.quotient), bcast(c + q));
        for i in (0..n).step_by(4) {
            let t = _mm256_sub_epi64(_mm256_add_epi64(load(x, i), cq), load(y, i));
            let r = mul_lazy::<BIG>(sub_if_ge::<BIG>(t, m.q, m.q_b, &m), &tw, &m);
            store(o, i, sub_if_ge::<BIG>(r, m.q, m.q_b, &m));
        }
    }
}

/// a = a + b mod q (or a - b mod q if `sub`) on the common prefix; false without avx2.
pub(super) fn add_sub(q: &Modulus, a: &mut [u64], b: &[u64], sub: bool) -> bool {
    let n = a.len().min(b.len());
    let p = a.as_mut_ptr();
    // SAFETY: both slices hold n elements.
    unsafe { add_sub_raw(q, p, p, b.as_ptr(), n, sub) }
}

/// out = a + b (or a - b) mod q on n elements; false without avx2. Safety: n elements readable at
/// a and b and writable at out (out may be a, b may be a: out is written at i after both reads at i).
pub(super) unsafe fn add_sub_raw(
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
pub(super) fn add_scalar(q: &Modulus, a: &mut [u64], c: u64) -> bool {
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
pub(super) fn sub_once(q: &Modulus, a: &mut [u64]) -> bool {
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
pub(super) fn reduce(q: &Modulus, src: &[u64], dst: &mut [u64]) -> bool {
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
pub(super) fn lift_fix(q: &Modulus, c: u64, half: u64, src: &[u64], dst: &mut [u64]) -> bool {
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
pub(super) fn lift(
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
/// and src - c + q < 2q for src < from. Safety: as in `mul_k`.
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

/// out[i] = a[i] * b[i] mod q for i < n (n % 4 == 0). Safety: avx2, n elements readable at a and b
/// and writable at out (out may be a).
#[target_feature(enable = "avx2")]
unsafe fn mul_k<const BIG: bool>(
    c: &Barrett,
    out: *mut u64,
    a: *const u64,
    b: *const u64,
    n: usize,
) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let v = Vc::new(c);
        for i in (0..n).step_by(4) {
            store(out, i, mul_vec::<BIG>(load(a, i), load(b, i), &v));
        }
    }
}

/// out[i] = a[i] * b[i] (+ out[i] when ADD) mod q for i < n (n % 4 == 0) in binary64, q < 2^50
/// (`ntt::avx2_fma`'s product): h = fl(ab) and l = ab - h exactly, k = floor(fl(h fl(1/q))) within
/// 3/8 of ab/q (below q < 2^50, three roundings of 2^-53), r = (h - kq) + l = ab - kq exact in
/// (-q, 2q), then corrected to [0, q). Safety: avx2 and fma; n elements readable at a, b (and out
/// when ADD) and writable at out (out may be a).
#[target_feature(enable = "avx2,fma")]
unsafe fn mul_fma_k<const ADD: bool>(
    q: u64,
    out: *mut u64,
    a: *const u64,
    b: *const u64,
    n: usize,
) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let qd = _mm256_set1_pd(q as f64);
        let qinv = _mm256_set1_pd(1.0 / q as f64);
        let magic = _mm256_set1_pd(4_503_599_627_370_496.0);
        let magic_bits = _mm256_set1_epi64x(0x4330_0000_0000_0000);
        for i in (0..n).step_by(4) {
            let (x, y) = (
                to_f64(load(a, i), magic, magic_bits),
                to_f64(load(b, i), magic, magic_bits),
            );
            let h = _mm256_mul_pd(x, y);
            let l = _mm256_fmsub_pd(x, y, h);
            let k = _mm256_round_pd::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(
                _mm256_mul_pd(h, qinv),
            );
            let r = _mm256_add_pd(_mm256_fnmadd_pd(k, qd, h), l);
            let mut r = sub_q_if_ge(_mm256_blendv_pd(r, _mm256_add_pd(r, qd), r), qd);
            if ADD {
                r = sub_q_if_ge(
                    _mm256_add_pd(r, to_f64(load(out, i), magic, magic_bits)),
                    qd,
                );
            }
            let w = _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(r, magic)), magic_bits);
            store(out, i, w);
        }
    }
}

/// The doubles of 4 words below 2^52 (the 2^52 exponent trick).
#[inline(always)]
unsafe fn to_f64(x: __m256i, magic: __m256d, magic_bits: __m256i) -> __m256d {
    // SAFETY: the caller runs with avx2.
    unsafe { _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, magic_bits)), magic) }
}

/// x - q where x >= q, for integer-valued doubles (the sign of the difference selects).
#[inline(always)]
unsafe fn sub_q_if_ge(x: __m256d, q: __m256d) -> __m256d {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let d = _mm256_sub_pd(x, q);
        _mm256_blendv_pd(d, x, d)
    }
}

/// acc[i] = acc[i] + a[i] * b[i] mod q for i < n (n % 4 == 0). Safety: as in `mul_k`.
#[target_feature(enable = "avx2")]
unsafe fn mul_add_k<const BIG: bool>(
    c: &Barrett,
    acc: *mut u64,
    a: *const u64,
    b: *const u64,
    n: usize,
) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let v = Vc::new(c);
        for i in (0..n).step_by(4) {
            let r = mul_vec::<BIG>(load(a, i), load(b, i), &v);
            let s = _mm256_add_epi64(load(acc, i), r);
            store(acc, i, sub_if_ge::<BIG>(s, v.m.q, v.m.q_b, &v.m));
        }
    }
}

/// a[i] = x[i] * w (+ b[i] when ADD) mod q for i < n (n % 4 == 0), x[i], b[i] in [0, q): the lazy
/// product in [0, 2q) less q where >= q, then the sum in [0, 2q) less q. Safety: as in `mul_k`, x
/// (which may be a) readable for n elements, and b when ADD.
#[target_feature(enable = "avx2")]
unsafe fn shoup_k<const BIG: bool, const ADD: bool>(
    q: u64,
    w: Shoup,
    a: *mut u64,
    x: *const u64,
    b: *const u64,
    n: usize,
) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let c = Consts::new(q);
        let tw = tw_of(w.value, w.quotient);
        for i in (0..n).step_by(4) {
            let r = mul_lazy::<BIG>(load(x, i), &tw, &c);
            let mut r = sub_if_ge::<BIG>(r, c.q, c.q_b, &c);
            if ADD {
                r = sub_if_ge::<BIG>(_mm256_add_epi64(r, load(b, i)), c.q, c.q_b, &c);
            }
            store(a, i, r);
        }
    }
}

/// The small-point step on 4 lanes: v = a x + c from the two 32-bit halves of a (x < 2^32), then the
/// one-product Barrett step. Values stay below 2q < 2^63 (the sign test of `sub_if_ge`). Safety: as
/// in `mul_k`.
#[target_feature(enable = "avx2")]
unsafe fn horner_small_k<const LAST: bool>(sp: &SmallPoint, a: *mut u64, c: *const u64, n: usize) {
    // SAFETY: i + 4 <= n.
    unsafe {
        let m = Consts::new(sp.b.q);
        let (x, mu) = (bcast(sp.x), bcast(sp.b.mu));
        let shift = _mm_cvtsi64_si128(i64::from(sp.b.shift));
        for i in (0..n).step_by(4) {
            let acc = load(a, i);
            let ax = _mm256_add_epi64(mul32(acc, x), _mm256_slli_epi64::<32>(mul32(hi32(acc), x)));
            let mut r = barrett_word(_mm256_add_epi64(ax, load(c, i)), mu, shift, &m);
            if LAST {
                r = sub_if_ge::<false>(r, m.q, m.q_b, &m);
            }
            store(a, i, r);
        }
    }
}

/// out = s - q where s >= q, for s = a + b (or a - b + q): values below 2q < 2^63. Safety: as in
/// `mul_k`.
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

/// a[i] = a[i] + c, less q where >= q (values below 2q < 2^63), i < n (n % 4 == 0). Safety: as in
/// `mul_k`.
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

/// a[i] mod q for a[i] < 2q, i < n (n % 4 == 0). Safety: as in `mul_k`.
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

/// dst[i] = src[i] mod q, i < n (n % 4 == 0), with ratio = floor(2^64 / q) (see `reduce64`). Safety: as
/// in `mul_k`.
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
/// comparisons). Safety: as in `mul_k`.
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
