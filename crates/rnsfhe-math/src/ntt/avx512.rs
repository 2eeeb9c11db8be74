//! AVX-512 kernels of the Harvey butterflies (x86_64 only), 8 lanes of u64 per vector.
//!
//! The butterflies, lazy ranges and twiddle layout are those of [`super::scalar`] (Harvey 2014); only the
//! Shoup product `y * w mod q` in [0, 2q) differs between the two kernels:
//! - **IFMA** (q < 2^50): 52-bit Shoup quotients floor(w * 2^52 / q) and `vpmadd52{lo,hi}uq`, the approach
//!   of Intel HEXL (Boemer et al. 2021, "Intel HEXL: Accelerating Homomorphic Encryption with Intel
//!   AVX512-IFMA52"). Every operand must be below 2^52, which 4q < 2^52 guarantees.
//! - **AVX-512F/DQ** (q < 2^62): the 64-bit Shoup quotient of the scalar code; the high half of y * w' is
//!   estimated from three 32 x 32-bit `vpmuludq` products (at most 2 short, so the remainder lies in
//!   [0, 4q) and one conditional subtraction of 2q brings it to [0, 2q)), the low halves by `vpmullq`.
//!
//! Stages with t >= 8 run on contiguous vectors with a broadcast twiddle. The last three stages (t = 4, 2, 1)
//! run fused in registers on blocks of 16 values, permuted with `vpermt2q` so that the 8 lanes of one
//! vector hold the x-halves of 8 butterflies; their twiddles are pre-expanded per lane. The forward
//! transform's correction to [0, q) and the inverse's 1/n scaling are folded into those passes.

use std::arch::x86_64::*;

use crate::arith::vector::avx512::{barrett_word, reduce_once, WordConsts};
use crate::arith::{Modulus, Shoup, WordBarrett};

/// Butterfly-group twiddles w[m + i] (the layout of the scalar kernels) with the kernel's quotients, and
/// per-lane copies for the stages t = 4, 2, 1 (index 0, 1, 2): entry 8b + k belongs to lane k of block b.
#[derive(Clone, Debug)]
struct Twiddles {
    value: Vec<u64>,
    quot: Vec<u64>,
    small_value: [Vec<u64>; 3],
    small_quot: [Vec<u64>; 3],
}

/// vpermt2q indices per small stage t = 4, 2, 1: x-halves, y-halves, then the two inverse permutations.
const PERMS: [[[i64; 8]; 4]; 3] = [perm(4), perm(2), perm(1)];

const fn perm(t: usize) -> [[i64; 8]; 4] {
    let mut r = [[0i64; 8]; 4];
    let (mut j, mut k) = (0, 0);
    while j < 16 {
        if j & t == 0 {
            r[0][k] = j as i64;
            r[1][k] = (j + t) as i64;
            r[2 + j / 8][j % 8] = k as i64;
            r[2 + (j + t) / 8][(j + t) % 8] = 8 + k as i64;
            k += 1;
        }
        j += 1;
    }
    r
}

