//! Polynomial evaluation over any scheme's [`Evaluator`]: the power and Chebyshev bases
//! ([`basis`], [`powers`]), baby-step giant-step / Paterson–Stockmeyer ([`bsgs`]) and the landing
//! on a requested level and scale ([`target`]), after Bossuat et al. (Eurocrypt 2021, Alg. 2) and
//! Lattigo v6's `circuits/common/polynomial` (target scale propagated backwards to the leaves).
//!
//! CKKS with real or complex coefficients, BGV, BFV and HPR with integers modulo t; degree d in
//! ceil(log2(d + 1)) levels. The CKKS functions of [`crate::circuits`] (`evaluate_polynomial`,
//! `evaluate_chebyshev`, exp, sigmoid, ...) are thin wrappers over [`evaluate`].
//!
//! # Example
//!
//! sin on [-1, 1] by its Chebyshev interpolant of degree 15 (odd: only odd terms are evaluated),
//! landing on level 1 at 2^35 (toy, insecure size):
//!
//! ```
//! use rnsfhe::circuits::chebyshev_coefficients;
//! use rnsfhe::circuits::poly::{evaluate, Polynomial, Target};
//! use rnsfhe::ckks::{CkksContext, CkksParameters};
//! use rnsfhe::eval::Evaluator;
//! use rnsfhe::params::Security;
//! use rnsfhe_math::sample::Csprng;
//!
//! # fn main() -> rnsfhe::Result<()> {
//! let params = CkksParameters::builder()
//!     .degree(2048)
//!     .levels(5)
//!     .scale_bits(40)
//!     .security(Security::InsecureResearchOnly)
//!     .build()?;
//! let ctx = CkksContext::new(params)?;
//! let mut rng = Csprng::from_seed([9; 32]);
//! let (sk, pk) = ctx.keygen(&mut rng)?;
//! let rlk = ctx.relin_key(&sk, &mut rng)?;
//!
//! let mut c = chebyshev_coefficients(f64::sin, -1.0, 1.0, 15);
//! c.iter_mut().step_by(2).for_each(|x| *x = 0.0); // sin is odd
//! let p = Polynomial::chebyshev_real(&c, (-1.0, 1.0))?;
//! let x = [0.5, -0.25, 0.9];
//! let ct = ctx.encrypt(&ctx.encode_real(&x)?, &pk, &mut rng)?;
//! let out = evaluate(&*ctx, &ct, &p, Target::new(1, 2f64.powi(35)), &rlk)?;
//! assert_eq!(out.level(), 1);
//! assert!((Evaluator::scale(&*ctx, &out) / 2f64.powi(35) - 1.0).abs() < 1e-12);
//! let got = ctx.decrypt_values(&out, &sk)?;
//! for (g, v) in got.iter().zip(x) {
//!     assert!((g.re - v.sin()).abs() < 1e-6);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! [`Evaluator`]: crate::eval::Evaluator

pub mod basis;
pub mod bsgs;
pub mod ckks;
pub mod powers;
pub mod target;

pub use basis::{depth, Basis, Polynomial, MAX_POLYNOMIAL_DEGREE};
pub use powers::PowerBasis;
pub use target::{evaluate, levels_needed, Target};
