//! Homomorphic operations on BFV ciphertexts.

use rnsfhe_math::parallel;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use std::sync::Arc;

use super::noise::NoiseModel;
use super::{BfvCiphertext, BfvContext, BfvPlaintext, GaloisKeys, RelinKey};
use crate::rlwe::shared_ops::Evaluate;
use crate::rlwe::KeyId;
use crate::{Error, Result};

/// (a0 + a1 Y)(b0 + b1 Y) in NTT form: [a0 b0, a0 b1 + a1 b0, a1 b1].
fn tensor(a: &[Poly; 2], b: &[Poly; 2], square: bool) -> Result<[Poly; 3]> {
    let c0 = a[0].mul(&b[0])?;
    let c2 = a[1].mul(&b[1])?;
    let mut c1 = a[0].mul(&b[1])?;
    if square {
        let c = c1.clone();
        c1.add_assign(&c)?;
    } else {
        c1.add_assign(&a[1].mul(&b[0])?)?;
    }
    Ok([c0, c1, c2])
}

fn to_ntt_pair(p: [Poly; 2]) -> Result<[Poly; 2]> {
    let [mut a, mut b] = p;
    a.to_ntt()?;
    b.to_ntt()?;
    Ok([a, b])
}

crate::rlwe::shared_ops::evaluation_methods!(BfvContext, BfvCiphertext);
crate::encoding::hypercube::hypercube_methods!(BfvContext, BfvCiphertext);

impl Evaluate for BfvContext {
    type Ct = BfvCiphertext;
    fn parts(ct: &BfvCiphertext) -> &[Poly] {
        &ct.parts
    }
    fn parts_mut(ct: &mut BfvCiphertext) -> &mut Vec<Poly> {
        ct.parts.polys_mut()
    }
    fn check_one(&self, ct: &BfvCiphertext) -> Result<()> {
        self.check_ct(ct)
    }
    fn check_sum(&self, a: &BfvCiphertext, b: &BfvCiphertext, _op: &str) -> Result<Option<KeyId>> {
        self.check_pair(a, b)
    }
    fn record_sum(&self, a: &mut BfvCiphertext, b: &BfvCiphertext, key: Option<KeyId>) {
        a.key_id = key;
        a.noise = crate::rlwe::noise::add(a.noise, b.noise);
    }
    fn with_parts(a: &BfvCiphertext, parts: Vec<Poly>) -> BfvCiphertext {
        BfvCiphertext {
            parts: parts.into(),
            fingerprint: a.fingerprint,
            key_id: a.key_id,
            noise: a.noise,
        }
    }
}

impl BfvContext {
    /// Checks both operands and returns the key pair of their combination.
    fn check_pair(&self, a: &BfvCiphertext, b: &BfvCiphertext) -> Result<Option<KeyId>> {
        self.check_ct(a)?;
        self.check_ct(b)?;
        KeyId::join(a.key_id, b.key_id)
    }

    fn require_size(&self, ct: &BfvCiphertext, size: usize, op: &str) -> Result<()> {
        if ct.parts.len() == size {
            return Ok(());
        }
        Err(Error::InvalidCiphertext(format!(
            "{op} needs {size}-part ciphertexts, got {} parts; relinearize first",
            ct.parts.len()
        )))
    }

    /// a += m (adds Delta \[m]_t to c0).
    pub fn add_plain_assign(&self, a: &mut BfvCiphertext, m: &BfvPlaintext) -> Result<()> {
        self.check_ct(a)?;
        a.parts
            .c0_mut()
            .add_assign(&self.enter(self.scaled_plain(m)?)?)?;
        a.noise = self.noise.add_plain(self, a.noise, m);
        Ok(())
    }

    /// a + m.
    pub fn add_plain(&self, a: &BfvCiphertext, m: &BfvPlaintext) -> Result<BfvCiphertext> {
        let mut r = a.clone();
        self.add_plain_assign(&mut r, m)?;
        Ok(r)
    }

    /// a -= m.
    pub fn sub_plain_assign(&self, a: &mut BfvCiphertext, m: &BfvPlaintext) -> Result<()> {
        self.check_ct(a)?;
        a.parts
            .c0_mut()
            .sub_assign(&self.enter(self.scaled_plain(m)?)?)?;
        a.noise = self.noise.add_plain(self, a.noise, m);
        Ok(())
    }

    /// a - m.
    pub fn sub_plain(&self, a: &BfvCiphertext, m: &BfvPlaintext) -> Result<BfvCiphertext> {
        let mut r = a.clone();
        self.sub_plain_assign(&mut r, m)?;
        Ok(r)
    }

