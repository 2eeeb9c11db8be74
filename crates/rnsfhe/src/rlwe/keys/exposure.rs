//! The exposure of a secret: every public key, key-switching key and symmetric ciphertext under s
//! is an RLWE sample with secret s at some modulus, and its security depends on s's distribution
//! and that modulus ([`crate::params::Security::max_log_q_for`]). A secret records its
//! distribution and the largest modulus it may be exposed at; key generation and encryption refuse
//! a sample above it. This is what keeps a sparse ephemeral secret (Hamming weight 32, Bossuat,
//! Troncoso-Pastoriza and Hubaux, ACNS 2022) from ever being the RLWE secret of a sample at the full
//! modulus Q P (Lattigo's pitfall fixed in v6.1.1, see `crate::rlwe::EncapsulationKeys`).

use std::sync::Arc;

use rnsfhe_math::ring::RingContext;

use super::{KeyContext, SecretDistribution, SecretKey};
use crate::{Error, Result};

/// log2 of the product of a ring's moduli.
pub(crate) fn log2_modulus(ring: &Arc<RingContext>) -> f64 {
    ring.moduli()
        .iter()
        .map(|m| (m.value() as f64).log2())
        .sum()
}

/// The distribution of an imported secret: the parameters' own when its weight fits it (a ternary
/// secret has about 2n/3 non-zero coefficients, far above n/2), else a dense or sparse
/// distribution by its weight h (dense from 2n/3, as the security gate has it). Coefficients that
/// are not small integers (a share uniform mod Q u P) count as the parameters' distribution.
pub(crate) fn classify(
    ctx: &dyn KeyContext,
    coeffs: Option<&[i64]>,
    n: usize,
) -> SecretDistribution {
    let own = ctx.secret_distribution();
    let Some(c) = coeffs else { return own };
    let h = c.iter().filter(|&&x| x != 0).count();
    match own {
        SecretDistribution::HammingWeight(w) if w == h => own,
        SecretDistribution::Ternary if 2 * h >= n => own,
        _ if 3 * h >= 2 * n => SecretDistribution::Ternary,
        _ => SecretDistribution::HammingWeight(h),
    }
}

impl SecretKey {
    /// The distribution s was drawn from (for an imported secret: the parameters' one when its
    /// weight fits it, else its Hamming weight).
    pub fn distribution(&self) -> SecretDistribution {
        self.distribution
    }

    /// The largest log2 modulus of an RLWE sample under s (a public key, a key-switching key to s,
    /// a symmetric ciphertext) that keeps the parameters' security level; infinite for research
    /// parameters.
    pub fn max_log_modulus(&self) -> f64 {
        self.max_log_modulus
    }

    /// Refuses `what`, an RLWE sample under s at a modulus of `log_modulus` bits, above
    /// [`Self::max_log_modulus`].
    pub(crate) fn check_exposure(&self, log_modulus: f64, what: &str) -> Result<()> {
        // A hair of tolerance: the bound is a bit count, moduli products are not exact.
        if log_modulus <= self.max_log_modulus + 1e-9 {
            return Ok(());
        }
        Err(Error::InvalidParameters(format!(
            "{what}: an RLWE sample under a secret of distribution {:?} at a modulus of {:.1} bits; \
             these parameters' security allows at most {:.1} bits for it (params::security::\
             SPARSE_ESTIMATES and the HE-standard table); a sparse secret is for small moduli only",
            self.distribution, log_modulus, self.max_log_modulus
        )))
    }
}
