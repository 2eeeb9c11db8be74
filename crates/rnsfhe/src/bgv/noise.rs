//! The noise bound carried by every BGV ciphertext: log2 of bounds I >= ||x||_inf and L >= ||x||_2
//! on the phase x = [c(s)]_{Q_l} = [m]_t + t v (Bajard et al. (SAC 2017) section 4.3, with BFV's decision of
//! `bfv/noise.rs`: the secret key shows x only modulo Q_l, so a wrapped coefficient is invisible to a
//! measurement; decryption is refused while I may reach Q_l / 2).
//!
//! S1 >= ||s||_1, S2 >= ||s||_2^2 as in BFV; z = 10 standard deviations, Z2 = 2 over an expected l2
//! norm; exact norms of plaintexts:
//! - fresh: m + t e, e of standard deviation sigma (secret key) or sigma sqrt(1 + 2 S2) plus the
//!   ModDown rounding (#P + 1) sqrt((1 + S2) / 12) (public key): I = ||m||_inf + t z sd,
//!   L = ||m||_2 + t Z2 sqrt(n) sd;
//! - a + b: I_a + I_b; + m: + ||m||; a m: I = min(I_a ||m||_1, L_a ||m||_2), L = L_a ||m||_1;
//!   a c: times |c| (all rigorous);
//! - a b: the tensor's phase is x_a x_b: I = L_a L_b, L = sqrt(n) L_a L_b (rigorous); over a general
//!   Phi_m every product term is also multiplied by the reduction's expansion rho (Bajard et al. (SAC 2017) Lemma 4,
//!   `reduction_expansion`): I = rho L_a L_b, L = sqrt(n) I;
//! - key switching: + t ||e_ks|| ([`crate::rlwe::KeySwitcher::noise_log2`]);
//! - modulus switching (Lemma 3): x / q_l + t sum_i r_i s^i / q_l with r_i / q_l in [-1/2, 1/2]:
//!   + t z sqrt(sum_i S2^i / 12) (heuristic, r uniform), L likewise times Z2 sqrt(n) / z.
//! - Montgomery representation (Bajard et al. (SAC 2017) section 4.2): the rounding terms of modulus switching (eq.
//!   (13): delta_R ||M^-1|| in the worst case) and of key switching's ModDown are read through M^-1;
//!   their standard deviations gain the factor mu = rho ||M^-1||_2 (rho the reduction's expansion,
//!   ||M^-1||_2 exact, `montgomery_inverse`), the key-switching gadget error none (keys with M^2).

use super::BgvPlaintext;
use crate::rlwe::{log2_add, SecretDistribution};

const Z: f64 = 10.0;
const Z2: f64 = 2.0;

use crate::rlwe::noise::add2;
pub(crate) use crate::rlwe::noise::Bound;

/// The constants of the bound, per parameter set (log2).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct NoiseModel {
    half_log_n: f64,
    log_t: f64,
    fresh_pk: f64,
    fresh_sk: f64,
    key_switch: f64,
    /// log2 S2 and the ModDown-free base of the switching term: log2 (t z / sqrt 12).
    log_s2: f64,
    /// log2 of the growth of a product by the reduction modulo Phi_m (0 for X^n + 1, whose bounds
    /// above are already those of the negacyclic product; general m: `reduction_expansion`).
    log_rho: f64,
    /// log2 mu, the Montgomery factor of rounding terms (0 without the representation).
    log_mu: f64,
}

