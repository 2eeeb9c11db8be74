//! BGV keys: secret and public keys, relinearisation and Galois keys (power-of-two steps, row swap,
//! explicit elements, the hypercube of a general Phi_m).

use rnsfhe_math::sample::Csprng;

use super::BgvContext;
use crate::rlwe::{PublicKey, RelinKey, SecretKey};
use crate::Result;

impl BgvContext {
    /// A secret key and its public key.
    pub fn keygen(&self, rng: &mut Csprng) -> Result<(SecretKey, PublicKey)> {
        SecretKey::generate_pair(&self.sw, self.params.secret, &self.gaussian, rng)
    }

    pub(crate) fn check_secret(&self, sk: &SecretKey) -> Result<()> {
        sk.check_ring(self.sw.ring_q())
    }

    /// The relinearisation key of `sk` (switches s^2 to s; BGV scales its error by t at use).
    pub fn relin_key(&self, sk: &SecretKey, rng: &mut Csprng) -> Result<RelinKey> {
        self.check_secret(sk)?;
        RelinKey::generate(&self.sw, sk, &self.gaussian, self.id, rng)
    }
}

crate::encoding::batch::row_rotation_methods!(BgvContext, super::BgvCiphertext);
