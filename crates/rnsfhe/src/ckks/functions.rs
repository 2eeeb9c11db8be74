//! Functions of encrypted vectors (paper 004 section 5): polynomial evaluation, the multiplicative
//! inverse (paper 004 via [12] Alg. 2), exp and sigmoid by Taylor expansions of degree 7, and the
//! slot sum, mean and variance by rotate-and-add ([10] Alg. 2).
//!
//! Polynomials use the power basis with a depth-optimal power tree: x^i = x^(2^a) x^(i - 2^a) for the
//! largest 2^a < i, so every x^i costs depth ceil(log2 i); each term is brought to the lowest level,
//! multiplied by its coefficient (one more level) and summed. Depth ceil(log2 d) + 1 for degree d.
//! Terms reach the lowest level through different rescalings; each is multiplied by its coefficient
//! with a constant that lands on one target scale exactly (`mul_const_rescale_to`), so every sum meets
//! equal scales (the slot mean and the variance do the same; see `align` in `ops`).

use super::{CkksCiphertext, CkksContext};
use crate::rlwe::{GaloisKeys, RelinKey};
use crate::{Error, Result};

/// The largest polynomial degree the evaluators accept (power tree, baby-step giant-step, Chebyshev):
/// the power tree and the Chebyshev basis hold d ciphertexts, and interpolation costs O(d^2), so a
/// caller's degree is bounded before any work. 1024 is far beyond what 60 levels evaluate accurately
/// in practice (paper 004 uses degree 7).
pub const MAX_POLYNOMIAL_DEGREE: usize = 1024;

/// ceil(log2 d), the depth of x^d by the power tree (0 for d <= 1).
fn depth_of(d: usize) -> usize {
    (usize::BITS - d.saturating_sub(1).leading_zeros()) as usize
}

/// The Taylor coefficients of the sigmoid 1 / (1 + e^-x) around 0 up to degree 7 (paper 004 Table 2).
pub const SIGMOID_TAYLOR_7: [f64; 8] = [
    0.5,
    0.25,
    0.0,
    -1.0 / 48.0,
    0.0,
    1.0 / 480.0,
    0.0,
    -17.0 / 80640.0,
];

impl CkksContext {
    /// Refuses a degree `d` of 0 or above [`MAX_POLYNOMIAL_DEGREE`], or one whose ceil(log2 d) levels
    /// plus `extra` exceed the `level` left, before any work (`what` names the operation).
    pub(super) fn check_degree(
        &self,
        d: usize,
        extra: usize,
        level: usize,
        what: &str,
    ) -> Result<()> {
        if d == 0 || d > MAX_POLYNOMIAL_DEGREE {
            return Err(Error::OutOfRange(format!(
                "{what}: degree {d} is not in 1..={MAX_POLYNOMIAL_DEGREE}"
            )));
        }
        let need = depth_of(d) + extra;
        if need > level {
            return Err(Error::InvalidParameters(format!(
                "{what}: degree {d} needs {need} levels, the ciphertext has {level} left"
            )));
        }
        Ok(())
    }

    /// The checks of [`Self::evaluate_chebyshev`] on the degree (range and levels), for callers that
    /// sample f before evaluating (the Python binding).
    pub fn check_chebyshev_degree(&self, x: &CkksCiphertext, d: usize) -> Result<()> {
        self.check_degree(d, 2, x.level(), "Chebyshev interpolation")
    }

    /// The powers x^1..x^d, each relinearised and rescaled (x^i at depth ceil(log2 i)).
    pub fn powers(
        &self,
        x: &CkksCiphertext,
        d: usize,
        rlk: &RelinKey,
    ) -> Result<Vec<CkksCiphertext>> {
        self.check_degree(d, 0, x.level(), "powers")?;
        let mut p: Vec<CkksCiphertext> = vec![x.clone()];
        for i in 2..=d {
            let a = 1usize << (usize::BITS - 1 - (i - 1).leading_zeros());
            let (hi, lo) = (&p[a - 1], &p[i - a - 1]);
            let level = hi.level().min(lo.level());
            let (h, l) = (
                self.drop_to_level(hi, level)?,
                self.drop_to_level(lo, level)?,
            );
            p.push(self.multiply_rescale(&h, &l, rlk)?);
        }
        Ok(p)
    }

