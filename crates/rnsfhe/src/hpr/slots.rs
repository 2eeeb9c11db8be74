//! HPR-FV slot sums: every batched slot set to the sum of all slots (log2(n/2) row rotations and
//! one row swap, as BFV's `sum_slots`).

use rnsfhe_math::sample::Csprng;

use super::{HprCiphertext, HprContext, HprGaloisKeys, HprSecretKey};
use crate::Result;

impl HprContext {
    /// The Galois elements of [`HprContext::sum_slots`]: 3^(2^i) mod 2n for 2^i < n/2 (row
    /// rotations by 2^i), then 2n - 1 (the row swap).
    pub fn sum_slots_elements(&self) -> Vec<u64> {
        let n = self.params.degree() as u64;
        let mut out = Vec::new();
        let mut g = 3u64;
        let mut step = 1u64;
        while step < n / 2 {
            out.push(g);
            g = g * g % (2 * n);
            step *= 2;
        }
        out.push(2 * n - 1);
        out
    }

    /// Galois keys for [`HprContext::sum_slots`].
    pub fn galois_keys_for_sum(
        &self,
        sk: &HprSecretKey,
        rng: &mut Csprng,
    ) -> Result<HprGaloisKeys> {
        self.galois_keys(sk, &self.sum_slots_elements(), rng)
    }

    /// Every slot set to the sum of all n slots (keys from [`HprContext::galois_keys_for_sum`]).
    pub fn sum_slots(&self, a: &HprCiphertext, keys: &HprGaloisKeys) -> Result<HprCiphertext> {
        let mut acc = a.clone();
        for g in self.sum_slots_elements() {
            let r = self.apply_galois(&acc, g, keys)?;
            acc = self.add(&acc, &r)?;
        }
        Ok(acc)
    }
}
