//! CKKS multiplication (Cheon et al. (SAC 2018) section 3, Mult): the tensor of two ciphertexts
//! (at their level or, reading their first limbs in place, at a lower one), relinearisation, and
//! relinearisation with the rescale in one division (`KeySwitcher::switch_rescale`).

use std::sync::Arc;

use rnsfhe_math::arith::vector;
use rnsfhe_math::parallel;
use rnsfhe_math::ring::{Poly, Representation, RingContext};

use super::{CkksCiphertext, CkksContext};
use crate::rlwe::{KeyId, RelinKey};
use crate::{Error, Result};

impl CkksContext {
    /// The tensor (d0, d1, d2) = (a0 b0, a0 b1 + a1 b0, a1 b1): Mult step 1 of Cheon et al. (SAC 2018).
    pub fn multiply_no_relin(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
    ) -> Result<CkksCiphertext> {
        if a.level != b.level {
            self.check_ct(a)?;
            self.check_ct(b)?;
            return Err(Error::LevelMismatch {
                op: "mul".into(),
                left: a.level,
                right: b.level,
                hint: "bring them to one level with drop_to_level".into(),
            });
        }
        self.multiply_no_relin_at(a, b, a.level)
    }

    /// [`Self::multiply_no_relin`] at `level` for `a` and `b` at `level` or above: the tensor of
    /// their first `level` + 1 limbs, read in place (the bits of
    /// [`Self::drop_to_level_keeping_scale`] of both, then the product). Errors:
    /// `InvalidParameters` when an operand is below `level`.
    pub(crate) fn multiply_no_relin_at(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        level: usize,
    ) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        self.check_ct(b)?;
        let key_id = KeyId::join(a.key_id, b.key_id)?;
        if a.level < level || b.level < level {
            return Err(Error::InvalidParameters(format!(
                "mul at level {level}: the operands are at levels {} and {}",
                a.level, b.level
            )));
        }
        if a.parts
            .iter()
            .chain(b.parts.iter())
            .any(Poly::is_unreduced_product)
        {
            // General m: the limbs of an unreduced product cannot be read apart (`drop_to` reduces).
            return self.multiply_no_relin(
                &self.drop_to_level_keeping_scale(a, level)?,
                &self.drop_to_level_keeping_scale(b, level)?,
            );
        }
        for c in [a, b] {
            if c.parts.len() != 2 {
                return Err(Error::InvalidCiphertext(format!(
                    "multiplication needs 2-part ciphertexts, got {} parts; relinearize first",
                    c.parts.len()
                )));
            }
        }
        Ok(CkksCiphertext {
            parts: tensor(self.ring_at(level)?, &a.parts, &b.parts)?.into(),
            level,
            scale: a.scale * b.scale,
            slots: a.slots.max(b.slots),
            fingerprint: self.fingerprint(),
            key_id,
        })
    }

    /// Relinearisation (Mult steps 2–5: ModUp of d2, product with the evaluation key, ModDown).
    pub fn relinearize_assign(&self, a: &mut CkksCiphertext, rlk: &RelinKey) -> Result<()> {
        self.check_ct(a)?;
        rlk.relinearize(
            self.key_switcher(),
            None,
            a.parts.polys_mut(),
            self.fingerprint(),
            a.key_id,
        )
    }

    /// Relinearisation and rescale of a 3-part ciphertext (a tensor) in one division
    /// (`KeySwitcher::switch_rescale`: round((c_i + ModDown_P(U_i)) / q_l) with one rounding, the
    /// rescale's NTTs saved), at level l - 1 with the scale of [`Self::rescale`]; other ciphertexts
    /// (2 parts, general-m rings, no special primes) are relinearised and rescaled apart.
    pub fn relinearize_rescale(
        &self,
        mut a: CkksCiphertext,
        rlk: &RelinKey,
    ) -> Result<CkksCiphertext> {
        self.check_ct(&a)?;
        if a.level > 0 {
            let fused = rlk.relinearize_rescale(
                self.key_switcher(),
                &a.parts,
                self.fingerprint(),
                a.key_id,
            )?;
            if let Some([c0, c1]) = fused {
                a.scale = self.rescaled_scale(a.level, a.scale)?;
                a.level -= 1;
                a.parts = vec![c0, c1].into();
                return Ok(a);
            }
        }
        self.relinearize_assign(&mut a, rlk)?;
        self.rescale_assign(&mut a)?;
        Ok(a)
    }

    /// a * b relinearised (not rescaled).
    pub fn multiply(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        rlk: &RelinKey,
    ) -> Result<CkksCiphertext> {
        let mut r = self.multiply_no_relin(a, b)?;
        self.relinearize_assign(&mut r, rlk)?;
        Ok(r)
    }

    /// a * b relinearised and rescaled (Cheon et al. (SAC 2018) Table 1's Mult&RS), the
    /// relinearisation and the rescale in one division ([`Self::relinearize_rescale`]: one rounding
    /// where [`Self::multiply`] then [`Self::rescale`] round twice, and the rescale's NTTs saved).
    pub fn multiply_rescale(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        rlk: &RelinKey,
    ) -> Result<CkksCiphertext> {
        self.relinearize_rescale(self.multiply_no_relin(a, b)?, rlk)
    }
}

