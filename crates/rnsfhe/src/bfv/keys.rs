//! The row-rotation methods of a BFV context (the key types live in `rlwe`; `relin_key` with the
//! other key methods, `crate::rlwe::key_methods!`).

use super::BfvContext;

crate::encoding::batch::row_rotation_methods!(BfvContext, super::Ciphertext);

impl crate::encoding::rotations::IntegerRotations for BfvContext {
    type Ct = super::Ciphertext;
    type Pt = super::Plaintext;
    fn hoist<'a>(
        &'a self,
        a: &'a super::Ciphertext,
        keys: &'a crate::rlwe::GaloisKeys,
    ) -> crate::Result<crate::rlwe::hoisted::Hoisted<'a>> {
        self.check_ct(a)?;
        let sw = self.key_switcher();
        crate::rlwe::hoisted::Hoisted::new(sw, None, keys, &a.parts, self.fingerprint(), a.key_id)
    }
    fn plain_modulus(&self) -> &rnsfhe_math::arith::Modulus {
        self.t()
    }
    fn plain_coefficients<'p>(&self, m: &'p super::Plaintext) -> crate::Result<&'p [u64]> {
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
