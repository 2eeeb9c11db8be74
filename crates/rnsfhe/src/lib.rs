//! rnsfhe: full-RNS homomorphic encryption (BFV with BEHZ and HPS multiplication; CKKS), built on
//! [`rnsfhe_math`]. BGV (paper 001) with modulus switching. HPR multiplication is planned, not implemented.

pub use rnsfhe_math::{backend, num_threads, set_backend, set_num_threads, Backend, Error, Result};

pub mod bfv;
pub mod bgv;
pub mod circuits;
pub mod ckks;
pub mod encoding;
pub mod params;
pub mod rlwe;
pub mod serialize;
