//! Coefficient encodings of `Z_t[X]/(X^n + 1)`: signed values straight into coefficients, and the
//! classic FV integer encoder (digits of an integer in a small base, evaluated back at that base).

use rnsfhe_math::arith::Modulus;

use crate::{Error, Result};

/// Puts signed values into the coefficients of a plaintext of `Z_t[X]/(X^n + 1)`, any t >= 2.
///
/// Additions and negacyclic products of plaintexts act on the coefficients; decoding is centered, so it
/// is exact while every coefficient stays in (-t/2, t/2].
#[derive(Clone, Debug)]
pub struct CoefficientEncoder {
    n: usize,
    t: Modulus,
}

impl CoefficientEncoder {
    /// An encoder for n >= 1 coefficients modulo t. Errors: `InvalidDegree` when n = 0,
    /// `InvalidModulus` when t < 2 or t >= 2^62.
    pub fn new(n: usize, t: u64) -> Result<Self> {
        if n == 0 {
            return Err(Error::InvalidDegree {
                degree: n,
                reason: "a plaintext needs at least one coefficient".into(),
            });
        }
        Ok(CoefficientEncoder {
            n,
            t: Modulus::new(t)?,
        })
    }

    /// The number n of coefficients.
    pub fn degree(&self) -> usize {
        self.n
    }

    /// The plaintext modulus t.
    pub fn plain_modulus(&self) -> u64 {
        self.t.value()
    }

    /// Coefficient i = `values[i]` mod t, in [0, t); missing coefficients are zero. Errors when there
    /// are more than n values or some |v| >= t.
    pub fn encode(&self, values: &[i64]) -> Result<Vec<u64>> {
        if values.len() > self.n {
            return Err(Error::OutOfRange(format!(
                "{} values do not fit the {} coefficients",
                values.len(),
                self.n
            )));
        }
        let t = self.t.value();
        let mut out = vec![0u64; self.n];
        for (i, (o, &v)) in out.iter_mut().zip(values).enumerate() {
            if v.unsigned_abs() >= t {
                return Err(Error::OutOfRange(format!(
                    "value {v} at index {i} has |v| >= the plaintext modulus t = {t}"
                )));
            }
            *o = self.t.reduce_i64(v);
        }
        Ok(out)
    }

    /// The n coefficients, each in [0, t), centered into (-t/2, t/2]. Errors when `coeffs.len() != n`
    /// or a coefficient is >= t.
    pub fn decode(&self, coeffs: &[u64]) -> Result<Vec<i64>> {
        self.check_plaintext(coeffs)?;
        Ok(coeffs.iter().map(|&c| self.t.center(c)).collect())
    }

    /// The FV integer encoding: the base-`base` digits d_i of |value|, least significant first, as
    /// coefficients sign(value) * d_i mod t (output in [0, t), n entries). Sums and products of such
    /// plaintexts decode to the sums and products of the integers while no coefficient leaves
    /// (-t/2, t/2] and no product wraps past X^n.
    ///
    /// Errors: `OutOfRange` when base < 2, when a digit cannot be decoded (2 (base - 1) >= t), or when
    /// |value| has more than n digits.
    pub fn encode_integer(&self, value: i64, base: u64) -> Result<Vec<u64>> {
        let t = self.t.value();
        if base < 2 {
            return Err(Error::OutOfRange(format!(
                "integer encoding base must be at least 2, got {base}"
            )));
        }
        if (base - 1).saturating_mul(2) >= t {
            return Err(Error::OutOfRange(format!(
                "base {base} needs t > 2 (base - 1) = {} so that digits decode; t = {t}",
                2 * (base - 1)
            )));
        }
        let mut out = vec![0u64; self.n];
        let mut m = value.unsigned_abs();
        let mut i = 0;
        while m > 0 {
            if i == self.n {
                return Err(Error::OutOfRange(format!(
                    "{value} has more than n = {} digits in base {base}",
                    self.n
                )));
            }
            let d = m % base;
            out[i] = if value < 0 { self.t.neg(d) } else { d };
            m /= base;
            i += 1;
        }
        Ok(out)
    }

