//! CKKS parameters (paper 004 section 3, Setup(q, L, eta)): the base modulus q_0, the approximate-basis
//! chain q_1..q_L with |q_j / 2^scale_bits - 1| < 2^-eta, the special primes P, all = 1 mod 2N.

use rnsfhe_math::arith::{approximate_primes, ntt_primes};

use crate::params::{log2_product, ModuliLayout, Security, SecurityLevel, NARROW_BITS};
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
    /// A builder with the defaults: N = 2^15, L = 10, scale 2^40, q_0 of 60 bits, special primes P of
    /// 49 bits where they stay 2^8 above the widest digit (else 60), the key-switching digits of
    /// [`CkksParametersBuilder::key_switching`], dense ternary secret, sigma = 3.2, 128-bit security.
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
    /// The key-switching layout (digits of `digit_primes` primes).
    pub fn key_switching(&self) -> KeySwitching {
        self.key_switching
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
    /// Width of q_0; `None`: 60 bits, or 49 with [`ModuliLayout::Narrow`].
    first_bits: Option<u32>,
    /// The default primes' widths (q_0 and P when not given).
    layout: ModuliLayout,
    /// Special primes and layout; `None`: chosen by [`default_layout`].
    special_bits: Option<Vec<u32>>,
    sigma: f64,
    secret: SecretDistribution,
    key_switching: Option<KeySwitching>,
    security: Security,
}

/// Digit counts tried for the default key-switching layout, fewest first.
const DEFAULT_DIGITS: usize = 3;

/// The default key-switching layout for a chain of `k` primes (issue 12: chosen by measured cost within
/// the security bound, not only by noise). Fewer digits mean fewer NTTs and inner products per key
/// switch, but each digit needs special primes P at least as wide as the digit, which costs log QP.
/// Measured (`examples/ckks_ops 15 10 40 6 rot|mulrs D D`, AMD EPYC Zen 3, AVX2, one thread), N = 2^15,
/// 60 + 40 x 10: 11 digits of 1 prime and 1 special prime 96 / 95 ms (rotate / mul+relin+rescale),
/// 6 digits of 2 and 2 specials 64 / 73 ms, 3 digits of 4 and 4 specials 51 / 62 ms, 2 digits of 6 and
/// 6 specials 49 / 60 ms. Rule: the fewest digits from 3 up (OpenFHE's default; below 3 the gain is
/// small and the specials' cost in security budget large) such that ceil(k / digits) 60-bit special
/// primes keep log QP within `fits`; else one prime per digit and one 60-bit special prime.
/// The special primes are `width` bits wide (60, or 49 for [`ModuliLayout::Narrow`]); `fits` gets their
/// number.
pub(crate) fn default_layout(
    k: usize,
    width: u32,
    fits: impl Fn(usize) -> bool,
) -> (KeySwitching, Vec<u32>) {
    for digits in DEFAULT_DIGITS.min(k)..=k {
        let per = k.div_ceil(digits);
        if fits(per) {
            let ks = KeySwitching {
                digit_primes: per,
                ..KeySwitching::default()
            };
            return (ks, vec![width; per]);
        }
    }
    (KeySwitching::default(), vec![width])
}

/// The default layout's special primes narrowed to [`NARROW_BITS`] bits where that keeps P at least
/// 2^8 above the widest digit (the digits of `per` consecutive chain primes, q_0's first), else the
/// 60-bit `wide` ones. The key-switching term (widest digit) sigma sqrt(dnum N) / P then stays orders
/// of magnitude below ModDown's rounding term (about sqrt(N h / 12)), and every special limb runs
/// AVX-512 IFMA's 52-bit kernels. Precision measured against 60-bit special primes: x^2 then a
/// rotation at N = 2^15, L = 10, six key seeds, worst slot error 2^-22.75..-23.24 against
/// 2^-22.57..-23.16 (`tests/moduli_layout.rs`); random circuits at N = 2^15, L = 12 (`tests/
/// ckks_scales.rs`, four key seeds), median node error 0.0-0.3 bits higher, worst node within the
/// spread of the seeds. Measured (issue 22, `peer_bench --ckks
/// 32768:10`, Intel Xeon with AVX-512 IFMA, one thread, medians): N = 2^15, 60 + 40 x 10 with 4
/// special primes of 49 instead of 60 bits, mul+relin+rescale 30.6 against 37.7 ms and rotate 24.7
/// against 31.8 ms on avx512ifma; 54.5 against 55.0 and 43.8 against 44.8 ms on avx2 (no loss).
fn narrow_specials(chain: &[u64], per: usize, wide: Vec<u32>, m: u64) -> Result<Vec<u32>> {
    let widest_digit = chain
        .chunks(per.max(1))
        .map(log2_product)
        .fold(0.0, f64::max);
    let narrow = vec![NARROW_BITS; wide.len()];
    let p = ntt_primes(NARROW_BITS, m, narrow.len(), chain)?;
    Ok(if log2_product(&p) >= widest_digit + 8.0 {
        narrow
    } else {
        wide
    })
}

