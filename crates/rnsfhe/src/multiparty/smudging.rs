//! Smudging (noise flooding) of collective key switching (CKS, PCKS).
//!
//! A collective decryption reveals the phase c_0 + c_1 s = m + e to whoever sees the aggregate
//! (BFV: Delta m + v; BGV: m + t v; CKKS: m + e), and e is a function of the secrets (after a
//! product and relinearisation it holds s e_rlk, the digits times the keys' errors, rounding terms
//! in s). So each party adds a fresh e_i ~ D_{Z, sigma}^n to its share ([`Smudging`], the
//! [`Flooding`] of `rlwe::flooding`, where the analysis and the sampler live); the aggregate reveals
//! e + sum_i e_i, and one honest party's e_h hides e (a coalition of the others knows its own e_i and
//! subtracts them): sigma = 2^(lambda/2) sqrt(n D) B for D decryptions and ||e||_inf <= B.
//!
//! The bound B. BFV and BGV ciphertexts carry one ([`Smudging::for_ciphertext`]): the schemes'
//! heuristic noise model (fresh errors within Z = 10 standard deviations, products and key
//! switching by their variance; HElib's `noiseBound` style), which is the average-case bound, not
//! a worst case over every secret, and the one the schemes' decryption verdicts use. A product's
//! bound is far above a fresh one (a BFV product at N = 4096 over three 55-bit primes: about
//! 2^42.5, so sigma = 2^68.5 at lambda = 40), which the sampler takes (any sigma to 2^1000) and
//! the decryption absorbs while 9.6 sqrt(k) sigma stays below Delta / 2 (there: 2^73 against
//! 2^148). CKKS ciphertexts carry none: the caller states it ([`Smudging::new`]).
//!
//! The cost to correctness: the aggregate's error grows by E = sum_i e_i, each coefficient a
//! Gaussian of sqrt(k) sigma for k parties, below 9.6 sqrt(k) sigma but for a 2^-70 tail
//! ([`Smudging::bound_log2`]); BFV decrypts while ||v + E||_inf < Delta / 2 (BGV: while ||m + t
//! (v + E)|| < Q_l / 2); CKKS keeps [`Flooding::precision_bits`] bits. The tests measure E and the
//! slot errors against these figures (`tests/multiparty_keyswitch.rs`,
//! `tests/flooding_precision.rs`).

use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::sample::Csprng;

use super::Collective;
use crate::rlwe::{log2_add, Flooding, KeyContext, SecretDistribution};
use crate::{Error, Result};

pub use crate::rlwe::DEFAULT_LAMBDA;

/// Standard deviations of the schemes' heuristic bound on fresh errors (BFV's and BGV's Z).
const Z_FRESH: f64 = 10.0;

/// Smudging noise of standard deviation sigma, drawn by every party into its key-switching share.
#[derive(Clone, Debug, PartialEq)]
pub struct Smudging {
    flooding: Flooding,
}

impl Smudging {
    /// sigma = 2^(lambda/2) sqrt(degree * decryptions) 2^noise_log2 for ciphertext errors of
    /// ||e||_inf <= 2^noise_log2 ([`Flooding::new`]).
    pub fn new(lambda: u32, noise_log2: f64, degree: usize, decryptions: u64) -> Result<Self> {
        Ok(Smudging {
            flooding: Flooding::new(lambda, noise_log2, degree, decryptions)?,
        })
    }

    /// Smudging of a given sigma, from 1 to 2^1000 (e.g. Lattigo's 2^30 default, or research).
    pub fn with_sigma(sigma: f64) -> Result<Self> {
        Ok(Smudging {
            flooding: Flooding::with_sigma(sigma)?,
        })
    }

    /// The smudging of a [`Flooding`].
    pub fn from_flooding(flooding: Flooding) -> Self {
        Smudging { flooding }
    }

    /// [`Self::new`] for one decryption of `ct`, from the noise bound it carries (BFV, BGV: the
    /// schemes' heuristic bound, module doc); refused for a ciphertext without one (CKKS, or built
    /// from parts): state the bound there.
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

    /// The flooding noise each party draws.
    pub fn flooding(&self) -> &Flooding {
        &self.flooding
    }

    /// The standard deviation sigma of each party's noise.
    pub fn sigma(&self) -> f64 {
        self.flooding.sigma()
    }

    /// log2 of the bound on each coefficient of the sum of `parties` parties' noise
    /// ([`Flooding::bound_log2`]).
    pub fn bound_log2(&self, parties: usize) -> f64 {
        self.flooding.bound_log2(parties)
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

    /// A fresh draw times `factor` in coefficient form over `ring` (zeroize it after use).
    pub(crate) fn sample_poly(
        &self,
        ring: &std::sync::Arc<rnsfhe_math::ring::RingContext>,
        factor: u64,
        rng: &mut Csprng,
    ) -> Result<Poly> {
        let mut e = Poly::zero(ring, Representation::Coefficient);
        self.flooding.add_to(&mut e, factor, rng)?;
        Ok(e)
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
