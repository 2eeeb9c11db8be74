//! The initial approximations of [`super::plan`], each with its error bound e_0 on [lo, hi]:
//!
//! - inverse: the polynomial p of degree n - 1 minimising max |1 - x p(x)| on [lo, hi] is known in
//!   closed form, 1 - x p(x) = T_n((hi + lo - 2x) / (hi - lo)) / T_n((hi + lo) / (hi - lo)): among
//!   the polynomials q of degree n with q(0) = 1, this shifted Chebyshev polynomial has the least
//!   maximum on [lo, hi] (it equioscillates at n + 1 points; a q with a smaller maximum would
//!   differ from it by a polynomial with n zeros in [lo, hi] and one at 0), so e_0 =
//!   1 / T_n((hi + lo) / (hi - lo)) exactly, with n = 2^k - 1 (tested against dense sampling);
//! - square roots: the Chebyshev interpolant p of 1/sqrt(x) of degree 2^k - 1 on [lo, hi], times
//!   the constant g that centres x g^2 p(x)^2 around 1; e_0 = max |1 - x g^2 p(x)^2| is bounded by
//!   sampling that polynomial r (degree D = 2^(k+1) - 1) at M points cos(theta_j), theta_j =
//!   (j + 1/2) pi / M: Bernstein's inequality |d r(cos theta) / d theta| <= D max |r| gives
//!   max |r| <= max_j |r(cos theta_j)| / (1 - D pi / (2M)), with M = 64 (D + 1).
//!

use super::function::Function;
use crate::circuits::chebyshev::{chebyshev_coefficients, chebyshev_value};

/// One candidate k: its initial polynomial and bound.
pub(super) struct Initial {
    pub(super) p: Vec<f64>,
    pub(super) error0: f64,
    /// For the square roots: g^2 (x g^2 p^2 centred on 1).
    pub(super) g2: f64,
}

/// y = (2x - lo - hi) / (hi - lo): [lo, hi] onto [-1, 1].
pub(super) fn to_unit(x: f64, lo: f64, hi: f64) -> f64 {
    (2.0 * x - lo - hi) / (hi - lo)
}

/// T_n((hi + lo) / (hi - lo)) = cosh(n acosh(s)).
fn tn_at_s(n: usize, lo: f64, hi: f64) -> f64 {
    let s = (hi + lo) / (hi - lo);
    (n as f64 * s.acosh()).cosh()
}

/// The initial polynomial for 2^k and its bound, or None when it cannot serve (no convergence,
/// or T_n(s) beyond f64).
pub(super) fn initial(function: Function, lo: f64, hi: f64, k: usize) -> Option<Initial> {
    let n = (1usize << k) - 1;
    match function {
        Function::Inverse => {
            let t = tn_at_s(n, lo, hi);
            if !(t.is_finite() && t > 1.0) {
                return None;
            }
            // e_0(x) = T_n(-y) / T_n(s) = -T_n(y) / T_n(s) (n odd); p(x) = (1 - e_0(x)) / x, of
            // degree n - 1, interpolated exactly at n nodes.
            let e0 = |x: f64| -chebyshev_t(n, to_unit(x, lo, hi)) / t;
            let p = chebyshev_coefficients(|x| (1.0 - e0(x)) / x, lo, hi, n - 1);
            Some(Initial {
                p,
                error0: 1.0 / t,
                g2: 1.0,
            })
        }
        Function::InvSqrt | Function::Sqrt => {
            let p = chebyshev_coefficients(|x| 1.0 / x.sqrt(), lo, hi, n);
            let d = 2 * n + 1; // degree of x p(x)^2
            let samples = 64 * (d + 1);
            let values: Vec<(f64, f64)> = (0..samples)
                .map(|j| {
                    let u = (std::f64::consts::PI * (j as f64 + 0.5) / samples as f64).cos();
                    let x = (hi - lo) / 2.0 * u + (hi + lo) / 2.0;
                    let y = chebyshev_value(&p, u);
                    (y, x * y * y)
                })
                .collect();
            if values.iter().any(|&(y, _)| y.is_nan() || y <= 0.0) {
                return None;
            }
            let (tmin, tmax) = values
                .iter()
                .fold((f64::INFINITY, 0.0f64), |(a, b), &(_, t)| {
                    (a.min(t), b.max(t))
                });
            let g2 = 2.0 / (tmin + tmax);
            let sampled = values
                .iter()
                .fold(0.0f64, |m, &(_, t)| m.max((1.0 - g2 * t).abs()));
            let error0 = sampled / bernstein_factor(d, samples);
            (error0 < 1.0).then_some(Initial { p, error0, g2 })
        }
    }
}

