//! CKKS parameters (Cheon et al. (SAC 2018) section 3, Setup(q, L, eta)): the base modulus q_0, the approximate-basis
//! chain q_1..q_L with |q_j / 2^bits_j - 1| < 2^-eta, the special primes P, all = 1 mod 2N. The chain's
//! widths are one (`scale_bits`, Cheon et al. (SAC 2018)) or given per level (`chain_bits`: the chains of
//! bootstrapping, whose EvalMod and CoeffsToSlots levels want wider primes than the levels computed on;
//! Bossuat et al., Eurocrypt 2021, section 6), with the scale 2^scale_bits at one level
//! (`scale_level`; the scales of the others follow, `scales.rs`).

use rnsfhe_math::arith::ntt_primes;

use super::moduli::{chain_primes, default_layout, narrow_specials, special_width, CHAIN_WIDTHS};
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
    /// The level R whose scale is 2^scale_bits (L by default).
    pub(crate) scale_level: usize,
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
    /// log2 of the scale Delta_R of the scale level R ([`Self::scale_level`]).
    pub fn scale_bits(&self) -> u32 {
        self.scale_bits
    }
    /// The scale Delta_R = 2^scale_bits of the scale level R: the scale of fresh ciphertexts when R
    /// is the top level L (the default); the scale of level l is `CkksContext::scale_at(l)`.
    pub fn scale(&self) -> f64 {
        2f64.powi(self.scale_bits as i32)
    }
    /// The number of rescalings L.
    pub fn levels(&self) -> usize {
        self.chain.len() - 1
    }
    /// The level R whose scale is exactly 2^scale_bits (the top level L unless the builder's
    /// `scale_level` chose a lower one).
    pub fn scale_level(&self) -> usize {
        self.scale_level
    }
    /// The widths of q_0, q_1, ..., q_L (log2 q rounded to the nearest integer).
    pub fn chain_bits(&self) -> Vec<u32> {
        super::moduli::widths(&self.chain)
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

    /// The achieved eta: every |q_j / 2^bits_j - 1| < 2^-eta (j >= 1), bits_j the width of q_j in
    /// [`Self::chain_bits`] (scale_bits for every j of a uniform chain: Cheon et al. (SAC 2018)'s eta). Over a chain
    /// of several widths it is the smallest of their etas, so that it bounds every scaling prime's
    /// distance to its power of two (the drift of the scales below R, the tolerance of additions at
    /// one level).
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
    /// Widths of q_0, q_1, ..., q_L; `None`: `first_bits` and L of `scale_bits`.
    chain_bits: Option<Vec<u32>>,
    /// The level whose scale is 2^scale_bits; `None`: L.
    scale_level: Option<usize>,
    /// The default primes' widths (q_0 and P when not given).
    layout: ModuliLayout,
    /// Special primes and layout; `None`: chosen by [`default_layout`].
    special_bits: Option<Vec<u32>>,
    sigma: f64,
    secret: SecretDistribution,
    key_switching: Option<KeySwitching>,
    security: Security,
}

