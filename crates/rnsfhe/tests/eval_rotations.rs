//! `Evaluator::rotate_many` and `Evaluator::sum_rotations` through generic code: the hoisted
//! overrides of CKKS, BGV and BFV against the trait's unhoisted defaults
//! (`eval::rotations::{rotate_many_separately, sum_rotations_separately}`) and against the plaintext
//! model (slots rotated left, weighted sums in f64 / mod t): equal decryptions (CKKS within 1e-6,
//! BGV and BFV exactly), equal levels and scales, the weighted sum one level down on the chain's
//! scale for CKKS and at the input's level for BGV; HPR through the defaults; the refusals.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/slots.rs"]
mod slots;

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::ckks::{CkksCiphertext, CkksContext, CkksParameters, Complex};
use rnsfhe::encoding::BatchEncoder;
use rnsfhe::eval::rotations::{rotate_many_separately, sum_rotations_separately};
use rnsfhe::eval::{same_scale, Evaluator};
use rnsfhe::hpr::{HprContext, HprParameters};
use rnsfhe::params::Security;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

use slots::{rotl, values};

const T: u64 = 65537;
const STEPS: [i64; 6] = [0, 1, 2, 5, -3, 17];
const INT_WEIGHTS: [i64; 6] = [3, -2, 1, 65536, 0, 12345];

/// Through the trait (the scheme's method) and through the defaults: the rotations and the sum, each
/// as (trait, default), with equal levels and scales.
#[allow(clippy::type_complexity)] // the pairs of a test
fn both<E: Evaluator>(
    e: &E,
    ct: &E::Ciphertext,
    weights: Option<&[E::Scalar]>,
    keys: &E::GaloisKeys,
) -> (
    Vec<(E::Ciphertext, E::Ciphertext)>,
    (E::Ciphertext, E::Ciphertext),
) {
    let many = e.rotate_many(ct, &STEPS, keys).unwrap();
    let separate = rotate_many_separately(e, ct, &STEPS, keys).unwrap();
    let sum = e.sum_rotations(ct, &STEPS, weights, keys).unwrap();
    let reference = sum_rotations_separately(e, ct, &STEPS, weights, keys).unwrap();
    let pairs: Vec<_> = many.into_iter().zip(separate).collect();
    for (a, b) in pairs.iter().chain([&(sum.clone(), reference.clone())]) {
        assert_eq!(e.level(a), e.level(b));
        assert!(same_scale(e.scale(a), e.scale(b)));
    }
    for (a, _) in &pairs {
        assert_eq!((e.level(a), e.scale(a)), (e.level(ct), e.scale(ct)));
    }
    (pairs, (sum, reference))
}

fn close(got: &[Complex], want: &[Complex], tol: f64, what: &str) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((*g - *w).abs() <= tol, "{what}: slot {i}: {g:?} vs {w:?}");
    }
}

fn ckks() -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(1 << 10)
        .levels(3)
        .scale_bits(40)
        .special_moduli_bits(&[60])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

