//! The BGV context: precomputation, keys, encoding, encryption and decryption.

use std::sync::Arc;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::ring::cyclotomic::{montgomery_inverse, reduction_expansion, SlotAlgebra};
use rnsfhe_math::ring::{Form, Poly, RingContext};
use rnsfhe_math::sample::{Csprng, DiscreteGaussian, DEFAULT_TAIL};

use super::noise::NoiseModel;
use super::{BgvCiphertext, BgvParameters, BgvPlaintext};
use crate::encoding::Encoders;
use crate::rlwe::{
    expand_seeded, reduce_product, KeyId, KeySwitcher, Levels, ModulusChain, Parts, PublicKey,
    SecretKey,
};
use crate::{Error, Result};

/// Decryption constants of one level: x = sum_i y_i (Q_l / q_i) - v Q_l with
/// y_i = [x_i (Q_l / q_i)^-1]_{q_i} and v = round(sum_i y_i / q_i), so [x]_{Q_l} mod t needs
/// [Q_l / q_i]_t and [Q_l]_t only.
#[derive(Debug)]
pub(crate) struct LevelTables {
    q_over_qi_t: Vec<u64>,
    q_t: u64,
}

/// Everything a BGV parameter set precomputes; create once with [`BgvContext::new`] and share.
///
/// # Example
///
/// A product, then a modulus switch that drops one prime of the chain (q_l = 1 mod t, paper 001
/// Lemma 3) and keeps the plaintext (toy, insecure size):
///
/// ```
/// use rnsfhe::bgv::{BgvContext, BgvParameters};
/// use rnsfhe::params::Security;
/// use rnsfhe_math::sample::Csprng;
///
/// # fn main() -> rnsfhe::Result<()> {
/// let t = 65537;
/// let params = BgvParameters::builder()
///     .degree(1024)
///     .plain_modulus(t)
///     .moduli_bits(&[40, 40, 40])
///     .special_moduli_bits(&[45])
///     .security(Security::InsecureResearchOnly)
///     .build()?;
/// let ctx = BgvContext::new(params)?;
/// let mut rng = Csprng::from_seed([2; 32]);
/// let (sk, pk) = ctx.keygen(&mut rng)?;
/// let rlk = ctx.relin_key(&sk, &mut rng)?;
///
/// let a: Vec<u64> = (0..1024).map(|i| 7 * i + 2).collect();
/// let ca = ctx.encrypt(&ctx.encode(&a)?, &pk, &mut rng)?;
/// let sq = ctx.multiply(&ca, &ca, &rlk)?;
/// let low = ctx.mod_switch(&sq)?;
/// assert_eq!(low.level(), sq.level() - 1);
///
/// let got = ctx.decode(&ctx.decrypt(&low, &sk)?)?;
/// let want: Vec<u64> = a.iter().map(|x| x * x % t).collect();
/// assert_eq!(got, want);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct BgvContext {
    /// The parameter set's fingerprint: ciphertexts, plaintexts and keys carry it, and any context of
    /// equal parameters accepts them (in any process).
    pub(super) fingerprint: u64,
    pub(super) params: BgvParameters,
    pub(super) sw: KeySwitcher,
    chain: ModulusChain,
    pub(super) gaussian: DiscreteGaussian,
    encoders: Encoders,
    t: Modulus,
    pub(crate) levels: Vec<LevelTables>,
    pub(crate) noise: NoiseModel,
    /// Ciphertexts held as c M (paper 001 section 4.2).
    pub(crate) montgomery: bool,
}

fn big_mod(x: &num_bigint::BigUint, m: u64) -> u64 {
    (x % m).to_u64().unwrap_or(0)
}

