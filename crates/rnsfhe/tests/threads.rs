//! Threads across RNS limbs: every operation gives the same bits for any thread
//! count. One test function, since the thread count is process-wide.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::bfv::{BfvContext, BfvParameters, Multiplication};
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::rlwe::KeySwitching;
use rnsfhe_math::sample::Csprng;

/// The bytes of a BFV product, rotation and sum (HPS with one-prime and two-prime digits, BEHZ) and
/// their decryptions, of a CKKS product, rescale, rotation and hoisted rotations, and of a BGV product, modulus switch
/// and automorphism over Phi_255, all from fixed seeds.
fn run() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (hybrid, mul) in [
        (None, Multiplication::Hps),
        (Some(2), Multiplication::Hps),
        (None, Multiplication::Behz),
    ] {
        let mut b = BfvParameters::builder()
            .multiplication(mul)
            .degree(1 << 11)
            .plain_modulus(12289)
            .moduli_bits(&[50, 50, 50, 50])
            .special_moduli_bits(&[50, 50])
            .security(Security::InsecureResearchOnly);
        if let Some(d) = hybrid {
            b = b.key_switching(KeySwitching {
                digit_primes: d,
                ..KeySwitching::default()
            });
        }
        let ctx = BfvContext::new(b.build().unwrap()).unwrap();
        let mut rng = Csprng::from_seed([9; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let gk = ctx.galois_keys_for_sum(&sk, &mut rng).unwrap();
        let vals: Vec<u64> = (0..2048).map(|i| i * 7 % 12289).collect();
        let x = ctx
            .encrypt(&ctx.encode(&vals).unwrap(), &pk, &mut rng)
            .unwrap();
        let y = ctx.multiply(&x, &x, &rlk).unwrap();
        let z = ctx
            .sum_slots(&ctx.rotate_rows(&y, 2, &gk).unwrap(), &gk)
            .unwrap();
        let w = ctx.multiply(&y, &x, &rlk).unwrap(); // two different operands
        for c in [&y, &z, &w] {
            out.push(ctx.ciphertext_to_bytes(c).unwrap());
            let dec = ctx.decode(&ctx.decrypt(c, &sk).unwrap()).unwrap();
            out.push(dec.iter().flat_map(|v| v.to_le_bytes()).collect());
        }
    }
    let p = CkksParameters::builder()
        .degree(1 << 11)
        .levels(3)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = CkksContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([10; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &[1, 5], false, &mut rng).unwrap();
    let vals: Vec<Complex> = (0..64)
        .map(|i| Complex::new(i as f64 / 64.0, 0.0))
        .collect();
    let x = ctx
        .encrypt(&ctx.encode(&vals).unwrap(), &pk, &mut rng)
        .unwrap();
    let y = ctx.multiply_rescale(&x, &x, &rlk).unwrap();
    let z = ctx.rotate(&y, 5, &gk).unwrap();
    // Hoisted rotations: the same bits as one rotation at a time, for any thread count.
    let many = ctx.rotate_many(&y, &[1, 5], &gk).unwrap();
    assert_eq!(
        ctx.ciphertext_to_bytes(&many[1]).unwrap(),
        ctx.ciphertext_to_bytes(&z).unwrap()
    );
    out.push(ctx.ciphertext_to_bytes(&many[0]).unwrap());
    for c in [&y, &z] {
        out.push(ctx.ciphertext_to_bytes(c).unwrap());
        // Decoding checks the lifted coefficients against every prime in chunks on the threads.
        let values = ctx.decrypt_values(c, &sk).unwrap();
        out.push(values.iter().flat_map(|v| v.re.to_le_bytes()).collect());
    }
    // General m (Bajard et al. (SAC 2017)): BGV over Phi_255, key switching limb by limb in NTT_N.
    let p = BgvParameters::builder()
        .cyclotomic_index(255)
        .plain_modulus(2)
        .moduli_bits(&[40, 40, 40])
        .special_moduli_bits(&[55])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BgvContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([11; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let gk = ctx.galois_keys_for_elements(&sk, &[7], &mut rng).unwrap();
    let vals: Vec<u64> = (0..128).map(|i| (i * 5 % 7) & 1).collect();
    let pt = ctx.plaintext_from_coefficients(&vals).unwrap();
    let x = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let y = ctx
        .mod_switch(&ctx.multiply(&x, &x, &rlk).unwrap())
        .unwrap();
    let z = ctx.apply_galois(&y, 7, &gk).unwrap();
    for c in [&y, &z] {
        out.push(ctx.ciphertext_to_bytes(c).unwrap());
    }
    out
}

#[test]
fn results_are_identical_for_any_thread_count() {
    rnsfhe::set_num_threads(1).unwrap();
    assert_eq!(rnsfhe::num_threads(), 1);
    let one = run();
    // Every fan-out split (threshold 0: these small rings would otherwise stay on one thread), then
    // the default threshold.
    for (t, min_words) in [
        (2, 0),
        (3, 0),
        (2, rnsfhe_math::parallel::DEFAULT_MIN_PARALLEL_WORDS),
    ] {
        rnsfhe::set_num_threads(t).unwrap();
        rnsfhe_math::parallel::set_min_parallel_words(min_words);
        assert_eq!(rnsfhe::num_threads(), t);
        assert!(run() == one, "{t} threads gave other bits than one thread");
    }
    rnsfhe_math::parallel::set_min_parallel_words(0);
    rnsfhe::set_num_threads(0).unwrap();
    assert!(rnsfhe::num_threads() >= 1);
    assert!(run() == one);
    assert!(rnsfhe::set_num_threads(100_000).is_err());
    rnsfhe::set_num_threads(1).unwrap();
}