    /// a *= m (every part times \[m]_t lifted centred; noise grows by about n ||m||).
    pub fn mul_plain_assign(&self, a: &mut BfvCiphertext, m: &BfvPlaintext) -> Result<()> {
        self.check_ct(a)?;
        let mut mp = self.enter(self.lift_plain(m)?)?;
        mp.to_ntt()?;
        a.noise = NoiseModel::mul_plain(self, a.noise, m);
        for p in a.parts.polys_mut().iter_mut() {
            p.to_ntt()?;
            p.mul_assign(&mp)?;
            p.to_coefficient()?;
        }
        Ok(())
    }

    /// a * m.
    pub fn mul_plain(&self, a: &BfvCiphertext, m: &BfvPlaintext) -> Result<BfvCiphertext> {
        let mut r = a.clone();
        self.mul_plain_assign(&mut r, m)?;
        Ok(r)
    }

    /// a *= c for an integer c (taken mod t, lifted centred).
    pub fn mul_scalar_assign(&self, a: &mut BfvCiphertext, c: i64) -> Result<()> {
        self.check_ct(a)?;
        let t = self.t();
        let c = t.center(t.reduce_i64(c));
        a.noise = crate::rlwe::noise::scale(a.noise, c.unsigned_abs() as f64);
        for p in a.parts.polys_mut().iter_mut() {
            p.mul_scalar_assign(c.unsigned_abs());
            if c < 0 {
                p.neg_assign();
            }
        }
        Ok(())
    }

    /// a * c.
    pub fn mul_scalar(&self, a: &BfvCiphertext, c: i64) -> Result<BfvCiphertext> {
        let mut r = a.clone();
        self.mul_scalar_assign(&mut r, c)?;
        Ok(r)
    }

    /// The 3-part product of two 2-part ciphertexts: [DR_2(ct1 * ct2)]_q by the parameter set's
    /// method (Bajard et al. (SAC 2016) Alg. 3 S0–S4, or HPS steps 1–4), without relinearisation.
    pub fn multiply_no_relin(&self, a: &BfvCiphertext, b: &BfvCiphertext) -> Result<BfvCiphertext> {
        let key_id = self.check_pair(a, b)?;
        self.require_size(a, 2, "multiplication")?;
        self.require_size(b, 2, "multiplication")?;
        let square = std::ptr::eq(a, b);
        let tool = self.mul_tool();
        // Words of one part over q: the size that decides whether a step is split across threads.
        let words = a.parts[0].residues().len();
        let extend = |ct: &BfvCiphertext| -> Result<([Poly; 2], [Poly; 2])> {
            let (x0, x1) = parallel::join(
                2 * words,
                || tool.extend(&ct.parts[0]),
                || tool.extend(&ct.parts[1]),
            );
            let aux = [x0?, x1?];
            let q = [ct.parts[0].clone(), ct.parts[1].clone()];
            Ok((to_ntt_pair(q)?, to_ntt_pair(aux)?))
        };
        // Both operands' extensions, then the tensors over Q and over the auxiliary base, side by side
        // when threads are set.
        let ((aq, aa), b_ext) = if square {
            (extend(a)?, None)
        } else {
            let (x, y) = parallel::join(4 * words, || extend(a), || extend(b));
            (x?, Some(y?))
        };
        let (cq, ca) = match &b_ext {
            None => parallel::join(
                4 * words,
                || tensor(&aq, &aq, true),
                || tensor(&aa, &aa, true),
            ),
            Some((bq, ba)) => parallel::join(
                4 * words,
                || tensor(&aq, bq, false),
                || tensor(&aa, ba, false),
            ),
        };
        let (cq, ca) = (cq?, ca?);
        let ring: &Arc<RingContext> = self.ring();
        let pairs: Vec<(Poly, Poly)> = cq.into_iter().zip(ca).collect();
        let parts = parallel::map_owned(pairs, 6 * words, |(mut xq, mut xa)| {
            xq.to_coefficient()?;
            xa.to_coefficient()?;
            tool.scale_down(&xq, &xa, ring)
        })?;
        Ok(self.ciphertext(parts, key_id, self.noise.multiply(a.noise, b.noise)))
    }

    /// a * b, relinearised.
    pub fn multiply(
        &self,
        a: &BfvCiphertext,
        b: &BfvCiphertext,
        rlk: &RelinKey,
    ) -> Result<BfvCiphertext> {
        let mut r = self.multiply_no_relin(a, b)?;
        self.relinearize_assign(&mut r, rlk)?;
        Ok(r)
    }

    /// a *= b, relinearised.
    pub fn multiply_assign(
        &self,
        a: &mut BfvCiphertext,
        b: &BfvCiphertext,
        rlk: &RelinKey,
    ) -> Result<()> {
        *a = self.multiply(a, b, rlk)?;
        Ok(())
    }

    /// a^2, relinearised.
    pub fn square(&self, a: &BfvCiphertext, rlk: &RelinKey) -> Result<BfvCiphertext> {
        self.multiply(a, a, rlk)
    }

