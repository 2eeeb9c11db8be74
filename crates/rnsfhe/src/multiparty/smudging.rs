//! Smudging (noise flooding) of collective key switching (CKS, PCKS), and its analysis.
//!
//! What leaks without it. A collective decryption reveals the phase c_0 + c_1 s = m + e to whoever
//! sees the aggregate (BFV: Delta m + v; BGV: m + t v; CKKS: m + e). The error e is a function of
//! the secrets: after a product and relinearisation it holds s e_rlk, the digits times the keys'
//! errors and rounding terms in s. Li and Micciancio (Eurocrypt 2021) recover CKKS keys from such
//! decryptions, and here every party sees them. So each party adds a fresh e_i ~ D_sigma to its
//! share; the aggregate reveals e + sum_i e_i, and one honest party's e_h hides e (a coalition
//! of the others knows its own e_i and subtracts them).
//!
//! The bound. Let P be the distribution of e + X and Q that of X, X ~ D_sigma^n the honest
//! party's noise. For Gaussians (continuous; a discrete Gaussian of sigma far above the smoothing
//! parameter of Z, about 6, agrees with the continuous one to within 2^-100 here) the
//! Kullback-Leibler divergence is KL(P || Q) = ||e||_2^2 / (2 sigma^2) and the Renyi divergence
//! of order 2 is R_2(P || Q) = exp(||e||_2^2 / sigma^2). With sigma >= 2^(lambda/2) ||e||_2:
//!
//! - R_2 <= exp(2^-lambda): by the probability preservation of Renyi divergence (Bai, Lepoint,
//!   Roux-Langlois, Sakzad, Stehle and Steinfeld, Asiacrypt 2015), an attack on a search problem
//!   (recovering s) that succeeds with probability p on the real aggregate succeeds with
//!   probability at least p^2 / R_2 on one that reveals nothing of e; in the bit-security terms of
//!   Micciancio and Walter (Eurocrypt 2018), a divergence of 2^-lambda keeps lambda bits for
//!   search primitives. This is the statistical security lambda of this module (default 40).
//! - KL <= 2^-(lambda+1), so by Pinsker the statistical distance is at most 2^-(lambda/2 + 1).
//!   Decision games (IND-CPA-D: telling two decryptions apart) need a distance of 2^-kappa: take
//!   lambda = 2 kappa.
//!
//! Divergences add over independent releases (each decryption draws fresh smudging), so Q
//! decryptions under one key pair need sigma times sqrt(Q); and ||e||_2 <= sqrt(n) ||e||_inf.
//! Hence [`Smudging::new`]: sigma = 2^(lambda/2) sqrt(n Q) B for a bound B on ||e||_inf, which BFV
//! and BGV ciphertexts carry ([`Smudging::for_ciphertext`]) and a CKKS caller states.
//!
//! The cost to correctness. The aggregate's error grows by E = sum_i e_i: N independent samples,
//! each coefficient Gaussian of standard deviation sqrt(N) sigma, below z sqrt(N) sigma with z =
//! 9.6 but for a 2^-70 tail per coefficient (and below 9.42 N sigma always: the sampler's largest
//! output), [`Smudging::bound_log2`]. BFV decrypts while ||v + E||_inf < Delta / 2 (BGV: while
//! ||m + t (v + E)|| < Q_l / 2); CKKS loses about log2(sqrt(N n) sigma / Delta) bits of precision
//! per slot (a slot sums n coefficients times roots of unity). The tests measure E and the slot
//! errors against these figures (`tests/multiparty_keyswitch.rs`).
//!
//! The sampler. Box-Muller in f64 from the CSPRNG: r = sqrt(-2 ln u1), u1 = (x + 1) 2^-64 for a
//! 64-bit x (tail cut at 9.42 sigma, mass about 2^-67 beyond), theta = 2 pi u2 with 53 bits, and
//! round(sigma r cos theta), round(sigma r sin theta); sigma is capped at 2^48 so that every output
//! is an integer below 2^52, exact in f64. Its arithmetic has no branch on the values, but libm's
//! ln, sin and cos are not guaranteed constant time (Lattigo and OpenFHE sample flooding noise
//! the same way); the CDT sampler of the errors is for small sigma only.

