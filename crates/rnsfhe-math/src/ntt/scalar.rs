//! Scalar Harvey butterflies over twiddles stored in bit-reversed order (the reference kernels).
//!
//! Forward (Cooley–Tukey, decimation in time): values enter in [0, 4q) and leave in [0, 4q), or in
//! [0, q) when the last stage also reduces. Inverse (Gentleman–Sande, decimation in frequency): values
//! enter in [0, 2q); the last stage folds in 1/n and leaves [0, q) (SEAL's scaled last-stage twiddle).
//! Both need 4q < 2^64, which `Modulus` guarantees (q < 2^62). Stages go in pairs where they can
//! (radix 4: the same butterflies on the same values, each word loaded and stored once per two
//! stages), the stages with t = 1 and t = 2 walk fixed-size chunks so that no group pays for slicing,
//! and the final reduction rides on the last stage instead of a separate pass (Harvey 2014, Alg. 4,
//! with the correction of its last line fused).

use crate::arith::{Modulus, Shoup};

/// One forward butterfly: (u, v) -> (u + w v, u - w v), inputs in [0, 4q), outputs in [0, 4q).
#[inline(always)]
fn ct(x: &mut u64, y: &mut u64, w: Shoup, q: &Modulus, two_q: u64) {
    let u = sub_if_ge(*x, two_q);
    let v = q.mul_shoup_lazy(*y, w);
    *x = u + v;
    *y = u + two_q - v;
}

/// One inverse butterfly: (u, v) -> (u + v, w (u - v)), inputs in [0, 2q), outputs in [0, 2q).
#[inline(always)]
fn gs(x: &mut u64, y: &mut u64, w: Shoup, q: &Modulus, two_q: u64) {
    let (u, v) = (*x, *y);
    let mut s = u + v;
    if s >= two_q {
        s -= two_q;
    }
    *x = s;
    *y = q.mul_shoup_lazy(u + two_q - v, w);
}

/// In-place forward transform; `w[m + i]` is the twiddle of butterfly group i at stage m (m = 1, 2, 4, ..),
/// the layout of SEAL and Harvey. Input in [0, 4q) (in particular [0, q)); output in [0, q) when
/// `reduce`, else in [0, 4q).
pub(super) fn forward(a: &mut [u64], w: &[Shoup], q: &Modulus, reduce: bool) {
    let n = a.len();
    let two_q = 2 * q.value();
    let mut m = 1;
    let mut t = n >> 1;
    // Stages with t >= 4: one radix-2 stage when their count is odd, then pairs of stages in one
    // sweep (radix 4: each word loaded and stored once per two stages).
    if t >= 4 && t.trailing_zeros().is_multiple_of(2) {
        for (blk, &wi) in a.chunks_exact_mut(2 * t).zip(&w[m..2 * m]) {
            let (lo, hi) = blk.split_at_mut(t);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                ct(x, y, wi, q, two_q);
            }
        }
        m <<= 1;
        t >>= 1;
    }
    while t >= 8 {
        let h = t / 2;
        for (g, blk) in a.chunks_exact_mut(2 * t).enumerate() {
            let (w1, w2, w3) = (w[m + g], w[2 * m + 2 * g], w[2 * m + 2 * g + 1]);
            let (lo, hi) = blk.split_at_mut(t);
            let (q0, q1) = lo.split_at_mut(h);
            let (q2, q3) = hi.split_at_mut(h);
            for (((x0, x1), x2), x3) in q0.iter_mut().zip(q1).zip(q2).zip(q3) {
                ct(x0, x2, w1, q, two_q);
                ct(x1, x3, w1, q, two_q);
                ct(x0, x1, w2, q, two_q);
                ct(x2, x3, w3, q, two_q);
            }
        }
        m <<= 2;
        t >>= 2;
    }
    let qv = q.value();
    let fix = |x: &mut u64| {
        if reduce {
            *x = correct_4q(*x, qv);
        }
    };
    if t == 2 {
        // The last two stages (t = 2, 1) in one sweep, the final reduction riding on it.
        for (g, blk) in a.chunks_exact_mut(4).enumerate() {
            let (w1, w2, w3) = (w[m + g], w[2 * m + 2 * g], w[2 * m + 2 * g + 1]);
            if let [x0, x1, x2, x3] = blk {
                ct(x0, x2, w1, q, two_q);
                ct(x1, x3, w1, q, two_q);
                ct(x0, x1, w2, q, two_q);
                ct(x2, x3, w3, q, two_q);
                [x0, x1, x2, x3].into_iter().for_each(fix);
            }
        }
        return;
    }
    // n = 2: one butterfly.
    if let [x0, x1] = a {
        ct(x0, x1, w[1], q, two_q);
        fix(x0);
        fix(x1);
    }
}

