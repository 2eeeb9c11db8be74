//! Minimax polynomial approximation in high precision, for the comparisons (sign, max, ReLU) the
//! schemes evaluate homomorphically. Pure mathematics: the results are Chebyshev coefficients
//! that a scheme's polynomial evaluator takes as they are.
//!
//! - [`remez()`]: the minimax polynomial of degree d of a function on a union of intervals (odd, even
//!   or any polynomial, in the Chebyshev basis of [-r, r]), by the Remez exchange with the
//!   multi-interval rule of Lee, Lee, Lee, Kim and No, "High-precision bootstrapping of RNS-CKKS
//!   homomorphic encryption using optimal minimax polynomial approximation and inverse sine
//!   function" (Eurocrypt 2021), in `dashu-float` arithmetic (256 bits by default).
//! - [`composite_sign`]: p_k o ... o p_1 ~ sign(x) on alpha <= |x| <= 1 after Lee, Lee, Kim and No,
//!   "Minimax approximation of sign function by composite polynomial for homomorphic comparison"
//!   (IEEE TDSC 2021), with the degrees of least depth and then fewest products ([`search`]);
//!   [`sign_table`] returns the shipped ones at once.
//!
//! # Example
//!
//! ```
//! use rnsfhe_math::approx::{composite_sign, remez, sign_table, MinimaxProblem, Real, RemezOptions};
//!
//! # fn main() -> rnsfhe_math::Result<()> {
//! // |x| on [-1, 1] by degree 2: x^2 + 1/8, of error 1/8.
//! let abs = |x: &Real| if *x < Real::ZERO { -x.clone() } else { x.clone() };
//! let m = remez(abs, &MinimaxProblem::new(2, &[(-1.0, 1.0)]), &RemezOptions::default())?;
//! assert!((m.max_error - 0.125).abs() < 1e-12);
//! assert!((m.evaluate(0.5) - 0.375).abs() < 1e-12);
//!
//! // sign(x) for 2^-8 <= |x| <= 1 within 2^-20: the shipped table, else computed (seconds).
//! let s = match sign_table(8, 20) {
//!     Some(s) => s,
//!     None => composite_sign(8, 20)?,
//! };
//! assert!((s.evaluate(-0.01) + 1.0).abs() <= 2f64.powi(-20));
//! assert_eq!(s.depth(), s.degrees().iter().map(|&d| (d + 1).ilog2() as usize).sum::<usize>());
//! # Ok(())
//! # }
//! ```

mod chebyshev;
pub mod composite;
mod problem;
mod real;
pub mod remez;
pub mod search;
mod sign_tables;

pub use chebyshev::{clenshaw, Parity};
pub use composite::{composite_sign, sign_table, sign_table_pairs, Component, CompositeSign};
pub use real::Real;
pub use remez::{remez, Minimax, MinimaxProblem, RemezOptions, MAX_REMEZ_DEGREE};

#[cfg(test)]
mod remez_tests;
#[cfg(test)]
mod sign_tests;
