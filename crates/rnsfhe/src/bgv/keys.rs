//! BGV keys: secret and public keys, relinearisation and Galois keys (power-of-two steps, row swap,
//! explicit elements, the hypercube of a general Phi_m).

use std::sync::Arc;

use rnsfhe_math::sample::Csprng;

use super::BgvContext;
use crate::rlwe::{GaloisKeys, PublicKey, RelinKey, SecretKey};
use crate::{Error, Result};

impl BgvContext {
    /// A secret key and its public key.
    pub fn keygen(&self, rng: &mut Csprng) -> Result<(SecretKey, PublicKey)> {
        let sk = SecretKey::generate(&self.sw, self.params.secret, rng)?;
        let pk = PublicKey::generate(&sk, &self.gaussian, rng)?;
        Ok((sk, pk))
    }

    pub(crate) fn check_secret(&self, sk: &SecretKey) -> Result<()> {
        if Arc::ptr_eq(sk.ring(), self.sw.ring_q()) {
            Ok(())
        } else {
            Err(Error::ContextMismatch(
                "the secret key belongs to another parameter set; generate it with this context"
                    .into(),
            ))
        }
    }

    /// The relinearisation key of `sk` (switches s^2 to s; BGV scales its error by t at use).
    pub fn relin_key(&self, sk: &SecretKey, rng: &mut Csprng) -> Result<RelinKey> {
        self.check_secret(sk)?;
        RelinKey::generate(&self.sw, sk, &self.gaussian, self.id, rng)
    }

    /// The Galois element that rotates the rows left by `step` (3^step mod 2n).
    pub fn galois_element(&self, step: i64) -> u64 {
        let n = self.params.degree as u64;
        let half = (n / 2).max(1) as i64;
        let two_n = 2 * n;
        let e = step.rem_euclid(half) as u64;
        let mut g = 1u64;
        for _ in 0..e {
            g = g * 3 % two_n;
        }
        g
    }

    /// The Galois element that swaps the two rows (X -> X^(2n-1)).
    pub fn row_swap_element(&self) -> u64 {
        2 * self.params.degree as u64 - 1
    }

    /// Galois keys for row rotations by `steps` and, if `row_swap`, for swapping the rows.
    pub fn galois_keys(
        &self,
        sk: &SecretKey,
        steps: &[i64],
        row_swap: bool,
        rng: &mut Csprng,
    ) -> Result<GaloisKeys> {
        self.refuse_general("rotation by steps")?;
        let mut elements: Vec<u64> = steps.iter().map(|&s| self.galois_element(s)).collect();
        if row_swap {
            elements.push(self.row_swap_element());
        }
        self.galois_keys_for_elements(sk, &elements, rng)
    }

    /// Galois keys for the rotations that [`BgvContext::sum_slots`] uses (powers of two and the swap).
    pub fn galois_keys_for_sum(&self, sk: &SecretKey, rng: &mut Csprng) -> Result<GaloisKeys> {
        let half = self.params.degree / 2;
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
        GaloisKeys::generate(&self.sw, sk, elements, &self.gaussian, self.id, rng)
    }
}
