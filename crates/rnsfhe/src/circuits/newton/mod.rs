//! 1/x, 1/sqrt(x) and sqrt(x) in CKKS on a domain [lo, hi] with 0 < lo < hi (such as
//! [2^-10, 1]), to a requested precision, refreshed in between by a [`Levels`] hook when the levels
//! run out: an initial polynomial ([`plan`], `initial`), Goldschmidt iterations, then one Newton step.
//!
//! # The iterations
//!
//! Every value a refresh may see is bounded by 1 (CKKS bootstrapping takes |values| up to about
//! 1): the iterates are w = c y for the approximation y of the result with c = lo / (1 + e_0)
//! (inverse) or sqrt(lo / (1 + e_0)) (roots), and the error terms lie in [-e_0, e_0].
//!
//! - Inverse (Goldschmidt, "Applications of division by convergence", MIT 1964): e_0 = 1 - x p(x)
//!   and w_0 = c p(x) by two polynomials, then w <- w (1 + e), e <- e^2 (one level an iteration):
//!   w_m = (c / x)(1 - e_0^(2^m)).
//! - Square roots: Newton's y <- y (3 - x y^2) / 2 from a polynomial start (the approach of Panda,
//!   "Polynomial approximation of inverse sqrt function for FHE", CSCML 2022), written on its error
//!   term as Cheon, Kim, Kim, Lee and Lee's square root (ASIACRYPT 2019, section 3.2) carries
//!   b <- b^2 (b - 3) / 4 beside the result: with h = (1 - x y^2) / 2, y <- y (1 + h) and
//!   h <- 3/2 h^2 + h^3 (two levels an iteration).
//! - Then one Newton step on y = w / c itself: y (2 - x y) for 1/x, 3/2 y - 1/2 x y^3 for
//!   1/sqrt(x), x times that for sqrt(x) (three levels, four for sqrt; every intermediate about 1
//!   or above, so that the rescales' absolute noise stays small beside it). Goldschmidt's iterates
//!   drift apart under the scheme's noise (and a bootstrap's); the Newton step is
//!   self-correcting: its input's relative error, approximation and noise together, comes out
//!   squared.
//!
//! # Precision, depth and refreshes
//!
//! The iteration count m is the least whose bound after the final step is at most 2^-bits:
//! e_0^(2^(m+1)) for the inverse (e_0 = 1 / T_n((hi + lo) / (hi - lo)), n = 2^k - 1), and
//! 1 - sqrt(1 - b_(m+1)) for the roots (b_0 = e_0, b_(i+1) = b_i^2 (3 + b_i) / 4). The degree 2^k
//! is the one of least depth that fits, the smaller on a tie: depth k + c + m + 3 (inverse),
//! k + c + 2m + 3 (1/sqrt), k + c + 2m + 4 (sqrt), c = 1 unless 2 / (hi - lo) is an integer
//! ([`Plan::depth`]). On [2^-10, 1] at 20 bits: without a window, 1/x takes degree 126
//! (e_0 = 7.1e-4) and no iteration, depth 11; with 6 levels between refreshes, degree 30 and 3
//! iterations, depth 12, 2 bootstraps (1/sqrt: degree 15, 4 iterations, depth 16, 4 bootstraps).
//! Without a hook the whole depth must fit the input's level; with one, each step fits a refreshed
//! ciphertext and [`Plan::refreshes`] counts the bootstraps (two at each refresh inside the
//! iterations, w and e; one for x when it arrives too low).
//!
//! The bound is the approximation's; the scheme adds its noise: the final step squares its
//! input's relative error, so what remains is about the noise of x over x (x's own, 2^-26.7 for a
//! fresh 40-bit ciphertext at N = 2^12, is 2^-16.7 relative at x = 2^-10), the final step's
//! rescales, and twice the approximation error before the final step times the iterates' relative
//! noise.
//!
//! # Inputs outside the domain
//!
//! They get [`Plan::value`], the exact-arithmetic model of the circuit, with relative error
//! [`Plan::error_at`], as long as the polynomials' values stay small: the inverse converges on
//! (0, hi + lo) (|e_0| < 1 exactly there), more slowly outside [lo, hi]; the roots where
//! 0 < x g^2 p(x)^2 < 3, slightly beyond [lo, hi]. Below lo, w exceeds 1 and a bootstrap of it
//! fails. Far outside (x <= 0, x > hi + lo) the initial polynomial grows as T_n does: values
//! unrelated to the function, and once they outgrow the modulus, every slot of the ciphertext is
//! wrecked with them (tested).
//!
//! # Example
//!
//! ```
//! use rnsfhe::circuits::newton;
//! use rnsfhe::ckks::{CkksContext, CkksParameters};
//! use rnsfhe::eval::Levels;
//! use rnsfhe::params::Security;
//! use rnsfhe_math::sample::Csprng;
//!
//! # fn main() -> rnsfhe::Result<()> {
//! let params = CkksParameters::builder()
//!     .degree(2048)
//!     .levels(14)
//!     .scale_bits(40)
//!     .security(Security::InsecureResearchOnly)
//!     .build()?;
//! let ctx = CkksContext::new(params)?;
//! let mut rng = Csprng::from_seed([3; 32]);
//! let (sk, pk) = ctx.keygen(&mut rng)?;
//! let rlk = ctx.relin_key(&sk, &mut rng)?;
//! let x = [0.001, 0.01, 0.5, 1.0];
//! let c = ctx.encrypt(&ctx.encode_real(&x)?, &pk, &mut rng)?;
//! let y = newton::inverse(&Levels::new(&*ctx), &c, (2f64.powi(-10), 1.0), 16.0, &rlk)?;
//! let got = ctx.decrypt_values(&y, &sk)?;
//! for (g, v) in got.iter().zip(x) {
//!     assert!((g.re * v - 1.0).abs() < 1e-4);
//! }
//! # Ok(())
//! # }
//! ```