/// 1 - D pi / (2M): max |r| <= max over the M samples / this, for r of degree D (Bernstein).
fn bernstein_factor(d: usize, samples: usize) -> f64 {
    1.0 - d as f64 * std::f64::consts::PI / (2.0 * samples as f64)
}

/// T_n(y) by the recurrence (any real y).
fn chebyshev_t(n: usize, y: f64) -> f64 {
    let (mut a, mut b) = (1.0, y);
    for _ in 0..n {
        (a, b) = (b, 2.0 * y * b - a);
    }
    a
}

/// The error polynomial the iterations start from, as Chebyshev coefficients on [lo, hi]: e_0 =
/// 1 - x p(x) = -T_n(y) / T_n(s) (inverse, n = 2^k - 1 odd), or e_0 / 2 = (1 - x g^2 p(x)^2) / 2
/// (roots, interpolated exactly at its degree 2^(k+1) - 1).
pub(super) fn error_polynomial(
    function: Function,
    init: &Initial,
    (lo, hi): (f64, f64),
    k: usize,
) -> Vec<f64> {
    match function {
        Function::Inverse => {
            let n = (1usize << k) - 1;
            let mut error = vec![0.0; n + 1];
            error[n] = -1.0 / tn_at_s(n, lo, hi);
            error
        }
        Function::InvSqrt | Function::Sqrt => {
            let p = &init.p;
            let half = |x: f64| {
                let y = chebyshev_value(p, to_unit(x, lo, hi));
                0.5 * (1.0 - init.g2 * x * y * y)
            };
            chebyshev_coefficients(half, lo, hi, 2 * p.len() - 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed-form bound of the inverse against dense sampling of 1 - x p(x).
    #[test]
    fn the_inverse_bound_is_attained_and_not_exceeded() {
        let (lo, hi) = (2f64.powi(-10), 1.0);
        for k in 2..=7 {
            let init = initial(Function::Inverse, lo, hi, k).unwrap_or_else(|| panic!("k {k}"));
            let mut worst = 0.0f64;
            for j in 0..=20_000 {
                let x = lo + (hi - lo) * j as f64 / 20_000.0;
                let e = 1.0 - x * chebyshev_value(&init.p, to_unit(x, lo, hi));
                worst = worst.max(e.abs());
            }
            assert!(
                worst <= init.error0 * (1.0 + 1e-9),
                "k {k}: {worst} > {}",
                init.error0
            );
            assert!(
                worst >= init.error0 * 0.999,
                "k {k}: {worst} << {}",
                init.error0
            );
        }
    }

    /// The sampled bound of the square roots holds on a much denser grid.
    #[test]
    fn the_square_root_bound_holds_densely() {
        let (lo, hi) = (2f64.powi(-10), 1.0);
        for k in 2..=6 {
            let init = initial(Function::InvSqrt, lo, hi, k).unwrap_or_else(|| panic!("k {k}"));
            let mut worst = 0.0f64;
            for j in 0..=200_000 {
                let x = lo + (hi - lo) * j as f64 / 200_000.0;
                let y = chebyshev_value(&init.p, to_unit(x, lo, hi));
                worst = worst.max((1.0 - init.g2 * x * y * y).abs());
            }
            assert!(worst <= init.error0, "k {k}: {worst} > {}", init.error0);
            assert!(
                worst >= init.error0 * 0.95,
                "k {k}: loose {worst} {}",
                init.error0
            );
        }
    }
}