    /// p(x) = sum_i coeffs[i] x^i (real coefficients, degree >= 1), depth ceil(log2 d) + 1.
    pub fn evaluate_polynomial(
        &self,
        x: &CkksCiphertext,
        coeffs: &[f64],
        rlk: &RelinKey,
    ) -> Result<CkksCiphertext> {
        if coeffs.len() > MAX_POLYNOMIAL_DEGREE + 1 {
            return Err(Error::OutOfRange(format!(
                "evaluate_polynomial: {} coefficients, at most {} (degree {MAX_POLYNOMIAL_DEGREE})",
                coeffs.len(),
                MAX_POLYNOMIAL_DEGREE + 1
            )));
        }
        let d = coeffs.iter().rposition(|&c| c != 0.0).unwrap_or(0);
        if d == 0 {
            return Err(Error::InvalidParameters(
                "evaluate_polynomial needs degree >= 1; add a constant with add_const".into(),
            ));
        }
        if coeffs.iter().any(|c| !c.is_finite()) {
            return Err(Error::OutOfRange(
                "polynomial coefficients must be finite".into(),
            ));
        }
        self.check_degree(d, 1, x.level(), "evaluate_polynomial")?;
        let powers = self.powers(x, d, rlk)?;
        let level = powers.iter().map(CkksCiphertext::level).min().unwrap_or(0);
        if level == 0 {
            return Err(Error::InvalidParameters(format!(
                "degree {d} needs {} levels with its coefficients, the ciphertext has {}",
                usize::BITS - (d - 1).leading_zeros() + 1,
                x.level()
            )));
        }
        self.combine(&powers, coeffs, level)
    }

    /// sum_{i >= 1} coeffs[i] basis[i - 1] + coeffs[0]: every term brought to `level + 1`, multiplied by
    /// its coefficient with the constant chosen so that all terms land on one scale exactly
    /// (`mul_const_rescale_to`), then summed.
    pub(super) fn combine(
        &self,
        basis: &[CkksCiphertext],
        coeffs: &[f64],
        level: usize,
    ) -> Result<CkksCiphertext> {
        let target = self.params().scale();
        let mut acc: Option<CkksCiphertext> = None;
        for (i, c) in coeffs.iter().enumerate().skip(1).take(basis.len()) {
            if *c == 0.0 {
                continue;
            }
            let term =
                self.mul_const_rescale_to(&self.drop_to_level(&basis[i - 1], level)?, *c, target)?;
            acc = Some(match acc {
                None => term,
                Some(mut a) => {
                    self.add_assign(&mut a, &term)?;
                    a
                }
            });
        }
        let acc = acc.ok_or_else(|| Error::InvalidParameters("zero polynomial".into()))?;
        self.add_const(&acc, coeffs[0])
    }

    /// Chebyshev polynomials T_1(y)..T_d(y), T_i = 2 T_a T_(i-a) - T_(2a-i) for the largest power of
    /// two a < i (T_0 = 1), so T_i has depth ceil(log2 i).
    pub fn chebyshev_basis(
        &self,
        y: &CkksCiphertext,
        d: usize,
        rlk: &RelinKey,
    ) -> Result<Vec<CkksCiphertext>> {
        self.check_degree(d, 0, y.level(), "chebyshev_basis")?;
        let mut t: Vec<CkksCiphertext> = vec![y.clone()];
        for i in 2..=d {
            let a = 1usize << (usize::BITS - 1 - (i - 1).leading_zeros());
            let (ta, tb) = (&t[a - 1], &t[i - a - 1]);
            let level = ta.level().min(tb.level());
            let prod = self.multiply_rescale(
                &self.drop_to_level(ta, level)?,
                &self.drop_to_level(tb, level)?,
                rlk,
            )?;
            let twice = self.mul_integer(&prod, 2)?;
            let next = match 2 * a - i {
                0 => self.add_const(&twice, -1.0)?,
                j => {
                    // T_j is shallower: one constant product brings it to this level and scale.
                    let low = self.drop_to_level(&t[j - 1], twice.level() + 1)?;
                    let low = self.mul_const_rescale_to(&low, 1.0, twice.scale())?;
                    self.sub(&twice, &low)?
                }
            };
            t.push(next);
        }
        Ok(t)
    }

