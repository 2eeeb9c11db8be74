//! rnsfhe: full-RNS homomorphic encryption (BFV with BEHZ and HPS multiplication; HPR-FV; CKKS), built on
//! [`rnsfhe_math`]. BGV is planned, not implemented.

pub use rnsfhe_math::{backend, num_threads, set_backend, set_num_threads, Backend, Error, Result};

pub mod bfv;
pub mod ckks;
pub mod encoding;
pub mod hpr;
pub mod params;
pub mod rlwe;
pub mod serialize;
