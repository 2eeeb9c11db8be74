//! [`RlweParameters`]: the parameters every RLWE scheme over a modulus chain shares — the ring (degree
//! n or cyclotomic index m and its reduction), the ciphertext and special moduli, the error and secret
//! distributions, the key-switching layout and the security requirement — and the builder core that
//! validates them. BFV and BGV hold one and add only their own settings (t, multiplication, ...), as
//! Lattigo's `bgv.Parameters` embeds `rlwe.Parameters`: the scheme types dereference to it, so its
//! fields and accessors read as the scheme's own.

use rnsfhe_math::arith::{is_prime, ntt_primes};
use rnsfhe_math::ring::cyclotomic::multiplicative_order;
use rnsfhe_math::ring::Reduction;

use super::{
    check_sigma, log2_product, resolve_cyclotomic, security_degree, Security, SecurityLevel,
    MONTGOMERY_FLAG,
};
use crate::rlwe::{KeySwitching, SecretDistribution};
use crate::{Error, Result};

/// Validated RLWE parameters shared by the schemes (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct RlweParameters {
    pub(crate) degree: usize,
    pub(crate) moduli: Vec<u64>,
    pub(crate) special_moduli: Vec<u64>,
    pub(crate) sigma: f64,
    pub(crate) secret: SecretDistribution,
    pub(crate) key_switching: KeySwitching,
    pub(crate) security: Security,
    /// Some(m) for a general Phi_m ring (Bajard et al. (SAC 2017)), None for X^n + 1.
    pub(crate) cyclotomic: Option<usize>,
    pub(crate) reduction: Reduction,
}

impl RlweParameters {
    /// The ring degree n.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// The ciphertext moduli q_0..q_L (level l has q_0..q_l).
    pub fn moduli(&self) -> &[u64] {
        &self.moduli
    }
    /// The special (key-switching) moduli P.
    pub fn special_moduli(&self) -> &[u64] {
        &self.special_moduli
    }
    /// The standard deviation of the error distribution.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }
    /// The secret-key distribution.
    pub fn secret_distribution(&self) -> SecretDistribution {
        self.secret
    }
    /// The key-switching layout (digits, special moduli, second-level digits, truncation).
    pub fn key_switching(&self) -> KeySwitching {
        self.key_switching
    }
    /// The security requirement the parameters were validated against.
    pub fn security(&self) -> Security {
        self.security
    }
    /// log2 Q of the top level.
    pub fn log_q(&self) -> f64 {
        log2_product(&self.moduli)
    }
    /// The cyclotomic index m of Phi_m (2n for power-of-two rings).
    pub fn cyclotomic_index(&self) -> usize {
        self.cyclotomic.unwrap_or(2 * self.degree)
    }
    /// Whether the ring is a general Phi_m (built with `cyclotomic_index`), not X^n + 1.
    pub fn is_general_cyclotomic(&self) -> bool {
        self.cyclotomic.is_some()
    }
    /// The reduction modulo Phi_m of a general ring (Bajard et al. (SAC 2017) section 3).
    pub fn reduction(&self) -> Reduction {
        self.reduction
    }

    /// Whether a general Phi_m ring reduces by Montgomery (Bajard et al. (SAC 2017) section 4: BGV's c M pipeline,
    /// FV's mixed strategy).
    pub(crate) fn montgomery(&self) -> bool {
        self.cyclotomic.is_some() && self.reduction == Reduction::Montgomery
    }
    /// The degree word of fingerprints and bytes (`crate::params::degree_word`), with
    /// `MONTGOMERY_FLAG` under a Montgomery reduction (its ciphertexts or keys hold other residues).
    pub(crate) fn degree_word(&self) -> u64 {
        let w = super::degree_word(self.degree, self.cyclotomic);
        if self.montgomery() {
            w | MONTGOMERY_FLAG
        } else {
            w
        }
    }
    /// [`Self::degree_word`] as a fingerprint's degree.
    pub(crate) fn fingerprint_degree(&self) -> usize {
        self.degree_word() as usize
    }
    /// The number of batching slots for plaintext modulus t: n when t is a prime = 1 mod 2n
    /// (power-of-two rings); for a general Phi_m and a prime t not dividing m, l = n / ord_m(t) slots
    /// of GF(t^d) (Bajard et al. (SAC 2017) section 2.4); otherwise 0.
    pub(crate) fn batching_slots(&self, t: u64) -> usize {
        if let Some(m) = self.cyclotomic {
            return match multiplicative_order(t, m as u64) {
                Some(d) if is_prime(t) => self.degree / d,
                _ => 0,
            };
        }
        let two_n = 2 * self.degree as u64;
        if is_prime(t) && t % two_n == 1 {
            self.degree
        } else {
            0
        }
    }
}