impl NoiseModel {
    pub(crate) fn new(
        n: usize,
        expansion: f64,
        t: u64,
        sigma: f64,
        dist: SecretDistribution,
        (special, mu): (usize, f64),
        ks_log2: impl Fn(f64, f64, f64) -> f64,
    ) -> Self {
        let nf = n as f64;
        let (s1, s2) = match dist {
            SecretDistribution::Ternary => (
                nf,
                (2.0 * nf / 3.0 + 10.0 * (2.0 * nf / 9.0).sqrt()).min(nf),
            ),
            SecretDistribution::HammingWeight(h) => (h as f64, h as f64),
        };
        let round = (special + 1) as f64 * ((1.0 + s2) / 12.0).sqrt();
        let rho = expansion.max(1.0);
        let log_mu = mu.max(1.0).log2();
        // Key switching: the gadget part as it is; the ModDown rounding (special moduli) times mu.
        let ks = ks_log2(sigma, Z, s1);
        let ks = if special > 0 && log_mu > 0.0 {
            log2_add(ks, ((special + 1) as f64 * (1.0 + s1)).log2() + log_mu)
        } else {
            ks
        };
        NoiseModel {
            log_mu,
            log_rho: rho.log2(),
            half_log_n: 0.5 * nf.log2(),
            log_t: (t as f64).log2(),
            fresh_pk: (rho * sigma * (1.0 + 2.0 * s2).sqrt() + round).log2(),
            fresh_sk: sigma.log2(),
            key_switch: ks + rho.log2(),
            log_s2: s2.max(1.0).log2(),
        }
    }

    /// m + t e.
    pub(crate) fn fresh(&self, public: bool, t: u64, m: &BgvPlaintext) -> Bound {
        let sd = if public { self.fresh_pk } else { self.fresh_sk };
        let e = [
            self.log_t + Z.log2() + sd,
            self.log_t + Z2.log2() + self.half_log_n + sd,
        ];
        add2(e, plain_bound(t, m))
    }

    pub(crate) fn add_plain(t: u64, a: Option<Bound>, m: &BgvPlaintext) -> Option<Bound> {
        Some(add2(a?, plain_bound(t, m)))
    }

    pub(crate) fn mul_plain(t: u64, a: Option<Bound>, m: &BgvPlaintext) -> Option<Bound> {
        let [i, l] = a?;
        let (l1, l2sq, _) = norms(t, m);
        Some([(i + l1.log2()).min(l + 0.5 * l2sq.log2()), l + l1.log2()])
    }

    pub(crate) fn multiply(&self, a: Option<Bound>, b: Option<Bound>) -> Option<Bound> {
        let ([_, la], [_, lb]) = (a?, b?);
        let i = la + lb + self.log_rho;
        Some([i, i + self.half_log_n])
    }

    pub(crate) fn key_switch(&self, a: Option<Bound>) -> Option<Bound> {
        let e = self.log_t + self.key_switch;
        Some(add2(a?, [e, e + self.half_log_n]))
    }

    /// Division by q_l (log2 `log_q`) plus t sum_{i < parts} r_i s^i / q_l.
    pub(crate) fn mod_switch(&self, a: Option<Bound>, log_q: f64, parts: usize) -> Option<Bound> {
        let [i, l] = a?;
        let sum: f64 = (0..parts as i32)
            .map(|p| (self.log_s2 * f64::from(p)).exp2())
            .sum();
        let sd = self.log_t + 0.5 * (sum / 12.0).log2() + self.log_rho + self.log_mu;
        Some(add2(
            [i - log_q, l - log_q],
            [sd + Z.log2(), sd + Z2.log2() + self.half_log_n],
        ))
    }
}

/// log2 ||m||_inf and ||m||_2 of a plaintext, centred.
fn plain_bound(t: u64, m: &BgvPlaintext) -> Bound {
    let (_, l2sq, inf) = norms(t, m);
    [inf.max(0.5).log2(), l2sq.max(0.25).sqrt().log2()]
}

/// ||m||_1, ||m||_2^2 and ||m||_inf of a plaintext, centred.
fn norms(t: u64, m: &BgvPlaintext) -> (f64, f64, f64) {
    m.coeffs.iter().fold((0.0, 0.0, 0.0), |(s1, s2, mx), &c| {
        let v = if c > t / 2 { t - c } else { c } as f64;
        (s1 + v, s2 + v * v, v.max(mx))
    })
}
