//! A CKKS context with its keys, shared by the CKKS test files (`#[path = "support/ckks.rs"] mod
//! ckks_support;`): parameters N = 2^log_n, L levels of 40-bit primes at a security setting, keys from a
//! seed, Galois keys for the steps given.
#![allow(dead_code, clippy::unwrap_used)] // each test file uses what it needs; set-up aborts loudly

use std::sync::Arc;

use rnsfhe::ckks::{CkksContext, CkksParameters};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{GaloisKeys, PublicKey, RelinKey, SecretKey};
use rnsfhe_math::sample::Csprng;

pub struct Setup {
    pub ctx: Arc<CkksContext>,
    pub sk: SecretKey,
    pub pk: PublicKey,
    pub rlk: RelinKey,
    pub gk: GaloisKeys,
    pub rng: Csprng,
}

pub fn setup(log_n: u32, levels: usize, security: Security, seed: u8, steps: &[i64]) -> Setup {
    let p = CkksParameters::builder()
        .degree(1 << log_n)
        .levels(levels)
        .scale_bits(40)
        .security(security)
        .build()
        .unwrap();
    let ctx = CkksContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([seed; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, steps, false, &mut rng).unwrap();
    Setup {
        ctx,
        sk,
        pk,
        rlk,
        gk,
        rng,
    }
}

/// The chain's scales of a uniform chain (R = L), recomputed from the primes independently of the
/// library: Delta_L = 2^scale_bits, Delta_{l-1} = Delta_l^2 / q_l (OpenFHE's FLEXIBLEAUTO).
pub fn top_down_scales(p: &CkksParameters) -> Vec<f64> {
    let q = p.moduli();
    let mut s = vec![p.scale(); q.len()];
    for l in (1..q.len()).rev() {
        s[l - 1] = s[l] * s[l] / q[l] as f64;
    }
    s
}