impl Default for CkksParametersBuilder {
    fn default() -> Self {
        CkksParametersBuilder {
            degree: 1 << 15,
            levels: 10,
            scale_bits: 40,
            first_bits: None,
            layout: ModuliLayout::Default,
            special_bits: None,
            sigma: rnsfhe_math::sample::DEFAULT_SIGMA,
            secret: SecretDistribution::Ternary,
            key_switching: None,
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
        self.first_bits = Some(b);
        self
    }
    /// Widths of the primes not given explicitly: `Default` a 60-bit q_0 and special primes of 49 bits
    /// where P stays 2^8 above the widest digit, else 60 (same precision, and faster on IFMA CPUs,
    /// equal on AVX2); `Narrow` 49 bits for both (at least the scale), so that every kernel runs AVX-512 IFMA's
    /// 52-bit arithmetic on IFMA CPUs (see [`ModuliLayout`]). Narrow keeps about 9 bits of integer
    /// part in q_0 at scale 2^40 (values below 2^8 at the last level) instead of 20.
    pub fn layout(mut self, layout: ModuliLayout) -> Self {
        self.layout = layout;
        self
    }
    /// Widths of the special primes P (at least one for key switching with digits of one prime).
    /// Default: chosen with the digit count (see [`CkksParametersBuilder::key_switching`]).
    pub fn special_moduli_bits(mut self, bits: &[u32]) -> Self {
        self.special_bits = Some(bits.to_vec());
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
    /// Key-switching layout (digit_primes > 1 gives the hybrid dnum < L + 1). Default, when neither
    /// this nor the special primes are given: 3 digits with as many 60-bit special primes as a digit
    /// has primes, or more digits where the security bound needs it (measured: 1.9x faster rotations
    /// than one prime per digit at N = 2^15); given special primes alone keep one prime per digit.
    pub fn key_switching(mut self, k: KeySwitching) -> Self {
        self.key_switching = Some(k);
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
        let width = match self.layout {
            ModuliLayout::Default => 60,
            ModuliLayout::Narrow => NARROW_BITS.max(self.scale_bits),
        };
        let first_bits = self.first_bits.unwrap_or(width);
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
        if !(20..=60).contains(&self.scale_bits) || !(self.scale_bits..=61).contains(&first_bits) {
            return Err(Error::InvalidParameters(format!(
                "scale of {} bits and q_0 of {} bits: need 20 <= scale <= q_0 <= 61 bits",
                self.scale_bits, first_bits
            )));
        }
        if self
            .special_bits
            .iter()
            .flatten()
            .any(|b| !(20..=61).contains(b))
        {
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
                Err(rnsfhe_math::Error::NotEnoughPrimes(_)) => Vec::new(),
                Err(e) => return Err(e.into()),
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
        let q0 = ntt_primes(first_bits, m, 1, &chosen)?[0];
        chosen.push(q0);
        let log_q = log2_product(&chain_tail) + log2_product(&[q0]);
        let (key_switching, special_bits) = match (self.key_switching, self.special_bits.clone()) {
            (None, None) => default_layout(self.levels + 1, width, |specials| {
                let log_qp = log_q + f64::from(width) * specials as f64;
                self.security.check(n, log_qp).is_ok()
                    && self
                        .security
                        .check_distributions(n, log_qp, self.sigma, self.secret)
                        .is_ok()
            }),
            (ks, bits) => (ks.unwrap_or_default(), bits.unwrap_or_else(|| vec![width])),
        };
        let mut chain = vec![q0];
        chain.extend(chain_tail);
        let special_bits = match (self.layout, self.key_switching, &self.special_bits) {
            (ModuliLayout::Default, None, None) => {
                narrow_specials(&chain, key_switching.digit_primes, special_bits, m)?
            }
            _ => special_bits,
        };
        let mut special = Vec::new();
        for b in &special_bits {
            let p = ntt_primes(*b, m, 1, &chosen)?[0];
            chosen.push(p);
            special.push(p);
        }
        let log_qp = log2_product(&chain) + log2_product(&special);
        self.security.check(n, log_qp)?;
        self.security
            .check_distributions(n, log_qp, self.sigma, self.secret)?;
        key_switching.validate(chain.len(), special.len())?;
        Ok(CkksParameters {
            degree: n,
            scale_bits: self.scale_bits,
            chain,
            special,
            eta,
            sigma: self.sigma,
            secret: self.secret,
            key_switching,
            security: self.security,
        })
    }
}
