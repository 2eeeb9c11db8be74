//! AVX2 kernels of the Harvey butterflies (x86_64 only), 4 lanes of u64 per vector.
//!
//! The butterflies, lazy ranges and twiddle layout are those of [`super::scalar`] (Harvey 2014) and the
//! stage schedule that of [`super::avx512`]. AVX2 has no 64-bit multiply, so the Shoup product
//! `y * w mod q` in [0, 2q) is built from `vpmuludq` (32 x 32 -> 64 bits): the high half of y * w' (w' the
//! 64-bit Shoup quotient) from three products (up to 2 short, so y * w - qhat * q lies in [0, 4q)), and the
//! low 64 bits of y * w - qhat * q from six. AVX2 has no unsigned 64-bit compare either: for q < 2^61 every
//! value stays below 2^63 and "subtract r if x >= r" is a subtraction and a blend on the sign; for 62-bit q
//! the comparison runs on values offset by 2^63 (`BIG`).
//!
//! Stages with t >= 8 run on contiguous vectors with a broadcast twiddle (two stages per pass). The last
//! three (t = 4, 2, 1) run fused in registers on blocks of 8 values: t = 4 on the two halves, t = 2 after
//! `vperm2i128`, t = 1 after `vpunpck{l,h}qdq`, with per-lane twiddles pre-expanded.

use std::arch::x86_64::*;

use crate::arith::avx2::{barrett_word, bcast, mul_lazy, mul_lazy4, sub_if_ge, tw_of, Consts, Tw};
use crate::arith::WordBarrett;
use crate::arith::{Modulus, Shoup};

/// Butterfly-group twiddles w[m + i] and their Shoup quotients (the scalar layout), and per-lane copies
/// for the stages t = 2, 1 (index 0, 1): entry 4b + k belongs to lane k of block b.
#[derive(Clone, Debug)]
struct Twiddles {
    value: Vec<u64>,
    quot: Vec<u64>,
    small_value: [Vec<u64>; 2],
    small_quot: [Vec<u64>; 2],
}

/// Positions (within a block of 8) of the x-halves in the lanes of stage t = 2 (after `vperm2i128`) and
/// t = 1 (after `vpunpcklqdq`).
pub(super) const X_LANES: [[usize; 4]; 2] = [[0, 1, 4, 5], [0, 4, 2, 6]];

impl Twiddles {
    fn new(w: &[Shoup]) -> Self {
        let n = w.len();
        let value: Vec<u64> = w.iter().map(|s| s.value).collect();
        let quot: Vec<u64> = w.iter().map(|s| s.quotient).collect();
        let mut small_value: [Vec<u64>; 2] = Default::default();
        let mut small_quot: [Vec<u64>; 2] = Default::default();
        for (s, t) in [2usize, 1].into_iter().enumerate() {
            let m = n / (2 * t);
            for b in 0..n / 8 {
                for &x in &X_LANES[s] {
                    let idx = m + (8 * b + x) / (2 * t);
                    small_value[s].push(value[idx]);
                    small_quot[s].push(quot[idx]);
                }
            }
        }
        Twiddles {
            value,
            quot,
            small_value,
            small_quot,
        }
    }
}

/// Twiddle tables of one transform for the AVX2 kernel. Only [`Tables::new`] builds them, and it checks
/// the CPU feature, so holding a `Tables` proves the kernel may run.
#[derive(Clone, Debug)]
pub(super) struct Tables {
    n: usize,
    q: u64,
    /// q >= 2^61: values up to 4q may exceed 2^63.
    big: bool,
    /// The forward transform's growth mode (`super::grow`) where q and n allow it.
    grow: Option<WordBarrett>,
    fwd: Twiddles,
    inv: Twiddles,
    /// n^-1 and n^-1 * w_inv[1] (the last inverse stage's twiddle).
    n_inv: Shoup,
    last_inv: Shoup,
}

impl Tables {
    /// Tables for n >= 16, or `None` when the CPU lacks avx2 (or n < 16).
    pub(super) fn new(
        q: &Modulus,
        roots: &[Shoup],
        inv_roots: &[Shoup],
        n_inv: Shoup,
    ) -> Option<Self> {
        let n = roots.len();
        if n < 16 || inv_roots.len() != n || !is_x86_feature_detected!("avx2") {
            return None;
        }
        Some(Tables {
            n,
            q: q.value(),
            big: q.bits() > 61,
            grow: super::grow(q, n),
            fwd: Twiddles::new(roots),
            inv: Twiddles::new(inv_roots),
            n_inv,
            last_inv: q.shoup(q.mul(inv_roots[1].value, n_inv.value)),
        })
    }

