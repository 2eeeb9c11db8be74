//! Baby-step giant-step polynomial evaluation (the Paterson–Stockmeyer idea, as OpenFHE and Lattigo
//! evaluate polynomials): about 2 sqrt(d) + log2 d ciphertext products instead of d.
//!
//! With k = 2^ceil(log2 sqrt(d + 1)) baby powers x^1..x^(k-1) and giant powers x^k, x^(2k), x^(4k),
//! ..., p = p_low + x^(k 2^t) p_high splits recursively until the pieces have degree < k, which are
//! linear combinations of the baby powers (scalar products only). Every sum meets equal levels and
//! scales exactly: every piece is on the chain's scale of its level (issue 22 part 3), and the
//! shallower operand is brought down by one constant product ([`CkksContext::align`]).

use super::polynomial::{combine, powers, MAX_POLYNOMIAL_DEGREE};
use crate::ckks::{CkksCiphertext, CkksContext};
use crate::rlwe::RelinKey;
use crate::{Error, Result};

/// p(x) = sum_i coeffs[i] x^i by baby-step giant-step (degree >= 1).
pub fn evaluate_polynomial_bsgs(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    coeffs: &[f64],
    rlk: &RelinKey,
) -> Result<CkksCiphertext> {
    if coeffs.len() > MAX_POLYNOMIAL_DEGREE + 1 {
        return Err(Error::OutOfRange(format!(
            "evaluate_polynomial_bsgs: {} coefficients, at most {} (degree {MAX_POLYNOMIAL_DEGREE})",
            coeffs.len(),
            MAX_POLYNOMIAL_DEGREE + 1
        )));
    }
    let d = coeffs.iter().rposition(|&c| c != 0.0).unwrap_or(0);
    if d == 0 || coeffs.iter().any(|c| !c.is_finite()) {
        return Err(Error::InvalidParameters(
            "evaluate_polynomial_bsgs needs finite coefficients and degree >= 1".into(),
        ));
    }
    let k = ((d + 1) as f64).sqrt().ceil().max(2.0) as usize;
    let k = k.next_power_of_two();
    let mut baby = powers(ctx, x, k, rlk)?;
    let mut giants = vec![baby
        .pop()
        .ok_or_else(|| Error::InvalidParameters("k = 0".into()))?];
    while k << giants.len() <= d {
        let g = giants
            .last()
            .ok_or_else(|| Error::InvalidParameters("no giant".into()))?;
        giants.push(ctx.multiply_rescale(g, g, rlk)?);
    }
    let leaf_level = baby.iter().map(CkksCiphertext::level).min().unwrap_or(0);
    if leaf_level == 0 {
        return Err(Error::InvalidParameters(format!(
            "degree {d} needs more levels than the ciphertext has ({})",
            x.level()
        )));
    }
    let steps = Steps {
        k,
        baby: &baby,
        giants: &giants,
        leaf_level,
        rlk,
    };
    bsgs(ctx, &coeffs[..=d], &steps)
}

fn bsgs(ctx: &CkksContext, coeffs: &[f64], s: &Steps<'_>) -> Result<CkksCiphertext> {
    let (k, baby, giants, leaf_level) = (s.k, s.baby, s.giants, s.leaf_level);
    if coeffs.len() <= k {
        return leaf(ctx, coeffs, baby, leaf_level);
    }
    // The largest giant x^(k 2^t) below the degree splits the polynomial.
    let t = (0..giants.len())
        .rev()
        .find(|&t| k << t < coeffs.len())
        .unwrap_or(0);
    let m = k << t;
    let low = bsgs(ctx, &coeffs[..m], s)?;
    let high = bsgs(ctx, &coeffs[m..], s)?;
    let g = &giants[t];
    let level = high.level().min(g.level());
    let prod = ctx.multiply_rescale(
        &ctx.drop_to_level(&high, level)?,
        &ctx.drop_to_level(g, level)?,
        s.rlk,
    )?;
    align_add(ctx, low, prod)
}

/// sum_i coeffs[i] x^i for a piece of degree < k (coeffs[0] as a constant).
fn leaf(
    ctx: &CkksContext,
    coeffs: &[f64],
    baby: &[CkksCiphertext],
    level: usize,
) -> Result<CkksCiphertext> {
    if coeffs.iter().skip(1).all(|&c| c == 0.0) {
        // A constant piece: c times x^0, encoded on x^1's zero multiple.
        let zero = ctx.mul_const_rescale_to(
            &ctx.drop_to_level_keeping_scale(&baby[0], level)?,
            0.0,
            ctx.scale_at(level.saturating_sub(1))?,
        )?;
        return ctx.add_const(&zero, coeffs[0]);
    }
    combine(ctx, baby, coeffs, level)
}

/// a + b at one level and one exact scale ([`CkksContext::align`]).
fn align_add(ctx: &CkksContext, a: CkksCiphertext, b: CkksCiphertext) -> Result<CkksCiphertext> {
    let (x, y) = ctx.align(&a, &b)?;
    ctx.add(&x, &y)
}
/// The precomputed steps of one evaluation.
struct Steps<'a> {
    k: usize,
    baby: &'a [CkksCiphertext],
    giants: &'a [CkksCiphertext],
    leaf_level: usize,
    rlk: &'a RelinKey,
}
