//! The AVX-512 kernels, 8 lanes of u64 per vector; tails run through masked loads and stores.

use std::arch::x86_64::*;

use crate::arith::Backend;
use crate::arith::{Modulus, Shoup};

mod horner;
mod inner;
pub(super) use horner::horner_small;
pub(crate) use horner::{barrett_word, WordConsts};
pub(super) use inner::inner_product;

/// Whether the kernel may run for q on this CPU (the features are detected at run time).
fn supported(q: &Modulus, ifma: bool) -> bool {
    let b = if ifma {
        Backend::Avx512Ifma
    } else {
        Backend::Avx512
    };
    b.is_available(q)
}

/// Runs the product kernel a = x b, x = `src` (or a itself), on the common prefix; false (doing
/// nothing) when unsupported.
pub(super) fn mul(ifma: bool, q: &Modulus, a: &mut [u64], src: Option<&[u64]>, b: &[u64]) -> bool {
    if !supported(q, ifma) {
        return false;
    }
    let n = a
        .len()
        .min(b.len())
        .min(src.map_or(usize::MAX, <[u64]>::len));
    let c = Barrett::new(q, ifma);
    let (pa, pb) = (a.as_mut_ptr(), b.as_ptr());
    let px = src.map_or(pa.cast_const(), <[u64]>::as_ptr);
    if ifma {
        // SAFETY: avx512f and avx512ifma were detected and q < 2^50 (`supported`); pa, px and pb
        // hold n elements each.
        unsafe { mul_ifma(&c, pa, px, pb, n) }
    } else {
        // SAFETY: avx512f was detected and q < 2^62; pa, px and pb hold n elements each.
        unsafe {
            if c.exact {
                mul_f::<true>(&c, pa, px, pb, n)
            } else {
                mul_f::<false>(&c, pa, px, pb, n)
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

/// Runs the Shoup constant-product kernel, a = x w with x = `src` (or a itself), or with `b` the
/// Horner step a = x w + b, on the common prefix; false when unsupported.
pub(super) fn shoup(
    ifma: bool,
    q: &Modulus,
    a: &mut [u64],
    src: Option<&[u64]>,
    w: Shoup,
    b: Option<&[u64]>,
) -> bool {
    if !supported(q, ifma) {
        return false;
    }
    let n = [src, b]
        .iter()
        .flatten()
        .fold(a.len(), |n, s| n.min(s.len()));
    let pa = a.as_mut_ptr();
    let px = src.map_or(pa.cast_const(), <[u64]>::as_ptr);
    // Without b the kernel never reads pb (ADD = false).
    let pb = b.map_or(core::ptr::null(), <[u64]>::as_ptr);
    // SAFETY (all four): avx512f (and avx512ifma for the IFMA kernels, q < 2^50) were detected, q <
    // 2^62; pa holds n elements, and pb too when read (ADD).
    unsafe {
        if ifma {
            let wq = ((u128::from(w.value) << 52) / u128::from(q.value())) as u64;
            match b {
                None => shoup_ifma::<false>(q.value(), w.value, wq, pa, px, pb, n),
                Some(_) => shoup_ifma::<true>(q.value(), w.value, wq, pa, px, pb, n),
            }
        } else {
            match b {
                None => shoup_f::<false>(q.value(), w.value, w.quotient, pa, px, pb, n),
                Some(_) => shoup_f::<true>(q.value(), w.value, w.quotient, pa, px, pb, n),
            }
        }
    }
    true
}

/// Runs the Shoup kernel as an accumulation, acc = x w + acc, on the common prefix; false when
/// unsupported.
pub(super) fn shoup_acc(ifma: bool, q: &Modulus, acc: &mut [u64], x: &[u64], w: Shoup) -> bool {
    if !supported(q, ifma) {
        return false;
    }
    let n = acc.len().min(x.len());
    let (pa, px) = (acc.as_mut_ptr(), x.as_ptr());
    // SAFETY: as in `shoup`; the addend is acc itself, read at i before i is written.
    unsafe {
        if ifma {
            let wq = ((u128::from(w.value) << 52) / u128::from(q.value())) as u64;
            shoup_ifma::<true>(q.value(), w.value, wq, pa, px, pa, n)
        } else {
            shoup_f::<true>(q.value(), w.value, w.quotient, pa, px, pa, n)
        }
    }
    true
}

/// Scalar constants of the Barrett kernels for q of bit length L. The quotient estimate is
/// floor(q1 * mu / 2^W) with q1 = floor(P / 2^s) and mu = floor(2^(W+s) / q), where W is the word
/// (52 for IFMA, 64 for AVX-512F) and s = L - 1 (IFMA) or L - 2 (AVX-512F).
pub(super) struct Barrett {
    pub(super) q: u64,
    /// floor(2^(W+s) / q) < 2^W, capped at 2^52 - 1 for IFMA (the cap only bites for a power of two q
    /// and keeps the bounds of the kernels).
    pub(super) mu: u64,
    /// q1 = (hi << shl) + (lo >> shr), with hi the bits of P above W: shr = s, shl = W - s.
    pub(super) shr: u64,
    pub(super) shl: u64,
    /// AVX-512F only: the exact high half of q1 * mu is needed (L = 62); below, the 3-product
    /// estimate suffices.
    pub(super) exact: bool,
}

impl Barrett {
    pub(super) fn new(q: &Modulus, ifma: bool) -> Self {
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
pub(crate) unsafe fn reduce_once(x: __m512i, r: __m512i) -> __m512i {
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
pub(crate) unsafe fn mul_lo(a: __m512i, b: __m512i, b_hi: __m512i) -> __m512i {
    // SAFETY: the caller runs with avx512f.
    unsafe {
        let a_hi = _mm512_srli_epi64::<32>(a);
        let cross = _mm512_add_epi64(_mm512_mul_epu32(a, b_hi), _mm512_mul_epu32(a_hi, b));
        _mm512_add_epi64(_mm512_mul_epu32(a, b), _mm512_slli_epi64::<32>(cross))
    }
}

/// floor(a * b / 2^64) - e with e in {0, 1, 2}, from three 32 x 32-bit products; b_hi = b >> 32.
#[inline(always)]
pub(crate) unsafe fn mul_hi_approx(a: __m512i, b: __m512i, b_hi: __m512i) -> __m512i {
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

/// a[i] = x[i] * w (+ b[i] when ADD) mod q for i < n, x[i], b[i] in [0, q), wq = floor(w 2^52 / q).
/// Safety: avx512f and avx512ifma, q < 2^50, n elements writable at a, readable at x (which may be
/// a) and at b when ADD (which may be a).
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn shoup_ifma<const ADD: bool>(
    q: u64,
    w: u64,
    wq: u64,
    a: *mut u64,
    x: *const u64,
    b: *const u64,
    n: usize,
) {
    // SAFETY: as in `mul_ifma`.
    unsafe {
        let (vq, vw, vwq) = (bcast(q), bcast(w), bcast(wq));
        let (neg_q, mask52) = (bcast(q.wrapping_neg()), bcast((1 << 52) - 1));
        let z = _mm512_setzero_si512();
        // y w - floor(y wq / 2^52) q lies in [0, 2q) and 2q < 2^52, so its low 52 bits are it.
        shoup_loop::<ADD>(vq, a, x, b, n, |y| {
            let qhat = _mm512_madd52hi_epu64(z, y, vwq);
            let r = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(z, y, vw), qhat, neg_q);
            reduce_once(_mm512_and_si512(r, mask52), vq)
        });
    }
}

/// a[i] = x[i] * w (+ b[i] when ADD) mod q for i < n with the 64-bit Shoup quotient wq; the low
/// products by `vpmullq` (10 % faster than three `vpmuludq` each on a 1 MiB combination, session
/// 15). Safety: avx512f and avx512dq (`Backend::Avx512`), q < 2^62, n elements writable at a,
/// readable at x (which may be a) and at b when ADD.
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn shoup_f<const ADD: bool>(
    q: u64,
    w: u64,
    wq: u64,
    a: *mut u64,
    x: *const u64,
    b: *const u64,
    n: usize,
) {
    // SAFETY: as in `mul_ifma`.
    unsafe {
        let (vq, two_q) = (bcast(q), bcast(2 * q));
        let (vw, vwq, wq_hi) = (bcast(w), bcast(wq), bcast(wq >> 32));
        // qhat is up to 2 short, so y w - qhat q lies in [0, 4q) with 4q < 2^64.
        shoup_loop::<ADD>(vq, a, x, b, n, |y| {
            let qhat = mul_hi_approx(y, vwq, wq_hi);
            let r = _mm512_sub_epi64(_mm512_mullo_epi64(y, vw), _mm512_mullo_epi64(qhat, vq));
            reduce_once(reduce_once(r, two_q), vq)
        });
    }
}

/// The loop of the Shoup kernels: a[i] = f(x[i]) (+ b[i] mod q when ADD) for i < n, eight lanes
/// at a time and a masked tail; f maps a vector of [0, q) to its product in [0, q). Safety: as in
/// the kernels, whose features it runs with (always inlined).
#[inline(always)]
unsafe fn shoup_loop<const ADD: bool>(
    vq: __m512i,
    a: *mut u64,
    x: *const u64,
    b: *const u64,
    n: usize,
    f: impl Fn(__m512i) -> __m512i,
) {
    // SAFETY: the caller's (lanes below n are readable at x and b, writable at a).
    unsafe {
        let g = |i: usize, m: __mmask8| {
            let r = f(load(x, i, m));
            // The sum of two values in [0, q) lies in [0, 2q).
            if ADD {
                reduce_once(_mm512_add_epi64(r, load(b, i, m)), vq)
            } else {
                r
            }
        };
        let mut i = 0;
        while i + 8 <= n {
            store(a, i, !0, g(i, !0));
            i += 8;
        }
        if i < n {
            let m = tail_mask(n - i);
            store(a, i, m, g(i, m));
        }
    }
}
