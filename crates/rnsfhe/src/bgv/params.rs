//! BGV parameter sets: degree, plaintext modulus t, the modulus chain q_0..q_L (each q_l = 1 mod 2n and
//! = 1 mod t, paper 001 Lemma 3), special moduli, distributions, key-switching layout; validated
//! against the security table.

use rnsfhe_math::arith::{is_prime, ntt_primes};
use rnsfhe_math::ring::cyclotomic::multiplicative_order;
use rnsfhe_math::ring::Reduction;

use crate::params::{log2_product, ring_step, security_degree, Security, SecurityLevel};
use crate::rlwe::{KeySwitching, SecretDistribution};
use crate::{Error, Result};

/// Validated BGV parameters (build with [`BgvParameters::builder`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BgvParameters {
    pub(crate) degree: usize,
    pub(crate) plain_modulus: u64,
    pub(crate) moduli: Vec<u64>,
    pub(crate) special_moduli: Vec<u64>,
    pub(crate) sigma: f64,
    pub(crate) secret: SecretDistribution,
    pub(crate) key_switching: KeySwitching,
    pub(crate) security: Security,
    /// Some(m) for a general Phi_m ring (paper 001), None for X^n + 1.
    pub(crate) cyclotomic: Option<usize>,
    pub(crate) reduction: Reduction,
}

use crate::params::MONTGOMERY_FLAG;

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl BgvParameters {
    /// A builder with the defaults: n = 8192, t = 65537, 128-bit security, moduli of at most 49 bits
    /// filling the security bound (one of them special), sigma = 3.2, dense ternary secret.
    pub fn builder() -> BgvParametersBuilder {
        BgvParametersBuilder::default()
    }

    /// The 128-bit preset for degree n (2^11..2^15) and plaintext modulus t.
    pub fn preset(n: usize, t: u64) -> Result<Self> {
        Self::builder().degree(n).plain_modulus(t).build()
    }

    /// The ring degree n.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// The plaintext modulus t.
    pub fn plain_modulus(&self) -> u64 {
        self.plain_modulus
    }
    /// The ciphertext moduli q_0..q_L (level l has q_0..q_l; modulus switching drops the last).
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
    /// The key-switching layout.
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
    /// The top level L (number of ciphertext moduli less one).
    pub fn max_level(&self) -> usize {
        self.moduli.len() - 1
    }
    /// The cyclotomic index m of Phi_m (2n for power-of-two rings).
    pub fn cyclotomic_index(&self) -> usize {
        self.cyclotomic.unwrap_or(2 * self.degree)
    }
    /// The degree word of fingerprints and bytes (n, or m flagged for a general Phi_m).
    pub(crate) fn fingerprint_degree(&self) -> usize {
        self.degree_word() as usize
    }
    /// The degree word of `crate::params::degree_word`, with `MONTGOMERY_FLAG` for the Montgomery
    /// representation (its ciphertexts and keys hold other residues).
    pub(crate) fn degree_word(&self) -> u64 {
        let w = crate::params::degree_word(self.degree, self.cyclotomic);
        if self.is_montgomery() {
            w | MONTGOMERY_FLAG
        } else {
            w
        }
    }
    /// Whether ciphertexts are held in the Montgomery representation c M (general Phi_m with
    /// `Reduction::Montgomery`, paper 001 section 4.2).
    pub fn is_montgomery(&self) -> bool {
        self.cyclotomic.is_some() && self.reduction == Reduction::Montgomery
    }
    /// Whether the ring is a general Phi_m (built with `cyclotomic_index`), not X^n + 1.
    pub fn is_general_cyclotomic(&self) -> bool {
        self.cyclotomic.is_some()
    }
    /// The reduction modulo Phi_m of a general ring (paper 001 section 3).
    pub fn reduction(&self) -> Reduction {
        self.reduction
    }
    /// The number of batching slots: n when t is a prime = 1 mod 2n (power-of-two rings); for a
    /// general Phi_m and a prime t not dividing m, l = n / ord_m(t) slots of GF(t^d) (paper 001
    /// section 2.4); otherwise 0.
    pub fn batching_slots(&self) -> usize {
        if let Some(m) = self.cyclotomic {
            return match multiplicative_order(self.plain_modulus, m as u64) {
                Some(d) if is_prime(self.plain_modulus) => self.degree / d,
                _ => 0,
            };
        }
        let two_n = 2 * self.degree as u64;
        if is_prime(self.plain_modulus) && self.plain_modulus % two_n == 1 {
            self.degree
        } else {
            0
        }
    }
    /// lcm(2n, t) (general Phi_m: lcm(N, m, t), N = N2(2n)): every ciphertext modulus is 1 modulo it.
    pub fn moduli_step(&self) -> Option<u64> {
        lcm(ring_step(self.degree, self.cyclotomic), self.plain_modulus)
    }
}

fn lcm(a: u64, b: u64) -> Option<u64> {
    (a / gcd(a, b)).checked_mul(b)
}

/// Builder for [`BgvParameters`]; every setter has a default, `build` validates.
#[derive(Clone, Debug)]
pub struct BgvParametersBuilder {
    degree: usize,
    plain_modulus: u64,
    moduli: Option<Vec<u64>>,
    moduli_bits: Option<Vec<u32>>,
    special: Option<Vec<u64>>,
    special_bits: Option<Vec<u32>>,
    sigma: f64,
    secret: SecretDistribution,
    key_switching: KeySwitching,
    security: Security,
    cyclotomic: Option<usize>,
    reduction: Reduction,
}

impl Default for BgvParametersBuilder {
    fn default() -> Self {
        BgvParametersBuilder {
            degree: 8192,
            plain_modulus: 65537,
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
        }
    }
}

