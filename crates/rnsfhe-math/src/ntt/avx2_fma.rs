//! AVX2 kernels of the Harvey butterflies in binary64 with FMA, for q < 2^50 (x86_64 only), 4 lanes
//! per vector: the stage schedule and lazy ranges of [`super::avx2`], whose 64-bit Shoup product AVX2
//! builds from nine 32 x 32-bit `vpmuludq`. Here every value below 4q < 2^52 is an exact double and
//! the product y w mod q in [0, 2q) takes five floating-point operations and a correction:
//!
//! - h = fl(y w) and l = y w - h exactly (`vfmsub`: the error of a product is a double);
//! - k = floor(fl(y fl(w / q))), within 1 of y w / q: that value is below 4q < 2^52 and the two
//!   roundings err by at most 2^-52 relative, so by less than 1 in absolute value;
//! - r = (h - k q) + l = y w - k q, exactly: h - k q is an integer of magnitude below 2q + 2^50
//!   (`vfnmadd` rounds it once, without error) and the sum of two such integers stays below 2^53;
//! - y w / q - k lies in (-1, 2), so r lies in (-q, 2q), and r + q where r < 0 is in [0, 2q).
//!
//! The residues leave the kernels reduced as the integer kernels leave them ([0, q) from the forward
//! transform with its correction and from the inverse), so the outputs are bit-identical; lazy
//! forward outputs are congruent (their representative in [0, 4q) may differ, as between the other
//! backends). Doubles are converted from and to the words below 2^52 by the 2^52 exponent trick.
//! The buffer holds the bits of the doubles between the first and the last pass.

use std::arch::x86_64::*;

use crate::arith::{Modulus, Shoup};

/// Moduli below 2^50 only: 4q < 2^52 keeps every value an exact double with the bound above.
pub(super) const MAX_BITS: u32 = 50;

/// Twiddles w and fl(w / q) in the layout of [`super::avx2`], with per-lane copies for the stages
/// t = 2, 1.
#[derive(Clone, Debug)]
struct Twiddles {
    value: Vec<f64>,
    ratio: Vec<f64>,
    small_value: [Vec<f64>; 2],
    small_ratio: [Vec<f64>; 2],
}

impl Twiddles {
    fn new(q: u64, w: &[Shoup]) -> Self {
        let n = w.len();
        let value: Vec<f64> = w.iter().map(|s| s.value as f64).collect();
        let ratio: Vec<f64> = w.iter().map(|s| s.value as f64 / q as f64).collect();
        let mut small_value: [Vec<f64>; 2] = Default::default();
        let mut small_ratio: [Vec<f64>; 2] = Default::default();
        for (s, t) in [2usize, 1].into_iter().enumerate() {
            let m = n / (2 * t);
            for b in 0..n / 8 {
                for &x in &super::avx2::X_LANES[s] {
                    let idx = m + (8 * b + x) / (2 * t);
                    small_value[s].push(value[idx]);
                    small_ratio[s].push(ratio[idx]);
                }
            }
        }
        Twiddles {
            value,
            ratio,
            small_value,
            small_ratio,
        }
    }
}

/// Twiddle tables of one transform for the FMA kernel. Only [`Tables::new`] builds them, and it checks
/// the CPU features and q, so holding a `Tables` proves the kernel may run.
#[derive(Clone, Debug)]
pub(super) struct Tables {
    n: usize,
    q: u64,
    fwd: Twiddles,
    inv: Twiddles,
    /// n^-1 and n^-1 w_inv[1] (the last inverse stage's twiddles) with their ratios.
    n_inv: (f64, f64),
    last_inv: (f64, f64),
}

