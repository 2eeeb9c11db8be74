//! The plan of an evaluation: the initial polynomial, its error bound, the iteration count that
//! bound implies for the requested precision, the depth, and a plain model of the whole circuit.
//!
//! Initial approximations (each with its error bound e_0 on [lo, hi]):
//!
//! - inverse: the polynomial p of degree n - 1 minimising max |1 - x p(x)| on [lo, hi] is known in
//!   closed form, 1 - x p(x) = T_n((hi + lo - 2x) / (hi - lo)) / T_n((hi + lo) / (hi - lo)) (the
//!   shifted Chebyshev polynomial; Rivlin, "Chebyshev Polynomials", 1990, the extremal property
//!   of T_n outside [-1, 1]), so e_0 = 1 / T_n((hi + lo) / (hi - lo)) exactly, with n = 2^k - 1;
//! - square roots: the Chebyshev interpolant p of 1/sqrt(x) of degree 2^k - 1 on [lo, hi], times
//!   the constant g that centres x g^2 p(x)^2 around 1; e_0 = max |1 - x g^2 p(x)^2| is bounded by
//!   sampling that polynomial r (degree D = 2^(k+1) - 1) at M points cos(theta_j), theta_j =
//!   (j + 1/2) pi / M: Bernstein's inequality |d r(cos theta) / d theta| <= D max |r| gives
//!   max |r| <= max_j |r(cos theta_j)| / (1 - D pi / (2M)), with M = 64 (D + 1).
//!
//! The iteration count is the least m whose bound, after m Goldschmidt steps and the final Newton
//! step, is at most 2^-bits; the degree 2^k (k >= 2 for the inverse, >= 1 for the square roots) is
//! the one of least total depth that fits the [`Budget`], the smaller on a tie.

use crate::circuits::chebyshev::{chebyshev_coefficients, chebyshev_value};
use crate::{Error, Result};

/// The functions of [`super`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Function {
    /// 1 / x.
    Inverse,
    /// 1 / sqrt(x).
    InvSqrt,
    /// sqrt(x).
    Sqrt,
}

impl Function {
    /// The exact value (the reference of the bounds).
    pub fn exact(self, x: f64) -> f64 {
        match self {
            Function::Inverse => 1.0 / x,
            Function::InvSqrt => 1.0 / x.sqrt(),
            Function::Sqrt => x.sqrt(),
        }
    }

    /// The levels of the final Newton step: a constant product and two products (sqrt: one more,
    /// the product by x).
    pub fn final_levels(self) -> usize {
        match self {
            Function::Sqrt => 4,
            _ => 3,
        }
    }

    /// Its name in messages (and Python's method).
    pub fn name(self) -> &'static str {
        match self {
            Function::Inverse => "inverse",
            Function::InvSqrt => "inv_sqrt",
            Function::Sqrt => "sqrt",
        }
    }
}

/// The levels an evaluation may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// No refresh: the whole circuit within these levels (the input's).
    Total(usize),
    /// A refresh whenever a step lacks levels: each step (the initial polynomial, one iteration,
    /// the final Newton step) within these levels (what a refreshed ciphertext can spend).
    Window(usize),
}

/// The largest k tried: the inverse's error polynomial of degree 2^10 - 1.
const MAX_K_INVERSE: usize = 10;
/// The largest k tried for the square roots: p of degree 255, its error polynomial of 511.
const MAX_K_SQRT: usize = 8;
/// More iterations than any domain with lo / hi above 2^-60 needs.
const MAX_ITERATIONS: usize = 64;

/// A planned evaluation of one [`Function`] on a domain [lo, hi].
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub(super) function: Function,
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) k: usize,
    pub(super) iterations: usize,
    initial_error: f64,
    /// Chebyshev coefficients on [lo, hi] of w_0 = c p(x).
    pub(super) start: Vec<f64>,
    /// Chebyshev coefficients on [lo, hi] of e_0 = 1 - x p(x) (inverse) or e_0 / 2 (square roots);
    /// empty without iterations.
    pub(super) error: Vec<f64>,
    /// c: the iterates are c y (|c y| <= 1 on the domain).
    pub(super) c: f64,
    /// Whether the change of variable onto [-1, 1] spends a level (2 / (hi - lo) not an integer).
    change: usize,
}

/// One candidate k: its initial polynomial and bound.
struct Initial {
    p: Vec<f64>,
    error0: f64,
    /// For the square roots: g^2 (x g^2 p^2 centred on 1).
    g2: f64,
}