impl Twiddles {
    fn new(q: &Modulus, w: &[Shoup], ifma: bool) -> Self {
        let n = w.len();
        let value: Vec<u64> = w.iter().map(|s| s.value).collect();
        let quot: Vec<u64> = w.iter().map(|&s| quotient(q, s, ifma)).collect();
        let mut small_value: [Vec<u64>; 3] = Default::default();
        let mut small_quot: [Vec<u64>; 3] = Default::default();
        for (s, t) in [4usize, 2, 1].into_iter().enumerate() {
            let m = n / (2 * t);
            for b in 0..n / 16 {
                for &x in &PERMS[s][0] {
                    let idx = m + (16 * b + x as usize) / (2 * t);
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

/// floor(w * 2^52 / q) for the IFMA kernel, the scalar floor(w * 2^64 / q) otherwise.
fn quotient(q: &Modulus, s: Shoup, ifma: bool) -> u64 {
    if ifma {
        ((u128::from(s.value) << 52) / u128::from(q.value())) as u64
    } else {
        s.quotient
    }
}

/// Twiddle tables of one transform for one AVX-512 kernel. Only [`Tables::new`] builds them, and it checks
/// the CPU features, so holding a `Tables` proves the kernel may run.
#[derive(Clone, Debug)]
pub(super) struct Tables {
    ifma: bool,
    n: usize,
    q: u64,
    fwd: Twiddles,
    inv: Twiddles,
    /// n^-1 and n^-1 * w_inv[1] (the last inverse stage's twiddle) with the kernel's quotients.
    n_inv: (u64, u64),
    last_inv: (u64, u64),
    /// The AVX-512F forward transform's growth mode (`super::grow`) where q and n allow it (never
    /// IFMA).
    grow: Option<WordBarrett>,
}

impl Tables {
    /// Tables for n >= 16, or `None` when the CPU lacks the features (or q >= 2^50 for IFMA, or n < 16).
    pub(super) fn new(
        q: &Modulus,
        roots: &[Shoup],
        inv_roots: &[Shoup],
        n_inv: Shoup,
        ifma: bool,
    ) -> Option<Self> {
        let n = roots.len();
        if n < 16 || inv_roots.len() != n || !supported(q, ifma) {
            return None;
        }
        let last = q.shoup(q.mul(inv_roots[1].value, n_inv.value));
        Some(Tables {
            ifma,
            n,
            q: q.value(),
            fwd: Twiddles::new(q, roots, ifma),
            inv: Twiddles::new(q, inv_roots, ifma),
            n_inv: (n_inv.value, quotient(q, n_inv, ifma)),
            last_inv: (last.value, quotient(q, last, ifma)),
            grow: super::grow(q, n).filter(|_| !ifma),
        })
    }

    /// Forward transform: input in [0, 4q), output in [0, q) if `reduce`, else in [0, 4q). Returns false
    /// (doing nothing) when `a.len() != n`.
    pub(super) fn forward(&self, a: &mut [u64], reduce: bool) -> bool {
        if a.len() != self.n {
            return false;
        }
        if self.ifma {
            // SAFETY: `new` checked avx512f and avx512ifma at run time; a.len() == n >= 16 matches the tables.
            unsafe { forward_ifma(a, &self.fwd, self.q, reduce) }
        } else {
            // SAFETY: `new` checked avx512f at run time; a.len() == n >= 16 matches the tables, and
            // `grow` comes from `super::grow` for q and n.
            unsafe { forward_avx512(a, &self.fwd, self.q, reduce, self.grow) }
        }
        true
    }

    /// Inverse transform with 1/n: input in [0, 2q), output in [0, q). Returns false when `a.len() != n`.
    pub(super) fn inverse(&self, a: &mut [u64]) -> bool {
        if a.len() != self.n {
            return false;
        }
        if self.ifma {
            // SAFETY: as in `forward`.
            unsafe { inverse_ifma(a, self) }
        } else {
            // SAFETY: as in `forward`.
            unsafe { inverse_avx512(a, self) }
        }
        true
    }
}

/// Whether this CPU runs the kernel for q (IFMA needs 4q < 2^52; the other needs AVX-512DQ).
pub(super) fn supported(q: &Modulus, ifma: bool) -> bool {
    if ifma {
        q.bits() <= 50
            && is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512ifma")
    } else {
        is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512dq")
    }
}

#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn forward_ifma(a: &mut [u64], tw: &Twiddles, q: u64, reduce: bool) {
    // SAFETY: the caller guarantees the features and a.len() == n >= 16 for the tables `tw`.
    unsafe { forward_body::<true, false>(a, tw, q, reduce, None) }
}

#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn forward_avx512(
    a: &mut [u64],
    tw: &Twiddles,
    q: u64,
    reduce: bool,
    grow: Option<WordBarrett>,
) {
    // SAFETY: as in `forward_ifma`; `grow` from `super::grow` for q and n.
    unsafe {
        match grow {
            None => forward_body::<false, false>(a, tw, q, reduce, None),
            g => forward_body::<false, true>(a, tw, q, reduce, g),
        }
    }
}

#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn inverse_ifma(a: &mut [u64], t: &Tables) {
    // SAFETY: as in `forward_ifma`.
    unsafe { inverse_body::<true>(a, t) }
}

#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn inverse_avx512(a: &mut [u64], t: &Tables) {
    // SAFETY: as in `forward_ifma`.
    unsafe { inverse_body::<false>(a, t) }
}

/// Broadcast constants of one modulus.
#[derive(Clone, Copy)]
struct Consts {
    q: __m512i,
    two_q: __m512i,
    four_q: __m512i,
    /// 2^64 - q: its low 52 bits are 2^52 - q, the IFMA kernel's -q.
    neg_q: __m512i,
    mask52: __m512i,
}

impl Consts {
    #[inline(always)]
    unsafe fn new(q: u64) -> Self {
        // SAFETY: only called from the kernels, which run with avx512f enabled.
        unsafe {
            Consts {
                q: _mm512_set1_epi64(q as i64),
                two_q: _mm512_set1_epi64((2 * q) as i64),
                four_q: _mm512_set1_epi64((4 * q) as i64),
                neg_q: _mm512_set1_epi64(q.wrapping_neg() as i64),
                mask52: _mm512_set1_epi64((1i64 << 52) - 1),
            }
        }
    }
}

#[inline(always)]
unsafe fn load(p: *const u64) -> __m512i {
    // SAFETY: the caller guarantees 8 readable u64 at p and avx512f.
    unsafe { _mm512_loadu_epi64(p.cast()) }
}

#[inline(always)]
unsafe fn store(p: *mut u64, v: __m512i) {
    // SAFETY: the caller guarantees 8 writable u64 at p and avx512f.
    unsafe { _mm512_storeu_epi64(p.cast(), v) }
}

#[inline(always)]
unsafe fn bcast(x: u64) -> __m512i {
    // SAFETY: the caller runs with avx512f.
    unsafe { _mm512_set1_epi64(x as i64) }
}

/// floor(a * b / 2^64) - e with e in {0, 1, 2}, lane-wise from three 32 x 32-bit products.
#[inline(always)]
unsafe fn mul_hi_approx(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the caller runs with avx512f.
    unsafe {
        let (a_hi, b_hi) = (_mm512_srli_epi64::<32>(a), _mm512_srli_epi64::<32>(b));
        let lh = _mm512_mul_epu32(a, b_hi);
        let hl = _mm512_mul_epu32(a_hi, b);
        let hh = _mm512_mul_epu32(a_hi, b_hi);
        // Dropping a_lo * b_lo and the carries of the middle column loses less than 3.
        let hi = _mm512_add_epi64(hh, _mm512_srli_epi64::<32>(lh));
        _mm512_add_epi64(hi, _mm512_srli_epi64::<32>(hl))
    }
}

/// a * b mod 2^64 lane-wise: `vpmullq` (AVX-512DQ), measured 20 % faster per
/// transform than three 32 x 32-bit `vpmuludq` products with their shifts and adds (2^14 points,
/// 55-bit q, Ice Lake-SP: 84.5 -> 67.2 us forward + inverse), same bits.
#[inline(always)]
unsafe fn mul_lo(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the caller runs with avx512f and avx512dq.
    unsafe { _mm512_mullo_epi64(a, b) }
}

/// y * w mod q in [0, 2q) (Shoup); y < 2^52 for IFMA, any y otherwise; wq is w's quotient for the kernel.
#[inline(always)]
unsafe fn mul_lazy<const IFMA: bool>(y: __m512i, w: __m512i, wq: __m512i, c: &Consts) -> __m512i {
    // SAFETY: IFMA = true only from the avx512ifma entry points, otherwise avx512f is enabled.
    unsafe {
        if IFMA {
            // y * w - floor(y * wq / 2^52) * q lies in [0, 2q) and 2q < 2^52, so its low 52 bits are it.
            let z = _mm512_setzero_si512();
            let qhat = _mm512_madd52hi_epu64(z, y, wq);
            let r = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(z, y, w), qhat, c.neg_q);
            _mm512_and_si512(r, c.mask52)
        } else {
            // The quotient is up to 2 short, so y * w - qhat * q lies in [0, 4q) (4q < 2^64): one
            // conditional subtraction of 2q restores [0, 2q).
            let qhat = mul_hi_approx(y, wq);
            reduce_once(_mm512_sub_epi64(mul_lo(y, w), mul_lo(qhat, c.q)), c.two_q)
        }
    }
}

