//! CKKS over full RNS (paper 004, Cheon-Han-Kim-Kim-Song, "A Full RNS Variant of Approximate
//! Homomorphic Encryption"): approximate arithmetic on vectors of complex numbers.
//!
//! - [`CkksEncoder`]: the encoding tau^-1 and decoding tau of §2.1 (a variant of the canonical
//!   embedding, N/2 complex slots, or fewer with sparse packing), computed in O(N log N) with the
//!   special FFT over the orbit of 5; Galois elements for slot rotations and conjugation.
//! - [`Complex`]: the slot type.
//! - [`apply_galois_f64`]: X -> X^g on a real coefficient vector (to check rotations without
//!   encryption).

pub mod complex;
pub mod encoder;

pub use complex::Complex;
pub use encoder::{apply_galois_f64, CkksEncoder};
