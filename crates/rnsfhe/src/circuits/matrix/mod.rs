//! Matrix products in CKKS slots, built on [`super::lintrans`]:
//!
//! - [`MatrixPacking`] ([`plain`]): a plaintext matrix times encrypted vectors, one or a batch of
//!   them per ciphertext ([`BatchLayout::Rows`]: a row-major (B, n) array; [`BatchLayout::Interleaved`]:
//!   entry c of vector j at slot c B + j), in one hoisted baby-step giant-step transform whose
//!   diagonal count does not grow with the batch.
//! - [`EncryptedMatrixProduct`] ([`encrypted`]): an encrypted d x d matrix times another, or d1 x d2
//!   times d2 x d3 (Jiang, Kim, Lauter and Song, ACM CCS 2018, sections 3 and 4), depth 3.
//!
//! # Example
//!
//! Four vectors of length 4, interleaved, times one 4 x 4 matrix (toy, insecure size):
//!
//! ```
//! use rnsfhe::circuits::matrix::{BatchLayout, MatrixPacking};
//! use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
//! use rnsfhe::params::Security;
//! use rnsfhe_math::sample::Csprng;
//!
//! # fn main() -> rnsfhe::Result<()> {
//! let params = CkksParameters::builder()
//!     .degree(64)
//!     .levels(2)
//!     .security(Security::InsecureResearchOnly)
//!     .build()?;
//! let ctx = CkksContext::new(params)?;
//! let mut rng = Csprng::from_seed([3; 32]);
//! let (sk, pk) = ctx.keygen(&mut rng)?;
//! let c = |v: f64| Complex::new(v, 0.0);
//! let m: Vec<Complex> = (0..16).map(|i| c(f64::from(i % 5) - 2.0)).collect();
//! let x: Vec<Complex> = (0..16).map(|i| c(f64::from(i) / 16.0)).collect(); // 4 vectors
//! let packing = MatrixPacking::new(16, 4, BatchLayout::Interleaved)?;
//! let lt = packing.transform(&ctx, &m, 4, 4, ctx.max_level())?;
//! let gk = ctx.galois_keys(&sk, &lt.rotation_steps(), false, &mut rng)?;
//! let ct = ctx.encrypt(&ctx.encode(&packing.pack(&x, 4, 4)?)?, &pk, &mut rng)?;
//! let y = packing.unpack(&ctx.decrypt_values(&lt.apply(&ctx, &ct, &gk)?, &sk)?, 4)?;
//! for j in 0..4 {
//!     for r in 0..4 {
//!         let want: f64 = (0..4).map(|k| m[r * 4 + k].re * x[j * 4 + k].re).sum();
//!         assert!((y[j * 4 + r].re - want).abs() < 1e-6);
//!     }
//! }
//! # Ok(())
//! # }
//! ```

pub mod encrypted;
pub mod plain;

pub use encrypted::{EncryptedMatrixProduct, MATRIX_PRODUCT_DEPTH};
pub use plain::{BatchLayout, MatrixPacking};
