//! Circuits: computations built from a scheme's public operations, apart from the schemes themselves
//! (as Lattigo's `circuits` over its `schemes.Evaluator`).
//!
//! - [`poly`]: polynomial evaluation over any [`Evaluator`] (CKKS, BGV, BFV, HPR): power and
//!   Chebyshev bases, baby-step giant-step landing on a requested level and scale, real, complex or
//!   integer (mod t) coefficients, degree d in ceil(log2(d + 1)) levels.
//!
//! The CKKS functions below take the [`CkksContext`] and its keys; the polynomial ones are thin
//! wrappers over [`poly`] landing on the chain's scale of the level they reach:
//!
//! - [`poly::ckks`]: powers and polynomial evaluation with real coefficients
//!   ([`evaluate_polynomial`], also under the name [`evaluate_polynomial_bsgs`]);
//! - [`chebyshev`]: Chebyshev interpolation of any function on an interval;
//! - [`functions`]: exp, sigmoid and the inverse (Cheon et al. (SAC 2018) section 5);
//! - [`newton`]: 1/x, 1/sqrt(x) and sqrt(x) on wide domains such as [2^-10, 1] to a requested
//!   precision (Goldschmidt and Newton iterations), refreshed by a [`crate::eval::Levels`] hook;
//! - [`statistics`]: slot sum, mean and variance (Cheon et al. (SAC 2018) Table 3);
//! - [`compare`]: sign, step, max, min, abs, ReLU, clip, argmax and top-k by composite minimax
//!   polynomials, refreshed by a [`crate::eval::Levels`] hook;
//! - [`logistic`]: encrypted logistic-regression training (Cheon et al. (SAC 2018) section 5.3);
//! - [`lintrans`]: linear transforms by their diagonals, baby-step giant-step with hoisting (CKKS,
//!   BFV, BGV).
//! - [`matrix`]: matrix products over [`lintrans`]: a plaintext matrix times a batch of encrypted
//!   vectors, and an encrypted matrix times an encrypted matrix (Jiang, Kim, Lauter and Song).
//! - [`bootstrapping`]: the stages of CKKS bootstrapping (EvalMod, the homomorphic modular
//!   reduction).
//! - [`dft`]: the homomorphic DFT of CKKS bootstrapping (CoeffsToSlots, SlotsToCoeffs), one
//!   [`lintrans`] transform per sparse stage of the encoder's FFT (`ckks::fft_stages`).
//!
//! # Example
//!
//! The mean of four encrypted values (rotate-and-add, then a product by 1/4) and a polynomial
//! 1 + x + x^2 / 2 by the power tree (toy, insecure size):
//!
//! ```
//! use rnsfhe::circuits;
//! use rnsfhe::ckks::{CkksContext, CkksParameters};
//! use rnsfhe::params::Security;
//! use rnsfhe_math::sample::Csprng;
//!
//! # fn main() -> rnsfhe::Result<()> {
//! let params = CkksParameters::builder()
//!     .degree(2048)
//!     .levels(3)
//!     .scale_bits(40)
//!     .security(Security::InsecureResearchOnly)
//!     .build()?;
//! let ctx = CkksContext::new(params)?;
//! let mut rng = Csprng::from_seed([5; 32]);
//! let (sk, pk) = ctx.keygen(&mut rng)?;
//! let rlk = ctx.relin_key(&sk, &mut rng)?;
//! let gk = ctx.galois_keys(&sk, &[1, 2], false, &mut rng)?; // the sum over 4 slots: 1, 2
//!
//! let x = [0.25, -0.5, 0.75, 1.0];
//! let c = ctx.encrypt(&ctx.encode_real(&x)?, &pk, &mut rng)?;
//! let mean = ctx.decrypt_values(&circuits::mean(&ctx, &c, 4, &gk)?, &sk)?;
//! assert!(mean.iter().take(4).all(|m| (m.re - 0.375).abs() < 1e-6));
//!
//! let p = circuits::evaluate_polynomial(&ctx, &c, &[1.0, 1.0, 0.5], &rlk)?;
//! let got = ctx.decrypt_values(&p, &sk)?;
//! for (g, v) in got.iter().zip(x) {
//!     assert!((g.re - (1.0 + v + v * v / 2.0)).abs() < 1e-6);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! [`CkksContext`]: crate::ckks::CkksContext
//! [`Evaluator`]: crate::eval::Evaluator

pub mod bootstrapping;
pub mod chebyshev;
pub mod compare;
pub mod dft;
pub mod functions;
pub mod lintrans;
pub mod logistic;
pub mod matrix;
pub mod newton;
pub mod poly;
pub mod statistics;

pub use chebyshev::{
    chebyshev_basis, chebyshev_coefficients, chebyshev_value, check_chebyshev_degree,
    cosine_series, evaluate_chebyshev,
};
pub use dft::{DftDirection, HomomorphicDft};
pub use functions::{exp, inverse, sigmoid, SIGMOID_TAYLOR_7};
pub use logistic::train_logistic;
pub use poly::ckks::{
    evaluate_polynomial, evaluate_polynomial_bsgs, powers, MAX_POLYNOMIAL_DEGREE,
};
pub use statistics::{mean, sum_slots, variance};
