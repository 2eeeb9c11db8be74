//! ModRaise (`circuits::bootstrapping::mod_raise`) against exact big-integer arithmetic, and the
//! law of I(X) (`ModRaiseBound`) against measurements: at N = 2^11 and 2^12 (insecure toy
//! parameters), secrets of Hamming weight 32, 64, 192 and dense ternary, many raised ciphertexts.
//!
//! - exactness: the raised ciphertext's c_0 + c_1 s over Q_L, centred, is v = m' + q_0 I with m' the
//!   level-0 decryption (centred) and I integral;
//! - the law: the variance of the measured I_j is (h + 1)/12 within 5%; the frequency of
//!   |I_j| >= k lies between the model's tail for h and for h + 1 terms (module doc of `modraise`),
//!   within 4 standard deviations of the count; the largest |I_j| stays below the K that the
//!   Chernoff bound gives for a 2^-20 failure probability over all the measured coefficients;
//! - refusals.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/phase.rs"]
mod phase;
#[path = "support/slots.rs"]
mod slots;

use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use phase::phase;
use rnsfhe::circuits::bootstrapping::{mod_raise, ModRaiseBound};
use rnsfhe::ckks::{CkksContext, CkksParameters};
use rnsfhe::params::Security;
use rnsfhe::rlwe::SecretDistribution;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

/// The measured I_j of `count` raised ciphertexts (checking v = m' + q_0 I exactly on the way) and
/// the secret's Hamming weight.
fn measure(log_n: u32, secret: SecretDistribution, count: usize, seed: u8) -> (Vec<i64>, usize) {
    let p = CkksParameters::builder()
        .degree(1 << log_n)
        .levels(2)
        .scale_bits(40)
        .secret(secret)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = CkksContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([seed; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let h = sk
        .coefficients()
        .unwrap()
        .iter()
        .filter(|&&c| c != 0)
        .count();
    let q0 = BigInt::from(ctx.params().moduli()[0]);
    let mut out = Vec::new();
    for i in 0..count {
        let z = slots::values(ctx.slots(), i as u64 + 1);
        let ct = ctx
            .encrypt(&ctx.encode(&z).unwrap(), &pk, &mut rng)
            .unwrap();
        let low = ctx.drop_to_level(&ct, 0).unwrap();
        let raised = mod_raise(&ctx, &low, ctx.max_level()).unwrap();
        assert_eq!(raised.level(), ctx.max_level());
        assert_eq!(raised.scale(), ctx.scale_at(ctx.max_level()).unwrap());
        let m = phase(&ctx, &low, &sk);
        for (v, m) in phase(&ctx, &raised, &sk).iter().zip(&m) {
            let d = v - m;
            assert!((&d % &q0).is_zero(), "v - m' is not a multiple of q_0");
            out.push((d / &q0).to_i64().unwrap());
        }
    }
    (out, h)
}

/// The checks of the module doc on the measured I_j.
fn check_law(samples: &[i64], h: usize, what: &str) {
    let m = samples.len() as f64;
    let mean = samples.iter().map(|&x| x as f64).sum::<f64>() / m;
    let var = samples
        .iter()
        .map(|&x| (x as f64 - mean).powi(2))
        .sum::<f64>()
        / m;
    let model = ModRaiseBound::new(1, h);
    assert!(
        mean.abs() < 0.05 * model.variance().sqrt(),
        "{what}: mean {mean}"
    );
    let rel = var / model.variance() - 1.0;
    assert!(
        rel.abs() < 0.05,
        "{what}: variance {var} against (h+1)/12 = {}",
        model.variance()
    );
    // Tails at 2 and 3 standard deviations: between the h-term and (h+1)-term models.
    let sigma = model.variance().sqrt();
    let fewer = ModRaiseBound::new(1, h - 1);
    for f in [2.0, 3.0] {
        let k = (f * sigma).round().max(1.0);
        let count = samples
            .iter()
            .filter(|&&x| x.unsigned_abs() as f64 >= k)
            .count() as f64;
        let p_hi = 2f64.powf(model.log2_estimate(k));
        let p_lo = 2f64.powf(fewer.log2_estimate(k));
        let (lo, hi) = (m * p_lo, m * p_hi);
        assert!(
            count >= lo - 4.0 * lo.sqrt() && count <= hi + 4.0 * hi.sqrt(),
            "{what}: {count} of {m} with |I| >= {k}, model {lo:.1}..{hi:.1}"
        );
    }
    let k = ModRaiseBound::new(samples.len(), h).smallest_k(-20.0);
    let max = samples.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0);
    assert!(
        max < u64::from(k),
        "{what}: |I| reached {max}, K = {k} for 2^-20"
    );
}

#[test]
fn sparse_secrets_n2048() {
    for (h, seed) in [(32usize, 1u8), (192, 2)] {
        let (s, weight) = measure(11, SecretDistribution::HammingWeight(h), 24, seed);
        assert_eq!(weight, h);
        check_law(&s, h, &format!("N 2^11, h {h}"));
    }
}

#[test]
fn dense_secret_n2048() {
    let (s, h) = measure(11, SecretDistribution::Ternary, 24, 3);
    check_law(&s, h, &format!("N 2^11, dense (h {h})"));
}

#[test]
fn sparse_secret_n4096() {
    let (s, h) = measure(12, SecretDistribution::HammingWeight(64), 12, 4);
    check_law(&s, h, "N 2^12, h 64");
}

#[test]
fn refusals() {
    let p = CkksParameters::builder()
        .degree(1 << 10)
        .levels(2)
        .scale_bits(40)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = CkksContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([9; 32]);
    let (_, pk) = ctx.keygen(&mut rng).unwrap();
    let ct = ctx
        .encrypt(&ctx.encode_real(&[0.5]).unwrap(), &pk, &mut rng)
        .unwrap();
    assert!(matches!(
        mod_raise(&ctx, &ct, 2),
        Err(Error::LevelMismatch {
            left: 2,
            right: 0,
            ..
        })
    ));
    let low = ctx.drop_to_level(&ct, 0).unwrap();
    let lvl1 = ctx.drop_to_level(&ct, 1).unwrap();
    let three = ctx.multiply_no_relin(&lvl1, &lvl1).unwrap();
    let three = ctx.drop_to_level_keeping_scale(&three, 0).unwrap();
    assert!(matches!(
        mod_raise(&ctx, &three, 2),
        Err(Error::InvalidCiphertext(_))
    ));
    assert!(mod_raise(&ctx, &low, 3).is_err());
}
