//! BFV parameter sets: degree, plaintext modulus, ciphertext and special moduli, error and key
//! distributions, and the multiplication / decryption methods, validated against the security table.

use rnsfhe_math::arith::{is_prime, ntt_primes};

use rnsfhe_math::ring::cyclotomic::multiplicative_order;
use rnsfhe_math::ring::Reduction;

use crate::params::{
    log2_product, resolve_cyclotomic, ring_step, security_degree, Security, SecurityLevel,
};
use crate::rlwe::{KeySwitching, SecretDistribution};
use crate::{Error, Result};

/// How ciphertexts are multiplied: one choice per parameter set, dispatched in one place
/// (`BfvContext::multiply`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Multiplication {
    /// Paper 000 Alg. 3: FastBconv to B_sk u {m~}, SmMRq, tensor, fastRNSFloor, FastBconvSK.
    Behz,
    /// Halevi–Polyakov–Shoup: exact extension to P, tensor, scale-and-round into P, exact back to Q.
    Hps,
}

/// How ciphertexts are decrypted (all give the same result below the noise bound of each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decryption {
    /// Paper 000 Alg. 1 (DecRNS): FastBconv to {t, gamma} and the gamma-correction, gamma odd.
    Gamma,
    /// Paper 000 Lemma 3: gamma a power of two, one FastBconv modulo gamma t and a shift.
    PowerOfTwoGamma,
    /// Paper 000 section 3.5 (DecRNS-flp): round(sum_i |x q~_i|_{q_i} t / q_i) mod t in floating
    /// point (f64 when 2 nu + log2 k - log2 t <= 52, two-word fixed point otherwise).
    FloatingPoint,
    /// HPS: [sum_i x_i w_i + round(sum_i x_i theta_i)]_t with t q~_i / q_i = w_i + theta_i.
    Hps,
}

/// Which Montgomery pipeline of paper 001 FV uses on a general Phi_m with `Reduction::Montgomery`
/// (see [`BfvParametersBuilder::fv_montgomery`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FvMontgomery {
    /// Section 4.4: plain ciphertexts, tensor by the optimised Barrett, relinearisation by
    /// Montgomery with keys carrying M (the default; `reduction(Montgomery)` has always meant it).
    #[default]
    Mixed,
    /// Sections 4 and 4.1: ciphertexts held as c M, every product (tensor over q u B_sk or q u P,
    /// relinearisation with keys carrying M^2, Galois keys) reduced by Montgomery; the noise of a
    /// product grows by delta_R ||M^-1|| (Proposition 1, bound (10)).
    Full,
}

/// Validated BFV parameters (build with [`BfvParameters::builder`] or a preset).
#[derive(Clone, Debug, PartialEq)]
pub struct BfvParameters {
    pub(crate) degree: usize,
    pub(crate) plain_modulus: u64,
    pub(crate) moduli: Vec<u64>,
    pub(crate) special_moduli: Vec<u64>,
    pub(crate) sigma: f64,
    pub(crate) secret: SecretDistribution,
    pub(crate) multiplication: Multiplication,
    pub(crate) decryption: Decryption,
    pub(crate) m_tilde: Option<u64>,
    pub(crate) key_switching: KeySwitching,
    pub(crate) security: Security,
    /// Some(m) for a general Phi_m ring (paper 001), None for X^n + 1.
    pub(crate) cyclotomic: Option<usize>,
    pub(crate) reduction: Reduction,
    pub(crate) montgomery: FvMontgomery,
}

impl BfvParameters {
    /// A builder with the defaults: n = 8192, t = 65537, 128-bit security, moduli filling the security
    /// bound (the fewest ciphertext primes of at most 60 bits and one special prime, chosen by measured
    /// cost: `params::default_bfv_moduli_bits`), HPS, sigma = 3.2, dense ternary secret.
    pub fn builder() -> BfvParametersBuilder {
        BfvParametersBuilder::default()
    }

    /// The 128-bit preset for degree n (2^11..2^15) and plaintext modulus t.
    pub fn preset(n: usize, t: u64) -> Result<Self> {
        Self::builder().degree(n).plain_modulus(t).build()
    }

    /// A builder with paper 000's settings (Tables 1 and 5): k moduli of `bits` bits, sigma = 8,
    /// ternary secret (B_key = 1), relinearisation by RNS digits without special modulus, BEHZ
    /// multiplication and Alg. 1 decryption; no security check (the paper targets 80 bits with another
    /// estimator). Adjust it (m~, method) before `build`.
    pub fn paper000(n: usize, k: usize, bits: u32, t: u64) -> BfvParametersBuilder {
        Self::builder()
            .degree(n)
            .plain_modulus(t)
            .moduli_bits(&vec![bits; k])
            .special_moduli_bits(&[])
            .sigma(8.0)
            .multiplication(Multiplication::Behz)
            .decryption(Decryption::Gamma)
            .security(Security::InsecureResearchOnly)
    }

