//! One scale per level (OpenFHE's FLEXIBLEAUTO): the chain of scales that a context precomputes, the
//! query of a level's scale, and when two scales count as one.
//!
//! The rule: Delta_{l-1} = Delta_l^2 / q_l at every level l >= 1, so that a product of two ciphertexts
//! at Delta_l, rescaled by q_l, lands on Delta_{l-1}; and Delta_R = 2^scale_bits at the scale level R
//! (`CkksParameters::scale_level`, the top level L by default). Below R the relation is solved
//! downward, Delta_{l-1} = Delta_l^2 / q_l (each q_l's distance to 2^scale_bits doubles into the
//! next scale, so the drift is bounded: Cheon et al. (SAC 2018)'s approximate basis); above R upward, Delta_l =
//! sqrt(Delta_{l-1} q_l), which halves the relative distance of Delta_{l-1} to q_l at each step, so
//! that the levels of wider primes above R (bootstrapping's EvalMod and CoeffsToSlots) take scales
//! that approach their own primes, and nothing drifts.

use super::{CkksContext, CkksParameters};
use crate::{Error, Result};

/// Relative difference up to which two scales are one scale ("within floating-point rounding"): a
/// scale's f64 bookkeeping (a product of two scales, a quotient by a prime, a constant's factor)
/// rounds at 2^-53 per step over a few steps, and on the chain the scales agree to the last bit;
/// 2^-48 leaves room for that and stays below the relative precision CKKS reaches.
pub(crate) const SCALE_TOLERANCE: f64 = 1.0 / (1u64 << 48) as f64;

/// The scales Delta_0..Delta_L of the levels (module documentation; OpenFHE's FLEXIBLEAUTO,
/// `CryptoParametersCKKSRNS::PrecomputeCRTTables`, for R = L). Below R each is computed as `s * s /
/// q` in f64, the same operations (and roundings) as a product's scale followed by a rescale, so a
/// rescaled product lands on it to the last bit; above R a rescaled product lands on it within a few
/// roundings (within [`SCALE_TOLERANCE`], where `rescale` keeps the level's scale). Refused (as
/// OpenFHE does) when a scale of a level <= R leaves [Delta / 2, 2 Delta]: the primes below R drifted
/// too far from 2^scale_bits.
pub(super) fn chain_scales(params: &CkksParameters) -> Result<Vec<f64>> {
    let top = params.levels();
    let r = params.scale_level;
    let delta = params.scale();
    let mut s = vec![delta; top + 1];
    for l in (1..=r).rev() {
        s[l - 1] = s[l] * s[l] / params.chain[l] as f64;
        let ratio = s[l - 1] / delta;
        if !(0.5..=2.0).contains(&ratio) {
            let b = params.scale_bits;
            return Err(Error::InvalidParameters(format!(
                "the scale of level {} is 2^{:.3}, more than a factor 2 from 2^{b}: the primes \
                 near 2^{b} drift too far over {r} levels (fewer levels or a larger degree; the \
                 primes of levels 1..={r} must be near 2^{b})",
                l - 1,
                s[l - 1].log2(),
            )));
        }
    }
    for l in r + 1..=top {
        s[l] = (s[l - 1] * params.chain[l] as f64).sqrt();
    }
    Ok(s)
}

/// Whether two scales are one (relative difference within [`SCALE_TOLERANCE`]).
pub(crate) fn same_scale(a: f64, b: f64) -> bool {
    (a / b - 1.0).abs() <= SCALE_TOLERANCE
}

impl CkksContext {
    /// The scale Delta_level of ciphertexts at `level` (OpenFHE's FLEXIBLEAUTO): Delta_{l-1} =
    /// Delta_l^2 / q_l, and Delta_R = 2^scale_bits at the scale level R (the top level L unless the
    /// parameters chose a lower one; the module documentation has the rule). The operators and the methods that land on a
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
