//! Circuits: computations built from a scheme's public operations, apart from the schemes themselves
//! (as Lattigo's `circuits` over its `ckks` evaluator). Every function takes the [`CkksContext`]
//! (the evaluator) and its keys as arguments.
//!
//! - [`polynomial`]: powers and polynomial evaluation by a depth-optimal power tree;
//! - [`bsgs`]: baby-step giant-step polynomial evaluation;
//! - [`chebyshev`]: Chebyshev interpolation of any function on an interval;
//! - [`functions`]: exp, sigmoid and the inverse (paper 004 section 5);
//! - [`statistics`]: slot sum, mean and variance (paper 004 Table 3);
//! - [`logistic`]: encrypted logistic-regression training (paper 004 section 5.3).
//!
//! [`CkksContext`]: crate::ckks::CkksContext

pub mod bsgs;
pub mod chebyshev;
pub mod functions;
pub mod logistic;
pub mod polynomial;
pub mod statistics;

pub use bsgs::evaluate_polynomial_bsgs;
pub use chebyshev::{
    chebyshev_basis, chebyshev_coefficients, check_chebyshev_degree, evaluate_chebyshev,
};
pub use functions::{exp, inverse, sigmoid, SIGMOID_TAYLOR_7};
pub use logistic::train_logistic;
pub use polynomial::{evaluate_polynomial, powers, MAX_POLYNOMIAL_DEGREE};
pub use statistics::{mean, sum_slots, variance};