/// In-place inverse transform with the 1/n factor; `w[m + i]` holds the inverse twiddles in the same
/// layout as the forward ones, `n_inv` is 1/n and `w1_n_inv` is w[1] / n. Input in [0, 2q), output in [0, q).
pub(super) fn inverse(a: &mut [u64], w: &[Shoup], q: &Modulus, n_inv: Shoup, w1_n_inv: Shoup) {
    let n = a.len();
    let two_q = 2 * q.value();
    let mut m = n >> 1;
    let mut t = 1;
    if m > 1 {
        for (blk, &wi) in a.chunks_exact_mut(2).zip(&w[m..2 * m]) {
            let (lo, hi) = blk.split_at_mut(1);
            gs(&mut lo[0], &mut hi[0], wi, q, two_q);
        }
        m >>= 1;
        t = 2;
    }
    if m > 1 {
        for (blk, &wi) in a.chunks_exact_mut(4).zip(&w[m..2 * m]) {
            let (lo, hi) = blk.split_at_mut(2);
            gs(&mut lo[0], &mut hi[0], wi, q, two_q);
            gs(&mut lo[1], &mut hi[1], wi, q, two_q);
        }
        m >>= 1;
        t = 4;
    }
    // Pairs of stages in one sweep (radix 4), while both precede the last stage.
    while m >= 4 {
        for (g, blk) in a.chunks_exact_mut(4 * t).enumerate() {
            let (w1, w2, w3) = (w[m + 2 * g], w[m + 2 * g + 1], w[m / 2 + g]);
            let (lo, hi) = blk.split_at_mut(2 * t);
            let (q0, q1) = lo.split_at_mut(t);
            let (q2, q3) = hi.split_at_mut(t);
            for (((x0, x1), x2), x3) in q0.iter_mut().zip(q1).zip(q2).zip(q3) {
                gs(x0, x1, w1, q, two_q);
                gs(x2, x3, w2, q, two_q);
                gs(x0, x2, w3, q, two_q);
                gs(x1, x3, w3, q, two_q);
            }
        }
        m >>= 2;
        t <<= 2;
    }
    if m > 1 {
        for (blk, &wi) in a.chunks_exact_mut(2 * t).zip(&w[m..2 * m]) {
            let (lo, hi) = blk.split_at_mut(t);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                gs(x, y, wi, q, two_q);
            }
        }
        t <<= 1;
    }
    // m = 1: one group over the whole array, 1/n folded into both outputs.
    let (lo, hi) = a.split_at_mut(t);
    for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
        let (u, v) = (*x, *y);
        *x = q.mul_shoup(u + v, n_inv);
        *y = q.mul_shoup(u + two_q - v, w1_n_inv);
    }
}

/// Maps [0, 4q) to [0, q).
#[inline(always)]
pub(super) fn correct_4q(x: u64, q: u64) -> u64 {
    sub_if_ge(sub_if_ge(x, 2 * q), q)
}

/// x - m when x >= m, else x (for 0 < m): the minimum of x and x - m wrapped, branch-free, since
/// LLVM turns the comparison form into data-dependent branches in the forward transform's last stage.
#[inline(always)]
fn sub_if_ge(x: u64, m: u64) -> u64 {
    x.min(x.wrapping_sub(m))
}
