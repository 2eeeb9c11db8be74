//! BFV parameter sets: degree, plaintext modulus, ciphertext and special moduli, error and key
//! distributions, and the multiplication / decryption methods, validated against the security table.

use std::ops::Deref;

use rnsfhe_math::ring::Reduction;

use crate::params::shared::{
    check_plain_modulus, rlwe_builder_setters, ModuliRule, RlweParametersBuilder,
};
use crate::params::{ring_step, RlweParameters, Security};
use crate::{Error, Result};

/// How ciphertexts are multiplied: one choice per parameter set, dispatched in one place
/// (`BfvContext::multiply`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Multiplication {
    /// Bajard et al. (SAC 2016) Alg. 3: FastBconv to B_sk u {m~}, SmMRq, tensor, fastRNSFloor, FastBconvSK.
    Behz,
    /// Halevi–Polyakov–Shoup: exact extension to P, tensor, scale-and-round into P, exact back to Q.
    Hps,
}

/// How ciphertexts are decrypted (all give the same result below the noise bound of each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decryption {
    /// Bajard et al. (SAC 2016) Alg. 1 (DecRNS): FastBconv to {t, gamma} and the gamma-correction, gamma odd.
    Gamma,
    /// Bajard et al. (SAC 2016) Lemma 3: gamma a power of two, one FastBconv modulo gamma t and a shift.
    PowerOfTwoGamma,
    /// Bajard et al. (SAC 2016) section 3.5 (DecRNS-flp): round(sum_i |x q~_i|_{q_i} t / q_i) mod t in floating
    /// point (f64 when 2 nu + log2 k - log2 t <= 52, two-word fixed point otherwise).
    FloatingPoint,
    /// HPS: [sum_i x_i w_i + round(sum_i x_i theta_i)]_t with t q~_i / q_i = w_i + theta_i.
    Hps,
}

/// Which Montgomery pipeline of Bajard et al. (SAC 2017) FV uses on a general Phi_m with `Reduction::Montgomery`
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

/// Validated BFV parameters (build with [`BfvParameters::builder`] or a preset): the shared
/// [`RlweParameters`] (ring, moduli, distributions, key switching, security; its accessors are
/// reached through `Deref`) and BFV's own settings.
#[derive(Clone, Debug, PartialEq)]
pub struct BfvParameters {
    pub(crate) core: RlweParameters,
    pub(crate) plain_modulus: u64,
    pub(crate) multiplication: Multiplication,
    pub(crate) decryption: Decryption,
    pub(crate) m_tilde: Option<u64>,
    pub(crate) montgomery: FvMontgomery,
}

impl Deref for BfvParameters {
    type Target = RlweParameters;
    fn deref(&self) -> &RlweParameters {
        &self.core
    }
}

impl BfvParameters {
    /// A builder with the defaults: n = 8192, t = 65537, 128-bit security, the fewest moduli of at
    /// most 60 bits filling the security bound with one special modulus
    /// (`params::default_bfv_moduli_bits`), HPS, sigma = 3.2, dense ternary secret.
    pub fn builder() -> BfvParametersBuilder {
        BfvParametersBuilder::default()
    }

    /// The 128-bit preset for degree n (2^11..2^15) and plaintext modulus t.
    pub fn preset(n: usize, t: u64) -> Result<Self> {
        Self::builder().degree(n).plain_modulus(t).build()
    }

    /// A builder with Bajard et al. (SAC 2016)'s settings (Tables 1 and 5): k moduli of `bits` bits, sigma = 8,
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

    /// The degree word of bytes and fingerprints: the core's, flagged for the full Montgomery
    /// representation too (its ciphertexts hold c M).
    pub(crate) fn degree_word(&self) -> u64 {
        let w = self.core.degree_word();
        if self.is_full_montgomery() {
            w | crate::params::FULL_MONTGOMERY_FLAG
        } else {
            w
        }
    }
    /// [`Self::degree_word`] as a fingerprint's degree.
    pub(crate) fn fingerprint_degree(&self) -> usize {
        self.degree_word() as usize
    }
    /// Whether FV uses Bajard et al. (SAC 2017)'s mixed strategy (section 4.4): general Phi_m with
    /// `Reduction::Montgomery` and [`FvMontgomery::Mixed`] (see [`BfvParametersBuilder::reduction`]).
    pub fn is_mixed_montgomery(&self) -> bool {
        self.core.montgomery() && self.montgomery == FvMontgomery::Mixed
    }
    /// Whether ciphertexts are held as c M (Bajard et al. (SAC 2017) sections 4 and 4.1, [`FvMontgomery::Full`]).
    pub fn is_full_montgomery(&self) -> bool {
        self.core.montgomery() && self.montgomery == FvMontgomery::Full
    }
    /// The Montgomery pipeline chosen (meaningful with `Reduction::Montgomery` only).
    pub fn fv_montgomery(&self) -> FvMontgomery {
        self.montgomery
    }
    /// The reduction of the ciphertext rings: the optimised Barrett under the mixed strategy, else
    /// [`Self::reduction`] (Montgomery for the full representation).
    pub(crate) fn ring_reduction(&self) -> Reduction {
        if self.reduction == Reduction::Montgomery && !self.is_full_montgomery() {
            Reduction::SparseBarrett
        } else {
            self.reduction
        }
    }
    /// The plaintext modulus t.
    pub fn plain_modulus(&self) -> u64 {
        self.plain_modulus
    }
    /// The multiplication method.
    pub fn multiplication(&self) -> Multiplication {
        self.multiplication
    }
    /// The default decryption method.
    pub fn decryption(&self) -> Decryption {
        self.decryption
    }
    /// m~ of SmMRq (Bajard et al. (SAC 2016) Alg. 2), `None` when the reduction is skipped.
    pub fn m_tilde(&self) -> Option<u64> {
        self.m_tilde
    }
    /// The number of batching slots (n) when t is a prime = 1 mod 2n, otherwise 0.
    pub fn batching_slots(&self) -> usize {
        self.core.batching_slots(self.plain_modulus)
    }
}

