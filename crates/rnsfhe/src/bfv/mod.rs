//! BFV over full RNS (paper 000, BEHZ; and the HPS variant).
//!
//! - [`BfvParameters`]: degree, t, moduli, distributions, the [`Multiplication`] and [`Decryption`]
//!   methods, key-switching layout; validated against the security table.
//! - [`BfvContext`]: the precomputation (rings, decryption tables, one multiplication tool), key
//!   generation, encoding, encryption, decryption and every homomorphic operation.
//! - [`BehzTool`] / [`HpsTool`]: each method's tables, in a struct of its own.
//! - Noise: [`BfvContext::noise_budget`] with the noise bound every ciphertext carries (`noise.rs`),
//!   and paper 000's worst-case depth (eq. (20)) in [`depth`].

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
pub use ciphertext::{Ciphertext, Plaintext};
pub use context::{BfvContext, MulTool};
pub use hps::HpsTool;
pub use params::{BfvParameters, BfvParametersBuilder, Decryption, Multiplication};
