//! The HPR-FV context: precomputation and keys (Bajard et al. (HPR-FV, ePrint 2019/500) section 3); encryption and decryption in
//! [`encryption`].

mod encryption;

use std::sync::Arc;

use num_bigint::BigInt;
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::rns::{FastBaseConverter, HprBasis, RnsBasis, ScaleAndRound};
use rnsfhe_math::sample::{ternary, Csprng, DiscreteGaussian};
use zeroize::Zeroizing;

use super::noise::NoiseModel;
use super::{HprCiphertext, HprParameters};
use crate::rlwe::KeyId;
use crate::{Error, Result};

/// An HPR polynomial: d digits over P u B_sk (one [`Poly`] each), least significant first.
pub type Digits = Vec<Poly>;

/// Precomputed tables of one parameter set.
///
/// # Example
///
/// Plaintexts are polynomials with coefficients in [0, t) (batch them with
/// [`crate::encoding::BatchEncoder`]); here (1 + 2X)(3 + X) = 3 + 7X + 2X^2, with q = p^2 over one
/// 50-bit prime per digit (toy, insecure size):
///
/// ```
/// use rnsfhe::hpr::{HprContext, HprParameters, Relinearization};
/// use rnsfhe::params::Security;
/// use rnsfhe_math::sample::Csprng;
///
/// # fn main() -> rnsfhe::Result<()> {
/// let (n, t) = (1024, 65537);
/// // degree, t, k primes per digit, d digits, bits per prime, sigma, security
/// let params = HprParameters::new(n, t, 1, 2, 50, 3.2, Security::InsecureResearchOnly)?;
/// let ctx = HprContext::new(&params)?;
/// let mut rng = Csprng::from_seed([4; 32]);
/// let sk = ctx.secret_key(&mut rng)?;
/// let pk = ctx.public_key(&sk, &mut rng)?;
/// let rlk = ctx.relin_key(&sk, Relinearization::PerResidue, &mut rng)?;
///
/// let mut a = vec![0; n];
/// let mut b = vec![0; n];
/// (a[0], a[1], b[0], b[1]) = (1, 2, 3, 1);
/// let ca = ctx.encrypt(&pk, &a, &mut rng)?;
/// let cb = ctx.encrypt(&pk, &b, &mut rng)?;
/// let got = ctx.decrypt(&sk, &ctx.mul(&ca, &cb, &rlk)?)?;
/// assert_eq!(got[..4], [3, 7, 2, 0]);
/// assert!(got[4..].iter().all(|&c| c == 0));
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct HprContext {
    pub(super) params: HprParameters,
    pub(super) basis: HprBasis,
    /// The ring over P u B_sk (2k + 1 moduli) every digit lives in.
    pub(super) ring: Arc<RingContext>,
    /// The ring over P (decryption).
    pub(super) ring_p: Arc<RingContext>,
    /// The levels `ring` and `ring_p` belong to (kept alive for other contexts of these parameters).
    _levels: Arc<crate::rlwe::Levels>,
    /// Delta = floor(q / t) as d digits, each as residues over P u B_sk.
    pub(super) delta: Vec<Vec<u64>>,
    /// Alg. 1: gamma = 2^log_gamma, FastBconv(|gamma t x|_p, P, {gamma t}) and |-p^-1|_{gamma t}.
    log_gamma: u32,
    gt: Modulus,
    conv_gt: FastBaseConverter,
    neg_inv_p_gt: u64,
    pub(super) gaussian: DiscreteGaussian,
    /// ||[t x]_p|| / p of a top phase x (the noise measurement of `noise.rs`).
    pub(super) frac_p: ScaleAndRound,
    pub(super) noise_model: NoiseModel,
}

/// An HPR-FV secret key: ternary s, in NTT form over P u B_sk.
#[derive(Debug)]
pub struct HprSecretKey {
    coeffs: Zeroizing<Vec<i64>>,
    pub(super) s: Poly,
    /// s in NTT form over P (decryption).
    s_p: Poly,
    id: KeyId,
}

impl HprSecretKey {
    /// The identity of the key pair.
    pub fn id(&self) -> KeyId {
        self.id
    }

    /// The signed coefficients of s.
    pub fn coefficients(&self) -> &[i64] {
        &self.coeffs
    }
}

/// An HPR-FV public key ([-(a s + e)]_q, a), both as d carried digits in NTT form.
#[derive(Clone, Debug)]
pub struct HprPublicKey {
    pub(crate) b: Digits,
    pub(crate) a: Digits,
    id: KeyId,
}

impl HprPublicKey {
    pub(crate) fn from_parts(b: Digits, a: Digits, id: KeyId) -> Self {
        HprPublicKey { b, a, id }
    }

    /// The identity of the key pair.
    pub fn id(&self) -> KeyId {
        self.id
    }
}

