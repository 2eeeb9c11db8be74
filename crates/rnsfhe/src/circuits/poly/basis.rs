//! Polynomials in the monomial basis 1, x, x^2, ... or the Chebyshev basis T_0, T_1, ... on an
//! interval [a, b], with coefficients of any scheme's [`Evaluator::Scalar`] (complex for CKKS, real
//! ones through [`Polynomial::monomial_real`] and [`Polynomial::chebyshev_real`]; integers mod t for
//! BGV, BFV and HPR), and the division by a power of the basis that baby-step giant-step splits
//! with (Bossuat et al., Eurocrypt 2021, Alg. 2; Lattigo's `polynomial.Factorize`).
//!
//! [`Evaluator::Scalar`]: crate::eval::Evaluator::Scalar

use crate::ckks::Complex;
use crate::{Error, Result};

/// The largest polynomial degree the evaluators accept (power, baby-step giant-step, Chebyshev):
/// the bases hold up to d ciphertexts and interpolation costs O(d^2), so a caller's degree is
/// bounded before any work. 1024 is far beyond what 60 levels evaluate accurately in practice
/// (Cheon et al. (SAC 2018) uses degree 7).
pub const MAX_POLYNOMIAL_DEGREE: usize = 1024;

/// The basis a polynomial's coefficients are given in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Basis {
    /// 1, x, x^2, ...
    Monomial,
    /// T_0(y), T_1(y), ... with y = (2x - a - b) / (b - a), which maps [a, b] onto [-1, 1].
    Chebyshev {
        /// The interval's lower end a.
        a: f64,
        /// The interval's upper end b.
        b: f64,
    },
}

impl Basis {
    /// The change of variable y = alpha x + beta of the basis (1, 0 for the monomial basis).
    pub fn affine(&self) -> (f64, f64) {
        match *self {
            Basis::Monomial => (1.0, 0.0),
            Basis::Chebyshev { a, b } => (2.0 / (b - a), -(a + b) / (b - a)),
        }
    }
}

/// p = sum_i coeffs\[i] B_i in a [`Basis`].
#[derive(Clone, Debug, PartialEq)]
pub struct Polynomial<C> {
    coeffs: Vec<C>,
    basis: Basis,
}

impl<C: Copy + PartialEq + Default> Polynomial<C> {
    /// sum_i coeffs\[i] x^i.
    pub fn monomial(coeffs: Vec<C>) -> Self {
        Polynomial {
            coeffs,
            basis: Basis::Monomial,
        }
    }

    /// sum_i coeffs\[i] T_i((2x - a - b) / (b - a)) on [a, b]. Errors: `InvalidParameters` unless
    /// a < b, both finite.
    pub fn chebyshev(coeffs: Vec<C>, (a, b): (f64, f64)) -> Result<Self> {
        if !(a < b && a.is_finite() && b.is_finite()) {
            return Err(Error::InvalidParameters(format!(
                "Chebyshev interpolation needs a < b finite, got [{a}, {b}]"
            )));
        }
        Ok(Polynomial {
            coeffs,
            basis: Basis::Chebyshev { a, b },
        })
    }

    /// The coefficients as given.
    pub fn coeffs(&self) -> &[C] {
        &self.coeffs
    }

    /// The basis.
    pub fn basis(&self) -> Basis {
        self.basis
    }

    /// The index of the last non-zero coefficient (0 for a constant or the zero polynomial).
    pub fn degree(&self) -> usize {
        degree(&self.coeffs).unwrap_or(0)
    }

    /// Whether every even coefficient is zero (an odd function such as sin: only odd terms are
    /// evaluated, in either basis, since T_i has the parity of i).
    pub fn is_odd(&self) -> bool {
        self.coeffs.iter().step_by(2).all(|c| *c == C::default())
    }

    /// Whether every odd coefficient is zero.
    pub fn is_even(&self) -> bool {
        self.coeffs
            .iter()
            .skip(1)
            .step_by(2)
            .all(|c| *c == C::default())
    }
}

