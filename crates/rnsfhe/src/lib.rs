//! rnsfhe: full-RNS homomorphic encryption (BFV with BEHZ, HPS and HPR; BGV; CKKS), built on
//! [`rnsfhe_math`].

pub use rnsfhe_math::{num_threads, set_num_threads, Error, Result};

pub mod bfv;
pub mod ckks;
pub mod encoding;
pub mod params;
pub mod rlwe;
pub mod serialize;