    /// f's Chebyshev interpolant of degree d on [a, b]: coefficients c_0..c_d of sum c_k T_k(y),
    /// y = (2x - a - b) / (b - a), from the values at the d + 1 Chebyshev nodes. O(d^2): callers with
    /// a user's degree check it first ([`Self::check_chebyshev_degree`]).
    pub fn chebyshev_coefficients(f: impl Fn(f64) -> f64, a: f64, b: f64, d: usize) -> Vec<f64> {
        let m = d + 1;
        let nodes: Vec<f64> = (0..m)
            .map(|j| (std::f64::consts::PI * (j as f64 + 0.5) / m as f64).cos())
            .collect();
        let values: Vec<f64> = nodes
            .iter()
            .map(|&y| f((b - a) / 2.0 * y + (a + b) / 2.0))
            .collect();
        (0..m)
            .map(|k| {
                let s: f64 = (0..m)
                    .map(|j| {
                        values[j]
                            * (std::f64::consts::PI * k as f64 * (j as f64 + 0.5) / m as f64).cos()
                    })
                    .sum();
                s * if k == 0 { 1.0 } else { 2.0 } / m as f64
            })
            .collect()
    }

    /// f(x) on [a, b] by its Chebyshev interpolant of degree d: one level for y = (2x - a - b)/(b - a),
    /// ceil(log2 d) for the basis, one for the coefficients.
    pub fn evaluate_chebyshev(
        &self,
        x: &CkksCiphertext,
        f: impl Fn(f64) -> f64,
        (a, b): (f64, f64),
        d: usize,
        rlk: &RelinKey,
    ) -> Result<CkksCiphertext> {
        if !(a < b && a.is_finite() && b.is_finite()) {
            return Err(Error::InvalidParameters(format!(
                "Chebyshev interpolation needs a < b finite, got [{a}, {b}]"
            )));
        }
        self.check_chebyshev_degree(x, d)?;
        let coeffs = Self::chebyshev_coefficients(f, a, b, d);
        let y = self.mul_const_rescale_to(x, 2.0 / (b - a), self.params().scale())?;
        let y = self.add_const(&y, -(a + b) / (b - a))?;
        let basis = self.chebyshev_basis(&y, d, rlk)?;
        let level = basis.iter().map(CkksCiphertext::level).min().unwrap_or(0);
        if level == 0 {
            return Err(Error::InvalidParameters(format!(
                "Chebyshev degree {d} needs one more level than the ciphertext has ({})",
                x.level()
            )));
        }
        self.combine(&basis, &coeffs, level)
    }

    /// exp(x) by its Taylor expansion of degree 7 (paper 004 Table 2; accurate for |x| <= 1).
    pub fn exp(&self, x: &CkksCiphertext, rlk: &RelinKey) -> Result<CkksCiphertext> {
        let mut c = [1.0f64; 8];
        for i in 1..8 {
            c[i] = c[i - 1] / i as f64;
        }
        self.evaluate_polynomial(x, &c, rlk)
    }

    /// The sigmoid 1 / (1 + e^-x) by its Taylor expansion of degree 7 around 0 (paper 004 Table 2;
    /// accurate for |x| <= 1): 1/2 + x/4 - x^3/48 + x^5/480 - 17 x^7/80640.
    pub fn sigmoid(&self, x: &CkksCiphertext, rlk: &RelinKey) -> Result<CkksCiphertext> {
        self.evaluate_polynomial(x, &SIGMOID_TAYLOR_7, rlk)
    }

    /// 1/x for slots in (0, 2) by [12] Alg. 2 (Goldschmidt): with y = 1 - x,
    /// 1/x = (1 + y)(1 + y^2)(1 + y^4)...(1 + y^(2^(r-1))) up to y^(2^r); `r` iterations, depth r + 1.
    pub fn inverse(&self, x: &CkksCiphertext, r: usize, rlk: &RelinKey) -> Result<CkksCiphertext> {
        if r == 0 || r.saturating_add(1) > x.level() {
            return Err(Error::InvalidParameters(format!(
                "inverse with {r} iterations needs {} levels, the ciphertext has {}",
                r + 1,
                x.level()
            )));
        }
        // y = 1 - x; product a = 2 - x = 1 + y.
        let y = self.add_const(&self.negate_copy(x)?, 1.0)?;
        let mut a = self.add_const(&self.negate_copy(x)?, 2.0)?;
        let mut yp = y;
        for _ in 1..r {
            yp = self.multiply_rescale(&yp, &yp, rlk)?;
            let factor = self.add_const(&yp, 1.0)?;
            let a_low = self.drop_to_level(&a, factor.level())?;
            a = self.multiply_rescale(&a_low, &factor, rlk)?;
        }
        Ok(a)
    }

    fn negate_copy(&self, x: &CkksCiphertext) -> Result<CkksCiphertext> {
        let mut r = x.clone();
        self.negate_assign(&mut r)?;
        Ok(r)
    }

