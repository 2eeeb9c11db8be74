//! A CKKS context with its keys, shared by the CKKS test files (`#[path = "support/ckks.rs"] mod
//! ckks_support;`): parameters N = 2^log_n, L levels of 40-bit primes at a security setting, keys from a
//! seed, Galois keys for the steps given.
#![allow(dead_code, clippy::unwrap_used)] // each test file uses what it needs; set-up aborts loudly

use std::sync::Arc;

use rnsfhe::circuits::bootstrapping::{
    Bootstrapper, BootstrappingKeys, BootstrappingOrder, BootstrappingParameters,
};
use rnsfhe::ckks::{CkksCiphertext, CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{GaloisKeys, KeySwitching, PublicKey, RelinKey, SecretKey};
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

/// A deep toy context (insecure, N = 2^12, `levels` levels of 40-bit primes, the scale exact at
/// the middle level so that the scales drift half as far as from the top), keys from `seed`, no
/// Galois keys.
pub fn deep(levels: usize, seed: u8) -> Setup {
    let p = CkksParameters::builder()
        .degree(1 << 12)
        .levels(levels)
        .scale_bits(40)
        .scale_level(levels / 2)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = CkksContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([seed; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &[], false, &mut rng).unwrap();
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

/// A toy context of the homomorphic-DFT tests (insecure): N = 2^11, `levels` levels at
/// 2^`scale_bits`, two 61-bit special primes, digits of 2 primes, keys from a seed.
pub struct Toy {
    pub ctx: Arc<CkksContext>,
    pub sk: SecretKey,
    pub pk: PublicKey,
    pub rng: Csprng,
}

pub fn toy_dft(levels: usize, scale_bits: u32, seed: u8) -> Toy {
    let p = CkksParameters::builder()
        .degree(1 << 11)
        .levels(levels)
        .scale_bits(scale_bits)
        .special_moduli_bits(&[61, 61])
        .key_switching(KeySwitching {
            digit_primes: 2,
            ..KeySwitching::default()
        })
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = CkksContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([seed; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    Toy { ctx, sk, pk, rng }
}

impl Toy {
    /// `z` encrypted and brought to `level` (on the chain's scale there).
    pub fn encrypt(&mut self, z: &[Complex], level: usize) -> CkksCiphertext {
        let ct = self
            .ctx
            .encrypt(&self.ctx.encode(z).unwrap(), &self.pk, &mut self.rng)
            .unwrap();
        self.ctx.drop_to_level(&ct, level).unwrap()
    }
}

/// The toy bootstrap (insecure, N = 2^11, real slots) in `order` with `residual` levels between
/// bootstraps, its keys from `seed`.
pub struct ToyBoot {
    pub ctx: Arc<CkksContext>,
    pub boot: Bootstrapper,
    pub sk: SecretKey,
    pub pk: PublicKey,
    pub keys: BootstrappingKeys,
    pub rng: Csprng,
}

pub fn toy_boot(order: BootstrappingOrder, residual: usize, seed: u8) -> ToyBoot {
    let mut params = BootstrappingParameters::toy(11);
    if order == BootstrappingOrder::SlotsToCoeffsFirst {
        params = params.slots_to_coeffs_first();
    }
    params.real_only = true;
    params.residual_levels = residual;
    let ctx = CkksContext::new(params.ckks_parameters().unwrap()).unwrap();
    let boot = Bootstrapper::new(&ctx, params).unwrap();
    let mut rng = Csprng::from_seed([seed; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let keys = boot.generate_keys(&sk, &mut rng, None).unwrap();
    ToyBoot {
        ctx,
        boot,
        sk,
        pk,
        keys,
        rng,
    }
}
