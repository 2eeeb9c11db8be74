//! Comparisons in CKKS: sign, step, masks of a > b, max, min, abs, ReLU and clip on every slot,
//! and the maximum, argmax and top-k over the slots of a ciphertext ([`slots`]), all through a
//! composite polynomial approximating sign ([`composite`]; the minimax composites of Lee, Lee,
//! Kim and No, IEEE TDSC 2021, from `rnsfhe_math::approx`).
//!
//! # Domain and precision
//!
//! Every input lies in [-B, B] for the `bound` B the call names (default 1 in Python), read with
//! a margin of [`MARGIN`] (2^-10): the composite decides sign(x) for alpha B' <= |x| <= B'
//! (B' = B (1 + 2^-10), alpha = 2^-log_alpha of the composite) with an error of at most its
//! `max_error` (plus the scheme's error); for |x| < alpha B' it returns a value in [-1, 1] of x's
//! sign (the composite is odd and monotone there). Beyond B' the values are meaningless: a
//! minimax polynomial leaves +-1 fast outside its interval (tests/compare.rs `outside_the_domain`). The two-input functions decide on a - b in [-2B, 2B], so alpha applies to
//! |a - b| / 2B. What each function gives:
//!
//! | function | value | error where decided | where undecided (gap below 2 alpha B) |
//! |---|---|---|---|
//! | `sign(x)` | +-1 | `max_error` | in [-1, 1] |
//! | `step(x)`, `greater(a, b)` | 1 if x > 0 (a > b), else 0 | `max_error` / 2 | in [0, 1] |
//! | `abs(x)` | abs(x) | abs(x) `max_error` | within 2 abs(x) <= 2 alpha B |
//! | `relu(x)`, `max`, `min` | | abs(x) `max_error` / 2 | within abs(x) <= alpha B (2 alpha B for max, min) |
//!
//! # Levels
//!
//! `sign` spends the composite's depth (`Composite::depth`) and one level for the change of
//! variable x / B'; `abs`, `relu`, `max` and `min` one
//! more for the product. When a component has too few levels, the [`Levels`] hook refreshes its
//! input (CKKS bootstrapping: `circuits::bootstrapping::BootstrapHook`); without a hook, too few
//! levels is `LevelsExhausted`.

pub mod composite;
pub mod slots;

/// The margin of the domain: inputs are read on [-B (1 + MARGIN), B (1 + MARGIN)], so that values
/// at the bound plus the scheme's error stay inside the first component's interval (just outside
/// it, a minimax polynomial leaves +-1 fast: 2^-12 beyond, the sign flips).
pub const MARGIN: f64 = 1.0 / 1024.0;

pub use composite::{Component, Composite};

use crate::ckks::{CkksCiphertext, CkksContext};
use crate::eval::Levels;
use crate::rlwe::RelinKey;
use crate::{Error, Result};

/// The comparison functions over one evaluator, its relinearisation key and a sign composite.
pub struct Comparator<'a> {
    levels: &'a Levels<'a, CkksContext>,
    rlk: &'a RelinKey,
    sign: &'a Composite,
}

impl<'a> Comparator<'a> {
    /// Comparisons by `sign` on `levels` (with or without a refresh hook).
    pub fn new(
        levels: &'a Levels<'a, CkksContext>,
        rlk: &'a RelinKey,
        sign: &'a Composite,
    ) -> Self {
        Comparator { levels, rlk, sign }
    }

    /// The evaluator with its hook (to read the refresh count).
    pub fn levels(&self) -> &'a Levels<'a, CkksContext> {
        self.levels
    }

