//! BGV encryption (public-key, and symmetric with a seeded a; errors scaled by t), the phase, and
//! decryption with its noise verdict and the measured noise budget.

use num_bigint::BigInt;
use num_traits::Signed;
use rnsfhe_math::ring::{Form, Poly};
use rnsfhe_math::sample::Csprng;

use super::BgvContext;
use crate::bgv::{BgvCiphertext, BgvPlaintext};
use crate::rlwe::{expand_seeded, reduce_product, KeyId, Parts, PublicKey, SecretKey};
use crate::{Error, Result};

impl BgvContext {
    /// (t c_0 + [m]_t, t c_1) for an encryption of zero (c_0, c_1) over the top level, NTT form
    /// (Montgomery: entered here, as (t c_0 + [m]_t) M, t c_1 M); `seed`: the seed c_1 was expanded
    /// from (symmetric encryption).
    fn finish_encryption(
        &self,
        c0: Poly,
        c1: Poly,
        pt: &BgvPlaintext,
        seed: Option<[u8; 32]>,
    ) -> Result<Parts> {
        let mut c0 = self.enter_top(c0)?;
        c0.add_assign(&self.lift_plain(pt, self.max_level())?)?;
        let c1 = self.enter_top(c1)?;
        Ok(match seed {
            Some(seed) => Parts::seeded(c0, c1, seed),
            None => vec![c0, c1].into(),
        })
    }

    /// t c, NTT form (Montgomery: t c M), for a part c of a top-level encryption of zero.
    fn enter_top(&self, mut c: Poly) -> Result<Poly> {
        c.to_ntt()?;
        self.mul_t(&mut c, self.max_level())?;
        if self.montgomery {
            c = c.to_montgomery()?;
        }
        Ok(c)
    }

    /// c_1 of a symmetric encryption from its seed (the bits [`Self::encrypt_symmetric`] gives
    /// it), for seeded bytes.
    pub(crate) fn seeded_c1(&self, seed: &[u8; 32]) -> Result<Poly> {
        self.enter_top(expand_seeded(self.ring_at(self.max_level())?, seed)?)
    }

    /// Public-key encryption: t (p_0 u + e_0, p_1 u + e_1) + (\[m]_t, 0) (errors scaled by t).
    pub fn encrypt(
        &self,
        pt: &BgvPlaintext,
        pk: &PublicKey,
        rng: &mut Csprng,
    ) -> Result<BgvCiphertext> {
        self.check_plain(pt)?;
        self.check_public(pk)?;
        let (c0, c1) = pk.encrypt_zero(&self.sw, self.params.secret, &self.gaussian, rng)?;
        let parts = self.finish_encryption(c0, c1, pt, None)?;
        let noise = self.noise.fresh(true, self.t.value(), pt);
        Ok(self.ciphertext(parts, self.max_level(), Some(pk.id()), Some(noise)))
    }

    /// Symmetric encryption: t (-a s + e, a) + (\[m]_t, 0), a from a seed kept in the ciphertext
    /// (half-size bytes until an operation changes a).
    pub fn encrypt_symmetric(
        &self,
        pt: &BgvPlaintext,
        sk: &SecretKey,
        rng: &mut Csprng,
    ) -> Result<BgvCiphertext> {
        self.check_plain(pt)?;
        self.check_secret(sk)?;
        let (c0, c1, seed) = sk.encrypt_zero(&self.gaussian, rng)?;
        let parts = self.finish_encryption(c0, c1, pt, Some(seed))?;
        let noise = self.noise.fresh(false, self.t.value(), pt);
        Ok(self.ciphertext(parts, self.max_level(), Some(sk.id()), Some(noise)))
    }

    /// The phase [c(s)]_{Q_l} = c_0 + c_1 s + c_2 s^2, coefficient form over level l (Montgomery: the
    /// sum is (c(s)) M, left by a Montgomery reduction, Bajard et al. (SAC 2017) section 4).
    pub fn phase(&self, ct: &BgvCiphertext, sk: &SecretKey) -> Result<Poly> {
        self.check_ct(ct)?;
        self.check_secret(sk)?;
        KeyId::check(ct.key_id, sk.id(), "secret key")?;
        let mut s = sk.ntt_at(self.ring_at(ct.level)?)?;
        if self.montgomery {
            s.relabel_form(Form::Montgomery)?; // the key's residues are s M
        }
        let mut acc = ct.parts[0].clone();
        let mut power = s.clone();
        for (i, c) in ct.parts[1..].iter().enumerate() {
            if i > 0 {
                power.mul_assign(&s)?;
                reduce_product(&mut power)?;
            }
            acc.add_assign(&c.mul(&power)?)?;
        }
        acc.to_coefficient()?;
        if self.montgomery {
            return Ok(acc.from_montgomery()?);
        }
        Ok(acc)
    }