/// (a0 b0, a0 b1 + a1 b0, a1 b1) over `ring` from the first limbs of parts at its level or above
/// (their limbs are those of `drop_to`), limb by limb on the threads there are
/// (rnsfhe_math::parallel), each product written in place of a copy (the same bits as `Poly::mul`
/// and `add_assign`) into buffers without a zero fill.
fn tensor(ring: &Arc<RingContext>, a: &[Poly], b: &[Poly]) -> Result<Vec<Poly>> {
    let n = ring.limb_len(Representation::Ntt);
    let len = n * ring.moduli().len();
    for p in a.iter().chain(b) {
        let over = p.context().moduli();
        if p.representation() != Representation::Ntt
            || p.context().limb_len(Representation::Ntt) != n
            || over.len() < ring.moduli().len()
            || over[..ring.moduli().len()] != ring.moduli()[..]
        {
            return Err(Error::ContextMismatch(
                "mul: ciphertext parts over different rings or not in NTT form".into(),
            ));
        }
    }
    let (a0, a1, b0, b1) = (
        &a[0].residues()[..len],
        &a[1].residues()[..len],
        &b[0].residues()[..len],
        &b[1].residues()[..len],
    );
    // Limb by limb, in blocks that stay in cache: each input read once from memory, each output
    // written once (no zero fill, no copy).
    let d = Poly::from_fill_many::<3, Error>(ring, Representation::Ntt, |d| {
        parallel::for_each_limb_of(parallel::Work::Products(1), d, n, |i, o| {
            let m = &ring.moduli()[i];
            let [d0, d1, d2] = o else {
                return Ok(());
            };
            for s in (0..n).step_by(TENSOR_BLOCK) {
                let r = i * n + s..i * n + (s + TENSOR_BLOCK).min(n);
                let w = s..(s + TENSOR_BLOCK).min(n);
                vector::mul_into(m, &a0[r.clone()], &b0[r.clone()], &mut d0[w.clone()]);
                vector::mul_into(m, &a1[r.clone()], &b1[r.clone()], &mut d2[w.clone()]);
                vector::mul_into(m, &a0[r.clone()], &b1[r.clone()], &mut d1[w.clone()]);
                vector::mul_add_assign(m, &mut d1[w], &a1[r.clone()], &b0[r]);
            }
            Ok(())
        })
    })?;
    Ok(d.into())
}

/// Words of a limb per step of the tensor product: the 7 blocks of a step (4 inputs, 3 outputs)
/// take 112 KiB, within a core's L2.
const TENSOR_BLOCK: usize = 2048;
