//! BGV keys: secret and public keys, relinearisation and Galois keys (power-of-two steps, row swap,
//! explicit elements, the hypercube of a general Phi_m), and the rotations of general-m slots.

use std::sync::Arc;

use rnsfhe_math::sample::Csprng;

use super::{BgvCiphertext, BgvContext};
use crate::rlwe::{GaloisKeys, PublicKey, RelinKey, SecretKey};
use crate::{Error, Result};

impl BgvContext {
    /// Galois keys for one-step rotations (+1 and -1) along every hypercube dimension of the slots
    /// and for Frobenius (general Phi_m; paper 001 section 2.4, HElib's PAlgebra).
    pub fn galois_keys_for_hypercube(
        &self,
        sk: &SecretKey,
        rng: &mut Csprng,
    ) -> Result<GaloisKeys> {
        let elements = crate::encoding::hypercube::hypercube_galois_elements(self.slot_algebra()?)?;
        self.galois_keys_for_elements(sk, &elements, rng)
    }

    /// Rotates the slots along hypercube dimension `dimension` by `k` (the value of slot e moves to
    /// e + k); needs the key of that Galois element (steps of +-1: [`Self::galois_keys_for_hypercube`]).
    pub fn rotate_dimension(
        &self,
        a: &BgvCiphertext,
        dimension: usize,
        k: i64,
        keys: &GaloisKeys,
    ) -> Result<BgvCiphertext> {
        let g = self.slot_algebra()?.rotation_galois_element(dimension, k)? as u64;
        self.apply_galois(a, g, keys)
    }

    /// Frobenius X -> X^t: every slot raised to the power t (general Phi_m).
    pub fn frobenius(&self, a: &BgvCiphertext, keys: &GaloisKeys) -> Result<BgvCiphertext> {
        let g = self.slot_algebra()?.frobenius_galois_element() as u64;
        self.apply_galois(a, g, keys)
    }

    pub(crate) fn refuse_general(&self, what: &str) -> Result<()> {
        match self.params.cyclotomic {
            Some(m) => Err(Error::InvalidParameters(format!(
                "{what} is defined for power-of-two rings; for Phi_{m} use Galois elements of \
                 Z_m^* (galois_keys_for_elements, apply_galois)"
            ))),
            None => Ok(()),
        }
    }

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
