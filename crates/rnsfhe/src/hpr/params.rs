//! HPR-FV parameters (Bajard et al. (HPR-FV, ePrint 2019/500), Table 3): q = p^d with p = p_1 ... p_k, so q is not square-free
//! and the BFV parameter type (a product of distinct primes) does not fit.

use num_bigint::BigUint;
use rnsfhe_math::arith::ntt_primes;

use crate::params::Security;
use crate::rlwe::SecretDistribution;
use crate::{Error, Result};

/// A validated HPR-FV parameter set: ring degree n, plaintext modulus t, k primes p_i of P, d digits,
/// the k + 1 moduli of B_sk = B u {m_sk}, the error sigma, and the security requirement on log2 q.
#[derive(Clone, Debug, PartialEq)]
pub struct HprParameters {
    n: usize,
    t: u64,
    d: usize,
    p: Vec<u64>,
    b_sk: Vec<u64>,
    sigma: f64,
    security: Security,
}

impl HprParameters {
    /// k primes of `bits` bits for P and k + 1 more for B_sk (all 1 mod 2n, so every digit has an
    /// NTT), d digits, log2 q = d log2 p checked by `security`. Errors name the wrong input.
    pub fn new(
        n: usize,
        t: u64,
        k: usize,
        d: usize,
        bits: u32,
        sigma: f64,
        security: Security,
    ) -> Result<Self> {
        if !(50..=61).contains(&bits) {
            return Err(Error::InvalidParameters(format!(
                "HPR primes of {bits} bits: use 50..=61 (Bajard et al. (HPR-FV, ePrint 2019/500) uses 55 and 61)"
            )));
        }
        if k == 0 || k > 16 {
            return Err(Error::InvalidParameters(format!(
                "k = {k} primes per digit: use 1..=16"
            )));
        }
        if !n.is_power_of_two() || n < 8 {
            return Err(Error::InvalidDegree {
                degree: n,
                reason: "HPR needs a power of two >= 8".into(),
            });
        }
        let all = ntt_primes(bits, 2 * n as u64, 2 * k + 1, &[])?;
        Self::with_moduli(n, t, d, &all[..k], &all[k..], sigma, security)
    }

    /// Explicit moduli: P (k primes), B_sk (k + 1, m_sk last), all distinct primes 1 mod 2n.
    pub fn with_moduli(
        n: usize,
        t: u64,
        d: usize,
        p: &[u64],
        b_sk: &[u64],
        sigma: f64,
        security: Security,
    ) -> Result<Self> {
        let params = HprParameters {
            n,
            t,
            d,
            p: p.to_vec(),
            b_sk: b_sk.to_vec(),
            sigma,
            security,
        };
        params.validate()?;
        Ok(params)
    }

    fn validate(&self) -> Result<()> {
        let (n, t, d, k) = (self.n, self.t, self.d, self.p.len());
        if !(2..=64).contains(&d) {
            return Err(Error::InvalidParameters(format!(
                "d = {d} digits: use 2..=64"
            )));
        }
        if t < 2 || t >> 40 != 0 {
            return Err(Error::InvalidParameters(format!(
                "plaintext modulus t = {t}: use 2 <= t < 2^40"
            )));
        }
        if !(self.sigma.is_finite() && self.sigma > 0.0 && self.sigma <= 1e6) {
            return Err(Error::InvalidParameters(format!(
                "sigma = {}: must be positive and finite",
                self.sigma
            )));
        }
        if k == 0 || self.b_sk.len() != k + 1 {
            return Err(Error::InvalidParameters(format!(
                "B_sk needs k + 1 = {} moduli, got {}",
                k + 1,
                self.b_sk.len()
            )));
        }
        for &m in self.p.iter().chain(&self.b_sk) {
            if !rnsfhe_math::arith::is_prime(m) || m % (2 * n as u64) != 1 || m >> 61 > 1 {
                return Err(Error::InvalidModulus {
                    modulus: m,
                    reason: format!(
                        "HPR moduli are primes below 2^62 that are 1 mod 2n = {}",
                        2 * n
                    ),
                });
            }
            if t % m == 0 {
                return Err(Error::InvalidParameters(format!(
                    "t = {t} is a multiple of the modulus {m}"
                )));
            }
        }
        // Products of section 4 (Lemma 3): digits of t * c * c' reach (Karatsuba sums, digits
        // |c_j| <= k p / 2, lifted top digit) about t d n k^2 p^2, relinearisation adds
        // d k n p_j k p / 4; both must stay below (P B m_sk) / 2, and the carries of such digits
        // below lambda * b (Shenoy-Kumaresan, Bajard et al. (SAC 2016) Lemma 6). Checked with a 4x margin.
        let p = self.p.iter().fold(BigUint::from(1u8), |a, &x| a * x);
        let b = self.b_sk[..k]
            .iter()
            .fold(BigUint::from(1u8), |a, &x| a * x);
        let m_sk = self.b_sk[k];
        let growth = BigUint::from(4u8) * (4 * t + 2) * d as u64 * n as u64 * (k * k) as u64;
        let full = &p * &b * m_sk;
        if &growth * &p * &p * 2u8 >= full {
            return Err(Error::InvalidParameters(format!(
                "P u B_sk is too small for products at t = {t}, n = {n}, d = {d}: use wider B primes \
                 or a smaller t"
            )));
        }
        let lambda = (m_sk - 1) / 2 - k as u64;
        if &growth * &p >= b * lambda {
            return Err(Error::InvalidParameters(
                "B is too small for exact carries (Shenoy-Kumaresan): use wider B primes".into(),
            ));
        }
        self.security.check(n, self.log_q())?;
        self.security.check_distributions(
            n,
            self.log_q(),
            self.sigma,
            SecretDistribution::Ternary,
        )?;
        Ok(())
    }

    /// The ring degree n.
    pub fn degree(&self) -> usize {
        self.n
    }

    /// The plaintext modulus t.
    pub fn plain_modulus(&self) -> u64 {
        self.t
    }

    /// The number of digits d (q = p^d).
    pub fn digits(&self) -> usize {
        self.d
    }

    /// The primes of P (k of them).
    pub fn p_moduli(&self) -> &[u64] {
        &self.p
    }

    /// B_sk = B u {m_sk}, m_sk last.
    pub fn b_sk_moduli(&self) -> &[u64] {
        &self.b_sk
    }

    /// The error standard deviation.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// The security requirement this set was checked against.
    pub fn security(&self) -> Security {
        self.security
    }

    /// log2 q = d log2 p.
    pub fn log_q(&self) -> f64 {
        self.d as f64 * crate::params::security::log2_product(&self.p)
    }

    /// q = p^d.
    pub fn q(&self) -> BigUint {
        num_traits::pow(
            self.p.iter().fold(BigUint::from(1u8), |a, &x| a * x),
            self.d,
        )
    }
}