    /// The cyclotomic index m of Phi_m (2n for power-of-two rings).
    pub fn cyclotomic_index(&self) -> usize {
        self.cyclotomic.unwrap_or(2 * self.degree)
    }
    /// The degree word of fingerprints and bytes (n, or m flagged for a general Phi_m).
    pub(crate) fn fingerprint_degree(&self) -> usize {
        self.degree_word() as usize
    }
    /// The degree word of bytes and fingerprints, flagged for the mixed strategy (its relinearisation
    /// keys hold other residues).
    pub(crate) fn degree_word(&self) -> u64 {
        let w = crate::params::degree_word(self.degree, self.cyclotomic);
        if self.is_full_montgomery() {
            w | crate::params::MONTGOMERY_FLAG | crate::params::FULL_MONTGOMERY_FLAG
        } else if self.is_mixed_montgomery() {
            w | crate::params::MONTGOMERY_FLAG
        } else {
            w
        }
    }
    /// Whether FV uses paper 001's mixed strategy (section 4.4): general Phi_m with
    /// `Reduction::Montgomery` and [`FvMontgomery::Mixed`] (see [`BfvParametersBuilder::reduction`]).
    pub fn is_mixed_montgomery(&self) -> bool {
        self.cyclotomic.is_some()
            && self.reduction == Reduction::Montgomery
            && self.montgomery == FvMontgomery::Mixed
    }
    /// Whether ciphertexts are held as c M (paper 001 sections 4 and 4.1, [`FvMontgomery::Full`]).
    pub fn is_full_montgomery(&self) -> bool {
        self.cyclotomic.is_some()
            && self.reduction == Reduction::Montgomery
            && self.montgomery == FvMontgomery::Full
    }
    /// The Montgomery pipeline chosen (meaningful with `Reduction::Montgomery` only).
    pub fn fv_montgomery(&self) -> FvMontgomery {
        self.montgomery
    }
    /// The reduction of the ciphertext rings: the optimised Barrett under the mixed strategy, else
    /// [`Self::reduction`].
    pub(crate) fn ring_reduction(&self) -> Reduction {
        if self.is_mixed_montgomery() {
            Reduction::SparseBarrett
        } else {
            self.reduction
        }
    }
    /// Whether the ring is a general Phi_m (built with `cyclotomic_index`), not X^n + 1.
    pub fn is_general_cyclotomic(&self) -> bool {
        self.cyclotomic.is_some()
    }
    /// The reduction modulo Phi_m of a general ring (paper 001 section 3).
    pub fn reduction(&self) -> Reduction {
        self.reduction
    }
    /// The ring degree n.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// The plaintext modulus t.
    pub fn plain_modulus(&self) -> u64 {
        self.plain_modulus
    }
    /// The ciphertext moduli q_1..q_k.
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
    /// The multiplication method.
    pub fn multiplication(&self) -> Multiplication {
        self.multiplication
    }
    /// The default decryption method.
    pub fn decryption(&self) -> Decryption {
        self.decryption
    }
    /// m~ of SmMRq (paper 000 Alg. 2), `None` when the reduction is skipped.
    pub fn m_tilde(&self) -> Option<u64> {
        self.m_tilde
    }
    /// The key-switching layout (digits, special moduli, second-level digits, truncation).
    pub fn key_switching(&self) -> KeySwitching {
        self.key_switching
    }
    /// log2 q.
    pub fn log_q(&self) -> f64 {
        log2_product(&self.moduli)
    }
    /// The security level the parameters were validated against.
    pub fn security(&self) -> Security {
        self.security
    }

    /// The number of batching slots (n) when t is a prime = 1 mod 2n, otherwise 0.
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
}

/// Builder for [`BfvParameters`]; every setter has a default, `build` validates.
#[derive(Clone, Debug)]
pub struct BfvParametersBuilder {
    degree: usize,
    plain_modulus: u64,
    moduli: Option<Vec<u64>>,
    moduli_bits: Option<Vec<u32>>,
    special_bits: Option<Vec<u32>>,
    special: Option<Vec<u64>>,
    sigma: f64,
    secret: SecretDistribution,
    multiplication: Multiplication,
    decryption: Decryption,
    m_tilde: Option<u64>,
    key_switching: KeySwitching,
    security: Security,
    cyclotomic: Option<usize>,
    reduction: Reduction,
    montgomery: FvMontgomery,
}

