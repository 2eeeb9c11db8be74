//! EvalMod, the homomorphic modular reduction of CKKS bootstrapping: x -> x - round(x) for
//! x = I + eps in the slots, I an integer with |I| < K and |eps| <= 2^-log_message_ratio
//! (x = v / q_0 after ModRaise and CoeffsToSlots, v = m + q_0 I, eps = m / q_0).
//!
//! # What is evaluated
//!
//! The scaled sine of Cheon et al. (Eurocrypt 2018, section 4), sin(2 pi x) / (2 pi) = eps -
//! (2 pi)^2 eps^3 / 6 + ..., interpolated on y = x / K in [-1, 1] (Chen, Chillotti, Song,
//! Eurocrypt 2019) and computed as Han and Ki do ("Better bootstrapping for approximate HE",
//! CT-RSA 2020): a cosine of a shrunk argument, then r double angles; with the optional arcsine
//! correction (Lee, Lee, Lee, Kim, No, Eurocrypt 2021; Bossuat et al., Eurocrypt 2021).
//! With a = 2 pi K / 2^r and the origin x_0 = 1/4 - 2^(r-2) for r <= 2 (-3/4 at r = 2), x_0 = 1/4
//! for r >= 3, the variable is z = y - x_0 / K = (x - x_0) / K, in [-1, 1] for |I| < K (a constant
//! added to the input y = x / K, no level):
//!
//! 1. p(z) = beta_0 cos(2 pi (x - 1/4) / 2^r) = beta_0 cos(a z + phi), with phi = 2 pi (x_0 - 1/4)
//!    / 2^r: beta_0 sin(a z) (odd, phi = -pi/2) for r <= 2, beta_0 cos(a z) (even) for r >= 3, so
//!    that only terms of one parity are evaluated. p is the Chebyshev series of degree
//!    `sine_degree` on [-1, 1] ([`cosine_series`], Jacobi-Anger: the f64 samples of
//!    `chebyshev_coefficients`' interpolant cost 1.6 bits of model precision at K = 16, r = 2,
//!    degree 60, 2^-46.7 against 2^-48.3 measured with the even form), evaluated by the baby-step
//!    giant-step of [`poly`] in ceil(log2(d + 1)) levels;
//! 2. r = `double_angle` steps w -> 2 w^2 - beta_j (a square, a doubling, a rescale, a constant),
//!    beta_j = (2 pi)^(-2^(j - r)): w_j = beta_j cos(2 pi (x - 1/4) / 2^(r - j)) by cos(2u) =
//!    2 cos(u)^2 - 1 with the 1 / (2 pi) folded into the beta_j (Lattigo's `mod1` folds it the same
//!    way), so that w_r = sin(2 pi x) / (2 pi) (for r = 0, p itself);
//! 3. with `arcsine_degree` d_a > 0: v = 2^rho w_r (rho = `log_message_ratio`, an integer product,
//!    no level) and the Taylor polynomial of arcsin(2 pi 2^-rho v) / (2 pi) of degree d_a in v
//!    (monomial, odd, ceil(log2(d_a + 1)) levels). With v of order 1 the coefficients stay small:
//!    in w_r they would be (2 pi)^(2n) a_n and multiply the noise of the tiny powers of w_r.
//!
//! The output holds [`EvalMod::gain`] (x - round(x)), gain 1 with or without the arcsine, at
//! [`EvalMod::output_level`] on the chain's scale there: the scales before the double angles are
//! chosen backwards (S_(j-1) = sqrt(S_j q), as Lattigo's `mod1` does) so that the last rescale
//! lands on it.
//!
//! # Error analysis (in x units; the message precision is -log2(error 2^log_message_ratio))
//!
//! - Truncation: the coefficients of cos(a z + phi) are 2 |J_k(a)|, falling like (a/2)^k / k!
//!   beyond k = a: the series of degree d is within beta_0 sum_(k > d) 2 |J_k(a)|.
//! - Double angles: w = beta (c + e) gives 2 w^2 - beta' = beta' (2c^2 - 1 + 4 c e + 2 e^2): an
//!   error e (truncation, f64 rounding, noise) grows by |4c| <= 4 per step, 4^r e after r steps,
//!   then / (2 pi) in x units (w_r = sin / (2 pi) has slope 1 in x at eps = 0). The noise of a
//!   step's own rescale is amplified by the steps after it only.
//! - The sine: sin(2 pi eps) / (2 pi) - eps = -(2 pi)^2 eps^3 / 6 + ..., 2^-57.3 at |eps| = 2^-20,
//!   2^-33.3 at 2^-12. The arcsine of degree d_a leaves its first omitted Taylor term
//!   a_n (2 pi)^(2n) |eps|^(2n + 1), n = (d_a + 1) / 2, a_n = (2n)! / (4^n n!^2 (2n + 1)):
//!   degree 3, 3 (2 pi)^4 eps^5 / 40, 2^-53.1 at 2^-12; degree 5 at 2^-8, 2^-44.6. Its slope at
//!   0 is 1.
//! - Input noise e_y: K e_y in x units, not amplified (x - round(x) has slope 1).
//! - Noise of the basis: a polynomial evaluates z^2 (T_2) first; its absolute rescale noise n
//!   (about 2^-50 of the scale at N = 2^12, dense secret) reaches p through d p / d(z^2). For an
//!   even p = g(z^2) that is p'(z) / (2z), up to beta_0 a^2 / 2 at z near 0, where the input x = 0
//!   lies (z = -1/(4K) for x_0 = 1/4): n pi K^2 / 2 in x units after the double angles, whatever r
//!   (2^8.65 n at K = 16); the slots with I = 0 are the worst. An odd p = z h(z^2) has z h'(z^2) ->
//!   0 at z = 0: the origin x_0 = 1/4 - 2^(r-2), where the cosine is a sine, gains 1.4 bits in the
//!   worst slot and about 1 on average over I in -2..2 (measured, 31 values of I at N = 2^12), for
//!   2 more products (T_3, T_5, T_7 against T_6). For r >= 3 that origin leaves [-1, 1]. The K^2 is
//!   why K = 512 (a dense secret without encapsulation) loses 9.5 bits to K = 16 below.
//!
//! # Measured (`cargo test -p rnsfhe --test eval_mod table -- --ignored --nocapture`)
//!
//! Model: worst |apply_plain(y) - eps| over 200 000 random (I, eps), |eps| <= 2^-ratio, and the
//! edges; its f64 floor is the rounding of z (K 2^-54 in x units) and Clenshaw's rounding times
//! 4^r / (2 pi).
//! Encrypted: worst of 2^11 random slots at N = 2^12 (dense secret, 60-bit primes, fresh input at
//! 2^60 whose own noise is 2^-43.4 in x units) against x - round(x). Products: non-scalar (fewer
//! key switches: the giant-step sums are relinearised once per piece, `poly::bsgs`; 14 for the
//! first row). Each Chebyshev element T_i = 2 T_a T_b - T_(a-b) carries one rescale's rounding
//! (T_(a-b) subtracted before its product's rescale, `poly::powers`), and relinearisation and
//! rescale are one division (`CkksContext::relinearize_rescale`). A row is one key seed: rows move
//! by up to 1 bit with the noise's realisation. Over 8 key seeds on the n16-h192 chain (EvalMod of
//! `examples/eval_mod.rs` at N = 2^12 and 2^13, all slots), the median worst error is 2^-42.1 and
//! 2^-42.0 in x units, against 2^-41.8 and 2^-41.6 with T_(a-b) brought down by a rescale of its
//! own.
//!
//! | K | r | degree | arcsine | log ratio | depth | products | model | encrypted |
//! |---|---|---|---|---|---|---|---|---|
//! | 16 | 2 | 60 | 0 | 20 | 8 | 17 | 2^-48.6 | 2^-41.5 |
//! | 16 | 3 | 30 | 0 | 20 | 8 | 12 | 2^-31.0 | 2^-31.0 |
//! | 16 | 3 | 38 | 0 | 20 | 9 | 13 | 2^-47.3 | 2^-40.5 |
//! | 16 | 3 | 62 | 0 | 20 | 9 | 17 | 2^-47.0 | 2^-40.4 |
//! | 16 | 1 | 88 | 0 | 20 | 8 | 19 | 2^-48.5 | 2^-41.4 |
//! | 16 | 2 | 60 | 0 | 12 | 8 | 17 | 2^-33.3 | 2^-33.3 |
//! | 16 | 2 | 60 | 3 | 12 | 10 | 19 | 2^-48.6 | 2^-41.1 |
//! | 16 | 2 | 60 | 5 | 8 | 11 | 21 | 2^-44.5 | 2^-42.0 |
//! | 32 | 2 | 88 | 0 | 20 | 9 | 20 | 2^-46.9 | 2^-39.7 |
//! | 32 | 3 | 56 | 0 | 20 | 9 | 15 | 2^-46.6 | 2^-38.7 |
//! | 512 | 6 | 94 | 0 | 20 | 13 | 21 | 2^-40.0 | 2^-32.5 |
//! | 512 | 7 | 60 | 0 | 20 | 13 | 20 | 2^-39.0 | 2^-32.5 |
//!
//! K = 16, r = 3, degree 30 is Lattigo's default shape: there it works because Han and Ki place
//! the nodes near the integers only; a series on the whole interval needs degree 38 (one level
//! more). The default, r = 2 with degree 60, has the depth of Lattigo's (8) and is 1.0 bit more
//! precise encrypted than r = 3 with degree 38 (9 levels, 4 products fewer).
//!
//! # Failure
//!
//! The polynomial is accurate for z in [-1, 1] only: for |I| >= K (z outside, where the T_k grow
//! fast) the result is garbage; the probability of |I| >= K after ModRaise is the bootstrapping
//! parameters' concern. For |eps| beyond 2^-log_message_ratio the sine's cubic term (and the
//! arcsine's Taylor remainder) grow as above; beyond |eps| = 1/4 the result is garbage.

