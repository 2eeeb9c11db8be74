//! HPR-FV evaluation: addition, plaintext operations, multiplication (Bajard et al. (HPR-FV, ePrint 2019/500) section 4),
//! relinearisation (section 4.1, Remark 5) and rotations; the keys are in `keys.rs`.

use rnsfhe_math::ring::{Poly, Representation};

use rnsfhe_math::arith::vector;

use super::keys::{HprGaloisKeys, HprRelinKey};
use super::noise::NoiseModel;
use super::{Digits, HprCiphertext, HprContext, Relinearization};
use crate::rlwe::KeyId;
use crate::{Error, Result};

impl HprContext {
    fn join(&self, a: &HprCiphertext, b: &HprCiphertext) -> Result<Option<KeyId>> {
        self.check_ct(a)?;
        self.check_ct(b)?;
        KeyId::join(a.id(), b.id())
    }

    /// a + b (parts added digit by digit, then carried).
    pub fn add(&self, a: &HprCiphertext, b: &HprCiphertext) -> Result<HprCiphertext> {
        self.add_sub(a, b, false)
    }

    /// a - b.
    pub fn sub(&self, a: &HprCiphertext, b: &HprCiphertext) -> Result<HprCiphertext> {
        self.add_sub(a, b, true)
    }

    fn add_sub(&self, a: &HprCiphertext, b: &HprCiphertext, sub: bool) -> Result<HprCiphertext> {
        let id = self.join(a, b)?;
        let mut parts = Vec::with_capacity(a.size().max(b.size()));
        for pi in 0..a.size().max(b.size()) {
            let mut part = match a.parts().get(pi) {
                Some(p) => p.clone(),
                None => self.zero_digits(Representation::Coefficient),
            };
            if let Some(other) = b.parts().get(pi) {
                for (x, y) in part.iter_mut().zip(other) {
                    if sub {
                        x.sub_assign(y)?;
                    } else {
                        x.add_assign(y)?;
                    }
                }
            }
            self.propagate(&mut part)?;
            parts.push(part);
        }
        Ok(HprCiphertext::new(parts, id).with_noise(crate::rlwe::noise::add(a.noise, b.noise)))
    }

    /// -a.
    pub fn neg(&self, a: &HprCiphertext) -> Result<HprCiphertext> {
        self.check_ct(a)?;
        let mut out = a.clone();
        for part in out.parts_mut() {
            part.iter_mut().for_each(|x| x.neg_assign());
            self.propagate(part)?;
        }
        Ok(out)
    }

    /// a + m for a plaintext m (coefficients in [0, t)): Delta m added to c_0 (Delta as digits).
    pub fn add_plain(&self, a: &HprCiphertext, m: &[u64]) -> Result<HprCiphertext> {
        self.check_ct(a)?;
        let dm = self.delta_times(m)?;
        let mut out = a.clone();
        let c0 = &mut out.parts_mut()[0];
        for (x, y) in c0.iter_mut().zip(&dm) {
            x.add_assign(y)?;
        }
        self.propagate(c0)?;
        out.noise = self.noise_model.add_plain(self, a.noise, m);
        Ok(out)
    }

    /// a m for a plaintext m (coefficients in [0, t), taken centred): every digit times m, carried.
    pub fn mul_plain(&self, a: &HprCiphertext, m: &[u64]) -> Result<HprCiphertext> {
        self.check_ct(a)?;
        let t = self.params.plain_modulus();
        if m.len() != self.params.degree() || m.iter().any(|&x| x >= t) {
            return Err(Error::OutOfRange(format!(
                "a plaintext has n = {} coefficients in [0, t = {t})",
                self.params.degree()
            )));
        }
        let centred: Vec<i64> = m
            .iter()
            .map(|&x| {
                if x > t / 2 {
                    x as i64 - t as i64
                } else {
                    x as i64
                }
            })
            .collect();
        let mut mp = self.digit_signed(&centred)?;
        super::depth::fwd(&mut mp)?;
        let mut out = a.clone();
        for part in out.parts_mut() {
            for x in part.iter_mut() {
                super::depth::fwd(x)?;
                x.mul_assign(&mp)?;
                super::depth::inv(x)?;
            }
            self.propagate(part)?;
        }
        out.noise = NoiseModel::mul_plain(self, a.noise, m);
        Ok(out)
    }

    /// out_l = sum_{a + b = d - 1 + l} x_a y_b for l < d: the digits d-1..2d-2 of the product of
    /// two polynomials in Y (the Toeplitz product of Remark 1, naive), NTT form.
    fn toeplitz(&self, x: &[Poly], y: &[Poly]) -> Result<Digits> {
        let d = self.params.digits();
        let mut out = self.zero_digits(Representation::Ntt);
        let terms: Vec<Vec<(&Poly, &Poly)>> = (0..d)
            .map(|l| (l..d).map(|a| (&x[a], &y[d - 1 + l - a])).collect())
            .collect();
        let mut outs: Vec<&mut Poly> = out.iter_mut().collect();
        self.sums_of_products(&mut outs, &terms, false);
        Ok(out)
    }

