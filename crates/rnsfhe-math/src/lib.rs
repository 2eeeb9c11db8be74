//! Word-size arithmetic under rnsfhe: moduli, NTTs, RNS bases and base extensions, polynomial rings and
//! sampling. No cryptography lives here; the schemes crate (`rnsfhe`) builds on these layers.
//!
//! Layers, bottom to top: [`arith`] (one modulus), [`ntt`] (transforms over one modulus), [`rns`] (bases
//! of several moduli and conversions between them), [`ring`] (polynomials in RNS form), [`sample`]
//! (randomness). Every function documents the range of its inputs and of its output.

pub mod arith;
pub mod error;
pub mod ntt;
pub mod parallel;
pub mod pool;
pub mod ring;
pub mod rns;
pub mod sample;

pub use arith::{backend, set_backend, Backend};
pub use error::{Error, Result};
pub use parallel::{num_threads, set_num_threads};
