//! Evaluation keys shared by the schemes: relinearisation (s^2 -> s) and Galois (s(X^g) -> s) keys,
//! tied to the context that made them by its id.

use std::collections::BTreeMap;

use rnsfhe_math::sample::{Csprng, DiscreteGaussian};

use super::{KeySwitchKey, KeySwitcher, SecretKey};
use crate::{Error, Result};

/// The relinearisation key: a key-switching key from s^2 to s (paper 000 rlk_RNS, eq. (17); paper 004
/// evk = KSGen(s^2, s)).
#[derive(Clone, Debug)]
pub struct RelinKey {
    pub(crate) key: KeySwitchKey,
    pub(crate) context_id: u64,
}

/// Galois keys: key-switching keys from s(X^g) to s for chosen Galois elements g.
#[derive(Clone, Debug)]
pub struct GaloisKeys {
    pub(crate) keys: BTreeMap<u64, KeySwitchKey>,
    pub(crate) context_id: u64,
}

impl RelinKey {
    pub(crate) fn generate(
        sw: &KeySwitcher,
        sk: &SecretKey,
        g: &DiscreteGaussian,
        context_id: u64,
        rng: &mut Csprng,
    ) -> Result<Self> {
        let s2 = sk.ntt_qp().mul(sk.ntt_qp())?;
        Ok(RelinKey {
            key: KeySwitchKey::generate(sw, sk, &s2, g, rng)?,
            context_id,
        })
    }

    /// The key-switching key.
    pub fn key(&self) -> &KeySwitchKey {
        &self.key
    }
}

impl GaloisKeys {
    /// Keys for the odd Galois elements `elements` (taken mod 2n; 1 needs no key).
    pub(crate) fn generate(
        sw: &KeySwitcher,
        sk: &SecretKey,
        elements: &[u64],
        g: &DiscreteGaussian,
        context_id: u64,
        rng: &mut Csprng,
    ) -> Result<Self> {
        let two_n = 2 * sw.ring_q().degree() as u64;
        let mut keys = BTreeMap::new();
        for &e in elements {
            let e = e % two_n;
            if e.is_multiple_of(2) {
                return Err(Error::InvalidParameters(format!(
                    "Galois element {e} is even; elements must be odd modulo 2n = {two_n}"
                )));
            }
            if e == 1 || keys.contains_key(&e) {
                continue;
            }
            let s_g = sk.ntt_qp().automorphism(e as i64)?;
            keys.insert(e, KeySwitchKey::generate(sw, sk, &s_g, g, rng)?);
        }
        Ok(GaloisKeys { keys, context_id })
    }

    /// The Galois elements with a key.
    pub fn elements(&self) -> Vec<u64> {
        self.keys.keys().copied().collect()
    }

    /// The key of element g, or an error naming the missing key.
    pub(crate) fn get(&self, g: u64) -> Result<&KeySwitchKey> {
        self.keys.get(&g).ok_or_else(|| {
            Error::MissingKey(format!(
                "no Galois key for element {g}; generate the Galois keys with this rotation step"
            ))
        })
    }
}
