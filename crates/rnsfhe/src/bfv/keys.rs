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

impl crate::encoding::rotations::IntegerRotations for BfvContext {
    type Ct = super::Ciphertext;
    type Pt = super::Plaintext;
    fn hoist<'a>(
        &'a self,
        a: &'a super::Ciphertext,
        keys: &'a crate::rlwe::GaloisKeys,
    ) -> Result<crate::rlwe::hoisted::Hoisted<'a>> {
        self.check_ct(a)?;
        let sw = self.key_switcher();
        crate::rlwe::hoisted::Hoisted::new(sw, None, keys, &a.parts, self.id(), a.key_id)
    }
    fn plain_modulus(&self) -> &rnsfhe_math::arith::Modulus {
        self.t()
    }
    fn plain_coefficients<'p>(&self, m: &'p super::Plaintext) -> Result<&'p [u64]> {
        self.check_plain(m)?;
        Ok(&m.coeffs)
    }
    fn switched_noise(
        &self,
        noise: Option<crate::rlwe::noise::Bound>,
    ) -> Option<crate::rlwe::noise::Bound> {
        self.noise.key_switch(noise)
    }
    fn plain_noise(
        &self,
        noise: Option<crate::rlwe::noise::Bound>,
        m: &super::Plaintext,
    ) -> Option<crate::rlwe::noise::Bound> {
        super::noise::NoiseModel::mul_plain(self, noise, m)
    }
    fn noise_of(a: &super::Ciphertext) -> Option<crate::rlwe::noise::Bound> {
        a.noise
    }
    fn with_parts(
        &self,
        a: &super::Ciphertext,
        parts: Vec<rnsfhe_math::ring::Poly>,
        noise: Option<crate::rlwe::noise::Bound>,
    ) -> super::Ciphertext {
        self.ciphertext(parts, a.key_id, noise)
    }
    fn row_element(&self, step: i64) -> u64 {
        self.galois_element(step)
    }
    fn switcher(&self) -> &crate::rlwe::KeySwitcher {
        self.key_switcher()
    }
    fn level_of(&self, _a: &super::Ciphertext) -> usize {
        self.top_level()
    }
    fn top_level(&self) -> usize {
        self.key_switcher().levels().count() - 1
    }
    fn encode_slots(&self, values: &[u64]) -> crate::Result<super::Plaintext> {
        self.encode(values)
    }
    fn mul_plain_ct(
        &self,
        a: &super::Ciphertext,
        m: &super::Plaintext,
    ) -> crate::Result<super::Ciphertext> {
        self.mul_plain(a, m)
    }
    fn add_ct(
        &self,
        a: &super::Ciphertext,
        b: &super::Ciphertext,
    ) -> crate::Result<super::Ciphertext> {
        self.add(a, b)
    }
    fn rotate_ct(
        &self,
        a: &super::Ciphertext,
        step: i64,
        keys: &crate::rlwe::GaloisKeys,
    ) -> crate::Result<super::Ciphertext> {
        self.rotate_rows(a, step, keys)
    }
}

crate::encoding::rotations::hoisted_rotation_methods!(
    BfvContext,
    super::Ciphertext,
    super::Plaintext
);