impl BgvContext {
    /// Builds all tables for `params`.
    pub fn new(params: BgvParameters) -> Result<Arc<Self>> {
        let n = params.degree;
        let t = params.plain_modulus;
        let rings = Levels::of(
            n,
            params.cyclotomic.map(|m| (m, params.reduction)),
            &params.moduli,
            &params.special_moduli,
        )?;
        let sw = KeySwitcher::on(Arc::clone(&rings), params.key_switching)?;
        let chain = ModulusChain::on(rings, t)?;
        let mut levels = Vec::with_capacity(chain.levels());
        for l in 0..chain.levels() {
            let basis = chain.ring_at(l)?.basis();
            levels.push(LevelTables {
                q_over_qi_t: basis
                    .punctured_products()
                    .iter()
                    .map(|p| big_mod(p, t))
                    .collect(),
                q_t: big_mod(basis.product(), t),
            });
        }
        // Products in a general Phi_m grow by the reduction's expansion (paper 001 Lemma 4).
        let expansion = match params.cyclotomic {
            Some(_) => reduction_expansion(sw.ring_q().phi())?,
            None => 1.0,
        };
        // Montgomery: the rounding terms of switches are multiplied by M^-1 (eq. (13)); with the
        // products' expansion rho, ||r M^-1|| <= rho ||M^-1||_2 ||r||_2 (a heuristic sd factor).
        let montgomery = params.is_montgomery();
        let m_inv = if montgomery {
            let x = montgomery_inverse(params.cyclotomic_index())?;
            let l2: f64 = x
                .iter()
                .map(|c| c.to_f64().unwrap_or(f64::INFINITY).powi(2))
                .sum();
            expansion.max(1.0) * l2.sqrt()
        } else {
            1.0
        };
        let noise = NoiseModel::new(
            n,
            expansion,
            t,
            params.sigma,
            params.secret,
            (params.special_moduli.len(), m_inv),
            |s, z, l1| sw.noise_log2(s, z, l1),
        );
        let encoders = Encoders::new(n, t, params.cyclotomic, params.batching_slots() > 0)?;
        Ok(Arc::new(BgvContext {
            fingerprint: params.fingerprint(),
            gaussian: DiscreteGaussian::new(params.sigma, DEFAULT_TAIL)?,
            t: Modulus::new(t)?,
            params,
            sw,
            chain,
            encoders,
            levels,
            noise,
            montgomery,
        }))
    }

    /// The parameters.
    pub fn params(&self) -> &BgvParameters {
        &self.params
    }
    /// The parameter set's fingerprint (`crate::serialize::fingerprint` of what defines its rings and
    /// chain): the identity of the context, carried by its ciphertexts, plaintexts and keys.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
    /// The modulus chain (per-level rings and switching constants).
    pub fn chain(&self) -> &ModulusChain {
        &self.chain
    }
    /// The top level L.
    pub fn max_level(&self) -> usize {
        self.chain.levels() - 1
    }
    /// The ring of level l.
    pub fn ring_at(&self, level: usize) -> Result<&Arc<RingContext>> {
        self.chain.ring_at(level)
    }
    /// Key-switching precomputation.
    pub fn key_switcher(&self) -> &KeySwitcher {
        &self.sw
    }
    pub(crate) fn t(&self) -> &Modulus {
        &self.t
    }
    /// The number of batching slots (0 when t does not allow batching).
    pub fn slots(&self) -> usize {
        self.encoders.slot_count()
    }

    /// The slot algebra of a general Phi_m ring (l slots of GF(t^d), paper 001 section 2.4).
    pub fn slot_algebra(&self) -> Result<&SlotAlgebra> {
        self.encoders.slot_algebra()
    }

    /// Encodes l slots of GF(t^d), each d coefficients in [0, t) (general Phi_m).
    pub fn encode_slots(&self, slots: &[Vec<u64>]) -> Result<BgvPlaintext> {
        Ok(self.plaintext(self.slot_algebra()?.encode(slots)?))
    }

    /// The l slots of GF(t^d) of a plaintext (general Phi_m).
    pub fn decode_slots(&self, pt: &BgvPlaintext) -> Result<Vec<Vec<u64>>> {
        self.check_plain(pt)?;
        Ok(self.slot_algebra()?.decode(&pt.coeffs)?)
    }