use crate::circuits::chebyshev::{chebyshev_value, cosine_series};
use crate::circuits::poly::{self, depth, Polynomial, Target};
use crate::ckks::{CkksCiphertext, CkksContext, Complex};
use crate::eval::Evaluator;
use crate::rlwe::RelinKey;
use crate::{Error, Result};
use std::f64::consts::TAU;

/// The largest K, double-angle count and arcsine degree accepted (far beyond what any bootstrapping
/// preset uses; they bound the work before any is done).
const MAX_K: u32 = 1 << 16;
const MAX_DOUBLE_ANGLE: u32 = 16;
const MAX_ARCSINE_DEGREE: usize = 15;

/// How far (relative) the input's scale may be from the chain's at [`EvalMod::level`]: the powers'
/// scales drift by 2^j times that up to T_(2^j) (see [`EvalMod::apply`]).
const INPUT_SCALE_TOLERANCE: f64 = 1.0 / 1024.0;

/// The choices of [`EvalMod`] (Lattigo's `mod1.ParametersLiteral`, OpenFHE's `EvalBootstrapSetup`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalModParameters {
    /// The bound on the integer part: |I| < K (the slots hold y = x / K in [-1, 1]).
    pub k: u32,
    /// The number r of double-angle steps.
    pub double_angle: u32,
    /// The degree of the cosine's Chebyshev series (of one parity: for r <= 2 an even degree adds
    /// nothing to the odd series, for r >= 3 an odd one nothing to the even series).
    pub sine_degree: usize,
    /// The degree of the arcsine's Taylor polynomial (0: none; else odd, 3..=15).
    pub arcsine_degree: usize,
    /// log2(q_0 / Delta): |eps| = |m / q_0| <= 2^-log_message_ratio is where the result is
    /// accurate (and the arcsine's input scaling).
    pub log_message_ratio: u32,
}

