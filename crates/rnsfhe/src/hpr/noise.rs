//! HPR-FV noise: a bound carried by every ciphertext, the checked decryption and the exact noise
//! budget (the same decision as BFV's `bfv/noise.rs`, whose notation this follows).
//!
//! With t X / q = m + nu + t w for the phase X = [c_0 + c_1 s (+ c_2 s^2)]_q, the secret key shows
//! the invariant noise nu only modulo 1: a coefficient with |nu_i| > 1/2 looks small. So every
//! ciphertext carries upper bounds I on ||nu||_inf and L on ||nu||_2, and decryption is refused
//! when I reaches the limit of Lemma 2 / condition (11) of Bajard et al. (HPR-FV, ePrint 2019/500) (1/2 - k/gamma minus the
//! top-digit error of Lemma 1), when the measurement reaches 1/4, or when it exceeds I. The bounds
//! are BFV's (fresh heuristics at 10 standard deviations, rigorous sums and plaintext products,
//! the multiplication with HPS's lift of second moment 1/12), with HPR's own terms:
//! - rounding of the product: Lemma 3, ||e_i|| <= B_e + k/2 (eq. (15)), in every part;
//! - key switching: eq. (19), ||e_relin|| <= n d B_err (p_1 + ... + p_k) / 2 per residue, and
//!   n d B_err k p / 2 per digit (Remark 5), worst case.
//!
//! A ciphertext read from bytes or built with `trivial` has no bound: its check is the
//! measurement alone, which a wrapped coefficient can fool.

use num_bigint::{BigInt, BigUint};
use num_traits::{Signed, ToPrimitive, Zero};
use rnsfhe_math::ring::{Poly, Representation};

use rnsfhe_math::rns::HprBasis;

use super::{HprCiphertext, HprContext, HprParameters, HprSecretKey, Relinearization};
use crate::rlwe::log2_add;
use crate::{Error, Result};

/// Standard deviations covered by the heuristic infinity-norm terms (2^-75 per coefficient).
const Z: f64 = 10.0;
/// Factor over the expected l2 norm of the heuristic l2 terms.
const Z2: f64 = 2.0;
/// Margin of the bound below the decryption limit.
const BOUND_MARGIN: f64 = 1.0 / 1048576.0;

use crate::rlwe::noise::add2;
pub(crate) use crate::rlwe::noise::Bound;

/// The constants of the bounds of one parameter set (all log2 unless said otherwise).
#[derive(Debug, Clone, Copy)]
pub(crate) struct NoiseModel {
    half_log_n: f64,
    fresh_pk: Bound,
    fresh_sk: Bound,
    /// log2 (|q|_t / q).
    q_t_over_q: f64,
    ks_residue: Bound,
    ks_digit: Bound,
    mul_inf: f64,
    mul_l2: f64,
    mul_round: f64,
    /// Lemma 1 in fractions of 1 (not log2), for 2 and 3 parts: t beta (1 + S1 (+ S1^2)) / (p - 1).
    lemma1: [f64; 2],
    /// k / gamma of Lemma 2 (not log2).
    k_over_gamma: f64,
}