impl HprContext {
    /// Builds the tables of `params`.
    pub fn new(params: &HprParameters) -> Result<Arc<Self>> {
        let basis = HprBasis::new(params.p_moduli(), params.b_sk_moduli())?;
        let moduli: Vec<u64> = basis.full().moduli().iter().map(|m| m.value()).collect();
        let n = params.degree();
        // Shared with every HPR context of equal parameters (`crate::rlwe::Levels`): their keys and
        // ciphertexts are each other's.
        let levels = crate::rlwe::Levels::new(n, &moduli, &[])?;
        let ring = Arc::clone(levels.ring_qp());
        let k = basis.k();
        let ring_p = Arc::clone(
            levels
                .ring_at(k - 1)
                .ok_or_else(|| Error::Internal("an HPR basis with no prime in P".into()))?,
        );
        let (t, d) = (params.plain_modulus(), params.digits());
        let delta_int = params.q() / t;
        let delta = basis
            .digits_of(&delta_int, d)
            .iter()
            .map(|x| basis.residues_of(&BigInt::from(x.clone())))
            .collect();
        // Lemma 2 needs gamma > k / 2; the loss k / gamma in (11) is 2^-log_gamma k: take gamma as
        // large as keeps gamma t below 2^61, at most 2^30.
        let t_bits = 64 - t.leading_zeros();
        let log_gamma = 61u32.saturating_sub(t_bits).min(30);
        if (1u64 << log_gamma) <= k as u64 {
            return Err(Error::InvalidParameters(format!(
                "t = {t} is too large for HPR decryption (gamma t must fit 61 bits with gamma > k)"
            )));
        }
        let gt = Modulus::new(t << log_gamma)?;
        let conv_gt =
            FastBaseConverter::with_factor(basis.p(), &RnsBasis::new(&[gt.value()])?, gt.value());
        let p_mod = (basis.p().product() % gt.value())
            .iter_u64_digits()
            .next()
            .unwrap_or(0);
        let neg_inv_p_gt = gt.neg(gt.inv(p_mod)?);
        let frac_p = ScaleAndRound::to_plain(basis.p(), t, true)?;
        let noise_model = NoiseModel::new(params, &basis, log_gamma);
        Ok(Arc::new(HprContext {
            params: params.clone(),
            basis,
            ring,
            ring_p,
            _levels: levels,
            delta,
            log_gamma,
            gt,
            conv_gt,
            neg_inv_p_gt,
            gaussian: DiscreteGaussian::new(params.sigma(), 6.0)?,
            frac_p,
            noise_model,
        }))
    }

    /// The parameters.
    pub fn params(&self) -> &HprParameters {
        &self.params
    }

    /// The digit bases and carry tables.
    pub fn basis(&self) -> &HprBasis {
        &self.basis
    }

    /// The ring over P u B_sk.
    pub fn ring(&self) -> &Arc<RingContext> {
        &self.ring
    }

    /// The ring over P alone.
    pub fn ring_p(&self) -> &Arc<RingContext> {
        &self.ring_p
    }

    pub(super) fn n(&self) -> usize {
        self.params.degree()
    }

    /// A digit from signed coefficients (coefficient form).
    pub(super) fn digit_signed(&self, c: &[i64]) -> Result<Poly> {
        Ok(Poly::from_signed(&self.ring, c)?)
    }

    /// d zero digits in `form`.
    pub(super) fn zero_digits(&self, form: Representation) -> Digits {
        (0..self.params.digits())
            .map(|_| Poly::zero(&self.ring, form))
            .collect()
    }

    /// Carry propagation over coefficient-form digits (Bajard et al. (HPR-FV, ePrint 2019/500) eq. (6)).
    pub(super) fn propagate(&self, digits: &mut [Poly]) -> Result<()> {
        let mut refs: Vec<&mut [u64]> = digits.iter_mut().map(|p| p.residues_mut()).collect();
        Ok(self.basis.propagate(&mut refs)?)
    }

    /// A uniform element of R_q: uniform digits modulo p (their B_sk residues from the FBE).
    pub(super) fn uniform(&self, rng: &mut Csprng) -> Result<Digits> {
        let n = self.n();
        (0..self.params.digits())
            .map(|_| {
                let mut data = rng.uniform_poly(self.basis.full().moduli(), n);
                self.basis.normalize(&mut data)?;
                Ok(Poly::from_residues(
                    &self.ring,
                    data,
                    Representation::Coefficient,
                )?)
            })
            .collect()
    }

    /// Generates a ternary secret key.
    pub fn secret_key(&self, rng: &mut Csprng) -> Result<HprSecretKey> {
        self.secret_key_from(ternary(rng, self.n()))
    }

