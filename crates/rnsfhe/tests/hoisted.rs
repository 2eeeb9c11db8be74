//! Hoisted rotations (`rotate_many`) and double-hoisted sums (`sum_rotations`) of CKKS, BFV and BGV
//! against separate rotations and against the plaintext model (slots rotated left, weighted sums
//! computed in f64 / mod t): the same bits as `rotate` per step (one result whether the digits are
//! shared or not), sums equal after decryption (exactly for BFV and BGV, within 2^-20 relative for
//! CKKS), at several levels, with one and several primes per digit, omega digits, truncated key
//! columns, and without special primes; the errors: a missing Galois key names its step, 3-part
//! ciphertexts and foreign keys are refused.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::ckks::{CkksCiphertext, CkksContext, CkksParameters, CkksWeights, Complex};
use rnsfhe::encoding::IntegerWeights;
use rnsfhe::params::Security;
use rnsfhe::rlwe::KeySwitching;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

const T: u64 = 65537;
const STEPS: [i64; 6] = [0, 1, 2, 5, -3, 17];
/// CKKS error relative to the largest value (N = 2^10, scale 2^40, key-switching noise of 60-bit
/// digits over a 50-bit special prime: about 2^-19).
const TOL: f64 = 1.0 / (1 << 16) as f64;

fn ks(digit_primes: usize) -> KeySwitching {
    KeySwitching {
        digit_primes,
        ..KeySwitching::default()
    }
}

fn ckks(levels: usize, special: &[u32], layout: KeySwitching) -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(1 << 10)
        .levels(levels)
        .scale_bits(40)
        .special_moduli_bits(special)
        .key_switching(layout)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

fn values(n: usize, seed: u64) -> Vec<Complex> {
    (0..n)
        .map(|i| {
            let x = ((i as u64 * 7919 + seed * 104_729) % 1000) as f64 / 500.0 - 1.0;
            let y = ((i as u64 * 6271 + seed * 3) % 1000) as f64 / 500.0 - 1.0;
            Complex::new(x, y)
        })
        .collect()
}

/// v rotated left by `step` within blocks of `len`.
fn rotl<T: Copy>(v: &[T], step: i64, len: usize) -> Vec<T> {
    let mut out = v.to_vec();
    for (b, block) in out.chunks_mut(len).enumerate() {
        for (i, o) in block.iter_mut().enumerate() {
            *o = v[b * len + (i as i64 + step).rem_euclid(len as i64) as usize];
        }
    }
    out
}

fn same_parts(a: &[rnsfhe_math::ring::Poly], b: &[rnsfhe_math::ring::Poly], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (x, y) in a.iter().zip(b) {
        assert!(x.residues() == y.residues(), "{what}: parts differ");
    }
}

fn close(got: &[Complex], want: &[Complex], tol: f64, what: &str) {
    let scale = want.iter().map(|z| z.abs()).fold(1.0, f64::max);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (*g - *w).abs() <= tol * scale,
            "{what}: slot {i}: {g:?} vs {w:?}"
        );
    }
}

struct Ckks {
    ctx: Arc<CkksContext>,
    sk: rnsfhe::rlwe::SecretKey,
    gk: rnsfhe::rlwe::GaloisKeys,
    ct: CkksCiphertext,
    z: Vec<Complex>,
}