    /// Evaluates the centered plaintext (coefficients in (-t/2, t/2]) at `base`: the integer of
    /// [`CoefficientEncoder::encode_integer`], also after additions and products. Errors when
    /// `coeffs.len() != n`, a coefficient is >= t, base < 2, or the value overflows i128.
    pub fn decode_integer(&self, coeffs: &[u64], base: u64) -> Result<i128> {
        self.check_plaintext(coeffs)?;
        if base < 2 {
            return Err(Error::OutOfRange(format!(
                "integer encoding base must be at least 2, got {base}"
            )));
        }
        let b = i128::from(base);
        // Horner from the top coefficient.
        coeffs.iter().rev().try_fold(0i128, |acc, &c| {
            acc.checked_mul(b)
                .and_then(|x| x.checked_add(i128::from(self.t.center(c))))
                .ok_or_else(|| {
                    Error::OutOfRange(format!(
                        "the plaintext evaluated at base {base} does not fit an i128"
                    ))
                })
        })
    }

    fn check_plaintext(&self, coeffs: &[u64]) -> Result<()> {
        if coeffs.len() != self.n {
            return Err(Error::LengthMismatch {
                what: "CoefficientEncoder (plaintext coefficients)",
                expected: self.n,
                got: coeffs.len(),
            });
        }
        let t = self.t.value();
        if let Some((i, c)) = coeffs.iter().enumerate().find(|(_, &c)| c >= t) {
            return Err(Error::OutOfRange(format!(
                "plaintext coefficient {c} at index {i} is not below t = {t}"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn coefficient_round_trip() {
        let enc = CoefficientEncoder::new(8, 257).unwrap();
        let v = [0i64, 1, -1, 128, -128, 256, -256];
        let a = enc.encode(&v).unwrap();
        assert_eq!(a[2], 256);
        let d = enc.decode(&a).unwrap();
        // 256 = -1 mod 257 and -256 = 1: centered decoding shows the reduced values.
        assert_eq!(d, vec![0, 1, -1, 128, -128, -1, 1, 0]);
        assert!(enc.encode(&[257]).is_err());
        assert!(enc.encode(&[-257]).is_err());
        assert!(enc.encode(&[0; 9]).is_err());
        assert!(enc.decode(&[0; 7]).is_err());
        assert!(enc.decode(&[257, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(CoefficientEncoder::new(0, 257).is_err());
        assert!(CoefficientEncoder::new(8, 1).is_err());
    }

    /// Negacyclic product mod t, schoolbook.
    fn mul(a: &[u64], b: &[u64], t: u64) -> Vec<u64> {
        let n = a.len();
        let mut out = vec![0u64; n];
        for (i, &x) in a.iter().enumerate() {
            for (j, &y) in b.iter().enumerate() {
                let p = x * y % t;
                let k = (i + j) % n;
                out[k] = if i + j < n {
                    (out[k] + p) % t
                } else {
                    (out[k] + t - p) % t
                };
            }
        }
        out
    }

    #[test]
    fn integer_encoder_homomorphic() {
        let t = 1 << 20;
        let enc = CoefficientEncoder::new(64, t).unwrap();
        for (x, y) in [
            (0i64, 5i64),
            (123_456, -789),
            (-1, -1),
            (i64::MAX, 1),
            (-99_999, 31_337),
        ] {
            for base in [2u64, 3, 10] {
                let (a, b) = (
                    enc.encode_integer(x, base).unwrap(),
                    enc.encode_integer(y, base).unwrap(),
                );
                assert_eq!(enc.decode_integer(&a, base).unwrap(), i128::from(x));
                let s: Vec<u64> = a.iter().zip(&b).map(|(p, q)| (p + q) % t).collect();
                assert_eq!(
                    enc.decode_integer(&s, base).unwrap(),
                    i128::from(x) + i128::from(y)
                );
                if x.unsigned_abs() < 1 << 20 {
                    let p = mul(&a, &b, t);
                    assert_eq!(
                        enc.decode_integer(&p, base).unwrap(),
                        i128::from(x) * i128::from(y)
                    );
                }
            }
        }
    }

    #[test]
    fn integer_encoder_errors() {
        let enc = CoefficientEncoder::new(8, 17).unwrap();
        assert!(enc.encode_integer(5, 1).is_err());
        assert!(enc.encode_integer(5, 10).is_err()); // needs t > 2 * 9
        let a = enc.encode_integer(-8, 9).unwrap(); // 2 * 8 = 16 < 17 is the limit
        assert_eq!(enc.decode_integer(&a, 9).unwrap(), -8);
        assert!(enc.encode_integer(256, 2).is_err()); // 9 binary digits > n = 8
        assert!(enc.encode_integer(255, 2).is_ok());
        assert!(enc.decode_integer(&[0; 8], 1).is_err());
        let big = CoefficientEncoder::new(256, 17).unwrap();
        assert!(big.decode_integer(&[1; 256], 2).is_err());
    }
}