    /// A secret key from given coefficients in {-1, 0, 1} (tests, import).
    pub fn secret_key_from(&self, coeffs: Zeroizing<Vec<i64>>) -> Result<HprSecretKey> {
        if coeffs.len() != self.n() || coeffs.iter().any(|c| c.abs() > 1) {
            return Err(Error::OutOfRange(format!(
                "an HPR secret key has n = {} coefficients in {{-1, 0, 1}}",
                self.n()
            )));
        }
        let mut s = self.digit_signed(&coeffs)?;
        super::depth::fwd(&mut s)?;
        let id = KeyId::of_ternary_secret(&coeffs);
        let k = self.basis.k();
        let s_p = Poly::from_residues(
            &self.ring_p,
            s.residues()[..k * self.n()].to_vec(),
            Representation::Ntt,
        )?;
        Ok(HprSecretKey { coeffs, s, s_p, id })
    }

    /// [-(a s + e) + m]_q with a uniform: an RLWE sample masking `m` (carried digits, coefficient
    /// form) under s; returns (b, a) carried, coefficient form. The building block of every key.
    pub(super) fn rlwe_sample(
        &self,
        sk: &HprSecretKey,
        m: Option<&[Poly]>,
        rng: &mut Csprng,
    ) -> Result<(Digits, Digits)> {
        let a = self.uniform(rng)?;
        let mut b = Vec::with_capacity(a.len());
        for ai in &a {
            let mut x = ai.clone();
            super::depth::fwd(&mut x)?;
            x.mul_assign(&sk.s)?;
            super::depth::inv(&mut x)?;
            x.neg_assign();
            b.push(x);
        }
        let e = self.gaussian.sample(rng, self.n());
        b[0].sub_assign(&self.digit_signed(&e)?)?;
        if let Some(m) = m {
            for (bi, mi) in b.iter_mut().zip(m) {
                bi.add_assign(mi)?;
            }
        }
        self.propagate(&mut b)?;
        Ok((b, a))
    }

    /// The public key (-(a s + e), a) (Bajard et al. (HPR-FV, ePrint 2019/500) section 2.1), stored in NTT form.
    pub fn public_key(&self, sk: &HprSecretKey, rng: &mut Csprng) -> Result<HprPublicKey> {
        let (mut b, mut a) = self.rlwe_sample(sk, None, rng)?;
        b.iter_mut()
            .chain(a.iter_mut())
            .try_for_each(super::depth::fwd)?;
        Ok(HprPublicKey { b, a, id: sk.id() })
    }

    /// Checks the shape of a ciphertext against this context.
    pub(crate) fn check_ct(&self, ct: &HprCiphertext) -> Result<()> {
        let d = self.params.digits();
        if !(2..=3).contains(&ct.parts().len()) {
            return Err(Error::InvalidCiphertext(format!(
                "an HPR ciphertext has 2 or 3 parts, got {}",
                ct.parts().len()
            )));
        }
        for part in ct.parts() {
            if part.len() != d {
                return Err(Error::InvalidCiphertext(format!(
                    "an HPR ciphertext part has d = {d} digits, got {}",
                    part.len()
                )));
            }
            for digit in part {
                if digit.context().id() != self.ring.id() {
                    return Err(Error::ContextMismatch(
                        "the ciphertext belongs to another HPR parameter set".into(),
                    ));
                }
                if digit.representation() != Representation::Coefficient {
                    return Err(Error::WrongForm(
                        "HPR ciphertext digits are in coefficient form".into(),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The exact value of an HPR polynomial modulo q, centred (big integers: tests, measurement).
    pub fn compose(&self, digits: &[Poly]) -> Result<Vec<BigInt>> {
        let refs: Vec<&[u64]> = digits.iter().map(|p| p.residues()).collect();
        let q = BigInt::from(self.params.q());
        let half = &q / 2;
        Ok(self
            .basis
            .compose(&refs)?
            .into_iter()
            .map(|v| {
                let mut r = ((v % &q) + &q) % &q;
                if r > half {
                    r -= &q;
                }
                r
            })
            .collect())
    }

    /// A trivial ciphertext (x mod q, 0) of an integer polynomial x (no key; tests and noise
    /// experiments: adding it to an encryption adds x to its noise).
    pub fn trivial(&self, x: &[num_bigint::BigInt]) -> Result<HprCiphertext> {
        let (n, d) = (self.n(), self.params.digits());
        if x.len() != n {
            return Err(Error::LengthMismatch {
                what: "trivial ciphertext coefficients",
                expected: n,
                got: x.len(),
            });
        }
        let q = BigInt::from(self.params.q());
        let mut c0 = self.zero_digits(Representation::Coefficient);
        for (j, v) in x.iter().enumerate() {
            let v = ((v % &q) + &q) % &q;
            let digits = self.basis.digits_of(v.magnitude(), d);
            for (digit, dv) in c0.iter_mut().zip(digits) {
                let res = self.basis.residues_of(&BigInt::from(dv));
                for (i, r) in res.into_iter().enumerate() {
                    digit.residues_mut()[i * n + j] = r;
                }
            }
        }
        self.propagate(&mut c0)?;
        Ok(HprCiphertext::new(
            vec![c0, self.zero_digits(Representation::Coefficient)],
            None,
        ))
    }
}
