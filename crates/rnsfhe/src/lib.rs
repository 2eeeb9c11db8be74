//! rnsfhe: full-RNS homomorphic encryption, built on [`rnsfhe_math`]: BFV with BEHZ and HPS
//! multiplication, HPR-FV, BGV with modulus switching, FV and BGV modulo any cyclotomic Phi_m, CKKS,
//! and circuits (polynomials, functions, statistics, comparisons, matrix products, logistic
//! regression, bootstrapping) on top.
//!
//! The examples here and on each context use toy, insecure sizes so that they run in a moment
//! (`Security::InsecureResearchOnly`); real parameters keep the 128-bit default, which `build`
//! checks against the HomomorphicEncryption.org bounds.
//!
//! # Examples
//!
//! ## BFV: exact integers modulo t, slot by slot
//!
//! ```
//! use rnsfhe::bfv::{BfvContext, BfvParameters};
//! use rnsfhe::params::Security;
//! use rnsfhe_math::sample::Csprng;
//!
//! # fn main() -> rnsfhe::Result<()> {
//! let t = 12289; // a prime = 1 mod 2n: n = 1024 slots
//! let params = BfvParameters::builder()
//!     .degree(1024)
//!     .plain_modulus(t)
//!     .moduli_bits(&[50, 50, 50])
//!     .special_moduli_bits(&[50])
//!     .security(Security::InsecureResearchOnly)
//!     .build()?;
//! let ctx = BfvContext::new(params)?;
//! let mut rng = Csprng::from_seed([7; 32]); // seeded for a reproducible example; use from_os_entropy
//! let (sk, pk) = ctx.keygen(&mut rng)?;
//! let rlk = ctx.relin_key(&sk, &mut rng)?;
//!
//! let a: Vec<u64> = (0..1024).collect();
//! let b: Vec<u64> = (0..1024).map(|i| 5 * i + 1).collect();
//! let ca = ctx.encrypt(&ctx.encode(&a)?, &pk, &mut rng)?;
//! let cb = ctx.encrypt(&ctx.encode(&b)?, &pk, &mut rng)?;
//! let r = ctx.multiply(&ctx.add(&ca, &cb)?, &ca, &rlk)?; // (a + b) * a
//!
//! let got = ctx.decode(&ctx.decrypt(&r, &sk)?)?;
//! let want: Vec<u64> = a.iter().zip(&b).map(|(x, y)| (x + y) * x % t).collect();
//! assert_eq!(got, want);
//! # Ok(())
//! # }
//! ```
//!
//! ## CKKS: approximate arithmetic on real (or complex) vectors
//!
//! ```
//! use rnsfhe::ckks::{CkksContext, CkksParameters};
//! use rnsfhe::params::Security;
//! use rnsfhe_math::sample::Csprng;
//!
//! # fn main() -> rnsfhe::Result<()> {
//! let params = CkksParameters::builder()
//!     .degree(2048) // 1024 slots
//!     .levels(2)
//!     .scale_bits(40)
//!     .security(Security::InsecureResearchOnly)
//!     .build()?;
//! let ctx = CkksContext::new(params)?;
//! let mut rng = Csprng::from_seed([7; 32]);
//! let (sk, pk) = ctx.keygen(&mut rng)?;
//! let rlk = ctx.relin_key(&sk, &mut rng)?;
//!
//! let x = [0.5, -1.25, 3.0, 0.001];
//! let c = ctx.encrypt(&ctx.encode_real(&x)?, &pk, &mut rng)?;
//! let sq = ctx.multiply_rescale(&c, &c, &rlk)?; // x^2, one level down
//! assert_eq!(sq.level(), ctx.max_level() - 1);
//!
//! let got = ctx.decrypt_values(&sq, &sk)?;
//! for (g, v) in got.iter().zip(x) {
//!     assert!((g.re - v * v).abs() < 1e-6, "{} against {}", g.re, v * v);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! BGV ([`bgv::BgvContext`]), HPR-FV ([`hpr::HprContext`]) and the circuits ([`circuits`]) have
//! examples of their own. Every scheme's context implements [`eval::Evaluator`], the operations
//! circuits are written with ([`circuits::poly`] evaluates polynomials over it for any scheme).//!
//! # References
//!
//! Comments cite these papers by first author, venue and year, then section, algorithm or equation:
//!
//! - Bajard, Eynard, Hasan, Zucca, "A Full RNS Variant of FV like Somewhat Homomorphic Encryption
//!   Schemes", SAC 2016 (BEHZ: [`bfv`]'s multiplication and decryption);
//! - Bajard, Eynard, Martins, Sousa, Zucca, "Efficient reductions in cyclotomic rings, application
//!   to R-LWE based FHE schemes", SAC 2017 (FV and BGV modulo any Phi_m, [`bgv`]);
//! - Bajard, Eynard, Martins, Sousa, Zucca, "An HPR variant of the FV scheme: computationally
//!   cheaper, asymptotically faster", IACR ePrint 2019/500 (HPR-FV, [`hpr`]);
//! - Vollmer, Bigou, Tisserand, "Using hierarchical approach to speed-up RNS base extensions in HE
//!   context", ARITH 2023 (FHBE, `rnsfhe_math::rns`);
//! - Cheon, Han, Kim, Kim, Song, "A Full RNS Variant of Approximate Homomorphic Encryption", SAC 2018
//!   (RNS-CKKS, [`ckks`] and [`circuits`]);
//! - Halevi, Polyakov, Shoup, "An Improved RNS Variant of the BFV Homomorphic Encryption Scheme",
//!   CT-RSA 2019 (HPS, [`bfv`]).
//!
//! Other papers (bootstrapping, comparisons, multiparty) are cited in full where they are used.

pub use error::{Error, Result, ShareFault};
pub use rnsfhe_math::{backend, num_threads, set_backend, set_num_threads, Backend};

mod error;

pub mod bfv;
pub mod bgv;
pub mod circuits;
pub mod ckks;
pub mod encoding;
pub mod eval;
pub mod hpr;
pub mod multiparty;
pub mod params;
pub mod rlwe;
pub mod serialize;

// The test-support worst error, shared with the integration tests (which name the crate `rnsfhe`).
#[cfg(test)]
extern crate self as rnsfhe;
#[cfg(test)]
#[path = "../tests/support/worst.rs"]
mod worst;
#[cfg(test)]
#[path = "../tests/support/worst_tests.rs"]
mod worst_tests;