    fn ctx(&self) -> &'a CkksContext {
        self.levels.evaluator()
    }

    /// a P(x / s) + b of the sign composite P.
    fn composite(&self, x: &CkksCiphertext, s: f64, affine: (f64, f64)) -> Result<CkksCiphertext> {
        self.sign
            .evaluate(self.levels, x.clone(), s, affine, self.rlk)
    }

    /// sign(x) for x in [-bound, bound]: +-1 (module doc for the precision).
    pub fn sign(&self, x: &CkksCiphertext, bound: f64) -> Result<CkksCiphertext> {
        check_bound(bound)?;
        self.composite(x, bound, (1.0, 0.0))
    }

    /// step(x) = (sign(x) + 1) / 2: 1 for x > 0, 0 for x < 0 (the halves folded into the last
    /// component: no extra level).
    pub fn step(&self, x: &CkksCiphertext, bound: f64) -> Result<CkksCiphertext> {
        check_bound(bound)?;
        self.composite(x, bound, (0.5, 0.5))
    }

    /// The mask of a > b: 1 where a > b, 0 where a < b, for a, b in [-bound, bound].
    pub fn greater(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        bound: f64,
    ) -> Result<CkksCiphertext> {
        let d = self.difference(a, b)?;
        self.step(&d, 2.0 * bound)
    }

    /// The mask of a < b.
    pub fn less(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        bound: f64,
    ) -> Result<CkksCiphertext> {
        self.greater(b, a, bound)
    }

    /// abs(x) = x sign(x).
    pub fn abs(&self, x: &CkksCiphertext, bound: f64) -> Result<CkksCiphertext> {
        let s = self.sign(x, bound)?;
        self.product(x, &s)
    }

    /// ReLU(x) = x step(x).
    pub fn relu(&self, x: &CkksCiphertext, bound: f64) -> Result<CkksCiphertext> {
        let s = self.step(x, bound)?;
        self.product(x, &s)
    }

    /// max(a, b) = b + ReLU(a - b), for a, b in [-bound, bound].
    pub fn max(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        bound: f64,
    ) -> Result<CkksCiphertext> {
        let r = self.relu_of_difference(a, b, bound)?;
        self.sum(b, &r, false)
    }

    /// min(a, b) = a - ReLU(a - b).
    pub fn min(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        bound: f64,
    ) -> Result<CkksCiphertext> {
        let r = self.relu_of_difference(a, b, bound)?;
        self.sum(a, &r, true)
    }

    /// ReLU(a - b) for a, b in [-bound, bound].
    fn relu_of_difference(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        bound: f64,
    ) -> Result<CkksCiphertext> {
        let d = self.difference(a, b)?;
        self.relu(&d, 2.0 * bound)
    }

    /// clip(x, lo, hi) = lo + ReLU(x - lo) - ReLU(x - hi) for x in [-bound, bound] and constants
    /// -bound <= lo < hi <= bound.
    pub fn clip(&self, x: &CkksCiphertext, lo: f64, hi: f64, bound: f64) -> Result<CkksCiphertext> {
        check_bound(bound)?;
        if !(lo < hi && lo >= -bound && hi <= bound) {
            return Err(Error::InvalidParameters(format!(
                "clip needs -bound <= lo < hi <= bound, got lo = {lo}, hi = {hi}, bound = {bound}"
            )));
        }
        let ctx = self.ctx();
        let above_lo = self.relu(&ctx.add_const(x, -lo)?, 2.0 * bound)?;
        let above_hi = self.relu(&ctx.add_const(x, -hi)?, 2.0 * bound)?;
        let r = self.sum(&above_lo, &above_hi, true)?;
        ctx.add_const(&r, lo)
    }

    /// a - b at the lower of their levels.
    fn difference(&self, a: &CkksCiphertext, b: &CkksCiphertext) -> Result<CkksCiphertext> {
        let (a, b) = self.levels.ensure_pair(a.clone(), b.clone(), 0, "a - b")?;
        self.ctx().sub(&a, &b)
    }

    /// a + b (a - b with `negate`) at the lower of their levels.
    fn sum(&self, a: &CkksCiphertext, b: &CkksCiphertext, negate: bool) -> Result<CkksCiphertext> {
        let (a, b) = self.levels.ensure_pair(a.clone(), b.clone(), 0, "a sum")?;
        if negate {
            self.ctx().sub(&a, &b)
        } else {
            self.ctx().add(&a, &b)
        }
    }

    /// a b, relinearised and rescaled (refreshing first when either has no level to spend).
    fn product(&self, a: &CkksCiphertext, b: &CkksCiphertext) -> Result<CkksCiphertext> {
        let (a, b) = self
            .levels
            .ensure_pair(a.clone(), b.clone(), 1, "a product")?;
        self.ctx().multiply_rescale(&a, &b, self.rlk)
    }
}

fn check_bound(bound: f64) -> Result<()> {
    if bound.is_finite() && bound > 0.0 {
        Ok(())
    } else {
        Err(Error::InvalidParameters(format!(
            "the bound of the inputs must be finite and > 0, got {bound}"
        )))
    }
}
