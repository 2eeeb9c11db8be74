//! rnsfhe: full-RNS homomorphic encryption, built on [`rnsfhe_math`]: BFV with BEHZ and HPS
//! multiplication (paper 000), HPR-FV (paper 002), BGV with modulus switching (paper 001), CKKS (paper
//! 004), and circuits (polynomials, functions, statistics, logistic regression) on top.

pub use rnsfhe_math::{backend, num_threads, set_backend, set_num_threads, Backend, Error, Result};

pub mod bfv;
pub mod bgv;
pub mod circuits;
pub mod ckks;
pub mod encoding;
pub mod hpr;
pub mod params;
pub mod rlwe;
pub mod serialize;