    /// Every slot set to the sum of the first `count` slots (count a power of two up to N/2):
    /// rotate-and-add ([10] Alg. 2) by 1, 2, 4, ... over the ciphertext's n' slots (at least `count`).
    /// With `count` < n' the other slots are first cleared by a product with the 0/1 mask of the first
    /// `count` slots (one level; the mask is encoded at q_level so the rescale keeps the scale exactly),
    /// so that every slot, not only slot 0, holds the sum. Needs the rotation keys of the powers of two
    /// below n'.
    pub fn sum_slots(
        &self,
        x: &CkksCiphertext,
        count: usize,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        self.check_ct(x)?;
        if !count.is_power_of_two() || count > self.slots() {
            return Err(Error::InvalidParameters(format!(
                "sum_slots: count {count} must be a power of two up to N/2 = {}",
                self.slots()
            )));
        }
        let span = x.slots().max(count);
        let mut acc = if count < span {
            self.mask_first(x, count, span)?
        } else {
            x.clone()
        };
        let mut step = 1;
        while step < span {
            let r = self.rotate(&acc, step as i64, keys)?;
            self.add_assign(&mut acc, &r)?;
            step *= 2;
        }
        Ok(acc)
    }

    /// x times the mask (1 in the first `count` of `span` slots, 0 elsewhere), rescaled back to x's
    /// scale exactly (the mask is encoded at the prime q_level the rescale divides by).
    fn mask_first(&self, x: &CkksCiphertext, count: usize, span: usize) -> Result<CkksCiphertext> {
        if x.level() == 0 {
            return Err(Error::InvalidParameters(format!(
                "sum_slots over {count} of {span} slots clears the others with a product, which needs \
                 a level; the ciphertext is at level 0"
            )));
        }
        let mut mask = vec![super::Complex::ZERO; span];
        mask[..count].fill(super::Complex::from_real(1.0));
        let q = self.ring_at(x.level())?.moduli()[x.level()].value() as f64;
        let m = self.encode_at(&mask, x.level(), q)?;
        let mut r = self.rescale(&self.mul_plain(x, &m)?)?;
        r.scale = x.scale();
        Ok(r)
    }

    /// The mean of the first `count` slots in every slot (paper 004 Table 3): the slot sum times
    /// 1/count, landing exactly on x's scale (one level; one more when `count` is below x's slots,
    /// see [`Self::sum_slots`]).
    pub fn mean(
        &self,
        x: &CkksCiphertext,
        count: usize,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        let s = self.sum_slots(x, count, keys)?;
        self.mul_const_rescale_to(&s, 1.0 / count as f64, x.scale())
    }

    /// The variance E[x^2] - E[x]^2 of the first `count` slots, in every slot (paper 004 Table 3).
    ///
    /// Both terms land on the default scale Delta exactly, so the subtraction, which cancels most of
    /// their bits when the spread is small, adds no scale error: E[x^2] is rescaled onto Delta by its
    /// 1/count product, and E[x] onto sqrt(Delta q) for the prime q that the rescale of its square
    /// removes, so that E[x]^2 is at Delta too. Depth 2 (3 when `count` is below x's slots).
    pub fn variance(
        &self,
        x: &CkksCiphertext,
        count: usize,
        rlk: &RelinKey,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        let delta = self.params().scale();
        let sq = self.multiply_rescale(x, x, rlk)?;
        let m2 = self.mul_const_rescale_to(
            &self.sum_slots(&sq, count, keys)?,
            1.0 / count as f64,
            delta,
        )?;
        let sum = self.sum_slots(x, count, keys)?;
        if sum.level() < 2 {
            return Err(Error::InvalidParameters(format!(
                "variance needs 2 levels after the slot sum, the ciphertext has {}",
                sum.level()
            )));
        }
        let q = self.ring_at(sum.level() - 1)?.moduli()[sum.level() - 1].value() as f64;
        let m = self.mul_const_rescale_to(&sum, 1.0 / count as f64, (delta * q).sqrt())?;
        let mut m_sq = self.multiply_rescale(&m, &m, rlk)?;
        // (sqrt(Delta q))^2 / q is Delta up to the last bit of the f64 arithmetic.
        m_sq.scale = delta;
        let level = m2.level().min(m_sq.level());
        let a = self.drop_to_level(&m2, level)?;
        let b = self.drop_to_level(&m_sq, level)?;
        self.sub(&a, &b)
    }
}
