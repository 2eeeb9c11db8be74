//! Exact big-integer reference arithmetic (O(n^2), for tests, checks and demos; never a hot path).

use num_bigint::{BigInt, BigUint};
use num_traits::Zero;

/// The schoolbook product a * b mod (X^n + 1, Q) of two coefficient vectors of equal length n with
/// entries in [0, Q); returns entries in [0, Q).
pub fn negacyclic_product(a: &[BigUint], b: &[BigUint], q: &BigUint) -> Vec<BigUint> {
    let n = a.len();
    let mut acc = vec![BigInt::zero(); n];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate().take(n) {
            let p = BigInt::from(x * y);
            if i + j < n {
                acc[i + j] += p;
            } else {
                acc[i + j - n] -= p;
            }
        }
    }
    let q = BigInt::from(q.clone());
    acc.into_iter()
        .filter_map(|c| (((c % &q) + &q) % &q).to_biguint())
        .collect()
}
