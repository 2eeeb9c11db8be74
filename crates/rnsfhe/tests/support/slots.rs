//! Slot vectors for the tests of rotations and transforms (`#[path = "support/slots.rs"] mod
//! slots;`): deterministic complex values in [-1, 1] + [-1, 1] i, and the plaintext model of a
//! rotation.
#![allow(dead_code)] // each test file uses what it needs

use rnsfhe::ckks::Complex;

/// n deterministic complex values with parts in [-1, 1).
pub fn values(n: usize, seed: u64) -> Vec<Complex> {
    (0..n as u64)
        .map(|i| {
            let x = ((i * 7919 + seed * 104_729) % 1000) as f64 / 500.0 - 1.0;
            let y = ((i * 6271 + seed * 3) % 1000) as f64 / 500.0 - 1.0;
            Complex::new(x, y)
        })
        .collect()
}

/// v rotated left by `step` within blocks of `len` (CKKS sparse slots repeat; BGV/BFV rows).
pub fn rotl<T: Copy>(v: &[T], step: i64, len: usize) -> Vec<T> {
    let mut out = v.to_vec();
    for (b, block) in out.chunks_mut(len).enumerate() {
        for (i, o) in block.iter_mut().enumerate() {
            *o = v[b * len + (i as i64 + step).rem_euclid(len as i64) as usize];
        }
    }
    out
}
