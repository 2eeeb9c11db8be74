//! The exact plaintext of a CKKS ciphertext, c_0 + c_1 s centred modulo Q_level, for the
//! bootstrapping tests (`#[path = "support/phase.rs"] mod phase;`).
#![allow(dead_code)] // each test file uses what it needs

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use rnsfhe::ckks::{CkksCiphertext, CkksContext};
use rnsfhe::rlwe::SecretKey;

/// c_0 + c_1 s at the ciphertext's level, centred modulo Q_level, as big integers.
pub fn phase(ctx: &CkksContext, ct: &CkksCiphertext, sk: &SecretKey) -> Vec<BigInt> {
    let ring = ctx.ring_at(ct.level()).unwrap();
    let s = sk.ntt_at(ring).unwrap();
    let mut v = ct.parts()[1].mul(&s).unwrap();
    v.add_assign(&ct.parts()[0]).unwrap();
    v.to_coefficient().unwrap();
    let q = BigInt::from(ring.basis().product().clone());
    v.to_biguint()
        .unwrap()
        .into_iter()
        .map(|x| {
            let x = BigInt::from(x);
            if &x * 2 > q {
                x - &q
            } else {
                x
            }
        })
        .collect()
}

/// [`phase`] as f64.
pub fn phase_f64(ctx: &CkksContext, ct: &CkksCiphertext, sk: &SecretKey) -> Vec<f64> {
    phase(ctx, ct, sk)
        .iter()
        .map(|x| x.to_f64().unwrap())
        .collect()
}
