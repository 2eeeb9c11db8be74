//! CKKS homomorphic operations (Cheon et al. (SAC 2018) section 3): Add, CMult, Mult (tensor + key switching with
//! ModUp/ModDown), RS (rescale), level drop (rotations and conjugation: `rotations.rs`).
//!
//! Scales (after OpenFHE's FLEXIBLEAUTO, `ckksrns-leveledshe.cpp`
//! `AdjustLevelsAndDepth` / `EvalMult`): every level l has one scale Delta_l
//! ([`CkksContext::scale_at`]: Delta_L = 2^scale_bits, Delta_{l-1} = Delta_l^2 / q_l), and the methods
//! keep ciphertexts on it: a product of two ciphertexts at Delta_l is at Delta_l^2 and its rescale at
//! Delta_{l-1} exactly; `mul_const` encodes its constant at Delta_l^2 / scale (Delta_l on the chain),
//! so that the rescaled product lands on Delta_{l-1} too; `add_const` at the ciphertext's own scale;
//! `drop_to_level` brings a ciphertext down onto the lower level's scale by a product with 1 and a
//! rescale (a level the drop gives up anyway). Two ciphertexts of one level then add without a level
//! spent, whatever paths they took through Cheon et al. (SAC 2018)'s approximate basis. Scales are f64 and agree
//! within rounding (`SCALE_TOLERANCE`, 2^-48 relative). The explicit methods stay one step each
//! (manual mode): `multiply` does not rescale, `rescale` divides by q_l whatever the scale,
//! [`CkksContext::drop_to_level_keeping_scale`] only drops primes. The operators' forms (align, then
//! one operation, then rescale) are in `auto.rs`.
//!
//! Explicit sums: operands must be at the same level (`LevelMismatch` names both levels; use
//! `drop_to_level` or [`CkksContext::align`]) and have the same scale up to the approximate basis,
//! relative difference below 2^-(eta - 2) (Cheon et al. (SAC 2018) accepts the relative error 2^-eta of rescaling by
//! q_l instead of Delta, which manual scale choices can meet); the result keeps the first operand's
//! scale. Larger differences are a `ScaleMismatch` naming both scales in full.

use rnsfhe_math::arith::vector;
use rnsfhe_math::parallel;
use rnsfhe_math::ring::{Poly, Representation};

use super::scales::same_scale;
use super::{CkksCiphertext, CkksContext, CkksPlaintext};
use crate::rlwe::shared_ops::Evaluate;
use crate::rlwe::{KeyId, RelinKey};
use crate::{Error, Result};

crate::rlwe::shared_ops::evaluation_methods!(CkksContext, CkksCiphertext);

/// a +- b at the same level and scale; the result has the larger slot count.
impl Evaluate for CkksContext {
    type Ct = CkksCiphertext;
    fn parts(ct: &CkksCiphertext) -> &[Poly] {
        &ct.parts
    }
    fn parts_mut(ct: &mut CkksCiphertext) -> &mut Vec<Poly> {
        ct.parts.polys_mut()
    }
    fn check_one(&self, ct: &CkksCiphertext) -> Result<()> {
        self.check_ct(ct)
    }
    fn check_sum(&self, a: &CkksCiphertext, b: &CkksCiphertext, op: &str) -> Result<Option<KeyId>> {
        self.pair(a, b, op)
    }
    fn record_sum(&self, a: &mut CkksCiphertext, b: &CkksCiphertext, key: Option<KeyId>) {
        a.key_id = key;
        a.slots = a.slots.max(b.slots);
    }
    fn with_parts(a: &CkksCiphertext, parts: Vec<Poly>) -> CkksCiphertext {
        CkksCiphertext {
            parts: parts.into(),
            level: a.level,
            scale: a.scale,
            slots: a.slots,
            fingerprint: a.fingerprint,
            key_id: a.key_id,
        }
    }
}

