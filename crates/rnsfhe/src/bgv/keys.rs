//! BGV keys: secret and public keys, relinearisation and Galois keys (power-of-two steps, row swap,
//! explicit elements, the hypercube of a general Phi_m).

use super::BgvContext;

crate::rlwe::key_methods!(BgvContext);
crate::encoding::batch::row_rotation_methods!(BgvContext, super::BgvCiphertext);

impl crate::encoding::rotations::IntegerRotations for BgvContext {
    crate::encoding::rotations::integer_rotation_forwards!(
        super::BgvCiphertext,
        super::BgvPlaintext
    );
    fn hoist<'a>(
        &'a self,
        a: &'a super::BgvCiphertext,
        keys: &'a crate::rlwe::GaloisKeys,
    ) -> crate::Result<crate::rlwe::hoisted::Hoisted<'a>> {
        self.check_ct(a)?;
        let (sw, chain) = (self.key_switcher(), Some(self.chain()));
        crate::rlwe::hoisted::Hoisted::new(sw, chain, keys, &a.parts, self.fingerprint(), a.key_id)
    }
    fn plain_noise(
        &self,
        noise: Option<crate::rlwe::noise::Bound>,
        m: &super::BgvPlaintext,
    ) -> Option<crate::rlwe::noise::Bound> {
        super::noise::NoiseModel::mul_plain(self.t().value(), noise, m)
    }
    fn with_parts(
        &self,
        a: &super::BgvCiphertext,
        parts: Vec<rnsfhe_math::ring::Poly>,
        noise: Option<crate::rlwe::noise::Bound>,
    ) -> super::BgvCiphertext {
        self.ciphertext(parts, a.level, a.key_id, noise)
    }
    fn level_of(&self, a: &super::BgvCiphertext) -> usize {
        a.level
    }
    fn top_level(&self) -> usize {
        self.max_level()
    }
}

crate::encoding::rotations::hoisted_rotation_methods!(
    BgvContext,
    super::BgvCiphertext,
    super::BgvPlaintext
);
