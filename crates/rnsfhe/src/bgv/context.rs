//! The BGV context: precomputation, keys, encoding and ciphertexts; encryption and decryption in
//! [`encryption`].

mod encryption;

use std::sync::Arc;

use num_traits::ToPrimitive;
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::ring::cyclotomic::{montgomery_inverse, reduction_expansion};
use rnsfhe_math::ring::{Form, Poly, RingContext};
use rnsfhe_math::sample::{DiscreteGaussian, DEFAULT_TAIL};

use super::noise::NoiseModel;
use super::{BgvCiphertext, BgvParameters, BgvPlaintext};
use crate::encoding::Encoders;
use crate::rlwe::{KeyId, KeySwitcher, Levels, ModulusChain, Parts};
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
/// A product, then a modulus switch that drops one prime of the chain (q_l = 1 mod t, Bajard et al. (SAC 2017)
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
    /// Ciphertexts held as c M (Bajard et al. (SAC 2017) section 4.2).
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
        // Products in a general Phi_m grow by the reduction's expansion (Bajard et al. (SAC 2017) Lemma 4).
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
    /// 2), of key pair `key_id`. For tests, deserialisation and trivial ciphertexts (\[m]_t + t v, 0).
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

    /// x *= t modulo Q_level.
    pub(crate) fn mul_t(&self, x: &mut Poly, level: usize) -> Result<()> {
        self.ring_at(level)?;
        self.chain.mul_t(x);
        Ok(())
    }
}

fn first_ring<'a>(out: &'a [Poly], ring: &'a Arc<RingContext>) -> &'a Arc<RingContext> {
    out.first().map_or(ring, |p| p.context())
}

crate::encoding::integer_encoding_methods!(BgvContext, BgvPlaintext);
