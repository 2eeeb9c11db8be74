//! The RLWE layer shared by BFV, BGV and CKKS (Lattigo's `core/rlwe` is the anchor):
//!
//! - [`Levels`]: the rings of the levels Q_l and of Q u P, built once per parameter set;
//! - [`KeySwitcher`] (digit tables) and [`ModulusChain`] (modulus switching, rescaling) over them; key
//!   switching split by step (`keyswitch/`: decompose, gadget product, ModDown), so that one
//!   decomposition serves many keys (`hoisted`: rotations of one ciphertext and sums of rotations
//!   with one ModDown, Bossuat et al., Eurocrypt 2021);
//! - keys apart from contexts (`keys`): secret keys as any polynomial mod Q u P, public keys, key
//!   identities from public keys, [`KeyGenerator`] with an optional common reference string, and
//!   [`EvaluationKeySet`]; the encryption of zero, relinearisation and Galois keys, each at a level
//!   (over q_0..q_l and P only); [`SwitchingKey`]s between two secrets and the
//!   [`EncapsulationKeys`] of sparse-secret encapsulation; the exposure bound of every secret
//!   (`keys/exposure.rs`);
//! - scheme-neutral evaluation (`eval`), noise-bound arithmetic (`noise`), the noise flooding of
//!   decryptions ([`Flooding`]: its analysis, sigma and sampler), and the KeyGen methods
//!   of the contexts (`key_methods!`). The shared parameters are `crate::params::RlweParameters`.

mod chain;
mod encapsulation;
mod encrypt;
mod evalkeys;
mod flooding;
pub(crate) mod hoisted;
mod keys;
mod keyswitch;
mod layout;
mod levels;
pub(crate) mod noise;
mod parts;
pub(crate) mod shared_ops;
mod switching_key;

pub use chain::ModulusChain;
pub use encapsulation::EncapsulationKeys;
pub(crate) use evalkeys::{inverse_mod, owned_by};
pub use evalkeys::{GaloisKeys, RelinKey, MAX_GALOIS_ELEMENTS};
pub use flooding::{Flooding, DEFAULT_LAMBDA};
pub(crate) use keys::{
    check_params, expand_seeded_ntt, gaussian_poly, key_methods, le_bytes, log2_modulus,
    reduce_product, uniform_seeded, Domain, SeedSource,
};
pub use keys::{
    expand_seeded, Crs, EvaluationKeySet, KeyContext, KeyGenerator, KeyId, PublicKey,
    SecretDistribution, SecretKey, SecretNorm, MAX_CRS_NONCE,
};
pub(crate) use keyswitch::{select_limbs, KeyOptions};
pub use keyswitch::{Decomposed, KeyStorage, KeySwitchKey, KeySwitcher};
pub use layout::{KeyProfile, KeySwitching};
pub use levels::Levels;
pub(crate) use noise::log2_add;
pub(crate) use parts::Parts;
pub use switching_key::SwitchingKey;

use std::sync::Arc;

use rnsfhe_math::ring::{Poly, Representation, RingContext};

/// a += b (or a -= b) part by part for ciphertexts of any sizes; the result has the larger size (the
/// shared core of both schemes' addition and subtraction).
pub(crate) fn add_parts(a: &mut Vec<Poly>, b: &[Poly], subtract: bool) -> crate::Result<()> {
    for (i, p) in b.iter().enumerate() {
        match a.get_mut(i) {
            Some(x) if subtract => x.sub_assign(p)?,
            Some(x) => x.add_assign(p)?,
            None if subtract => a.push(p.neg()),
            None => a.push(p.clone()),
        }
    }
    Ok(())
}

/// a + b (or a - b) part by part into new polynomials, for parts lists of any sizes: the parts
/// [`add_parts`] leaves in a copy of a.
pub(crate) fn sum_parts(a: &[Poly], b: &[Poly], subtract: bool) -> crate::Result<Vec<Poly>> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    for i in 0..a.len().max(b.len()) {
        out.push(match (a.get(i), b.get(i)) {
            (Some(x), Some(y)) if subtract => x.sub(y)?,
            (Some(x), Some(y)) => x.add(y)?,
            (Some(x), None) => x.clone(),
            (None, Some(y)) if subtract => y.neg(),
            (None, Some(y)) => y.clone(),
            (None, None) => break,
        });
    }
    Ok(out)
}

/// The parts of a ciphertext given from outside (deserialisation, experiments): at least 2, each
/// over `ring` (`which` names it in the error), put in `form`.
pub(crate) fn ciphertext_parts(
    parts: Vec<Poly>,
    ring: &Arc<RingContext>,
    form: Representation,
    which: &str,
) -> crate::Result<Vec<Poly>> {
    if parts.len() < 2 {
        return Err(crate::Error::InvalidCiphertext(format!(
            "a ciphertext has at least 2 parts, got {}",
            parts.len()
        )));
    }
    let mut out = Vec::with_capacity(parts.len());
    for mut p in parts {
        if !Arc::ptr_eq(p.context(), ring) {
            return Err(crate::Error::ContextMismatch(format!(
                "ciphertext polynomials must be over {which}"
            )));
        }
        if form == Representation::Ntt {
            p.to_ntt()?;
        } else {
            p.to_coefficient()?;
        }
        out.push(p);
    }
    Ok(out)
}
