//! CKKS parameters (paper 004 section 3, Setup(q, L, eta)): the base modulus q_0, the approximate-basis
//! chain q_1..q_L with |q_j / 2^scale_bits - 1| < 2^-eta, the special primes P, all = 1 mod 2N.

use rnsfhe_math::arith::{approximate_primes, ntt_primes};

use crate::params::{log2_product, Security, SecurityLevel};
use crate::rlwe::{KeySwitching, SecretDistribution};
use crate::{Error, Result};

/// Validated CKKS parameters (build with [`CkksParameters::builder`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CkksParameters {
    pub(crate) degree: usize,
    pub(crate) scale_bits: u32,
    /// q_0, q_1, ..., q_L.
    pub(crate) chain: Vec<u64>,
    pub(crate) special: Vec<u64>,
    pub(crate) eta: u32,
    pub(crate) sigma: f64,
    pub(crate) secret: SecretDistribution,
    pub(crate) key_switching: KeySwitching,
    pub(crate) security: Security,
}

impl CkksParameters {
    /// A builder with the defaults: N = 2^15, L = 10, scale 2^40, q_0 and P of 60 bits, dense ternary
    /// secret, sigma = 3.2, one RNS digit per prime, 128-bit security.
    pub fn builder() -> CkksParametersBuilder {
        CkksParametersBuilder::default()
    }
    /// The ring degree N (N/2 complex slots).
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// log2 of the default scale Delta.
    pub fn scale_bits(&self) -> u32 {
        self.scale_bits
    }
    /// The default scale Delta = 2^scale_bits.
    pub fn scale(&self) -> f64 {
        2f64.powi(self.scale_bits as i32)
    }
    /// The number of rescalings L.
    pub fn levels(&self) -> usize {
        self.chain.len() - 1
    }
    /// q_0, q_1, ..., q_L.
    pub fn moduli(&self) -> &[u64] {
        &self.chain
    }
    /// The special primes P.
    pub fn special_moduli(&self) -> &[u64] {
        &self.special
    }
    /// The security level the parameters were validated against.
    pub fn security(&self) -> Security {
        self.security
    }

    /// The achieved eta: every |q_j / 2^scale_bits - 1| < 2^-eta (j >= 1).
    pub fn eta(&self) -> u32 {
        self.eta
    }
    /// log2 of Q_L P.
    pub fn log_qp(&self) -> f64 {
        log2_product(&self.chain) + log2_product(&self.special)
    }
    /// The error standard deviation.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }
    /// The secret-key distribution.
    pub fn secret_distribution(&self) -> SecretDistribution {
        self.secret
    }
}

/// Builder for [`CkksParameters`].
#[derive(Clone, Debug)]
pub struct CkksParametersBuilder {
    degree: usize,
    levels: usize,
    scale_bits: u32,
    first_bits: u32,
    special_bits: Vec<u32>,
    sigma: f64,
    secret: SecretDistribution,
    key_switching: KeySwitching,
    security: Security,
}

impl Default for CkksParametersBuilder {
    fn default() -> Self {
        CkksParametersBuilder {
            degree: 1 << 15,
            levels: 10,
            scale_bits: 40,
            first_bits: 60,
            special_bits: vec![60],
            sigma: rnsfhe_math::sample::DEFAULT_SIGMA,
            secret: SecretDistribution::Ternary,
            key_switching: KeySwitching::default(),
            security: Security::Standard(SecurityLevel::Bits128),
        }
    }
}