impl Tables {
    /// Tables for n >= 16 and q < 2^50, or `None` when the CPU lacks avx2 or fma.
    pub(super) fn new(
        q: &Modulus,
        roots: &[Shoup],
        inv_roots: &[Shoup],
        n_inv: Shoup,
    ) -> Option<Self> {
        let n = roots.len();
        if n < 16
            || inv_roots.len() != n
            || q.bits() > MAX_BITS
            || !is_x86_feature_detected!("avx2")
            || !is_x86_feature_detected!("fma")
        {
            return None;
        }
        let qv = q.value();
        let pair = |w: u64| (w as f64, w as f64 / qv as f64);
        Some(Tables {
            n,
            q: qv,
            fwd: Twiddles::new(qv, roots),
            inv: Twiddles::new(qv, inv_roots),
            n_inv: pair(n_inv.value),
            last_inv: pair(q.mul(inv_roots[1].value, n_inv.value)),
        })
    }

    /// Forward transform: input in [0, 4q), output in [0, q) if `reduce`, else in [0, 4q). Returns false
    /// (doing nothing) when `a.len() != n`.
    pub(super) fn forward(&self, a: &mut [u64], reduce: bool) -> bool {
        if a.len() != self.n {
            return false;
        }
        // SAFETY: `new` checked avx2 and fma at run time and q < 2^50; a.len() == n >= 16 matches
        // the tables.
        unsafe { forward_fma(a, &self.fwd, self.q, reduce) };
        true
    }

    /// Inverse transform with 1/n: input in [0, 2q), output in [0, q). Returns false when `a.len() != n`.
    pub(super) fn inverse(&self, a: &mut [u64]) -> bool {
        if a.len() != self.n {
            return false;
        }
        // SAFETY: as in `forward`.
        unsafe { inverse_fma(a, self) };
        true
    }
}

/// Broadcast constants.
struct Consts {
    q: __m256d,
    two_q: __m256d,
    /// 2^52 as a double and as its bits.
    magic: __m256d,
    magic_bits: __m256i,
}

impl Consts {
    #[inline(always)]
    unsafe fn new(q: u64) -> Self {
        // SAFETY: the caller runs with avx2.
        unsafe {
            Consts {
                q: _mm256_set1_pd(q as f64),
                two_q: _mm256_set1_pd(2.0 * q as f64),
                magic: _mm256_set1_pd(4_503_599_627_370_496.0),
                magic_bits: _mm256_set1_epi64x(0x4330_0000_0000_0000),
            }
        }
    }
}

/// A twiddle and its ratio fl(w / q).
type Tw = (__m256d, __m256d);

#[inline(always)]
unsafe fn tw_bcast(tw: &Twiddles, i: usize) -> Tw {
    // SAFETY: the caller runs with avx2.
    unsafe { (_mm256_set1_pd(tw.value[i]), _mm256_set1_pd(tw.ratio[i])) }
}

/// Per-lane twiddles of small stage s for block b.
#[inline(always)]
unsafe fn tw_lanes(tw: &Twiddles, s: usize, b: usize) -> Tw {
    // SAFETY: the caller guarantees 4b + 4 <= n / 2 (the tables' length) and avx2.
    unsafe {
        (
            _mm256_loadu_pd(tw.small_value[s].as_ptr().add(4 * b)),
            _mm256_loadu_pd(tw.small_ratio[s].as_ptr().add(4 * b)),
        )
    }
}

/// The double of 4 words below 2^52 at p.
#[inline(always)]
unsafe fn load_word(p: *const u64, c: &Consts) -> __m256d {
    // SAFETY: the caller guarantees 4 readable u64 at p and avx2.
    unsafe {
        let x = _mm256_loadu_si256(p.cast());
        _mm256_sub_pd(
            _mm256_castsi256_pd(_mm256_or_si256(x, c.magic_bits)),
            c.magic,
        )
    }
}

/// Stores 4 integer-valued doubles in [0, 2^52) at p as words.
#[inline(always)]
unsafe fn store_word(p: *mut u64, v: __m256d, c: &Consts) {
    // SAFETY: the caller guarantees 4 writable u64 at p and avx2.
    unsafe {
        let x = _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(v, c.magic)), c.magic_bits);
        _mm256_storeu_si256(p.cast(), x);
    }
}