mod function;
mod initial;
pub mod plan;

pub use plan::{Budget, Function, Plan};

use crate::circuits::poly::{evaluate as evaluate_polynomial, Polynomial, Target};
use crate::ckks::{CkksCiphertext, CkksContext};
use crate::eval::{same_scale, Evaluator, Levels};
use crate::rlwe::RelinKey;
use crate::{Error, Result};

/// 1/x for x in [lo, hi] (0 < lo < hi) to a relative error of 2^-`precision_bits` before the
/// scheme's noise (module doc: depth, refreshes, inputs outside the domain).
pub fn inverse(
    levels: &Levels<'_, CkksContext>,
    x: &CkksCiphertext,
    domain: (f64, f64),
    precision_bits: f64,
    rlk: &RelinKey,
) -> Result<CkksCiphertext> {
    run(levels, x, Function::Inverse, domain, precision_bits, rlk)
}

/// 1/sqrt(x) for x in [lo, hi], as [`inverse`].
pub fn inv_sqrt(
    levels: &Levels<'_, CkksContext>,
    x: &CkksCiphertext,
    domain: (f64, f64),
    precision_bits: f64,
    rlk: &RelinKey,
) -> Result<CkksCiphertext> {
    run(levels, x, Function::InvSqrt, domain, precision_bits, rlk)
}

/// sqrt(x) for x in [lo, hi], as [`inverse`] (x times 1/sqrt(x), in the final Newton step).
pub fn sqrt(
    levels: &Levels<'_, CkksContext>,
    x: &CkksCiphertext,
    domain: (f64, f64),
    precision_bits: f64,
    rlk: &RelinKey,
) -> Result<CkksCiphertext> {
    run(levels, x, Function::Sqrt, domain, precision_bits, rlk)
}

/// The plan [`inverse`], [`inv_sqrt`] and [`sqrt`] make for `x` on `levels`: the budget is a
/// refreshed ciphertext's levels with a hook, else x's level.
pub fn plan_for(
    levels: &Levels<'_, CkksContext>,
    x: &CkksCiphertext,
    function: Function,
    domain: (f64, f64),
    precision_bits: f64,
) -> Result<Plan> {
    let x = prepare(levels, x)?;
    Plan::new(function, domain, precision_bits, budget(levels, &x))
}

fn budget(levels: &Levels<'_, CkksContext>, x: &CkksCiphertext) -> Budget {
    if levels.can_refresh() {
        Budget::Window(levels.most_spendable())
    } else {
        Budget::Total(x.level())
    }
}

