//! Keys apart from contexts: secret keys as any polynomial mod Q u P, public keys,
//! the identity of a key pair computed from its public key, a key generator with an optional common
//! reference string, and a set of evaluation keys.
//!
//! Keys belong to a parameter set (its fingerprint), not to a context object: every context of
//! equal parameters, in any process, accepts them (equal parameters share their rings,
//! [`crate::rlwe::Levels`]).

mod evalset;
mod exposure;
mod generator;
mod id;
mod public;
mod secret;

use std::sync::Arc;

use rnsfhe_math::ring::{Poly, Representation, RingContext, RingKind};
use rnsfhe_math::sample::{Csprng, DiscreteGaussian};

use super::KeySwitcher;
use crate::Result;

pub use evalset::EvaluationKeySet;
pub(crate) use exposure::log2_modulus;
pub(crate) use generator::{expanded_at, Domain, SeedSource};
pub use generator::{Crs, KeyGenerator, MAX_CRS_NONCE};
pub use id::KeyId;
pub(crate) use id::{check_params, le_bytes};
pub use public::PublicKey;
pub use secret::{SecretDistribution, SecretKey, SecretNorm};

/// What key generation and key loading need of a scheme context (BFV, BGV and CKKS implement it):
/// the rings and digit tables, the parameter fingerprint, and the secret and error distributions.
pub trait KeyContext {
    /// The key switcher (rings Q_l and Q u P, digits) keys are made over.
    fn key_switcher(&self) -> &KeySwitcher;
    /// The key switcher of relinearisation keys: another one over a Montgomery ring under FV's mixed
    /// strategy (Bajard et al. (SAC 2017) section 4.4), else [`Self::key_switcher`].
    fn relin_switcher(&self) -> &KeySwitcher {
        self.key_switcher()
    }
    /// The parameter fingerprint (the identity of the parameter set).
    fn params_fingerprint(&self) -> u64;
    /// The distribution of secrets (and of the u of public-key encryption).
    fn secret_distribution(&self) -> SecretDistribution;
    /// The security requirement the parameters were validated against: it bounds the modulus of
    /// every RLWE sample published under a secret ([`SecretKey::max_log_modulus`]).
    fn security(&self) -> crate::params::Security;
    /// The error distribution.
    fn error_distribution(&self) -> &DiscreteGaussian;
    /// This context as a trait object (`key_methods!` writes it).
    fn as_key_context(&self) -> &dyn KeyContext;
}

/// Whether the ring reduces products by Montgomery (general Phi_m, Bajard et al. (SAC 2017) section 3.2).
pub(crate) fn is_montgomery(ctx: &RingContext) -> bool {
    ctx.reduction() == Some(rnsfhe_math::ring::Reduction::Montgomery)
}

/// e in coefficient form over `ctx`, from the Gaussian.
pub(crate) fn gaussian_poly(
    ctx: &Arc<RingContext>,
    g: &DiscreteGaussian,
    rng: &mut Csprng,
) -> Result<Poly> {
    let e = g.sample(rng, ctx.degree());
    Ok(Poly::from_signed(ctx, &e)?)
}

/// A uniform polynomial in NTT form expanded from a fresh seed; returns it with the seed.
pub(crate) fn uniform_ntt(
    ctx: &Arc<RingContext>,
    rng: &mut Csprng,
    index: u32,
) -> Result<(Poly, [u8; 32])> {
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    Ok((uniform_seeded(ctx, &seed, index)?, seed))
}

/// Polynomial `index` expanded from `seed`, in NTT form. Power-of-two rings draw the n NTT values
/// directly; a general-m ring draws the n coefficients and transforms them (its NTT_N form has
/// N > n values per limb, and only those of a polynomial of degree < n are valid, Bajard et al. (SAC 2017) section 3).
pub(crate) fn uniform_seeded(ctx: &Arc<RingContext>, seed: &[u8; 32], index: u32) -> Result<Poly> {
    let positions: Vec<usize> = (0..ctx.moduli().len()).collect();
    uniform_seeded_at(ctx, seed, index, &positions)
}

/// [`uniform_seeded`] over a selection of a larger basis: limb j is the limb at `positions[j]` of the
/// expansion over the larger basis (`rnsfhe_math::sample::uniform_from_seed_at`), so a key at a
/// level has the limbs of the top-level key of the same seed.
pub(crate) fn uniform_seeded_at(
    ctx: &Arc<RingContext>,
    seed: &[u8; 32],
    index: u32,
    positions: &[usize],
) -> Result<Poly> {
    let data = rnsfhe_math::sample::uniform_from_seed_at(
        seed,
        index,
        ctx.moduli(),
        positions,
        ctx.degree(),
    );
    if ctx.kind() == RingKind::PowerOfTwo {
        return Ok(Poly::from_residues(ctx, data, Representation::Ntt)?);
    }
    let mut a = Poly::from_residues(ctx, data, Representation::Coefficient)?;
    a.to_ntt()?;
    Ok(a)
}

/// Reduces an unreduced general-m product (NTT form) modulo Phi_m and returns to the NTT form, so
/// that it can enter a further product (a no-op otherwise: power-of-two rings never hold one).
pub(crate) fn reduce_product(p: &mut Poly) -> Result<()> {
    if p.is_unreduced_product() {
        p.to_coefficient()?;
        p.to_ntt()?;
    }
    Ok(())
}

