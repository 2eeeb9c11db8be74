//! Composite polynomials p_k ∘ ... ∘ p_1 evaluated component by component, refreshed in between
//! when the levels run out (Lee, Lee, Kim and No, "Minimax approximation of sign function by
//! composite polynomial for homomorphic comparison", IEEE TDSC 2021: each component a Chebyshev
//! series on its own interval [-r_i, r_i]).
//!
//! Decisions, to spend no level on changes of variable: component i's output is divided by
//! r_(i+1) inside its coefficients, so every component after the first runs on [-1, 1]; the
//! first runs on the input's interval (a level only when 1 / its radius is not an integer); an
//! affine map of the output (a P + b: step, halves) is folded into the last component.

use rnsfhe_math::approx;

use crate::circuits::chebyshev::chebyshev_value;
use crate::circuits::poly::{evaluate, levels_needed, Polynomial, Target};
use crate::ckks::{CkksCiphertext, CkksContext};
use crate::eval::{Evaluator, Levels};
use crate::rlwe::RelinKey;
use crate::{Error, Result};

/// One component: sum_k c_k T_k(y / r) on [-r, r].
#[derive(Clone, Debug, PartialEq)]
pub struct Component {
    /// The Chebyshev coefficients c_k.
    pub chebyshev: Vec<f64>,
    /// The radius r of its interval [-r, r].
    pub radius: f64,
}

/// p_k ∘ ... ∘ p_1, each p_i a [`Component`].
#[derive(Clone, Debug, PartialEq)]
pub struct Composite {
    parts: Vec<Component>,
}

impl Composite {
    /// The composite of `parts` (p_1 first). Errors: `InvalidParameters` for no part, an empty or
    /// non-finite series, or a radius that is not finite and > 0.
    pub fn new(parts: Vec<Component>) -> Result<Self> {
        if parts.is_empty() {
            return Err(Error::InvalidParameters(
                "a composite polynomial needs at least one component".into(),
            ));
        }
        for (i, p) in parts.iter().enumerate() {
            let finite = p.chebyshev.iter().all(|c| c.is_finite());
            if p.chebyshev.len() < 2 || !finite || !(p.radius.is_finite() && p.radius > 0.0) {
                return Err(Error::InvalidParameters(format!(
                    "component {} of the composite needs degree >= 1, finite coefficients and a \
                     finite radius > 0 (got {} coefficients, radius {})",
                    i + 1,
                    p.chebyshev.len(),
                    p.radius
                )));
            }
        }
        Ok(Composite { parts })
    }

    /// The components, p_1 first.
    pub fn parts(&self) -> &[Component] {
        &self.parts
    }

    /// The degree of each component.
    pub fn degrees(&self) -> Vec<usize> {
        self.parts.iter().map(|p| p.chebyshev.len() - 1).collect()
    }

    /// The levels of the whole evaluation on an input of radius `r_1` (each component
    /// ceil(log2(d + 1)), the first one more when its change of variable needs a product).
    pub fn depth(&self, ctx: &CkksContext) -> Result<usize> {
        (0..self.parts.len())
            .map(|i| levels_needed(ctx, &self.component(i, 1.0, (1.0, 0.0))?))
            .sum()
    }

    /// P(x / (bound (1 + MARGIN))) in f64: the plain model of the comparisons on [-bound, bound]
    /// (`super::MARGIN`).
    pub fn value_on(&self, x: f64, bound: f64) -> f64 {
        self.value(x / (bound * (1.0 + super::MARGIN)))
    }

    /// P(x) in f64 (Clenshaw): the plain model the encrypted evaluation is tested against.
    pub fn value(&self, x: f64) -> f64 {
        self.parts
            .iter()
            .fold(x, |y, p| chebyshev_value(&p.chebyshev, y / p.radius))
    }

    /// Component `i` as evaluated: its output divided by the next radius (the last: a P + b),
    /// on [-input_radius, input_radius] for the first, [-1, 1] for the others.
    fn component(
        &self,
        i: usize,
        input_scale: f64,
        (a, b): (f64, f64),
    ) -> Result<Polynomial<crate::ckks::Complex>> {
        let p = &self.parts[i];
        let mut c: Vec<f64> = match self.parts.get(i + 1) {
            Some(next) => p.chebyshev.iter().map(|c| c / next.radius).collect(),
            None => p.chebyshev.iter().map(|c| c * a).collect(),
        };
        if i + 1 == self.parts.len() {
            c[0] += b;
        }
        let r = if i == 0 { p.radius * input_scale } else { 1.0 };
        Polynomial::chebyshev_real(&c, (-r, r))
    }