impl BgvParametersBuilder {
    /// Ring degree n, a power of two.
    pub fn degree(mut self, n: usize) -> Self {
        self.degree = n;
        self
    }
    /// The ring Z[X]/(Phi_m) for any m >= 3 (paper 001), n = phi(m), replacing `degree`. A power of two
    /// m gives the negacyclic ring of degree m / 2. Ciphertext moduli are then 1 mod lcm(N, m, t),
    /// N = N2(2n).
    pub fn cyclotomic_index(mut self, m: usize) -> Self {
        self.cyclotomic = Some(m);
        self
    }
    /// How a general Phi_m ring reduces its products (default: the optimised Barrett of paper 001
    /// Alg. 2). `Reduction::Montgomery` also selects the Montgomery representation of section 4.2
    /// (the reduction multiplies every product by M^-1, M = X^(N/2) + 1 mod Phi_m, so operands carry
    /// M): ciphertexts are held as c M (entered at encryption, left by decryption), the tensor product
    /// of c M and c' M reduces to c c' M, relinearisation and Galois keys hold M^2 (see
    /// `rlwe::KeySwitchKey`), modulus switching adds delta = [-c~/t]_{q_l} t computed from c~ = c M.
    /// Decryptions agree with the Barrett reductions; the noise of each switch gains the factor of
    /// eq. (13) (`bgv/noise.rs`). Ignored for power-of-two m (the negacyclic ring has no reduction).
    pub fn reduction(mut self, r: Reduction) -> Self {
        self.reduction = r;
        self
    }
    /// Plaintext modulus t >= 2 (a prime = 1 mod 2n enables batching).
    pub fn plain_modulus(mut self, t: u64) -> Self {
        self.plain_modulus = t;
        self
    }
    /// Explicit ciphertext moduli (primes = 1 mod 2n and = 1 mod t), q_0 first.
    pub fn moduli(mut self, q: &[u64]) -> Self {
        self.moduli = Some(q.to_vec());
        self
    }
    /// Ciphertext moduli by width (20..=62 bits), q_0 first.
    pub fn moduli_bits(mut self, bits: &[u32]) -> Self {
        self.moduli_bits = Some(bits.to_vec());
        self
    }
    /// Explicit special moduli (NTT primes = 1 mod 2n).
    pub fn special_moduli(mut self, p: &[u64]) -> Self {
        self.special = Some(p.to_vec());
        self
    }
    /// Special moduli by width (empty: RNS digits without special modulus).
    pub fn special_moduli_bits(mut self, bits: &[u32]) -> Self {
        self.special_bits = Some(bits.to_vec());
        self
    }
    /// Error standard deviation (default 3.2).
    pub fn sigma(mut self, sigma: f64) -> Self {
        self.sigma = sigma;
        self
    }
    /// Secret-key distribution.
    pub fn secret(mut self, d: SecretDistribution) -> Self {
        self.secret = d;
        self
    }
    /// Key-switching layout.
    pub fn key_switching(mut self, k: KeySwitching) -> Self {
        self.key_switching = k;
        self
    }
    /// Security requirement (default 128-bit HE standard).
    pub fn security(mut self, s: Security) -> Self {
        self.security = s;
        self
    }

    /// Validates and picks the moduli.
    pub fn build(mut self) -> Result<BgvParameters> {
        let general = crate::params::resolve_cyclotomic(self.cyclotomic, &mut self.degree)?;
        let n = self.degree;
        if general.is_none() && (!n.is_power_of_two() || !(2..=1 << 17).contains(&n)) {
            return Err(Error::InvalidDegree {
                degree: n,
                reason: "BGV needs n a power of two in 2^1..2^17".into(),
            });
        }
        let t = self.plain_modulus;
        if t < 2 || t >> 60 != 0 {
            return Err(Error::InvalidParameters(format!(
                "plaintext modulus t = {t} must be in 2..2^60"
            )));
        }
        crate::params::check_sigma(self.sigma)?;
        let ring = ring_step(n, general);
        let step = lcm(ring, t).ok_or_else(|| {
            Error::InvalidParameters(format!(
                "lcm({ring}, t) for t = {t} does not fit 64 bits (the ciphertext moduli must be 1 \
                 modulo it)"
            ))
        })?;
        let (moduli, special) = self.pick_moduli(n, ring, step)?;
        let mut all = moduli.clone();
        all.extend(&special);
        let n_sec = security_degree(n);
        self.security.check(n_sec, log2_product(&all))?;
        self.security
            .check_distributions(n_sec, log2_product(&all), self.sigma, self.secret)?;
        self.key_switching.validate(moduli.len(), special.len())?;
        Ok(BgvParameters {
            degree: n,
            plain_modulus: t,
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

    /// Explicit moduli, widths, or the default split of the security bound into primes of at most 49
    /// bits, the last one special. Ciphertext primes are 1 mod lcm(2n, t).
    fn pick_moduli(&self, n: usize, two_n: u64, step: u64) -> Result<(Vec<u64>, Vec<u64>)> {
        let t = self.plain_modulus;
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
                            reason: format!(
                                "BGV ciphertext moduli must be primes = 1 mod {two_n} (the ring) and \
                                 = 1 mod t (1 mod {step}; paper 001 Lemma 3)"
                            ),
                        });
                    }
                }
                for &p in &sp {
                    if !is_prime(p) || p % two_n != 1 || p == t {
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
                let (bits, sp) = crate::params::default_moduli_bits(n, self.security)?;
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
            exclude.push(t);
            chosen.extend(ntt_primes(*b, m, 1, &exclude)?);
        }
        let special = chosen.split_off(bits.len());
        Ok((chosen, special))
    }
}
