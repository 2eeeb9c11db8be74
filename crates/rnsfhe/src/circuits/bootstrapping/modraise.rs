//! ModRaise (Cheon, Han, Kim, Kim and Song, "Bootstrapping for approximate homomorphic
//! encryption", Eurocrypt 2018, section 4.1): a ciphertext modulo q_0 read as one modulo Q_L, and
//! the bound on the integer polynomial I(X) it adds to the plaintext.
//!
//! A ciphertext (c_0, c_1) at level 0 decrypts to m' = [c_0 + c_1 s]_(q_0) (the message Delta_0 m plus
//! its noise). Its coefficients, centred in (-q_0/2, q_0/2] and reduced modulo every prime of Q_L
//! ([`mod_raise`]), are the same integers at the top level, where c_0 + c_1 s is no longer reduced
//! modulo q_0: the decryption becomes m' + q_0 I(X) for a polynomial I with small integer
//! coefficients. EvalMod removes q_0 I by evaluating x - round(x) on x = (m' + q_0 I) / q_0, which it
//! approximates on [-K, K]: bootstrapping fails when some |I_j| >= K.
//!
//! # The bound on I ([`ModRaiseBound`])
//!
//! With c_1 uniform modulo q_0 and s of Hamming weight h, coefficient j of c_1 s / q_0 is
//! w_j = sum of h terms +-c_(1,k) / q_0, independent and uniform on (-1/2, 1/2]; c_0 = [m' - c_1 s]
//! makes I_j = round(w_j - delta_j) with delta_j = m'_j / q_0 (|delta_j| <= 2^-r for a message ratio
//! q_0 / Delta_0 = 2^r). So I_j has the variance h/12 + 1/12 = (h + 1)/12 (the rounding adds a
//! uniform term): it is distributed as the rounding of a sum of h + 1 uniforms, the model used here,
//! which is the heavier-tailed of the two as long as delta <= (K - 1/2) / (2h + 2). Per coefficient,
//! |I_j| >= K needs |S| >= t = K - 1/2 for S that sum of h + 1 uniforms, and over N coefficients
//! (the union bound; 2n for n sparse slots, whose trace keeps 2n of them):
//!
//! - Hoeffding (rigorous): Pr[some |I_j| >= K] <= 2 N exp(-2 t^2 / (h + 1));
//! - Chernoff with the uniform's moment generating function sinh(l/2) / (l/2) (rigorous, tighter):
//!   <= 2 N min_l exp(-l t) (sinh(l/2) / (l/2))^(h+1);
//! - Irwin-Hall (exact for the model, h + 1 <= 1024): S + (h + 1)/2 has the Irwin-Hall law, whose
//!   lower tail at x = (h + 1)/2 - t is sum_(k <= x) (-1)^k C(h+1, k) (x - k)^(h+1) / (h + 1)!,
//!   computed in exact integers; and the Gaussian estimate erfc(t / sqrt(2 (h + 1)/12)) (central
//!   limit, accurate in the bulk, an over-estimate in the far tail since S is bounded).
//!
//! Numbers: see [`ModRaiseBound`] (the table of the presets' secrets).

use rnsfhe_math::ring::{Poly, Representation};

use crate::ckks::{CkksCiphertext, CkksContext};
use num_bigint::BigInt;
use num_traits::{One, Zero};

use crate::{Error, Result};