fn run(
    levels: &Levels<'_, CkksContext>,
    x: &CkksCiphertext,
    function: Function,
    domain: (f64, f64),
    bits: f64,
    rlk: &RelinKey,
) -> Result<CkksCiphertext> {
    let x = prepare(levels, x)?;
    let plan = Plan::new(function, domain, bits, budget(levels, &x))?;
    evaluate(levels, &x, &plan, rlk)
}

/// x on the chain's scale of its level, and with a hook no higher than a refresh's output (the
/// levels above belong to the bootstrap's own stages, where wide primes hold the scales).
fn prepare(levels: &Levels<'_, CkksContext>, x: &CkksCiphertext) -> Result<CkksCiphertext> {
    let ctx = levels.evaluator();
    let mut x = levels.enter(x.clone())?;
    if !same_scale(x.scale(), ctx.scale_at(x.level())?) {
        let level = x
            .level()
            .checked_sub(1)
            .ok_or_else(|| Error::LevelsExhausted {
                op: "bringing the input onto the chain's scale".into(),
                level: 0,
                needed: 1,
            })?;
        x = ctx.lower_onto(&x, level, ctx.scale_at(level)?)?;
    }
    Ok(x)
}

/// `plan` on `x` (made for these `levels` and x: [`plan_for`]).
pub fn evaluate(
    levels: &Levels<'_, CkksContext>,
    x: &CkksCiphertext,
    plan: &Plan,
    rlk: &RelinKey,
) -> Result<CkksCiphertext> {
    let run = Run { levels, plan, rlk };
    let name = plan.function.name();
    let x = run.ensure_input(
        prepare(levels, x)?,
        plan.initial_levels(),
        &format!("the initial polynomial of {name}"),
    )?;
    let top = x.level();
    let mut w = run.polynomial(&x, &plan.start, below(top, plan.start_levels())?)?;
    let m = plan.iterations;
    let mut e = if m > 0 {
        run.polynomial(&x, &plan.error, below(top, plan.initial_levels())?)?
    } else {
        w.clone() // unused
    };
    for i in 0..m {
        let last = i + 1 == m;
        let op = format!("iteration {} of {m} of {name}", i + 1);
        e = levels.ensure(e, plan.error_step_levels(last), &op)?;
        w = levels.ensure(w, 1, &op)?;
        w = run.product(&w, &run.ctx().add_const(&e, 1.0)?)?;
        if !last {
            e = match plan.function {
                Function::Inverse => run.product(&e, &e)?,
                _ => run.cubic(&e)?,
            };
        }
    }
    let op = format!("the final Newton step of {name}");
    let need = plan.function.final_levels();
    let x = run.ensure_input(x, need, &op)?;
    let w = levels.ensure(w, need, &op)?;
    let level = x.level().min(w.level());
    let (x, w) = (levels.onto_level(x, level)?, levels.onto_level(w, level)?);
    run.newton(&x, &w)
}

/// `level - n`, or `LevelsExhausted` (a plan made for other levels than the ones it runs on).
fn below(level: usize, n: usize) -> Result<usize> {
    level.checked_sub(n).ok_or_else(|| Error::LevelsExhausted {
        op: "a step of a Newton plan made for other levels".into(),
        level,
        needed: n - level,
    })
}

struct Run<'a, 'b> {
    levels: &'a Levels<'b, CkksContext>,
    plan: &'a Plan,
    rlk: &'a RelinKey,
}

impl Run<'_, '_> {
    fn ctx(&self) -> &CkksContext {
        self.levels.evaluator()
    }

    /// `levels.ensure` on x, refusing to refresh an x the domain lets exceed 1.
    fn ensure_input(&self, x: CkksCiphertext, need: usize, op: &str) -> Result<CkksCiphertext> {
        let (_, hi) = self.plan.domain();
        if self.levels.can_refresh() && self.levels.spendable(x.level()) < need && hi > 1.0 {
            return Err(Error::InvalidParameters(format!(
                "{op} needs the input refreshed, but the domain reaches {hi} and bootstrapping \
                 takes values up to 1: scale the input into (0, 1] (and the domain with it), or \
                 give it {need} levels above the bootstrap's input level"
            )));
        }
        self.levels.ensure(x, need, op)
    }

