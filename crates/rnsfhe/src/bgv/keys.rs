//! BGV keys: secret and public keys, relinearisation and Galois keys (power-of-two steps, row swap,
//! explicit elements, the hypercube of a general Phi_m).

use super::BgvContext;

crate::rlwe::key_methods!(BgvContext);
crate::encoding::batch::row_rotation_methods!(BgvContext, super::BgvCiphertext);

impl crate::encoding::rotations::IntegerRotations for BgvContext {
    type Ct = super::BgvCiphertext;
    type Pt = super::BgvPlaintext;
    fn hoist<'a>(
        &'a self,
        a: &'a super::BgvCiphertext,
        keys: &'a crate::rlwe::GaloisKeys,
    ) -> crate::Result<crate::rlwe::hoisted::Hoisted<'a>> {
        self.check_ct(a)?;
        let (sw, chain) = (self.key_switcher(), Some(self.chain()));
        crate::rlwe::hoisted::Hoisted::new(sw, chain, keys, &a.parts, self.fingerprint(), a.key_id)
    }
    fn plain_modulus(&self) -> &rnsfhe_math::arith::Modulus {
        self.t()
    }
    fn plain_coefficients<'p>(&self, m: &'p super::BgvPlaintext) -> crate::Result<&'p [u64]> {
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
        m: &super::BgvPlaintext,
    ) -> Option<crate::rlwe::noise::Bound> {
        super::noise::NoiseModel::mul_plain(self.t().value(), noise, m)
    }
    fn noise_of(a: &super::BgvCiphertext) -> Option<crate::rlwe::noise::Bound> {
        a.noise
    }
    fn with_parts(
        &self,
        a: &super::BgvCiphertext,
        parts: Vec<rnsfhe_math::ring::Poly>,
        noise: Option<crate::rlwe::noise::Bound>,
    ) -> super::BgvCiphertext {
        self.ciphertext(parts, a.level, a.key_id, noise)
    }
    fn row_element(&self, step: i64) -> u64 {
        self.galois_element(step)
    }
    fn switcher(&self) -> &crate::rlwe::KeySwitcher {
        self.key_switcher()
    }
    fn level_of(&self, a: &super::BgvCiphertext) -> usize {
        a.level
    }
    fn top_level(&self) -> usize {
        self.max_level()
    }
    fn encode_slots(&self, values: &[u64]) -> crate::Result<super::BgvPlaintext> {
        self.encode(values)
    }
    fn mul_plain_ct(
        &self,
        a: &super::BgvCiphertext,
        m: &super::BgvPlaintext,
    ) -> crate::Result<super::BgvCiphertext> {
        self.mul_plain(a, m)
    }
    fn add_ct(
        &self,
        a: &super::BgvCiphertext,
        b: &super::BgvCiphertext,
    ) -> crate::Result<super::BgvCiphertext> {
        self.add(a, b)
    }
    fn rotate_ct(
        &self,
        a: &super::BgvCiphertext,
        step: i64,
        keys: &crate::rlwe::GaloisKeys,
    ) -> crate::Result<super::BgvCiphertext> {
        self.rotate_rows(a, step, keys)
    }
}

crate::encoding::rotations::hoisted_rotation_methods!(
    BgvContext,
    super::BgvCiphertext,
    super::BgvPlaintext
);