/// The [`KeyContext`] of a scheme context `$ctx` (fields `sw`, `params.secret`, `gaussian`,
/// `fingerprint`; `relin_switcher()` when given), KeyGen and the secret and public key checks,
/// written once for BFV, BGV and CKKS; with `relin`, also the relinearisation key KSGen(s^2, s).
/// Every key method delegates to [`KeyGenerator`].
macro_rules! key_methods {
    ($ctx:ty $(, relin_switcher: $rsw:ident)?) => {
        impl $crate::rlwe::KeyContext for $ctx {
            fn key_switcher(&self) -> &$crate::rlwe::KeySwitcher {
                &self.sw
            }
            $(fn relin_switcher(&self) -> &$crate::rlwe::KeySwitcher {
                <$ctx>::$rsw(self)
            })?
            fn params_fingerprint(&self) -> u64 {
                self.fingerprint
            }
            fn secret_distribution(&self) -> $crate::rlwe::SecretDistribution {
                self.params.secret
            }
            fn security(&self) -> $crate::params::Security {
                self.params.security
            }
            fn error_distribution(&self) -> &rnsfhe_math::sample::DiscreteGaussian {
                &self.gaussian
            }
            fn as_key_context(&self) -> &dyn $crate::rlwe::KeyContext {
                self
            }
        }

        impl $crate::serialize::KeyBytes for $ctx {}

        impl $ctx {
            /// A secret key (distribution from the parameters) and its public key
            /// ([`crate::rlwe::KeyGenerator::key_pair`]).
            pub fn keygen(
                &self,
                rng: &mut rnsfhe_math::sample::Csprng,
            ) -> $crate::Result<($crate::rlwe::SecretKey, $crate::rlwe::PublicKey)> {
                $crate::rlwe::KeyGenerator::new(self, rng).key_pair()
            }

            /// The relinearisation key KSGen(s^2, s) of `sk` (BGV scales its error by t at use;
            /// FV's mixed strategy makes it over its Montgomery ring).
            pub fn relin_key(
                &self,
                sk: &$crate::rlwe::SecretKey,
                rng: &mut rnsfhe_math::sample::Csprng,
            ) -> $crate::Result<$crate::rlwe::RelinKey> {
                $crate::rlwe::KeyGenerator::new(self, rng).relin_key(sk)
            }

            pub(crate) fn check_secret(&self, sk: &$crate::rlwe::SecretKey) -> $crate::Result<()> {
                sk.check_owner(self.fingerprint, self.sw.ring_q())
            }

            pub(crate) fn check_public(&self, pk: &$crate::rlwe::PublicKey) -> $crate::Result<()> {
                pk.check_params(self.fingerprint)
            }
        }
    };
}
pub(crate) use key_methods;

/// Re-expands the second part of a seeded symmetric ciphertext (see [`SecretKey::encrypt_zero`]).
pub fn expand_seeded(ctx: &Arc<RingContext>, seed: &[u8; 32]) -> Result<Poly> {
    let mut a = uniform_seeded(ctx, seed, 0)?;
    a.to_coefficient()?;
    Ok(a)
}

/// [`expand_seeded`] in NTT form, the bits of [`SecretKey::encrypt_zero_ntt`]'s second part.
pub(crate) fn expand_seeded_ntt(ctx: &Arc<RingContext>, seed: &[u8; 32]) -> Result<Poly> {
    if ctx.kind() == RingKind::PowerOfTwo {
        return uniform_seeded(ctx, seed, 0);
    }
    let mut a = expand_seeded(ctx, seed)?;
    a.to_ntt()?;
    Ok(a)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use num_bigint::BigInt;
    use num_traits::ToPrimitive;

    use super::*;
    use crate::rlwe::KeySwitching;

    /// ModDown of public-key encryption and key switching rounds to nearest: x - P y is within P/2
    /// (a floor's bias of 1/2 times s is large in CKKS's canonical embedding).
    #[test]
    fn mod_down_rounds_to_nearest() {
        let n = 1024;
        let q = rnsfhe_math::arith::ntt_primes(48, 2 * n as u64, 4, &[]).unwrap();
        let p = rnsfhe_math::arith::ntt_primes(48, 2 * n as u64, 1, &q).unwrap();
        let sw = KeySwitcher::new(n, &q, &p, KeySwitching::default()).unwrap();
        let mut rng = Csprng::from_seed([3; 32]);
        let ctx = sw.ring_qp();
        let x = Poly::from_residues(
            ctx,
            rng.uniform_poly(ctx.moduli(), n),
            Representation::Coefficient,
        )
        .unwrap();
        let y = sw.mod_down_qp(&x).unwrap();
        let pq = BigInt::from(ctx.basis().product().clone());
        let pp = BigInt::from(p[0]);
        let mut mean = 0f64;
        for (a, b) in x
            .to_biguint()
            .unwrap()
            .into_iter()
            .zip(y.to_biguint().unwrap())
        {
            let mut r = (BigInt::from(a) - &pp * BigInt::from(b)) % &pq;
            if r < BigInt::from(0) {
                r += &pq;
            }
            if r > &pq / 2 {
                r -= &pq;
            }
            let f = r.to_f64().unwrap() / p[0] as f64;
            assert!(f.abs() <= 0.5, "residual {f} P");
            mean += f / n as f64;
        }
        assert!(mean.abs() < 0.05, "mean residual {mean} P");
    }
}
