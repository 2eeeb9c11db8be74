//! Arithmetic in Z_Q[X]/(Phi_m) for any m (paper 001): products by cyclic NTTs of size N = N2(2n), then
//! one of three reductions modulo Phi_m, all giving the same canonical remainder.

mod context;
mod fpoly;
mod phi;
mod reduce;
mod slots;

pub use context::{CyclotomicPoly, CyclotomicRing, Form, Reduction};
pub use phi::{best_sparse_multiple, cyclotomic_polynomial, euler_phi, SparseMultiple};
pub use slots::{multiplicative_order, SlotAlgebra};