impl Default for EvalModParameters {
    /// K = 16 (a sparse secret, or sparse-secret encapsulation), r = 2 double angles, degree 60
    /// (6 levels), no arcsine, log_message_ratio 20: 8 levels, 17 products, model error 2^-48.6 in
    /// x units for |eps| <= 2^-20 (28.6 bits of message precision; see the module doc's table).
    fn default() -> Self {
        EvalModParameters {
            k: 16,
            double_angle: 2,
            sine_degree: 60,
            arcsine_degree: 0,
            log_message_ratio: 20,
        }
    }
}

impl EvalModParameters {
    /// The message precision of an error in x units: -log2(error 2^log_message_ratio).
    pub fn precision_bits(&self, error_in_x: f64) -> f64 {
        -(error_in_x.log2() + f64::from(self.log_message_ratio))
    }

    fn check(&self) -> Result<()> {
        let bad = |what: String| Err(Error::OutOfRange(format!("EvalMod: {what}")));
        if !(1..=MAX_K).contains(&self.k) {
            return bad(format!("K = {} is not in 1..={MAX_K}", self.k));
        }
        if self.double_angle > MAX_DOUBLE_ANGLE {
            return bad(format!(
                "{} double angles, at most {MAX_DOUBLE_ANGLE}",
                self.double_angle
            ));
        }
        if !(2..=poly::MAX_POLYNOMIAL_DEGREE).contains(&self.sine_degree) {
            return bad(format!(
                "sine degree {} is not in 2..={}",
                self.sine_degree,
                poly::MAX_POLYNOMIAL_DEGREE
            ));
        }
        let d = self.arcsine_degree;
        if d != 0 && (d.is_multiple_of(2) || !(3..=MAX_ARCSINE_DEGREE).contains(&d)) {
            return bad(format!(
                "arcsine degree {d} is neither 0 nor odd in 3..={MAX_ARCSINE_DEGREE}"
            ));
        }
        if !(1..=60).contains(&self.log_message_ratio) {
            return bad(format!(
                "log_message_ratio {} is not in 1..=60",
                self.log_message_ratio
            ));
        }
        Ok(())
    }
}

