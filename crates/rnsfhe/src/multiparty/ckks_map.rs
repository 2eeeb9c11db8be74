//! A complex linear map of CKKS slots applied to integer shares (the masks and the masked
//! plaintext of a refresh, [`super::transform`]), in double-double arithmetic.
//!
//! A share is an integer polynomial of b bits (b about lambda + log2(n) + log2(Delta), 100 bits and
//! more). Its n' slots (the subring of Y = X^(N / 2n'), the encoder's sparse packing) are
//! z_j = sum_{k < 2n'} c_k w^(k 5^j) with w = exp(-pi i / 2n') (the encoder's convention, zeta =
//! exp(-pi i / N)); the map's slots A z go back to the subring's coefficients as c'_k = (1/n') Re
//! sum_j (A z)_j w^(-k 5^j), rounded to integers (the other coefficients: 0, a projection that keeps
//! the slots). In f64 (53 bits) the slots of a 100-bit share would err by 2^47 units, more than the
//! message's Delta; here every value is a double-double (an unevaluated sum hi + lo of two f64, about
//! 104 bits: Dekker, "A floating-point technique for extending the available precision", Numer.
//! Math. 1971; Hida, Li and Bailey, "Library for double-double and quad-double arithmetic", 2007),
//! the roots w^k are products of at most log2(4n') half-angle roots computed in it, so a share's
//! map errs by about n' 2^(b - 104) units plus the rounding (1/2), far below Delta for b <= 120
//! (the tests measure it). The cost is O(n'^2) per share (two direct transforms and the dense
//! matrix), meant for n' up to a few thousand slots.

use crate::ckks::Complex;
use crate::{Error, Result};

/// hi + lo with |lo| <= ulp(hi) / 2.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Dd {
    hi: f64,
    lo: f64,
}

fn quick_two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd {
        hi: s,
        lo: b - (s - a),
    }
}

fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    Dd {
        hi: s,
        lo: (a - (s - bb)) + (b - bb),
    }
}

impl Dd {
    const ZERO: Dd = Dd { hi: 0.0, lo: 0.0 };

    fn from_f64(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }

    /// x exactly when |x| < 2^106 (to 106 bits above).
    fn from_i128(x: i128) -> Dd {
        let hi = x as f64;
        let rest = x - hi as i128;
        quick_two_sum(hi, rest as f64)
    }

    /// The nearest integer (ties away from zero on the high part).
    fn round(self) -> Result<i128> {
        let h = self.hi.round();
        if !h.is_finite() || h.abs() >= 2f64.powi(126) {
            return Err(Error::InvalidParameters(
                "a CKKS slot map takes a share beyond 126 bits: a map of smaller norm".into(),
            ));
        }
        let r = ((self.hi - h) + self.lo).round();
        Ok(h as i128 + r as i128)
    }

    fn add(self, y: Dd) -> Dd {
        let s = two_sum(self.hi, y.hi);
        let t = two_sum(self.lo, y.lo);
        let s = quick_two_sum(s.hi, s.lo + t.hi);
        quick_two_sum(s.hi, s.lo + t.lo)
    }

    fn neg(self) -> Dd {
        Dd {
            hi: -self.hi,
            lo: -self.lo,
        }
    }

    fn sub(self, y: Dd) -> Dd {
        self.add(y.neg())
    }

    fn mul(self, y: Dd) -> Dd {
        let p = self.hi * y.hi;
        let e = self.hi.mul_add(y.hi, -p);
        quick_two_sum(p, e + (self.hi * y.lo + self.lo * y.hi))
    }

    fn scale(self, f: f64) -> Dd {
        self.mul(Dd::from_f64(f))
    }

    fn div(self, y: Dd) -> Dd {
        let q1 = self.hi / y.hi;
        let r = self.sub(y.scale(q1));
        let q2 = r.hi / y.hi;
        let r = r.sub(y.scale(q2));
        let q3 = r.hi / y.hi;
        quick_two_sum(q1, q2).add(Dd::from_f64(q3))
    }

