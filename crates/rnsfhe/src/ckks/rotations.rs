//! CKKS rotations and conjugation (Cheon et al. (SAC 2018) section 4), one at a time or hoisted: many rotations of
//! one ciphertext from one decomposition of c_1 (Halevi and Shoup, CRYPTO 2018, section 5), and
//! weighted sums of rotations with one ModDown (double hoisting, Bossuat, Troncoso-Pastoriza and
//! Hubaux, Eurocrypt 2021, section 3.2). The key switching is `rlwe::hoisted`'s; a single rotation is
//! its path with one element, so [`CkksContext::rotate`] and [`CkksContext::rotate_many`] give the
//! same bits.

use super::{CkksCiphertext, CkksContext, Complex};
use crate::rlwe::hoisted::{Hoisted, Weight};
use crate::rlwe::{GaloisKeys, SwitchingKey};
use crate::{Error, Result};

/// The weights of [`CkksContext::sum_rotations`], one per step.
#[derive(Clone, Copy, Debug)]
pub enum CkksWeights<'a> {
    /// A real number per step, the same in every slot (an integer constant: no encoding).
    Real(&'a [f64]),
    /// A complex number per step, the same in every slot.
    Complex(&'a [Complex]),
    /// A slot vector per step (at most the ciphertext's slot count; missing slots are 0).
    Vectors(&'a [Vec<Complex>]),
}

impl CkksWeights<'_> {
    fn len(&self) -> usize {
        match self {
            CkksWeights::Real(w) => w.len(),
            CkksWeights::Complex(w) => w.len(),
            CkksWeights::Vectors(w) => w.len(),
        }
    }
}

impl CkksContext {
    /// X -> X^g, then key switching back to s.
    fn apply_galois(
        &self,
        a: &CkksCiphertext,
        g: u64,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        let parts = keys.apply(
            self.key_switcher(),
            None,
            &a.parts,
            g,
            self.fingerprint(),
            a.key_id,
        )?;
        Ok(self.with_parts(a, parts))
    }

    /// `a`'s level, scale, slots and key pair with other parts.
    fn with_parts(
        &self,
        a: &CkksCiphertext,
        parts: Vec<rnsfhe_math::ring::Poly>,
    ) -> CkksCiphertext {
        self.ciphertext_like(a, parts, a.scale)
    }

    /// `a`'s slots and key pair with other parts (over the ring of their level) and `scale`.
    pub(crate) fn ciphertext_like(
        &self,
        a: &CkksCiphertext,
        parts: Vec<rnsfhe_math::ring::Poly>,
        scale: f64,
    ) -> CkksCiphertext {
        let level = parts
            .first()
            .and_then(|p| self.chain().level_of(p.context()))
            .unwrap_or(a.level);
        CkksCiphertext {
            parts: parts.into(),
            level,
            scale,
            slots: a.slots,
            fingerprint: a.fingerprint,
            key_id: a.key_id,
        }
    }

    /// The ciphertext under the switching key's target secret: (c_0 + u_0, u_1) for (u_0, u_1) the
    /// key switch of c_1 (e.g. from the dense secret to a sparse one before ModRaise, Bossuat et
    /// al., ACNS 2022), at `a`'s level and scale. Refuses a ciphertext of another key pair than the
    /// key's source, above the key's level, or of 3 parts.
    pub fn switch_key(&self, a: &CkksCiphertext, key: &SwitchingKey) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        let parts = key.apply(
            self.key_switcher(),
            None,
            &a.parts,
            self.fingerprint(),
            a.key_id,
        )?;
        let mut r = self.with_parts(a, parts);
        r.key_id = a.key_id.map(|_| key.to_id());
        Ok(r)
    }

    /// Rotation keys at `level` (ciphertexts at levels <= `level`; keys over q_0..q_level and P,
    /// [`crate::rlwe::KeyGenerator::galois_keys_at`]) for `steps` and, if `conjugation`, the
    /// conjugation key.
    pub fn galois_keys_at(
        &self,
        sk: &crate::rlwe::SecretKey,
        steps: &[i64],
        conjugation: bool,
        level: usize,
        rng: &mut rnsfhe_math::sample::Csprng,
    ) -> Result<GaloisKeys> {
        let mut el: Vec<u64> = steps
            .iter()
            .map(|&s| self.encoder().rotation_galois_element(s))
            .collect();
        if conjugation {
            el.push(self.encoder().conjugation_galois_element());
        }
        crate::rlwe::KeyGenerator::new(self, rng).galois_keys_at(sk, &el, level)
    }

    /// Rotates the slots left by `step` (right when negative).
    pub fn rotate(
        &self,
        a: &CkksCiphertext,
        step: i64,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        self.apply_galois(a, self.encoder().rotation_galois_element(step), keys)
    }

    /// Complex conjugation of every slot.
    pub fn conjugate(&self, a: &CkksCiphertext, keys: &GaloisKeys) -> Result<CkksCiphertext> {
        self.apply_galois(a, self.encoder().conjugation_galois_element(), keys)
    }

    /// The Galois elements of `steps` for a ciphertext at `level`, every key checked before any
    /// work (the error names the step).
    fn rotation_elements(
        &self,
        steps: &[i64],
        keys: &GaloisKeys,
        level: usize,
    ) -> Result<Vec<u64>> {
        steps
            .iter()
            .map(|&s| {
                let g = self.encoder().rotation_galois_element(s);
                keys.require(g, Some(s), level).map(|()| g)
            })
            .collect()
    }

    /// `a` prepared for many rotations: c_1 decomposed once.
    pub(crate) fn hoist<'a>(
        &'a self,
        a: &'a CkksCiphertext,
        keys: &'a GaloisKeys,
    ) -> Result<Hoisted<'a>> {
        self.check_ct(a)?;
        Hoisted::new(
            self.key_switcher(),
            None,
            keys,
            &a.parts,
            self.fingerprint(),
            a.key_id,
        )
    }

    /// The rotations of `a` left by every step (one ciphertext per step; step 0 gives a copy), from
    /// one decomposition of c_1: each is the same bits as [`Self::rotate`] by that step, at `a`'s
    /// level and scale. Errors: a missing Galois key names the step; a 3-part ciphertext (relinearize
    /// first) and keys of another context or key pair are refused.
    pub fn rotate_many(
        &self,
        a: &CkksCiphertext,
        steps: &[i64],
        keys: &GaloisKeys,
    ) -> Result<Vec<CkksCiphertext>> {
        let h = self.hoist(a, keys)?;
        let els = self.rotation_elements(steps, keys, a.level)?;
        els.iter()
            .map(|&g| Ok(self.with_parts(a, h.rotate(g)?)))
            .collect()
    }

    /// sum_i w_i rot_{steps\[i]}(a) with one decomposition of c_1 and one ModDown for the whole sum
    /// (double hoisting).
    ///
    /// Scales: without weights (`None`, every w_i = 1) the sum keeps `a`'s level and scale. With
    /// weights it spends one level and lands exactly on the chain's scale of the level below,
    /// Delta_{l-1} = [`Self::scale_at`](l - 1), as [`Self::mul_const_rescale_to`] does: each weight is
    /// encoded at f = Delta_{l-1} q_l / scale (a real weight as the integer round(w f), complex and
    /// vector weights as plaintexts over Q_l u P), and the sum, at scale * f, is rescaled by q_l.
    ///
    /// Errors: those of [`Self::rotate_many`]; `LengthMismatch` for a weight count other than the step
    /// count or a weight vector longer than `a`'s slots; `InvalidParameters` for weights at level 0;
    /// `OutOfRange` for a weight too large for its encoding.
    pub fn sum_rotations(
        &self,
        a: &CkksCiphertext,
        steps: &[i64],
        weights: Option<CkksWeights<'_>>,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        if steps.is_empty() {
            return Err(Error::InvalidParameters(
                "sum_rotations needs at least one step".into(),
            ));
        }
        let count = weights.map_or(steps.len(), |w| w.len());
        if count != steps.len() {
            return Err(Error::LengthMismatch {
                what: "sum_rotations weights (one per step)",
                expected: steps.len(),
                got: count,
            });
        }
        let h = self.hoist(a, keys)?;
        let els = self.rotation_elements(steps, keys, a.level)?;
        let Some(weights) = weights else {
            let terms: Vec<(u64, Weight<'_>)> = els.iter().map(|&g| (g, Weight::One)).collect();
            return Ok(self.with_parts(a, h.sum(&terms)?));
        };
        if a.level == 0 {
            return Err(Error::InvalidParameters(
                "sum_rotations with weights rescales once: the ciphertext is at level 0".into(),
            ));
        }
        let target = self.scale_at(a.level - 1)?;
        let factor = self.factor_onto(a.level, a.scale, target)?;
        let ring = h.ring_qp()?;
        // Complex and vector weights as plaintexts over Q_l u P; real ones as integers.
        let constant = |w: Complex| vec![w; a.slots];
        let plains: Vec<Option<rnsfhe_math::ring::Poly>> = (0..steps.len())
            .map(|i| {
                let values = match weights {
                    CkksWeights::Real(_) => return Ok(None),
                    CkksWeights::Complex(w) if w[i].im == 0.0 => return Ok(None),
                    CkksWeights::Complex(w) => constant(w[i]),
                    CkksWeights::Vectors(w) => self.padded(&w[i], a.slots)?,
                };
                self.encode_over(ring, &values, a.level, factor).map(Some)
            })
            .collect::<Result<_>>()?;
        let mut terms = Vec::with_capacity(steps.len());
        for (i, &g) in els.iter().enumerate() {
            let w = match (&plains[i], weights) {
                (Some(p), _) => Weight::Plain(p),
                (None, CkksWeights::Real(w)) => Weight::Integer(self.weight_integer(w[i], factor)?),
                (None, CkksWeights::Complex(w)) => {
                    Weight::Integer(self.weight_integer(w[i].re, factor)?)
                }
                (None, CkksWeights::Vectors(_)) => {
                    return Err(Error::Internal(
                        "a vector weight without its plaintext".into(),
                    ))
                }
            };
            terms.push((g, w));
        }
        let mut r = self.with_parts(a, h.sum(&terms)?);
        r.scale = a.scale * factor;
        self.rescale_assign(&mut r)?;
        r.scale = target;
        Ok(r)
    }

    /// round(w f) as a word, or `OutOfRange`.
    fn weight_integer(&self, w: f64, factor: f64) -> Result<i64> {
        let v = (w * factor).round();
        if !v.is_finite() || v.abs() >= 2f64.powi(62) {
            return Err(Error::OutOfRange(format!(
                "weight {w} at its encoding factor 2^{:.1} does not fit in a word",
                factor.log2()
            )));
        }
        Ok(v as i64)
    }

    /// A slot vector of at most `slots` values, zero-padded to `slots`.
    pub(crate) fn padded(&self, v: &[Complex], slots: usize) -> Result<Vec<Complex>> {
        if v.len() > slots {
            return Err(Error::LengthMismatch {
                what: "slot vector (at most the ciphertext's slots)",
                expected: slots,
                got: v.len(),
            });
        }
        let mut out = v.to_vec();
        out.resize(slots, Complex::new(0.0, 0.0));
        Ok(out)
    }
}