    /// out_o = sum_t x_{o,t} y_{o,t} (or out_o += it, with `add`) for every output o, NTT form,
    /// modulus by modulus and block by block of coefficients, so that the factors the outputs share
    /// (the digits of a Toeplitz product, the r_{i,j} of section 4.1) stay in cache while the others
    /// (the key-switching keys) are read once. One lazy inner product per block, reduced once.
    pub(super) fn sums_of_products(
        &self,
        outs: &mut [&mut Poly],
        terms: &[Vec<(&Poly, &Poly)>],
        add: bool,
    ) {
        const BLOCK: usize = 1024;
        let n = self.params.degree();
        let mut tmp = vec![0u64; BLOCK.min(n)];
        let (mut xs, mut ys): (Vec<&[u64]>, Vec<&[u64]>) = (Vec::new(), Vec::new());
        for (row, q) in self.basis.full().moduli().iter().enumerate() {
            for start in (row * n..(row + 1) * n).step_by(BLOCK) {
                let r = start..(start + BLOCK).min((row + 1) * n);
                for (out, ts) in outs.iter_mut().zip(terms) {
                    xs.clear();
                    ys.clear();
                    xs.extend(ts.iter().map(|(x, _)| &x.residues()[r.clone()]));
                    ys.extend(ts.iter().map(|(_, y)| &y.residues()[r.clone()]));
                    let dst = &mut out.residues_mut()[r.clone()];
                    if add {
                        let t = &mut tmp[..r.len()];
                        vector::inner_product(q, &xs, &ys, t);
                        vector::add_assign(q, dst, t);
                    } else {
                        vector::inner_product(q, &xs, &ys, dst);
                    }
                }
            }
        }
    }

    /// The lifted, NTT-form copy of a part (eq. (13) on the top digit), times `scale`.
    fn lifted(&self, part: &[Poly], scale: u64) -> Result<Digits> {
        let mut out: Digits = part.to_vec();
        if let Some(top) = out.last_mut() {
            self.basis.lift_centred(top.residues_mut())?;
        }
        for x in out.iter_mut() {
            if scale != 1 {
                x.mul_scalar_assign(scale);
            }
            super::depth::fwd(x)?;
        }
        Ok(out)
    }

    /// Steps 1-3 of Fig. 1 and the carries of Prop. 1: returns c^_0, c^_1 (digits d..2d-2 moved
    /// down, NTT form, top digit zero), their carries of digit d-1 (coefficient form) and c^_2
    /// carried (coefficient form).
    fn tensor(
        &self,
        a: &HprCiphertext,
        b: &HprCiphertext,
    ) -> Result<(Digits, Digits, [Poly; 2], Digits)> {
        if a.size() != 2 || b.size() != 2 {
            return Err(Error::InvalidCiphertext(
                "multiply ciphertexts of 2 parts (relinearise first)".into(),
            ));
        }
        // t0 = a0 b0, t2 = a1 b1, t1 = (a0 + a1)(b0 + b1) - t0 - t2, the sums made in place so that
        // fewer digit polynomials are alive at once (pooled memory, see rnsfhe_math::pool).
        let t = self.params.plain_modulus();
        let (mut a0, mut b0) = (
            self.lifted(&a.parts()[0], t)?,
            self.lifted(&b.parts()[0], 1)?,
        );
        let t0 = self.toeplitz(&a0, &b0)?;
        let (a1, b1) = (
            self.lifted(&a.parts()[1], t)?,
            self.lifted(&b.parts()[1], 1)?,
        );
        let t2 = self.toeplitz(&a1, &b1)?;
        for (x, y) in a0.iter_mut().zip(&a1).chain(b0.iter_mut().zip(&b1)) {
            x.add_assign(y)?;
        }
        drop((a1, b1));
        let mut t1 = self.toeplitz(&a0, &b0)?;
        drop((a0, b0));
        for ((x, y), z) in t1.iter_mut().zip(&t0).zip(&t2) {
            x.sub_assign(y)?;
            x.sub_assign(z)?;
        }
        let w = self.basis.full().len() * self.params.degree();
        // The digit of weight p^-1 gives its carry and is dropped; a zero digit tops the rest.
        let split = |mut tv: Digits, top: Representation| -> Result<(Digits, Poly)> {
            let mut low = tv.remove(0);
            super::depth::inv(&mut low)?;
            let mut carry = vec![0u64; w];
            self.basis.carry(low.residues_mut(), &mut carry)?;
            tv.push(Poly::zero(&self.ring, top));
            Ok((
                tv,
                Poly::from_residues(&self.ring, carry, Representation::Coefficient)?,
            ))
        };
        let (c0, k0) = split(t0, Representation::Ntt)?;
        let (c1, k1) = split(t1, Representation::Ntt)?;
        let (mut c2, k2) = split(t2, Representation::Coefficient)?;
        for x in c2.iter_mut() {
            super::depth::inv(x)?;
        }
        c2[0].add_assign(&k2)?;
        self.propagate(&mut c2)?;
        Ok((c0, c1, [k0, k1], c2))
    }