/// The builder core of the schemes' parameter builders: every field has a default, the scheme
/// builders set them through `rlwe_builder_setters!` and validate with [`Self::ring`] then
/// [`Self::build`].
#[derive(Clone, Debug)]
pub(crate) struct RlweParametersBuilder {
    pub(crate) degree: usize,
    pub(crate) moduli: Option<Vec<u64>>,
    pub(crate) moduli_bits: Option<Vec<u32>>,
    pub(crate) special: Option<Vec<u64>>,
    pub(crate) special_bits: Option<Vec<u32>>,
    pub(crate) sigma: f64,
    pub(crate) secret: SecretDistribution,
    pub(crate) key_switching: KeySwitching,
    pub(crate) security: Security,
    pub(crate) cyclotomic: Option<usize>,
    pub(crate) reduction: Reduction,
    pub(crate) layout: super::ModuliLayout,
}

impl Default for RlweParametersBuilder {
    fn default() -> Self {
        RlweParametersBuilder {
            degree: 8192,
            moduli: None,
            moduli_bits: None,
            special: None,
            special_bits: None,
            sigma: rnsfhe_math::sample::DEFAULT_SIGMA,
            secret: SecretDistribution::Ternary,
            key_switching: KeySwitching::default(),
            security: Security::Standard(SecurityLevel::Bits128),
            cyclotomic: None,
            reduction: Reduction::SparseBarrett,
            layout: super::ModuliLayout::Default,
        }
    }
}

/// A default moduli rule: (ciphertext widths, special widths) for degree n at a security level.
pub(crate) type DefaultWidths = fn(usize, Security) -> Result<(Vec<u32>, Vec<u32>)>;

/// What a scheme asks of its ciphertext moduli beyond the ring's step.
pub(crate) struct ModuliRule {
    /// Every ciphertext modulus is 1 modulo it (the ring's step; BGV: lcm with t, Lemma 3).
    pub(crate) step: u64,
    /// A value no modulus may take (BGV: t).
    pub(crate) avoid: Option<u64>,
    /// The reason given for an explicit ciphertext modulus off the rule.
    pub(crate) reason: String,
    /// The default widths (ciphertext, special) for degree n at a security level, when neither
    /// moduli nor widths are given: `default_moduli_bits`, or BFV's `default_bfv_moduli_bits`.
    pub(crate) default: DefaultWidths,
}

impl RlweParametersBuilder {
    /// Resolves the ring (`cyclotomic_index`, Bajard et al. (SAC 2017)) and checks the degree of a power-of-two
    /// ring: (n, Some(m) for a general Phi_m).
    pub(crate) fn ring(&mut self, scheme: &str) -> Result<(usize, Option<usize>)> {
        let general = resolve_cyclotomic(self.cyclotomic, &mut self.degree)?;
        let n = self.degree;
        if general.is_none() && (!n.is_power_of_two() || !(2..=1 << 17).contains(&n)) {
            return Err(Error::InvalidDegree {
                degree: n,
                reason: format!("{scheme} needs n a power of two in 2^1..2^17"),
            });
        }
        Ok((n, general))
    }

