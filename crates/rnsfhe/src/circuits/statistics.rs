//! Statistics of encrypted vectors (Cheon et al. (SAC 2018) section 5, Table 3): the slot sum by rotate-and-add
//! (\[10] Alg. 2), the mean and the variance.

use crate::ckks::{CkksCiphertext, CkksContext, Complex};
use crate::rlwe::{GaloisKeys, RelinKey};
use crate::{Error, Result};

/// Every slot set to the sum of the first `count` slots (count a power of two up to N/2):
/// rotate-and-add (\[10] Alg. 2) by 1, 2, 4, ... over the ciphertext's n' slots (at least `count`).
/// With `count` < n' the other slots are first cleared by a product with the 0/1 mask of the first
/// `count` slots (one level; the rescaled product lands on the chain's scale of the level below,
/// [`CkksContext::mul_values_auto`]), so that every slot, not only slot 0, holds the sum. Needs the rotation keys of the powers of two
/// below n'.
pub fn sum_slots(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    count: usize,
    keys: &GaloisKeys,
) -> Result<CkksCiphertext> {
    ctx.check_ct(x)?;
    if !count.is_power_of_two() || count > ctx.slots() {
        return Err(Error::InvalidParameters(format!(
            "sum_slots: count {count} must be a power of two up to N/2 = {}",
            ctx.slots()
        )));
    }
    let span = x.slots().max(count);
    let mut acc = if count < span {
        mask_first(ctx, x, count, span)?
    } else {
        x.clone()
    };
    let mut step = 1;
    while step < span {
        let r = ctx.rotate(&acc, step as i64, keys)?;
        ctx.add_assign(&mut acc, &r)?;
        step *= 2;
    }
    Ok(acc)
}

/// x times the mask (1 in the first `count` of `span` slots, 0 elsewhere), rescaled onto the chain's
/// scale of the level below.
fn mask_first(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    count: usize,
    span: usize,
) -> Result<CkksCiphertext> {
    if x.level() == 0 {
        return Err(Error::InvalidParameters(format!(
            "sum_slots over {count} of {span} slots clears the others with a product, which needs \
             a level; the ciphertext is at level 0"
        )));
    }
    let mut mask = vec![Complex::ZERO; span];
    mask[..count].fill(Complex::from_real(1.0));
    ctx.mul_values_auto(x, &mask)
}

/// The mean of the first `count` slots in every slot (Cheon et al. (SAC 2018) Table 3): the slot sum times
/// 1/count, landing on the chain's scale of its level (one level; one more when `count` is below x's
/// slots, see [`sum_slots`]).
pub fn mean(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    count: usize,
    keys: &GaloisKeys,
) -> Result<CkksCiphertext> {
    let s = sum_slots(ctx, x, count, keys)?;
    ctx.mul_const_auto(&s, 1.0 / count as f64)
}

/// The variance E[x^2] - E\[x]^2 of the first `count` slots, in every slot (Cheon et al. (SAC 2018) Table 3).
///
/// Both terms land on the chain's scale of one level (E[x^2] by its 1/count product,
/// E\[x]^2 as the rescaled square of a mean on the chain), so the subtraction, which cancels most of
/// their bits when the spread is small, adds no scale error. Depth 2 (3 when `count` is below x's
/// slots).
pub fn variance(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    count: usize,
    rlk: &RelinKey,
    keys: &GaloisKeys,
) -> Result<CkksCiphertext> {
    let sq = ctx.mul_auto(x, x, rlk)?;
    let m2 = ctx.mul_const_auto(&sum_slots(ctx, &sq, count, keys)?, 1.0 / count as f64)?;
    let sum = sum_slots(ctx, x, count, keys)?;
    if sum.level() < 2 {
        return Err(Error::InvalidParameters(format!(
            "variance needs 2 levels after the slot sum, the ciphertext has {}",
            sum.level()
        )));
    }
    let m = ctx.mul_const_auto(&sum, 1.0 / count as f64)?;
    let m_sq = ctx.mul_auto(&m, &m, rlk)?;
    ctx.sub_auto(&m2, &m_sq)
}
