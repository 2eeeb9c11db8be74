//! Seeded key storage (`KeyStorage::Seeded`: a key's k1 kept as its seeds and expanded limb by limb
//! in the gadget product) against the expanded keys: the same ciphertexts bit for bit for single,
//! hoisted and double-hoisted rotations and for relinearisation (CKKS and BFV; 1- and 2-prime
//! digits, omega digits, truncated key columns, keys at lower levels), the same bootstraps at
//! N = 2^11, half the key memory, a lossless round trip, and the refusals (keys without seeds,
//! Montgomery rings). Run it under every `RNSFHE_BACKEND`.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::circuits::bootstrapping::{
    Bootstrapper, BootstrappingKeys, BootstrappingOrder, BootstrappingParameters,
};
use rnsfhe::ckks::{CkksContext, CkksParameters, CkksWeights, Complex};
use rnsfhe::encoding::IntegerWeights;
use rnsfhe::params::Security;
use rnsfhe::rlwe::{GaloisKeys, KeyStorage, KeySwitchKey, KeySwitching, RelinKey};
use rnsfhe::Error;
use rnsfhe_math::ring::Poly;
use rnsfhe_math::sample::Csprng;

const STEPS: [i64; 5] = [1, 2, 5, -3, 17];

fn same(a: &[Poly], b: &[Poly], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (x, y) in a.iter().zip(b) {
        assert!(x.residues() == y.residues(), "{what}: parts differ");
    }
}

fn layout(digit_primes: usize) -> KeySwitching {
    KeySwitching {
        digit_primes,
        ..KeySwitching::default()
    }
}

fn ckks(levels: usize, special: &[u32], ks: KeySwitching) -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(1 << 10)
        .levels(levels)
        .scale_bits(40)
        .special_moduli_bits(special)
        .key_switching(ks)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

fn seeded_galois(ctx: &CkksContext, gk: &GaloisKeys) -> GaloisKeys {
    gk.clone()
        .with_storage(ctx.key_switcher(), KeyStorage::Seeded)
        .unwrap()
}