impl CkksParametersBuilder {
    /// Ring degree N (a power of two).
    pub fn degree(mut self, n: usize) -> Self {
        self.degree = n;
        self
    }
    /// Number of rescalings L (the chain has L + 1 primes).
    pub fn levels(mut self, l: usize) -> Self {
        self.levels = l;
        self
    }
    /// log2 of the scale; the chain primes q_1..q_L are NTT primes closest to 2^scale_bits.
    pub fn scale_bits(mut self, b: u32) -> Self {
        self.scale_bits = b;
        self
    }
    /// Width of q_0 (decryption happens modulo q_0: values below q_0 / (2 Delta) in magnitude).
    pub fn first_modulus_bits(mut self, b: u32) -> Self {
        self.first_bits = b;
        self
    }
    /// Widths of the special primes P (at least one for key switching with digits of one prime).
    pub fn special_moduli_bits(mut self, bits: &[u32]) -> Self {
        self.special_bits = bits.to_vec();
        self
    }
    /// Error standard deviation.
    pub fn sigma(mut self, s: f64) -> Self {
        self.sigma = s;
        self
    }
    /// Secret distribution (paper 004: Hamming weight 64; default dense ternary).
    pub fn secret(mut self, d: SecretDistribution) -> Self {
        self.secret = d;
        self
    }
    /// Key-switching layout (digit_primes > 1 gives the hybrid dnum < L + 1).
    pub fn key_switching(mut self, k: KeySwitching) -> Self {
        self.key_switching = k;
        self
    }
    /// Security requirement.
    pub fn security(mut self, s: Security) -> Self {
        self.security = s;
        self
    }

    /// Picks the primes and validates.
    pub fn build(self) -> Result<CkksParameters> {
        let n = self.degree;
        if !n.is_power_of_two() || !(4..=1 << 17).contains(&n) {
            return Err(Error::InvalidDegree {
                degree: n,
                reason: "CKKS needs N a power of two in 2^2..2^17".into(),
            });
        }
        if self.levels == 0 || self.levels > 60 {
            return Err(Error::InvalidParameters(format!(
                "levels L = {} must be in 1..=60",
                self.levels
            )));
        }
        if !(20..=60).contains(&self.scale_bits)
            || !(self.scale_bits..=61).contains(&self.first_bits)
        {
            return Err(Error::InvalidParameters(format!(
                "scale of {} bits and q_0 of {} bits: need 20 <= scale <= q_0 <= 61 bits",
                self.scale_bits, self.first_bits
            )));
        }
        if self.special_bits.iter().any(|b| !(20..=61).contains(b)) {
            return Err(Error::InvalidParameters(
                "special primes must have 20..=61 bits".into(),
            ));
        }
        crate::params::check_sigma(self.sigma)?;
        let m = 2 * n as u64;
        // q_1..q_L: the approximate basis, closest to 2^scale first, with the largest eta that still
        // offers L primes.
        let mut chain_tail = Vec::new();
        let mut eta = self.scale_bits - 1;
        while eta > 1 {
            let found = match approximate_primes(self.scale_bits, eta, m) {
                Ok(found) => found,
                Err(Error::NotEnoughPrimes(_)) => Vec::new(),
                Err(e) => return Err(e),
            };
            if found.len() >= self.levels {
                chain_tail = found[..self.levels].to_vec();
                break;
            }
            eta -= 1;
        }
        if chain_tail.len() < self.levels {
            return Err(Error::NotEnoughPrimes(format!(
                "no {} primes = 1 mod 2N = {m} near 2^{}",
                self.levels, self.scale_bits
            )));
        }
        let mut chosen = chain_tail.clone();
        let q0 = ntt_primes(self.first_bits, m, 1, &chosen)?[0];
        chosen.push(q0);
        let mut special = Vec::new();
        for b in &self.special_bits {
            let p = ntt_primes(*b, m, 1, &chosen)?[0];
            chosen.push(p);
            special.push(p);
        }
        let mut chain = vec![q0];
        chain.extend(chain_tail);
        let log_qp = log2_product(&chain) + log2_product(&special);
        self.security.check(n, log_qp)?;
        self.security
            .check_distributions(n, log_qp, self.sigma, self.secret)?;
        self.key_switching.validate(chain.len(), special.len())?;
        Ok(CkksParameters {
            degree: n,
            scale_bits: self.scale_bits,
            chain,
            special,
            eta,
            sigma: self.sigma,
            secret: self.secret,
            key_switching: self.key_switching,
            security: self.security,
        })
    }
}