impl Default for CkksParametersBuilder {
    fn default() -> Self {
        CkksParametersBuilder {
            degree: 1 << 15,
            levels: 10,
            scale_bits: 40,
            first_bits: None,
            chain_bits: None,
            scale_level: None,
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
    /// log2 of the scale of the scale level R (20..=60); without `chain_bits` the chain primes
    /// q_1..q_L are NTT primes closest to 2^scale_bits.
    pub fn scale_bits(mut self, b: u32) -> Self {
        self.scale_bits = b;
        self
    }
    /// Width of q_0 (decryption happens modulo q_0: values below q_0 / (2 Delta) in magnitude).
    pub fn first_modulus_bits(mut self, b: u32) -> Self {
        self.first_bits = Some(b);
        self
    }
    /// The widths of q_0, q_1, ..., q_L, bottom first (each in 20..=61; at least q_0 and one level):
    /// a chain whose primes differ in width per level, as bootstrapping needs (q_0, the levels
    /// computed on, then SlotsToCoeffs, EvalMod and CoeffsToSlots levels of their own widths).
    /// Overrides `levels` and `first_modulus_bits`; `scale_bits` still gives the scale, at
    /// [`Self::scale_level`]. The primes are = 1 mod 2N, distinct, and each width's nearest to
    /// 2^width (Cheon et al. (SAC 2018)'s approximate basis per width, the nearest at the lowest level; q_0 the
    /// largest below 2^bits_0).
    pub fn chain_bits(mut self, bits: Vec<u32>) -> Self {
        self.chain_bits = Some(bits);
        self
    }
    /// The level R whose scale is exactly 2^scale_bits (default: the top level L; R <= L). The
    /// scales below R follow from Delta_{l-1} = Delta_l^2 / q_l and those above from Delta_l =
    /// sqrt(Delta_{l-1} q_l) (`CkksContext::scale_at`): with R the last level computed on, the levels
    /// above it (bootstrapping's) take scales near their own primes.
    pub fn scale_level(mut self, r: usize) -> Self {
        self.scale_level = Some(r);
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
    /// Secret distribution (Cheon et al. (SAC 2018): Hamming weight 64; default dense ternary).
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

    /// Picks the primes and validates. Errors: `InvalidDegree`, `InvalidParameters` naming the
    /// setting out of range (a `chain_bits` entry by its index), `NotEnoughPrimes` naming the width
    /// and the entries without primes, and the security bound's refusals.
    pub fn build(self) -> Result<CkksParameters> {
        let n = self.degree;
        let width = match self.layout {
            ModuliLayout::Default => 60,
            ModuliLayout::Narrow => NARROW_BITS.max(self.scale_bits),
        };
        if !n.is_power_of_two() || !(4..=1 << 17).contains(&n) {
            return Err(Error::InvalidDegree {
                degree: n,
                reason: "CKKS needs N a power of two in 2^2..2^17".into(),
            });
        }
        let bits = self.widths(width)?;
        let top = bits.len() - 1;
        let first_bits = bits[0];
        if !(20..=60).contains(&self.scale_bits) || !(self.scale_bits..=61).contains(&first_bits) {
            return Err(Error::InvalidParameters(format!(
                "scale of {} bits and q_0 of {} bits: need 20 <= scale <= q_0 <= 61 bits",
                self.scale_bits, first_bits
            )));
        }
        let scale_level = self.scale_level.unwrap_or(top);
        if scale_level > top {
            return Err(Error::InvalidParameters(format!(
                "scale_level R = {scale_level} is above the top level L = {top}"
            )));
        }
        if self
            .special_bits
            .iter()
            .flatten()
            .any(|b| !CHAIN_WIDTHS.contains(b))
        {
            return Err(Error::InvalidParameters(
                "special primes must have 20..=61 bits".into(),
            ));
        }
        crate::params::check_sigma(self.sigma)?;
        let m = 2 * n as u64;
        let (chain, eta) = chain_primes(&bits, m)?;
        let mut chosen = chain.clone();
        let width = special_width(width, &chain);
        let log_q = log2_product(&chain[1..]) + log2_product(&chain[..1]);
        let (key_switching, special_bits) = match (self.key_switching, self.special_bits.clone()) {
            (None, None) => default_layout(top + 1, width, |specials| {
                let log_qp = log_q + f64::from(width) * specials as f64;
                self.security.check(n, log_qp).is_ok()
                    && self
                        .security
                        .check_distributions(n, log_qp, self.sigma, self.secret)
                        .is_ok()
            }),
            (ks, bits) => (ks.unwrap_or_default(), bits.unwrap_or_else(|| vec![width])),
        };
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
            scale_level,
            sigma: self.sigma,
            secret: self.secret,
            key_switching,
            security: self.security,
        })
    }

    /// The widths of q_0..q_L: `chain_bits`, or q_0's (`first_modulus_bits`, else the layout's
    /// `width`) and L of `scale_bits`; checked (1..=60 levels, entries in [`CHAIN_WIDTHS`]).
    fn widths(&self, width: u32) -> Result<Vec<u32>> {
        let Some(bits) = &self.chain_bits else {
            if self.levels == 0 || self.levels > 60 {
                return Err(Error::InvalidParameters(format!(
                    "levels L = {} must be in 1..=60",
                    self.levels
                )));
            }
            let mut bits = vec![self.first_bits.unwrap_or(width)];
            bits.extend(std::iter::repeat_n(self.scale_bits, self.levels));
            return Ok(bits);
        };
        if !(2..=61).contains(&bits.len()) {
            return Err(Error::InvalidParameters(format!(
                "chain_bits has {} entries: need q_0 and 1..=60 levels",
                bits.len()
            )));
        }
        if let Some((j, b)) = bits
            .iter()
            .enumerate()
            .find(|(_, b)| !CHAIN_WIDTHS.contains(b))
        {
            return Err(Error::InvalidParameters(format!(
                "chain_bits[{j}] = {b} bits is outside 20..=61 (primes = 1 mod 2N up to N = 2^17 \
                 need 20 bits; the nearest primes to 2^bits must stay below 2^62)"
            )));
        }
        Ok(bits.clone())
    }
}
