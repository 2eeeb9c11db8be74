//! The operators' forms of the CKKS operations (OpenFHE's FLEXIBLEAUTO,
//! `ckksrns-leveledshe.cpp`: `AdjustLevelsAndDepth` before a sum or product, `EvalMult` rescaling
//! after): each aligns its operands, does the operation and rescales a product, so that the result is
//! at level L minus the circuit's multiplicative depth and at that level's scale
//! [`CkksContext::scale_at`]. The Python operators (`+ - *`) are these methods.
//!
//! - Sums: operands at two levels meet at the lower one on its scale ([`CkksContext::align`]); at one
//!   level the chain gives them one scale, so no level is spent.
//! - Products: the higher operand comes down the same way, then multiply, relinearise, rescale:
//!   Delta_l^2 / q_l = Delta_{l-1}.
//! - Constants and vectors multiplied in are encoded at Delta_l^2 / scale (Delta_l on the chain), so
//!   that the rescaled product lands on Delta_{l-1}; constants added at the ciphertext's own scale
//!   (`add_const`).
//! - A product still awaiting its rescale (scale Delta_l^2, from the manual `multiply`, `mul_plain`,
//!   `mul_const`) is rescaled first, as FLEXIBLEAUTO does before the next operation.

use std::borrow::Cow;

use super::scales::same_scale;
use super::{CkksCiphertext, CkksContext, CkksPlaintext, Complex};
use crate::rlwe::RelinKey;
use crate::{Error, Result};

impl CkksContext {
    /// `a` rescaled when it is a product awaiting its rescale (scale Delta_l^2 at level l > 0),
    /// else `a` itself (borrowed: no copy).
    fn settled<'a>(&self, a: &'a CkksCiphertext) -> Result<Cow<'a, CkksCiphertext>> {
        self.check_ct(a)?;
        let delta = self.scale_at(a.level())?;
        if a.level() > 0 && same_scale(a.scale(), delta * delta) {
            return self.rescale(a).map(Cow::Owned);
        }
        Ok(Cow::Borrowed(a))
    }

    /// `a + b` (the operator): aligned ([`Self::align`]), then added; no level is spent for operands
    /// of the chain at one level.
    pub fn add_auto(&self, a: &CkksCiphertext, b: &CkksCiphertext) -> Result<CkksCiphertext> {
        self.sum_auto(a, b, false)
    }

    /// `a - b` (the operator), as [`Self::add_auto`].
    pub fn sub_auto(&self, a: &CkksCiphertext, b: &CkksCiphertext) -> Result<CkksCiphertext> {
        self.sum_auto(a, b, true)
    }

    /// `a +- b`: operands already at one level and scale go straight to the sum (what `align` would
    /// return, without its copies).
    fn sum_auto(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        subtract: bool,
    ) -> Result<CkksCiphertext> {
        let (a, b) = (self.settled(a)?, self.settled(b)?);
        let op = |x: &CkksCiphertext, y: &CkksCiphertext| {
            if subtract {
                self.sub(x, y)
            } else {
                self.add(x, y)
            }
        };
        if a.level() == b.level() && same_scale(a.scale(), b.scale()) {
            return op(&a, &b);
        }
        let (x, y) = self.align(&a, &b)?;
        op(&x, &y)
    }

    /// `a * b` (the operator): the higher operand brought down onto the lower one's level
    /// ([`Self::drop_to_level`]), then multiplied, relinearised and rescaled (one level).
    pub fn mul_auto(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        rlk: &RelinKey,
    ) -> Result<CkksCiphertext> {
        let (a, b) = (self.settled(a)?, self.settled(b)?);
        let level = a.level().min(b.level());
        let (x, y) = (self.lowered(a, level)?, self.lowered(b, level)?);
        self.multiply_rescale(&x, &y, rlk)
    }

    /// `a * c` for a real constant (the operator and Python's `ctx.mul_const`): [`Self::mul_const`]
    /// and a rescale, landing on the scale of the level below (one level).
    pub fn mul_const_auto(&self, a: &CkksCiphertext, c: f64) -> Result<CkksCiphertext> {
        let a = self.settled(a)?;
        self.level_left(&a, "mul_const")?;
        self.rescale(&self.mul_const(&a, c)?)
    }

    /// `a * values` slot by slot (the operator with a vector): the values encoded at a's level at
    /// Delta_l^2 / scale, multiplied in and rescaled onto the scale of the level below (one level).
    pub fn mul_values_auto(
        &self,
        a: &CkksCiphertext,
        values: &[Complex],
    ) -> Result<CkksCiphertext> {
        let a = self.settled(a)?;
        self.level_left(&a, "mul")?;
        let delta = self.scale_at(a.level())?;
        let pt = self.encode_at(values, a.level(), delta * delta / a.scale())?;
        let mut r = self.mul_plain(&a, &pt)?;
        r.scale = delta * delta;
        self.rescale(&r)
    }

    /// `a * m` for a plaintext at a's level (the operator): multiplied and rescaled (one level). A
    /// plaintext encoded at the level's scale ([`Self::scale_at`], Python's default) keeps the result
    /// on the chain; any other scale of m moves the result off it by the same factor.
    pub fn mul_plain_auto(&self, a: &CkksCiphertext, m: &CkksPlaintext) -> Result<CkksCiphertext> {
        let a = self.settled(a)?;
        self.level_left(&a, "mul")?;
        self.rescale(&self.mul_plain(&a, m)?)
    }

    /// `x` at `level` (at or below its own): itself, or brought down ([`Self::drop_to_level`]).
    fn lowered<'a>(
        &self,
        x: Cow<'a, CkksCiphertext>,
        level: usize,
    ) -> Result<Cow<'a, CkksCiphertext>> {
        if x.level() > level {
            self.drop_to_level(&x, level).map(Cow::Owned)
        } else {
            Ok(x)
        }
    }

    fn level_left(&self, a: &CkksCiphertext, op: &str) -> Result<()> {
        if a.level() == 0 {
            return Err(Error::InvalidParameters(format!(
                "{op}: the ciphertext is at level 0, the modulus chain is exhausted"
            )));
        }
        Ok(())
    }
}