/// [`load_word`] when `WORDS`, else [`load`].
#[inline(always)]
unsafe fn ld<const WORDS: bool>(p: *const u64, c: &Consts) -> __m256d {
    // SAFETY: the caller's (4 readable words at p, avx2).
    unsafe {
        if WORDS {
            load_word(p, c)
        } else {
            load(p)
        }
    }
}

#[inline(always)]
unsafe fn load(p: *const u64) -> __m256d {
    // SAFETY: the caller guarantees 4 readable words at p (holding doubles' bits) and avx2.
    unsafe { _mm256_loadu_pd(p.cast()) }
}

#[inline(always)]
unsafe fn store(p: *mut u64, v: __m256d) {
    // SAFETY: the caller guarantees 4 writable words at p and avx2.
    unsafe { _mm256_storeu_pd(p.cast(), v) }
}

/// x - r where x >= r, for integer-valued doubles (the sign of x - r selects).
#[inline(always)]
unsafe fn sub_if_ge(x: __m256d, r: __m256d) -> __m256d {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let d = _mm256_sub_pd(x, r);
        _mm256_blendv_pd(d, x, d)
    }
}

/// y w mod q in [0, 2q) for y in [0, 4q) (see the module documentation).
#[inline(always)]
unsafe fn mul_lazy(y: __m256d, (w, ratio): Tw, c: &Consts) -> __m256d {
    // SAFETY: the caller runs with avx2 and fma.
    unsafe {
        let h = _mm256_mul_pd(y, w);
        let l = _mm256_fmsub_pd(y, w, h);
        let k = _mm256_round_pd::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(_mm256_mul_pd(
            y, ratio,
        ));
        let r = _mm256_add_pd(_mm256_fnmadd_pd(k, c.q, h), l);
        _mm256_blendv_pd(r, _mm256_add_pd(r, c.q), r)
    }
}

/// Cooley–Tukey butterfly: x, y in [0, 4q) to x + wy, x - wy in [0, 4q).
#[inline(always)]
unsafe fn fwd_bfly(x: __m256d, y: __m256d, w: Tw, c: &Consts) -> (__m256d, __m256d) {
    // SAFETY: the caller runs with avx2 and fma.
    unsafe {
        let x = sub_if_ge(x, c.two_q);
        let v = mul_lazy(y, w, c);
        (
            _mm256_add_pd(x, v),
            _mm256_sub_pd(_mm256_add_pd(x, c.two_q), v),
        )
    }
}

/// Gentleman–Sande butterfly: x, y in [0, 2q) to x + y, w(x - y) in [0, 2q).
#[inline(always)]
unsafe fn inv_bfly(x: __m256d, y: __m256d, w: Tw, c: &Consts) -> (__m256d, __m256d) {
    // SAFETY: the caller runs with avx2 and fma.
    unsafe {
        let s = sub_if_ge(_mm256_add_pd(x, y), c.two_q);
        let d = _mm256_sub_pd(_mm256_add_pd(x, c.two_q), y);
        (s, mul_lazy(d, w, c))
    }
}

/// The x- and y-halves of small stage s (0: t = 2, 1: t = 1) from a block (v0, v1), and back.
#[inline(always)]
unsafe fn split(s: usize, v0: __m256d, v1: __m256d) -> (__m256d, __m256d) {
    // SAFETY: the caller runs with avx2.
    unsafe {
        if s == 0 {
            (
                _mm256_permute2f128_pd::<0x20>(v0, v1),
                _mm256_permute2f128_pd::<0x31>(v0, v1),
            )
        } else {
            (_mm256_unpacklo_pd(v0, v1), _mm256_unpackhi_pd(v0, v1))
        }
    }
}