    /// [x]_{Q_l} mod t for the phase x and the largest |[x]_{Q_l}| / Q_l (to about k 2^-52).
    fn reduce_phase(&self, x: &Poly, level: usize) -> Result<(Vec<u64>, f64)> {
        let ring = x.context();
        let n = ring.degree();
        let tab = &self.levels[level];
        let basis = ring.basis();
        let t = &self.t;
        let mut frac = vec![0f64; n];
        let mut acc = vec![0u64; n];
        for (i, (limb, q)) in x.residues().chunks_exact(n).zip(basis.moduli()).enumerate() {
            let w = basis.inv_punctured_products()[i];
            let qf = q.value() as f64;
            for ((f, a), &xi) in frac.iter_mut().zip(acc.iter_mut()).zip(limb) {
                let y = q.mul_shoup(xi, w);
                *f += y as f64 / qf;
                *a = t.add(*a, t.mul(t.reduce(y), tab.q_over_qi_t[i]));
            }
        }
        let mut worst = 0f64;
        for (a, &f) in acc.iter_mut().zip(&frac) {
            let v = f.round();
            worst = worst.max((f - v).abs());
            *a = t.sub(*a, t.mul(t.reduce(v as u64), tab.q_t));
        }
        Ok((acc, worst))
    }

    /// Decrypts: [[c(s)]_{Q_l}]_t. Refused with `NoiseBudgetExhausted` when the phase may have
    /// wrapped past Q_l / 2: a measured ||x|| >= Q_l / 4, a carried bound >= Q_l / 2, or a measurement
    /// above the carried bound (see `noise.rs`).
    pub fn decrypt(&self, ct: &BgvCiphertext, sk: &SecretKey) -> Result<BgvPlaintext> {
        self.decrypt_phase(ct, &self.phase(ct, sk)?)
    }

    /// [`Self::decrypt`] of a phase x = [c(s)]_{Q_l} of `ct` computed elsewhere (coefficient form,
    /// plain): collective decryption (`crate::multiparty`) adds the parties' shares to c_0.
    pub(crate) fn decrypt_phase(&self, ct: &BgvCiphertext, x: &Poly) -> Result<BgvPlaintext> {
        let (m, worst) = self.reduce_phase(x, ct.level)?;
        if let Some(why) = self.verdict(ct, worst) {
            let switch = match self.params.modulus_switching() {
                crate::bgv::ModulusSwitching::Auto => "",
                crate::bgv::ModulusSwitching::Manual => {
                    " switch the modulus after each product (mod_switch, or ModulusSwitching::Auto),"
                }
            };
            return Err(Error::NoiseBudgetExhausted(format!(
                "{why}, so the decryption may be wrong; use more or larger moduli,{switch} or fewer \
                 multiplications"
            )));
        }
        Ok(self.plaintext(m))
    }

    /// Why the phase of relative size `worst` (||x|| / Q_l) may not decrypt right, if it may not.
    fn verdict(&self, ct: &BgvCiphertext, worst: f64) -> Option<String> {
        let k = (ct.level + 1) as f64;
        if worst >= 0.25 {
            return Some(format!("||[c(s)]_q|| / q = {worst:.3} >= 1/4"));
        }
        let [b, _] = ct.noise?;
        let log_q = self.log_q_at(ct.level);
        let rel = (b - log_q).exp2();
        if rel >= 0.5 - k * 2f64.powi(-50) {
            return Some(format!(
                "the noise bound carried by the ciphertext is 2^{b:.1}, not below Q_l / 2 = 2^{:.1}",
                log_q - 1.0
            ));
        }
        if worst > rel * (1.0 + 1e-9) + k * 2f64.powi(-50) {
            return Some(format!(
                "the measured phase 2^{:.1} exceeds the carried bound 2^{b:.1}",
                worst.log2() + log_q
            ));
        }
        None
    }

    pub(crate) fn log_q_at(&self, level: usize) -> f64 {
        crate::params::log2_product(&self.params.moduli[..=level])
    }

    /// The noise budget in bits: log2(Q_l / 2) - log2 ||[c(s)]_{Q_l}||_inf measured exactly, 0 when
    /// decryption would be refused.
    pub fn noise_budget(&self, ct: &BgvCiphertext, sk: &SecretKey) -> Result<f64> {
        let x = self.phase(ct, sk)?;
        let (_, worst) = self.reduce_phase(&x, ct.level)?;
        if self.verdict(ct, worst).is_some() {
            return Ok(0.0);
        }
        let mut max = BigInt::from(0);
        let basis = x.context().basis();
        let n = x.context().degree();
        let k = ct.level + 1;
        for j in 0..n {
            let r: Vec<u64> = (0..k).map(|i| x.residues()[i * n + j]).collect();
            let v = basis.compose_centered(&r)?.abs();
            if v > max {
                max = v;
            }
        }
        let lg = crate::params::log2_big(&max);
        Ok((self.log_q_at(ct.level) - 1.0 - lg).max(0.0))
    }
}
