//! RNS bases and conversions between them. Data layout everywhere: a batch of n integers in a base of k
//! moduli is one slice of length k * n, limb-major (`data[i * n + j]` = integer j modulo q_i, in [0, q_i)).

mod basis;

pub use basis::RnsBasis;