/// The homomorphic modular reduction for inputs at one level (see the module doc): the
/// polynomials, precomputed once.
///
/// # Example
///
/// x = I + eps for I in -15..15 (slots y = x / 16), reduced to eps (toy, insecure size):
///
/// ```
/// use rnsfhe::circuits::bootstrapping::{EvalMod, EvalModParameters};
/// use rnsfhe::ckks::{CkksContext, CkksParameters};
/// use rnsfhe::params::Security;
/// use rnsfhe_math::sample::Csprng;
///
/// # fn main() -> rnsfhe::Result<()> {
/// let params = CkksParameters::builder()
///     .degree(2048)
///     .levels(8)
///     .scale_bits(60)
///     .security(Security::InsecureResearchOnly)
///     .build()?;
/// let ctx = CkksContext::new(params)?;
/// let em = EvalMod::new(&ctx, EvalModParameters::default(), 8)?; // K = 16, 8 levels
/// let mut rng = Csprng::from_seed([3; 32]);
/// let (sk, pk) = ctx.keygen(&mut rng)?;
/// let rlk = ctx.relin_key(&sk, &mut rng)?;
///
/// let x = [3.0 + 1e-6, -15.0 - 2e-7, 7e-7];
/// let y: Vec<f64> = x.iter().map(|v| v / 16.0).collect();
/// let ct = ctx.encrypt(&ctx.encode_real(&y)?, &pk, &mut rng)?;
/// let out = em.apply(&ctx, &ct, &rlk)?;
/// assert_eq!(out.level(), em.output_level()); // 0
/// let got = ctx.decrypt_values(&out, &sk)?;
/// for (g, v) in got.iter().zip(x) {
///     assert!((g.re / em.gain() - (v - v.round())).abs() < 1e-10);
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct EvalMod {
    params: EvalModParameters,
    level: usize,
    /// p(z) = beta_0 cos(a z + phi) in the Chebyshev basis on [-1, 1], in f64 and for `poly`.
    cosine: Vec<f64>,
    cosine_poly: Polynomial<Complex>,
    /// x_0: the polynomial's variable is z = (x - x_0) / K.
    origin: f64,
    /// beta_1..beta_r, the constants of the double angles.
    beta: Vec<f64>,
    /// arcsin(2 pi 2^-rho v) / (2 pi) in the monomial basis (empty without arcsine).
    arcsine: Vec<f64>,
    arcsine_poly: Polynomial<Complex>,
    /// The levels of the cosine polynomial and of the arcsine's.
    cosine_depth: usize,
    arcsine_depth: usize,
}