impl CkksContext {
    fn same_level_scale(&self, l1: usize, s1: f64, l2: usize, s2: f64, op: &str) -> Result<()> {
        if l1 != l2 {
            return Err(Error::LevelMismatch {
                op: op.into(),
                left: l1,
                right: l2,
                hint: "bring them to one level with drop_to_level or align".into(),
            });
        }
        let tol = 2f64.powi(-(self.params().eta() as i32 - 2).max(8));
        if (s1 / s2 - 1.0).abs() > tol {
            return Err(Error::ScaleMismatch {
                op: op.into(),
                left: s1,
                right: s2,
                tolerance: tol,
                hint: "bring them to one scale with align".into(),
            });
        }
        Ok(())
    }

    /// a and b at one level and one scale, for an addition (OpenFHE's `AdjustLevelsAndDepth` with
    /// FLEXIBLEAUTO): the higher one is dropped to one level above the other and brought down by a
    /// rescaled product with 1 whose constant lands exactly on the other's scale
    /// ([`Self::mul_const_rescale_to`]; on the chain that is the lower level's scale Delta_l, a level
    /// the higher operand can afford). Ciphertexts of the chain at one level have one scale and are
    /// returned as they are. Only scales off the chain (chosen by hand) can differ at one level: then
    /// both are brought one level down onto that level's scale (one level spent).
    ///
    /// Errors: a `ScaleMismatch` when the scales differ at level 0 (no level left to spend).
    pub fn align(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
    ) -> Result<(CkksCiphertext, CkksCiphertext)> {
        self.check_ct(a)?;
        self.check_ct(b)?;
        let down =
            |hi: &CkksCiphertext, lo: &CkksCiphertext| self.lower_onto(hi, lo.level, lo.scale);
        match a.level.cmp(&b.level) {
            core::cmp::Ordering::Greater => Ok((down(a, b)?, b.clone())),
            core::cmp::Ordering::Less => Ok((a.clone(), down(b, a)?)),
            core::cmp::Ordering::Equal if same_scale(a.scale, b.scale) => {
                let mut b2 = b.clone();
                b2.scale = a.scale;
                Ok((a.clone(), b2))
            }
            core::cmp::Ordering::Equal => {
                if a.level == 0 {
                    return Err(Error::ScaleMismatch {
                        op: "align".into(),
                        left: a.scale,
                        right: b.scale,
                        tolerance: 0.0,
                        hint: "the operands are at level 0: no level is left to bring them to \
                               one scale"
                            .into(),
                    });
                }
                let target = self.scale_at(a.level - 1)?;
                Ok((
                    self.mul_const_rescale_to(a, 1.0, target)?,
                    self.mul_const_rescale_to(b, 1.0, target)?,
                ))
            }
        }
    }

    /// Checks both operands; returns the key pair of their combination.
    fn pair(&self, a: &CkksCiphertext, b: &CkksCiphertext, op: &str) -> Result<Option<KeyId>> {
        self.check_ct(a)?;
        self.check_ct(b)?;
        self.same_level_scale(a.level, a.scale, b.level, b.scale, op)?;
        KeyId::join(a.key_id, b.key_id)
    }

    fn plain_pair(&self, a: &CkksCiphertext, m: &CkksPlaintext, op: &str) -> Result<()> {
        self.check_ct(a)?;
        self.check_plain(m)?;
        if a.level != m.level {
            return Err(Error::LevelMismatch {
                op: format!("{op} (ciphertext, plaintext)"),
                left: a.level,
                right: m.level,
                hint: "encode at the ciphertext's level (encode_at)".into(),
            });
        }
        Ok(())
    }

    /// a += m (the plaintext's scale must match).
    pub fn add_plain_assign(&self, a: &mut CkksCiphertext, m: &CkksPlaintext) -> Result<()> {
        self.plain_pair(a, m, "add_plain")?;
        self.same_level_scale(a.level, a.scale, m.level, m.scale, "add_plain")?;
        Ok(a.parts.c0_mut().add_assign(&m.poly)?)
    }

    /// a + m.
    pub fn add_plain(&self, a: &CkksCiphertext, m: &CkksPlaintext) -> Result<CkksCiphertext> {
        let mut r = a.clone();
        self.add_plain_assign(&mut r, m)?;
        Ok(r)
    }

