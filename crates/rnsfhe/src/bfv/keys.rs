//! Relinearisation and Galois keys of a BFV context.

use std::collections::BTreeMap;

use rnsfhe_math::sample::Csprng;

use super::BfvContext;
use crate::rlwe::{KeySwitchKey, SecretKey};
use crate::{Error, Result};

/// The relinearisation key: a key-switching key from s^2 to s (paper 000 rlk_RNS, eq. (17)).
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

impl GaloisKeys {
    /// The Galois elements with a key.
    pub fn elements(&self) -> Vec<u64> {
        self.keys.keys().copied().collect()
    }
}

impl BfvContext {
    /// The relinearisation key of `sk`.
    pub fn relin_key(&self, sk: &SecretKey, rng: &mut Csprng) -> Result<RelinKey> {
        self.check_secret(sk)?;
        let s2 = sk.ntt_qp().mul(sk.ntt_qp())?;
        let key = KeySwitchKey::generate(self.key_switcher(), sk, &s2, self.gaussian(), rng)?;
        Ok(RelinKey {
            key,
            context_id: self.id(),
        })
    }

    /// The Galois element that rotates the rows left by `step` (3^step mod 2n; negative steps
    /// rotate right).
    pub fn galois_element(&self, step: i64) -> u64 {
        let n = self.params().degree() as u64;
        let two_n = 2 * n;
        let half = (n / 2).max(1) as i64;
        let e = step.rem_euclid(half) as u64;
        let mut g = 1u64;
        for _ in 0..e {
            g = g * 3 % two_n;
        }
        g
    }

    /// The Galois element that swaps the two rows (X -> X^(2n-1)).
    pub fn row_swap_element(&self) -> u64 {
        2 * self.params().degree() as u64 - 1
    }

    /// Galois keys for row rotations by `steps` and, if `row_swap`, for swapping the rows.
    pub fn galois_keys(
        &self,
        sk: &SecretKey,
        steps: &[i64],
        row_swap: bool,
        rng: &mut Csprng,
    ) -> Result<GaloisKeys> {
        let mut elements: Vec<u64> = steps.iter().map(|&s| self.galois_element(s)).collect();
        if row_swap {
            elements.push(self.row_swap_element());
        }
        self.galois_keys_for_elements(sk, &elements, rng)
    }

    /// Galois keys for the rotations that [`BfvContext::sum_slots`] uses (powers of two and the swap).
    pub fn galois_keys_for_sum(&self, sk: &SecretKey, rng: &mut Csprng) -> Result<GaloisKeys> {
        let half = self.params().degree() / 2;
        let steps: Vec<i64> = (0..)
            .map(|i| 1i64 << i)
            .take_while(|&s| (s as usize) < half)
            .collect();
        self.galois_keys(sk, &steps, true, rng)
    }

    /// Galois keys for explicit odd Galois elements g (mod 2n).
    pub fn galois_keys_for_elements(
        &self,
        sk: &SecretKey,
        elements: &[u64],
        rng: &mut Csprng,
    ) -> Result<GaloisKeys> {
        self.check_secret(sk)?;
        let two_n = 2 * self.params().degree() as u64;
        let mut keys = BTreeMap::new();
        for &g in elements {
            let g = g % two_n;
            if g.is_multiple_of(2) {
                return Err(Error::InvalidParameters(format!(
                    "Galois element {g} is even; elements must be odd modulo 2n = {two_n}"
                )));
            }
            if g == 1 || keys.contains_key(&g) {
                continue;
            }
            let s_g = sk.ntt_qp().automorphism(g as i64)?;
            let key = KeySwitchKey::generate(self.key_switcher(), sk, &s_g, self.gaussian(), rng)?;
            keys.insert(g, key);
        }
        Ok(GaloisKeys {
            keys,
            context_id: self.id(),
        })
    }
}