    pub(crate) fn check_ct(&self, ct: &BgvCiphertext) -> Result<()> {
        crate::params::check_ciphertext(ct.fingerprint, self.fingerprint, ct.parts.len())?;
        let ring = self.ring_at(ct.level)?;
        if ct.parts.iter().any(|p| !Arc::ptr_eq(p.context(), ring)) {
            return Err(Error::Internal(
                "a BGV ciphertext's parts are not over the ring of its level".into(),
            ));
        }
        let form = if self.montgomery {
            Form::Montgomery
        } else {
            Form::Plain
        };
        if ct.parts.iter().any(|p| p.montgomery_form() != form) {
            return Err(Error::Internal(format!(
                "a BGV ciphertext's parts are not in the {form:?} form of its parameters"
            )));
        }
        Ok(())
    }

    /// [m]_t lifted centred to level l, NTT form.
    pub(crate) fn lift_plain(&self, pt: &BgvPlaintext, level: usize) -> Result<Poly> {
        self.check_plain(pt)?;
        let centered: Vec<i64> = pt.coeffs.iter().map(|&c| self.t.center(c)).collect();
        let mut p = Poly::from_signed(self.ring_at(level)?, &centered)?;
        p.to_ntt()?;
        if self.montgomery {
            return Ok(p.to_montgomery()?);
        }
        Ok(p)
    }

    pub(crate) fn ciphertext(
        &self,
        parts: impl Into<Parts>,
        level: usize,
        key_id: Option<KeyId>,
        noise: Option<[f64; 2]>,
    ) -> BgvCiphertext {
        BgvCiphertext {
            parts: parts.into(),
            level,
            fingerprint: self.fingerprint,
            key_id,
            noise,
        }
    }

    /// A ciphertext from its polynomials over the ring of one level (any representation; at least
    /// 2), of key pair `key_id`. For tests, deserialisation and trivial ciphertexts ([m]_t + t v, 0).
    /// Montgomery parameter sets: parts in the plain form are converted to c M (their values kept);
    /// parts already in Montgomery form are taken as they are.
    pub fn ciphertext_from_parts(
        &self,
        parts: Vec<Poly>,
        key_id: Option<KeyId>,
    ) -> Result<BgvCiphertext> {
        let first = parts.first().ok_or_else(|| {
            Error::InvalidCiphertext("a ciphertext has at least 2 parts, got 0".into())
        })?;
        let level = self.chain.level_of(first.context()).ok_or_else(|| {
            Error::ContextMismatch("ciphertext polynomials must be over a level's ring".into())
        })?;
        let mut out = Vec::with_capacity(parts.len());
        for mut p in parts {
            if !Arc::ptr_eq(p.context(), first_ring(&out, self.ring_at(level)?)) {
                return Err(Error::ContextMismatch(
                    "ciphertext polynomials must be over one level's ring".into(),
                ));
            }
            p.to_ntt()?;
            if self.montgomery && p.montgomery_form() == Form::Plain {
                p = p.to_montgomery()?;
            }
            out.push(p);
        }
        let ct = self.ciphertext(out, level, key_id, None);
        self.check_ct(&ct)?;
        Ok(ct)
    }

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

    /// Public-key encryption: t (p_0 u + e_0, p_1 u + e_1) + ([m]_t, 0) (errors scaled by t).
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

    /// Symmetric encryption: t (-a s + e, a) + ([m]_t, 0), a from a seed kept in the ciphertext
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

    /// x *= t modulo Q_level.
    pub(crate) fn mul_t(&self, x: &mut Poly, level: usize) -> Result<()> {
        self.ring_at(level)?;
        self.chain.mul_t(x);
        Ok(())
    }

    /// The phase [c(s)]_{Q_l} = c_0 + c_1 s + c_2 s^2, coefficient form over level l (Montgomery: the
    /// sum is (c(s)) M, left by a Montgomery reduction, paper 001 section 4).
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
                super::ModulusSwitching::Auto => "",
                super::ModulusSwitching::Manual => {
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

fn first_ring<'a>(out: &'a [Poly], ring: &'a Arc<RingContext>) -> &'a Arc<RingContext> {
    out.first().map_or(ring, |p| p.context())
}

crate::encoding::integer_encoding_methods!(BgvContext, BgvPlaintext);