    /// A Chebyshev series on the domain, landing on `level` at the chain's scale.
    fn polynomial(
        &self,
        x: &CkksCiphertext,
        coeffs: &[f64],
        level: usize,
    ) -> Result<CkksCiphertext> {
        let p = Polynomial::chebyshev_real(coeffs, self.plan.domain())?;
        let ctx = self.ctx();
        evaluate_polynomial(
            ctx,
            x,
            &p,
            Target::new(level, ctx.default_scale(level)?),
            self.rlk,
        )
    }

    /// a b at the lower of their levels, one level down, on the chain's scale.
    fn product(&self, a: &CkksCiphertext, b: &CkksCiphertext) -> Result<CkksCiphertext> {
        let level = a.level().min(b.level());
        let a = self.levels.onto_level(a.clone(), level)?;
        let b = self.levels.onto_level(b.clone(), level)?;
        let r = self.ctx().multiply_rescale(&a, &b, self.rlk)?;
        self.on_chain(r)
    }

    /// a times a real constant, one level: the fraction f in [1, 2) by a rescaled product, the
    /// power of two 2^j as an integer (so that no encoded constant outgrows a word).
    fn constant(&self, a: &CkksCiphertext, c: f64) -> Result<CkksCiphertext> {
        let ctx = self.ctx();
        let level = a
            .level()
            .checked_sub(1)
            .ok_or_else(|| Error::LevelsExhausted {
                op: "a constant product".into(),
                level: 0,
                needed: 1,
            })?;
        let j = if c.abs() >= 2.0 {
            c.abs().log2().floor() as i32
        } else {
            0
        };
        let r = ctx.mul_const_rescale_to(a, c / 2f64.powi(j), ctx.scale_at(level)?)?;
        if j > 0 {
            ctx.mul_integer(&r, 1i64 << j.min(62))
        } else {
            Ok(r)
        }
    }

    /// The roots' error update h <- 3/2 h^2 + h^3 (two levels).
    fn cubic(&self, h: &CkksCiphertext) -> Result<CkksCiphertext> {
        let level = below(h.level(), 2)?;
        let ctx = self.ctx();
        let p = Polynomial::monomial_real(&[0.0, 0.0, 1.5, 1.0]);
        evaluate_polynomial(
            ctx,
            h,
            &p,
            Target::new(level, ctx.default_scale(level)?),
            self.rlk,
        )
    }

    /// The final Newton step on y = w / c, from x and w at one level L. Inverse: v (2 - x v) with
    /// v = y (L - 3). Roots: 1.5 y - 0.5 x y^3 (L - 3; sqrt: times x, L - 4). Every intermediate
    /// is about 1 or above, so that the rescales' absolute noise stays small beside it.
    fn newton(&self, x: &CkksCiphertext, w: &CkksCiphertext) -> Result<CkksCiphertext> {
        let ctx = self.ctx();
        let c = self.plan.c;
        let y = self.constant(w, 1.0 / c)?;
        if self.plan.function == Function::Inverse {
            let a = self.product(x, &y)?; // x y, about 1
            let b = ctx.add_const(&ctx.negate(&a)?, 2.0)?;
            return self.product(&y, &b);
        }
        let y15 = self.constant(w, 1.5 / c)?;
        let half = self.constant(w, 0.5 / c)?;
        let xh = self.product(x, &half)?; // x y / 2
        let yy = self.product(&y, &y)?;
        let t = self.product(&xh, &yy)?; // x y^3 / 2
        let y15 = self.levels.onto_level(y15, t.level())?;
        let r = ctx.sub(&y15, &t)?;
        if self.plan.function == Function::Sqrt {
            self.product(x, &r)
        } else {
            Ok(r)
        }
    }

    /// `r` checked to be on the chain's scale of its level (products of such ciphertexts are).
    fn on_chain(&self, r: CkksCiphertext) -> Result<CkksCiphertext> {
        let ctx = self.ctx();
        ctx.check_landed(&r, ctx.scale_at(r.level())?, "a Newton iteration's product")?;
        Ok(r)
    }
}
