//! Chebyshev interpolation (as OpenFHE's EvalChebyshevFunction): f on [a, b] by its interpolant of
//! degree d at the Chebyshev nodes, evaluated in the Chebyshev basis by the scheme-neutral
//! [`super::poly`] (baby-step giant-step, Paterson–Stockmeyer).

use super::poly::ckks::{check_degree, collect_basis, evaluate_real};
use super::poly::{depth, Polynomial};
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

/// sum_k c_k T_k(y) in f64 by Clenshaw's recurrence (the plaintext model of a Chebyshev series on
/// [-1, 1]; y outside [-1, 1] is accepted, where T_k grows).
pub fn chebyshev_value(c: &[f64], y: f64) -> f64 {
    let (mut b1, mut b2) = (0.0, 0.0);
    for &ck in c.iter().skip(1).rev() {
        let b0 = 2.0 * y * b1 - b2 + ck;
        b2 = b1;
        b1 = b0;
    }
    c.first().copied().unwrap_or(0.0) + y * b1 - b2
}

/// The Chebyshev series of cos(a t + q pi / 2) on [-1, 1] (q quarter turns: cos, -sin, -cos, sin)
/// truncated at degree d, by the Jacobi-Anger expansion cos(a cos(theta) + phi) = cos(phi) J_0(a)
/// plus 2 sum_k cos(phi + k pi / 2) J_k(a) cos(k theta): even terms only for q even, odd only for
/// q odd (exact zeros). The Bessel values J_0(a)..J_d(a) (a > 0) come from Miller's backward
/// recurrence J_(k-1) = (2k / a) J_k - J_(k+1), started far beyond max(d, a) and normalised by
/// J_0 + 2 sum_n J_2n = 1 (Abramowitz and Stegun 9.1.27, 9.1.46), O(max(d, a)).
///
/// Unlike [`chebyshev_coefficients`], whose samples cos(a y_j) carry the f64 rounding of a y_j
/// (a 2^-53), no sample is rounded: at a = 8 pi, degree 60, the series is within 2^-48.4 of f64's
/// cos(a z) (whose own rounding that is), the interpolant within 2^-46.3 (test below).
pub fn cosine_series(a: f64, q: i64, d: usize) -> Vec<f64> {
    let top = a.max(d as f64);
    let m = (top + 30.0 + 10.0 * top.cbrt()).ceil() as usize / 2 * 2 + 2;
    let mut j = vec![0.0f64; d + 1];
    let (mut next, mut cur) = (0.0f64, 1.0f64); // J_(k+1), J_k for k = m, unnormalised
    let mut norm = 0.0f64;
    for k in (1..=m).rev() {
        (next, cur) = (cur, 2.0 * k as f64 / a * cur - next);
        let i = k - 1;
        if i > 0 && i % 2 == 0 {
            norm += 2.0 * cur;
        }
        if i <= d {
            j[i] = cur;
        }
        if cur.abs() > 1e250 {
            let s = 1e-250;
            (next, cur, norm) = (next * s, cur * s, norm * s);
            j.iter_mut().for_each(|v| *v *= s);
        }
    }
    norm += cur;
    // cos((q + k) pi / 2) in {1, 0, -1, 0}.
    let quarter = |k: usize| [1.0, 0.0, -1.0, 0.0][(q + k as i64).rem_euclid(4) as usize];
    (0..=d)
        .map(|k| quarter(k) * if k == 0 { 1.0 } else { 2.0 } * j[k] / norm)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The worst |series(z) - f(z)| over 2001 points of [-1, 1].
    fn worst(c: &[f64], f: impl Fn(f64) -> f64) -> f64 {
        crate::worst::worst_error((0..=2000).map(|i| {
            let z = i as f64 / 1000.0 - 1.0;
            (chebyshev_value(c, z) - f(z)).abs()
        }))
    }

    /// The Jacobi-Anger series against cos and sin (parity exact), for a from 1e-3 to 3000, and
    /// against the sampled interpolant at a = 8 pi, degree 60 (EvalMod's default).
    #[test]
    fn cosine_series_matches_cos() {
        for (a, d) in [
            (1e-3, 4),
            (1.0, 20),
            (8.0 * std::f64::consts::PI, 60),
            (100.0, 160),
        ] {
            for q in 0..4i64 {
                let c = cosine_series(a, q, d);
                let f = |z: f64| (a * z + q as f64 * std::f64::consts::FRAC_PI_2).cos();
                assert!(worst(&c, f) < 1e-13 * a.max(1.0), "a {a} q {q}");
                assert!(c
                    .iter()
                    .skip(1 - q as usize % 2)
                    .step_by(2)
                    .all(|&v| v == 0.0));
            }
        }
        let c = cosine_series(3000.0, 0, 3200);
        assert!(worst(&c, |z| (3000.0 * z).cos()) < 1e-9);
        let a = 8.0 * std::f64::consts::PI;
        let series = worst(&cosine_series(a, 0, 60), |z| (a * z).cos());
        let sampled = worst(
            &chebyshev_coefficients(|z| (a * z).cos(), -1.0, 1.0, 60),
            |z| (a * z).cos(),
        );
        println!(
            "a = 8 pi, degree 60: series 2^{:.2}, interpolant 2^{:.2}",
            series.log2(),
            sampled.log2()
        );
        assert!(series < sampled / 4.0);
    }
}
