//! BFV's default moduli are the security bound's log2 q in the fewest primes of <= 60 bits
//! plus one special prime (`params::default_bfv_moduli_bits`), and they keep the measured depth of
//! SEAL's default layout.
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers abort loudly

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption};
use rnsfhe::params::{max_log_q, SecurityLevel};
use rnsfhe_math::sample::Csprng;

fn widths(moduli: &[u64]) -> Vec<u32> {
    moduli.iter().map(|q| 64 - q.leading_zeros()).collect()
}

#[test]
fn default_moduli_are_the_fewest_primes_of_at_most_60_bits_within_the_bound() {
    for log_n in 11..=16 {
        let n = 1usize << log_n;
        let p = BfvParameters::builder().degree(n).build().unwrap();
        let q = widths(p.moduli());
        let sp = widths(p.special_moduli());
        let bound = max_log_q(n, SecurityLevel::Bits128).unwrap() as f64;
        let log_p: f64 = p.special_moduli().iter().map(|&x| (x as f64).log2()).sum();
        assert!(
            p.log_q() + log_p <= bound,
            "n = {n}: log QP above the bound"
        );
        assert_eq!(sp.len(), 1, "n = {n}: one special prime");
        // log q is the bound less one special prime of <= 49 bits (the previous layout's log q).
        assert!(p.log_q() + 50.0 > bound, "n = {n}: log q {}", p.log_q());
        assert!(q.iter().all(|&w| w <= 60), "n = {n}: {q:?}");
        let log_q_bits: u32 = q.iter().sum();
        assert!(
            q.len() as u32 <= log_q_bits.div_ceil(60),
            "n = {n}: {q:?} is not the fewest"
        );
        assert_eq!(p.key_switching().digit_primes, 1);
    }
    let p = BfvParameters::preset(8192, 65537).unwrap();
    assert_eq!(
        (widths(p.moduli()), widths(p.special_moduli())),
        (vec![59, 58, 58], vec![43])
    );
    let p = BfvParameters::preset(16384, 65537).unwrap();
    assert_eq!(
        (widths(p.moduli()), widths(p.special_moduli())),
        (vec![56, 56, 56, 56, 56, 55, 55], vec![48])
    );
}

/// Squarings (with relinearisation) an encryption of 0, 1, 2, ... survives under HPS decryption.
fn squaring_depth(p: BfvParameters, seed: u8) -> usize {
    let ctx = BfvContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([seed; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let values: Vec<u64> = (0..ctx.params().batching_slots() as u64).collect();
    let t = u128::from(ctx.params().plain_modulus());
    // Slot-wise squares mod t in u128, compared with each square's decrypted, decoded slots.
    let mut ct = ctx
        .encrypt(&ctx.encode(&values).unwrap(), &pk, &mut rng)
        .unwrap();
    let mut want = values;
    let mut depth = 0;
    for _ in 0..8 {
        ct = ctx.square(&ct, &rlk).unwrap();
        want = want
            .iter()
            .map(|&v| (u128::from(v) * u128::from(v) % t) as u64)
            .collect();
        let got = ctx
            .decode(&ctx.decrypt_with(&ct, &sk, Decryption::Hps).unwrap())
            .unwrap();
        if got != want {
            break;
        }
        depth += 1;
    }
    depth
}

#[test]
fn default_depth_at_n_8192_is_at_least_that_of_seals_default_moduli() {
    // SEAL 4.4's BFVDefault(8192): 43 + 43 + 44 + 44 bits, special prime of 44 bits.
    let seal = BfvParameters::builder()
        .degree(8192)
        .moduli_bits(&[43, 43, 44, 44])
        .special_moduli_bits(&[44])
        .build()
        .unwrap();
    let default = BfvParameters::preset(8192, 65537).unwrap();
    for seed in [1, 2] {
        let (ours, theirs) = (
            squaring_depth(default.clone(), seed),
            squaring_depth(seal.clone(), seed),
        );
        assert!(
            ours >= theirs,
            "seed {seed}: depth {ours} < SEAL layout's {theirs}"
        );
        assert!(ours >= 4, "seed {seed}: depth {ours}");
    }
}

/// The narrow layout (every prime below 2^50, for AVX-512 IFMA CPUs) reaches at least the
/// default's squaring depth at 2^13 (more, narrower digits).
#[test]
fn narrow_layout_depth_is_at_least_the_defaults() {
    let narrow = BfvParameters::builder()
        .degree(8192)
        .layout(rnsfhe::params::ModuliLayout::Narrow)
        .build()
        .unwrap();
    let wide = BfvParameters::preset(8192, 65537).unwrap();
    let (dn, dw) = (squaring_depth(narrow, 3), squaring_depth(wide, 3));
    assert!(dn >= dw && dw >= 4, "narrow {dn}, default {dw}");
}