fn check_ckks(ctx: &CkksContext, slots: usize, level: usize, seed: u8) {
    let mut rng = Csprng::from_seed([seed; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &STEPS, false, &mut rng).unwrap();
    let z = values(slots, u64::from(seed));
    let top = ctx
        .encrypt(&ctx.encode(&z).unwrap(), &pk, &mut rng)
        .unwrap();
    let ct = ctx.drop_to_level(&top, level).unwrap();
    let dec = |c: &CkksCiphertext| ctx.decrypt_values(c, &sk).unwrap();
    let what = format!("CKKS {slots} slots, level {level}");
    let weights: Vec<Complex> = [0.5, -1.25, 2.0, 0.0, 0.75, -0.125]
        .iter()
        .enumerate()
        .map(|(i, &r)| Complex::new(r, if i % 2 == 0 { 0.0 } else { 0.5 }))
        .collect();
    for w in [None, Some(&weights[..])] {
        let (pairs, (sum, reference)) = both(ctx, &ct, w, &gk);
        for ((a, b), &step) in pairs.iter().zip(&STEPS) {
            let got = dec(a);
            close(&got, &dec(b), 1e-6, &format!("{what}: rotation {step}"));
            close(
                &got,
                &rotl(&z, step, slots),
                1e-5,
                &format!("{what}: model"),
            );
        }
        let mut want = vec![Complex::ZERO; slots];
        for (i, &step) in STEPS.iter().enumerate() {
            let wi = w.map_or(Complex::from_real(1.0), |w| w[i]);
            for (o, r) in want.iter_mut().zip(rotl(&z, step, slots)) {
                *o += wi * r;
            }
        }
        let got = dec(&sum);
        close(&got, &dec(&reference), 1e-6, &format!("{what}: sum"));
        close(&got, &want, 1e-5, &format!("{what}: sum model"));
        let (l, s) = match w {
            None => (level, ct.scale()),
            Some(_) => (level - 1, ctx.scale_at(level - 1).unwrap()),
        };
        assert_eq!((sum.level(), sum.scale()), (l, s), "{what}");
    }
}

#[test]
fn ckks_overrides_match_the_defaults() {
    let ctx = ckks();
    check_ckks(&ctx, 512, 3, 1);
    check_ckks(&ctx, 512, 1, 2);
    check_ckks(&ctx, 64, 2, 3);
}

fn slots_of(n: usize, seed: u64) -> Vec<u64> {
    (0..n as u64).map(|i| (i * 7919 + seed * 31) % T).collect()
}

/// sum_i w_i rot_{steps[i]}(m) mod t on the 2 x n/2 slot matrix.
fn integer_model(m: &[u64], t: u64, weights: Option<&[i64]>) -> Vec<u64> {
    let mut out = vec![0u64; m.len()];
    for (i, &step) in STEPS.iter().enumerate() {
        let w = weights.map_or(1, |w| w[i]).rem_euclid(t as i64) as u64;
        for (o, r) in out.iter_mut().zip(rotl(m, step, m.len() / 2)) {
            *o = (*o + w * r) % t;
        }
    }
    out
}

/// The checks of `check_ckks` for an integer scheme: `dec` decrypts and decodes the slots.
fn check_integer<E: Evaluator<Scalar = i64>>(
    e: &E,
    ct: &E::Ciphertext,
    keys: &E::GaloisKeys,
    m: &[u64],
    t: u64,
    dec: impl Fn(&E::Ciphertext) -> Vec<u64>,
    what: &str,
) {
    for w in [None, Some(&INT_WEIGHTS[..])] {
        let (pairs, (sum, reference)) = both(e, ct, w, keys);
        for ((a, b), &step) in pairs.iter().zip(&STEPS) {
            let got = dec(a);
            assert_eq!(got, dec(b), "{what}: rotation {step}");
            assert_eq!(got, rotl(m, step, m.len() / 2), "{what}: model {step}");
        }
        let got = dec(&sum);
        assert_eq!(got, dec(&reference), "{what}: sum");
        assert_eq!(got, integer_model(m, t, w), "{what}: sum model");
        assert_eq!((e.level(&sum), e.scale(&sum)), (e.level(ct), 1.0));
    }
}

#[test]
fn bgv_and_bfv_overrides_match_the_defaults() {
    let p = BgvParameters::builder()
        .degree(1024)
        .plain_modulus(T)
        .moduli_bits(&[45, 45, 45, 45])
        .special_moduli_bits(&[50])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BgvContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([6; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &STEPS, false, &mut rng).unwrap();
    let m = slots_of(1024, 2);
    let top = ctx
        .encrypt(&ctx.encode(&m).unwrap(), &pk, &mut rng)
        .unwrap();
    let dec = |c: &_| ctx.decode(&ctx.decrypt(c, &sk).unwrap()).unwrap();
    for level in [3, 1] {
        let ct = ctx.mod_switch_to_level(&top, level).unwrap();
        check_integer(&*ctx, &ct, &gk, &m, T, dec, &format!("BGV level {level}"));
    }

    let p = BfvParameters::builder()
        .degree(1024)
        .plain_modulus(T)
        .moduli_bits(&[50, 50, 50])
        .special_moduli_bits(&[55])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BfvContext::new(p).unwrap();
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &STEPS, false, &mut rng).unwrap();
    let ct = ctx
        .encrypt(&ctx.encode(&m).unwrap(), &pk, &mut rng)
        .unwrap();
    let dec = |c: &_| ctx.decode(&ctx.decrypt(c, &sk).unwrap()).unwrap();
    check_integer(&*ctx, &ct, &gk, &m, T, dec, "BFV");
}

/// HPR keeps the defaults: its rotations act on the batch layout (t = 1 mod 2n).
#[test]
fn hpr_uses_the_defaults() {
    const N: usize = 32;
    let t = 193;
    let params = HprParameters::new(N, t, 3, 2, 61, 3.2, Security::InsecureResearchOnly).unwrap();
    let ctx = HprContext::new(&params).unwrap();
    let enc = BatchEncoder::new(N, t).unwrap();
    let mut rng = Csprng::from_seed([9; 32]);
    let sk = ctx.secret_key(&mut rng).unwrap();
    let pk = ctx.public_key(&sk, &mut rng).unwrap();
    let els: Vec<u64> = STEPS
        .iter()
        .map(|&s| enc.galois_element_for_rotation(s))
        .filter(|&g| g != 1)
        .collect();
    let gk = ctx.galois_keys(&sk, &els, &mut rng).unwrap();
    let m: Vec<u64> = (0..N as u64).map(|i| (i * 17 + 5) % t).collect();
    let ct = ctx
        .encrypt(&pk, &enc.encode(&m).unwrap(), &mut rng)
        .unwrap();
    let dec = |c: &_| enc.decode(&ctx.decrypt(&sk, c).unwrap()).unwrap();
    check_integer(&*ctx, &ct, &gk, &m, t, dec, "HPR");
}

#[test]
fn refusals() {
    let ctx = ckks();
    let mut rng = Csprng::from_seed([4; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    let top = ctx
        .encrypt(&ctx.encode(&values(512, 4)).unwrap(), &pk, &mut rng)
        .unwrap();
    let ev = &*ctx;
    let one = [Complex::from_real(1.0)];
    for e in [
        Evaluator::sum_rotations(ev, &top, &[], None, &gk).unwrap_err(),
        sum_rotations_separately(ev, &top, &[], None, &gk).unwrap_err(),
    ] {
        assert!(matches!(e, Error::InvalidParameters(_)), "{e}");
    }
    for e in [
        Evaluator::sum_rotations(ev, &top, &[1, 1], Some(&one), &gk).unwrap_err(),
        sum_rotations_separately(ev, &top, &[1, 1], Some(&one), &gk).unwrap_err(),
    ] {
        assert!(matches!(e, Error::LengthMismatch { .. }), "{e}");
    }
    for e in [
        Evaluator::rotate_many(ev, &top, &[1, 2], &gk).unwrap_err(),
        rotate_many_separately(ev, &top, &[1, 2], &gk).unwrap_err(),
    ] {
        assert!(matches!(e, Error::MissingGaloisKey { .. }), "{e}");
    }
    // Weights rescale once: refused at level 0 on both paths.
    let bottom = ctx.drop_to_level(&top, 0).unwrap();
    for e in [
        Evaluator::sum_rotations(ev, &bottom, &[1], Some(&one), &gk).unwrap_err(),
        sum_rotations_separately(ev, &bottom, &[1], Some(&one), &gk).unwrap_err(),
    ] {
        assert!(matches!(e, Error::InvalidParameters(_)), "{e}");
    }
}
