//! Scalar Harvey butterflies over twiddles stored in bit-reversed order (the reference kernels).
//!
//! Forward (Cooley–Tukey, decimation in time): values enter in [0, 4q) and leave in [0, 4q).
//! Inverse (Gentleman–Sande, decimation in frequency): values enter in [0, 2q) and leave in [0, 2q).
//! Both need 4q < 2^64, which `Modulus` guarantees (q < 2^62).

use crate::arith::{Modulus, Shoup};

/// In-place forward transform; `w[m + i]` is the twiddle of butterfly group i at stage m (m = 1, 2, 4, ..),
/// the layout of SEAL and Harvey. Input in [0, 4q) (in particular [0, q)), output in [0, 4q).
pub(super) fn forward_lazy(a: &mut [u64], w: &[Shoup], q: &Modulus) {
    let n = a.len();
    let two_q = 2 * q.value();
    let mut t = n;
    let mut m = 1;
    while m < n {
        t >>= 1;
        for i in 0..m {
            let wi = w[m + i];
            let (lo, hi) = a[2 * i * t..2 * (i + 1) * t].split_at_mut(t);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let mut u = *x;
                if u >= two_q {
                    u -= two_q;
                }
                let v = q.mul_shoup_lazy(*y, wi);
                *x = u + v;
                *y = u + two_q - v;
            }
        }
        m <<= 1;
    }
}

/// In-place inverse transform without the 1/n factor; `w[m + i]` holds the inverse twiddles in the same
/// layout as the forward ones. Input in [0, 2q), output in [0, 2q).
pub(super) fn inverse_lazy(a: &mut [u64], w: &[Shoup], q: &Modulus) {
    let n = a.len();
    let two_q = 2 * q.value();
    let mut t = 1;
    let mut m = n >> 1;
    while m >= 1 {
        for i in 0..m {
            let wi = w[m + i];
            let (lo, hi) = a[2 * i * t..2 * (i + 1) * t].split_at_mut(t);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*x, *y);
                let mut s = u + v;
                if s >= two_q {
                    s -= two_q;
                }
                *x = s;
                *y = q.mul_shoup_lazy(u + two_q - v, wi);
            }
        }
        t <<= 1;
        m >>= 1;
    }
}

/// Maps [0, 4q) to [0, q).
#[inline(always)]
pub(super) fn correct_4q(x: u64, q: u64) -> u64 {
    let x = if x >= 2 * q { x - 2 * q } else { x };
    if x >= q {
        x - q
    } else {
        x
    }
}