use std::f64::consts::PI;

use rnsfhe_math::sample::Csprng;
use zeroize::Zeroizing;

use super::Collective;
use crate::rlwe::{log2_add, KeyContext, SecretDistribution};
use crate::{Error, Result};

/// The default statistical security lambda in bits (a divergence of 2^-40 per decryption).
pub const DEFAULT_LAMBDA: u32 = 40;

/// The largest |z| of the sampler: sqrt(-2 ln 2^-64).
const Z_MAX: f64 = 9.42;
/// z of a 2^-70 tail of a standard Gaussian.
const Z_TAIL: f64 = 9.6;
/// Standard deviations of the schemes' heuristic bound on fresh errors (BFV's and BGV's Z).
const Z_FRESH: f64 = 10.0;
/// The largest sigma: z sigma stays below 2^52.
const MAX_LOG_SIGMA: f64 = 48.0;

/// Smudging noise of standard deviation sigma, drawn by every party into its key-switching share.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Smudging {
    sigma: f64,
}

impl Smudging {
    /// sigma = 2^(lambda/2) sqrt(degree * decryptions) 2^noise_log2 for ciphertext errors of
    /// ||e||_inf <= 2^noise_log2 (see the module doc); refused above 2^48.
    pub fn new(lambda: u32, noise_log2: f64, degree: usize, decryptions: u64) -> Result<Self> {
        if !noise_log2.is_finite() || degree == 0 || decryptions == 0 {
            return Err(Error::InvalidParameters(format!(
                "smudging for a noise of 2^{noise_log2}, degree {degree}, {decryptions} \
                 decryptions: a finite bound and positive counts are needed"
            )));
        }
        let log_sigma = f64::from(lambda) / 2.0
            + 0.5 * ((degree as f64).log2() + (decryptions as f64).log2())
            + noise_log2;
        Self::with_sigma(log_sigma.exp2())
    }

    /// Smudging of a given sigma, from 1 to 2^48 (e.g. Lattigo's 2^30 default, or research).
    pub fn with_sigma(sigma: f64) -> Result<Self> {
        if !(1.0..=MAX_LOG_SIGMA.exp2()).contains(&sigma) {
            return Err(Error::InvalidParameters(format!(
                "smudging sigma = 2^{:.1}: must be within 1..=2^{MAX_LOG_SIGMA} (outputs below \
                 2^52); a larger noise bound or lambda needs larger parameters",
                sigma.log2()
            )));
        }
        Ok(Smudging { sigma })
    }

    /// [`Self::new`] for one decryption of `ct`, from the noise bound it carries (BFV, BGV);
    /// refused for a ciphertext without one (CKKS, or built from parts): state the bound there.
    pub fn for_ciphertext<C: Collective + ?Sized>(
        ctx: &C,
        ct: &C::Ciphertext,
        lambda: u32,
    ) -> Result<Self> {
        let view = ctx.view(ct)?;
        let bound = view.noise_log2.ok_or_else(|| {
            Error::InvalidParameters(
                "this ciphertext carries no noise bound: give one to Smudging::new".into(),
            )
        })?;
        Self::new(lambda, bound, view.c1.context().degree(), 1)
    }

    /// The standard deviation sigma of each party's noise.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// log2 of the bound on each coefficient of the sum of `parties` parties' noise:
    /// min(9.42 N, 9.6 sqrt(N)) sigma (module doc).
    pub fn bound_log2(&self, parties: usize) -> f64 {
        let n = parties.max(1) as f64;
        (self.sigma * (Z_MAX * n).min(Z_TAIL * n.sqrt())).log2()
    }

