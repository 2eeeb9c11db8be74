//! One scale per level (OpenFHE's FLEXIBLEAUTO): the chain of scales Delta_L = 2^scale_bits,
//! Delta_{l-1} = Delta_l^2 / q_l that a context precomputes, the query of a level's scale, and when two
//! scales count as one.

use super::{CkksContext, CkksParameters};
use crate::{Error, Result};

/// Relative difference up to which two scales are one scale ("within floating-point rounding"): a
/// scale's f64 bookkeeping (a product of two scales, a quotient by a prime, a constant's factor)
/// rounds at 2^-53 per step over a few steps, and on the chain the scales agree to the last bit;
/// 2^-48 leaves room for that and stays below the relative precision CKKS reaches.
pub(crate) const SCALE_TOLERANCE: f64 = 1.0 / (1u64 << 48) as f64;

/// The scales of the levels (OpenFHE's FLEXIBLEAUTO, `CryptoParametersCKKSRNS::PrecomputeCRTTables`):
/// Delta_L = 2^scale_bits and Delta_{l-1} = Delta_l^2 / q_l, so that a product of two ciphertexts at
/// Delta_l, rescaled by q_l, is at Delta_{l-1} exactly. Each is computed as `s * s / q` in f64, the
/// same operations (and roundings) as a product's scale followed by a rescale. Refused (as OpenFHE
/// does) when a scale leaves [Delta / 2, 2 Delta]: the approximate basis drifted too far.
pub(super) fn chain_scales(params: &CkksParameters) -> Result<Vec<f64>> {
    let top = params.levels();
    let delta = params.scale();
    let mut s = vec![delta; top + 1];
    for l in (1..=top).rev() {
        s[l - 1] = s[l] * s[l] / params.chain[l] as f64;
        let ratio = s[l - 1] / delta;
        if !(0.5..=2.0).contains(&ratio) {
            return Err(Error::InvalidParameters(format!(
                "the scale of level {} is 2^{:.3}, more than a factor 2 from 2^{}: the primes \
                 near 2^{} drift too far over {top} levels (fewer levels or a larger degree)",
                l - 1,
                s[l - 1].log2(),
                params.scale_bits,
                params.scale_bits
            )));
        }
    }
    Ok(s)
}

/// Whether two scales are one (relative difference within [`SCALE_TOLERANCE`]).
pub(crate) fn same_scale(a: f64, b: f64) -> bool {
    (a / b - 1.0).abs() <= SCALE_TOLERANCE
}

impl CkksContext {
    /// The scale Delta_level of ciphertexts at `level` (OpenFHE's FLEXIBLEAUTO): Delta_L =
    /// 2^scale_bits and Delta_{l-1} = Delta_l^2 / q_l. The operators and the methods that land on a
    /// level (`rescale` of a product, `mul_const`, `drop_to_level`, `align`, the circuits) keep every
    /// ciphertext of a level at this one scale, so two ciphertexts of one level always add without
    /// spending a level. Errors: `InvalidParameters` above the top level.
    pub fn scale_at(&self, level: usize) -> Result<f64> {
        self.scales.get(level).copied().ok_or_else(|| {
            Error::InvalidParameters(format!(
                "level {level} is above the top level {}",
                self.max_level()
            ))
        })
    }

    /// The factor f that a ciphertext at (`level` >= 1, `scale`) is multiplied by so that the
    /// rescale by q_level lands exactly on `target`: f = target q_level / scale (the encoding scale
    /// of the constants, weights and diagonals of `mul_const_rescale_to`, `sum_rotations` and the
    /// linear transforms).
    pub(crate) fn factor_onto(&self, level: usize, scale: f64, target: f64) -> Result<f64> {
        let ql = self.ring_at(level)?.moduli()[level].value() as f64;
        Ok(target * ql / scale)
    }

    /// Whether `scale` is the scale of `level` (within [`SCALE_TOLERANCE`], the f64 bookkeeping).
    pub(crate) fn on_chain(&self, level: usize, scale: f64) -> bool {
        self.scales
            .get(level)
            .is_some_and(|&s| same_scale(s, scale))
    }
}
