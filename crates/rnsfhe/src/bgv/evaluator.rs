//! Homomorphic operations on BGV ciphertexts (Bajard et al. (SAC 2017) section 2): all in NTT form over Q_l.
//!
//! Key switching with a t-scaled error: the shared [`KeySwitcher`] returns (u_0, u_1) with
//! u_0 + u_1 s = d s' + e. BGV switches t^-1 d instead and multiplies the result by t:
//! t u_0 + t u_1 s = d s' + t e (mod Q_l), so the invariant [c(s)]_q = [m]_t + t v holds with the
//! keys of BFV and CKKS unchanged (Lattigo's BGV does the same).

use rnsfhe_math::ring::Poly;

use super::noise::NoiseModel;
use super::{BgvCiphertext, BgvContext, BgvPlaintext, GaloisKeys, RelinKey};
use crate::rlwe::shared_ops::Evaluate;
use crate::rlwe::{reduce_product, KeyId};
use crate::{Error, Result};

crate::rlwe::shared_ops::evaluation_methods!(BgvContext, BgvCiphertext);
crate::encoding::hypercube::hypercube_methods!(BgvContext, BgvCiphertext);

impl Evaluate for BgvContext {
    type Ct = BgvCiphertext;
    fn parts(ct: &BgvCiphertext) -> &[Poly] {
        &ct.parts
    }
    fn parts_mut(ct: &mut BgvCiphertext) -> &mut Vec<Poly> {
        ct.parts.polys_mut()
    }
    fn check_one(&self, ct: &BgvCiphertext) -> Result<()> {
        self.check_ct(ct)
    }
    fn check_sum(&self, a: &BgvCiphertext, b: &BgvCiphertext, op: &str) -> Result<Option<KeyId>> {
        self.check_pair(a, b, op)
    }
    fn align_sum(&self, a: &mut BgvCiphertext, b: &BgvCiphertext) -> Result<Option<BgvCiphertext>> {
        self.align_levels(a, b)
    }
    fn record_sum(&self, a: &mut BgvCiphertext, b: &BgvCiphertext, key: Option<KeyId>) {
        a.key_id = key;
        a.noise = crate::rlwe::noise::add(a.noise, b.noise);
    }
    fn with_parts(a: &BgvCiphertext, parts: Vec<Poly>) -> BgvCiphertext {
        BgvCiphertext {
            parts: parts.into(),
            level: a.level,
            fingerprint: a.fingerprint,
            key_id: a.key_id,
            noise: a.noise,
        }
    }
    fn needs_alignment(&self, a: &BgvCiphertext, b: &BgvCiphertext) -> bool {
        self.auto_switching() && a.level != b.level
    }
}

impl BgvContext {
    /// Checks both operands (context, level) and returns the key pair of their combination.
    fn check_pair(&self, a: &BgvCiphertext, b: &BgvCiphertext, op: &str) -> Result<Option<KeyId>> {
        self.check_ct(a)?;
        self.check_ct(b)?;
        if a.level != b.level {
            return Err(Error::LevelMismatch {
                op: op.into(),
                left: a.level,
                right: b.level,
                hint: "bring the higher one down with mod_switch_to_level first (or let the \
                       operators do it: ModulusSwitching::Auto)"
                    .into(),
            });
        }
        KeyId::join(a.key_id, b.key_id)
    }

    /// a + m.
    pub fn add_plain(&self, a: &BgvCiphertext, m: &BgvPlaintext) -> Result<BgvCiphertext> {
        self.check_ct(a)?;
        let mut r = a.clone();
        r.parts.c0_mut().add_assign(&self.lift_plain(m, a.level)?)?;
        r.noise = NoiseModel::add_plain(self.t().value(), a.noise, m);
        Ok(r)
    }

    /// a - m.
    pub fn sub_plain(&self, a: &BgvCiphertext, m: &BgvPlaintext) -> Result<BgvCiphertext> {
        self.check_ct(a)?;
        let mut r = a.clone();
        r.parts.c0_mut().sub_assign(&self.lift_plain(m, a.level)?)?;
        r.noise = NoiseModel::add_plain(self.t().value(), a.noise, m);
        Ok(r)
    }