    fn finish(
        &self,
        mut parts: [Digits; 2],
        carries: [Poly; 2],
        id: Option<KeyId>,
    ) -> Result<HprCiphertext> {
        for (part, carry) in parts.iter_mut().zip(&carries) {
            for x in part.iter_mut() {
                super::depth::inv(x)?;
            }
            part[0].add_assign(carry)?;
            self.propagate(part)?;
        }
        let [c0, c1] = parts;
        Ok(HprCiphertext::new(vec![c0, c1], id))
    }

    /// Homomorphic multiplication with relinearisation (Bajard et al. (HPR-FV, ePrint 2019/500) Fig. 1, Lemma 4).
    pub fn mul(
        &self,
        a: &HprCiphertext,
        b: &HprCiphertext,
        rlk: &HprRelinKey,
    ) -> Result<HprCiphertext> {
        let id = self.join(a, b)?;
        KeyId::check(id, rlk.id(), "relinearisation key")?;
        let (mut c0, mut c1, carries, c2) = self.tensor(a, b)?;
        self.key_switch_acc(&c2, &rlk.key, &mut c0, &mut c1)?;
        let noise = self.noise_model.multiply(a.noise, b.noise);
        Ok(self
            .finish([c0, c1], carries, id)?
            .with_noise(self.noise_model.key_switch(noise, rlk.mode())))
    }

    /// Multiplication without relinearisation: a 3-part ciphertext (Prop. 1, eq. (16)).
    pub fn mul_no_relin(&self, a: &HprCiphertext, b: &HprCiphertext) -> Result<HprCiphertext> {
        let id = self.join(a, b)?;
        let (c0, c1, carries, c2) = self.tensor(a, b)?;
        let mut out = self.finish([c0, c1], carries, id)?;
        out.parts_mut().push(c2);
        Ok(out.with_noise(self.noise_model.multiply(a.noise, b.noise)))
    }

    /// Relinearises a 3-part ciphertext (section 4.1); a 2-part one is returned unchanged.
    pub fn relinearize(&self, a: &HprCiphertext, rlk: &HprRelinKey) -> Result<HprCiphertext> {
        self.check_ct(a)?;
        KeyId::check(a.id(), rlk.id(), "relinearisation key")?;
        if a.size() == 2 {
            return Ok(a.clone());
        }
        let mut parts: Vec<Digits> = a.parts()[..2].to_vec();
        for x in parts.iter_mut().flatten() {
            super::depth::fwd(x)?;
        }
        let (mut c0, mut c1) = (parts.remove(0), parts.remove(0));
        self.key_switch_acc(&a.parts()[2], &rlk.key, &mut c0, &mut c1)?;
        let zero = Poly::zero(&self.ring, Representation::Coefficient);
        let noise = self.noise_model.key_switch(a.noise, rlk.mode());
        Ok(self
            .finish([c0, c1], [zero.clone(), zero], a.id())?
            .with_noise(noise))
    }

    /// The automorphism X -> X^g with key switching back to s (rotations: g from
    /// `BatchEncoder::galois_element_for_rotation`).
    pub fn apply_galois(
        &self,
        a: &HprCiphertext,
        g: u64,
        keys: &HprGaloisKeys,
    ) -> Result<HprCiphertext> {
        self.check_ct(a)?;
        KeyId::check(a.id(), keys.id(), "Galois keys")?;
        if a.size() != 2 {
            return Err(Error::InvalidCiphertext(
                "relinearise before rotating".into(),
            ));
        }
        let g = g % (2 * self.params.degree() as u64);
        let key = keys.keys.get(&g).ok_or(Error::MissingGaloisKey {
            element: g,
            step: None,
        })?;
        let mut c0: Digits = a.parts()[0]
            .iter()
            .map(|x| x.automorphism(g as i64))
            .collect::<rnsfhe_math::Result<_>>()?;
        let c1: Digits = a.parts()[1]
            .iter()
            .map(|x| x.automorphism(g as i64))
            .collect::<rnsfhe_math::Result<_>>()?;
        c0.iter_mut().try_for_each(super::depth::fwd)?;
        let mut acc1 = self.zero_digits(Representation::Ntt);
        self.key_switch_acc(&c1, key, &mut c0, &mut acc1)?;
        let zero = Poly::zero(&self.ring, Representation::Coefficient);
        let noise = self
            .noise_model
            .key_switch(a.noise, Relinearization::PerResidue);
        Ok(self
            .finish([c0, acc1], [zero.clone(), zero], a.id())?
            .with_noise(noise))
    }
}
