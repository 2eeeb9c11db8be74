//! Parameter validation. [`security`]: the HomomorphicEncryption.org bounds on log2 q.

pub mod security;

pub use security::{
    check_security, log2_product, max_log_q, min_degree, Security, SecurityLevel,
    MIN_SPARSE_WEIGHT, SPARSE_LOG_Q_SHARE, STANDARD_SIGMA,
};

use crate::{Error, Result};

/// Ok when sigma is finite and at least the sampler's minimum.
pub(crate) fn check_sigma(sigma: f64) -> Result<()> {
    if sigma.is_finite() && sigma >= rnsfhe_math::sample::MIN_SIGMA {
        return Ok(());
    }
    Err(Error::InvalidParameters(format!(
        "sigma = {sigma} is below {} or not finite",
        rnsfhe_math::sample::MIN_SIGMA
    )))
}

/// Ok when a plaintext made by context `made_by` may enter context `id`.
pub(crate) fn check_plaintext(made_by: u64, id: u64) -> Result<()> {
    if made_by == id {
        return Ok(());
    }
    Err(Error::ContextMismatch(
        "the plaintext was encoded for another parameter set; encode it with this context".into(),
    ))
}

/// Ok when a ciphertext of `parts` polynomials made by context `made_by` may enter context `id`.
pub(crate) fn check_ciphertext(made_by: u64, id: u64, parts: usize) -> Result<()> {
    if made_by != id {
        return Err(Error::ContextMismatch(
            "the ciphertext belongs to another parameter set".into(),
        ));
    }
    if parts < 2 {
        return Err(Error::InvalidCiphertext(format!(
            "a ciphertext has at least 2 parts, this one {parts}"
        )));
    }
    Ok(())
}
