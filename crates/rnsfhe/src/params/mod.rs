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

/// The default moduli widths of a scheme: the security bound max log2(QP) for n (at `security`'s
/// level, 128 bits for research-only sets) split into primes of at most 49 bits (the AVX-512 IFMA NTT
/// range), the last one special: (ciphertext widths, special widths).
pub(crate) fn default_moduli_bits(n: usize, security: Security) -> Result<(Vec<u32>, Vec<u32>)> {
    let level = match security {
        Security::Standard(l) => l,
        Security::InsecureResearchOnly => SecurityLevel::Bits128,
    };
    let total = max_log_q(n, level).ok_or_else(|| {
        Error::InvalidParameters(format!(
            "no default moduli for n = {n}: the security table covers 2^10..2^17; pass moduli_bits"
        ))
    })?;
    let count = total.div_ceil(49).max(2) as usize;
    let mut bits: Vec<u32> = (0..count)
        .map(|i| total / count as u32 + u32::from((i as u32) < total % count as u32))
        .collect();
    bits.iter_mut().for_each(|b| *b = (*b).min(49));
    let special = bits.pop().map(|b| vec![b]).unwrap_or_default();
    Ok((bits, special))
}
