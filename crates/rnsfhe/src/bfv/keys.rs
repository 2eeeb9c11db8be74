//! Relinearisation and Galois keys of a BFV context (the key types live in `rlwe`).

use rnsfhe_math::sample::Csprng;

use super::BfvContext;
use crate::rlwe::{GaloisKeys, RelinKey, SecretKey};
use crate::Result;

impl BfvContext {
    /// The relinearisation key of `sk`.
    pub fn relin_key(&self, sk: &SecretKey, rng: &mut Csprng) -> Result<RelinKey> {
        self.check_secret(sk)?;
        if self.params().is_mixed_montgomery() {
            // The same s over the Montgomery ring (held as s M there), keys carrying M (section 4.4).
            let msw = self.relin_switcher();
            let coeffs = zeroize::Zeroizing::new(sk.coefficients().to_vec());
            let sk_m = SecretKey::from_coefficients(msw, coeffs)?;
            return RelinKey::generate_mixed(msw, &sk_m, self.gaussian(), self.id(), rng);
        }
        RelinKey::generate(self.key_switcher(), sk, self.gaussian(), self.id(), rng)
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
        self.refuse_general("rotation by steps")?;
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
        GaloisKeys::generate(
            self.key_switcher(),
            sk,
            elements,
            self.gaussian(),
            self.id(),
            rng,
        )
    }
}
