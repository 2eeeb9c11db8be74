//! Polynomial evaluation on CKKS ciphertexts (paper 004 section 5) by a depth-optimal power tree:
//! x^i = x^(2^a) x^(i - 2^a) for the largest 2^a < i, so every x^i costs depth ceil(log2 i); each term
//! is brought to the lowest level, multiplied by its coefficient (one more level) and summed. Depth
//! ceil(log2 d) + 1 for degree d. Every power is on the chain's scale of its level (products of
//! operands brought to one level by `drop_to_level`, issue 22 part 3); each term is multiplied by its
//! coefficient with a constant that lands on the chain's scale of the output level exactly
//! (`mul_const_rescale_to`), so every sum meets equal scales and the result is on the chain.

use crate::ckks::{CkksCiphertext, CkksContext};
use crate::rlwe::RelinKey;
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

/// Refuses a degree `d` of 0 or above [`MAX_POLYNOMIAL_DEGREE`], or one whose ceil(log2 d) levels
/// plus `extra` exceed the `level` left, before any work (`what` names the operation).
pub(crate) fn check_degree(d: usize, extra: usize, level: usize, what: &str) -> Result<()> {
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

/// The powers x^1..x^d, each relinearised and rescaled (x^i at depth ceil(log2 i)).
pub fn powers(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    d: usize,
    rlk: &RelinKey,
) -> Result<Vec<CkksCiphertext>> {
    check_degree(d, 0, x.level(), "powers")?;
    let mut p: Vec<CkksCiphertext> = vec![x.clone()];
    for i in 2..=d {
        let a = 1usize << (usize::BITS - 1 - (i - 1).leading_zeros());
        let (hi, lo) = (&p[a - 1], &p[i - a - 1]);
        let level = hi.level().min(lo.level());
        let (h, l) = (ctx.drop_to_level(hi, level)?, ctx.drop_to_level(lo, level)?);
        p.push(ctx.multiply_rescale(&h, &l, rlk)?);
    }
    Ok(p)
}

/// p(x) = sum_i coeffs[i] x^i (real coefficients, degree >= 1), depth ceil(log2 d) + 1.
pub fn evaluate_polynomial(
    ctx: &CkksContext,
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
    check_degree(d, 1, x.level(), "evaluate_polynomial")?;
    let powers = powers(ctx, x, d, rlk)?;
    let level = powers.iter().map(CkksCiphertext::level).min().unwrap_or(0);
    if level == 0 {
        return Err(Error::InvalidParameters(format!(
            "degree {d} needs {} levels with its coefficients, the ciphertext has {}",
            usize::BITS - (d - 1).leading_zeros() + 1,
            x.level()
        )));
    }
    combine(ctx, &powers, coeffs, level)
}

/// sum_{i >= 1} coeffs[i] basis[i - 1] + coeffs[0] at `level - 1`: every term's primes dropped to
/// `level`, multiplied by its coefficient with the constant chosen so that all terms land exactly on
/// the chain's scale of `level - 1` (`mul_const_rescale_to`, whatever scale the term had), then
/// summed.
pub(crate) fn combine(
    ctx: &CkksContext,
    basis: &[CkksCiphertext],
    coeffs: &[f64],
    level: usize,
) -> Result<CkksCiphertext> {
    let target = ctx.scale_at(level.saturating_sub(1))?;
    let mut acc: Option<CkksCiphertext> = None;
    for (i, c) in coeffs.iter().enumerate().skip(1).take(basis.len()) {
        if *c == 0.0 {
            continue;
        }
        let term = ctx.mul_const_rescale_to(
            &ctx.drop_to_level_keeping_scale(&basis[i - 1], level)?,
            *c,
            target,
        )?;
        acc = Some(match acc {
            None => term,
            Some(mut a) => {
                ctx.add_assign(&mut a, &term)?;
                a
            }
        });
    }
    let acc = acc.ok_or_else(|| Error::InvalidParameters("zero polynomial".into()))?;
    ctx.add_const(&acc, coeffs[0])
}
