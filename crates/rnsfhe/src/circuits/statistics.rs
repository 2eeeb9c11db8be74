//! Statistics of encrypted vectors (paper 004 section 5, Table 3): the slot sum by rotate-and-add
//! ([10] Alg. 2), the mean and the variance.

use crate::ckks::{CkksCiphertext, CkksContext, Complex};
use crate::rlwe::{GaloisKeys, RelinKey};
use crate::{Error, Result};

/// Every slot set to the sum of the first `count` slots (count a power of two up to N/2):
/// rotate-and-add ([10] Alg. 2) by 1, 2, 4, ... over the ciphertext's n' slots (at least `count`).
/// With `count` < n' the other slots are first cleared by a product with the 0/1 mask of the first
/// `count` slots (one level; the mask is encoded at q_level so the rescale keeps the scale exactly),
/// so that every slot, not only slot 0, holds the sum. Needs the rotation keys of the powers of two
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

/// x times the mask (1 in the first `count` of `span` slots, 0 elsewhere), rescaled back to x's
/// scale exactly (the mask is encoded at the prime q_level the rescale divides by).
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
    let q = ctx.ring_at(x.level())?.moduli()[x.level()].value() as f64;
    let m = ctx.encode_at(&mask, x.level(), q)?;
    let r = ctx.rescale(&ctx.mul_plain(x, &m)?)?;
    ctx.set_scale(&r, x.scale())
}

/// The mean of the first `count` slots in every slot (paper 004 Table 3): the slot sum times
/// 1/count, landing exactly on x's scale (one level; one more when `count` is below x's slots,
/// see [`sum_slots`]).
pub fn mean(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    count: usize,
    keys: &GaloisKeys,
) -> Result<CkksCiphertext> {
    let s = sum_slots(ctx, x, count, keys)?;
    ctx.mul_const_rescale_to(&s, 1.0 / count as f64, x.scale())
}

/// The variance E[x^2] - E[x]^2 of the first `count` slots, in every slot (paper 004 Table 3).
///
/// Both terms land on the default scale Delta exactly, so the subtraction, which cancels most of
/// their bits when the spread is small, adds no scale error: E[x^2] is rescaled onto Delta by its
/// 1/count product, and E[x] onto sqrt(Delta q) for the prime q that the rescale of its square
/// removes, so that E[x]^2 is at Delta too. Depth 2 (3 when `count` is below x's slots).
pub fn variance(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    count: usize,
    rlk: &RelinKey,
    keys: &GaloisKeys,
) -> Result<CkksCiphertext> {
    let delta = ctx.params().scale();
    let sq = ctx.multiply_rescale(x, x, rlk)?;
    let m2 = ctx.mul_const_rescale_to(
        &sum_slots(ctx, &sq, count, keys)?,
        1.0 / count as f64,
        delta,
    )?;
    let sum = sum_slots(ctx, x, count, keys)?;
    if sum.level() < 2 {
        return Err(Error::InvalidParameters(format!(
            "variance needs 2 levels after the slot sum, the ciphertext has {}",
            sum.level()
        )));
    }
    let q = ctx.ring_at(sum.level() - 1)?.moduli()[sum.level() - 1].value() as f64;
    let m = ctx.mul_const_rescale_to(&sum, 1.0 / count as f64, (delta * q).sqrt())?;
    // (sqrt(Delta q))^2 / q is Delta up to the last bit of the f64 arithmetic.
    let m_sq = ctx.set_scale(&ctx.multiply_rescale(&m, &m, rlk)?, delta)?;
    let level = m2.level().min(m_sq.level());
    let a = ctx.drop_to_level(&m2, level)?;
    let b = ctx.drop_to_level(&m_sq, level)?;
    ctx.sub(&a, &b)
}