impl Polynomial<Complex> {
    /// sum_i coeffs\[i] x^i with real coefficients (CKKS).
    pub fn monomial_real(coeffs: &[f64]) -> Self {
        Self::monomial(coeffs.iter().map(|&c| Complex::from_real(c)).collect())
    }

    /// The Chebyshev series with real coefficients on [a, b] (CKKS).
    pub fn chebyshev_real(coeffs: &[f64], interval: (f64, f64)) -> Result<Self> {
        Self::chebyshev(
            coeffs.iter().map(|&c| Complex::from_real(c)).collect(),
            interval,
        )
    }
}

/// The index of the last non-zero coefficient, `None` for the zero polynomial.
pub(super) fn degree<C: PartialEq + Default>(c: &[C]) -> Option<usize> {
    c.iter().rposition(|x| *x != C::default())
}

/// ceil(log2(d + 1)): the levels a polynomial of degree d spends (a product tree of that depth).
pub fn depth(d: usize) -> usize {
    (usize::BITS - d.leading_zeros()) as usize
}

/// p = low + B_m high with deg low < m (m a power of two, deg p < 2m), for the coefficients of p in
/// the monomial basis (a plain split) or the Chebyshev basis: T_m T_j = (T_(m+j) + T_(m-j)) / 2, so
/// high = (c_m, 2 c_(m+1), ..., 2 c_d) and low_(m-j) = c_(m-j) - c_(m+j) (Lattigo's
/// `Factorize`; no division, so it holds modulo t too). `mul_add(a, k, b)` = a + k b in the
/// scalar ring.
pub(super) fn split<C: Copy>(
    c: &[C],
    m: usize,
    chebyshev: bool,
    mul_add: impl Fn(C, i64, C) -> C,
) -> (Vec<C>, Vec<C>) {
    let mut low = c[..m].to_vec();
    let mut high = c[m..].to_vec();
    if chebyshev {
        for j in 1..high.len() {
            let cj = c[m + j];
            high[j] = mul_add(cj, 1, cj);
            low[m - j] = mul_add(low[m - j], -1, cj);
        }
    }
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Evaluates a polynomial of either basis at y in [-1, 1] in f64.
    fn value(c: &[f64], y: f64, chebyshev: bool) -> f64 {
        c.iter()
            .enumerate()
            .map(|(i, ci)| {
                ci * if chebyshev {
                    (i as f64 * y.acos()).cos()
                } else {
                    y.powi(i as i32)
                }
            })
            .sum()
    }

    /// low + B_m high equals p at sample points, in both bases.
    #[test]
    fn split_is_a_division() {
        let c: Vec<f64> = (0..=13).map(|i| ((i * 5 % 7) as f64 - 3.0) / 4.0).collect();
        for chebyshev in [false, true] {
            for m in [8usize] {
                let (low, high) = split(&c, m, chebyshev, |a, k, b| a + k as f64 * b);
                for y in [-0.9, -0.3, 0.1, 0.7] {
                    let bm = if chebyshev {
                        (m as f64 * f64::acos(y)).cos()
                    } else {
                        f64::powi(y, m as i32)
                    };
                    let got = value(&low, y, chebyshev) + bm * value(&high, y, chebyshev);
                    assert!((got - value(&c, y, chebyshev)).abs() < 1e-12, "{chebyshev}");
                }
            }
        }
    }

    #[test]
    fn degree_depth_parity() {
        assert_eq!(depth(63), 6);
        assert_eq!(depth(64), 7);
        assert_eq!(depth(1), 1);
        let p = Polynomial::monomial(vec![0i64, 3, 0, -1, 0, 0]);
        assert_eq!(p.degree(), 3);
        assert!(p.is_odd() && !p.is_even());
        assert!(Polynomial::<i64>::chebyshev(vec![1], (1.0, -1.0)).is_err());
    }
}
