//! Arithmetic in Z_Q\[X]/(Phi_m) for any m (Bajard et al. (SAC 2017)), behind [`crate::ring::RingContext::cyclotomic`]
//! and [`crate::ring::Poly`]: products by cyclic NTTs of size N = N2(2n), then one of three reductions
//! modulo Phi_m, all giving the same canonical remainder; and the many-slot plaintext algebra.

mod context;
mod fpoly;
mod gf;
mod hypercube;
mod minv;
mod phi;
mod poly;
mod reduce;
mod slots;

pub(crate) use context::{primes, GeneralTables};
pub use context::{Form, Reduction};
pub use hypercube::Dimension;
pub use minv::{
    montgomery_factor, montgomery_inverse, montgomery_inverse_norm, montgomery_inverse_row_norms,
    x_power_mod_phi,
};
pub use phi::{
    best_sparse_multiple, cyclotomic_polynomial, euler_phi, reduction_expansion, SparseMultiple,
};
pub use slots::{multiplicative_order, SlotAlgebra};