    /// Validates sigma, picks the moduli under `rule`, checks security and the key-switching layout.
    /// `two_n` is the ring's step (`crate::params::ring_step`).
    pub(crate) fn build(
        self,
        (n, general): (usize, Option<usize>),
        two_n: u64,
        rule: &ModuliRule,
    ) -> Result<RlweParameters> {
        check_sigma(self.sigma)?;
        let (moduli, special) = self.pick_moduli(n, two_n, rule)?;
        let mut all = moduli.clone();
        all.extend(&special);
        let n_sec = security_degree(n);
        self.security.check(n_sec, log2_product(&all))?;
        self.security
            .check_distributions(n_sec, log2_product(&all), self.sigma, self.secret)?;
        self.key_switching.validate(moduli.len(), special.len())?;
        Ok(RlweParameters {
            degree: n,
            moduli,
            special_moduli: special,
            sigma: self.sigma,
            secret: self.secret,
            key_switching: self.key_switching,
            security: self.security,
            cyclotomic: general,
            reduction: self.reduction,
        })
    }

    /// Explicit moduli, widths, or the default split of the security bound
    /// (`crate::params::default_moduli_bits`). Ciphertext primes are 1 mod `rule.step`, special
    /// primes 1 mod `two_n`; generated primes avoid `rule.avoid`.
    fn pick_moduli(&self, n: usize, two_n: u64, rule: &ModuliRule) -> Result<(Vec<u64>, Vec<u64>)> {
        let step = rule.step;
        let (bits, special_bits): (Vec<u32>, Vec<u32>) = match (&self.moduli, &self.moduli_bits) {
            (Some(q), _) => {
                let mut sp = self.special.clone().unwrap_or_default();
                for &b in self.special_bits.as_deref().unwrap_or_default() {
                    let exclude: Vec<u64> = q.iter().chain(&sp).copied().collect();
                    sp.extend(ntt_primes(b, two_n, 1, &exclude)?);
                }
                for &qi in q {
                    if !is_prime(qi) || qi % step != 1 {
                        return Err(Error::InvalidModulus {
                            modulus: qi,
                            reason: rule.reason.clone(),
                        });
                    }
                }
                for &p in &sp {
                    if !is_prime(p) || p % two_n != 1 || Some(p) == rule.avoid {
                        return Err(Error::InvalidModulus {
                            modulus: p,
                            reason: format!(
                                "special moduli must be primes = 1 mod {two_n} (the ring)"
                            ),
                        });
                    }
                }
                let mut all = q.clone();
                all.extend(&sp);
                let mut sorted = all.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if q.is_empty() || sorted.len() != all.len() {
                    return Err(Error::InvalidParameters(
                        "ciphertext and special moduli must be distinct and at least one".into(),
                    ));
                }
                return Ok((q.clone(), sp));
            }
            (None, Some(b)) => (b.clone(), self.special_bits.clone().unwrap_or_default()),
            (None, None) => {
                let (bits, sp) = match self.layout {
                    super::ModuliLayout::Default => (rule.default)(n, self.security)?,
                    super::ModuliLayout::Narrow => super::default_moduli_bits(n, self.security)?,
                };
                (bits, self.special_bits.clone().unwrap_or(sp))
            }
        };
        if bits.is_empty() {
            return Err(Error::InvalidParameters(
                "at least one ciphertext modulus is needed".into(),
            ));
        }
        let mut chosen: Vec<u64> = Vec::new();
        for (i, b) in bits.iter().chain(&special_bits).enumerate() {
            if !(20..=62).contains(b) {
                return Err(Error::InvalidParameters(format!(
                    "modulus width {b} bits is outside 20..=62"
                )));
            }
            let m = if i < bits.len() { step } else { two_n };
            let mut exclude = chosen.clone();
            exclude.extend(rule.avoid);
            chosen.extend(ntt_primes(*b, m, 1, &exclude)?);
        }
        let special = chosen.split_off(bits.len());
        Ok((chosen, special))
    }
}

