//! BGV keys: secret and public keys, relinearisation and Galois keys (power-of-two steps, row swap,
//! explicit elements, the hypercube of a general Phi_m).

use super::BgvContext;

crate::rlwe::key_methods!(BgvContext, relin);
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
        crate::rlwe::hoisted::Hoisted::new(sw, chain, keys, &a.parts, self.id(), a.key_id)
    }
    fn plain_modulus(&self) -> &rnsfhe_math::arith::Modulus {
        self.t()
    }
    fn plain_coefficients<'p>(&self, m: &'p super::BgvPlaintext) -> crate::Result<&'p [u64]> {
        self.check_plain(m)?;
        Ok(&m.coeffs)
    }
    fn parts_of(a: &super::BgvCiphertext) -> &[rnsfhe_math::ring::Poly] {
        &a.parts
    }
    fn switched_noise(&self, a: &super::BgvCiphertext) -> Option<crate::rlwe::noise::Bound> {
        self.noise.key_switch(a.noise)
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
}

crate::encoding::rotations::hoisted_rotation_methods!(
    BgvContext,
    super::BgvCiphertext,
    super::BgvPlaintext
);
