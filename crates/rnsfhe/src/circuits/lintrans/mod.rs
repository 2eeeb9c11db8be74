//! Linear transforms y = M x of the slots, M given by its non-zero diagonals
//! (diag_k\[t] = M[t][(t + k) mod slots], so that y = sum_k diag_k * rot_k(x)), evaluated by
//! baby-step giant-step with hoisting (Halevi and Shoup, "Faster homomorphic linear
//! transformations in HElib", CRYPTO 2018, sections 4-5; Bossuat, Troncoso-Pastoriza and Hubaux,
//! Eurocrypt 2021, Alg. 2; Lattigo's `MultiplyByDiagMatrixBSGS` is the anchor):
//!
//! y = sum_j rot_{j n1}( sum_i rot_{-j n1}(diag_{j n1 + i}) * rot_i(x) ).
//!
//! The baby rotations rot_i(x) share one decomposition of x's c_1 and stay over Q_l u P (lazy, P
//! times their value); the diagonals, rotated by -j n1 and encoded once over Q_l u P when the
//! transform is built, multiply them there, each giant step's sum is one inner product per limb
//! (reduced once), and the giant steps' rotations add up over Q_l u P too: one ModDown per giant step
//! (of the c_1 part, which its key switch decomposes) and one for the result.
//!
//! - [`CkksLinearTransform`]: complex diagonals over the full N/2 slots or fewer (sparse packing);
//!   the result lands on the chain's scale one level down.
//! - [`BfvLinearTransform`], [`BgvLinearTransform`] ([`IntegerLinearTransform`]): BFV and BGV, diagonals of the 2 x n/2 slot matrix over Z_t (each
//!   row transformed by its own half of the diagonals: row rotations act on both rows).
//!
//! Both have `apply` (BSGS, hoisted) and `apply_naive` (one rotation and one plaintext product per
//! diagonal: the reference for tests and benchmarks), and `rotation_steps` for the Galois keys.

mod bsgs;
mod ckks;
mod integer;
mod storage;

use std::collections::BTreeMap;

pub use bsgs::BsgsSplit;
pub use ckks::CkksLinearTransform;
pub use integer::{BfvLinearTransform, BgvLinearTransform, IntegerLinearTransform};
pub use storage::DiagonalStorage;

/// A matrix by its non-zero diagonals: diagonal index k in [0, slots) -> its slot values.
pub type Diagonals<T> = BTreeMap<usize, Vec<T>>;
