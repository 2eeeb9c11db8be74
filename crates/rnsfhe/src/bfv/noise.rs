//! A noise bound carried by every ciphertext, so that the budget and the checked decryption never
//! accept a ciphertext that decrypts wrongly.
//!
//! Why a carried bound: with t ct(s)/q = m + nu + t w (the invariant noise nu = v_c / q of Bajard et al. (SAC 2016)
//! Lemma 1 and of SEAL), the secret key only shows nu modulo 1, so a coefficient with |nu_i| > 1/2
//! looks like any value in (-1/2, 1/2]: no measurement of one phase can tell a wrapped noise from a
//! small one (`sum_slots` gathers the noise into coefficient 0, which wraps while the rest stays
//! small). HElib's `Ctxt::noiseBound` is the anchor: each operation updates upper bounds I on
//! ||nu||_inf and L on ||nu||_2. While I < 1/2 - k/gamma - 2^-20 nothing wrapped, every decryption
//! method is right (Bajard et al. (SAC 2016) Theorem 1: ||nu|| < 1/2 - k/gamma; the HPS and f64 fractions err by
//! less than 2^-40) and the measurement is exact. Decision: a ciphertext is refused, and its budget
//! is 0, when I reaches that limit, when the measured ||nu|| reaches 1/4 (budget below one bit, as
//! before), or when the measurement exceeds I (the heuristic failed). I is pessimistic (about 2-3
//! bits after a product), so some correct ciphertexts are refused: never a wrong one.
//!
//! The bounds, n the degree, S1 >= ||s||_1 and S2 >= ||s||_2^2 (n and 2n/3 + 10 sd for ternary
//! secrets, h for weight h), exact norms of the plaintexts involved:
//! - fresh: t v / q - |q|_t [m]_t / q, v with coefficients of standard deviation
//!   sigma sqrt(1 + 2 S2) (public key; sigma for a secret key): I = t z sd / q, L = t Z2 sqrt(n) sd / q
//!   (heuristic: z = 10 standard deviations, 2^-75 per coefficient; Z2 = 2 over the expected l2
//!   norm), plus ||m||_inf |q|_t / q and ||m||_2 |q|_t / q;
//! - a + b: I_a + I_b, L_a + L_b; a + m: as fresh; a c: times |c|; a m: I = min(I_a ||m||_1,
//!   L_a ||m||_2), L = L_a ||m||_1 (rigorous);
//! - key switching (relinearisation, rotations, which keep both norms): + t ||e_ks|| / q, ||e_ks||
//!   from [`crate::rlwe::KeySwitcher::noise_log2`];
//! - a b: nu' = m_a nu_b + m_b nu_a + nu_a nu_b + t (w_a nu_b + w_b nu_a) + (t/q) eps(s), with w =
//!   (lifted ct)(s)/q. Rigorous: ||m nu||_inf <= ||m||_2 ||nu||_2 <= sqrt(n) t/2 L, ||m nu||_2 <=
//!   ||m||_1 L <= n t/2 L, ||nu_a nu_b||_inf <= L_a L_b, the rounding eps (each part within k + 2).
//!   Heuristic: w independent of nu (RLWE: c_1 looks uniform), its coefficients with second moment
//!   at most M (1 + S2), M = 1/12 for HPS's centred lift, ((1 + rho)/2)^2 for BEHZ's lift within
//!   (1 + rho) q/2 (Bajard et al. (SAC 2016) Lemma 4); so ||w nu||_inf <= z sqrt(M (1 + S2)) L and ||w nu||_2 <=
//!   Z2 sqrt(n M (1 + S2)) L.
//!
//! - full Montgomery FV (Bajard et al. (SAC 2017) section 4.1, Prop. 1): the lift w is (lift) M^-1 and the rounding
//!   eps is eps M^-1; with the row norms l1, l2 of w -> w M^-1 (`montgomery_inverse_row_norms`),
//!   the sd of w grows by l2 (heuristic) and ||eps M^-1||_inf <= l1 ||eps||_inf (rigorous), and
//!   key switching's ModDown rounding by l1.
//!
//! The bounds travel with the ciphertext's bytes (format version 2). A ciphertext whose history is
//! unknown (`ciphertext_from_parts`) has no bound; for it the budget and the check fall back to the
//! measurement alone (SEAL's semantics, which a wrapped coefficient can fool).

use num_traits::ToPrimitive;
use rnsfhe_math::ring::Poly;

use super::decrypt::Decryptor;
use super::{BfvCiphertext, BfvContext, BfvPlaintext, MulTool};
use crate::rlwe::{log2_add, SecretDistribution};
use crate::Result;