impl Plan {
    /// The plan of `function` on [lo, hi] to a relative error of 2^-`bits` (before the scheme's
    /// noise) within `budget`. Errors: `InvalidParameters` for a domain that is not 0 < lo < hi
    /// finite or bits outside (0, 60]; `LevelsExhausted` when no degree fits the budget.
    pub fn new(
        function: Function,
        (lo, hi): (f64, f64),
        bits: f64,
        budget: Budget,
    ) -> Result<Plan> {
        if !(lo > 0.0 && lo < hi && hi.is_finite()) {
            return Err(Error::InvalidParameters(format!(
                "{} needs a domain 0 < lo < hi (finite), got [{lo}, {hi}]",
                function.name()
            )));
        }
        if !(bits > 0.0 && bits <= 60.0) {
            return Err(Error::InvalidParameters(format!(
                "{}: the precision must be in (0, 60] bits, got {bits}",
                function.name()
            )));
        }
        let change = usize::from((2.0 / (hi - lo)).fract() != 0.0);
        let ks = match function {
            Function::Inverse => 2..=MAX_K_INVERSE,
            _ => 1..=MAX_K_SQRT,
        };
        let mut best: Option<(usize, usize, usize, Initial)> = None; // depth, k, m, initial
        let mut least: Option<usize> = None; // the least depth (Total) or window (Window)
        for k in ks {
            let Some(init) = initial(function, lo, hi, k) else {
                continue;
            };
            let Some(m) = iterations_for(function, init.error0, bits) else {
                continue;
            };
            let d = depth(function, k, m, change);
            let (need, have) = match budget {
                Budget::Total(levels) => (d, levels),
                Budget::Window(w) => (
                    initial_levels(function, k, m, change).max(function.final_levels()),
                    w,
                ),
            };
            least = Some(least.map_or(need, |l: usize| l.min(need)));
            if need <= have && best.as_ref().is_none_or(|b| d < b.0) {
                best = Some((d, k, m, init));
            }
        }
        let Some((_, k, m, init)) = best else {
            return Err(no_fit(function, budget, least));
        };
        Ok(Plan::build(function, (lo, hi), k, m, init, change))
    }

    fn build(
        function: Function,
        (lo, hi): (f64, f64),
        k: usize,
        m: usize,
        init: Initial,
        change: usize,
    ) -> Plan {
        let e0 = init.error0;
        let (c, start, error) = match function {
            Function::Inverse => {
                let c = lo / (1.0 + e0);
                let n = (1usize << k) - 1;
                let mut error = vec![0.0; n + 1];
                let t = tn_at_s(n, lo, hi);
                error[n] = if n.is_multiple_of(2) {
                    1.0 / t
                } else {
                    -1.0 / t
                };
                let start = init.p.iter().map(|v| v * c).collect();
                (c, start, if m > 0 { error } else { Vec::new() })
            }
            Function::InvSqrt | Function::Sqrt => {
                let c = (lo / (1.0 + e0)).sqrt();
                let g = init.g2.sqrt();
                let start = init.p.iter().map(|v| v * c * g).collect();
                let error = if m > 0 {
                    let p = &init.p;
                    let half = |x: f64| {
                        let y = chebyshev_value(p, to_unit(x, lo, hi));
                        0.5 * (1.0 - init.g2 * x * y * y)
                    };
                    chebyshev_coefficients(half, lo, hi, 2 * p.len() - 1)
                } else {
                    Vec::new()
                };
                (c, start, error)
            }
        };
        Plan {
            function,
            lo,
            hi,
            k,
            iterations: m,
            initial_error: e0,
            start,
            error,
            c,
            change,
        }
    }

    /// The function.
    pub fn function(&self) -> Function {
        self.function
    }

    /// The domain [lo, hi].
    pub fn domain(&self) -> (f64, f64) {
        (self.lo, self.hi)
    }

    /// The degree of the initial polynomial p (2^k - 2 for the inverse, 2^k - 1 for the roots).
    pub fn degree(&self) -> usize {
        self.start.len() - 1
    }

    /// The bound e_0 on |1 - x p(x)| (inverse) or |1 - x p(x)^2| (roots) over the domain.
    pub fn initial_error(&self) -> f64 {
        self.initial_error
    }

    /// The Goldschmidt iterations between the initial polynomial and the final Newton step.
    pub fn iterations(&self) -> usize {
        self.iterations
    }

    /// The levels of the whole evaluation (without refreshes).
    pub fn depth(&self) -> usize {
        depth(self.function, self.k, self.iterations, self.change)
    }

