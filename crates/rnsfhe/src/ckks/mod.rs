//! CKKS over full RNS (Cheon et al. (SAC 2018), Cheon-Han-Kim-Kim-Song, "A Full RNS Variant of Approximate
//! Homomorphic Encryption"): approximate arithmetic on vectors of complex numbers.
//!
//! - [`CkksEncoder`]: the encoding tau^-1 and decoding tau of §2.1 (a variant of the canonical
//!   embedding, N/2 complex slots, or fewer with sparse packing), computed in O(N log N) with the
//!   special FFT over the orbit of 5; Galois elements for slot rotations and conjugation.
//! - [`Complex`]: the slot type.
//! - [`CkksParameters`] (Setup: q_0, the approximate-basis chain, special primes), [`CkksContext`]
//!   (keys, encode/encrypt/decrypt; IND-CPA-D decryption with noise flooding,
//!   [`CkksContext::decrypt_flooded`]) and the operations: add, multiply with ModUp/ModDown key switching
//!   (shared with BFV in `rlwe`), rescale, level drop, rotations, conjugation; many rotations of one
//!   ciphertext and weighted sums of rotations, hoisted ([`CkksContext::rotate_many`],
//!   [`CkksContext::sum_rotations`]).
//! - Scales: one per level, Delta_{l-1} = Delta_l^2 / q_l (OpenFHE's FLEXIBLEAUTO,
//!   [`CkksContext::scale_at`]); the methods keep ciphertexts on it, and the operators' forms
//!   (`add_auto`, `mul_auto`, `mul_const_auto`, ...) align, operate and rescale, so that a circuit spends
//!   exactly its multiplicative depth in levels.
//! - Polynomial evaluation, analytic functions, statistics and logistic regression live in
//!   [`crate::circuits`], built on these operations.
//! - [`fft_stages`](mod@fft_stages): the special FFT factored into sparse stages (the matrices of a homomorphic
//!   DFT: SlotsToCoeffs and CoeffsToSlots of bootstrapping).
//! - [`apply_galois_f64`]: X -> X^g on a real coefficient vector (to check rotations without
//!   encryption).

mod auto_levels;
mod ciphertext;
pub mod complex;
mod context;
pub mod encoder;
pub mod fft_stages;
mod flooded;
mod lift;
mod moduli;
mod multiply;
mod ops;
mod params;
mod phase;
mod rotations;
mod scales;

pub use ciphertext::{CkksCiphertext, CkksPlaintext};
pub use complex::Complex;
pub use context::CkksContext;
pub(crate) use context::{integers_to_coefficients, integers_to_ntt};
pub use encoder::{apply_galois_f64, CkksEncoder};
pub use fft_stages::{fft_stages, DiagonalMatrix, FftStages};
pub use params::{CkksParameters, CkksParametersBuilder};
pub use rotations::CkksWeights;
pub(crate) use scales::{same_scale, SCALE_TOLERANCE};