    fn sqrt(self) -> Dd {
        if self.hi <= 0.0 {
            return Dd::ZERO;
        }
        let y = Dd::from_f64(self.hi.sqrt());
        // One Newton step: y + (x - y^2) / (2 y).
        y.add(self.sub(y.mul(y)).div(y.scale(2.0)))
    }
}

/// A complex double-double.
#[derive(Clone, Copy, Debug, Default)]
struct Cdd {
    re: Dd,
    im: Dd,
}

impl Cdd {
    fn add(self, y: Cdd) -> Cdd {
        Cdd {
            re: self.re.add(y.re),
            im: self.im.add(y.im),
        }
    }

    fn mul(self, y: Cdd) -> Cdd {
        Cdd {
            re: self.re.mul(y.re).sub(self.im.mul(y.im)),
            im: self.re.mul(y.im).add(self.im.mul(y.re)),
        }
    }

    fn mul_real(self, x: Dd) -> Cdd {
        Cdd {
            re: self.re.mul(x),
            im: self.im.mul(x),
        }
    }
}

/// w^k = exp(-2 pi i k / m) for 0 <= k < m (m a power of two >= 4) in double-double: the
/// half-angle roots w^(2^i) (cos(t/2) = sqrt((1 + cos t) / 2), sin(t/2) = sin t / (2 cos(t/2)),
/// from w^(m/4) = -i), and each power their product over the bits of k.
fn roots(m: usize) -> Vec<Cdd> {
    let steps = m.trailing_zeros() as usize; // m = 2^steps
                                             // half[i] = exp(-2 pi i 2^i / m); half[steps - 2] = -i.
    let mut half = vec![Cdd::default(); steps];
    let (mut c, mut s) = (Dd::ZERO, Dd::from_f64(1.0)); // angle pi / 2
    half[steps - 2] = Cdd { re: c, im: s.neg() };
    for i in (0..steps.saturating_sub(2)).rev() {
        let c2 = c.add(Dd::from_f64(1.0)).scale(0.5).sqrt();
        s = s.div(c2.scale(2.0));
        c = c2;
        half[i] = Cdd { re: c, im: s.neg() };
    }
    // w^(m/2) = -1.
    half[steps - 1] = Cdd {
        re: Dd::from_f64(-1.0),
        im: Dd::ZERO,
    };
    (0..m)
        .map(|k| {
            let one = Cdd {
                re: Dd::from_f64(1.0),
                im: Dd::ZERO,
            };
            (0..steps)
                .filter(|i| k >> i & 1 == 1)
                .fold(one, |acc, i| acc.mul(half[i]))
        })
        .collect()
}