/// The level-0 ciphertext `ct` (2 parts) read modulo Q_`level`: each coefficient of c_0 and c_1
/// centred in (-q_0/2, q_0/2] and reduced modulo every prime q_0..q_level (word-size, no big
/// integers), NTT form. Its decryption at `level` is m' + q_0 I(X) for m' the decryption at level 0
/// and I bounded as in [`ModRaiseBound`]. The scale is set to the chain's scale at `level`, so that
/// the slots read (m' + q_0 I) / Delta_level (CoeffsToSlots folds Delta_level / q_0 into its
/// matrices).
///
/// Errors: `LevelMismatch` for a ciphertext above level 0; `InvalidCiphertext` for 3 parts;
/// `InvalidParameters` for a `level` above the top.
pub fn mod_raise(ctx: &CkksContext, ct: &CkksCiphertext, level: usize) -> Result<CkksCiphertext> {
    if ct.level() != 0 {
        return Err(Error::LevelMismatch {
            op: "ModRaise (ciphertext, level 0)".into(),
            left: ct.level(),
            right: 0,
            hint: "drop the ciphertext to level 0 first (drop_to_level)".into(),
        });
    }
    if ct.size() != 2 {
        return Err(Error::InvalidCiphertext(format!(
            "ModRaise takes 2 parts, got {}; relinearize first",
            ct.size()
        )));
    }
    let ring = ctx.ring_at(level)?;
    let q0 = ctx.ring_at(0)?.moduli()[0];
    let n = ring.degree();
    let parts = ct
        .parts()
        .iter()
        .map(|p| {
            let mut c = p.clone();
            c.to_coefficient()?;
            let centred: Vec<i64> = c.residues()[..n].iter().map(|&x| q0.center(x)).collect();
            let mut raised = Poly::from_signed(ring, &centred)?;
            raised.to_ntt()?;
            Ok(raised)
        })
        .collect::<Result<Vec<_>>>()?;
    debug_assert!(parts
        .iter()
        .all(|p| p.representation() == Representation::Ntt));
    ctx.ciphertext_from_parts(parts, level, ctx.scale_at(level)?, ct.slots(), ct.key_id())
}

/// The law of I after ModRaise (module doc): the rounding of a sum of h + 1 uniforms on
/// (-1/2, 1/2], over `coefficients` coefficients, and the probability that some |I_j| >= K.
///
/// log2 of Pr[some |I_j| >= K] over N = 2^16 coefficients (full packing; `cargo test -p rnsfhe
/// --lib modraise` checks the ordering of the three), for the secrets of the presets:
///
/// | secret | h | K | Hoeffding | Chernoff | exact (Irwin-Hall) or Gaussian |
/// |---|---|---|---|---|---|
/// | encapsulated sparse | 32 | 12 | 0 (void) | -25.3 | -29.1 |
/// | encapsulated sparse | 32 | 16 | -4.0 | -101.9 | -105.7 |
/// | sparse | 192 | 32 | 0 (void) | -29.0 | -33.3 |
/// | sparse | 192 | 36 | -1.8 | -42.0 | -46.5 |
/// | sparse | 192 | 42 | -8.7 | -65.1 | -69.7 |
/// | dense ternary | 43690 (2N/3) | 512 | -0.3 | -34.8 | -39.3 (Gaussian) |
/// | dense ternary | 43690 | 537 | -2.0 | -40.0 | -44.5 (Gaussian) |
/// | dense ternary | 43690 | 1024 | -52.2 | -190.7 | -196.0 (Gaussian) |
///
/// Hoeffding only uses the range of each term and is loose by far; the Chernoff bound with the
/// uniform's own moment generating function is within 4-5 bits of the exact tail. At h = 32 no
/// |I_j| can reach 17 (the sum of 33 terms lies in [-16.5, 16.5]). With n sparse slots the union
/// runs over 2n coefficients (log2(N / 2n) bits fewer). [`ModRaiseBound::smallest_k`] picks K from
/// the Chernoff bound for a target failure probability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModRaiseBound {
    /// The coefficients EvalMod reduces: N with full packing, 2n with n sparse slots.
    pub coefficients: usize,
    /// The Hamming weight h of the secret the ciphertext is raised under.
    pub hamming_weight: usize,
}

/// Where [`ModRaiseBound::log2_irwin_hall`] computes the exact tail.
const IRWIN_HALL_TERMS: usize = 1024;

impl ModRaiseBound {
    /// The law for `coefficients` coefficients and a secret of Hamming weight `hamming_weight`.
    pub fn new(coefficients: usize, hamming_weight: usize) -> Self {
        ModRaiseBound {
            coefficients,
            hamming_weight,
        }
    }

    /// The number of uniform terms, h + 1.
    pub fn terms(&self) -> usize {
        self.hamming_weight + 1
    }

    /// The variance of each I_j, (h + 1) / 12.
    pub fn variance(&self) -> f64 {
        self.terms() as f64 / 12.0
    }

