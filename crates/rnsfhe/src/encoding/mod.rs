//! Plaintext encodings of the BFV ring `Z_t[X]/(X^n + 1)`, independent of any scheme.
//!
//! - [`BatchEncoder`]: n slots of Z_t in SEAL's / OpenFHE's 2 x (n/2) matrix layout, so that the
//!   Galois automorphisms X -> X^(3^k) rotate the rows and X -> X^(2n-1) swaps them.
//! - [`CoefficientEncoder`]: values straight into coefficients, and the classic FV integer encoder.
//! - [`hypercube`]: the Galois elements that rotate the many slots of a general Phi_m along its
//!   hypercube, and Frobenius.
//! - [`apply_galois`]: X -> X^g on a plaintext coefficient vector.
//! - [`rotations`]: many row rotations of one ciphertext, and weighted sums of them, hoisted.

pub mod batch;
mod encoders;
pub mod hypercube;
pub mod integer;
pub mod rotations;

pub use batch::BatchEncoder;
pub(crate) use encoders::{integer_encoding_methods, Encoders};
pub use integer::CoefficientEncoder;
pub use rotations::IntegerWeights;

use crate::{Error, Result};

/// Applies the automorphism X -> X^g of `Z_t[X]/(X^n + 1)` to `coeffs` (n = `coeffs.len()`).
///
/// Coefficient i moves to X^(i g mod 2n), negated when i g mod 2n >= n. `g` is taken mod 2n and must
/// be odd; inputs are reduced mod t, the output is in [0, t). Errors when n is not a power of two,
/// t < 2, or g is even.
pub fn apply_galois(coeffs: &[u64], g: u64, t: u64) -> Result<Vec<u64>> {
    let n = coeffs.len();
    if !n.is_power_of_two() {
        return Err(Error::InvalidDegree {
            degree: n,
            reason: "the ring X^n + 1 needs n a power of two".into(),
        });
    }
    if t < 2 {
        return Err(Error::InvalidModulus {
            modulus: t,
            reason: "plaintext modulus must be at least 2".into(),
        });
    }
    let mask = 2 * n as u64 - 1;
    let g = g & mask;
    if g.is_multiple_of(2) {
        return Err(Error::OutOfRange(format!(
            "Galois element must be odd (coprime to 2n = {}); got {g} mod 2n",
            2 * n
        )));
    }
    let mut out = vec![0u64; n];
    for (i, &c) in coeffs.iter().enumerate() {
        let c = c % t;
        // i * g < 2n * 2n <= 2^36, no overflow.
        let e = ((i as u64 * g) & mask) as usize;
        if e < n {
            out[e] = c;
        } else {
            out[e - n] = if c == 0 { 0 } else { t - c };
        }
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn galois_on_monomials() {
        // n = 4, g = 3: X -> X^3, X^2 -> X^6 = -X^2, X^3 -> X^9 = X.
        let out = apply_galois(&[5, 1, 2, 3], 3, 17).unwrap();
        assert_eq!(out, vec![5, 3, 15, 1]);
        // g = 2n - 1: X^i -> X^(-i) = -X^(n-i).
        let out = apply_galois(&[5, 1, 2, 3], 7, 17).unwrap();
        assert_eq!(out, vec![5, 14, 15, 16]);
        assert_eq!(
            apply_galois(&[5, 1, 2, 3], 1, 17).unwrap(),
            vec![5, 1, 2, 3]
        );
    }

    #[test]
    fn galois_errors() {
        assert!(apply_galois(&[1, 2, 3, 4], 2, 17).is_err());
        assert!(apply_galois(&[1, 2, 3], 3, 17).is_err());
        assert!(apply_galois(&[1, 2, 3, 4], 3, 1).is_err());
    }
}