/// Builder for [`BfvParameters`]; every setter has a default, `build` validates.
#[derive(Clone, Debug)]
pub struct BfvParametersBuilder {
    core: RlweParametersBuilder,
    plain_modulus: u64,
    multiplication: Multiplication,
    decryption: Decryption,
    m_tilde: Option<u64>,
    montgomery: FvMontgomery,
}

impl Default for BfvParametersBuilder {
    fn default() -> Self {
        BfvParametersBuilder {
            core: RlweParametersBuilder::default(),
            plain_modulus: 65537,
            multiplication: Multiplication::Hps,
            decryption: Decryption::Hps,
            m_tilde: Some(1 << 16),
            montgomery: FvMontgomery::Mixed,
        }
    }
}

impl BfvParametersBuilder {
    rlwe_builder_setters!(plain_modulus);

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
    /// m~ for BEHZ's SmMRq (default 2^16; `None` skips the reduction, as in Bajard et al. (SAC 2016) Fig. 1).
    pub fn m_tilde(mut self, m: Option<u64>) -> Self {
        self.m_tilde = m;
        self
    }
    /// How a general Phi_m ring reduces its products (default: Bajard et al. (SAC 2017)'s optimised Barrett, Alg. 2;
    /// Barrett, Alg. 1, gives the same results). `Reduction::Montgomery` selects the mixed strategy of
    /// section 4.4: ciphertexts stay plain and the tensor product is reduced by the optimised Barrett
    /// (no Montgomery factor in FV's scaled product, whose noise it would multiply by ||M^-1||,
    /// Prop. 1), while relinearisation sums the digits' products with keys carrying M (residues
    /// (P g s^2 - a s - e) M, Montgomery form) and reduces them by Montgomery: the factor M^-1 of
    /// the reduction cancels the keys' M, so the output is the plain (u_0, u_1) with the noise of the
    /// Barrett relinearisation. Galois keys stay on the Barrett ring. For the full Montgomery
    /// representation of section 4.1 add [`Self::fv_montgomery`]`(FvMontgomery::Full)`.
    pub fn reduction(mut self, r: Reduction) -> Self {
        self.core.reduction = r;
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
        let ring = self.core.ring("BFV")?;
        if self.montgomery == FvMontgomery::Full
            && (ring.1.is_none() || self.core.reduction != Reduction::Montgomery)
        {
            return Err(Error::InvalidParameters(
                "FvMontgomery::Full needs a general Phi_m (cyclotomic_index, m not a power of two) \
                 with reduction(Reduction::Montgomery)"
                    .into(),
            ));
        }
        check_plain_modulus(self.plain_modulus)?;
        if let Some(m) = self.m_tilde {
            if !(2..=1 << 32).contains(&m) {
                return Err(Error::InvalidParameters(format!(
                    "m~ = {m} must be in 2..2^32 (Bajard et al. (SAC 2016) uses 2^8 or 2^16)"
                )));
            }
        }
        let two_n = ring_step(ring.0, ring.1);
        let rule = ModuliRule {
            step: two_n,
            avoid: None,
            default: crate::params::default_bfv_moduli_bits,
            reason: format!(
                "ciphertext moduli must be primes = 1 mod {two_n} (2n, or lcm(N, m) for a general \
                 Phi_m)"
            ),
        };
        let core = self.core.build(ring, two_n, &rule)?;
        if core.moduli.contains(&self.plain_modulus) {
            return Err(Error::InvalidParameters(
                "the plaintext modulus must not be a ciphertext modulus".into(),
            ));
        }
        Ok(BfvParameters {
            core,
            plain_modulus: self.plain_modulus,
            multiplication: self.multiplication,
            decryption: self.decryption,
            m_tilde: self.m_tilde,
            montgomery: self.montgomery,
        })
    }
}