/// Ok when a plaintext modulus t is in 2..2^60 (BFV, BGV).
pub(crate) fn check_plain_modulus(t: u64) -> Result<()> {
    if t < 2 || t >> 60 != 0 {
        return Err(Error::InvalidParameters(format!(
            "plaintext modulus t = {t} must be in 2..2^60"
        )));
    }
    Ok(())
}

/// The setters of the [`RlweParametersBuilder`] fields that BFV and BGV builders share, written once
/// (invoked inside `impl XParametersBuilder`, whose field `core` holds the builder core and, with
/// `plain_modulus`, whose field `plain_modulus` holds t).
macro_rules! rlwe_builder_setters {
    (plain_modulus) => {
        /// Plaintext modulus t >= 2 (a prime = 1 mod 2n enables batching).
        pub fn plain_modulus(mut self, t: u64) -> Self {
            self.plain_modulus = t;
            self
        }
        $crate::params::shared::rlwe_builder_setters!();
    };
    () => {
        /// Explicit ciphertext moduli, q_0 first (primes = 1 mod 2n, or lcm(N, m) for a general
        /// Phi_m; BGV: and = 1 mod t, Bajard et al. (SAC 2017) Lemma 3).
        pub fn moduli(mut self, q: &[u64]) -> Self {
            self.core.moduli = Some(q.to_vec());
            self
        }
        /// Ring degree n, a power of two in 2^10..2^16 (2^1.. with `Security::InsecureResearchOnly`).
        pub fn degree(mut self, n: usize) -> Self {
            self.core.degree = n;
            self
        }
        /// Ciphertext moduli by width: one NTT prime per entry (20..=62 bits), q_0 first.
        pub fn moduli_bits(mut self, bits: &[u32]) -> Self {
            self.core.moduli_bits = Some(bits.to_vec());
            self
        }
        /// Explicit special moduli (NTT primes = 1 mod 2n, distinct from the ciphertext moduli).
        pub fn special_moduli(mut self, p: &[u64]) -> Self {
            self.core.special = Some(p.to_vec());
            self
        }
        /// Special key-switching moduli by width (empty: RNS digits without special modulus, paper
        /// 000).
        pub fn special_moduli_bits(mut self, bits: &[u32]) -> Self {
            self.core.special_bits = Some(bits.to_vec());
            self
        }
        /// Error standard deviation (default 3.2; Bajard et al. (SAC 2016) uses 8).
        pub fn sigma(mut self, sigma: f64) -> Self {
            self.core.sigma = sigma;
            self
        }
        /// Secret-key distribution (default dense ternary, as the security table assumes).
        pub fn secret(mut self, d: $crate::rlwe::SecretDistribution) -> Self {
            self.core.secret = d;
            self
        }
        /// Key-switching layout.
        pub fn key_switching(mut self, k: $crate::rlwe::KeySwitching) -> Self {
            self.core.key_switching = k;
            self
        }
        /// Security requirement (default 128-bit HE standard).
        pub fn security(mut self, s: $crate::params::Security) -> Self {
            self.core.security = s;
            self
        }
        /// The ring `Z[X]/(Phi_m)` for any m >= 3 (Bajard et al. (SAC 2017)), n = phi(m), replacing `degree`; a power
        /// of two m gives the negacyclic ring of degree m / 2. Moduli are then primes = 1 mod
        /// lcm(N, m), N = N2(2n) (BGV: and 1 mod t).
        pub fn cyclotomic_index(mut self, m: usize) -> Self {
            self.core.cyclotomic = Some(m);
            self
        }
        /// The default moduli's layout when neither moduli nor widths are given
        /// ([`ModuliLayout`](crate::params::ModuliLayout): the scheme's default, or `Narrow`, every
        /// prime below 2^50 for AVX-512 IFMA CPUs). Both reach the same log2 q and security.
        pub fn layout(mut self, layout: $crate::params::ModuliLayout) -> Self {
            self.core.layout = layout;
            self
        }
    };
}
pub(crate) use rlwe_builder_setters;