/// Standard deviations covered by the heuristic infinity-norm terms (2^-75 per coefficient).
const Z: f64 = 10.0;
/// Factor over the expected l2 norm for the heuristic l2 terms (P(chi^2_n > 4n) is negligible).
const Z2: f64 = 2.0;

/// log2 of the refusal threshold of the measured ||nu||: 1/4 (budget 0 below one bit).
pub(crate) const MEASURED_LIMIT_LOG2: f64 = -2.0;
/// Margin of the bound below the decryption limit 1/2 - k/gamma (covers the HPS and f64 fractions,
/// which err by less than 2^-40).
const BOUND_MARGIN: f64 = 1.0 / 1048576.0;

use crate::rlwe::noise::add2;
pub(crate) use crate::rlwe::noise::Bound;

/// The constants of the bound above, per parameter set (all log2).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct NoiseModel {
    half_log_n: f64,
    fresh_pk: Bound,
    fresh_sk: Bound,
    /// log2 (|q|_t / q).
    q_t_over_q: f64,
    key_switch: Bound,
    /// Multiplication: log2 of the factors of L_a + L_b in the infinity and l2 bounds.
    mul_inf: f64,
    mul_l2: f64,
    mul_round: f64,
    /// log2 of the reduction's expansion (0 for X^n + 1).
    log_rho: f64,
}

impl NoiseModel {
    pub(crate) fn new(ctx: &BfvContext) -> Self {
        let p = ctx.params();
        let n = p.degree() as f64;
        let (s1, s2) = match p.secret_distribution() {
            // ||s||_2^2 ~ Binomial(n, 2/3): 10 standard deviations above the mean.
            SecretDistribution::Ternary => {
                (n, (2.0 * n / 3.0 + 10.0 * (2.0 * n / 9.0).sqrt()).min(n))
            }
            SecretDistribution::HammingWeight(h) => (h as f64, h as f64),
        };
        let hl = 0.5 * n.log2();
        let lt = (p.plain_modulus() as f64).log2();
        let lq = p.log_q();
        let q_t = (ctx.ring().basis().product() % p.plain_modulus())
            .to_f64()
            .unwrap_or(p.plain_modulus() as f64);
        let sigma = p.sigma();
        // t v / q for v with independent coefficients of standard deviation sd.
        let fresh = |sd: f64| [lt + (Z * sd).log2() - lq, lt + (Z2 * sd).log2() + hl - lq];
        let k = p.moduli().len() as f64;
        // Second moment of a lifted coefficient of ct over q: 1/12 for HPS's centred uniform lift,
        // ((1 + rho)/2)^2 for BEHZ's lift within (1 + rho) q / 2.
        let moment = match ctx.mul_tool() {
            MulTool::Behz(b) => ((1.0 + b.sizes().rho) / 2.0).powi(2),
            MulTool::Hps(_) => 1.0 / 12.0,
        };
        // Full Montgomery (Bajard et al. (SAC 2017) Prop. 1): the lift and the rounding of a product are
        // multiplied by M^-1: sd factor mu_2, infinity-norm factor mu_1 (1 otherwise); so is
        // ModDown's rounding in key switching.
        let (mu_2, mu) = ctx.mu;
        let sd_w = mu_2 * (moment * (1.0 + s2)).sqrt();
        // General Phi_m: every product term grows by the reduction's expansion (Bajard et al. (SAC 2017) Lemma 4).
        let rho = ctx.log_rho.exp2();
        let mut ks = lt - lq + ctx.key_switcher().noise_log2(sigma, Z, s1) + ctx.log_rho;
        let special = p.special_moduli().len();
        if special > 0 && mu > 1.0 {
            let round = ((special + 1) as f64 * (1.0 + s1)).log2() + mu.log2();
            ks = log2_add(ks, lt - lq + round + ctx.log_rho);
        }
        NoiseModel {
            half_log_n: hl,
            fresh_pk: fresh(rho * sigma * (1.0 + 2.0 * s2).sqrt()),
            fresh_sk: fresh(sigma),
            q_t_over_q: q_t.log2() - lq,
            key_switch: [ks, ks + hl],
            mul_inf: lt + (rho * (Z * sd_w + n.sqrt() / 2.0)).log2(),
            mul_l2: lt + (rho * (Z2 * n.sqrt() * sd_w + n / 2.0)).log2(),
            mul_round: lt + (mu * rho * (k + 2.0) * (1.0 + s1 + s1 * s1)).log2() - lq,
            log_rho: ctx.log_rho,
        }
    }

    /// A fresh encryption of m: t v / q - |q|_t [m]_t / q.
    pub(crate) fn fresh(&self, ctx: &BfvContext, public: bool, m: &BfvPlaintext) -> Option<Bound> {
        let v = if public { self.fresh_pk } else { self.fresh_sk };
        self.add_plain(ctx, Some(v), m)
    }