    /// a -= m (the plaintext's scale must match).
    pub fn sub_plain_assign(&self, a: &mut CkksCiphertext, m: &CkksPlaintext) -> Result<()> {
        self.plain_pair(a, m, "sub_plain")?;
        self.same_level_scale(a.level, a.scale, m.level, m.scale, "sub_plain")?;
        Ok(a.parts.c0_mut().sub_assign(&m.poly)?)
    }

    /// a - m.
    pub fn sub_plain(&self, a: &CkksCiphertext, m: &CkksPlaintext) -> Result<CkksCiphertext> {
        let mut r = a.clone();
        self.sub_plain_assign(&mut r, m)?;
        Ok(r)
    }

    /// a *= m (scales multiply; rescale afterwards).
    pub fn mul_plain_assign(&self, a: &mut CkksCiphertext, m: &CkksPlaintext) -> Result<()> {
        self.plain_pair(a, m, "mul_plain")?;
        for p in a.parts.polys_mut().iter_mut() {
            p.mul_assign(&m.poly)?;
        }
        a.scale *= m.scale;
        Ok(())
    }

    /// a * m.
    pub fn mul_plain(&self, a: &CkksCiphertext, m: &CkksPlaintext) -> Result<CkksCiphertext> {
        let mut r = a.clone();
        self.mul_plain_assign(&mut r, m)?;
        Ok(r)
    }

