//! CKKS end to end: encryption, every operation against plaintext double arithmetic, rescaling down the
//! chain, rotations, conjugation, hybrid key switching, and the refused inputs.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/worst.rs"]
mod worst;
use worst::worst_error;

use std::sync::Arc;

use rnsfhe::circuits;
use rnsfhe::ckks::{CkksCiphertext, CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{KeySwitching, SecretDistribution};
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

#[path = "support/logistic.rs"]
mod logistic_data;

fn context(n: usize, levels: usize, special: &[u32], ks: KeySwitching) -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(n)
        .levels(levels)
        .scale_bits(40)
        .special_moduli_bits(special)
        .key_switching(ks)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

/// A research-size context with the default special prime and one digit per prime.
fn small(log_n: u32, levels: usize, scale_bits: u32) -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(1 << log_n)
        .levels(levels)
        .scale_bits(scale_bits)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

fn random(rng: &mut Csprng, len: usize) -> Vec<Complex> {
    let m = rnsfhe_math::arith::Modulus::new(1 << 30).unwrap();
    let mut u = || rng.uniform_mod(&m) as f64 / (1u64 << 29) as f64 - 1.0;
    (0..len).map(|_| Complex::new(u(), u())).collect()
}

fn max_err(a: &[Complex], b: &[Complex]) -> f64 {
    worst_error(a.iter().zip(b).map(|(x, y)| (*x - *y).abs()))
}

#[test]
fn operations_match_plaintext_arithmetic() {
    let mut rng = Csprng::from_seed([1; 32]);
    for (special, ks) in [
        (vec![60], KeySwitching::default()),
        (
            vec![60, 60],
            KeySwitching {
                digit_primes: 2,
                ..KeySwitching::default()
            },
        ),
    ] {
        let ctx = context(1 << 10, 4, &special, ks);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let gk = ctx.galois_keys(&sk, &[1, -2, 5], true, &mut rng).unwrap();
        let slots = ctx.slots();
        let x = random(&mut rng, slots);
        let y = random(&mut rng, slots);
        let cx = ctx
            .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
            .unwrap();
        let cy = ctx
            .encrypt_symmetric(&ctx.encode(&y).unwrap(), &sk, &mut rng)
            .unwrap();
        let dec = |c: &CkksCiphertext| -> Vec<Complex> { ctx.decrypt_values(c, &sk).unwrap() };
        assert!(max_err(&dec(&cx), &x) < 1e-6, "fresh");
        let sum: Vec<Complex> = x.iter().zip(&y).map(|(a, b)| *a + *b).collect();
        assert!(
            max_err(&dec(&ctx.add(&cx, &cy).unwrap()), &sum) < 1e-6,
            "add"
        );
        let prod: Vec<Complex> = x.iter().zip(&y).map(|(a, b)| *a * *b).collect();
        let m = ctx.multiply_rescale(&cx, &cy, &rlk).unwrap();
        assert_eq!(m.level(), 3);
        assert!(
            max_err(&dec(&m), &prod) < 1e-5,
            "mult&rs: {}",
            max_err(&dec(&m), &prod)
        );
        let m3 = ctx.multiply_no_relin(&cx, &cy).unwrap();
        assert!(
            max_err(&dec(&ctx.rescale(&m3).unwrap()), &prod) < 1e-5,
            "3-part decrypt"
        );
        for step in [1i64, -2, 5] {
            let r = ctx.rotate(&cx, step, &gk).unwrap();
            let want: Vec<Complex> = (0..slots)
                .map(|i| x[(i as i64 + step).rem_euclid(slots as i64) as usize])
                .collect();
            assert!(max_err(&dec(&r), &want) < 1e-5, "rotate {step}");
        }
        let conj: Vec<Complex> = x.iter().map(|a| a.conj()).collect();
        assert!(
            max_err(&dec(&ctx.conjugate(&cx, &gk).unwrap()), &conj) < 1e-5,
            "conjugate"
        );
        let c = ctx.rescale(&ctx.mul_const(&cx, -0.75).unwrap()).unwrap();
        let want: Vec<Complex> = x.iter().map(|a| a.scale(-0.75)).collect();
        assert!(max_err(&dec(&c), &want) < 1e-5, "mul_const");
        let want: Vec<Complex> = x.iter().map(|a| *a + Complex::from_real(2.5)).collect();
        assert!(
            max_err(&dec(&ctx.add_const(&cx, 2.5).unwrap()), &want) < 1e-6,
            "add_const"
        );
        let py = ctx.encode(&y).unwrap();
        let diff: Vec<Complex> = x.iter().zip(&y).map(|(a, b)| *a - *b).collect();
        assert!(
            max_err(&dec(&ctx.sub_plain(&cx, &py).unwrap()), &diff) < 1e-6,
            "sub_plain"
        );
        assert!(
            max_err(&dec(&ctx.sub(&cx, &cy).unwrap()), &diff) < 1e-6,
            "sub"
        );
        let mp = ctx.rescale(&ctx.mul_plain(&cx, &py).unwrap()).unwrap();
        assert!(max_err(&dec(&mp), &prod) < 1e-5, "mul_plain");
        // Down the whole chain: x^(2^4) by four squarings.
        let mut p = cx.clone();
        let mut want = x.clone();
        for _ in 0..4 {
            p = ctx.multiply_rescale(&p, &p, &rlk).unwrap();
            want = want.iter().map(|a| *a * *a).collect();
        }
        assert_eq!(p.level(), 0);
        assert!(
            max_err(&dec(&p), &want) < 1e-3,
            "depth 4: {}",
            max_err(&dec(&p), &want)
        );
        assert!(matches!(ctx.rescale(&p), Err(Error::InvalidParameters(_))));
    }
}

#[test]
fn sparse_packing_and_hamming_secret() {
    let mut rng = Csprng::from_seed([2; 32]);
    let p = CkksParameters::builder()
        .degree(1 << 11)
        .levels(2)
        .secret(SecretDistribution::HammingWeight(64))
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = CkksContext::new(p).unwrap();
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let x = random(&mut rng, 8);
    let c = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let sq = ctx.multiply_rescale(&c, &c, &rlk).unwrap();
    let got = ctx.decrypt_values(&sq, &sk).unwrap();
    assert_eq!(got.len(), 8);
    let want: Vec<Complex> = x.iter().map(|a| *a * *a).collect();
    assert!(max_err(&got, &want) < 1e-5);
}

#[test]
fn refused_inputs() {
    let mut rng = Csprng::from_seed([3; 32]);
    let ks = KeySwitching::default();
    let a = context(1 << 8, 3, &[60], ks);
    // Other parameters (levels); equal ones would share keys and ciphertexts (tests/keys_apart.rs).
    let b = context(1 << 8, 2, &[60], ks);
    let (sk, pk) = a.keygen(&mut rng).unwrap();
    let (_, pkb) = b.keygen(&mut rng).unwrap();
    let gk = a.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    let x = random(&mut rng, 4);
    let c = a.encrypt(&a.encode(&x).unwrap(), &pk, &mut rng).unwrap();
    let low = a.drop_to_level(&c, 1).unwrap();
    assert!(
        matches!(a.add(&c, &low), Err(Error::LevelMismatch { left, right: 1, .. }) if left == c.level())
    );
    let scaled = a.mul_const(&c, 1.0).unwrap();
    assert!(matches!(
        a.add(&c, &scaled),
        Err(Error::ScaleMismatch { .. })
    ));
    assert!(matches!(
        a.rotate(&c, 2, &gk),
        Err(Error::MissingGaloisKey { .. })
    ));
    assert!(matches!(
        a.encrypt(&a.encode(&x).unwrap(), &pkb, &mut rng),
        Err(Error::ParameterMismatch { .. })
    ));
    assert!(matches!(
        b.encrypt(&a.encode(&x).unwrap(), &pkb, &mut rng),
        Err(Error::ParameterMismatch { .. })
    ));
    assert!(a.encode(&random(&mut rng, 129)).is_err());
    assert!(a.encode_real(&[f64::NAN]).is_err());
    assert!(a.drop_to_level(&low, 2).is_err());
    let too_many = CkksParameters::builder().degree(1 << 12).levels(10).build();
    assert!(
        too_many.is_err(),
        "128-bit security caps log QP at 109 for N = 2^12"
    );
}

#[test]
fn functions_match_plaintext() {
    let mut rng = Csprng::from_seed([4; 32]);
    let ctx = small(11, 6, 45);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let steps: Vec<i64> = (0..10).map(|i| 1i64 << i).collect();
    let gk = ctx.galois_keys(&sk, &steps, false, &mut rng).unwrap();
    let n = ctx.slots();
    let x: Vec<f64> = (0..n)
        .map(|i| ((i * 37 % 101) as f64 / 101.0) * 1.6 - 0.8)
        .collect();
    let cx = ctx
        .encrypt(&ctx.encode_real(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let re = |c: &CkksCiphertext| -> Vec<f64> {
        ctx.decrypt_values(c, &sk)
            .unwrap()
            .iter()
            .map(|z| z.re)
            .collect()
    };
    let check = |got: Vec<f64>, f: &dyn Fn(f64) -> f64, tol: f64, what: &str| {
        let err = worst_error(got.iter().zip(&x).map(|(g, &v)| (g - f(v)).abs()));
        assert!(err < tol, "{what}: max error {err}");
    };
    check(
        re(&circuits::exp(&ctx, &cx, &rlk).unwrap()),
        &|v: f64| v.exp(),
        1e-4,
        "exp",
    );
    check(
        re(&circuits::sigmoid(&ctx, &cx, &rlk).unwrap()),
        &|v: f64| 1.0 / (1.0 + (-v).exp()),
        1e-4,
        "sigmoid",
    );
    let poly = circuits::evaluate_polynomial(&ctx, &cx, &[0.5, -1.0, 0.0, 2.0], &rlk).unwrap();
    check(
        re(&poly),
        &|v: f64| 0.5 - v + 2.0 * v * v * v,
        1e-5,
        "polynomial",
    );
    // 1/x for x in (0.2, 1.8): 1 - x in (-0.8, 0.8), r = 5 iterations leave 0.8^32 ~ 8e-4 relative.
    let shifted = ctx.add_const(&cx, 1.0).unwrap();
    let inv = circuits::inverse(&ctx, &shifted, 5, &rlk).unwrap();
    check(re(&inv), &|v: f64| 1.0 / (v + 1.0), 5e-3, "inverse");
    let mean: f64 = x.iter().sum::<f64>() / n as f64;
    let var: f64 = x.iter().map(|v| v * v).sum::<f64>() / n as f64 - mean * mean;
    let m = re(&circuits::mean(&ctx, &cx, n, &gk).unwrap());
    assert!(
        (m[0] - mean).abs() < 1e-5 && (m[n - 1] - mean).abs() < 1e-5,
        "mean {} vs {mean}",
        m[0]
    );
    let v = re(&circuits::variance(&ctx, &cx, n, &rlk, &gk).unwrap());
    assert!((v[0] - var).abs() < 1e-4, "variance {} vs {var}", v[0]);
    assert!(
        circuits::evaluate_polynomial(&ctx, &cx, &vec![1.0; 200], &rlk).is_err(),
        "too deep"
    );
}

/// The library's f64 training (`train_plain`, the Python `logistic.train_plain`) against Cheon et al. (SAC 2018)'s
/// formulas written again in the test support, over the schedule's first 9 steps; the cubic
/// against [28]'s published 0.5 + 0.15012 x - 0.0015930 x^3.
#[test]
fn plain_logistic_training_matches_the_reference() {
    let (c1, c3) = circuits::logistic::sigmoid_cubic();
    let [r0, r1, r3] = logistic_data::sigmoid_cubic_reference();
    assert!(
        (r0 - 0.5).abs() < 1e-12 && (r1 - 0.15012).abs() < 1e-4 && (r3 + 0.001593).abs() < 1e-5
    );
    assert!(
        (c1 - r1).abs() < 1e-14 && (c3 - r3).abs() < 1e-15,
        "{c1} {c3} vs {r1} {r3}"
    );
    let z = logistic_data::data(30);
    for iterations in [1, 2, 5, 9] {
        let got = circuits::logistic::train_plain(&z, iterations);
        let want = logistic_data::train_reference(&z, iterations);
        assert_eq!(got.len(), want.len());
        let err = worst_error(got.iter().zip(&want).map(|(g, w)| (g - w).abs()));
        assert!(err < 1e-12, "{iterations} iterations: {got:?} vs {want:?}");
    }
}

#[test]
fn logistic_regression_matches_plaintext_training() {
    let mut rng = Csprng::from_seed([5; 32]);
    let z = logistic_data::data(20);
    let iterations = 2;
    let ctx = small(
        12,
        circuits::logistic::LEVELS_PER_ITERATION * iterations + 1,
        40,
    );
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let (r, f) = circuits::logistic::layout(z.len(), 4);
    let gk = ctx
        .galois_keys(
            &sk,
            &circuits::logistic::rotation_steps(r, f),
            false,
            &mut rng,
        )
        .unwrap();
    let packed = circuits::logistic::pack(&z).unwrap();
    let cz = ctx
        .encrypt(&ctx.encode_real(&packed).unwrap(), &pk, &mut rng)
        .unwrap();
    let beta = circuits::train_logistic(&ctx, &cz, z.len(), 4, iterations, &rlk, &gk).unwrap();
    let got: Vec<f64> = ctx
        .decrypt_values(&beta, &sk)
        .unwrap()
        .iter()
        .map(|c| c.re)
        .collect();
    let want = logistic_data::train_reference(&z, iterations);
    for row in 0..r {
        for j in 0..4 {
            assert!(
                (got[row * f + j] - want[j]).abs() < 1e-3,
                "row {row} weight {j}: {} vs {}",
                got[row * f + j],
                want[j]
            );
        }
    }
}

#[test]
fn chebyshev_interpolation_beyond_taylor() {
    let mut rng = Csprng::from_seed([6; 32]);
    let ctx = small(11, 7, 45);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let n = ctx.slots();
    // Sigmoid on [-8, 8], where Taylor 7 around 0 fails; degree 31 Chebyshev.
    let x: Vec<f64> = (0..n).map(|i| (i as f64 / n as f64) * 16.0 - 8.0).collect();
    let cx = ctx
        .encrypt(&ctx.encode_real(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let sig = |v: f64| 1.0 / (1.0 + (-v).exp());
    let out = circuits::evaluate_chebyshev(&ctx, &cx, sig, (-8.0, 8.0), 31, &rlk).unwrap();
    let got = ctx.decrypt_values(&out, &sk).unwrap();
    let err = worst_error(got.iter().zip(&x).map(|(g, &v)| (g.re - sig(v)).abs()));
    assert!(err < 1e-4, "sigmoid on [-8, 8], degree 31: max error {err}");
    let coeffs = circuits::chebyshev_coefficients(f64::exp, -1.0, 1.0, 10);
    let y: f64 = 0.3;
    let t: Vec<f64> = (0..11).map(|k| (k as f64 * y.acos()).cos()).collect();
    let approx: f64 = coeffs.iter().zip(&t).map(|(c, tk)| c * tk).sum();
    assert!((approx - y.exp()).abs() < 1e-9, "interpolant of exp");
    assert!(circuits::evaluate_chebyshev(&ctx, &cx, sig, (1.0, -1.0), 5, &rlk).is_err());
}

#[test]
fn baby_step_giant_step_matches_power_tree() {
    let mut rng = Csprng::from_seed([7; 32]);
    let ctx = small(11, 9, 45);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let n = ctx.slots();
    let x: Vec<f64> = (0..n).map(|i| (i as f64 / n as f64) * 2.0 - 1.0).collect();
    let cx = ctx
        .encrypt(&ctx.encode_real(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    for d in [3usize, 7, 15, 26] {
        let coeffs: Vec<f64> = (0..=d)
            .map(|i| ((i * 7 % 5) as f64 - 2.0) / (i as f64 + 1.0))
            .collect();
        let want = |v: f64| coeffs.iter().rev().fold(0.0, |acc, c| acc * v + c);
        let out = circuits::evaluate_polynomial_bsgs(&ctx, &cx, &coeffs, &rlk).unwrap();
        let got = ctx.decrypt_values(&out, &sk).unwrap();
        let err = worst_error(got.iter().zip(&x).map(|(g, &v)| (g.re - want(v)).abs()));
        assert!(
            err < 1e-4,
            "degree {d}: max error {err}, level left {}",
            out.level()
        );
    }
}

/// Key switching adds little to a fresh error (rotation at scale 2^40, the largest digit as wide as
/// P). Guards two biases found earlier: digits in [0, q_j) instead of centred (rotation errors
/// 5e-7 at N = 2^13), and ModDown's FastBconv overflow with several special primes (4e-7).
#[test]
fn key_switching_noise_is_centred() {
    let mut rng = Csprng::from_seed([21; 32]);
    for (special, ks) in [
        (vec![60u32], KeySwitching::default()),
        (vec![60, 60], KeySwitching::default()),
        (
            vec![60, 60],
            KeySwitching {
                digit_primes: 2,
                ..KeySwitching::default()
            },
        ),
    ] {
        let ctx = context(1 << 13, 2, &special, ks);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let gk = ctx.galois_keys(&sk, &[1], false, &mut rng).unwrap();
        let x = random(&mut rng, ctx.slots());
        let c = ctx
            .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
            .unwrap();
        let fresh = max_err(&ctx.decrypt_values(&c, &sk).unwrap(), &x);
        let r = ctx.rotate(&c, 1, &gk).unwrap();
        let mut want = x.clone();
        want.rotate_left(1);
        let rotated = max_err(&ctx.decrypt_values(&r, &sk).unwrap(), &want);
        assert!(fresh < 5e-8, "{special:?}: fresh error {fresh:.1e}");
        assert!(
            rotated < 1.5e-7,
            "{special:?} {ks:?}: rotation error {rotated:.1e}"
        );
    }
}

/// The default key-switching layout: 3 digits with as many 60-bit special primes as a digit
/// has primes where the security bound allows it, more digits where it does not; explicit special
/// primes keep one prime per digit.
#[test]
fn default_layout_fits_the_security_bound() {
    use rnsfhe::rlwe::KeySwitching;
    // N = 2^15, 11 primes: 3 digits of 4, 4 special primes (log QP = 700 <= 881).
    let p = CkksParameters::builder().build().unwrap();
    assert_eq!(p.key_switching().digit_primes, 4);
    assert_eq!(p.special_moduli().len(), 4);
    // N = 2^14, 6 primes (260 bits): 3 digits of 2 would need 120 more bits (380 <= 438).
    let p = CkksParameters::builder()
        .degree(1 << 14)
        .levels(5)
        .build()
        .unwrap();
    assert_eq!(
        (p.key_switching().digit_primes, p.special_moduli().len()),
        (2, 2)
    );
    // N = 2^14 with 7 primes of 40 bits + 60 (340 bits): only one 60-bit special prime fits (438).
    let p = CkksParameters::builder()
        .degree(1 << 14)
        .levels(7)
        .build()
        .unwrap();
    assert_eq!(
        (p.key_switching().digit_primes, p.special_moduli().len()),
        (1, 1)
    );
    assert!(p.log_qp() <= 438.0);
    // Explicit special primes keep the old default of one prime per digit.
    let p = CkksParameters::builder()
        .special_moduli_bits(&[60])
        .build()
        .unwrap();
    assert_eq!(p.key_switching(), KeySwitching::default());
    assert_eq!(p.special_moduli().len(), 1);
}

/// `relinearize_rescale` (ModDown and the rescale in one division by P q_l, with the exact centred
/// conversion of the dropped limbs) against the two steps it replaces and the plaintext product,
/// at every level, for one and two special primes (one- and two-prime digits): the same level and
/// scale; the values of the 3-part tensor (decrypted with s^2, no key switch and no rounding:
/// what both forms approximate) within 2^-25 for both (a rescale's rounding is about 2^-27.5
/// here); the plaintext product within the fresh noise. Without
/// special primes, and for a 2-part ciphertext, it is the two steps bit for bit. `multiply_rescale`
/// is the fused form bit for bit.
#[test]
fn relinearize_rescale_is_the_two_steps_in_one_rounding() {
    let mut rng = Csprng::from_seed([31; 32]);
    let digits2 = KeySwitching {
        digit_primes: 2,
        ..KeySwitching::default()
    };
    for (special, ks) in [
        (vec![60u32], KeySwitching::default()),
        (vec![60, 60], digits2),
        (vec![], KeySwitching::default()),
    ] {
        let ctx = context(1 << 12, 3, &special, ks);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let x = random(&mut rng, ctx.slots());
        let y = random(&mut rng, ctx.slots());
        let prod: Vec<Complex> = x.iter().zip(&y).map(|(a, b)| *a * *b).collect();
        let dec = |c: &CkksCiphertext| ctx.decrypt_values(c, &sk).unwrap();
        let mut cx = ctx
            .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
            .unwrap();
        let mut cy = ctx
            .encrypt(&ctx.encode(&y).unwrap(), &pk, &mut rng)
            .unwrap();
        while cx.level() > 0 {
            let t = ctx.multiply_no_relin(&cx, &cy).unwrap();
            let fused = ctx.relinearize_rescale(t.clone(), &rlk).unwrap();
            let mut two = t.clone();
            ctx.relinearize_assign(&mut two, &rlk).unwrap();
            let two = ctx.rescale(&two).unwrap();
            let exact = dec(&t);
            assert_eq!((fused.level(), fused.scale()), (two.level(), two.scale()));
            assert_eq!(fused.parts().len(), 2);
            let product = ctx.multiply_rescale(&cx, &cy, &rlk).unwrap();
            for (a, b) in product.parts().iter().zip(fused.parts()) {
                assert_eq!(a.residues(), b.residues(), "multiply_rescale");
            }
            let (f, w) = (max_err(&dec(&fused), &exact), max_err(&dec(&two), &exact));
            let what = format!("{special:?}, level {}", cx.level());
            if !special.is_empty() {
                assert!(
                    f < 2f64.powi(-25) && w < 2f64.powi(-25),
                    "{what}: 2^{:.1} 2^{:.1}",
                    f.log2(),
                    w.log2()
                );
                assert!(max_err(&dec(&fused), &prod) < 1e-5, "{what}");
            } else {
                // Without special primes (the key switch's noise not divided by P): the two steps.
                for (a, b) in fused.parts().iter().zip(two.parts()) {
                    assert_eq!(a.residues(), b.residues(), "{what}");
                }
            }
            // A 2-part ciphertext is only rescaled.
            let r = ctx.relinearize_rescale(cx.clone(), &rlk).unwrap();
            let want = ctx.rescale(&cx).unwrap();
            for (a, b) in r.parts().iter().zip(want.parts()) {
                assert_eq!(a.residues(), b.residues(), "{what}: 2 parts");
            }
            cx = ctx
                .drop_to_level_keeping_scale(&cx, cx.level() - 1)
                .unwrap();
            cy = ctx
                .drop_to_level_keeping_scale(&cy, cy.level() - 1)
                .unwrap();
        }
        let t = ctx.multiply_no_relin(&cx, &cy).unwrap();
        assert!(ctx.relinearize_rescale(t, &rlk).is_err(), "level 0");
    }
}