    /// Forward transform: input in [0, 4q), output in [0, q) if `reduce`, else in [0, 4q). Returns false
    /// (doing nothing) when `a.len() != n`.
    pub(super) fn forward(&self, a: &mut [u64], reduce: bool) -> bool {
        if a.len() != self.n {
            return false;
        }
        // SAFETY: `new` checked avx2 at run time; a.len() == n >= 16 matches the tables.
        unsafe {
            match (self.big, self.grow) {
                (true, _) => forward_avx2::<true, false>(a, &self.fwd, self.q, reduce, None),
                (false, None) => forward_avx2::<false, false>(a, &self.fwd, self.q, reduce, None),
                (false, g) => forward_avx2::<false, true>(a, &self.fwd, self.q, reduce, g),
            }
        }
        true
    }

    /// Inverse transform with 1/n: input in [0, 2q), output in [0, q). Returns false when `a.len() != n`.
    pub(super) fn inverse(&self, a: &mut [u64]) -> bool {
        if a.len() != self.n {
            return false;
        }
        // SAFETY: as in `forward`.
        unsafe {
            if self.big {
                inverse_avx2::<true>(a, self)
            } else {
                inverse_avx2::<false>(a, self)
            }
        }
        true
    }
}

#[inline(always)]
unsafe fn tw_bcast(tw: &Twiddles, i: usize) -> Tw {
    // SAFETY: the caller runs with avx2.
    unsafe { tw_of(tw.value[i], tw.quot[i]) }
}

/// Per-lane twiddles of small stage s for block b.
#[inline(always)]
unsafe fn tw_lanes(tw: &Twiddles, s: usize, b: usize) -> Tw {
    // SAFETY: the caller guarantees 4b + 4 <= n / 2 (the tables' length) and avx2.
    unsafe {
        let w = load(tw.small_value[s].as_ptr().add(4 * b));
        let wq = load(tw.small_quot[s].as_ptr().add(4 * b));
        [
            w,
            _mm256_srli_epi64::<32>(w),
            wq,
            _mm256_srli_epi64::<32>(wq),
        ]
    }
}

#[inline(always)]
unsafe fn load(p: *const u64) -> __m256i {
    // SAFETY: the caller guarantees 4 readable u64 at p and avx2.
    unsafe { _mm256_loadu_si256(p.cast()) }
}

#[inline(always)]
unsafe fn store(p: *mut u64, v: __m256i) {
    // SAFETY: the caller guarantees 4 writable u64 at p and avx2.
    unsafe { _mm256_storeu_si256(p.cast(), v) }
}

/// Cooley–Tukey butterfly: x, y in [0, 4q) to x + wy, x - wy in [0, 4q); with `GROW`, x, y in [0, B)
/// to [0, B + 4q) without corrections (`super::grow`).
#[inline(always)]
unsafe fn fwd_bfly<const BIG: bool, const GROW: bool>(
    x: __m256i,
    y: __m256i,
    w: &Tw,
    c: &Consts,
) -> (__m256i, __m256i) {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let (x, v, k) = if GROW {
            (x, mul_lazy4(y, w, c), c.four_q)
        } else {
            let x = sub_if_ge::<BIG>(x, c.two_q, c.two_q_b, c);
            (x, mul_lazy::<BIG>(y, w, c), c.two_q)
        };
        (
            _mm256_add_epi64(x, v),
            _mm256_sub_epi64(_mm256_add_epi64(x, k), v),
        )
    }
}

/// Gentleman–Sande butterfly: x, y in [0, 2q) to x + y, w(x - y) in [0, 2q).
#[inline(always)]
unsafe fn inv_bfly<const BIG: bool>(
    x: __m256i,
    y: __m256i,
    w: &Tw,
    c: &Consts,
) -> (__m256i, __m256i) {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let s = sub_if_ge::<BIG>(_mm256_add_epi64(x, y), c.two_q, c.two_q_b, c);
        let d = _mm256_sub_epi64(_mm256_add_epi64(x, c.two_q), y);
        (s, mul_lazy::<BIG>(d, w, c))
    }
}

/// The x- and y-halves of small stage s (0: t = 2, 1: t = 1) from a block (v0, v1), and back.
#[inline(always)]
unsafe fn split(s: usize, v0: __m256i, v1: __m256i) -> (__m256i, __m256i) {
    // SAFETY: the caller runs with avx2.
    unsafe {
        if s == 0 {
            (
                _mm256_permute2x128_si256::<0x20>(v0, v1),
                _mm256_permute2x128_si256::<0x31>(v0, v1),
            )
        } else {
            (_mm256_unpacklo_epi64(v0, v1), _mm256_unpackhi_epi64(v0, v1))
        }
    }
}