impl NoiseModel {
    pub(crate) fn new(p: &HprParameters, basis: &HprBasis, log_gamma: u32) -> Self {
        let n = p.degree() as f64;
        let (k, d) = (basis.k() as f64, p.digits() as f64);
        // Ternary s: ||s||_1 <= n, ||s||_2^2 ~ Binomial(n, 2/3), 10 standard deviations above.
        let (s1, s2) = (n, (2.0 * n / 3.0 + 10.0 * (2.0 * n / 9.0).sqrt()).min(n));
        let hl = 0.5 * n.log2();
        let t = p.plain_modulus() as f64;
        let (lt, lq) = (t.log2(), p.log_q());
        let q_t = (p.q() % p.plain_modulus()).to_f64().unwrap_or(t);
        let sigma = p.sigma();
        let fresh = |sd: f64| [lt + (Z * sd).log2() - lq, lt + (Z2 * sd).log2() + hl - lq];
        let log_p = basis
            .p()
            .product()
            .to_f64()
            .map_or(f64::INFINITY, f64::log2);
        let beta = k / 2.0;
        // Lemma 3 (15) with delta_R = n: B_e <= 6 n t beta^2 (d - 1) p / (p - 1), plus k/2 and the
        // rounding to the nearest integer.
        let b_e = 6.0 * n * t * beta * beta * (d - 1.0) * (1.0 + 2f64.powf(-log_p)) + k / 2.0 + 1.0;
        // (19): n d B_err sum_j p_j / 2, or n d B_err (k p / 2) per digit; B_err = 6 sigma.
        let sum_p: f64 = basis.p().moduli().iter().map(|m| m.value() as f64).sum();
        let ks = |e: f64| {
            let l = lt - lq + e;
            [l, l + hl]
        };
        let b_err = 6.0 * sigma;
        // The lift of eq. (13) is HPS's centred one: the lifted ct / q is uniform on (-1/2, 1/2]
        // up to the lower digits (k / p), second moment 1/12 (as BFV's HPS bound).
        let sd_w = ((1.0 + 2.0 * k * 2f64.powf(-log_p)).powi(2) / 12.0 * (1.0 + s2)).sqrt();
        NoiseModel {
            half_log_n: hl,
            fresh_pk: fresh(sigma * (1.0 + 2.0 * s2).sqrt()),
            fresh_sk: fresh(sigma),
            q_t_over_q: q_t.log2() - lq,
            ks_residue: ks((n * d * b_err * sum_p / 2.0).log2()),
            ks_digit: ks((n * d * b_err * k / 2.0).log2() + log_p),
            mul_inf: lt + (Z * sd_w + n.sqrt() / 2.0).log2(),
            mul_l2: lt + (Z2 * n.sqrt() * sd_w + n / 2.0).log2(),
            mul_round: lt + (b_e * (1.0 + s1 + s1 * s1)).log2() - lq,
            lemma1: [
                t * beta * (1.0 + s1) * 2f64.powf(1.0 - log_p),
                t * beta * (1.0 + s1 + s1 * s1) * 2f64.powf(1.0 - log_p),
            ],
            k_over_gamma: k / f64::from(log_gamma).exp2(),
        }
    }

    /// A fresh encryption of m: t v / q - |q|_t [m]_t / q.
    pub(crate) fn fresh(&self, ctx: &HprContext, public: bool, m: &[u64]) -> Option<Bound> {
        let v = if public { self.fresh_pk } else { self.fresh_sk };
        self.add_plain(ctx, Some(v), m)
    }

    /// Plus Delta m: nu - |q|_t [m]_t / q.
    pub(crate) fn add_plain(&self, ctx: &HprContext, a: Option<Bound>, m: &[u64]) -> Option<Bound> {
        let (_, l2sq, inf) = norms(ctx, m);
        let r = self.q_t_over_q;
        Some(add2(a?, [r + inf.log2(), r + 0.5 * l2sq.log2()]))
    }

    /// Times a plaintext m (centred): ||nu m||_inf <= min(||nu||_inf ||m||_1, ||nu||_2 ||m||_2),
    /// ||nu m||_2 <= ||nu||_2 ||m||_1.
    pub(crate) fn mul_plain(ctx: &HprContext, a: Option<Bound>, m: &[u64]) -> Option<Bound> {
        let [i, l] = a?;
        let (l1, l2sq, _) = norms(ctx, m);
        Some([(i + l1.log2()).min(l + 0.5 * l2sq.log2()), l + l1.log2()])
    }

    /// Key switching (relinearisation, automorphisms: both keep the norms of nu).
    pub(crate) fn key_switch(&self, a: Option<Bound>, mode: Relinearization) -> Option<Bound> {
        let e = match mode {
            Relinearization::PerResidue => self.ks_residue,
            Relinearization::PerDigit => self.ks_digit,
        };
        Some(add2(a?, e))
    }

