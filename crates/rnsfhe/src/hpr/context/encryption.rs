//! HPR-FV encryption (public-key and symmetric, carried digits) and decryption from the top digits
//! only (Bajard et al. (HPR-FV, ePrint 2019/500) Alg. 1).

use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::rns::BaseConverter;
use rnsfhe_math::sample::{ternary, Csprng};

use super::{Digits, HprContext, HprPublicKey, HprSecretKey};
use crate::hpr::{depth, HprCiphertext};
use crate::rlwe::KeyId;
use crate::{Error, Result};

impl HprContext {
    /// Checks that m is a plaintext: n coefficients in [0, t).
    pub fn check_plain(&self, m: &[u64]) -> Result<()> {
        let (n, t) = (self.n(), self.params.plain_modulus());
        if m.len() != n || m.iter().any(|&x| x >= t) {
            return Err(Error::OutOfRange(format!(
                "a plaintext has n = {n} coefficients in [0, t = {t})"
            )));
        }
        Ok(())
    }

    /// Delta m as d digits (Delta_j m for each digit of Delta), coefficients of m in [0, t).
    pub(in crate::hpr) fn delta_times(&self, m: &[u64]) -> Result<Digits> {
        self.check_plain(m)?;
        let n = self.n();
        self.delta
            .iter()
            .map(|dj| {
                let mut p = Poly::zero(&self.ring, Representation::Coefficient);
                for ((limb, q), &c) in p
                    .residues_mut()
                    .chunks_exact_mut(n)
                    .zip(self.basis.full().moduli())
                    .zip(dj)
                {
                    for (x, &mi) in limb.iter_mut().zip(m) {
                        *x = q.mul(q.reduce(mi), c);
                    }
                }
                Ok(p)
            })
            .collect()
    }

    /// Public-key encryption of m (coefficients in [0, t)): (b u + e1 + Delta m, a u + e2), carried.
    pub fn encrypt(&self, pk: &HprPublicKey, m: &[u64], rng: &mut Csprng) -> Result<HprCiphertext> {
        let mut dm = self.delta_times(m)?;
        let mut u = self.digit_signed(&ternary(rng, self.n()))?;
        depth::fwd(&mut u)?;
        let mut parts = Vec::with_capacity(2);
        for (i, key) in [&pk.b, &pk.a].into_iter().enumerate() {
            let mut c = Vec::with_capacity(key.len());
            for kj in key {
                let mut x = kj.mul(&u)?;
                depth::inv(&mut x)?;
                c.push(x);
            }
            let e = self.gaussian.sample(rng, self.n());
            c[0].add_assign(&self.digit_signed(&e)?)?;
            if i == 0 {
                for (cj, mj) in c.iter_mut().zip(dm.iter_mut()) {
                    cj.add_assign(mj)?;
                }
            }
            self.propagate(&mut c)?;
            parts.push(c);
        }
        let noise = self.noise_model.fresh(self, true, m);
        Ok(HprCiphertext::new(parts, Some(pk.id())).with_noise(noise))
    }

    /// Symmetric encryption (-(a s + e) + Delta m, a).
    pub fn encrypt_symmetric(
        &self,
        sk: &HprSecretKey,
        m: &[u64],
        rng: &mut Csprng,
    ) -> Result<HprCiphertext> {
        let dm = self.delta_times(m)?;
        let (b, a) = self.rlwe_sample(sk, Some(&dm), rng)?;
        let noise = self.noise_model.fresh(self, false, m);
        Ok(HprCiphertext::new(vec![b, a], Some(sk.id())).with_noise(noise))
    }

    /// x = c_{0,d-1} + c_{1,d-1} s (+ c_{2,d-1} s^2) over P: the top digits only (k NTTs and k
    /// inverse NTTs per part past the first; Lemma 1).
    pub(in crate::hpr) fn top_phase(&self, sk: &HprSecretKey, ct: &HprCiphertext) -> Result<Poly> {
        let (n, k) = (self.n(), self.basis.k());
        let s = &sk.s_p;
        let top = |part: &Digits| -> Result<Poly> {
            let last = part
                .last()
                .ok_or_else(|| Error::InvalidCiphertext("no digits".into()))?;
            Ok(Poly::from_residues(
                &self.ring_p,
                last.residues()[..k * n].to_vec(),
                Representation::Coefficient,
            )?)
        };
        let parts = ct.parts();
        let mut acc: Option<Poly> = None;
        for (i, part) in parts.iter().enumerate().skip(1) {
            let mut x = top(part)?;
            depth::fwd(&mut x)?;
            for _ in 0..i {
                x.mul_assign(s)?;
            }
            match acc.as_mut() {
                Some(a) => a.add_assign(&x)?,
                None => acc = Some(x),
            }
        }
        let mut x =
            acc.ok_or_else(|| Error::InvalidCiphertext("a ciphertext has 2 or 3 parts".into()))?;
        depth::inv(&mut x)?;
        x.add_assign(&top(&parts[0])?)?;
        Ok(x)
    }

    /// Decryption, Bajard et al. (HPR-FV, ePrint 2019/500) Alg. 1: from the top digits only, r = -FBE(|gamma t x|_p, P, {gamma t})
    /// / p mod gamma t (eq. (10)), then m = (r - \[r]_gamma) / gamma mod t (Lemma 2; exact while the
    /// noise satisfies (11); past it the result is garbage, which [`HprContext::decrypt_checked`]
    /// refuses).
    pub fn decrypt(&self, sk: &HprSecretKey, ct: &HprCiphertext) -> Result<Vec<u64>> {
        KeyId::check(ct.id(), sk.id(), "secret key")?;
        self.check_ct(ct)?;
        self.decrypt_phase(&self.top_phase(sk, ct)?)
    }

    /// Steps 1-3 of Alg. 1 on a top phase x (over P).
    pub(in crate::hpr) fn decrypt_phase(&self, x: &Poly) -> Result<Vec<u64>> {
        let n = self.n();
        let mut r = vec![0u64; n];
        self.conv_gt.convert(x.residues(), &mut r)?;
        let (gt, t) = (&self.gt, self.params.plain_modulus());
        let g = self.log_gamma;
        let mask = (1u64 << g) - 1;
        let half = 1u64 << (g - 1);
        Ok(r.iter()
            .map(|&v| {
                let r = gt.mul(v, self.neg_inv_p_gt);
                let low = r & mask;
                // (r - [r]_gamma) / gamma with the centred [r]_gamma, modulo t.
                let up = (r >> g) + u64::from(low >= half);
                up % t
            })
            .collect())
    }
}
