//! BGV over full RNS (Bajard et al. (SAC 2017) section 2 and 4): the decryption invariant
//! [c_0 + c_1 s]_{Q_l} = \[m]_t + t v, errors scaled by t, the tensor product modulo Q_l without base
//! extension, key switching through the shared [`crate::rlwe`] layer, and modulus switching along a
//! [`crate::rlwe::ModulusChain`] with delta = t [-c t^-1]_{q_l} (Lemma 3, q_l = 1 mod t).
//!
//! - [`BgvParameters`]: degree, t, the chain q_0..q_L (each 1 mod 2n and 1 mod t), special moduli.
//! - [`BgvContext`]: keys, encoding (batching when t is a prime = 1 mod 2n), encryption, decryption
//!   (refused when the noise may have wrapped), and every homomorphic operation.
//! - Noise: a bound on the phase carried by every ciphertext (`noise.rs`), as BFV's.
//! - Levels: by default the operators switch the modulus before products and align the levels of
//!   their operands (`switching.rs`, [`ModulusSwitching`]); `ModulusSwitching::Manual` leaves
//!   `mod_switch` to the user.
//! - The Montgomery representation of section 4.2 (ciphertexts c M, keys with M^2) with
//!   `Reduction::Montgomery` on a general Phi_m (see `BgvParametersBuilder::reduction`).
//! - [`depth`]: the depth of Bajard et al. (SAC 2017) section 4.3, theoretical and measured.

mod auto_mod_switch;
mod ciphertext;
mod context;
pub mod depth;
mod evaluator;
mod keys;
mod noise;
mod params;

pub use crate::rlwe::{GaloisKeys, RelinKey};
pub use ciphertext::{BgvCiphertext, BgvPlaintext};
pub use context::BgvContext;
pub use params::{BgvParameters, BgvParametersBuilder, ModulusSwitching};