    /// nu' = m_a nu_b + m_b nu_a + nu_a nu_b + t (w_a nu_b + w_b nu_a) + (t/q) (e_0 + e_1 s + e_2 s^2).
    pub(crate) fn multiply(&self, a: Option<Bound>, b: Option<Bound>) -> Option<Bound> {
        let ([_, la], [_, lb]) = (a?, b?);
        let sum = log2_add(la, lb);
        let inf = log2_add(log2_add(self.mul_inf + sum, la + lb), self.mul_round);
        let l2 = log2_add(
            log2_add(self.mul_l2 + sum, la + lb + self.half_log_n),
            self.mul_round + self.half_log_n,
        );
        Some([inf, l2.min(inf + self.half_log_n)])
    }
}

/// ||m||_1, ||m||_2^2 and ||m||_inf of a plaintext, centred.
fn norms(ctx: &HprContext, m: &[u64]) -> (f64, f64, f64) {
    let t = ctx.params().plain_modulus();
    m.iter().fold((0.0, 0.0, 0.0), |(s1, s2, mx), &c| {
        let v = (if c > t / 2 { t - c } else { c }) as f64;
        (s1 + v, s2 + v * v, v.max(mx))
    })
}

impl HprContext {
    /// Whether ct is safe to decrypt from its top phase x (over P): `Ok(Ok(()))`, or `Ok(Err(why))`
    /// when the measured ||nu|| reaches 1/4, the carried bound reaches the limit of condition (11),
    /// or the measurement exceeds the bound.
    pub(super) fn noise_verdict(
        &self,
        ct: &HprCiphertext,
        x: &Poly,
    ) -> Result<std::result::Result<(), String>> {
        let model = &self.noise_model;
        // ||[t x]_p|| / p to about k 2^-64; it differs from ||nu|| by at most Lemma 1's error.
        let lemma1 = model.lemma1[usize::from(ct.size() == 3)];
        let slack = lemma1 + (self.basis.k() as f64) * 2f64.powi(-63);
        let md = self.frac_p.max_fraction_distance(x.residues())?;
        if md + slack >= 0.25 {
            return Ok(Err(format!("||[t ct(s)]_q|| / q = {md:.3} >= 1/4")));
        }
        if let Some([b, _]) = ct.noise {
            let limit = 0.5 - model.k_over_gamma - lemma1 - BOUND_MARGIN;
            if b.exp2() >= limit {
                return Ok(Err(format!(
                    "the noise bound carried by the ciphertext is 2^{b:.1} >= {limit:.3} (the \
                     limit of condition (11); a coefficient past q/2 would not show in the \
                     measurement)"
                )));
            }
            if md > b.exp2() * (1.0 + 1e-9) + slack + 2f64.powi(-60) {
                return Ok(Err(format!(
                    "the measured noise 2^{:.1} exceeds the carried bound 2^{b:.1}",
                    md.log2()
                )));
            }
        }
        Ok(Ok(()))
    }

    /// Decryption (Alg. 1) after checking the noise: a ciphertext whose noise budget is 0 is refused
    /// with `Error::NoiseBudgetExhausted` instead of decrypting to garbage (see `noise.rs`). The
    /// check costs k n fraction products on the top phase that Alg. 1 computes anyway.
    pub fn decrypt_checked(&self, sk: &HprSecretKey, ct: &HprCiphertext) -> Result<Vec<u64>> {
        crate::rlwe::KeyId::check(ct.id(), sk.id(), "secret key")?;
        self.check_ct(ct)?;
        let x = self.top_phase(sk, ct)?;
        if let Err(why) = self.noise_verdict(ct, &x)? {
            return Err(Error::NoiseBudgetExhausted(format!(
                "{why}, so the decryption may be wrong: use more digits or fewer multiplications"
            )));
        }
        self.decrypt_phase(&x)
    }

