//! Polynomial rings Z_Q[X]/(Phi_m(X)) in RNS form: [`RingContext`] holds the precomputation (basis, NTT
//! tables), [`Poly`] the residues. Power-of-two cyclotomics (Phi_2n = X^n + 1) are supported now; the
//! context records the cyclotomic index m so that general Phi_m (paper 001) fits the same types.

mod automorphism;
mod context;
pub mod cyclotomic;
mod poly;
pub mod reference;

pub use context::{RingContext, RingKind};
pub use poly::{Poly, Representation};
