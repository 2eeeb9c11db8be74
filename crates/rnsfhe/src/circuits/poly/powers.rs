//! The power basis x^1, x^2, ... and the Chebyshev basis T_1(y), T_2(y), ... of a ciphertext,
//! computed on demand over any [`Evaluator`] by a depth-optimal product tree: with a the largest
//! power of two below i and b = i - a,
//!
//! - x^i = x^a x^b,
//! - T_i = 2 T_a T_b - T_(a-b) (T_0 = 1),
//!
//! so that B_i sits exactly [`Evaluator::rescale_levels`] ceil(log2 i) levels below B_1 (the
//! operands of a product meet at the lower one's level by dropping primes, scale kept). Only the
//! elements a polynomial asks for are computed (an odd polynomial never computes the odd x^i's even
//! neighbours beyond the powers of two it needs). Scales are tracked, not imposed: the leaves of
//! the evaluation choose their constants from them ([`super::bsgs`]).

use crate::eval::Evaluator;
use crate::{Error, Result};

/// ceil(log2 i) for i >= 1 (0 for i = 1): the depth of B_i.
pub(super) fn depth_of(i: usize) -> usize {
    (usize::BITS - i.saturating_sub(1).leading_zeros()) as usize
}

/// B_1..B_d of one ciphertext, filled on demand.
pub struct PowerBasis<'a, E: Evaluator> {
    e: &'a E,
    rlk: &'a E::RelinKey,
    chebyshev: bool,
    /// B_i at index i (index 0 unused: B_0 = 1 is a constant).
    value: Vec<Option<E::Ciphertext>>,
}

impl<'a, E: Evaluator> PowerBasis<'a, E> {
    /// The basis of `x` (B_1 = x) up to degree `d`: powers, or Chebyshev polynomials when
    /// `chebyshev` (x then being y, already mapped onto [-1, 1]).
    pub fn new(
        e: &'a E,
        x: &E::Ciphertext,
        d: usize,
        chebyshev: bool,
        rlk: &'a E::RelinKey,
    ) -> Self {
        let mut value = vec![None; d.max(1) + 1];
        value[1] = Some(x.clone());
        PowerBasis {
            e,
            rlk,
            chebyshev,
            value,
        }
    }

    /// The level B_i will have: that of B_1 minus `rescale_levels` ceil(log2 i).
    pub fn level_of(&self, i: usize) -> Result<usize> {
        let top = self.get_level(1)?;
        top.checked_sub(self.e.rescale_levels() * depth_of(i))
            .ok_or_else(|| {
                Error::InvalidParameters(format!(
                    "basis element {i} needs {} levels, the ciphertext has {top}",
                    self.e.rescale_levels() * depth_of(i)
                ))
            })
    }

    fn get_level(&self, i: usize) -> Result<usize> {
        match self.value.get(i).and_then(Option::as_ref) {
            Some(c) => Ok(self.e.level(c)),
            None => Err(Error::Internal(format!("basis element {i} not computed"))),
        }
    }

    /// B_i (1 <= i <= d), computed with the elements it needs if not there yet.
    pub fn get(&mut self, i: usize) -> Result<&E::Ciphertext> {
        if i == 0 || i >= self.value.len() {
            return Err(Error::OutOfRange(format!(
                "basis element {i} outside 1..={}",
                self.value.len() - 1
            )));
        }
        if self.value[i].is_none() {
            let a = 1usize << (usize::BITS - 1 - (i - 1).leading_zeros());
            let b = i - a;
            self.get(a)?;
            self.get(b)?;
            if self.chebyshev && a > b {
                self.get(a - b)?;
            }
            let next = self.product(a, b)?;
            self.value[i] = Some(next);
        }
        self.value[i]
            .as_ref()
            .ok_or_else(|| Error::Internal(format!("basis element {i} missing")))
    }

    /// B_a B_b (power basis) or 2 T_a T_b - T_(a-b) (Chebyshev), relinearised and rescaled in one
    /// step ([`Evaluator::relinearize_rescale`]): the tensor at the lower operand's level, read from
    /// both where they are ([`Evaluator::mul_at`]). Chebyshev: the tensor is doubled and T_(a-b)
    /// added with the constant -round(scale(T_a T_b) / scale(T_(a-b))) ([`Evaluator::mul_const_add`])
    /// before that one rescale, so that T_i carries one rounding, not the three of a rescaled
    /// product doubled and a T_(a-b) brought down by a rescale of its own (whose constant is the
    /// same, so that both refuse the same scales).
    fn product(&self, a: usize, b: usize) -> Result<E::Ciphertext> {
        let e = self.e;
        let missing = || Error::Internal("basis element missing".into());
        let xa = self.value[a].as_ref().ok_or_else(missing)?;
        let xb = self.value[b].as_ref().ok_or_else(missing)?;
        let level = e.level(xa).min(e.level(xb));
        let mut prod = e.mul_at(xa, xb, level)?;
        if !self.chebyshev {
            return e.relinearize_rescale(prod, self.rlk);
        }
        e.double_assign(&mut prod)?;
        if a == b {
            let mut out = e.relinearize_rescale(prod, self.rlk)?;
            e.add_const_assign(&mut out, e.scalar_from_int(-1))?;
            return Ok(out);
        }
        let low = self.value[a - b].as_ref().ok_or_else(missing)?;
        e.mul_const_add(&mut prod, low, e.scalar_from_int(-1))?;
        e.relinearize_rescale(prod, self.rlk)
    }
}