    /// a P(x / s) + b for `x` in [-s r_1, s r_1], component by component, each landing on the
    /// chain's scale, with `levels` refreshing in between when a component has too few levels.
    pub fn evaluate(
        &self,
        levels: &Levels<'_, CkksContext>,
        x: CkksCiphertext,
        s: f64,
        affine: (f64, f64),
        rlk: &RelinKey,
    ) -> Result<CkksCiphertext> {
        if !(s.is_finite() && s > 0.0 && affine.0.is_finite() && affine.1.is_finite()) {
            return Err(Error::InvalidParameters(format!(
                "a composite polynomial's input scale must be finite and > 0 and its output map \
                 finite, got scale {s}, map {affine:?}"
            )));
        }
        let ctx = levels.evaluator();
        let mut y = x;
        for i in 0..self.parts.len() {
            let p = self.component(i, s, affine)?;
            let need = levels_needed(ctx, &p)?;
            let op = format!(
                "component {} of {} (degree {})",
                i + 1,
                self.parts.len(),
                p.degree()
            );
            y = levels.ensure(y, need, &op)?;
            let level = ctx.level(&y) - need;
            y = evaluate(
                ctx,
                &y,
                &p,
                Target::new(level, ctx.default_scale(level)?),
                rlk,
            )?;
        }
        Ok(y)
    }
}

impl Composite {
    /// The minimax composite for sign of Lee, Lee, Kim and No (IEEE TDSC 2021) that decides
    /// |x| >= 2^-log_alpha on [-1, 1] with an error of at most 2^-log_err, robust to an evaluation
    /// error of 2^-max(log_err, log_alpha) at each component's input
    /// (`rnsfhe_math::approx::composite_sign`): the shipped table's when it has the pair
    /// (`rnsfhe_math::approx::sign_table_pairs`: alpha 8, 12, 16, 20, 24, 30 at error 20, and
    /// equal pairs), else computed by Remez (seconds to a minute); then [`Self::sharpened`].
    ///
    /// Errors: `InvalidParameters` for log_alpha or log_err out of range.
    pub fn sign(log_alpha: u32, log_err: u32) -> Result<Self> {
        let table = approx::sign_table(log_alpha, log_err);
        let sign = match table {
            Some(t) => t,
            None => approx::composite_sign(log_alpha, log_err)?,
        };
        Ok(Self::from_sign(&sign)?.sharpened())
    }

    /// This composite followed by f_3(x) = (35 x - 35 x^3 + 21 x^5 - 5 x^7) / 16 (Cheon, Kim, Kim,
    /// Lee and Lee, ASIACRYPT 2020), 3 levels: 1 - f_3(1 - e) = O(e^4), so an output within
    /// 2^-k of +-1 comes to within about 2^-4k, and what is left is the scheme's error after the
    /// last bootstrap, not the minimax error plus it (2^-18.0 at N = 2^16 without it, measured).
    pub fn sharpened(mut self) -> Self {
        // f_3 in the Chebyshev basis, from x^3 = (3 T1 + T3) / 4, x^5 = (10 T1 + 5 T3 + T5) / 16,
        // x^7 = (35 T1 + 21 T3 + 7 T5 + T7) / 64.
        let f3 = vec![
            0.0,
            1.196_289_062_5,
            0.0,
            -0.239_257_812_5,
            0.0,
            0.047_851_562_5,
            0.0,
            -0.004_882_812_5,
        ];
        self.parts.push(Component {
            chebyshev: f3,
            radius: 1.0,
        });
        self
    }

    /// The composite of a `rnsfhe_math::approx::CompositeSign`.
    pub fn from_sign(sign: &approx::CompositeSign) -> Result<Self> {
        let parts = sign
            .components
            .iter()
            .map(|c| {
                if c.domain.0 != -c.domain.1 {
                    return Err(Error::InvalidParameters(format!(
                        "a sign component's interval must be symmetric, got {:?}",
                        c.domain
                    )));
                }
                Ok(Component {
                    chebyshev: c.chebyshev.clone(),
                    radius: c.domain.1,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Composite::new(parts)
    }
}
