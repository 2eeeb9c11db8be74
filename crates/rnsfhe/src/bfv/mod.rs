//! BFV over full RNS (Bajard et al. (SAC 2016), BEHZ; and the HPS variant).
//!
//! - [`BfvParameters`]: degree, t, moduli, distributions, the [`Multiplication`] and [`Decryption`]
//!   methods, key-switching layout; validated against the security table.
//! - [`BfvContext`]: the precomputation (rings, decryption tables, one multiplication tool), key
//!   generation, encoding, encryption, decryption and every homomorphic operation.
//! - [`BehzTool`] / [`HpsTool`]: each method's tables, in a struct of its own.
//! - Noise: [`BfvContext::noise_budget`] with the noise bound every ciphertext carries (`noise.rs`),
//!   and Bajard et al. (SAC 2016)'s worst-case depth (eq. (20)) in [`depth`].
//! - Bajard et al. (SAC 2017) on a general Phi_m: `reduction(Reduction::Montgomery)` is the mixed strategy of
//!   section 4.4; with [`FvMontgomery::Full`] ciphertexts are held as c M (sections 4 and 4.1).

mod behz;
mod ciphertext;
mod context;
mod decrypt;
pub mod depth;
mod evaluator;
mod hps;
mod keys;
mod noise;
mod params;

pub use crate::rlwe::{GaloisKeys, RelinKey};
pub use behz::{BehzSizes, BehzTool};
pub use ciphertext::{BfvCiphertext, BfvPlaintext};

/// The former name of [`BfvCiphertext`], kept for one release.
#[deprecated(
    since = "0.2.0",
    note = "renamed to `BfvCiphertext`, as `BgvCiphertext` and `CkksCiphertext`"
)]
pub type Ciphertext = BfvCiphertext;
/// The former name of [`BfvPlaintext`], kept for one release.
#[deprecated(
    since = "0.2.0",
    note = "renamed to `BfvPlaintext`, as `BgvPlaintext` and `CkksPlaintext`"
)]
pub type Plaintext = BfvPlaintext;
pub use context::{BfvContext, MulTool};
pub use hps::HpsTool;
pub use params::{BfvParameters, BfvParametersBuilder, Decryption, FvMontgomery, Multiplication};

use std::sync::Arc;

use rnsfhe_math::ring::{Reduction, RingContext};

/// The ring the auxiliary bases of BEHZ and HPS are built over: X^n + 1, or a general Phi_m (paper
/// 001), with the expansion factor delta that sizes them (n for X^n + 1; for Phi_m, n times the
/// reduction's expansion, a rigorous stand-in for delta_R <= n ||F_m||_inf of Lemma 4).
#[derive(Clone, Copy, Debug)]
pub struct RingShape {
    /// The degree n.
    pub n: usize,
    /// Some((m, reduction)) for a general Phi_m.
    pub general: Option<(usize, Reduction)>,
    /// The expansion factor delta_R bounding ||a b||_inf / (||a||_inf ||b||_inf).
    pub delta: f64,
}

impl RingShape {
    /// What every modulus of the ring is 1 modulo.
    pub(crate) fn step(&self) -> u64 {
        crate::params::ring_step(self.n, self.general.map(|g| g.0))
    }

    /// The ring over `moduli`.
    pub(crate) fn ring(&self, moduli: &[u64]) -> crate::Result<Arc<RingContext>> {
        Ok(match self.general {
            Some((m, r)) => RingContext::cyclotomic(m, moduli, r)?,
            None => RingContext::new(self.n, moduli)?,
        })
    }

    /// delta_R rounded up to an integer (for the exact size bounds).
    pub(crate) fn delta_int(&self) -> u64 {
        self.delta.ceil() as u64
    }
}