    /// t = ceil(K) - 1/2: |I_j| >= K (an integer at least ceil(K)) needs |S| >= t.
    fn threshold(k: f64) -> f64 {
        k.ceil() - 0.5
    }

    /// log2 of the union over the coefficients of a per-coefficient log2 probability, capped at 0.
    fn union(&self, log2_one: f64) -> f64 {
        ((self.coefficients.max(1) as f64).log2() + log2_one).min(0.0)
    }

    /// Hoeffding: log2 of 2 N exp(-2 t^2 / (h + 1)), rigorous.
    pub fn log2_hoeffding(&self, k: f64) -> f64 {
        let t = Self::threshold(k);
        if t <= 0.0 {
            return 0.0;
        }
        self.union(1.0 - 2.0 * t * t / self.terms() as f64 / core::f64::consts::LN_2)
    }

    /// Chernoff with the uniform's moment generating function: log2 of
    /// 2 N min_l exp(-l t) (sinh(l/2) / (l/2))^(h+1), rigorous (-inf beyond the support, t >= (h+1)/2).
    pub fn log2_chernoff(&self, k: f64) -> f64 {
        let (t, n) = (Self::threshold(k), self.terms() as f64);
        if t <= 0.0 {
            return 0.0;
        }
        if t >= n / 2.0 {
            return f64::NEG_INFINITY;
        }
        // The minimum over l = 2y solves L(y) = coth y - 1/y = 2t / n (Langevin, increasing).
        let a = 2.0 * t / n;
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        while langevin(hi) < a {
            hi *= 2.0;
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if langevin(mid) < a {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let y = 0.5 * (lo + hi);
        let ln = -2.0 * y * t + n * ln_sinhc(y);
        self.union(1.0 + ln / core::f64::consts::LN_2)
    }

    /// The exact tail of the model (h + 1 <= 1024 terms, else `None`): log2 of
    /// N Pr[|S| >= t] with S + (h+1)/2 Irwin-Hall distributed, from the exact integer sum
    /// sum_(k <= x) (-1)^k C(n, k) (2x - 2k)^n / (2^n n!), x = n/2 - t.
    pub fn log2_irwin_hall(&self, k: f64) -> Option<f64> {
        let n = self.terms();
        if n > IRWIN_HALL_TERMS {
            return None;
        }
        let t = Self::threshold(k);
        if t <= 0.0 {
            return Some(0.0);
        }
        // 2x = n - 2t = n + 1 - 2 ceil(K), an integer.
        let p = n as i64 + 1 - 2 * k.ceil() as i64;
        if p <= 0 {
            return Some(f64::NEG_INFINITY);
        }
        let mut sum = BigInt::zero();
        let mut binom = BigInt::one();
        for j in 0..=(p / 2) {
            let term = &binom * BigInt::from(p - 2 * j).pow(n as u32);
            if j % 2 == 0 {
                sum += term;
            } else {
                sum -= term;
            }
            binom = binom * BigInt::from(n as i64 - j) / BigInt::from(j + 1);
        }
        let log_factorial: f64 = (2..=n).map(|i| (i as f64).log2()).sum();
        Some(self.union(1.0 + log2_big(&sum) - n as f64 - log_factorial))
    }

    /// The Gaussian estimate: log2 of N erfc(t / sqrt(2 (h + 1)/12)).
    pub fn log2_gaussian(&self, k: f64) -> f64 {
        let t = Self::threshold(k);
        if t <= 0.0 {
            return 0.0;
        }
        self.union(ln_erfc(t / (2.0 * self.variance()).sqrt()) / core::f64::consts::LN_2)
    }

    /// The best estimate: Irwin-Hall where it is computed, else the Gaussian one.
    pub fn log2_estimate(&self, k: f64) -> f64 {
        self.log2_irwin_hall(k)
            .unwrap_or_else(|| self.log2_gaussian(k))
    }

    /// The smallest integer K whose Chernoff bound is at most 2^`log2_target`.
    pub fn smallest_k(&self, log2_target: f64) -> u32 {
        let mut k = 1u32;
        while self.log2_chernoff(f64::from(k)) > log2_target && k < u32::MAX / 2 {
            k += 1;
        }
        k
    }
}

/// The Langevin function coth y - 1/y (y > 0).
fn langevin(y: f64) -> f64 {
    if y < 1e-4 {
        return y / 3.0;
    }
    1.0 / y.tanh() - 1.0 / y
}

/// ln(sinh(y) / y) for y >= 0, without overflow.
fn ln_sinhc(y: f64) -> f64 {
    if y < 1e-3 {
        return y * y / 6.0;
    }
    y + (-(-2.0 * y).exp()).ln_1p() - (2.0 * y).ln()
}

/// ln erfc(x) for x >= 0 (Press et al., Numerical Recipes, erfcc: relative error below 1.2e-7,
/// written as an exponent so that the far tail does not underflow).
fn ln_erfc(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.5 * x);
    let c = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let poly = c.iter().rev().fold(0.0, |acc, &ci| acc * t + ci);
    t.ln() - x * x + poly
}

/// log2 of a positive big integer (-inf for 0 or less).
fn log2_big(x: &BigInt) -> f64 {
    if x.sign() != num_bigint::Sign::Plus {
        return f64::NEG_INFINITY;
    }
    let bits = x.bits();
    let shift = bits.saturating_sub(64);
    let top: BigInt = x >> shift;
    let top = u64::try_from(top).unwrap_or(u64::MAX);
    (top as f64).log2() + shift as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One uniform (h = 0): Pr[|U| >= t] = 1 - 2t exactly; two: the triangle, 2 (1 - t)^2 / 2.
    #[test]
    fn irwin_hall_small_cases() {
        // h = 0, K = 1: t = 1/2, the support edge: probability 0.
        assert_eq!(
            ModRaiseBound::new(1, 0).log2_irwin_hall(1.0),
            Some(f64::NEG_INFINITY)
        );
        // h = 1 (two terms), K = 1: t = 1/2, Pr[|S| >= 1/2] = (1 - 1/2)^2 = 1/4.
        let got = ModRaiseBound::new(1, 1).log2_irwin_hall(1.0).unwrap_or(0.0);
        assert!((got - (-2.0)).abs() < 1e-12, "{got}");
        // h = 2 (three terms), K = 1: t = 1/2, Pr[S >= 1/2] = 1/6 - ... : the Irwin-Hall CDF at
        // x = 1 is 1/6, both sides 1/3.
        let got = ModRaiseBound::new(1, 2).log2_irwin_hall(1.0).unwrap_or(0.0);
        assert!((got - (1.0f64 / 3.0).log2()).abs() < 1e-12, "{got}");
    }

    /// The rigorous bounds lie above the exact tail, Chernoff below Hoeffding, and the Gaussian
    /// estimate near the exact value in the bulk (within a factor 2 at 3 standard deviations).
    #[test]
    fn bounds_are_ordered() {
        for h in [32usize, 64, 192, 500] {
            let b = ModRaiseBound::new(1 << 16, h);
            let sigma = b.variance().sqrt();
            for k in 2..60u32 {
                let k = f64::from(k);
                let (hf, ch) = (b.log2_hoeffding(k), b.log2_chernoff(k));
                let ex = b.log2_irwin_hall(k).unwrap_or(0.0);
                assert!(
                    ch <= hf + 1e-9,
                    "h {h} K {k}: Chernoff {ch} > Hoeffding {hf}"
                );
                assert!(ex <= ch + 1e-9, "h {h} K {k}: exact {ex} > Chernoff {ch}");
            }
            let k = (3.0 * sigma + 0.5).round();
            let single = ModRaiseBound::new(1, h);
            let (ex, ga) = (
                single.log2_irwin_hall(k).unwrap_or(0.0),
                single.log2_gaussian(k),
            );
            assert!(
                (ex - ga).abs() < 1.0,
                "h {h} K {k}: exact {ex}, Gaussian {ga}"
            );
        }
    }

    #[test]
    fn smallest_k_meets_its_target() {
        let b = ModRaiseBound::new(1 << 16, 32);
        let k = b.smallest_k(-40.0);
        assert!(b.log2_chernoff(f64::from(k)) <= -40.0);
        assert!(b.log2_chernoff(f64::from(k - 1)) > -40.0);
    }
}
