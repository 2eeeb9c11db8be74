//! rnsfhe: full-RNS homomorphic encryption (BFV with BEHZ, HPS and HPR; BGV; CKKS), built on
//! [`rnsfhe_math`].

pub use rnsfhe_math::{Error, Result};

pub mod bfv;
pub mod ckks;
pub mod encoding;
pub mod params;
pub mod rlwe;
pub mod serialize;
