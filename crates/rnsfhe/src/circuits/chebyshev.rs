//! Chebyshev interpolation (as OpenFHE's EvalChebyshevFunction): f on [a, b] by its interpolant of
//! degree d at the Chebyshev nodes, evaluated on the basis T_1..T_d.

use super::polynomial::{check_degree, combine};
use crate::ckks::{CkksCiphertext, CkksContext};
use crate::rlwe::RelinKey;
use crate::{Error, Result};

/// The checks of [`evaluate_chebyshev`] on the degree (range and levels), for callers that
/// sample f before evaluating (the Python binding).
pub fn check_chebyshev_degree(x: &CkksCiphertext, d: usize) -> Result<()> {
    check_degree(d, 2, x.level(), "Chebyshev interpolation")
}

/// Chebyshev polynomials T_1(y)..T_d(y), T_i = 2 T_a T_(i-a) - T_(2a-i) for the largest power of
/// two a < i (T_0 = 1), so T_i has depth ceil(log2 i).
pub fn chebyshev_basis(
    ctx: &CkksContext,
    y: &CkksCiphertext,
    d: usize,
    rlk: &RelinKey,
) -> Result<Vec<CkksCiphertext>> {
    check_degree(d, 0, y.level(), "chebyshev_basis")?;
    let mut t: Vec<CkksCiphertext> = vec![y.clone()];
    for i in 2..=d {
        let a = 1usize << (usize::BITS - 1 - (i - 1).leading_zeros());
        let (ta, tb) = (&t[a - 1], &t[i - a - 1]);
        let level = ta.level().min(tb.level());
        let prod = ctx.multiply_rescale(
            &ctx.drop_to_level(ta, level)?,
            &ctx.drop_to_level(tb, level)?,
            rlk,
        )?;
        let twice = ctx.mul_integer(&prod, 2)?;
        let next = match 2 * a - i {
            0 => ctx.add_const(&twice, -1.0)?,
            j => {
                // T_j is shallower: one constant product brings it to this level and scale.
                let low = ctx.drop_to_level(&t[j - 1], twice.level() + 1)?;
                let low = ctx.mul_const_rescale_to(&low, 1.0, twice.scale())?;
                ctx.sub(&twice, &low)?
            }
        };
        t.push(next);
    }
    Ok(t)
}

/// f's Chebyshev interpolant of degree d on [a, b]: coefficients c_0..c_d of sum c_k T_k(y),
/// y = (2x - a - b) / (b - a), from the values at the d + 1 Chebyshev nodes. O(d^2): callers with
/// a user's degree check it first ([`check_chebyshev_degree`]).
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
    ctx: &CkksContext,
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
    check_chebyshev_degree(x, d)?;
    let coeffs = chebyshev_coefficients(f, a, b, d);
    // y on the chain's scale of the level below x's, whatever x's scale (issue 22 part 3).
    let y = ctx.mul_const_rescale_to(x, 2.0 / (b - a), ctx.scale_at(x.level() - 1)?)?;
    let y = ctx.add_const(&y, -(a + b) / (b - a))?;
    let basis = chebyshev_basis(ctx, &y, d, rlk)?;
    let level = basis.iter().map(CkksCiphertext::level).min().unwrap_or(0);
    if level == 0 {
        return Err(Error::InvalidParameters(format!(
            "Chebyshev degree {d} needs one more level than the ciphertext has ({})",
            x.level()
        )));
    }
    combine(ctx, &basis, &coeffs, level)
}