    /// The levels of the initial polynomials (the error one, when there are iterations).
    pub(super) fn initial_levels(&self) -> usize {
        initial_levels(self.function, self.k, self.iterations, self.change)
    }

    /// The bound on the relative error |out / f(x) - 1| over the domain, before the scheme's noise.
    pub fn bound(&self) -> f64 {
        final_bound(self.function, self.initial_error, self.iterations)
    }

    /// The value the circuit computes at `x` in exact arithmetic (f64), inside or outside the
    /// domain: the plain model of the encrypted evaluation.
    pub fn value(&self, x: f64) -> f64 {
        let u = to_unit(x, self.lo, self.hi);
        let mut w = chebyshev_value(&self.start, u);
        let mut e = if self.error.is_empty() {
            0.0
        } else {
            chebyshev_value(&self.error, u)
        };
        for _ in 0..self.iterations {
            w *= 1.0 + e;
            e = match self.function {
                Function::Inverse => e * e,
                _ => 1.5 * e * e + e * e * e,
            };
        }
        let y = w / self.c;
        match self.function {
            Function::Inverse => y * (2.0 - x * y),
            Function::InvSqrt => y * (3.0 - x * y * y) / 2.0,
            Function::Sqrt => x * y * (3.0 - x * y * y) / 2.0,
        }
    }

    /// The relative error |value(x) / f(x) - 1| at `x` (infinite for x <= 0): how far an input
    /// outside the domain is served.
    pub fn error_at(&self, x: f64) -> f64 {
        if x <= 0.0 {
            return f64::INFINITY;
        }
        let r = (self.value(x) / self.function.exact(x) - 1.0).abs();
        if r.is_finite() {
            r
        } else {
            f64::INFINITY
        }
    }

    /// The refreshes an evaluation on an input with `spendable` levels makes with refreshed
    /// ciphertexts of `window` levels (each refresh of x, e or w counts one): the schedule of
    /// [`super::evaluate`], step by step.
    pub fn refreshes(&self, spendable: usize, window: usize) -> usize {
        let mut count = 0;
        let mut ensure = |have: &mut usize, need: usize| {
            if *have < need {
                *have = window;
                count += 1;
            }
        };
        let mut x = spendable.min(window);
        ensure(&mut x, self.initial_levels());
        let mut w = x - (self.k + self.change);
        let mut e = x - self.initial_levels();
        let m = self.iterations;
        for i in 0..m {
            let last = i + 1 == m;
            ensure(&mut e, self.error_step_levels(last));
            ensure(&mut w, 1);
            w = w.min(e) - 1;
            if !last {
                e -= self.error_step_levels(false);
            }
        }
        ensure(&mut x, self.function.final_levels());
        ensure(&mut w, self.function.final_levels());
        count
    }

    /// The levels e needs before an iteration: 1 for the product with w, 2 when it is also
    /// updated by the square roots' cubic.
    pub(super) fn error_step_levels(&self, last: bool) -> usize {
        match (self.function, last) {
            (Function::Inverse, _) | (_, true) => 1,
            _ => 2,
        }
    }
}

/// y = (2x - lo - hi) / (hi - lo): [lo, hi] onto [-1, 1].
fn to_unit(x: f64, lo: f64, hi: f64) -> f64 {
    (2.0 * x - lo - hi) / (hi - lo)
}

/// T_n((hi + lo) / (hi - lo)) = cosh(n acosh(s)).
fn tn_at_s(n: usize, lo: f64, hi: f64) -> f64 {
    let s = (hi + lo) / (hi - lo);
    (n as f64 * s.acosh()).cosh()
}

