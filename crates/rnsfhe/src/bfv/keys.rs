//! Relinearisation and Galois keys of a BFV context (the key types live in `rlwe`).

use rnsfhe_math::sample::Csprng;

use super::BfvContext;
use crate::rlwe::{RelinKey, SecretKey};
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
            return RelinKey::generate_with(msw, &sk_m, self.gaussian(), self.id(), rng, false);
        }
        RelinKey::generate(self.key_switcher(), sk, self.gaussian(), self.id(), rng)
    }
}

crate::encoding::batch::row_rotation_methods!(BfvContext, super::Ciphertext);