impl Default for BfvParametersBuilder {
    fn default() -> Self {
        BfvParametersBuilder {
            degree: 8192,
            plain_modulus: 65537,
            moduli: None,
            moduli_bits: None,
            special_bits: None,
            special: None,
            sigma: rnsfhe_math::sample::DEFAULT_SIGMA,
            secret: SecretDistribution::Ternary,
            multiplication: Multiplication::Hps,
            decryption: Decryption::Hps,
            m_tilde: Some(1 << 16),
            key_switching: KeySwitching::default(),
            security: Security::Standard(SecurityLevel::Bits128),
            cyclotomic: None,
            reduction: Reduction::SparseBarrett,
            montgomery: FvMontgomery::Mixed,
        }
    }
}

impl BfvParametersBuilder {
    /// Ring degree n, a power of two in 2^10..2^16 (2^1.. with `Security::InsecureResearchOnly`).
    pub fn degree(mut self, n: usize) -> Self {
        self.degree = n;
        self
    }
    /// Plaintext modulus t >= 2 (a prime = 1 mod 2n enables batching).
    pub fn plain_modulus(mut self, t: u64) -> Self {
        self.plain_modulus = t;
        self
    }
    /// Explicit ciphertext moduli (NTT primes = 1 mod 2n).
    pub fn moduli(mut self, q: &[u64]) -> Self {
        self.moduli = Some(q.to_vec());
        self
    }
    /// Ciphertext moduli by width: one NTT prime per entry (20..=62 bits).
    pub fn moduli_bits(mut self, bits: &[u32]) -> Self {
        self.moduli_bits = Some(bits.to_vec());
        self
    }
    /// Explicit special moduli (NTT primes = 1 mod 2n, distinct from the ciphertext moduli).
    pub fn special_moduli(mut self, p: &[u64]) -> Self {
        self.special = Some(p.to_vec());
        self
    }
    /// Special key-switching moduli by width (empty: RNS digits without special modulus, paper 000).
    pub fn special_moduli_bits(mut self, bits: &[u32]) -> Self {
        self.special_bits = Some(bits.to_vec());
        self
    }
    /// Error standard deviation (default 3.2; paper 000 uses 8).
    pub fn sigma(mut self, sigma: f64) -> Self {
        self.sigma = sigma;
        self
    }
    /// Secret-key distribution (default dense ternary, as the security table assumes).
    pub fn secret(mut self, d: SecretDistribution) -> Self {
        self.secret = d;
        self
    }
    /// Multiplication method (default HPS).
    pub fn multiplication(mut self, m: Multiplication) -> Self {
        self.multiplication = m;
        self
    }
    /// Default decryption method (default HPS; the others stay available per call).
    pub fn decryption(mut self, d: Decryption) -> Self {
        self.decryption = d;
        self
    }
    /// m~ for BEHZ's SmMRq (default 2^16; `None` skips the reduction, as in paper 000 Fig. 1).
    pub fn m_tilde(mut self, m: Option<u64>) -> Self {
        self.m_tilde = m;
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

    /// The ring Z[X]/(Phi_m) for any m >= 3 (paper 001), n = phi(m), replacing `degree`; a power of
    /// two m gives the negacyclic ring of degree m / 2. Moduli are then primes = 1 mod lcm(N, m),
    /// N = N2(2n).
    pub fn cyclotomic_index(mut self, m: usize) -> Self {
        self.cyclotomic = Some(m);
        self
    }
    /// How a general Phi_m ring reduces its products (default: paper 001's optimised Barrett, Alg. 2;
    /// Barrett, Alg. 1, gives the same results). `Reduction::Montgomery` selects the mixed strategy of
    /// section 4.4: ciphertexts stay plain and the tensor product is reduced by the optimised Barrett
    /// (no Montgomery factor in FV's scaled product, whose noise it would multiply by ||M^-1||,
    /// Prop. 1), while relinearisation sums the digits' products with keys carrying M (residues
    /// (P g s^2 - a s - e) M, Montgomery form) and reduces them by Montgomery: the factor M^-1 of
    /// the reduction cancels the keys' M, so the output is the plain (u_0, u_1) with the noise of the
    /// Barrett relinearisation. Galois keys stay on the Barrett ring. For the full Montgomery
    /// representation of section 4.1 add [`Self::fv_montgomery`]`(FvMontgomery::Full)`.
    pub fn reduction(mut self, r: Reduction) -> Self {
        self.reduction = r;
        self
    }
    /// With `reduction(Reduction::Montgomery)`: the mixed strategy (default, section 4.4) or the
    /// full Montgomery representation (sections 4 and 4.1): ciphertexts c M (entered at
    /// encryption, left at decryption by a Montgomery reduction of [c_0 + c_1 s]_q), the BEHZ or HPS
    /// tensor on Montgomery rings over q u B_sk (or q u P), so that each product carries the integer
    /// polynomial M^-1 on every modulus, then the t/q scaling; relinearisation and Galois keys
    /// carrying M^2 (evkM of section 4.1). Its products' noise grows by delta_R ||M^-1||_inf
    /// (Proposition 1), so its depth is smaller (section 4.3). `Full` without `Montgomery` is refused.
    pub fn fv_montgomery(mut self, s: FvMontgomery) -> Self {
        self.montgomery = s;
        self
    }

    /// Validates and picks the moduli.
    pub fn build(mut self) -> Result<BfvParameters> {
        let general = resolve_cyclotomic(self.cyclotomic, &mut self.degree)?;
        if self.montgomery == FvMontgomery::Full
            && (general.is_none() || self.reduction != Reduction::Montgomery)
        {
            return Err(Error::InvalidParameters(
                "FvMontgomery::Full needs a general Phi_m (cyclotomic_index, m not a power of two) \
                 with reduction(Reduction::Montgomery)"
                    .into(),
            ));
        }
        let n = self.degree;
        if general.is_none() && (!n.is_power_of_two() || !(2..=1 << 17).contains(&n)) {
            return Err(Error::InvalidDegree {
                degree: n,
                reason: "BFV needs n a power of two in 2^1..2^17".into(),
            });
        }
        if self.plain_modulus < 2 || self.plain_modulus >> 60 != 0 {
            return Err(Error::InvalidParameters(format!(
                "plaintext modulus t = {} must be in 2..2^60",
                self.plain_modulus
            )));
        }
        crate::params::check_sigma(self.sigma)?;
        if let Some(m) = self.m_tilde {
            if !(2..=1 << 32).contains(&m) {
                return Err(Error::InvalidParameters(format!(
                    "m~ = {m} must be in 2..2^32 (paper 000 uses 2^8 or 2^16)"
                )));
            }
        }
        let (moduli, special) = self.pick_moduli(n, ring_step(n, general))?;
        if moduli.contains(&self.plain_modulus) {
            return Err(Error::InvalidParameters(
                "the plaintext modulus must not be a ciphertext modulus".into(),
            ));
        }
        let mut all = moduli.clone();
        all.extend(&special);
        let n_sec = security_degree(n);
        self.security.check(n_sec, log2_product(&all))?;
        self.security
            .check_distributions(n_sec, log2_product(&all), self.sigma, self.secret)?;
        self.key_switching.validate(moduli.len(), special.len())?;
        Ok(BfvParameters {
            cyclotomic: general,
            reduction: self.reduction,
            montgomery: self.montgomery,
            degree: n,
            plain_modulus: self.plain_modulus,
            moduli,
            special_moduli: special,
            sigma: self.sigma,
            secret: self.secret,
            multiplication: self.multiplication,
            decryption: self.decryption,
            m_tilde: self.m_tilde,
            key_switching: self.key_switching,
            security: self.security,
        })
    }

    /// Explicit moduli, widths, or the default of `params::default_bfv_moduli_bits`: log2 q of the
    /// security bound split into the fewest primes of <= 60 bits, and one special prime.
    fn pick_moduli(&self, n: usize, two_n: u64) -> Result<(Vec<u64>, Vec<u64>)> {
        let special_bits = self.special_bits.clone();
        let (bits, special_bits): (Vec<u32>, Vec<u32>) = match (&self.moduli, &self.moduli_bits) {
            (Some(q), _) => {
                let mut sp = self.special.clone().unwrap_or_default();
                for b in special_bits.unwrap_or_default() {
                    let exclude: Vec<u64> = q.iter().chain(&sp).copied().collect();
                    sp.extend(ntt_primes(b, two_n, 1, &exclude)?);
                }
                for &qi in q.iter().chain(&sp) {
                    if !is_prime(qi) || qi % two_n != 1 {
                        return Err(Error::InvalidModulus {
                            modulus: qi,
                            reason: format!(
                                "ciphertext moduli must be primes = 1 mod {two_n} (2n, or \
                                 lcm(N, m) for a general Phi_m)"
                            ),
                        });
                    }
                }
                return Ok((q.clone(), sp));
            }
            (None, Some(b)) => (b.clone(), special_bits.unwrap_or_default()),
            (None, None) => {
                let (bits, sp) = crate::params::default_bfv_moduli_bits(n, self.security)?;
                (bits, special_bits.unwrap_or(sp))
            }
        };
        if bits.is_empty() {
            return Err(Error::InvalidParameters(
                "at least one ciphertext modulus is needed".into(),
            ));
        }
        let mut chosen: Vec<u64> = Vec::new();
        for b in bits.iter().chain(&special_bits) {
            if !(20..=62).contains(b) {
                return Err(Error::InvalidParameters(format!(
                    "modulus width {b} bits is outside 20..=62"
                )));
            }
            chosen.extend(ntt_primes(*b, two_n, 1, &chosen)?);
        }
        let special = chosen.split_off(bits.len());
        Ok((chosen, special))
    }
}