impl EvalMod {
    /// Precomputes the polynomials for inputs at `level` (see the module doc). Errors:
    /// `OutOfRange` for K = 0, degrees or counts out of range ([`EvalModParameters`]);
    /// `LevelOutOfRange` above the chain's top; `LevelsExhausted` (with the depth needed) when
    /// `level` is below [`Self::depth`].
    pub fn new(ctx: &CkksContext, params: EvalModParameters, level: usize) -> Result<EvalMod> {
        params.check()?;
        if level > ctx.max_level() {
            return Err(Error::LevelOutOfRange {
                op: "EvalMod".into(),
                level,
                max: ctx.max_level(),
            });
        }
        let r = params.double_angle as i32;
        let beta = |j: i32| TAU.powf(-2f64.powi(j - r));
        let (b0, a) = (beta(0), TAU * f64::from(params.k) / 2f64.powi(r));
        // Odd (a sine, a quarter turn back) where the origin stays within 1 of 0.
        let (origin, quarter_turns) = if r <= 2 {
            (0.25 - 2f64.powi(r - 2), -1)
        } else {
            (0.25, 0)
        };
        let cosine: Vec<f64> = cosine_series(a, quarter_turns, params.sine_degree)
            .iter()
            .map(|c| b0 * c)
            .collect();
        let mut arcsine = Vec::new();
        if params.arcsine_degree > 0 {
            // a_n (2 pi)^(2n) 2^(-(2n + 1) rho) for v^(2n + 1),
            // a_n = a_(n-1) (2n - 1)^2 / (2n (2n + 1)).
            let shrink = 2f64.powi(-(params.log_message_ratio as i32));
            arcsine = vec![0.0; params.arcsine_degree + 1];
            let mut c = shrink;
            for i in (1..=params.arcsine_degree).step_by(2) {
                if i > 1 {
                    let n = ((i - 1) / 2) as f64;
                    c *= (2.0 * n - 1.0).powi(2) / (2.0 * n * (2.0 * n + 1.0))
                        * (TAU * shrink).powi(2);
                }
                arcsine[i] = c;
            }
        }
        let cosine_depth = depth(cosine.iter().rposition(|&c| c != 0.0).unwrap_or(0));
        let arcsine_depth = if arcsine.is_empty() {
            0
        } else {
            depth(params.arcsine_degree)
        };
        let out = EvalMod {
            params,
            level,
            cosine_poly: Polynomial::chebyshev_real(&cosine, (-1.0, 1.0))?,
            cosine,
            origin,
            beta: (1..=r).map(beta).collect(),
            arcsine_poly: Polynomial::monomial_real(&arcsine),
            arcsine,
            cosine_depth,
            arcsine_depth,
        };
        if level < out.depth() {
            return Err(Error::LevelsExhausted {
                op: "EvalMod".into(),
                level,
                needed: out.depth(),
            });
        }
        Ok(out)
    }

    /// The parameters.
    pub fn parameters(&self) -> EvalModParameters {
        self.params
    }

    /// The input level.
    pub fn level(&self) -> usize {
        self.level
    }

    /// The levels spent: ceil(log2(d + 1)) for the cosine's degree d, r, and ceil(log2(d_a + 1))
    /// with the arcsine.
    pub fn depth(&self) -> usize {
        self.cosine_depth + self.beta.len() + self.arcsine_depth
    }

    /// The output level, [`Self::level`] - [`Self::depth`].
    pub fn output_level(&self) -> usize {
        self.level - self.depth()
    }

    /// The factor between the output and x - round(x): 1 (the 1 / (2 pi) of the sine is folded
    /// into the polynomials, see the module doc), with and without arcsine.
    pub fn gain(&self) -> f64 {
        1.0
    }

    /// The Chebyshev coefficients of p (step 1 of the module doc; one parity).
    pub fn cosine_coefficients(&self) -> &[f64] {
        &self.cosine
    }

    /// The plaintext model: the same polynomials and steps in f64 (Clenshaw for p, Horner for the
    /// arcsine) on one slot value y = x / K.
    pub fn apply_plain(&self, y: f64) -> f64 {
        let z = y - self.origin / f64::from(self.params.k);
        let mut w = chebyshev_value(&self.cosine, z);
        for &b in &self.beta {
            w = 2.0 * (w * w) - b;
        }
        if !self.arcsine.is_empty() {
            let v = w * 2f64.powi(self.params.log_message_ratio as i32);
            w = self.arcsine.iter().rev().fold(0.0, |acc, &c| acc * v + c);
        }
        w
    }

    /// EvalMod of `ct` (slots y = x / K, real, |y| <= 1): [`Self::gain`] (x - round(x)) at
    /// [`Self::output_level`], on the chain's scale there ([`Self::apply_with`] lands on another).
    ///
    /// The input is at [`Self::level`] on the chain's scale of that level (where CoeffsToSlots'
    /// linear transforms land; within 2^-10 relative), or above [`Self::level`]: it is then
    /// brought onto that scale by [`Evaluator::lower_onto`] (a constant and a rescale, with the
    /// level that dropping to [`Self::level`] gives up anyway; its scale S must leave the constant
    /// Delta q / S below 2^62). Why the scale matters: the powers T_(2^j) of the baby-step
    /// giant-step sit at q (S / q)^(2^j) from a scale S; from the chain's scale they stay on the
    /// chain's scales, from another one they drift until a coefficient no longer fits a word (at
    /// S = 2^59.5 on 60-bit primes already).
    ///
    /// Errors: `LevelMismatch` below [`Self::level`]; `ScaleMismatch` at [`Self::level`] off the
    /// chain's scale; the evaluator's errors (a key or parameter mismatch).
    pub fn apply(
        &self,
        ctx: &CkksContext,
        ct: &CkksCiphertext,
        rlk: &RelinKey,
    ) -> Result<CkksCiphertext> {
        self.apply_with(ctx, ct, rlk, ctx.scale_at(self.output_level())?)
    }