/// The map `a` (row-major n' x n' over the slots) of the integer polynomial `coeffs` (degree N,
/// its n' = `slots` slots in the subring) as integer coefficients of degree N, in the subring
/// (module doc).
pub(crate) fn apply(coeffs: &[i128], a: &[Complex], slots: usize) -> Result<Vec<i128>> {
    let n = coeffs.len();
    if slots == 0 || !slots.is_power_of_two() || 2 * slots > n || a.len() != slots * slots {
        return Err(Error::InvalidParameters(format!(
            "a CKKS slot map of {} entries on a ciphertext of {slots} slots: an {slots} x {slots} \
             matrix",
            a.len()
        )));
    }
    let m = 4 * slots; // the order of w
    let gap = n / (2 * slots);
    let w = roots(m);
    // 5^j mod 4n' for j < n'.
    let mut rot = Vec::with_capacity(slots);
    let mut g = 1usize;
    for _ in 0..slots {
        rot.push(g);
        g = g * 5 % m;
    }
    let c: Vec<Dd> = (0..2 * slots)
        .map(|k| Dd::from_i128(coeffs[k * gap]))
        .collect();
    // z_j = sum_k c_k w^(k 5^j).
    let z: Vec<Cdd> = rot
        .iter()
        .map(|&r| {
            c.iter().enumerate().fold(Cdd::default(), |acc, (k, &ck)| {
                acc.add(w[k * r % m].mul_real(ck))
            })
        })
        .collect();
    // (A z)_i.
    let az: Vec<Cdd> = a
        .chunks_exact(slots)
        .map(|row| {
            row.iter().zip(&z).fold(Cdd::default(), |acc, (e, &zj)| {
                let e = Cdd {
                    re: Dd::from_f64(e.re),
                    im: Dd::from_f64(e.im),
                };
                acc.add(e.mul(zj))
            })
        })
        .collect();
    // c'_k = (1/n') Re sum_j (A z)_j w^(-k 5^j), with w^(-e) = w^(m - e).
    let inv = 1.0 / slots as f64;
    let mut out = vec![0i128; n];
    for k in 0..2 * slots {
        let s = az.iter().zip(&rot).fold(Dd::ZERO, |acc, (x, &r)| {
            let e = (m - k * r % m) % m;
            acc.add(x.mul(w[e]).re)
        });
        out[k * gap] = s.scale(inv).round()?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::ckks::CkksEncoder;

    /// The map computed here against the encoder in f64 on small shares (where f64 is exact
    /// enough): decode, multiply, encode; and linearity on 110-bit shares, whose error measures the
    /// arithmetic's (a few units, against Delta of 2^40 and more).
    #[test]
    fn map_matches_the_encoder_and_is_linear_on_large_shares() {
        let (n, slots) = (64usize, 8usize);
        let enc = CkksEncoder::new(n).unwrap();
        let a: Vec<Complex> = (0..slots * slots)
            .map(|i| Complex::new((i % 5) as f64 * 0.25 - 0.5, (i % 3) as f64 * 0.5 - 0.5))
            .collect();
        let v: Vec<Complex> = (0..slots)
            .map(|i| Complex::new(i as f64 / 8.0, 1.0 - i as f64 / 16.0))
            .collect();
        let scale = 2f64.powi(30);
        let coeffs = enc.encode(&v, scale).unwrap();
        let got = apply(&coeffs, &a, slots).unwrap();
        let f: Vec<f64> = got.iter().map(|&x| x as f64).collect();
        let back = enc.decode(&f, scale, slots).unwrap();
        for (i, b) in back.iter().enumerate() {
            let want = (0..slots).fold(Complex::default(), |acc, j| acc + a[i * slots + j] * v[j]);
            assert!((*b - want).abs() < 1e-7, "slot {i}: {b:?} against {want:?}");
        }
        let big = |seed: i128| -> Vec<i128> {
            (0..n as i128)
                .map(|k| ((k * 7919 + seed) * 0x1234_5678_9abc_def1_2345) % (1i128 << 110))
                .collect()
        };
        let (x, y) = (big(3), big(11));
        let sum: Vec<i128> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
        let (fx, fy, fs) = (
            apply(&x, &a, slots).unwrap(),
            apply(&y, &a, slots).unwrap(),
            apply(&sum, &a, slots).unwrap(),
        );
        let worst = (0..n).map(|k| (fx[k] + fy[k] - fs[k]).abs()).max().unwrap();
        eprintln!("linearity on 110-bit shares: off by {worst} units at most");
        assert!(
            worst <= 1 << 10,
            "linearity off by {worst} units on 110-bit shares"
        );
    }

    #[test]
    fn roots_are_on_the_unit_circle() {
        let w = roots(64);
        for (k, r) in w.iter().enumerate() {
            let t = -2.0 * core::f64::consts::PI * k as f64 / 64.0;
            assert!((r.re.hi - t.cos()).abs() < 1e-15 && (r.im.hi - t.sin()).abs() < 1e-15);
            let norm = r.re.mul(r.re).add(r.im.mul(r.im)).sub(Dd::from_f64(1.0));
            assert!(norm.hi.abs() < 1e-29, "k = {k}: |w|^2 - 1 = {:e}", norm.hi);
        }
    }
}