    /// a * m (m lifted centred).
    pub fn mul_plain(&self, a: &BgvCiphertext, m: &BgvPlaintext) -> Result<BgvCiphertext> {
        self.check_ct(a)?;
        let p = self.lift_plain(m, a.level)?;
        let mut r = a.clone();
        for c in r.parts.polys_mut().iter_mut() {
            c.mul_assign(&p)?;
            reduce_product(c)?;
        }
        r.noise = NoiseModel::mul_plain(self.t().value(), a.noise, m);
        Ok(r)
    }

    /// a * c for an integer c (taken mod t, lifted centred).
    pub fn mul_scalar(&self, a: &BgvCiphertext, c: i64) -> Result<BgvCiphertext> {
        self.check_ct(a)?;
        let t = self.t();
        let c = t.center(t.reduce_i64(c));
        let mut r = a.clone();
        for p in r.parts.polys_mut().iter_mut() {
            p.mul_scalar_assign(c.unsigned_abs());
            if c < 0 {
                p.neg_assign();
            }
        }
        r.noise = crate::rlwe::noise::scale(a.noise, c.unsigned_abs() as f64);
        Ok(r)
    }

    /// The tensor product (a_0 b_0, a_0 b_1 + a_1 b_0, a_1 b_1) modulo Q_l: no base extension, no
    /// scaling (Bajard et al. (SAC 2017) section 2.2). Both operands 2-part.
    ///
    /// `ModulusSwitching::Auto` (default): the operands are first brought to the lower of their levels
    /// and then switched down while that leaves the product more room below Q / 2 (the policy and
    /// its justification from the noise bound: `bgv/switching.rs`); the product is computed at the
    /// level reached. `Manual`: both operands at one level, or `LevelMismatch`.
    pub fn multiply_no_relin(&self, a: &BgvCiphertext, b: &BgvCiphertext) -> Result<BgvCiphertext> {
        if !self.auto_switching() {
            return self.tensor(a, b);
        }
        self.check_ct(a)?;
        self.check_ct(b)?;
        KeyId::join(a.key_id, b.key_id)?;
        two_parts(a, b)?;
        let (x, y) = self.product_operands(a, b)?;
        self.tensor(&x, y.as_deref().unwrap_or(&x))
    }

    /// The tensor product of two 2-part ciphertexts at one level.
    pub(crate) fn tensor(&self, a: &BgvCiphertext, b: &BgvCiphertext) -> Result<BgvCiphertext> {
        let key_id = self.check_pair(a, b, "multiplication")?;
        two_parts(a, b)?;
        let mut c0 = a.parts[0].mul(&b.parts[0])?;
        let mut c2 = a.parts[1].mul(&b.parts[1])?;
        let mut c1 = a.parts[0].mul(&b.parts[1])?;
        c1.mul_add_assign(&a.parts[1], &b.parts[0])?;
        // General Phi_m: each sum of products reduced once (Bajard et al. (SAC 2017) section 3); no-op for X^n + 1.
        for c in [&mut c0, &mut c1, &mut c2] {
            reduce_product(c)?;
        }
        Ok(self.ciphertext(
            vec![c0, c1, c2],
            a.level,
            key_id,
            self.noise.multiply(a.noise, b.noise),
        ))
    }

    /// a * b, relinearised. `ModulusSwitching::Auto` (default): the modulus is switched before the
    /// product as the chain needs (see [`Self::multiply_no_relin`]), so that `x = x * x` chains reach
    /// the depth of a `mod_switch` after each product without one.
    pub fn multiply(
        &self,
        a: &BgvCiphertext,
        b: &BgvCiphertext,
        rlk: &RelinKey,
    ) -> Result<BgvCiphertext> {
        let mut r = self.multiply_no_relin(a, b)?;
        self.relinearize_assign(&mut r, rlk)?;
        Ok(r)
    }

    /// Relinearisation: (c_0, c_1, c_2) -> (c_0, c_1) + t KS(t^-1 c_2) (2 parts: unchanged), the
    /// shared RLWE relinearisation with the chain's t-scaled error ([`crate::rlwe::ModulusChain`]).
    pub fn relinearize_assign(&self, a: &mut BgvCiphertext, rlk: &RelinKey) -> Result<()> {
        self.check_ct(a)?;
        let switched = a.parts.len() == 3;
        rlk.relinearize(
            self.key_switcher(),
            Some(self.chain()),
            a.parts.polys_mut(),
            self.fingerprint(),
            a.key_id,
        )?;
        if switched {
            a.noise = self.noise.key_switch(a.noise);
        }
        Ok(())
    }

