//! Chebyshev interpolation (as OpenFHE's EvalChebyshevFunction): f on [a, b] by its interpolant of
//! degree d at the Chebyshev nodes, evaluated in the Chebyshev basis by the scheme-neutral
//! [`super::poly`] (baby-step giant-step, Paterson–Stockmeyer).

use super::poly::{depth, Polynomial};
use super::polynomial::{check_degree, collect_basis, evaluate_real};
use crate::ckks::{CkksCiphertext, CkksContext};
use crate::rlwe::RelinKey;
use crate::{Error, Result};

/// The levels [`evaluate_chebyshev`] spends for degree d on [a, b]: ceil(log2(d + 1)), plus one
/// for the change of variable when 2 / (b - a) is not an integer.
fn chebyshev_levels(d: usize, (a, b): (f64, f64)) -> usize {
    depth(d) + usize::from((2.0 / (b - a)).fract() != 0.0)
}

/// The checks of [`evaluate_chebyshev`] on the degree (range, and the ceil(log2(d + 1)) levels of
/// any interval; [`evaluate_chebyshev`] checks the change of variable's level too), for callers
/// that sample f before evaluating (the Python binding).
pub fn check_chebyshev_degree(x: &CkksCiphertext, d: usize) -> Result<()> {
    check_degree(d, depth(d), x.level(), "Chebyshev interpolation")
}

/// Chebyshev polynomials T_1(y)..T_d(y), T_i = 2 T_a T_(i-a) - T_(2a-i) for the largest power of
/// two a < i (T_0 = 1), so T_i has depth ceil(log2 i) ([`super::poly::PowerBasis`]).
pub fn chebyshev_basis(
    ctx: &CkksContext,
    y: &CkksCiphertext,
    d: usize,
    rlk: &RelinKey,
) -> Result<Vec<CkksCiphertext>> {
    check_degree(d, depth(d.saturating_sub(1)), y.level(), "chebyshev_basis")?;
    collect_basis(ctx, y, d, true, rlk)
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

/// f(x) on [a, b] by its Chebyshev interpolant of degree d, in ceil(log2(d + 1)) levels (one more
/// when 2 / (b - a) is not an integer), on the chain's scale of the level reached. Coefficients
/// below 2^-50 of the largest are interpolation rounding (the even ones of an odd f) and are
/// dropped, so that an odd or even f evaluates its terms of one parity only.
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
    check_degree(
        d,
        chebyshev_levels(d, (a, b)),
        x.level(),
        "Chebyshev interpolation",
    )?;
    let mut coeffs = chebyshev_coefficients(f, a, b, d);
    let largest = coeffs.iter().fold(0.0f64, |m, c| m.max(c.abs()));
    for c in coeffs.iter_mut() {
        if c.abs() <= largest * 2f64.powi(-50) {
            *c = 0.0;
        }
    }
    let p = Polynomial::chebyshev_real(&coeffs, (a, b))?;
    evaluate_real(ctx, x, p, "Chebyshev interpolation", rlk)
}
