//! The plan of an evaluation: the initial polynomial, its error bound, the iteration count that
//! bound implies for the requested precision, the depth, and a plain model of the whole circuit
//! (the initial polynomials and their bounds: `initial`).
//!
//! The iteration count is the least m whose bound, after m Goldschmidt steps and the final Newton
//! step, is at most 2^-bits; the degree 2^k (k >= 2 for the inverse, >= 1 for the square roots) is
//! the one of least total depth that fits the [`Budget`], the smaller on a tie.

pub use super::function::Function;
use super::initial::{error_polynomial, initial, to_unit, Initial};
use crate::circuits::chebyshev::chebyshev_value;
use crate::{Error, Result};

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
        // e_0 (inverse) or e_0 / 2 (roots) as a polynomial, needed only with iterations.
        let error = if m > 0 {
            error_polynomial(function, &init, (lo, hi), k)
        } else {
            Vec::new()
        };
        let (c, start, error) = match function {
            Function::Inverse => {
                let c = lo / (1.0 + e0);
                let start = init.p.iter().map(|v| v * c).collect();
                (c, start, error)
            }
            Function::InvSqrt | Function::Sqrt => {
                let c = (lo / (1.0 + e0)).sqrt();
                let g = init.g2.sqrt();
                let start = init.p.iter().map(|v| v * c * g).collect();
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
        let mut w = x.saturating_sub(self.start_levels());
        let mut e = x.saturating_sub(self.initial_levels());
        let m = self.iterations;
        for i in 0..m {
            let last = i + 1 == m;
            ensure(&mut e, self.error_step_levels(last));
            ensure(&mut w, 1);
            w = w.min(e).saturating_sub(1);
            if !last {
                e = e.saturating_sub(self.error_step_levels(false));
            }
        }
        ensure(&mut x, self.function.final_levels());
        ensure(&mut w, self.function.final_levels());
        count
    }

    /// The levels of w_0's polynomial (degree 2^k - 2 or 2^k - 1, and the change of variable).
    pub(super) fn start_levels(&self) -> usize {
        self.k + self.change
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
                 refreshes, a refreshed ciphertext has {w} (bootstrap with more residual levels)",
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
        // A window other than the plan's: counted, without underflow.
        assert!(small.refreshes(0, 1) >= 1);
        assert_eq!(large.refreshes(40, 40), 0);
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
