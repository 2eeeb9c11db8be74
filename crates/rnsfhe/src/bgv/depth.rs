//! The multiplicative depth of BGV, Bajard et al. (SAC 2017) section 4.3: the theoretical bound and a measurement.
//!
//! Theory (worst case, infinity norms, delta_R the expansion factor, n for power-of-two m):
//! V_init = t/2 + t B_err (2 delta_R B_key + 1); a product at level l with Q_l gives
//! delta_R V^2 + B_relin, B_relin = delta_R / 2 l_{omega,q} omega B_err B_key (digits of omega = 2^nu,
//! l_{omega,q} of them); the hypothesis of Lemma 3 asks
//! V < Q_l / 2 - delta_R ||M^-1|| q_l t / 2 (1 + delta_R B_key), and switching to Q_{l-1} leaves
//! V / q_l + delta_R t ||M^-1|| / 2 (1 + delta_R B_key) (eq. (13)). ||M^-1|| = 1 without the
//! Montgomery representation. The depth is the number of products, each followed by a switch, that
//! keep the hypothesis, plus a last product at level 0 if it still decrypts (V < q_0 / 2).
//!
//! Difference with rnsfhe's key switching: the paper's B_relin has no special modulus and no factor
//! t; rnsfhe divides the digits' noise by P and scales it by t (see `evaluator.rs`). With one special
//! prime of the digits' size the two are of the same order.

use rnsfhe_math::ring::cyclotomic::{
    cyclotomic_polynomial, montgomery_inverse_norm, reduction_expansion, SlotAlgebra,
};
use rnsfhe_math::sample::Csprng;

use super::{BgvContext, BgvParameters};
use crate::Result;

/// Inputs of the theoretical depth.
#[derive(Clone, Debug)]
pub struct DepthInputs {
    /// log2 of each ciphertext modulus, q_0 first.
    pub log_moduli: Vec<f64>,
    /// The plaintext modulus t.
    pub t: f64,
    /// The expansion factor delta_R (n for power-of-two m).
    pub delta: f64,
    /// B_err = 6 sigma.
    pub b_err: f64,
    /// B_key (1 for ternary secrets).
    pub b_key: f64,
    /// ||M^-1||_inf of the Montgomery representation (1 without it).
    pub m_inv_norm: f64,
}

impl DepthInputs {
    /// The inputs of a BGV parameter set. delta_R: n for power-of-two m; for a general Phi_m the bound
    /// of Bajard et al. (SAC 2017) Lemma 4, n ||F_m||_inf (`reduction_expansion`). ||M^-1||_inf exact
    /// (`montgomery_inverse_norm`) when the parameters use the Montgomery representation, else 1.
    pub fn of(params: &BgvParameters) -> Result<Self> {
        let n = params.degree() as f64;
        let delta = if params.is_general_cyclotomic() {
            let phi = cyclotomic_polynomial(params.cyclotomic_index())?;
            n * reduction_expansion(&phi)?
        } else {
            n
        };
        Ok(DepthInputs {
            log_moduli: params.moduli().iter().map(|&q| (q as f64).log2()).collect(),
            t: params.plain_modulus() as f64,
            delta,
            b_err: 6.0 * params.sigma(),
            b_key: 1.0,
            m_inv_norm: if params.is_montgomery() {
                montgomery_inverse_norm(params.cyclotomic_index())?
            } else {
                1.0
            },
        })
    }

    /// The depth of section 4.3 (computed in log2 to stay finite for large moduli).
    pub fn depth(&self) -> u32 {
        let lg = |x: f64| x.log2();
        let add = crate::rlwe::log2_add;
        let scale_term =
            lg(self.delta * self.t * self.m_inv_norm / 2.0) + lg(1.0 + self.delta * self.b_key);
        let mut v = add(
            lg(self.t / 2.0),
            lg(self.t * self.b_err) + lg(2.0 * self.delta * self.b_key + 1.0),
        );
        let mut depth = 0;
        for l in (0..self.log_moduli.len()).rev() {
            let log_q: f64 = self.log_moduli[..=l].iter().sum();
            let nu = self.log_moduli[..=l].iter().fold(0f64, |a, &b| a.max(b));
            let relin =
                lg(self.delta / 2.0) + lg((l + 1) as f64) + nu + lg(self.b_err * self.b_key);
            let product = add(lg(self.delta) + 2.0 * v, relin);
            if l == 0 {
                if product < log_q - 1.0 {
                    depth += 1;
                }
                break;
            }
            // Lemma 3's hypothesis: V < Q_l / 2 - delta ||M^-1|| q_l t / 2 (1 + delta B_key).
            let room = (log_q - 1.0).exp2() - (scale_term + self.log_moduli[l]).exp2();
            if !(room > 0.0 && product < room.log2()) {
                break;
            }
            depth += 1;
            v = add(product - self.log_moduli[l], scale_term);
        }
        depth
    }
}

impl BgvContext {
    /// The depth measured: squares of a fresh encryption of random slots, each relinearised and
    /// followed by a modulus switch (the last one at level 0 without), counted while the result
    /// decrypts to the right values. Over a general Phi_m the slots are random elements of GF(t)
    /// inside GF(t^d) (their squares are v^2 mod t, slot by slot).
    pub fn measured_depth(&self, rng: &mut Csprng) -> Result<u32> {
        let (sk, pk) = self.keygen(rng)?;
        let rlk = self.relin_key(&sk, rng)?;
        let n = self.params().degree();
        let t = self.params().plain_modulus();
        let mut m: Vec<u64> = (0..n).map(|_| rng.next_u64() % t).collect();
        let algebra = self.slot_algebra().ok();
        // GF(t) values as slots of GF(t^d): v, then d - 1 zero coefficients.
        let as_slots = |m: &[u64], d: usize| -> Vec<Vec<u64>> {
            m.iter()
                .map(|&v| {
                    std::iter::once(v)
                        .chain(std::iter::repeat_n(0, d - 1))
                        .collect()
                })
                .collect()
        };
        let pt = if let Some(a) = algebra {
            m.truncate(a.slots());
            self.encode_slots(&as_slots(&m, a.slot_degree()))?
        } else if self.slots() > 0 {
            self.encode(&m)?
        } else {
            m = vec![1; 1];
            self.encode_coefficients(&[1])?
        };
        let mut x = self.encrypt(&pt, &pk, rng)?;
        let mut depth = 0;
        loop {
            let mut y = self.multiply(&x, &x, &rlk)?;
            if y.level() > 0 {
                y = self.mod_switch(&y)?;
            }
            m.iter_mut()
                .for_each(|v| *v = ((u128::from(*v) * u128::from(*v)) % u128::from(t)) as u64);
            let ok = match self.decrypt(&y, &sk) {
                Ok(p) if algebra.is_some() => {
                    let d = algebra.map_or(1, SlotAlgebra::slot_degree);
                    self.decode_slots(&p)? == as_slots(&m, d)
                }
                Ok(p) if self.slots() > 0 => self.decode(&p)? == m,
                Ok(p) => p.coefficients()[0] == m[0],
                Err(_) => false,
            };
            if !ok {
                return Ok(depth);
            }
            depth += 1;
            if x.level() == 0 {
                return Ok(depth);
            }
            x = y;
        }
    }
}
