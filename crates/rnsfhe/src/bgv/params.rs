//! BGV parameter sets: degree, plaintext modulus t, the modulus chain q_0..q_L (each q_l = 1 mod 2n and
//! = 1 mod t, Bajard et al. (SAC 2017) Lemma 3), special moduli, distributions, key-switching layout; validated
//! against the security table.

use std::ops::Deref;

use rnsfhe_math::ring::Reduction;

use crate::params::shared::{
    check_plain_modulus, rlwe_builder_setters, ModuliRule, RlweParametersBuilder,
};
use crate::params::{ring_step, RlweParameters};
use crate::{Error, Result};

/// Validated BGV parameters (build with [`BgvParameters::builder`]): the shared [`RlweParameters`]
/// (ring, moduli q_0..q_L, distributions, key switching, security; its accessors are reached
/// through `Deref`) and the plaintext modulus t.
#[derive(Clone, Debug, PartialEq)]
pub struct BgvParameters {
    pub(crate) core: RlweParameters,
    pub(crate) plain_modulus: u64,
    pub(crate) modulus_switching: ModulusSwitching,
}

/// Who manages the levels of BGV ciphertexts (OpenFHE's scaling technique for BGV).
///
/// - `Auto` (the default, as OpenFHE's FIXEDAUTO / FLEXIBLEAUTO): the operators switch the modulus
///   as the chain needs. Before a product each operand is brought down while a switch leaves the
///   product more room below Q / 2 (judged on the noise bounds the ciphertexts carry); operands of
///   a product or a sum at different levels are aligned to the lower level. The policy and its
///   justification from the noise bound are in `bgv/switching.rs` (see
///   [`crate::bgv::BgvContext::multiply`]).
/// - `Manual`: no operation switches on its own; operands of a sum or product must be at one level
///   (`mod_switch_to_level`) and products should be followed by `mod_switch` by hand.
///
/// `mod_switch` and `mod_switch_to_level` are available in both modes. The mode is part of the
/// parameter set's bytes but not of its fingerprint: keys and ciphertexts serve both modes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ModulusSwitching {
    /// The operators switch the modulus before products and align levels (default).
    #[default]
    Auto,
    /// Levels are the user's: today's explicit `mod_switch` / `mod_switch_to_level`.
    Manual,
}

impl Deref for BgvParameters {
    type Target = RlweParameters;
    fn deref(&self) -> &RlweParameters {
        &self.core
    }
}

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

    /// The plaintext modulus t.
    pub fn plain_modulus(&self) -> u64 {
        self.plain_modulus
    }
    /// Who switches the modulus: the operators (`Auto`, default) or the user (`Manual`).
    pub fn modulus_switching(&self) -> ModulusSwitching {
        self.modulus_switching
    }
    /// The top level L (number of ciphertext moduli less one).
    pub fn max_level(&self) -> usize {
        self.moduli.len() - 1
    }
    /// Whether ciphertexts are held in the Montgomery representation c M (general Phi_m with
    /// `Reduction::Montgomery`, Bajard et al. (SAC 2017) section 4.2).
    pub fn is_montgomery(&self) -> bool {
        self.core.montgomery()
    }
    /// The number of batching slots: n when t is a prime = 1 mod 2n (power-of-two rings); for a
    /// general Phi_m and a prime t not dividing m, l = n / ord_m(t) slots of GF(t^d) (Bajard et al. (SAC 2017)
    /// section 2.4); otherwise 0.
    pub fn batching_slots(&self) -> usize {
        self.core.batching_slots(self.plain_modulus)
    }
    /// lcm(2n, t) (general Phi_m: lcm(N, m, t), N = N2(2n)): every ciphertext modulus is 1 modulo it.
    pub fn moduli_step(&self) -> Option<u64> {
        lcm(ring_step(self.degree, self.cyclotomic), self.plain_modulus)
    }
}

fn lcm(a: u64, b: u64) -> Option<u64> {
    (a / gcd(a, b)).checked_mul(b)
}

/// Builder for [`BgvParameters`]; every setter has a default, `build` validates. Ciphertext moduli
/// are primes = 1 mod 2n (the ring; lcm(N, m) for a general Phi_m) and = 1 mod t (Bajard et al. (SAC 2017)
/// Lemma 3).
#[derive(Clone, Debug)]
pub struct BgvParametersBuilder {
    core: RlweParametersBuilder,
    plain_modulus: u64,
    modulus_switching: ModulusSwitching,
}

impl Default for BgvParametersBuilder {
    fn default() -> Self {
        BgvParametersBuilder {
            core: RlweParametersBuilder::default(),
            plain_modulus: 65537,
            modulus_switching: ModulusSwitching::Auto,
        }
    }
}

impl BgvParametersBuilder {
    rlwe_builder_setters!(plain_modulus);

    /// How a general Phi_m ring reduces its products (default: the optimised Barrett of Bajard et al. (SAC 2017)
    /// Alg. 2). `Reduction::Montgomery` also selects the Montgomery representation of section 4.2
    /// (the reduction multiplies every product by M^-1, M = X^(N/2) + 1 mod Phi_m, so operands carry
    /// M): ciphertexts are held as c M (entered at encryption, left by decryption), the tensor product
    /// of c M and c' M reduces to c c' M, relinearisation and Galois keys hold M^2 (see
    /// `rlwe::KeySwitchKey`), modulus switching adds delta = [-c~/t]_{q_l} t computed from c~ = c M.
    /// Decryptions agree with the Barrett reductions; the noise of each switch gains the factor of
    /// eq. (13) (`bgv/noise.rs`). Ignored for power-of-two m (the negacyclic ring has no reduction).
    pub fn reduction(mut self, r: Reduction) -> Self {
        self.core.reduction = r;
        self
    }
    /// Who switches the modulus (default `ModulusSwitching::Auto`: the operators, before products;
    /// `Manual`: the user, with `mod_switch`).
    pub fn modulus_switching(mut self, mode: ModulusSwitching) -> Self {
        self.modulus_switching = mode;
        self
    }
    /// Validates and picks the moduli.
    pub fn build(mut self) -> Result<BgvParameters> {
        let (n, general) = self.core.ring("BGV")?;
        let t = self.plain_modulus;
        check_plain_modulus(t)?;
        let two_n = ring_step(n, general);
        let step = lcm(two_n, t).ok_or_else(|| {
            Error::InvalidParameters(format!(
                "lcm({two_n}, t) for t = {t} does not fit 64 bits (the ciphertext moduli must be 1 \
                 modulo it)"
            ))
        })?;
        let rule = ModuliRule {
            step,
            avoid: Some(t),
            default: crate::params::default_moduli_bits,
            reason: format!(
                "BGV ciphertext moduli must be primes = 1 mod {two_n} (the ring) and = 1 mod t (1 \
                 mod {step}; Bajard et al. (SAC 2017) Lemma 3)"
            ),
        };
        Ok(BgvParameters {
            core: self.core.build((n, general), two_n, &rule)?,
            plain_modulus: t,
            modulus_switching: self.modulus_switching,
        })
    }
}
