//! Randomness: the ChaCha20 CSPRNG and the samplers built on it.
//!
//! - [`Csprng`]: OS-seeded ([`Csprng::from_os_entropy`]) or seeded for tests; unbiased uniform residues
//!   and uniform RNS polynomials ([`Csprng::fill_uniform`]).
//! - [`uniform_from_seed`]: deterministic expansion of a 32-byte seed (store a uniform part as a seed).
//! - Secrets and errors, as signed coefficients in zeroizing vectors: [`ternary`],
//!   [`ternary_hamming`], [`DiscreteGaussian`]; constant time in the sampled values.
//! - Flooding noise: [`WideGaussian`], a discrete Gaussian of any large sigma added into RNS residues.
//! - [`to_rns`]: lift signed coefficients to the limb-major layout `data[i*n + j]` = coeff j mod q_i.

mod cdt;
mod chacha;
mod constant_time;
mod csprng;
mod expand;
mod gaussian;
mod lift;
mod ternary;
mod wide;

pub use csprng::Csprng;
pub use expand::{
    uniform_from_seed, uniform_from_seed_at, uniform_from_seed_at_with, uniform_from_seed_indexed,
    uniform_limb_from_seed,
};
pub use gaussian::{DiscreteGaussian, DEFAULT_SIGMA, DEFAULT_TAIL, MAX_BOUND, MIN_SIGMA};
pub use lift::{to_rns, to_rns_into};
pub use ternary::{ternary, ternary_hamming};
pub use wide::{WideGaussian, WIDE_MAX_LOG_SIGMA, WIDE_Z_MAX};
