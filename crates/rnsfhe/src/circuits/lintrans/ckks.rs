//! CKKS linear transforms: complex diagonals encoded once over Q_l u P, evaluated by hoisted BSGS;
//! the result is rescaled onto the chain's scale one level down.

use std::collections::BTreeSet;

use super::bsgs::{self, BsgsSplit, Encoded};
use super::storage::{Diagonal, DiagonalStorage};
use super::Diagonals;
use crate::ckks::{CkksCiphertext, CkksContext, Complex};
use crate::rlwe::GaloisKeys;
use crate::{Error, Result};

/// A CKKS linear transform y = M x on `slots` slots (N/2, or fewer with sparse packing), for
/// ciphertexts at one level l on the chain's scale Delta_l.
///
/// Scales: each diagonal is encoded at f = Delta_{l-1} q_l / Delta_l, so that the sum, at Delta_l f,
/// rescaled by q_l lands exactly on Delta_{l-1} = [`CkksContext::scale_at`](l - 1): the output is at
/// level l - 1 and the chain's scale there (as [`CkksContext::mul_const_rescale_to`]).
#[derive(Clone, Debug)]
pub struct CkksLinearTransform {
    fingerprint: u64,
    ring: std::sync::Arc<rnsfhe_math::ring::RingContext>,
    level: usize,
    slots: usize,
    input_scale: f64,
    factor: f64,
    output_scale: f64,
    split: BsgsSplit,
    encoded: Encoded,
    diagonals: Diagonals<Complex>,
}

impl CkksLinearTransform {
    /// Encodes the diagonals (index k < `slots` -> up to `slots` values, missing ones 0) for inputs at
    /// `level` (>= 1), split by [`BsgsSplit::new`]. Errors: `InvalidParameters` for no diagonals, a
    /// slot count that is not a power of two up to N/2, or level 0 or above the top;
    /// `LengthMismatch` for a diagonal index or vector beyond the slots.
    pub fn new(
        ctx: &CkksContext,
        diagonals: &Diagonals<Complex>,
        level: usize,
        slots: usize,
    ) -> Result<Self> {
        Self::with_storage(ctx, diagonals, level, slots, DiagonalStorage::Ntt)
    }

    /// [`Self::new`] with the diagonals held as `storage` says ([`DiagonalStorage::Compact`]: one
    /// word per coefficient, the same results bit for bit, a lift and an NTT per limb at each use).
    pub fn with_storage(
        ctx: &CkksContext,
        diagonals: &Diagonals<Complex>,
        level: usize,
        slots: usize,
        storage: DiagonalStorage,
    ) -> Result<Self> {
        let split = BsgsSplit::new(&check(ctx, diagonals, level, slots)?, slots);
        Self::with_split(ctx, diagonals, level, slots, split, storage)
    }

    /// [`Self::new`] with n1 baby steps (a power of two) instead of the cheapest split.
    pub fn with_baby_steps(
        ctx: &CkksContext,
        diagonals: &Diagonals<Complex>,
        level: usize,
        slots: usize,
        n1: usize,
    ) -> Result<Self> {
        if !n1.is_power_of_two() || n1 > slots {
            return Err(Error::InvalidParameters(format!(
                "{n1} baby steps: a power of two up to the {slots} slots"
            )));
        }
        let split = BsgsSplit::with_n1(&check(ctx, diagonals, level, slots)?, n1);
        Self::with_split(ctx, diagonals, level, slots, split, DiagonalStorage::Ntt)
    }

