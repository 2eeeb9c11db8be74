//! The [`BaseConverter`] trait: one interface over every base extension, so callers choose the algorithm.

use super::RnsBasis;
use crate::{Error, Result};

/// A conversion of integers from a source RNS base to a target base, applied to batches in the
/// library's limb-major layout.
pub trait BaseConverter: Send + Sync {
    /// The base the input is in.
    fn source(&self) -> &RnsBasis;
    /// The base the output is in.
    fn target(&self) -> &RnsBasis;
    /// Converts `input` (source.len() * n residues, limb-major, each below its modulus) into `output`
    /// (target.len() * n residues, limb-major, in [0, p_j)); n is inferred. Errors on lengths that do
    /// not agree. What integer the output represents is stated by each implementation.
    fn convert(&self, input: &[u64], output: &mut [u64]) -> Result<()>;
    /// Bytes of precomputed constants the conversion reads (Vollmer et al. (ARITH 2023) compares this storage).
    fn precomputed_bytes(&self) -> usize;
}

/// Checks the two lengths and returns n.
pub(super) fn batch_len(src: usize, dst: usize, input: &[u64], output: &[u64]) -> Result<usize> {
    if input.is_empty() || !input.len().is_multiple_of(src) {
        return Err(Error::LengthMismatch {
            what: "base conversion input (a multiple of the source base size)",
            expected: src * (input.len() / src).max(1),
            got: input.len(),
        });
    }
    let n = input.len() / src;
    if output.len() != dst * n {
        return Err(Error::LengthMismatch {
            what: "base conversion output",
            expected: dst * n,
            got: output.len(),
        });
    }
    Ok(n)
}