    /// Relinearisation (Bajard et al. (SAC 2016) S5, eq. (17)): a 3-part ciphertext to 2 parts (2 parts: unchanged).
    pub fn relinearize_assign(&self, a: &mut BfvCiphertext, rlk: &RelinKey) -> Result<()> {
        self.check_ct(a)?;
        let switched = a.parts.len() > 2;
        if self.params().is_mixed_montgomery() && switched {
            self.relinearize_mixed(a, rlk)?;
        } else {
            rlk.relinearize(
                self.key_switcher(),
                None,
                a.parts.polys_mut(),
                self.fingerprint(),
                a.key_id,
            )?;
        }
        if switched {
            a.noise = self.noise.key_switch(a.noise);
        }
        Ok(())
    }

    /// The mixed strategy's relinearisation (Bajard et al. (SAC 2017) section 4.4): c_2's residues (plain) switched
    /// over the Montgomery ring with keys carrying M, the plain (u_0, u_1) brought back.
    fn relinearize_mixed(&self, a: &mut BfvCiphertext, rlk: &RelinKey) -> Result<()> {
        crate::rlwe::owned_by(
            (rlk.fingerprint, rlk.id()),
            (self.fingerprint(), a.key_id),
            "relinearisation key",
        )?;
        if a.parts.len() != 3 {
            return Err(Error::InvalidCiphertext(format!(
                "relinearisation takes 2 or 3 parts, got {}",
                a.parts.len()
            )));
        }
        let msw = self.relin_switcher();
        let mut c2 = a
            .parts
            .polys_mut()
            .pop()
            .ok_or_else(|| Error::InvalidCiphertext("empty".into()))?;
        c2.to_coefficient()?;
        let c2 = Poly::from_residues(
            msw.ring_q(),
            c2.residues().to_vec(),
            Representation::Coefficient,
        )?;
        let (u0, u1) = msw.switch(&c2, rlk.key())?;
        for (p, u) in a.parts.polys_mut().iter_mut().zip([u0, u1]) {
            let mut u = Poly::from_residues(
                self.ring(),
                u.residues().to_vec(),
                Representation::Coefficient,
            )?;
            if p.representation() == Representation::Ntt {
                u.to_ntt()?;
            }
            p.add_assign(&u)?;
        }
        Ok(())
    }

    /// Relinearised copy.
    pub fn relinearize(&self, a: &BfvCiphertext, rlk: &RelinKey) -> Result<BfvCiphertext> {
        let mut r = a.clone();
        self.relinearize_assign(&mut r, rlk)?;
        Ok(r)
    }

    /// Applies X -> X^g and switches back to s with the Galois key of g (g odd, taken mod 2n).
    pub fn apply_galois(
        &self,
        a: &BfvCiphertext,
        g: u64,
        keys: &GaloisKeys,
    ) -> Result<BfvCiphertext> {
        self.check_ct(a)?;
        let parts = keys.apply(
            self.key_switcher(),
            None,
            &a.parts,
            g,
            self.fingerprint(),
            a.key_id,
        )?;
        Ok(self.ciphertext(parts, a.key_id, self.noise.key_switch(a.noise)))
    }

    /// The ciphertext under the switching key's target secret ([`crate::rlwe::SwitchingKey`]):
    /// (c_0 + u_0, u_1) for (u_0, u_1) the key switch of c_1. The noise bound is tracked when the
    /// target secret has the parameters' distribution (the noise model's ||s||), else dropped
    /// (`None`). Refuses another key pair than the key's source; BFV ciphertexts are at the top
    /// level, so the key must be too.
    pub fn switch_key(
        &self,
        a: &BfvCiphertext,
        key: &crate::rlwe::SwitchingKey,
    ) -> Result<BfvCiphertext> {
        self.check_ct(a)?;
        let parts = key.apply(
            self.key_switcher(),
            None,
            &a.parts,
            self.fingerprint(),
            a.key_id,
        )?;
        let noise = key.tracked_noise(self.params().secret_distribution(), || {
            self.noise.key_switch(a.noise)
        });
        Ok(self.ciphertext(parts, a.key_id.map(|_| key.to_id()), noise))
    }

    /// In-place form of [`BfvContext::apply_galois`].
    pub fn apply_galois_assign(
        &self,
        a: &mut BfvCiphertext,
        g: u64,
        keys: &GaloisKeys,
    ) -> Result<()> {
        *a = self.apply_galois(a, g, keys)?;
        Ok(())
    }

    /// In-place row rotation.
    pub fn rotate_rows_assign(
        &self,
        a: &mut BfvCiphertext,
        step: i64,
        keys: &GaloisKeys,
    ) -> Result<()> {
        self.refuse_general("rotate_rows")?;
        self.apply_galois_assign(a, self.galois_element(step), keys)
    }
}