/// Forward transform, stages t >= 8 then the fused t = 4, 2, 1 pass (with the [0, q) correction if
/// `reduce`; with `GROW`, the Barrett step of `grow` first). Safety: avx2; a.len() == n >= 16 with `tw`
/// built for n; GROW only with `grow` from `super::grow` for q and n (and not BIG).
#[target_feature(enable = "avx2")]
unsafe fn forward_avx2<const BIG: bool, const GROW: bool>(
    a: &mut [u64],
    tw: &Twiddles,
    q: u64,
    reduce: bool,
    grow: Option<WordBarrett>,
) {
    let n = a.len();
    let p = a.as_mut_ptr();
    // SAFETY: every pointer below stays inside a: stage (t, m) (or a fused pair starting there) touches
    // [2it, 2it + 2t) for i < m with 2tm = n and j + 4 <= t; the small pass touches [8b, 8b + 8) for
    // b < n / 8. Twiddle loads read 4 entries at 4b of tables of length n / 2.
    unsafe {
        let c = Consts::new(q);
        let (mut t, mut m) = (n >> 1, 1);
        // Two stages per pass (radix 4): (t, m) then (t/2, 2m) on the quarters of each group.
        while t >= 16 {
            let h = t >> 1;
            for i in 0..m {
                let w = tw_bcast(tw, m + i);
                let w0 = tw_bcast(tw, 2 * (m + i));
                let w1 = tw_bcast(tw, 2 * (m + i) + 1);
                let p0 = p.add(2 * i * t);
                let (p1, p2, p3) = (p0.add(h), p0.add(2 * h), p0.add(3 * h));
                // Two independent columns per iteration (h >= 8) give the scheduler more to overlap.
                for j in (0..h).step_by(8) {
                    let k = j + 4;
                    let (v0, v2) = fwd_bfly::<BIG, GROW>(load(p0.add(j)), load(p2.add(j)), &w, &c);
                    let (u0, u2) = fwd_bfly::<BIG, GROW>(load(p0.add(k)), load(p2.add(k)), &w, &c);
                    let (v1, v3) = fwd_bfly::<BIG, GROW>(load(p1.add(j)), load(p3.add(j)), &w, &c);
                    let (u1, u3) = fwd_bfly::<BIG, GROW>(load(p1.add(k)), load(p3.add(k)), &w, &c);
                    let (v0, v1) = fwd_bfly::<BIG, GROW>(v0, v1, &w0, &c);
                    let (u0, u1) = fwd_bfly::<BIG, GROW>(u0, u1, &w0, &c);
                    let (v2, v3) = fwd_bfly::<BIG, GROW>(v2, v3, &w1, &c);
                    let (u2, u3) = fwd_bfly::<BIG, GROW>(u2, u3, &w1, &c);
                    store(p0.add(j), v0);
                    store(p1.add(j), v1);
                    store(p2.add(j), v2);
                    store(p3.add(j), v3);
                    store(p0.add(k), u0);
                    store(p1.add(k), u1);
                    store(p2.add(k), u2);
                    store(p3.add(k), u3);
                }
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
                    let (x, y) = fwd_bfly::<BIG, GROW>(load(xp.add(j)), load(yp.add(j)), &w, &c);
                    store(xp.add(j), x);
                    store(yp.add(j), y);
                }
            }
        }
        let (mu, shift) = match grow {
            Some(g) => (bcast(g.mu), _mm_cvtsi64_si128(i64::from(g.shift))),
            None => (bcast(0), _mm_setzero_si128()),
        };
        // Two blocks per iteration (n / 8 is even), in lockstep, for the same reason as above.
        for b in (0..n / 8).step_by(2) {
            let mut v = [0, 1].map(|k| [load(p.add(8 * (b + k))), load(p.add(8 * (b + k) + 4))]);
            for (k, v) in v.iter_mut().enumerate() {
                let (x, y) = fwd_bfly::<BIG, GROW>(v[0], v[1], &tw_bcast(tw, n / 8 + b + k), &c);
                *v = [x, y];
            }
            for s in 0..2 {
                for (k, v) in v.iter_mut().enumerate() {
                    let (x, y) = split(s, v[0], v[1]);
                    let (x, y) = fwd_bfly::<BIG, GROW>(x, y, &tw_lanes(tw, s, b + k), &c);
                    let (x, y) = split(s, x, y);
                    *v = [x, y];
                }
            }
            for (k, v) in v.iter().enumerate() {
                for (h, &x) in v.iter().enumerate() {
                    let x = if GROW {
                        // [0, 4q (log2(n) + 1)) to [0, 2q) (`super::grow`), then to [0, q) if asked.
                        let x = barrett_word(x, mu, shift, &c);
                        if reduce {
                            sub_if_ge::<BIG>(x, c.q, c.q_b, &c)
                        } else {
                            x
                        }
                    } else if reduce {
                        sub_if_ge::<BIG>(
                            sub_if_ge::<BIG>(x, c.two_q, c.two_q_b, &c),
                            c.q,
                            c.q_b,
                            &c,
                        )
                    } else {
                        x
                    };
                    store(p.add(8 * (b + k) + 4 * h), x);
                }
            }
        }
    }
}