#[test]
fn ckks_rotations_and_relinearisation_are_bit_identical() {
    for (ctx, what) in [
        (ckks(3, &[50], layout(1)), "1-prime digits"),
        (ckks(4, &[50, 50], layout(2)), "2-prime digits"),
        (
            ckks(
                2,
                &[],
                KeySwitching {
                    omega_bits: Some(5),
                    ..KeySwitching::default()
                },
            ),
            "omega digits",
        ),
    ] {
        let mut rng = Csprng::from_seed([3; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let gk = ctx.galois_keys(&sk, &STEPS, true, &mut rng).unwrap();
        let sgk = seeded_galois(&ctx, &gk);
        assert!(
            2 * sgk.resident_bytes() < gk.resident_bytes() + 64 * 1024,
            "{what}"
        );
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let srlk = rlk
            .clone()
            .with_storage(ctx.key_switcher(), KeyStorage::Seeded)
            .unwrap();
        assert_eq!(srlk.key().storage(), KeyStorage::Seeded);
        let z: Vec<Complex> = (0..512)
            .map(|i| Complex::new((i % 7) as f64 / 7.0, -((i % 5) as f64) / 5.0))
            .collect();
        let top = ctx
            .encrypt(&ctx.encode(&z).unwrap(), &pk, &mut rng)
            .unwrap();
        let low = ctx.drop_to_level(&top, 1).unwrap();
        for ct in [&top, &low] {
            let w = format!("{what}, level {}", ct.level());
            for step in STEPS {
                let (a, b) = (
                    ctx.rotate(ct, step, &gk).unwrap(),
                    ctx.rotate(ct, step, &sgk).unwrap(),
                );
                same(a.parts(), b.parts(), &format!("{w}: rotate {step}"));
            }
            let (a, b) = (
                ctx.conjugate(ct, &gk).unwrap(),
                ctx.conjugate(ct, &sgk).unwrap(),
            );
            same(a.parts(), b.parts(), &format!("{w}: conjugate"));
            let (a, b) = (
                ctx.rotate_many(ct, &STEPS, &gk).unwrap(),
                ctx.rotate_many(ct, &STEPS, &sgk).unwrap(),
            );
            for (x, y) in a.iter().zip(&b) {
                same(x.parts(), y.parts(), &format!("{w}: rotate_many"));
            }
            let reals = [0.5, -1.25, 2.0, 0.0, 0.75];
            for weights in [None, Some(CkksWeights::Real(&reals))] {
                let (a, b) = (
                    ctx.sum_rotations(ct, &STEPS, weights, &gk).unwrap(),
                    ctx.sum_rotations(ct, &STEPS, weights, &sgk).unwrap(),
                );
                same(a.parts(), b.parts(), &format!("{w}: sum_rotations"));
            }
            let (a, b) = (
                ctx.multiply(ct, ct, &rlk).unwrap(),
                ctx.multiply(ct, ct, &srlk).unwrap(),
            );
            same(a.parts(), b.parts(), &format!("{w}: relinearisation"));
        }
    }
}

fn bfv(ks: KeySwitching, special: &[u32]) -> Arc<BfvContext> {
    let p = BfvParameters::builder()
        .degree(1024)
        .plain_modulus(65537)
        .moduli_bits(&[50, 50, 50])
        .special_moduli_bits(special)
        .key_switching(ks)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BfvContext::new(p).unwrap()
}

/// Truncated key columns (components stored without their zero limbs, k1 = q_I a) and omega digits.
#[test]
fn bfv_truncated_and_omega_keys_are_bit_identical() {
    for (ks, what) in [
        (
            KeySwitching {
                truncation: 1,
                ..KeySwitching::default()
            },
            "truncated key columns",
        ),
        (
            KeySwitching {
                omega_bits: Some(20),
                ..KeySwitching::default()
            },
            "omega digits",
        ),
    ] {
        let ctx = bfv(ks, &[]);
        let mut rng = Csprng::from_seed([5; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let gk = ctx.galois_keys(&sk, &STEPS, false, &mut rng).unwrap();
        let sgk = gk
            .clone()
            .with_storage(ctx.key_switcher(), KeyStorage::Seeded)
            .unwrap();
        let m: Vec<u64> = (0..1024u64).map(|i| (i * 7919) % 65537).collect();
        let ct = ctx
            .encrypt(&ctx.encode(&m).unwrap(), &pk, &mut rng)
            .unwrap();
        for step in STEPS {
            let (a, b) = (
                ctx.rotate_rows(&ct, step, &gk).unwrap(),
                ctx.rotate_rows(&ct, step, &sgk).unwrap(),
            );
            same(a.parts(), b.parts(), &format!("{what}: rotate {step}"));
        }
        let scalars = [3i64, -2, 1, 65536, 0];
        let w = || Some(IntegerWeights::Scalars(&scalars));
        let (a, b) = (
            ctx.sum_rotations(&ct, &STEPS, w(), &gk).unwrap(),
            ctx.sum_rotations(&ct, &STEPS, w(), &sgk).unwrap(),
        );
        same(a.parts(), b.parts(), &format!("{what}: sum_rotations"));
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let srlk = rlk
            .clone()
            .with_storage(ctx.relin_switcher(), KeyStorage::Seeded)
            .unwrap();
        let (a, b) = (
            ctx.multiply(&ct, &ct, &rlk).unwrap(),
            ctx.multiply(&ct, &ct, &srlk).unwrap(),
        );
        same(a.parts(), b.parts(), &format!("{what}: relinearisation"));
        round_trip(ctx.relin_switcher(), rlk.key(), what);
    }
}

/// Seeded and back gives the key's components bit for bit, at its level and lowered (where the
/// layout has lower keys: not with truncated columns).
fn round_trip(sw: &rnsfhe::rlwe::KeySwitcher, key: &KeySwitchKey, what: &str) {
    let seeded = key.clone().with_storage(sw, KeyStorage::Seeded).unwrap();
    assert!(seeded.parts().is_empty(), "{what}");
    assert_eq!(seeded.k0().len(), key.components(), "{what}");
    for level in [key.level(), 0] {
        let Ok(want) = key.at_level(sw, level) else {
            assert!(seeded.at_level(sw, level).is_err(), "{what}");
            continue;
        };
        let got = seeded
            .at_level(sw, level)
            .unwrap()
            .with_storage(sw, KeyStorage::Expanded)
            .unwrap();
        assert_eq!(got.components(), want.components(), "{what}");
        for ((a0, a1), (b0, b1)) in got.parts().iter().zip(want.parts()) {
            assert!(
                a0.residues() == b0.residues(),
                "{what}: k0 at level {level}"
            );
            assert!(
                a1.residues() == b1.residues(),
                "{what}: k1 at level {level}"
            );
        }
    }
}

#[test]
fn galois_round_trip_and_refusals() {
    let ctx = ckks(3, &[50], layout(1));
    let sw = ctx.key_switcher();
    let mut rng = Csprng::from_seed([9; 32]);
    let (sk, _) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &STEPS, true, &mut rng).unwrap();
    let mut set = rnsfhe::rlwe::EvaluationKeySet::new();
    set.set_galois_keys(Arc::new(gk.clone())).unwrap();
    for g in gk.elements() {
        round_trip(sw, set.galois_key(g).unwrap(), &format!("Galois key {g}"));
    }
    let rlk: RelinKey = ctx.relin_key(&sk, &mut rng).unwrap();
    round_trip(sw, rlk.key(), "CKKS relinearisation key");
    // A key whose k1 is held in full (no seeds) cannot be seeded.
    let pairs = rlk
        .key()
        .parts()
        .into_iter()
        .map(|(a, b)| (a.clone(), b.clone()))
        .collect();
    let full = KeySwitchKey::from_pairs_at(sw, pairs, rlk.key().level()).unwrap();
    assert!(matches!(
        full.with_storage(sw, KeyStorage::Seeded),
        Err(Error::InvalidParameters(_))
    ));
}

/// Bootstrapping keys generated seeded, loaded seeded or converted after loading bootstrap to the same
/// ciphertext as the expanded ones, in both orders.
#[test]
fn bootstraps_are_bit_identical() {
    for order in [
        BootstrappingOrder::CoeffsToSlotsFirst,
        BootstrappingOrder::SlotsToCoeffsFirst,
    ] {
        let mut p = BootstrappingParameters::toy(11);
        if order == BootstrappingOrder::SlotsToCoeffsFirst {
            p = p.slots_to_coeffs_first();
        }
        p.slots = 1024;
        let ctx = CkksContext::new(p.ckks_parameters().unwrap()).unwrap();
        let boot = Bootstrapper::new(&ctx, p.clone()).unwrap();
        let mut seeded_params = p.clone();
        seeded_params.key_storage = KeyStorage::Seeded;
        let seeded_boot = Bootstrapper::new(&ctx, seeded_params).unwrap();
        let mut rng = Csprng::from_seed([11; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let keys = boot
            .generate_keys(&sk, &mut Csprng::from_seed([12; 32]), None)
            .unwrap();
        let seeded = seeded_boot
            .generate_keys(&sk, &mut Csprng::from_seed([12; 32]), None)
            .unwrap();
        assert!(seeded.resident_bytes() < keys.resident_bytes() * 3 / 5);
        assert_eq!(
            seeded.to_bytes(&ctx),
            keys.to_bytes(&ctx),
            "{order:?}: bytes"
        );
        let bytes = keys.to_bytes(&ctx);
        let loaded = BootstrappingKeys::from_bytes_with(&ctx, &bytes, KeyStorage::Seeded).unwrap();
        assert_eq!(loaded.resident_bytes(), seeded.resident_bytes());
        let converted = BootstrappingKeys::from_bytes(&ctx, &bytes)
            .unwrap()
            .with_storage(&ctx, KeyStorage::Seeded)
            .unwrap();
        let z: Vec<Complex> = (0..1024)
            .map(|i| Complex::new((i % 9) as f64 / 9.0 - 0.5, (i % 4) as f64 / 8.0))
            .collect();
        let level = boot.input_level();
        let pt = ctx
            .encode_at(&z, level, ctx.scale_at(level).unwrap())
            .unwrap();
        let ct = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
        let want = ctx.bootstrap(&ct, &boot, &keys).unwrap();
        for (k, what) in [
            (&seeded, "generated seeded"),
            (&loaded, "loaded seeded"),
            (&converted, "loaded, then seeded"),
        ] {
            let got = ctx.bootstrap(&ct, &boot, k).unwrap();
            same(want.parts(), got.parts(), &format!("{order:?}: {what}"));
        }
    }
}