/// Cooley–Tukey butterfly: x, y in [0, 4q) to x + wy, x - wy in [0, 4q); with `GROW` (AVX-512F only),
/// x, y in [0, B) to [0, B + 4q) without corrections (`super::grow`).
#[inline(always)]
unsafe fn fwd_bfly<const IFMA: bool, const GROW: bool>(
    x: __m512i,
    y: __m512i,
    w: __m512i,
    wq: __m512i,
    c: &Consts,
) -> (__m512i, __m512i) {
    // SAFETY: as in `mul_lazy`.
    unsafe {
        let (x, v, k) = if GROW {
            // y w - qhat q in [0, 4q) (see `mul_lazy`), uncorrected.
            let v = _mm512_sub_epi64(mul_lo(y, w), mul_lo(mul_hi_approx(y, wq), c.q));
            (x, v, c.four_q)
        } else {
            (
                reduce_once(x, c.two_q),
                mul_lazy::<IFMA>(y, w, wq, c),
                c.two_q,
            )
        };
        (
            _mm512_add_epi64(x, v),
            _mm512_sub_epi64(_mm512_add_epi64(x, k), v),
        )
    }
}

/// Gentleman–Sande butterfly: x, y in [0, 2q) to x + y, w(x - y) in [0, 2q).
#[inline(always)]
unsafe fn inv_bfly<const IFMA: bool>(
    x: __m512i,
    y: __m512i,
    w: __m512i,
    wq: __m512i,
    c: &Consts,
) -> (__m512i, __m512i) {
    // SAFETY: as in `mul_lazy`.
    unsafe {
        let s = reduce_once(_mm512_add_epi64(x, y), c.two_q);
        let d = _mm512_sub_epi64(_mm512_add_epi64(x, c.two_q), y);
        (s, mul_lazy::<IFMA>(d, w, wq, c))
    }
}