/// Inverse transform: the fused t = 1, 2, 4 pass, stages t >= 8, the last (t = n/2) with 1/n folded in
/// and its output corrected to [0, q). Safety: as in `forward_avx2`.
#[target_feature(enable = "avx2")]
unsafe fn inverse_avx2<const BIG: bool>(a: &mut [u64], tables: &Tables) {
    let n = a.len();
    let p = a.as_mut_ptr();
    let tw = &tables.inv;
    // SAFETY: the same index ranges as in `forward_avx2`.
    unsafe {
        let c = Consts::new(tables.q);
        for b in (0..n / 8).step_by(2) {
            let mut v = [0, 1].map(|k| [load(p.add(8 * (b + k))), load(p.add(8 * (b + k) + 4))]);
            for s in [1, 0] {
                for (k, v) in v.iter_mut().enumerate() {
                    let (x, y) = split(s, v[0], v[1]);
                    let (x, y) = inv_bfly::<BIG>(x, y, &tw_lanes(tw, s, b + k), &c);
                    let (x, y) = split(s, x, y);
                    *v = [x, y];
                }
            }
            for (k, v) in v.iter().enumerate() {
                let (x, y) = inv_bfly::<BIG>(v[0], v[1], &tw_bcast(tw, n / 8 + b + k), &c);
                store(p.add(8 * (b + k)), x);
                store(p.add(8 * (b + k) + 4), y);
            }
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
                for j in (0..t).step_by(8) {
                    let k = j + 4;
                    let (v0, v1) = inv_bfly::<BIG>(load(p0.add(j)), load(p1.add(j)), &w0, &c);
                    let (u0, u1) = inv_bfly::<BIG>(load(p0.add(k)), load(p1.add(k)), &w0, &c);
                    let (v2, v3) = inv_bfly::<BIG>(load(p2.add(j)), load(p3.add(j)), &w1, &c);
                    let (u2, u3) = inv_bfly::<BIG>(load(p2.add(k)), load(p3.add(k)), &w1, &c);
                    let (v0, v2) = inv_bfly::<BIG>(v0, v2, &w, &c);
                    let (u0, u2) = inv_bfly::<BIG>(u0, u2, &w, &c);
                    let (v1, v3) = inv_bfly::<BIG>(v1, v3, &w, &c);
                    let (u1, u3) = inv_bfly::<BIG>(u1, u3, &w, &c);
                    store(p0.add(j), v0);
                    store(p1.add(j), v1);
                    store(p2.add(j), v2);
                    store(p3.add(j), v3);
                    store(p0.add(k), u0);
                    store(p1.add(k), u1);
                    store(p2.add(k), u2);
                    store(p3.add(k), u3);
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
                    let (x, y) = inv_bfly::<BIG>(load(xp.add(j)), load(yp.add(j)), &w, &c);
                    store(xp.add(j), x);
                    store(yp.add(j), y);
                }
            }
            t <<= 1;
        }
        // Last stage (t = n/2): x + y and (x - y) w, both times 1/n, corrected from [0, 2q) to [0, q).
        let (ni, wl) = (
            tw_of(tables.n_inv.value, tables.n_inv.quotient),
            tw_of(tables.last_inv.value, tables.last_inv.quotient),
        );
        for j in (0..t).step_by(4) {
            let (x, y) = (load(p.add(j)), load(p.add(j + t)));
            let s = _mm256_add_epi64(x, y);
            let d = _mm256_sub_epi64(_mm256_add_epi64(x, c.two_q), y);
            store(
                p.add(j),
                sub_if_ge::<BIG>(mul_lazy::<BIG>(s, &ni, &c), c.q, c.q_b, &c),
            );
            store(
                p.add(j + t),
                sub_if_ge::<BIG>(mul_lazy::<BIG>(d, &wl, &c), c.q, c.q_b, &c),
            );
        }
    }
}