    fn with_split(
        ctx: &CkksContext,
        diagonals: &Diagonals<Complex>,
        level: usize,
        slots: usize,
        split: BsgsSplit,
        storage: DiagonalStorage,
    ) -> Result<Self> {
        let input_scale = ctx.scale_at(level)?;
        let output_scale = ctx.scale_at(level - 1)?;
        let factor = ctx.factor_onto(level, input_scale, output_scale)?;
        let ring = ctx.key_switcher().ring_qp_at(level)?;
        let enc = ctx.encoder();
        let mut giants = Vec::with_capacity(split.giants.len());
        for (&j, babies) in &split.giants {
            let mut terms = Vec::with_capacity(babies.len());
            for &i in babies {
                let d = ctx.padded(&diagonals[&(j + i)], slots)?;
                // rot_{-j}(diag_{j+i}): slot t holds diag[(t - j) mod slots].
                let v: Vec<Complex> = (0..slots).map(|t| d[(t + slots - j) % slots]).collect();
                let c = ctx.encode_integers(&v, level, factor)?;
                let p = Diagonal::new(ring, &c, storage)?;
                terms.push((enc.rotation_galois_element(i as i64), p));
            }
            giants.push((enc.rotation_galois_element(j as i64), terms));
        }
        Ok(CkksLinearTransform {
            fingerprint: ctx.fingerprint(),
            ring: ring.clone(),
            level,
            slots,
            input_scale,
            factor,
            output_scale,
            split,
            encoded: Encoded { giants },
            diagonals: diagonals.clone(),
        })
    }

    /// The level of the inputs (the output is one level below).
    pub fn level(&self) -> usize {
        self.level
    }
    /// The slot count.
    pub fn slots(&self) -> usize {
        self.slots
    }
    /// The output's scale, Delta_{l-1}.
    pub fn output_scale(&self) -> f64 {
        self.output_scale
    }
    /// The bytes the encoded diagonals hold (see [`DiagonalStorage`]).
    pub fn encoded_bytes(&self) -> usize {
        self.encoded.bytes()
    }
    /// The BSGS split.
    pub fn split(&self) -> &BsgsSplit {
        &self.split
    }
    /// The rotation steps [`Self::apply`] needs Galois keys for.
    pub fn rotation_steps(&self) -> Vec<i64> {
        self.split.rotation_steps()
    }
    /// The rotation steps [`Self::apply_naive`] needs: the non-zero diagonal indices.
    pub fn naive_rotation_steps(&self) -> Vec<i64> {
        self.diagonals
            .keys()
            .filter(|&&k| k != 0)
            .map(|&k| k as i64)
            .collect()
    }

    /// Refuses another context (`ContextMismatch`), a ciphertext of another level, slot count or
    /// scale.
    fn check_input(&self, ctx: &CkksContext, ct: &CkksCiphertext) -> Result<()> {
        if self.fingerprint != ctx.fingerprint() {
            return Err(Error::ContextMismatch(
                "the linear transform was encoded for another parameter set".into(),
            ));
        }
        let same = ctx
            .key_switcher()
            .ring_qp_at(self.level)
            .is_ok_and(|r| std::sync::Arc::ptr_eq(r, &self.ring));
        if !same {
            return Err(Error::ContextMismatch(
                "the linear transform was encoded by another CkksContext of the same parameters: \
                 encode it with the context that applies it"
                    .into(),
            ));
        }
        if ct.level() != self.level {
            return Err(Error::LevelMismatch {
                op: "linear transform (ciphertext, transform)".into(),
                left: ct.level(),
                right: self.level,
                hint: "bring the ciphertext to the transform's level with drop_to_level".into(),
            });
        }
        if ct.slots() != self.slots {
            return Err(Error::LengthMismatch {
                what: "linear transform slots (the ciphertext's slot count)",
                expected: self.slots,
                got: ct.slots(),
            });
        }
        if !ctx.on_chain(self.level, ct.scale()) {
            return Err(Error::ScaleMismatch {
                op: "linear transform (ciphertext, the chain's scale of its level)".into(),
                left: ct.scale(),
                right: self.input_scale,
                tolerance: crate::ckks::SCALE_TOLERANCE,
                hint: "bring the ciphertext onto the chain's scale (drop_to_level or align)".into(),
            });
        }
        Ok(())
    }

    /// y = M x by hoisted BSGS (Halevi-Shoup; Lattigo's `MultiplyByDiagMatrixBSGS`): one
    /// decomposition for the baby steps, products and sums over Q_l u P, one ModDown per giant
    /// step and one for the result, then the rescale. Keys: [`Self::rotation_steps`].
    pub fn apply(
        &self,
        ctx: &CkksContext,
        ct: &CkksCiphertext,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        self.check_input(ctx, ct)?;
        let h = ctx.hoist(ct, keys)?;
        for s in self.rotation_steps() {
            keys.require(ctx.encoder().rotation_galois_element(s), Some(s), h.level())?;
        }
        let parts = bsgs::evaluate(&h, &self.encoded)?;
        self.finish(ctx, ct, parts)
    }