/// One radix-4 pass of the forward transform (stages (t, m) and (t/2, 2m)); `WORDS`: the input is
/// still words (the first pass).
#[inline(always)]
unsafe fn forward_pass<const WORDS: bool>(
    p: *mut u64,
    tw: &Twiddles,
    t: usize,
    m: usize,
    c: &Consts,
) {
    // SAFETY: the caller's bounds (see `forward_fma`).
    unsafe {
        let h = t >> 1;
        for i in 0..m {
            let w = tw_bcast(tw, m + i);
            let w0 = tw_bcast(tw, 2 * (m + i));
            let w1 = tw_bcast(tw, 2 * (m + i) + 1);
            let p0 = p.add(2 * i * t);
            let (p1, p2, p3) = (p0.add(h), p0.add(2 * h), p0.add(3 * h));
            for j in (0..h).step_by(4) {
                let (v0, v2) = fwd_bfly(ld::<WORDS>(p0.add(j), c), ld::<WORDS>(p2.add(j), c), w, c);
                let (v1, v3) = fwd_bfly(ld::<WORDS>(p1.add(j), c), ld::<WORDS>(p3.add(j), c), w, c);
                let (v0, v1) = fwd_bfly(v0, v1, w0, c);
                let (v2, v3) = fwd_bfly(v2, v3, w1, c);
                store(p0.add(j), v0);
                store(p1.add(j), v1);
                store(p2.add(j), v2);
                store(p3.add(j), v3);
            }
        }
    }
}

/// Forward transform: radix-4 passes for t >= 16, the stage t = 8, then the fused t = 4, 2, 1 pass
/// (with the [0, q) correction if `reduce`), words in and out. Safety: avx2 and fma; q < 2^50;
/// a.len() == n >= 16 with `tw` built for n.
#[target_feature(enable = "avx2,fma")]
unsafe fn forward_fma(a: &mut [u64], tw: &Twiddles, q: u64, reduce: bool) {
    let n = a.len();
    let p = a.as_mut_ptr();
    // SAFETY: every pointer below stays inside a: stage (t, m) (or a fused pair starting there) touches
    // [2it, 2it + 2t) for i < m with 2tm = n and j + 4 <= t; the small pass touches [8b, 8b + 8) for
    // b < n / 8. Twiddle loads read 4 entries at 4b of tables of length n / 2.
    unsafe {
        let c = Consts::new(q);
        let (mut t, mut m) = (n >> 1, 1);
        let mut words = true;
        while t >= 16 {
            if words {
                forward_pass::<true>(p, tw, t, m, &c);
                words = false;
            } else {
                forward_pass::<false>(p, tw, t, m, &c);
            }
            t >>= 2;
            m <<= 2;
        }
        if t == 8 {
            for i in 0..m {
                let w = tw_bcast(tw, m + i);
                let xp = p.add(2 * i * t);
                let yp = xp.add(t);
                for j in (0..t).step_by(4) {
                    let (x, y) = if words {
                        (load_word(xp.add(j), &c), load_word(yp.add(j), &c))
                    } else {
                        (load(xp.add(j)), load(yp.add(j)))
                    };
                    let (x, y) = fwd_bfly(x, y, w, &c);
                    store(xp.add(j), x);
                    store(yp.add(j), y);
                }
            }
            words = false;
        }
        for b in 0..n / 8 {
            let (x, y) = if words {
                (load_word(p.add(8 * b), &c), load_word(p.add(8 * b + 4), &c))
            } else {
                (load(p.add(8 * b)), load(p.add(8 * b + 4)))
            };
            let (mut v0, mut v1) = fwd_bfly(x, y, tw_bcast(tw, n / 8 + b), &c);
            for s in 0..2 {
                let (x, y) = split(s, v0, v1);
                let (x, y) = fwd_bfly(x, y, tw_lanes(tw, s, b), &c);
                (v0, v1) = split(s, x, y);
            }
            for (h, x) in [v0, v1].into_iter().enumerate() {
                let x = if reduce {
                    sub_if_ge(sub_if_ge(x, c.two_q), c.q)
                } else {
                    x
                };
                store_word(p.add(8 * b + 4 * h), x, &c);
            }
        }
    }
}

