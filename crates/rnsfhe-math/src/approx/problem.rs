//! The statement of a minimax problem ([`MinimaxProblem`]), how [`super::remez()`] computes
//! ([`RemezOptions`]) and its answer ([`Minimax`]).

use super::chebyshev::{clenshaw, Parity};
use crate::{Error, Result};

/// The largest degree [`super::remez()`] accepts (its cost grows as d^3 per iteration).
pub const MAX_REMEZ_DEGREE: usize = 255;

/// What to approximate on: the intervals, the degree, the basis and the Chebyshev interval.
#[derive(Clone, Debug, PartialEq)]
pub struct MinimaxProblem {
    /// Disjoint closed intervals [a, b] (a < b). With [`Parity::Odd`] or [`Parity::Even`] they are
    /// the positive half of a symmetric set (each stands for itself and its mirror [-b, -a]) and
    /// need a > 0 (odd) or a >= 0 (even): a polynomial of one parity is fixed by its values for
    /// x >= 0, and only there is its basis a Haar system.
    pub intervals: Vec<(f64, f64)>,
    /// The degree d (>= 1; odd for `Odd`, even for `Even`).
    pub degree: usize,
    /// The basis: all T_k, or the odd or the even ones.
    pub parity: Parity,
    /// r of the Chebyshev interval [-r, r] the result is expressed on (T_k(x / r)); it must cover
    /// the intervals.
    pub radius: f64,
}

impl MinimaxProblem {
    /// Any polynomial of degree `degree` on the union of `intervals`, on the smallest symmetric
    /// Chebyshev interval that covers them.
    pub fn new(degree: usize, intervals: &[(f64, f64)]) -> Self {
        Self::with_parity(degree, intervals, Parity::Any)
    }

    /// An odd polynomial on the union of `positive` and its mirror (an odd target function).
    pub fn odd(degree: usize, positive: &[(f64, f64)]) -> Self {
        Self::with_parity(degree, positive, Parity::Odd)
    }

    /// An even polynomial on the union of `positive` and its mirror (an even target function).
    pub fn even(degree: usize, positive: &[(f64, f64)]) -> Self {
        Self::with_parity(degree, positive, Parity::Even)
    }

    fn with_parity(degree: usize, intervals: &[(f64, f64)], parity: Parity) -> Self {
        let radius = intervals
            .iter()
            .fold(0.0f64, |r, &(a, b)| r.max(a.abs()).max(b.abs()));
        MinimaxProblem {
            intervals: intervals.to_vec(),
            degree,
            parity,
            radius,
        }
    }

    /// The same problem expressed on [-r, r].
    pub fn with_radius(mut self, r: f64) -> Self {
        self.radius = r;
        self
    }

    /// The intervals, sorted, after every check. Errors: `InvalidParameters` naming the fault.
    pub(crate) fn checked(&self) -> Result<Vec<(f64, f64)>> {
        let bad = |why: String| Err(Error::InvalidParameters(format!("minimax problem: {why}")));
        let d = self.degree;
        if d == 0 || d > MAX_REMEZ_DEGREE {
            return bad(format!("degree {d} is not in 1..={MAX_REMEZ_DEGREE}"));
        }
        match self.parity {
            Parity::Odd if d.is_multiple_of(2) => {
                return bad(format!("an odd polynomial has odd degree, got {d}"))
            }
            Parity::Even if !d.is_multiple_of(2) => {
                return bad(format!("an even polynomial has even degree, got {d}"))
            }
            _ => {}
        }
        let r = self.radius;
        if !(r.is_finite() && r > 0.0) {
            return bad(format!(
                "the Chebyshev radius must be finite and > 0, got {r}"
            ));
        }
        if self.intervals.is_empty() {
            return bad("no interval to approximate on".into());
        }
        let mut iv = self.intervals.clone();
        for &(a, b) in &iv {
            if !(a.is_finite() && b.is_finite()) {
                return bad(format!("interval [{a}, {b}] is not finite"));
            }
            if a >= b {
                return bad(format!(
                    "interval [{a}, {b}] is empty or a single point (need a < b)"
                ));
            }
            if a < -r || b > r {
                return bad(format!(
                    "interval [{a}, {b}] exceeds the Chebyshev interval [-{r}, {r}]"
                ));
            }
            let low = match self.parity {
                Parity::Any => None,
                Parity::Odd if a <= 0.0 => Some("> 0 for an odd polynomial"),
                Parity::Even if a < 0.0 => Some(">= 0 for an even polynomial"),
                _ => None,
            };
            if let Some(need) = low {
                return bad(format!(
                    "interval [{a}, {b}] must have its lower end {need} (give the positive half of the symmetric set)"
                ));
            }
        }
        iv.sort_by(|x, y| x.0.total_cmp(&y.0));
        if let Some(w) = iv.windows(2).find(|w| w[0].1 >= w[1].0) {
            return bad(format!(
                "intervals {:?} and {:?} overlap or touch; merge them",
                w[0], w[1]
            ));
        }
        Ok(iv)
    }
}

/// How [`super::remez()`] computes: precision, stopping rule and scan density.
#[derive(Clone, Debug, PartialEq)]
pub struct RemezOptions {
    /// Working precision in bits (64..=4096).
    pub precision_bits: usize,
    /// Stop when (max - min) / max of the errors at the d + 2 alternation points is below this.
    pub tolerance: f64,
    /// Refuse (an error) after this many exchanges.
    pub max_iterations: usize,
    /// Samples between neighbouring reference points in the extremum search (>= 2); each run of one
    /// sign is then refined by golden-section search.
    pub samples_per_gap: usize,
}

impl Default for RemezOptions {
    fn default() -> Self {
        RemezOptions {
            precision_bits: 256,
            tolerance: 1e-12,
            max_iterations: 80,
            samples_per_gap: 8,
        }
    }
}

/// A minimax polynomial: sum_k chebyshev\[k] T_k(x / r) on `domain` = (-r, r).
#[derive(Clone, Debug, PartialEq)]
pub struct Minimax {
    /// The degree d.
    pub degree: usize,
    /// The Chebyshev interval (-r, r).
    pub domain: (f64, f64),
    /// c_0..c_d (the entries of the other parity are 0 for an odd or even problem).
    pub chebyshev: Vec<f64>,
    /// max |p(x) - f(x)| over the approximation set, p with the `f64` coefficients above, measured
    /// in the working precision on a dense scan refined around every extremum.
    pub max_error: f64,
    /// |h| of the last reference system: the error the high-precision polynomial levels at the
    /// alternation points (a lower bound on the best possible error, de la Vallée Poussin).
    pub levelled_error: f64,
    /// The final d + 2 alternation points (of the positive half for an odd or even problem),
    /// ascending; p - f alternates in sign on them.
    pub alternation: Vec<f64>,
    /// Exchanges done.
    pub iterations: usize,
}

impl Minimax {
    /// p(x) in `f64` (Clenshaw).
    pub fn evaluate(&self, x: f64) -> f64 {
        clenshaw(&self.chebyshev, x / self.domain.1)
    }
}