/// The permutation indices of small stage s as vectors.
#[inline(always)]
unsafe fn perms(s: usize) -> [__m512i; 4] {
    // SAFETY: each PERMS row has 8 i64; avx512f is enabled by the caller.
    unsafe { PERMS[s].map(|r| _mm512_loadu_epi64(r.as_ptr())) }
}

/// Forward transform, stages t >= 8 then the fused t = 4, 2, 1 pass (with the [0, q) correction if
/// `reduce`; with `GROW`, the Barrett step of `grow` first). Safety: a.len() == n >= 16 with `tw` built
/// for n; features as in `mul_lazy`; GROW only without IFMA and with `grow` from `super::grow`.
#[inline(always)]
unsafe fn forward_body<const IFMA: bool, const GROW: bool>(
    a: &mut [u64],
    tw: &Twiddles,
    q: u64,
    reduce: bool,
    grow: Option<WordBarrett>,
) {
    let n = a.len();
    let p = a.as_mut_ptr();
    // SAFETY: every pointer below stays inside a: stage (t, m) (or a fused pair starting there) touches
    // [2it, 2it + 2t) for i < m with
    // 2tm = n and j + 8 <= t; the small pass touches [16b, 16b + 16) for b < n / 16. Twiddle loads read
    // 8 entries at 8b of tables of length n / 2. Features: see the entry points.
    unsafe {
        let c = Consts::new(q);
        let (mut t, mut m) = (n >> 1, 1);
        // Two stages per pass (radix 4): (t, m) then (t/2, 2m) on the quarters of each group.
        while t >= 16 {
            let h = t >> 1;
            for i in 0..m {
                let (w, wq) = (bcast(tw.value[m + i]), bcast(tw.quot[m + i]));
                let (w0, w0q) = (bcast(tw.value[2 * (m + i)]), bcast(tw.quot[2 * (m + i)]));
                let (w1, w1q) = (
                    bcast(tw.value[2 * (m + i) + 1]),
                    bcast(tw.quot[2 * (m + i) + 1]),
                );
                let p0 = p.add(2 * i * t);
                let (p1, p2, p3) = (p0.add(h), p0.add(2 * h), p0.add(3 * h));
                for j in (0..h).step_by(8) {
                    let (v0, v2) =
                        fwd_bfly::<IFMA, GROW>(load(p0.add(j)), load(p2.add(j)), w, wq, &c);
                    let (v1, v3) =
                        fwd_bfly::<IFMA, GROW>(load(p1.add(j)), load(p3.add(j)), w, wq, &c);
                    let (v0, v1) = fwd_bfly::<IFMA, GROW>(v0, v1, w0, w0q, &c);
                    let (v2, v3) = fwd_bfly::<IFMA, GROW>(v2, v3, w1, w1q, &c);
                    store(p0.add(j), v0);
                    store(p1.add(j), v1);
                    store(p2.add(j), v2);
                    store(p3.add(j), v3);
                }
            }
            t >>= 2;
            m <<= 2;
        }
        if t == 8 {
            for i in 0..m {
                let (w, wq) = (bcast(tw.value[m + i]), bcast(tw.quot[m + i]));
                let xp = p.add(2 * i * t);
                let yp = xp.add(t);
                for j in (0..t).step_by(8) {
                    let (x, y) =
                        fwd_bfly::<IFMA, GROW>(load(xp.add(j)), load(yp.add(j)), w, wq, &c);
                    store(xp.add(j), x);
                    store(yp.add(j), y);
                }
            }
        }
        let pm = [perms(0), perms(1), perms(2)];
        let word = grow.map(|g| WordConsts::new(&g));
        for b in 0..n / 16 {
            let (mut v0, mut v1) = (load(p.add(16 * b)), load(p.add(16 * b + 8)));
            for (s, pm) in pm.iter().enumerate() {
                let x = _mm512_permutex2var_epi64(v0, pm[0], v1);
                let y = _mm512_permutex2var_epi64(v0, pm[1], v1);
                let w = load(tw.small_value[s].as_ptr().add(8 * b));
                let wq = load(tw.small_quot[s].as_ptr().add(8 * b));
                let (x, y) = fwd_bfly::<IFMA, GROW>(x, y, w, wq, &c);
                v0 = _mm512_permutex2var_epi64(x, pm[2], y);
                v1 = _mm512_permutex2var_epi64(x, pm[3], y);
            }
            if let (true, Some(word)) = (GROW, &word) {
                // [0, 4q (log2(n) + 1)) to [0, 2q) (`super::grow`), then to [0, q) if asked.
                v0 = barrett_word(v0, word);
                v1 = barrett_word(v1, word);
                if reduce {
                    v0 = reduce_once(v0, c.q);
                    v1 = reduce_once(v1, c.q);
                }
            } else if reduce {
                v0 = reduce_once(reduce_once(v0, c.two_q), c.q);
                v1 = reduce_once(reduce_once(v1, c.two_q), c.q);
            }
            store(p.add(16 * b), v0);
            store(p.add(16 * b + 8), v1);
        }
    }
}

