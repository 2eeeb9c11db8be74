//! The HPR-FV context: precomputation, keys, encryption and decryption (paper 002 section 3).

use std::sync::Arc;

use num_bigint::BigInt;
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::rns::{BaseConverter, FastBaseConverter, HprBasis, RnsBasis, ScaleAndRound};
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

    /// Carry propagation over coefficient-form digits (paper 002 eq. (6)).
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

    /// The public key (-(a s + e), a) (paper 002 section 2.1), stored in NTT form.
    pub fn public_key(&self, sk: &HprSecretKey, rng: &mut Csprng) -> Result<HprPublicKey> {
        let (mut b, mut a) = self.rlwe_sample(sk, None, rng)?;
        b.iter_mut()
            .chain(a.iter_mut())
            .try_for_each(super::depth::fwd)?;
        Ok(HprPublicKey { b, a, id: sk.id() })
    }

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
    pub(super) fn delta_times(&self, m: &[u64]) -> Result<Digits> {
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
        super::depth::fwd(&mut u)?;
        let mut parts = Vec::with_capacity(2);
        for (i, key) in [&pk.b, &pk.a].into_iter().enumerate() {
            let mut c = Vec::with_capacity(key.len());
            for kj in key {
                let mut x = kj.mul(&u)?;
                super::depth::inv(&mut x)?;
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
    pub(super) fn top_phase(&self, sk: &HprSecretKey, ct: &HprCiphertext) -> Result<Poly> {
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
            super::depth::fwd(&mut x)?;
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
        super::depth::inv(&mut x)?;
        x.add_assign(&top(&parts[0])?)?;
        Ok(x)
    }

    /// Decryption, paper 002 Alg. 1: from the top digits only, r = -FBE(|gamma t x|_p, P, {gamma t})
    /// / p mod gamma t (eq. (10)), then m = (r - [r]_gamma) / gamma mod t (Lemma 2; exact while the
    /// noise satisfies (11); past it the result is garbage, which [`HprContext::decrypt_checked`]
    /// refuses).
    pub fn decrypt(&self, sk: &HprSecretKey, ct: &HprCiphertext) -> Result<Vec<u64>> {
        KeyId::check(ct.id(), sk.id(), "secret key")?;
        self.check_ct(ct)?;
        self.decrypt_phase(&self.top_phase(sk, ct)?)
    }

    /// Steps 1-3 of Alg. 1 on a top phase x (over P).
    pub(super) fn decrypt_phase(&self, x: &Poly) -> Result<Vec<u64>> {
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