    /// a + c in every slot (c real, encoded at the ciphertext's scale). Errors: `OutOfRange` when
    /// round(c scale) is beyond the level's coefficient bound (`coefficient_bound_log2`).
    pub fn add_const(&self, a: &CkksCiphertext, c: f64) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        let v = (c * a.scale).round();
        if !v.is_finite() || v.abs() >= 2f64.powi(120) {
            return Err(Error::OutOfRange(format!(
                "constant {c} at scale 2^{:.1} does not fit",
                a.scale.log2()
            )));
        }
        self.check_coefficient(v.abs(), a.level, a.scale, "add_const")?;
        let v = v as i128;
        let mut r = a.clone();
        let n = r.parts[0].context().degree();
        let ring = r.parts[0].context().clone();
        // A constant polynomial is the same value at every NTT point.
        for (limb, m) in r
            .parts
            .c0_mut()
            .residues_mut()
            .chunks_exact_mut(n)
            .zip(ring.moduli())
        {
            let c = v.rem_euclid(i128::from(m.value())) as u64;
            limb.iter_mut().for_each(|x| *x = m.add(*x, c));
        }
        Ok(r)
    }

    /// a * c for a real constant c, as the integer round(c f) with f = Delta_l^2 / scale (Delta_l for a
    /// ciphertext on the chain): the product is at Delta_l^2 and its rescale at Delta_{l-1}, the
    /// chain's scale (OpenFHE's FLEXIBLEAUTO `EvalMult` by a constant). Not rescaled (manual mode;
    /// [`Self::mul_const_auto`] rescales). Errors: `OutOfRange` when c f does not fit in 62 bits.
    pub fn mul_const(&self, a: &CkksCiphertext, c: f64) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        let delta = self.scale_at(a.level)?;
        let product = delta * delta;
        let factor = product / a.scale;
        let v = (c * factor).round();
        if !v.is_finite() || v.abs() >= 2f64.powi(62) {
            return Err(Error::OutOfRange(format!(
                "constant {c} times its factor 2^{:.2} (the scale 2^{:.2} of level {} squared, over \
                 the ciphertext's 2^{:.2}) does not fit in a word",
                factor.log2(),
                delta.log2(),
                a.level,
                a.scale.log2()
            )));
        }
        let mut r = a.clone();
        let neg = v < 0.0;
        for p in r.parts.polys_mut().iter_mut() {
            p.mul_scalar_assign(v.abs() as u64);
            if neg {
                p.neg_assign();
            }
        }
        r.scale = product;
        Ok(r)
    }

    /// a * c and a rescale that lands exactly on `target` scale: the constant is
    /// round(c target q_l / scale) for the prime q_l the rescale removes (exact scale management, as SEAL
    /// and Lattigo do, instead of Cheon et al. (SAC 2018)'s approximate Delta). One level.
    pub fn mul_const_rescale_to(
        &self,
        a: &CkksCiphertext,
        c: f64,
        target: f64,
    ) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        if a.level == 0 {
            return Err(Error::InvalidParameters(
                "mul_const_rescale_to: the ciphertext is at level 0, the modulus chain is exhausted"
                    .into(),
            ));
        }
        let factor = self.factor_onto(a.level, a.scale, target)?;
        let v = (c * factor).round();
        if !v.is_finite() || v.abs() >= 2f64.powi(62) || !(target.is_finite() && target > 0.0) {
            return Err(Error::OutOfRange(format!(
                "constant {c} at target scale 2^{:.1} does not fit in a word",
                target.log2()
            )));
        }
        let mut r = self.mul_integer(a, v as i64)?;
        r.scale = a.scale * factor;
        self.rescale_assign(&mut r)?;
        r.scale = target;
        Ok(r)
    }

    /// a * c for an integer c (the scale is unchanged, no rescale needed).
    pub fn mul_integer(&self, a: &CkksCiphertext, c: i64) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        let mut r = a.clone();
        for p in r.parts.polys_mut().iter_mut() {
            p.mul_scalar_assign(c.unsigned_abs());
            if c < 0 {
                p.neg_assign();
            }
        }
        Ok(r)
    }

    /// The tensor (d0, d1, d2) = (a0 b0, a0 b1 + a1 b0, a1 b1): Mult step 1 of Cheon et al. (SAC 2018).
    pub fn multiply_no_relin(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
    ) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        self.check_ct(b)?;
        let key_id = KeyId::join(a.key_id, b.key_id)?;
        if a.level != b.level {
            return Err(Error::LevelMismatch {
                op: "mul".into(),
                left: a.level,
                right: b.level,
                hint: "bring them to one level with drop_to_level".into(),
            });
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
            parts: tensor(&a.parts, &b.parts)?.into(),
            level: a.level,
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

    /// a * b relinearised and rescaled (Cheon et al. (SAC 2018) Table 1's Mult&RS).
    pub fn multiply_rescale(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        rlk: &RelinKey,
    ) -> Result<CkksCiphertext> {
        let mut r = self.multiply(a, b, rlk)?;
        self.rescale_assign(&mut r)?;
        Ok(r)
    }

    /// RS (Cheon et al. (SAC 2018) section 3): c' = round(c / q_l) at level l - 1, scale / q_l: the modulus
    /// chain's step with t = 1 ([`crate::rlwe::ModulusChain::switch_down`]).
    pub fn rescale_assign(&self, a: &mut CkksCiphertext) -> Result<()> {
        let (parts, scale) = self.rescaled_parts(a)?;
        a.parts = parts.into();
        a.level -= 1;
        a.scale = scale;
        Ok(())
    }

    /// Rescaled copy (the parts are computed from a's, not from a copy of them).
    pub fn rescale(&self, a: &CkksCiphertext) -> Result<CkksCiphertext> {
        let (parts, scale) = self.rescaled_parts(a)?;
        Ok(CkksCiphertext {
            parts: parts.into(),
            level: a.level - 1,
            scale,
            slots: a.slots,
            fingerprint: a.fingerprint,
            key_id: a.key_id,
        })
    }

    /// The parts of a divided by q_l (one level down) and the new scale.
    fn rescaled_parts(&self, a: &CkksCiphertext) -> Result<(Vec<Poly>, f64)> {
        self.check_ct(a)?;
        let l = a.level;
        if l == 0 {
            return Err(Error::InvalidParameters(
                "rescale: the ciphertext is at level 0, the modulus chain is exhausted".into(),
            ));
        }
        let ql = self.ring_at(l)?.moduli()[l].value() as f64;
        // Parts side by side on the threads there are; each step runs limb by limb inside.
        let chain = self.chain();
        let words = a.parts.iter().map(|p| p.residues().len()).sum();
        let parts = parallel::map(a.parts.len(), words, |k| chain.switch_down(&a.parts[k]))?;
        // A product at Delta_l^2 lands on Delta_{l-1}: the same f64 steps give the same bits; the
        // level's scale is kept exactly when they differ only by rounding.
        let scale = a.scale / ql;
        let canonical = self.scale_at(l - 1)?;
        Ok((
            parts,
            if same_scale(scale, canonical) {
                canonical
            } else {
                scale
            },
        ))
    }

    /// The same values at a lower `level`. A ciphertext on the chain (at its level's scale
    /// [`Self::scale_at`]) lands on the scale of `level`: its primes are dropped down to `level` + 1
    /// and a product with 1, encoded so that the rescale lands on Delta_level, takes the last step
    /// (OpenFHE's FLEXIBLEAUTO `AdjustLevelsAndDepth`; the level spent is one the drop gives up
    /// anyway). A ciphertext off the chain (a scale chosen by hand) keeps its scale, as
    /// [`Self::drop_to_level_keeping_scale`]. Equal levels return a copy.
    pub fn drop_to_level(&self, a: &CkksCiphertext, level: usize) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        if level >= a.level || !self.on_chain(a.level, a.scale) {
            return self.drop_to_level_keeping_scale(a, level);
        }
        self.lower_onto(a, level, self.scale_at(level)?)
    }

    /// `a` (above `level`) at `level` and exactly `scale`: its primes dropped to `level` + 1, then a
    /// product with 1 whose rescale lands on `scale` ([`Self::mul_const_rescale_to`]); the step of
    /// `drop_to_level` and `align`.
    fn lower_onto(&self, a: &CkksCiphertext, level: usize, scale: f64) -> Result<CkksCiphertext> {
        let x = self.drop_to_level_keeping_scale(a, level + 1)?;
        self.mul_const_rescale_to(&x, 1.0, scale)
    }

    /// Drops the top primes down to `level`, values and scale unchanged (manual mode: a ciphertext of
    /// the chain leaves it, Delta_(its level) at `level`; for a product with a constant that chooses
    /// the scale next, as [`Self::mul_const_rescale_to`]).
    pub fn drop_to_level_keeping_scale(
        &self,
        a: &CkksCiphertext,
        level: usize,
    ) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        if level > a.level {
            return Err(Error::InvalidParameters(format!(
                "drop_to_level: level {level} is above the ciphertext's level {}",
                a.level
            )));
        }
        let parts = a
            .parts
            .iter()
            .map(|p| self.chain().drop_to(p, level))
            .collect::<Result<Vec<_>>>()?;
        Ok(CkksCiphertext {
            parts: parts.into(),
            level,
            scale: a.scale,
            slots: a.slots,
            fingerprint: a.fingerprint,
            key_id: a.key_id,
        })
    }
}

/// (a0 b0, a0 b1 + a1 b0, a1 b1) limb by limb on the threads there are (rnsfhe_math::parallel), each
/// product written in place of a copy (the same bits as `Poly::mul` and `add_assign`).
fn tensor(a: &[Poly], b: &[Poly]) -> Result<Vec<Poly>> {
    let ring = a[0].context().clone();
    for p in a.iter().chain(b) {
        if !std::sync::Arc::ptr_eq(p.context(), &ring) || p.representation() != Representation::Ntt
        {
            return Err(Error::ContextMismatch(
                "mul: ciphertext parts over different rings or not in NTT form".into(),
            ));
        }
    }
    let n = ring.limb_len(Representation::Ntt);
    let (a0, a1, b0, b1) = (
        a[0].residues(),
        a[1].residues(),
        b[0].residues(),
        b[1].residues(),
    );
    // Limb by limb, in blocks that stay in cache: each input read once from memory, each output
    // written once (no zero fill, no copy).
    let d = Poly::from_fill_many::<3, Error>(&ring, Representation::Ntt, |d| {
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
