//! Minimax approximation (placeholder doc).

mod chebyshev;
mod real;
pub mod remez;

pub use chebyshev::{clenshaw, Parity};
pub use real::Real;
pub use remez::{remez, Minimax, MinimaxProblem, RemezOptions, MAX_REMEZ_DEGREE};

#[cfg(test)]
mod remez_tests;