/// The initial polynomial for 2^k and its bound, or None when it cannot serve (no convergence,
/// or T_n(s) beyond f64).
fn initial(function: Function, lo: f64, hi: f64, k: usize) -> Option<Initial> {
    let n = (1usize << k) - 1;
    match function {
        Function::Inverse => {
            let t = tn_at_s(n, lo, hi);
            if !(t.is_finite() && t > 1.0) {
                return None;
            }
            let sign = if n.is_multiple_of(2) { 1.0 } else { -1.0 };
            // p(x) = (1 - e_0(x)) / x, of degree n - 1: interpolated exactly at n nodes.
            let e0 = |x: f64| sign * chebyshev_t(n, to_unit(x, lo, hi)) / t;
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

/// The least m whose bound is at most 2^-bits (None beyond [`MAX_ITERATIONS`]).
fn iterations_for(function: Function, error0: f64, bits: f64) -> Option<usize> {
    let target = (-bits).exp2();
    (0..=MAX_ITERATIONS).find(|&m| final_bound(function, error0, m) <= target)
}

/// The relative error bound after m iterations and the final Newton step from e_0.
fn final_bound(function: Function, error0: f64, m: usize) -> f64 {
    match function {
        // w_m = (c / x)(1 - e_0^(2^m)); the Newton step squares: e_0^(2^(m+1)).
        Function::Inverse => error0.powf(2f64.powi(m as i32 + 1)),
        // e -> e^2 (3 + e) / 4, worst at +e_0 and non-negative after one step; y = sqrt(1 - e) /
        // sqrt(x), so the relative error is 1 - sqrt(1 - e).
        Function::InvSqrt | Function::Sqrt => {
            let mut b = error0;
            for _ in 0..=m {
                b = b * b * (3.0 + b) / 4.0;
            }
            // 1 - sqrt(1 - b) without cancellation.
            b / (1.0 + (1.0 - b).sqrt())
        }
    }
}

/// Levels of the initial polynomial(s): p's Chebyshev series of degree 2^k - 2 or 2^k - 1 spends
/// k, the square roots' error polynomial (degree 2^(k+1) - 1) k + 1; plus the change of variable.
fn initial_levels(function: Function, k: usize, m: usize, change: usize) -> usize {
    match function {
        Function::Inverse => k + change,
        _ => k + change + usize::from(m > 0),
    }
}

/// Total levels: the initial polynomials (w_0 at k + change below the input), the iterations (one
/// level each for the inverse; two for the roots, whose error chain starts one level lower), the
/// final Newton step ([`Function::final_levels`]).
fn depth(function: Function, k: usize, m: usize, change: usize) -> usize {
    let per = if function == Function::Inverse { 1 } else { 2 };
    k + change + per * m + function.final_levels()
}

fn no_fit(function: Function, budget: Budget, least: Option<usize>) -> Error {
    let Some(need) = least else {
        return Error::InvalidParameters(format!(
            "{}: no initial polynomial up to the largest degree converges on this domain; split \
             it or scale the input",
            function.name()
        ));
    };
    match budget {
        Budget::Total(levels) => Error::LevelsExhausted {
            op: format!(
                "{} needs {need} levels at least (give a bootstrapper to refresh the ciphertext \
                 in between, or ask fewer bits)",
                function.name()
            ),
            level: levels,
            needed: need.saturating_sub(levels),
        },
        Budget::Window(w) => Error::LevelsExhausted {
            op: format!(
                "{}: its initial polynomial and final Newton step need {need} levels between \
                 refreshes, a refreshed ciphertext has {w}",
                function.name()
            ),
            level: w,
            needed: need.saturating_sub(w),
        },
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

    /// The plain model reaches the bound it promises, at the edges and inside.
    #[test]
    fn the_model_is_within_the_bound() {
        for f in [Function::Inverse, Function::InvSqrt, Function::Sqrt] {
            for (domain, bits) in [((2f64.powi(-10), 1.0), 20.0), ((0.5, 8.0), 40.0)] {
                let plan = Plan::new(f, domain, bits, Budget::Window(8)).unwrap();
                assert!(plan.bound() <= (-bits).exp2());
                let (lo, hi) = domain;
                for j in 0..=1000 {
                    let x = lo + (hi - lo) * j as f64 / 1000.0;
                    let err = plan.error_at(x);
                    assert!(err <= plan.bound() + 1e-13, "{f:?} {x}: {err}");
                }
            }
        }
    }

    /// A larger budget never gives a deeper plan; refusals say why.
    #[test]
    fn budgets_and_refusals() {
        let d = (2f64.powi(-10), 1.0);
        let small = Plan::new(Function::Inverse, d, 20.0, Budget::Window(4)).unwrap();
        let large = Plan::new(Function::Inverse, d, 20.0, Budget::Total(40)).unwrap();
        assert!(large.depth() <= small.depth());
        assert!(matches!(
            Plan::new(Function::Inverse, d, 20.0, Budget::Window(2)),
            Err(Error::LevelsExhausted { .. })
        ));
        assert!(matches!(
            Plan::new(Function::Sqrt, d, 20.0, Budget::Total(5)),
            Err(Error::LevelsExhausted { .. })
        ));
        for bad in [(0.0, 1.0), (1.0, 0.5), (0.5, f64::INFINITY)] {
            assert!(Plan::new(Function::Inverse, bad, 20.0, Budget::Total(40)).is_err());
        }
        assert!(Plan::new(Function::Inverse, d, 0.0, Budget::Total(40)).is_err());
    }
}
