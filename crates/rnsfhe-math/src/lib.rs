//! Word-size arithmetic under rnsfhe: moduli, NTTs, RNS bases and base extensions, polynomial rings and
//! sampling. No cryptography lives here; the schemes crate (`rnsfhe`) builds on these layers.
//!
//! Layers, bottom to top: [`arith`] (one modulus), [`ntt`] (transforms over one modulus), [`rns`] (bases
//! of several moduli and conversions between them), [`ring`] (polynomials in RNS form), [`sample`]
//! (randomness). Every function documents the range of its inputs and of its output. Beside them,
//! [`approx`] computes minimax polynomial approximations (Remez, composite sign) in high precision.
//!
//! # Examples
//!
//! Two NTT-friendly primes, an NTT round trip over one of them, a product in Z_Q\[X]/(X^8 + 1) over
//! both (X^7 * X = X^8 = -1), and a big integer through the RNS basis and back:
//!
//! ```
//! use num_bigint::BigUint;
//! use rnsfhe_math::arith::{ntt_primes, Modulus};
//! use rnsfhe_math::ntt::NttTable;
//! use rnsfhe_math::ring::{Poly, RingContext};
//! use rnsfhe_math::rns::RnsBasis;
//!
//! # fn main() -> rnsfhe_math::Result<()> {
//! let n = 8;
//! let primes = ntt_primes(30, 2 * n as u64, 2, &[])?; // 30-bit primes q = 1 mod 2n
//!
//! // Negacyclic NTT and its inverse (1/n included) give the input back.
//! let table = NttTable::new(Modulus::new(primes[0])?, n)?;
//! let a: Vec<u64> = (1..=n as u64).collect();
//! let mut x = a.clone();
//! table.forward(&mut x)?;
//! assert_ne!(x, a);
//! table.inverse(&mut x)?;
//! assert_eq!(x, a);
//!
//! // Products are taken in NTT form over every prime of the ring.
//! let ring = RingContext::new(n, &primes)?;
//! let mut x7 = Poly::from_signed(&ring, &[0, 0, 0, 0, 0, 0, 0, 1])?;
//! let mut x1 = Poly::from_signed(&ring, &[0, 1, 0, 0, 0, 0, 0, 0])?;
//! x7.to_ntt()?;
//! x1.to_ntt()?;
//! let mut p = x7.mul(&x1)?;
//! p.to_coefficient()?;
//! let q = ring.basis().product().clone();
//! let mut want = vec![BigUint::from(0u32); n];
//! want[0] = &q - 1u32; // -1 mod Q
//! assert_eq!(p.to_biguint()?, want);
//!
//! // An integer below Q as one residue per prime, and back (exact CRT).
//! let basis = RnsBasis::new(&primes)?;
//! let big = BigUint::from(123_456_789_012_345_678u64);
//! let residues = basis.decompose(&big);
//! assert_eq!(residues[0], (123_456_789_012_345_678u64 % primes[0]));
//! assert_eq!(basis.compose(&residues)?, big);
//! # Ok(())
//! # }
//! ```
//!
//! # References
//!
//! Comments cite papers by first author, venue and year: Bajard, Eynard, Hasan, Zucca, "A Full RNS
//! Variant of FV like Somewhat Homomorphic Encryption Schemes", SAC 2016 (FastBconv, FastBconvSK,
//! [`rns`]); Bajard, Eynard, Martins, Sousa, Zucca, "Efficient reductions in cyclotomic rings,
//! application to R-LWE based FHE schemes", SAC 2017 (reductions modulo Phi_m, [`ring`]); Bajard,
//! Eynard, Martins, Sousa, Zucca, "An HPR variant of the FV scheme: computationally cheaper,
//! asymptotically faster", IACR ePrint 2019/500 (HPR digits, [`rns`]); Vollmer, Bigou, Tisserand,
//! "Using hierarchical approach to speed-up RNS base extensions in HE context", ARITH 2023 (FHBE,
//! [`rns`]); Cheon, Han, Kim, Kim, Song, "A Full RNS Variant of Approximate Homomorphic Encryption",
//! SAC 2018 (ModUp and ModDown, [`rns`]).

pub mod approx;
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

// The kernel tests' skip record, shared with the integration tests (which name the crate `rnsfhe_math`).
#[cfg(test)]
extern crate self as rnsfhe_math;
#[cfg(test)]
#[path = "../tests/support/skip.rs"]
mod skip;