    /// Several transforms of one ciphertext from one decomposition of its c_1: `transforms[i]`
    /// applied to `ct`, each the same bits as its [`Self::apply`] (the decomposition does not depend
    /// on the transform). For the masked rotations of Jiang, Kim, Lauter and Song's matrix product,
    /// d - 1 transforms of one ciphertext. Keys: the union of their [`Self::rotation_steps`].
    pub fn apply_many(
        ctx: &CkksContext,
        ct: &CkksCiphertext,
        transforms: &[&CkksLinearTransform],
        keys: &GaloisKeys,
    ) -> Result<Vec<CkksCiphertext>> {
        for t in transforms {
            t.check_input(ctx, ct)?;
        }
        let h = ctx.hoist(ct, keys)?;
        for t in transforms {
            for s in t.rotation_steps() {
                keys.require(ctx.encoder().rotation_galois_element(s), Some(s), h.level())?;
            }
        }
        transforms
            .iter()
            .map(|t| t.finish(ctx, ct, bsgs::evaluate(&h, &t.encoded)?))
            .collect()
    }

    /// The evaluated parts of `ct`'s transform rescaled onto the output scale.
    fn finish(
        &self,
        ctx: &CkksContext,
        ct: &CkksCiphertext,
        parts: Vec<rnsfhe_math::ring::Poly>,
    ) -> Result<CkksCiphertext> {
        let mut r = ctx.ciphertext_like(ct, parts, ct.scale() * self.factor);
        ctx.rescale_assign(&mut r)?;
        Ok(ctx.ciphertext_like(&r, r.parts().to_vec(), self.output_scale))
    }

    /// y = sum_k diag_k * rot_k(x) with one rotation and one plaintext product per diagonal (the
    /// reference path; its plaintexts are encoded at each call), then the rescale: the same level
    /// and scale as [`Self::apply`]. Keys: [`Self::naive_rotation_steps`].
    pub fn apply_naive(
        &self,
        ctx: &CkksContext,
        ct: &CkksCiphertext,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        self.check_input(ctx, ct)?;
        let mut acc: Option<CkksCiphertext> = None;
        for (&k, d) in &self.diagonals {
            let pt = ctx.encode_at(&ctx.padded(d, self.slots)?, self.level, self.factor)?;
            let r = ctx.mul_plain(&ctx.rotate(ct, k as i64, keys)?, &pt)?;
            acc = Some(match acc {
                None => r,
                Some(a) => ctx.add(&a, &r)?,
            });
        }
        let mut r = acc.ok_or_else(|| Error::InvalidParameters("no diagonals".into()))?;
        ctx.rescale_assign(&mut r)?;
        Ok(ctx.ciphertext_like(&r, r.parts().to_vec(), self.output_scale))
    }
}

/// The diagonal indices, checked against the context, level and slots.
fn check(
    ctx: &CkksContext,
    diagonals: &Diagonals<Complex>,
    level: usize,
    slots: usize,
) -> Result<BTreeSet<usize>> {
    if diagonals.is_empty() {
        return Err(Error::InvalidParameters(
            "a linear transform needs at least one diagonal".into(),
        ));
    }
    if !slots.is_power_of_two() || slots > ctx.slots() {
        return Err(Error::InvalidParameters(format!(
            "{slots} slots: a power of two up to N/2 = {}",
            ctx.slots()
        )));
    }
    if level == 0 || level > ctx.max_level() {
        return Err(Error::InvalidParameters(format!(
            "a linear transform spends one level: level {level} is not in 1..={}",
            ctx.max_level()
        )));
    }
    for (&k, d) in diagonals {
        if k >= slots || d.len() > slots {
            return Err(Error::LengthMismatch {
                what: "diagonal index and length (below the slot count)",
                expected: slots,
                got: k.max(d.len()),
            });
        }
    }
    Ok(diagonals.keys().copied().collect())
}