/// Inverse transform: the fused t = 1, 2, 4 pass, stages t >= 8, the last (t = n/2) with 1/n folded in
/// and its output corrected to [0, q). Safety: as in `forward_body`.
#[inline(always)]
unsafe fn inverse_body<const IFMA: bool>(a: &mut [u64], tables: &Tables) {
    let n = a.len();
    let p = a.as_mut_ptr();
    let tw = &tables.inv;
    // SAFETY: the same index ranges as in `forward_body`.
    unsafe {
        let c = Consts::new(tables.q);
        let pm = [perms(0), perms(1), perms(2)];
        for b in 0..n / 16 {
            let (mut v0, mut v1) = (load(p.add(16 * b)), load(p.add(16 * b + 8)));
            for s in (0..3).rev() {
                let x = _mm512_permutex2var_epi64(v0, pm[s][0], v1);
                let y = _mm512_permutex2var_epi64(v0, pm[s][1], v1);
                let w = load(tw.small_value[s].as_ptr().add(8 * b));
                let wq = load(tw.small_quot[s].as_ptr().add(8 * b));
                let (x, y) = inv_bfly::<IFMA>(x, y, w, wq, &c);
                v0 = _mm512_permutex2var_epi64(x, pm[s][2], y);
                v1 = _mm512_permutex2var_epi64(x, pm[s][3], y);
            }
            store(p.add(16 * b), v0);
            store(p.add(16 * b + 8), v1);
        }
        let (mut t, mut m) = (8, n >> 4);
        // Two stages per pass while both keep m >= 2: (t, m) on quarter pairs (0, 1) and (2, 3), then
        // (2t, m/2) on (0, 2) and (1, 3).
        while m >= 4 {
            for i in 0..m / 2 {
                let (w0, w0q) = (bcast(tw.value[m + 2 * i]), bcast(tw.quot[m + 2 * i]));
                let (w1, w1q) = (
                    bcast(tw.value[m + 2 * i + 1]),
                    bcast(tw.quot[m + 2 * i + 1]),
                );
                let (w, wq) = (bcast(tw.value[m / 2 + i]), bcast(tw.quot[m / 2 + i]));
                let p0 = p.add(4 * i * t);
                let (p1, p2, p3) = (p0.add(t), p0.add(2 * t), p0.add(3 * t));
                for j in (0..t).step_by(8) {
                    let (v0, v1) = inv_bfly::<IFMA>(load(p0.add(j)), load(p1.add(j)), w0, w0q, &c);
                    let (v2, v3) = inv_bfly::<IFMA>(load(p2.add(j)), load(p3.add(j)), w1, w1q, &c);
                    let (v0, v2) = inv_bfly::<IFMA>(v0, v2, w, wq, &c);
                    let (v1, v3) = inv_bfly::<IFMA>(v1, v3, w, wq, &c);
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
                let (w, wq) = (bcast(tw.value[m + i]), bcast(tw.quot[m + i]));
                let xp = p.add(2 * i * t);
                let yp = xp.add(t);
                for j in (0..t).step_by(8) {
                    let (x, y) = inv_bfly::<IFMA>(load(xp.add(j)), load(yp.add(j)), w, wq, &c);
                    store(xp.add(j), x);
                    store(yp.add(j), y);
                }
            }
            t <<= 1;
        }
        // Last stage (t = n/2): x + y and (x - y) w, both times 1/n, corrected from [0, 2q) to [0, q).
        let (ni, niq) = (bcast(tables.n_inv.0), bcast(tables.n_inv.1));
        let (wl, wlq) = (bcast(tables.last_inv.0), bcast(tables.last_inv.1));
        for j in (0..t).step_by(8) {
            let (x, y) = (load(p.add(j)), load(p.add(j + t)));
            let s = _mm512_add_epi64(x, y);
            let d = _mm512_sub_epi64(_mm512_add_epi64(x, c.two_q), y);
            store(p.add(j), reduce_once(mul_lazy::<IFMA>(s, ni, niq, &c), c.q));
            store(
                p.add(j + t),
                reduce_once(mul_lazy::<IFMA>(d, wl, wlq, &c), c.q),
            );
        }
    }
}