    /// log2 of the bound on each coefficient of what PCKS adds to the error for `parties`
    /// parties: their smudging ([`Self::bound_log2`]) and their encryptions of zero under the
    /// receiver's key (p0, p1) = (-(a s' + e'), a), each (-e' u_i + e0_i + e1_i s') / P plus
    /// ModDown's rounding r0 + r1 s', of standard deviation at most
    /// sqrt(sigma'^2 S_u + sigma^2 (1 + S')) + (|P| + 1) sqrt((1 + S') / 12) (S_u >= ||u_i||_2^2:
    /// n for a ternary u_i, h for weight h; S' >= ||s'||_2^2 and sigma' the deviation of e', from
    /// `receiver`; BGV's fresh bound, without dividing by P). The sum of N is within
    /// Z = 10 sqrt(N) of those deviations (the schemes' heuristic for fresh errors).
    pub(crate) fn public_switch_bound_log2(
        &self,
        ctx: &dyn KeyContext,
        receiver: ReceiverSecret,
        parties: usize,
    ) -> Result<f64> {
        let sw = ctx.key_switcher();
        let n = sw.ring_q().degree() as f64;
        let s_u = match ctx.secret_distribution() {
            SecretDistribution::Ternary => n,
            SecretDistribution::HammingWeight(h) => h as f64,
        };
        let sigma = ctx.error_distribution().sigma();
        let (s2, sigma_pk) = receiver.norms(s_u, sigma)?;
        let special = (sw.ring_qp().moduli().len() - sw.ring_q().moduli().len()) as f64;
        let sd = (sigma_pk * sigma_pk * s_u + sigma * sigma * (1.0 + s2)).sqrt()
            + (special + 1.0) * ((1.0 + s2) / 12.0).sqrt();
        let zeros = (Z_FRESH * (parties.max(1) as f64).sqrt() * sd).log2();
        Ok(log2_add(self.bound_log2(parties), zeros))
    }

    /// n samples (see the module doc), zeroized on drop.
    pub(crate) fn sample(&self, n: usize, rng: &mut Csprng) -> Zeroizing<Vec<i64>> {
        let mut out = Zeroizing::new(vec![0i64; n]);
        for pair in out.chunks_mut(2) {
            let u1 = (rng.next_u64() as f64 + 1.0) * (-64f64).exp2();
            let u2 = (rng.next_u64() >> 11) as f64 * (-53f64).exp2();
            let r = self.sigma * (-2.0 * u1.ln()).sqrt();
            let (s, c) = (2.0 * PI * u2).sin_cos();
            pair[0] = (r * c).round() as i64;
            if let Some(x) = pair.get_mut(1) {
                *x = (r * s).round() as i64;
            }
        }
        out
    }
}

/// What PCKS's noise bound takes of the receiver's key pair (s', (-(a s' + e'), a)): ||s'||_2 and
/// the deviation of e'. Its public key cannot tell them (it is an RLWE sample: s' and e' are
/// hidden), so the caller of [`super::public_key_switch`] states them; a wrong statement makes the
/// result's tracked noise bound optimistic, never its decryption wrong by itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ReceiverSecret {
    /// One key pair of the parameters' distributions (`SecretKey::generate` and its public key):
    /// ||s'||_2^2 <= n for a ternary s' (h for weight h), e' of the parameters' sigma.
    Single,
    /// The collective key pair of `parties` parties (CKG): s' and e' sums of that many.
    Collective {
        /// The number of parties whose secrets s' sums.
        parties: usize,
    },
    /// Stated by the receiver: ||s'||_2 ([`crate::rlwe::SecretKey::norm`]) and the standard
    /// deviation of e'.
    Stated {
        /// ||s'||_2.
        l2: f64,
        /// The standard deviation of e'.
        error_sigma: f64,
    },
}

impl ReceiverSecret {
    /// (S' >= ||s'||_2^2, sigma') for the parameters' one-secret bound `single` and `sigma`.
    fn norms(self, single: f64, sigma: f64) -> Result<(f64, f64)> {
        match self {
            ReceiverSecret::Single => Ok((single, sigma)),
            ReceiverSecret::Collective { parties }
                if (1..=super::MAX_PARTIES).contains(&parties) =>
            {
                let k = parties as f64;
                Ok((k * single, k.sqrt() * sigma))
            }
            ReceiverSecret::Stated { l2, error_sigma }
                if l2.is_finite() && l2 >= 0.0 && error_sigma.is_finite() && error_sigma >= 0.0 =>
            {
                Ok((l2 * l2, error_sigma))
            }
            other => Err(Error::InvalidParameters(format!(
                "PCKS receiver {other:?}: give 1..={} parties, or finite non-negative norms",
                super::MAX_PARTIES
            ))),
        }
    }
}