    /// Relinearised copy.
    pub fn relinearize(&self, a: &BgvCiphertext, rlk: &RelinKey) -> Result<BgvCiphertext> {
        let mut r = a.clone();
        self.relinearize_assign(&mut r, rlk)?;
        Ok(r)
    }

    /// Modulus switching to level l - 1 (Bajard et al. (SAC 2017) Lemma 3), in both modes of `ModulusSwitching`:
    /// each part c -> (c + t [-c t^-1]_{q_l}) / q_l. The message is kept (q_l = 1 mod t), the noise
    /// divided by q_l. Errors at level 0.
    /// Montgomery: on the residues of c~ = c M, delta = [-c~/t]_{q_l} t (section 4.2), so the rounding
    /// term of (13) is multiplied by M^-1.
    pub fn mod_switch(&self, a: &BgvCiphertext) -> Result<BgvCiphertext> {
        self.check_ct(a)?;
        if a.level == 0 {
            return Err(Error::LevelsExhausted {
                op: "mod_switch".into(),
                level: 0,
                needed: 1,
            });
        }
        let parts = a
            .parts
            .iter()
            .map(|p| self.chain().switch_down(p))
            .collect::<Result<Vec<_>>>()?;
        let log_ql = (self.params().moduli()[a.level] as f64).log2();
        let noise = self.noise.mod_switch(a.noise, log_ql, a.parts.len());
        Ok(self.ciphertext(parts, a.level - 1, a.key_id, noise))
    }

    /// Modulus switching down to `level` (one step at a time).
    pub fn mod_switch_to_level(&self, a: &BgvCiphertext, level: usize) -> Result<BgvCiphertext> {
        self.check_ct(a)?;
        if level > a.level {
            return Err(Error::LevelOutOfRange {
                op: "mod_switch_to_level (a ciphertext only goes down its chain)".into(),
                level,
                max: a.level,
            });
        }
        let mut r = a.clone();
        while r.level > level {
            r = self.mod_switch(&r)?;
        }
        Ok(r)
    }

    /// X -> X^g (g odd, mod 2n), then key switching back to s with a t-scaled error.
    pub fn apply_galois(
        &self,
        a: &BgvCiphertext,
        g: u64,
        keys: &GaloisKeys,
    ) -> Result<BgvCiphertext> {
        self.check_ct(a)?;
        let parts = keys.apply(
            self.key_switcher(),
            Some(self.chain()),
            &a.parts,
            g,
            self.fingerprint(),
            a.key_id,
        )?;
        let noise = if g % self.params().cyclotomic_index() as u64 == 1 {
            a.noise
        } else {
            self.noise.key_switch(a.noise)
        };
        Ok(self.ciphertext(parts, a.level, a.key_id, noise))
    }
}

impl BgvContext {
    /// The ciphertext under the switching key's target secret ([`crate::rlwe::SwitchingKey`]):
    /// (c_0, c_1) + t KS(t^-1 c_1) at `a`'s level, as a relinearisation with another key. The noise
    /// bound is tracked when the target secret has the parameters' distribution (the noise model's
    /// ||s||), else dropped (`None`). Refuses another key pair than the key's source and a
    /// ciphertext above the key's level.
    pub fn switch_key(
        &self,
        a: &BgvCiphertext,
        key: &crate::rlwe::SwitchingKey,
    ) -> Result<BgvCiphertext> {
        self.check_ct(a)?;
        let parts = key.apply(
            self.key_switcher(),
            Some(self.chain()),
            &a.parts,
            self.fingerprint(),
            a.key_id,
        )?;
        let noise = key.tracked_noise(self.params().secret_distribution(), || {
            self.noise.key_switch(a.noise)
        });
        Ok(self.ciphertext(parts, a.level, a.key_id.map(|_| key.to_id()), noise))
    }
}

/// Refuses operands of a product that are not 2-part.
fn two_parts(a: &BgvCiphertext, b: &BgvCiphertext) -> Result<()> {
    for x in [a, b] {
        if x.parts.len() != 2 {
            return Err(Error::InvalidCiphertext(format!(
                "multiplication needs 2-part ciphertexts, got {} parts; relinearize first",
                x.parts.len()
            )));
        }
    }
    Ok(())
}
