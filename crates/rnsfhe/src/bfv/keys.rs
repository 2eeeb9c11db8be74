//! The row-rotation methods of a BFV context (the key types live in `rlwe`; `relin_key` with the
//! other key methods, `crate::rlwe::key_methods!`).

use super::BfvContext;

crate::encoding::batch::row_rotation_methods!(BfvContext, super::BfvCiphertext);

impl crate::encoding::rotations::IntegerRotations for BfvContext {
    crate::encoding::rotations::integer_rotation_forwards!(
        super::BfvCiphertext,
        super::BfvPlaintext
    );
    fn hoist<'a>(
        &'a self,
        a: &'a super::BfvCiphertext,
        keys: &'a crate::rlwe::GaloisKeys,
    ) -> crate::Result<crate::rlwe::hoisted::Hoisted<'a>> {
        self.check_ct(a)?;
        let sw = self.key_switcher();
        crate::rlwe::hoisted::Hoisted::new(sw, None, keys, &a.parts, self.fingerprint(), a.key_id)
    }
    fn plain_noise(
        &self,
        noise: Option<crate::rlwe::noise::Bound>,
        m: &super::BfvPlaintext,
    ) -> Option<crate::rlwe::noise::Bound> {
        super::noise::NoiseModel::mul_plain(self, noise, m)
    }
    fn with_parts(
        &self,
        a: &super::BfvCiphertext,
        parts: Vec<rnsfhe_math::ring::Poly>,
        noise: Option<crate::rlwe::noise::Bound>,
    ) -> super::BfvCiphertext {
        self.ciphertext(parts, a.key_id, noise)
    }
    fn level_of(&self, _a: &super::BfvCiphertext) -> usize {
        self.top_level()
    }
    fn top_level(&self) -> usize {
        self.key_switcher().levels().count() - 1
    }
}

crate::encoding::rotations::hoisted_rotation_methods!(
    BfvContext,
    super::BfvCiphertext,
    super::BfvPlaintext
);