    /// The exact phase [c_0 + c_1 s (+ c_2 s^2)]_q (centred), from the phase of every digit over
    /// P u B_sk (exact: |digit phase| <= k p (1 + n + n^2) / 2 fits the base) composed in base p.
    fn exact_phase(&self, sk: &HprSecretKey, ct: &HprCiphertext) -> Result<Vec<BigInt>> {
        let d = self.params.digits();
        let mut acc = self.zero_digits(Representation::Ntt);
        for (i, part) in ct.parts().iter().enumerate() {
            for (a, digit) in acc.iter_mut().zip(part) {
                let mut x = digit.clone();
                super::depth::fwd(&mut x)?;
                for _ in 0..i {
                    x.mul_assign(&sk.s)?;
                }
                a.add_assign(&x)?;
            }
        }
        acc.iter_mut().try_for_each(super::depth::inv)?;
        debug_assert_eq!(acc.len(), d);
        self.compose(&acc)
    }

    /// The invariant noise budget in bits: log2(q) - log2 ||[t ct(s)]_q|| - 1 computed exactly
    /// (the phase of every digit, composed), and 0 for every ciphertext that
    /// [`HprContext::decrypt_checked`] refuses. A positive budget means decryption is correct.
    pub fn noise_budget(&self, sk: &HprSecretKey, ct: &HprCiphertext) -> Result<u32> {
        crate::rlwe::KeyId::check(ct.id(), sk.id(), "secret key")?;
        self.check_ct(ct)?;
        let x = self.top_phase(sk, ct)?;
        if self.noise_verdict(ct, &x)?.is_err() {
            return Ok(0);
        }
        let q = BigInt::from(self.params.q());
        let half = &q / 2;
        let t = BigInt::from(self.params.plain_modulus());
        let mut max = BigInt::zero();
        for c in self.exact_phase(sk, ct)? {
            let mut v = (c * &t) % &q;
            if v > half {
                v -= &q;
            } else if v < -&half {
                v += &q;
            }
            max = max.max(v.abs());
        }
        let log = crate::params::log2_big(&max);
        Ok((self.params.log_q() - log - 1.0).max(0.0).floor() as u32)
    }

    /// The noise v of ct for message m: [c_0 + c_1 s (+ c_2 s^2)]_q - Delta m, exactly, coefficient
    /// by coefficient (big integers, O(n^2): tests and measurement at small n).
    pub fn noise_poly(
        &self,
        sk: &HprSecretKey,
        ct: &HprCiphertext,
        m: &[u64],
    ) -> Result<Vec<BigInt>> {
        let q = BigInt::from(self.params.q());
        let n = self.n();
        if m.len() != n {
            return Err(Error::LengthMismatch {
                what: "message",
                expected: n,
                got: m.len(),
            });
        }
        let s: Vec<BigInt> = sk.coefficients().iter().map(|&c| BigInt::from(c)).collect();
        let mut acc = vec![BigInt::from(0); n];
        let mut s_pow = vec![BigInt::from(0); n];
        s_pow[0] = BigInt::from(1);
        for part in ct.parts() {
            let c = self.compose(part)?;
            for (a, x) in acc.iter_mut().zip(negacyclic(&c, &s_pow)) {
                *a += x;
            }
            s_pow = negacyclic(&s_pow, &s);
        }
        let delta = BigInt::from(self.params.q() / self.params.plain_modulus());
        let half = &q / 2;
        Ok(acc
            .iter()
            .zip(m)
            .map(|(a, &mi)| {
                let mut v = ((a - &delta * mi) % &q + &q) % &q;
                if v > half {
                    v -= &q;
                }
                v
            })
            .collect())
    }

    /// The infinity norm of [`HprContext::noise_poly`].
    pub fn noise(&self, sk: &HprSecretKey, ct: &HprCiphertext, m: &[u64]) -> Result<BigUint> {
        Ok(self
            .noise_poly(sk, ct, m)?
            .iter()
            .map(|v| v.magnitude().clone())
            .max()
            .unwrap_or_default())
    }
}

/// a b in Z[X]/(X^n + 1) (schoolbook).
fn negacyclic(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
    let n = a.len();
    let mut out = vec![BigInt::from(0); n];
    for (i, x) in a.iter().enumerate() {
        if x.sign() == num_bigint::Sign::NoSign {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            if y.sign() == num_bigint::Sign::NoSign {
                continue;
            }
            let p = x * y;
            if i + j < n {
                out[i + j] += p;
            } else {
                out[i + j - n] -= p;
            }
        }
    }
    out
}
