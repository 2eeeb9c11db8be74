//! The maximum, argmax and top-k over the slots of a ciphertext, block by block: a tournament of
//! log2(block) [`Comparator::max`]es over rotations (Cheon, Kim, Kim, Lee and Lee, "Efficient
//! homomorphic comparison methods with optimal complexity", ASIACRYPT 2020, section 5: max by
//! rotations and comparisons).
//!
//! The slots are cut into blocks of `block` consecutive slots (a power of two dividing the slot
//! count; the whole ciphertext for `block` = slots). After the rounds of steps 1, 2, ..., block / 2,
//! the first slot of each block holds its block's maximum; with block = slots the rotations are
//! cyclic and every slot holds it, otherwise the first slots are masked (one level) and spread over
//! their blocks by block / 2, ..., 2, 1 rotations back. Galois keys: steps +-1, +-2, ...,
//! +-block / 2 ([`max_steps`]).

use super::Comparator;
use crate::ckks::{CkksCiphertext, Complex};
use crate::eval::Evaluator;
use crate::rlwe::GaloisKeys;
use crate::{Error, Result};

/// The rotation steps [`Comparator::max_slots`] and [`Comparator::argmax`] use for `block`
/// (1, 2, ..., block / 2 and, for a block below the slot count, their negatives).
pub fn max_steps(block: usize, slots: usize) -> Vec<i64> {
    let up: Vec<i64> = (0..block.trailing_zeros()).map(|i| 1i64 << i).collect();
    if block >= slots {
        return up;
    }
    up.iter().copied().chain(up.iter().map(|s| -s)).collect()
}

impl Comparator<'_> {
    /// The maximum of each block of `block` slots, in every slot of the block (module doc), for
    /// values in [-bound, bound]. log2(block) maxima, each within the precision of
    /// [`Comparator::max`].
    ///
    /// Errors: `InvalidParameters` for a block that is not a power of two dividing the slot count;
    /// a missing Galois key; those of `max`.
    pub fn max_slots(
        &self,
        x: &CkksCiphertext,
        block: usize,
        bound: f64,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        let ctx = self.ctx();
        let slots = x.slots();
        check_block(block, slots)?;
        let mut m = self.levels.enter(x.clone())?;
        let mut step = 1usize;
        while step < block {
            let r = ctx.rotate(&m, step as i64, keys)?;
            m = self.max(&m, &r, bound)?;
            step *= 2;
        }
        if block == slots {
            return Ok(m);
        }
        self.spread_block_heads(&m, block, keys)
    }

    /// The argmax of each block as a mask: 1 in the slot of the block's maximum, 0 elsewhere, for
    /// values in [-bound, bound] whose maximum exceeds every other value of its block by at least
    /// `gap`. Within `gap` of the maximum, slots get a value in [0, 1] (ties: 1 in each). It decides
    /// x - max + gap / 2 by `step` on [-2 bound, 2 bound]: the composite must decide
    /// |x| >= gap / (8 bound) relative to that range (alpha <= gap / 8 bound) and the maximum's
    /// error must stay below gap / 4.
    pub fn argmax(
        &self,
        x: &CkksCiphertext,
        block: usize,
        gap: f64,
        bound: f64,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        check_gap(gap, bound)?;
        let m = self.max_slots(x, block, bound, keys)?;
        self.argmax_of(x, &m, gap, bound)
    }

    /// The mask of `x`'s slots within gap / 2 of `m` (their block maximum).
    fn argmax_of(
        &self,
        x: &CkksCiphertext,
        m: &CkksCiphertext,
        gap: f64,
        bound: f64,
    ) -> Result<CkksCiphertext> {
        let d = self.difference(x, m)?;
        let d = self.ctx().add_const(&d, gap / 2.0)?;
        self.step(&d, 2.0 * bound)
    }

    /// The `k` largest values of each block, largest first, each with its argmax mask: k rounds of
    /// [`Self::max_slots`] and [`Self::argmax`], each round replacing the found slot by -bound
    /// (x - mask (x + bound)). The same conditions as `argmax` between consecutive values.
    pub fn top_k(
        &self,
        x: &CkksCiphertext,
        k: usize,
        block: usize,
        gap: f64,
        bound: f64,
        keys: &GaloisKeys,
    ) -> Result<Vec<(CkksCiphertext, CkksCiphertext)>> {
        check_gap(gap, bound)?;
        if k == 0 || k > block {
            return Err(Error::InvalidParameters(format!(
                "top_k needs 1 <= k <= block, got k = {k}, block = {block}"
            )));
        }
        let mut rest = x.clone();
        let mut out = Vec::with_capacity(k);
        for round in 0..k {
            let m = self.max_slots(&rest, block, bound, keys)?;
            let mask = self.argmax_of(&rest, &m, gap, bound)?;
            if round + 1 < k {
                let shifted = self.ctx().add_const(&rest, bound)?;
                let hit = self.product(&mask, &shifted)?;
                rest = self.sum(&rest, &hit, true)?;
            }
            out.push((m, mask));
        }
        Ok(out)
    }

    /// The first slot of each block copied over the whole block (the others masked out first).
    fn spread_block_heads(
        &self,
        m: &CkksCiphertext,
        block: usize,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        let ctx = self.ctx();
        let slots = m.slots();
        let heads: Vec<Complex> = (0..slots)
            .map(|i| Complex::from_real(if i % block == 0 { 1.0 } else { 0.0 }))
            .collect();
        let m = self
            .levels
            .ensure(m.clone(), 1, "masking the block maxima")?;
        let level = ctx.level(&m) - 1;
        let mut r = ctx.mul_values_rescale_to(&m, &heads, ctx.default_scale(level)?)?;
        let mut step = 1usize;
        while step < block {
            let moved = ctx.rotate(&r, -(step as i64), keys)?;
            r = ctx.add(&r, &moved)?;
            step *= 2;
        }
        Ok(r)
    }
}

fn check_block(block: usize, slots: usize) -> Result<()> {
    if block < 2 || !block.is_power_of_two() || block > slots || !slots.is_multiple_of(block) {
        return Err(Error::InvalidParameters(format!(
            "the block must be a power of two in [2, {slots}] dividing the slot count {slots}, got \
             {block}"
        )));
    }
    Ok(())
}

fn check_gap(gap: f64, bound: f64) -> Result<()> {
    if gap.is_finite() && gap > 0.0 && gap <= bound {
        Ok(())
    } else {
        Err(Error::InvalidParameters(format!(
            "argmax needs a gap in (0, bound], got gap = {gap}, bound = {bound}"
        )))
    }
}