/// Inverse transform: the fused t = 1, 2, 4 pass (words in), stages t >= 8, the last (t = n/2) with
/// 1/n folded in, corrected to [0, q) and stored as words. Safety: as in `forward_fma`.
#[target_feature(enable = "avx2,fma")]
unsafe fn inverse_fma(a: &mut [u64], tables: &Tables) {
    let n = a.len();
    let p = a.as_mut_ptr();
    let tw = &tables.inv;
    // SAFETY: the same index ranges as in `forward_fma`.
    unsafe {
        let c = Consts::new(tables.q);
        for b in 0..n / 8 {
            let (mut v0, mut v1) = (load_word(p.add(8 * b), &c), load_word(p.add(8 * b + 4), &c));
            for s in [1, 0] {
                let (x, y) = split(s, v0, v1);
                let (x, y) = inv_bfly(x, y, tw_lanes(tw, s, b), &c);
                (v0, v1) = split(s, x, y);
            }
            let (x, y) = inv_bfly(v0, v1, tw_bcast(tw, n / 8 + b), &c);
            store(p.add(8 * b), x);
            store(p.add(8 * b + 4), y);
        }
        let (mut t, mut m) = (8, n >> 4);
        // Two stages per pass while both keep m >= 2: (t, m) on quarter pairs (0, 1) and (2, 3), then
        // (2t, m/2) on (0, 2) and (1, 3).
        while m >= 4 {
            for i in 0..m / 2 {
                let w0 = tw_bcast(tw, m + 2 * i);
                let w1 = tw_bcast(tw, m + 2 * i + 1);
                let w = tw_bcast(tw, m / 2 + i);
                let p0 = p.add(4 * i * t);
                let (p1, p2, p3) = (p0.add(t), p0.add(2 * t), p0.add(3 * t));
                for j in (0..t).step_by(4) {
                    let (v0, v1) = inv_bfly(load(p0.add(j)), load(p1.add(j)), w0, &c);
                    let (v2, v3) = inv_bfly(load(p2.add(j)), load(p3.add(j)), w1, &c);
                    let (v0, v2) = inv_bfly(v0, v2, w, &c);
                    let (v1, v3) = inv_bfly(v1, v3, w, &c);
                    store(p0.add(j), v0);
                    store(p1.add(j), v1);
                    store(p2.add(j), v2);
                    store(p3.add(j), v3);
                }
            }
            t <<= 2;
            m >>= 2;
        }
        if m == 2 {
            for i in 0..m {
                let w = tw_bcast(tw, m + i);
                let xp = p.add(2 * i * t);
                let yp = xp.add(t);
                for j in (0..t).step_by(4) {
                    let (x, y) = inv_bfly(load(xp.add(j)), load(yp.add(j)), w, &c);
                    store(xp.add(j), x);
                    store(yp.add(j), y);
                }
            }
            t <<= 1;
        }
        // Last stage (t = n/2): x + y and (x - y) w, both times 1/n, corrected from [0, 2q) to [0, q).
        let ni = (
            _mm256_set1_pd(tables.n_inv.0),
            _mm256_set1_pd(tables.n_inv.1),
        );
        let wl = (
            _mm256_set1_pd(tables.last_inv.0),
            _mm256_set1_pd(tables.last_inv.1),
        );
        for j in (0..t).step_by(4) {
            let (x, y) = (load(p.add(j)), load(p.add(j + t)));
            let s = _mm256_add_pd(x, y);
            let d = _mm256_sub_pd(_mm256_add_pd(x, c.two_q), y);
            store_word(p.add(j), sub_if_ge(mul_lazy(s, ni, &c), c.q), &c);
            store_word(p.add(j + t), sub_if_ge(mul_lazy(d, wl, &c), c.q), &c);
        }
    }
}