    /// The scale that keeps every scale of EvalMod near its primes: q_(l+1) for the output level l,
    /// the last prime EvalMod rescales by (then S_(j-1) = sqrt(S_j q) stays at q through the
    /// double angles). Where the chain's scales at EvalMod's lower levels are well below its
    /// primes (a `chain_bits` chain whose scale level is below: there Delta_l =
    /// sqrt(Delta_(l-1) q_l) nears the primes from below), landing here rather than on the chain's
    /// scale keeps the rescale noise of the last double angles small: measured on
    /// `tests/eval_mod.rs`'s mixed chain (60-bit EvalMod primes above 50-bit ones, scale level at
    /// 2^40), 2^-41.2 instead of 2^-35.6 in x units. SlotsToCoeffs lands on its own target from
    /// any scale.
    pub fn prime_output_scale<E: Evaluator>(&self, e: &E) -> Result<f64> {
        e.rescale_factor(self.output_level() + 1)
    }

    /// [`Self::apply`] over any evaluator with complex constants (a [`CkksContext`], or a wrapper
    /// of one, as the tests' product counter), landing on `scale` at [`Self::output_level`] (the
    /// chain's, [`Self::prime_output_scale`], or any other). Errors: as [`Self::apply`], and
    /// `OutOfRange` for a `scale` that is not finite and > 0.
    pub fn apply_with<E: Evaluator<Scalar = Complex>>(
        &self,
        e: &E,
        ct: &E::Ciphertext,
        rlk: &E::RelinKey,
        scale: f64,
    ) -> Result<E::Ciphertext> {
        if !(scale.is_finite() && scale > 0.0) {
            return Err(Error::OutOfRange(format!(
                "EvalMod: the output scale must be finite and > 0, got {scale}"
            )));
        }
        let (have, chain) = (e.level(ct), e.default_scale(self.level)?);
        if have < self.level {
            return Err(Error::LevelMismatch {
                op: "EvalMod".into(),
                left: have,
                right: self.level,
                hint: format!("this EvalMod takes inputs at level {} or above", self.level),
            });
        }
        let x = if have > self.level {
            e.lower_onto(ct, self.level, chain)?
        } else if (e.scale(ct) / chain - 1.0).abs() <= INPUT_SCALE_TOLERANCE {
            ct.clone()
        } else {
            return Err(Error::ScaleMismatch {
                op: "EvalMod".into(),
                left: e.scale(ct),
                right: chain,
                tolerance: INPUT_SCALE_TOLERANCE,
                hint: format!(
                    "EvalMod takes its input on the chain's scale of level {} (or from a higher \
                     level)",
                    self.level
                ),
            });
        };
        let shift = -self.origin / f64::from(self.params.k);
        let z = e.add_const(&x, Complex::from_real(shift))?;
        let out = self.output_level();
        let l0 = self.level - self.cosine_depth;
        let lr = l0 - self.beta.len();
        // The double angles end on `scale`, or on q_lr before the arcsine (its powers then keep
        // their scales); S_(j-1) = sqrt(S_j q_(l_(j-1))) before each square.
        let mut s0 = if self.arcsine.is_empty() {
            scale
        } else {
            e.rescale_factor(lr)?
        };
        for l in lr + 1..=l0 {
            s0 = (s0 * e.rescale_factor(l)?).sqrt();
        }
        let mut w = poly::evaluate(e, &z, &self.cosine_poly, Target::new(l0, s0), rlk)?;
        for &b in &self.beta {
            let mut sq = e.mul(&w, &w)?;
            e.double_assign(&mut sq)?;
            w = e.relinearize_rescale(sq, rlk)?;
            e.add_const_assign(&mut w, Complex::from_real(-b))?;
        }
        if !self.arcsine.is_empty() {
            let shrink = 2f64.powi(self.params.log_message_ratio as i32);
            let v = e.mul_const_to_scale(&w, Complex::from_real(shrink), e.scale(&w))?;
            w = poly::evaluate(e, &v, &self.arcsine_poly, Target::new(out, scale), rlk)?;
        }
        e.check_landed(&w, scale, "EvalMod")?;
        Ok(w)
    }
}
