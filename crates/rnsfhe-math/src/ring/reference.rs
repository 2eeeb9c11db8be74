//! Exact big-integer reference arithmetic (O(n^2), for tests, checks and demos; never a hot path): modulo
//! X^n + 1 and modulo any Phi_m.

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

/// a mod (Phi_m, Q) for integer coefficients of any length: long division by the monic Phi_m (constant
/// first) over Z, then each coefficient in [0, Q); n = deg Phi_m entries.
pub fn reduce_mod_phi(c: &[BigInt], phi: &[i64], q: &BigUint) -> Vec<BigUint> {
    let n = phi.len() - 1;
    let mut c = c.to_vec();
    c.resize(c.len().max(n), BigInt::zero());
    for i in (n..c.len()).rev() {
        let t = std::mem::take(&mut c[i]);
        for (j, &p) in phi.iter().enumerate().take(n) {
            c[i - n + j] -= &t * p;
        }
    }
    let q = BigInt::from(q.clone());
    c.truncate(n);
    c.into_iter()
        .filter_map(|x| (((x % &q) + &q) % &q).to_biguint())
        .collect()
}

/// The schoolbook product a * b mod (Phi_m, Q) of two coefficient vectors (entries in [0, Q)).
pub fn cyclotomic_product(a: &[BigUint], b: &[BigUint], phi: &[i64], q: &BigUint) -> Vec<BigUint> {
    let mut c = vec![BigInt::zero(); (a.len() + b.len()).saturating_sub(1)];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            c[i + j] += BigInt::from(x * y);
        }
    }
    reduce_mod_phi(&c, phi, q)
}

/// a(X^g) mod (Phi_m, Q): X^i -> X^(ig mod m), then the division by Phi_m.
pub fn cyclotomic_automorphism(
    a: &[BigUint],
    g: usize,
    m: usize,
    phi: &[i64],
    q: &BigUint,
) -> Vec<BigUint> {
    let mut c = vec![BigInt::zero(); m];
    for (i, x) in a.iter().enumerate() {
        c[i * g % m] += BigInt::from(x.clone());
    }
    reduce_mod_phi(&c, phi, q)
}