    /// Plus Delta m: nu - |q|_t [m]_t / q.
    pub(crate) fn add_plain(
        &self,
        ctx: &BfvContext,
        a: Option<Bound>,
        m: &BfvPlaintext,
    ) -> Option<Bound> {
        let (_, l2sq, inf) = norms(ctx, m);
        let r = self.q_t_over_q;
        Some(add2(a?, [r + inf.log2(), r + 0.5 * l2sq.log2()]))
    }

    pub(crate) fn key_switch(&self, a: Option<Bound>) -> Option<Bound> {
        Some(add2(a?, self.key_switch))
    }

    /// Times a plaintext m (centred): ||nu m||_inf <= min(||nu||_inf ||m||_1, ||nu||_2 ||m||_2),
    /// ||nu m||_2 <= ||nu||_2 ||m||_1.
    pub(crate) fn mul_plain(ctx: &BfvContext, a: Option<Bound>, m: &BfvPlaintext) -> Option<Bound> {
        let [i, l] = a?;
        let (l1, l2sq, _) = norms(ctx, m);
        Some([(i + l1.log2()).min(l + 0.5 * l2sq.log2()), l + l1.log2()])
    }

    /// nu' = m_a nu_b + m_b nu_a + nu_a nu_b + t (w_a nu_b + w_b nu_a) + (t/q) eps(s).
    pub(crate) fn multiply(&self, a: Option<Bound>, b: Option<Bound>) -> Option<Bound> {
        let ([_, la], [_, lb]) = (a?, b?);
        let sum = log2_add(la, lb);
        let inf = log2_add(
            log2_add(self.mul_inf + sum, la + lb + self.log_rho),
            self.mul_round,
        );
        let l2 = log2_add(
            log2_add(self.mul_l2 + sum, la + lb + self.log_rho + self.half_log_n),
            self.mul_round + self.half_log_n,
        );
        Some([inf, l2.min(inf + self.half_log_n)])
    }
}

/// ||m||_1, ||m||_2^2 and ||m||_inf of a plaintext, centred.
fn norms(ctx: &BfvContext, m: &BfvPlaintext) -> (f64, f64, f64) {
    let t = ctx.t();
    m.coeffs.iter().fold((0.0, 0.0, 0.0), |(s1, s2, mx), &c| {
        let v = t.center(c).unsigned_abs() as f64;
        (s1 + v, s2 + v * v, v.max(mx))
    })
}

impl BfvContext {
    /// Whether the phase x = [ct(s)]_q is safe to decrypt: `Ok(Ok(()))`, or `Ok(Err(why))` when the
    /// measured ||nu|| or the carried bound reaches 1/4, or the measurement exceeds the bound (the
    /// heuristic failed: refused too).
    pub(crate) fn noise_verdict(
        &self,
        ct: &BfvCiphertext,
        x: &Poly,
        dec: &Decryptor,
    ) -> Result<std::result::Result<(), String>> {
        // ||[t x]_q|| / q within about k 2^-64 (x over q), or also within the switch's 2^-64
        // (x over the prefix q' of `SwitchedDecryption`).
        let d = dec.noise_fraction(x.residues())?;
        let switched = x.context().moduli().len() < self.params().moduli().len();
        if d.log2() >= MEASURED_LIMIT_LOG2 {
            return Ok(Err(format!("||[t ct(s)]_q|| / q = {d:.3} >= 1/4")));
        }
        if let Some([b, _]) = ct.noise {
            let k = self.params().moduli().len() as f64;
            let gamma = self
                .gammas()
                .map_or(f64::INFINITY, |(g, g2)| g.min(g2) as f64);
            if b.exp2() >= 0.5 - k / gamma - BOUND_MARGIN {
                return Ok(Err(format!(
                    "the noise bound carried by the ciphertext is 2^{b:.1} >= 1/2 (a coefficient \
                     past q/2 would not show in the measurement)"
                )));
            }
            // d errs by under k 2^-63 (`noise_fraction`: one truncation of at most 1 + q_i 2^-64
            // units of 2^-64 per limb), the floor of a measurement of a small noise; the switch
            // adds under 2^-64.
            let floor = (k + f64::from(u8::from(switched))) * 2f64.powi(-63);
            if d > b.exp2() * (1.0 + 1e-9) + floor {
                return Ok(Err(format!(
                    "the measured noise 2^{:.1} exceeds the carried bound 2^{b:.1}",
                    d.log2()
                )));
            }
        }
        Ok(Ok(()))
    }
}