fn ckks_setup(ctx: Arc<CkksContext>, slots: usize, seed: u8) -> Ckks {
    let mut rng = Csprng::from_seed([seed; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &STEPS, false, &mut rng).unwrap();
    let z = values(slots, u64::from(seed));
    let ct = ctx
        .encrypt(&ctx.encode(&z).unwrap(), &pk, &mut rng)
        .unwrap();
    Ckks { ctx, sk, gk, ct, z }
}

/// rotate_many against rotate (bits) and np.roll (values); sum_rotations against the sum of the
/// rotations and the model, unweighted and with real, complex and vector weights.
fn check_ckks(s: &Ckks, ct: &CkksCiphertext, what: &str) {
    let ctx = &s.ctx;
    let slots = ct.slots();
    let many = ctx.rotate_many(ct, &STEPS, &s.gk).unwrap();
    for (&step, r) in STEPS.iter().zip(&many) {
        let one = ctx.rotate(ct, step, &s.gk).unwrap();
        same_parts(r.parts(), one.parts(), &format!("{what} step {step}"));
        assert_eq!((r.level(), r.scale()), (ct.level(), ct.scale()));
        let got = ctx.decrypt_values(r, &s.sk).unwrap();
        close(&got, &rotl(&s.z, step, slots), TOL, what);
    }
    // One unweighted term is the rotation (the automorphism before the ModDown: equal values).
    let single = ctx.sum_rotations(ct, &[5], None, &s.gk).unwrap();
    close(
        &ctx.decrypt_values(&single, &s.sk).unwrap(),
        &ctx.decrypt_values(&many[3], &s.sk).unwrap(),
        2f64.powi(-20),
        &format!("{what} sum of one"),
    );
    // Unweighted: the sum of the separate rotations.
    let sum = ctx.sum_rotations(ct, &STEPS, None, &s.gk).unwrap();
    let mut separate = many[0].clone();
    for r in &many[1..] {
        separate = ctx.add(&separate, r).unwrap();
    }
    let (a, b) = (
        ctx.decrypt_values(&sum, &s.sk).unwrap(),
        ctx.decrypt_values(&separate, &s.sk).unwrap(),
    );
    close(&a, &b, 2f64.powi(-20), &format!("{what} sum vs separate"));
    // Weighted, onto the chain's scale of the level below.
    let reals = [0.5, -1.25, 2.0, 0.0, 0.75, -0.125];
    let cplx: Vec<Complex> = reals
        .iter()
        .enumerate()
        .map(|(i, &r)| Complex::new(r, if i % 2 == 0 { 0.0 } else { 0.5 }))
        .collect();
    let vecs: Vec<Vec<Complex>> = (0..STEPS.len())
        .map(|i| values(slots, 100 + i as u64))
        .collect();
    let cases: [(CkksWeights<'_>, &str); 3] = [
        (CkksWeights::Real(&reals), "real"),
        (CkksWeights::Complex(&cplx), "complex"),
        (CkksWeights::Vectors(&vecs), "vectors"),
    ];
    for (w, name) in cases {
        let r = ctx.sum_rotations(ct, &STEPS, Some(w), &s.gk).unwrap();
        assert_eq!(r.level(), ct.level() - 1, "{what} {name}");
        assert_eq!(r.scale(), ctx.scale_at(ct.level() - 1).unwrap());
        let mut want = vec![Complex::new(0.0, 0.0); slots];
        for (i, &step) in STEPS.iter().enumerate() {
            let rot = rotl(&s.z, step, slots);
            for (k, o) in want.iter_mut().enumerate() {
                let wk = match w {
                    CkksWeights::Real(v) => Complex::from_real(v[i]),
                    CkksWeights::Complex(v) => v[i],
                    CkksWeights::Vectors(v) => v[i][k],
                };
                *o += wk * rot[k];
            }
        }
        let got = ctx.decrypt_values(&r, &s.sk).unwrap();
        close(&got, &want, TOL, &format!("{what} {name}"));
    }
}

#[test]
fn ckks_hoisted_rotations_match_separate_ones() {
    // One prime per digit (3 digits at the top) and one special prime.
    let s = ckks_setup(ckks(3, &[50], ks(1)), 512, 1);
    check_ckks(&s, &s.ct, "1-prime digits, top level");
    let low = s.ctx.drop_to_level(&s.ct, 1).unwrap();
    check_ckks(&s, &low, "1-prime digits, level 1");
    // Hybrid digits of 2 primes, 2 special primes, at the top and one level down.
    let s = ckks_setup(ckks(4, &[50, 50], ks(2)), 512, 2);
    check_ckks(&s, &s.ct, "2-prime digits, top level");
    let low = s.ctx.drop_to_level(&s.ct, 2).unwrap();
    check_ckks(&s, &low, "2-prime digits, level 2");
    // Sparse slots (64 of 512): rotations wrap at 64.
    let mut s = ckks_setup(ckks(3, &[55, 55], ks(2)), 64, 3);
    s.z.truncate(64);
    check_ckks(&s, &s.ct, "2-prime digits, 64 slots");
}

/// Without special primes the digits must be small for CKKS (Bajard et al. (SAC 2016) Remark 2's omega digits of
/// 5 bits): the ModDown is the identity and P = 1 in the lazy sums.
#[test]
fn ckks_without_special_primes() {
    let omega = KeySwitching {
        omega_bits: Some(5),
        ..KeySwitching::default()
    };
    let s = ckks_setup(ckks(2, &[], omega), 512, 4);
    check_ckks(&s, &s.ct, "no special primes, omega digits");
    let low = s.ctx.drop_to_level(&s.ct, 1).unwrap();
    check_ckks(&s, &low, "no special primes, omega digits, level 1");
}

fn bfv(layout: KeySwitching, special: &[u32]) -> Arc<BfvContext> {
    let p = BfvParameters::builder()
        .degree(1024)
        .plain_modulus(T)
        .moduli_bits(&[50, 50, 50])
        .special_moduli_bits(special)
        .key_switching(layout)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BfvContext::new(p).unwrap()
}

fn slots_of(n: usize, seed: u64) -> Vec<u64> {
    (0..n as u64).map(|i| (i * 7919 + seed * 31) % T).collect()
}

/// Σ_i w_i rot_{steps[i]}(m) mod t on the 2 x n/2 slot matrix.
fn integer_model(m: &[u64], w: &[Vec<u64>]) -> Vec<u64> {
    let mut out = vec![0u64; m.len()];
    for (i, &step) in STEPS.iter().enumerate() {
        let r = rotl(m, step, m.len() / 2);
        for (k, o) in out.iter_mut().enumerate() {
            *o = (*o + w[i][k] * r[k]) % T;
        }
    }
    out
}

/// The checks of `check_ckks` for BFV and BGV through their shared methods.
macro_rules! check_integer {
    ($ctx:expr, $sk:expr, $gk:expr, $ct:expr, $m:expr, $what:expr) => {{
        let (ctx, ct, m, what) = (&$ctx, &$ct, &$m, $what);
        let n = m.len();
        let many = ctx.rotate_many(ct, &STEPS, &$gk).unwrap();
        for (&step, r) in STEPS.iter().zip(&many) {
            let one = ctx.rotate_rows(ct, step, &$gk).unwrap();
            same_parts(r.parts(), one.parts(), &format!("{what} step {step}"));
            let got = ctx.decode(&ctx.decrypt(r, &$sk).unwrap()).unwrap();
            assert_eq!(got, rotl(m, step, n / 2), "{what} step {step}");
        }
        let single = ctx.sum_rotations(ct, &[5], None, &$gk).unwrap();
        assert_eq!(
            ctx.decode(&ctx.decrypt(&single, &$sk).unwrap()).unwrap(),
            rotl(m, 5, n / 2),
            "{what} sum of one"
        );
        let ones = vec![vec![1u64; n]; STEPS.len()];
        let sum = ctx.sum_rotations(ct, &STEPS, None, &$gk).unwrap();
        let got = ctx.decode(&ctx.decrypt(&sum, &$sk).unwrap()).unwrap();
        assert_eq!(got, integer_model(m, &ones), "{what} unweighted");
        let scalars = [3i64, -2, 1, 65536, 0, 12345];
        let r = ctx
            .sum_rotations(ct, &STEPS, Some(IntegerWeights::Scalars(&scalars)), &$gk)
            .unwrap();
        let w: Vec<Vec<u64>> = scalars
            .iter()
            .map(|&c| vec![c.rem_euclid(T as i64) as u64; n])
            .collect();
        let got = ctx.decode(&ctx.decrypt(&r, &$sk).unwrap()).unwrap();
        assert_eq!(got, integer_model(m, &w), "{what} scalars");
        let w: Vec<Vec<u64>> = (0..STEPS.len())
            .map(|i| slots_of(n, 50 + i as u64).iter().map(|x| x % 16).collect())
            .collect();
        let pts: Vec<_> = w.iter().map(|v| ctx.encode(v).unwrap()).collect();
        let r = ctx
            .sum_rotations(ct, &STEPS, Some(IntegerWeights::Plaintexts(&pts)), &$gk)
            .unwrap();
        let got = ctx.decode(&ctx.decrypt(&r, &$sk).unwrap()).unwrap();
        assert_eq!(got, integer_model(m, &w), "{what} plaintexts");
    }};
}

#[test]
fn bfv_hoisted_rotations_match_separate_ones() {
    for (layout, special, what) in [
        (ks(1), &[55][..], "1-prime digits"),
        (ks(2), &[55, 55][..], "2-prime digits"),
        (ks(1), &[][..], "no special primes"),
        (
            KeySwitching {
                omega_bits: Some(20),
                ..KeySwitching::default()
            },
            &[][..],
            "omega digits",
        ),
        (
            KeySwitching {
                truncation: 1,
                ..KeySwitching::default()
            },
            &[][..],
            "truncated key columns",
        ),
    ] {
        let ctx = bfv(layout, special);
        let mut rng = Csprng::from_seed([5; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let gk = ctx.galois_keys(&sk, &STEPS, false, &mut rng).unwrap();
        let m = slots_of(1024, 1);
        let ct = ctx
            .encrypt(&ctx.encode(&m).unwrap(), &pk, &mut rng)
            .unwrap();
        check_integer!(ctx, sk, gk, ct, m, what);
    }
}

fn bgv(layout: KeySwitching, special: &[u32]) -> Arc<BgvContext> {
    let p = BgvParameters::builder()
        .degree(1024)
        .plain_modulus(T)
        .moduli_bits(&[45, 45, 45, 45])
        .special_moduli_bits(special)
        .key_switching(layout)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BgvContext::new(p).unwrap()
}

#[test]
fn bgv_hoisted_rotations_match_separate_ones_at_every_level() {
    for (layout, special, what) in [
        (ks(1), &[50][..], "1-prime digits"),
        (ks(2), &[50, 50][..], "2-prime digits"),
    ] {
        let ctx = bgv(layout, special);
        let mut rng = Csprng::from_seed([6; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let gk = ctx.galois_keys(&sk, &STEPS, false, &mut rng).unwrap();
        let m = slots_of(1024, 2);
        let top = ctx
            .encrypt(&ctx.encode(&m).unwrap(), &pk, &mut rng)
            .unwrap();
        for level in [3, 1] {
            let ct = ctx.mod_switch_to_level(&top, level).unwrap();
            check_integer!(ctx, sk, gk, ct, m, &format!("{what}, level {level}"));
        }
    }
}

#[test]
fn errors_name_the_step_and_refuse_foreign_keys_and_three_parts() {
    let s = ckks_setup(ckks(2, &[50], ks(1)), 512, 7);
    let ctx = &s.ctx;
    let e = ctx.rotate_many(&s.ct, &[1, 3], &s.gk).unwrap_err();
    assert!(
        matches!(&e, Error::MissingGaloisKey { step: Some(3), .. })
            && e.to_string().contains("step 3"),
        "{e}"
    );
    let e = ctx.sum_rotations(&s.ct, &[4], None, &s.gk).unwrap_err();
    assert!(
        matches!(&e, Error::MissingGaloisKey { step: Some(4), .. })
            && e.to_string().contains("step 4"),
        "{e}"
    );
    let e = ctx
        .sum_rotations(&s.ct, &[1, 2], Some(CkksWeights::Real(&[1.0])), &s.gk)
        .unwrap_err();
    assert!(matches!(e, Error::LengthMismatch { .. }), "{e}");
    let mut rng = Csprng::from_seed([8; 32]);
    let (_, pk) = ctx.keygen(&mut rng).unwrap();
    let three = ctx.multiply_no_relin(&s.ct, &s.ct).unwrap();
    let e = ctx.rotate_many(&three, &[1], &s.gk).unwrap_err();
    assert!(matches!(e, Error::InvalidCiphertext(_)), "{e}");
    let e = ctx.sum_rotations(&three, &[1], None, &s.gk).unwrap_err();
    assert!(matches!(e, Error::InvalidCiphertext(_)), "{e}");
    // Keys of another key pair, and of another parameter set.
    let other = ctx
        .encrypt(&ctx.encode(&s.z).unwrap(), &pk, &mut rng)
        .unwrap();
    assert!(matches!(
        ctx.rotate_many(&other, &[1], &s.gk),
        Err(Error::KeyMismatch { .. })
    ));
    // Keys of another parameter set (the same seed, another special prime).
    let s2 = ckks_setup(ckks(2, &[55], ks(1)), 512, 7);
    for e in [
        ctx.rotate_many(&s.ct, &[1], &s2.gk).unwrap_err(),
        ctx.sum_rotations(&s.ct, &[1], None, &s2.gk).unwrap_err(),
    ] {
        assert!(matches!(e, Error::ParameterMismatch { .. }), "{e}");
    }
    // BFV: the same refusals through the shared methods.
    let b = bfv(ks(1), &[55]);
    let (sk, pk) = b.keygen(&mut rng).unwrap();
    let gk = b.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    let ct = b
        .encrypt(&b.encode(&[1, 2]).unwrap(), &pk, &mut rng)
        .unwrap();
    let e = b.rotate_many(&ct, &[1, 2], &gk).unwrap_err();
    assert!(
        matches!(&e, Error::MissingGaloisKey { step: Some(2), .. })
            && e.to_string().contains("step 2"),
        "{e}"
    );
    let three = b.multiply_no_relin(&ct, &ct).unwrap();
    assert!(matches!(
        b.sum_rotations(&three, &[1], None, &gk),
        Err(Error::InvalidCiphertext(_))
    ));
}
