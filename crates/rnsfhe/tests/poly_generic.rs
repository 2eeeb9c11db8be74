//! Polynomial evaluation over the `Evaluator` trait (`circuits::poly`) against plaintext models:
//! CKKS with real and complex coefficients in the power and Chebyshev bases, landing on a requested
//! level and scale; BGV and BFV with integer coefficients mod t, exactly; degree up to 63 within
//! ceil(log2(d + 1)) levels; the refusals.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/worst.rs"]
mod worst;
use worst::worst_error;

#[path = "support/ckks.rs"]
mod ckks_support;

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::circuits::chebyshev_coefficients;
use rnsfhe::circuits::poly::{depth, evaluate, levels_needed, Polynomial, PowerBasis, Target};
use rnsfhe::ckks::Complex;
use rnsfhe::eval::{Evaluator, SCALE_TOLERANCE};
use rnsfhe::hpr::{HprContext, HprParameters, Relinearization};
use rnsfhe::params::Security;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

use ckks_support::{setup, Setup};

const T: u64 = 12289; // prime, 1 mod 2n for n = 2048: batching

/// sum c_i x^i (complex Horner).
fn horner(c: &[Complex], x: Complex) -> Complex {
    c.iter().rev().fold(Complex::ZERO, |acc, &ci| acc * x + ci)
}

/// sum c_i T_i(y) by the three-term recurrence (any complex y).
fn chebyshev_value(c: &[Complex], y: Complex) -> Complex {
    let (mut t0, mut t1) = (Complex::from_real(1.0), y);
    let mut acc = c[0];
    for (i, &ci) in c.iter().enumerate().skip(1) {
        if i > 1 {
            let t2 = y * t1 * 2.0 - t0;
            t0 = t1;
            t1 = t2;
        }
        acc += ci * t1;
    }
    acc
}

/// Deterministic test coefficients of modulus about 1/2, complex when `complex`.
fn coefficients(d: usize, complex: bool) -> Vec<Complex> {
    (0..=d)
        .map(|i| {
            let re = ((i * 7 % 11) as f64 - 5.0) / 10.0;
            let im = if complex {
                ((i * 3 % 7) as f64 - 3.0) / 8.0
            } else {
                0.0
            };
            Complex::new(re, im)
        })
        .collect()
}

/// Encrypts `values` at the top level.
fn encrypt(s: &mut Setup, values: &[Complex]) -> rnsfhe::ckks::CkksCiphertext {
    let pt = s.ctx.encode(values).unwrap();
    s.ctx.encrypt(&pt, &s.pk, &mut s.rng).unwrap()
}

/// Evaluates `p` on `x` (values `xs`) onto `target`, checks the exact level, the scale within the
/// tolerance and the values against `model` within `tol`; returns the max error.
fn check_ckks(
    s: &Setup,
    x: &rnsfhe::ckks::CkksCiphertext,
    xs: &[Complex],
    p: &Polynomial<Complex>,
    target: Target,
    model: impl Fn(Complex) -> Complex,
    tol: f64,
) -> f64 {
    let out = evaluate(&*s.ctx, x, p, target, &s.rlk).unwrap();
    assert_eq!(out.level(), target.level, "exact level");
    let rel = (out.scale() - target.scale).abs() / target.scale;
    assert!(rel <= SCALE_TOLERANCE, "scale off by {rel:e}");
    let got = s.ctx.decrypt_values(&out, &s.sk).unwrap();
    let err = worst_error(got.iter().zip(xs).map(|(g, &v)| (*g - model(v)).abs()));
    assert!(err < tol, "degree {}: max error {err}", p.degree());
    err
}

#[test]
fn ckks_power_basis_real_and_complex_lands_on_target() {
    let mut s = setup(11, 8, Security::InsecureResearchOnly, 21, &[]);
    let n = 64;
    let xs: Vec<Complex> = (0..n)
        .map(|i| Complex::new((i as f64 / n as f64) * 1.8 - 0.9, 0.0))
        .collect();
    let x = encrypt(&mut s, &xs);
    for (d, complex) in [
        (1usize, false),
        (7, false),
        (7, true),
        (26, true),
        (63, false),
    ] {
        let c = coefficients(d, complex);
        let p = Polynomial::monomial(c.clone());
        assert_eq!(levels_needed(&*s.ctx, &p).unwrap(), depth(d));
        let scale = 2f64.powi(35) * 1.37;
        let target = Target::new(8 - depth(d), scale);
        // Coefficients ~1/2 at |x| <= 0.9: the sum stays below 10.
        check_ckks(&s, &x, &xs, &p, target, |v| horner(&c, v), 1e-5);
    }
    // A target further down than needed: any level below lands as well.
    let c = coefficients(7, true);
    let p = Polynomial::monomial(c.clone());
    check_ckks(
        &s,
        &x,
        &xs,
        &p,
        Target::new(1, 2f64.powi(41)),
        |v| horner(&c, v),
        1e-5,
    );
}

#[test]
fn ckks_complex_slots_and_chebyshev_with_complex_coefficients() {
    let mut s = setup(11, 6, Security::InsecureResearchOnly, 22, &[]);
    let n = 32;
    let xs: Vec<Complex> = (0..n)
        .map(|i| Complex::from_angle(i as f64 * 0.37).scale(0.8))
        .collect();
    let x = encrypt(&mut s, &xs);
    let c = coefficients(11, true);
    let p = Polynomial::monomial(c.clone());
    check_ckks(
        &s,
        &x,
        &xs,
        &p,
        Target::new(2, 2f64.powi(38)),
        |v| horner(&c, v),
        1e-5,
    );
    let p = Polynomial::chebyshev(c.clone(), (-1.0, 1.0)).unwrap();
    check_ckks(
        &s,
        &x,
        &xs,
        &p,
        Target::new(2, 2f64.powi(38)),
        |v| chebyshev_value(&c, v),
        1e-4,
    );
}

/// The brief's target: sin on [-1, 1] by its degree-63 Chebyshev interpolant in 6 levels, on the
/// exact target scale, over 2^12 slots (odd: the even coefficients are zero and skipped).
#[test]
fn ckks_sin_degree_63_in_six_levels() {
    let mut s = setup(13, 7, Security::InsecureResearchOnly, 23, &[]);
    let n = 1 << 12;
    let xs: Vec<Complex> = (0..n)
        .map(|i| Complex::from_real(2.0 * i as f64 / (n - 1) as f64 - 1.0))
        .collect();
    let x = encrypt(&mut s, &xs);
    let mut c = chebyshev_coefficients(f64::sin, -1.0, 1.0, 63);
    c.iter_mut().step_by(2).for_each(|v| *v = 0.0);
    let p = Polynomial::chebyshev_real(&c, (-1.0, 1.0)).unwrap();
    assert!(p.is_odd());
    assert_eq!(levels_needed(&*s.ctx, &p).unwrap(), 6);
    let target = Target::new(1, s.ctx.scale_at(1).unwrap());
    let err = check_ckks(
        &s,
        &x,
        &xs,
        &p,
        target,
        |v| Complex::from_real(v.re.sin()),
        1e-6,
    );
    eprintln!("sin degree 63, 6 levels, 2^12 slots: max error {err:e}");
}

/// The Chebyshev basis T_1..T_15 (`PowerBasis`, T_i = 2 T_a T_b - T_(a-b) with T_(a-b) added
/// before the product's one rescale) against cos(i acos y) on the decrypted input y, each on the
/// level ceil(log2 i) below the input's; and the scales where T_(a-b)'s constant
/// round(scale(T_a T_b) / scale(T_(a-b))) exceeds a word (an input at 2^55: 2^70) refused as
/// `OutOfRange`.
#[test]
fn ckks_chebyshev_basis_against_the_model() {
    let mut s = setup(12, 8, Security::InsecureResearchOnly, 26, &[]);
    let n = s.ctx.slots();
    let xs: Vec<Complex> = (0..n)
        .map(|i| Complex::from_real(2.0 * i as f64 / (n - 1) as f64 - 1.0))
        .collect();
    let x = encrypt(&mut s, &xs);
    let y: Vec<f64> = s
        .ctx
        .decrypt_values(&x, &s.sk)
        .unwrap()
        .iter()
        .map(|v| v.re.clamp(-1.0, 1.0))
        .collect();
    let mut basis = PowerBasis::new(&*s.ctx, &x, 15, true, &s.rlk);
    for i in 1..=15usize {
        let t = basis.get(i).unwrap();
        let depth = (usize::BITS - (i - 1).leading_zeros()) as usize;
        assert_eq!(t.level(), x.level() - depth, "T_{i}");
        let got = s.ctx.decrypt_values(t, &s.sk).unwrap();
        let err = worst_error(
            got.iter()
                .zip(&y)
                .map(|(g, v)| (g.re - (i as f64 * v.acos()).cos()).abs()),
        );
        assert!(err < 1e-6, "T_{i}: {err:e}");
    }
    let raised =
        Evaluator::mul_const_to_scale(&*s.ctx, &x, Complex::from_real(1.0), 2f64.powi(55)).unwrap();
    let mut basis = PowerBasis::new(&*s.ctx, &raised, 3, true, &s.rlk);
    assert!(matches!(basis.get(3), Err(Error::OutOfRange(_))));
}

/// sigmoid on [-8, 8]: 2 / (b - a) = 1/8 is not an integer, so the change of variable takes one
/// level more than ceil(log2(d + 1)).
#[test]
fn ckks_chebyshev_on_a_wide_interval() {
    let mut s = setup(11, 7, Security::InsecureResearchOnly, 24, &[]);
    let n = 64;
    let xs: Vec<Complex> = (0..n)
        .map(|i| Complex::from_real(16.0 * i as f64 / (n - 1) as f64 - 8.0))
        .collect();
    let x = encrypt(&mut s, &xs);
    let sig = |v: f64| 1.0 / (1.0 + (-v).exp());
    let c = chebyshev_coefficients(sig, -8.0, 8.0, 31);
    let p = Polynomial::chebyshev_real(&c, (-8.0, 8.0)).unwrap();
    assert_eq!(levels_needed(&*s.ctx, &p).unwrap(), 6);
    let target = Target::new(1, 2f64.powi(40));
    check_ckks(
        &s,
        &x,
        &xs,
        &p,
        target,
        |v| Complex::from_real(sig(v.re)),
        1e-4,
    );
}

#[test]
fn ckks_refusals() {
    let mut s = setup(10, 3, Security::InsecureResearchOnly, 25, &[]);
    let x = encrypt(&mut s, &[Complex::from_real(0.5)]);
    let ev = &*s.ctx;
    let t = Target::new(0, 2f64.powi(40));
    let p15 = Polynomial::monomial_real(&[0.5; 16]);
    let e = evaluate(ev, &x, &p15, t, &s.rlk).unwrap_err();
    assert!(
        matches!(&e, Error::InvalidParameters(m) if m.contains("needs 4 levels") && m.contains("level 3")),
        "{e}"
    );
    let p3 = Polynomial::monomial_real(&[0.5; 4]);
    let e = evaluate(ev, &x, &p3, Target::new(2, 2f64.powi(40)), &s.rlk).unwrap_err();
    assert!(
        matches!(&e, Error::InvalidParameters(m) if m.contains("levels")),
        "{e}"
    );
    for p in [
        Polynomial::monomial_real(&[1.0]),
        Polynomial::monomial_real(&[]),
        Polynomial::monomial_real(&[2.0, 0.0, 0.0]),
    ] {
        let e = evaluate(ev, &x, &p, t, &s.rlk).unwrap_err();
        assert!(
            matches!(&e, Error::InvalidParameters(m) if m.contains("degree >= 1")),
            "{e}"
        );
    }
    let e = evaluate(ev, &x, &Polynomial::monomial_real(&[0.5; 1026]), t, &s.rlk).unwrap_err();
    assert!(
        matches!(&e, Error::OutOfRange(m) if m.contains("1026")),
        "{e}"
    );
    for bad in [f64::NAN, f64::INFINITY] {
        let p = Polynomial::monomial_real(&[0.5, bad, 1.0]);
        let e = evaluate(ev, &x, &p, t, &s.rlk).unwrap_err();
        assert!(
            matches!(&e, Error::OutOfRange(m) if m.contains("finite")),
            "{e}"
        );
    }
    for scale in [0.0, -1.0, f64::NAN] {
        let e = evaluate(ev, &x, &p3, Target::new(0, scale), &s.rlk).unwrap_err();
        assert!(matches!(&e, Error::InvalidParameters(_)), "{e}");
    }
    assert!(Polynomial::chebyshev_real(&[1.0, 1.0], (1.0, 1.0)).is_err());
}

/// The plaintext model of the integer schemes: p at x mod t, in either basis ([-1, 1]: y = x).
fn model_mod_t(c: &[i64], x: u64, chebyshev: bool, t: u64) -> u64 {
    let t = i128::from(t);
    let x = i128::from(x);
    let (mut acc, mut prev, mut cur) = (0i128, 1i128, x);
    for (i, &ci) in c.iter().enumerate() {
        let b = match i {
            0 => 1,
            1 => x,
            _ if chebyshev => {
                let next = (2 * x * cur - prev).rem_euclid(t);
                prev = cur;
                cur = next;
                cur
            }
            _ => {
                cur = (cur * x).rem_euclid(t);
                cur
            }
        };
        acc = (acc + i128::from(ci) * b).rem_euclid(t);
    }
    acc as u64
}

/// Integer coefficients mod t (some negative, some beyond t) of degree d.
fn int_coefficients(d: usize) -> Vec<i64> {
    (0..=d as i64)
        .map(|i| (i * 4099 % 12289 - 6000) * if i % 3 == 0 { -3 } else { 1 })
        .collect()
}

/// Evaluates the test polynomial of degree d (monomial or Chebyshev) on x (slots `xs`) onto the
/// deepest level it reaches, checks the levels spent and every slot against the model mod t.
fn check_integer<E: Evaluator<Scalar = i64>>(
    e: &E,
    x: &E::Ciphertext,
    xs: &[u64],
    d: usize,
    chebyshev: bool,
    rlk: &E::RelinKey,
    decrypt: impl Fn(&E::Ciphertext) -> Vec<u64>,
) -> E::Ciphertext {
    let c = int_coefficients(d);
    let p = if chebyshev {
        Polynomial::chebyshev(c.clone(), (-1.0, 1.0)).unwrap()
    } else {
        Polynomial::monomial(c.clone())
    };
    assert_eq!(levels_needed(e, &p).unwrap(), e.rescale_levels() * depth(d));
    let target = Target::after(e, x, &p).unwrap();
    let out = evaluate(e, x, &p, target, rlk).unwrap();
    assert_eq!(e.level(&out), target.level, "degree {d}");
    for (i, (&g, &v)) in decrypt(&out).iter().zip(xs).enumerate() {
        assert_eq!(g, model_mod_t(&c, v, chebyshev, T), "degree {d}, slot {i}");
    }
    out
}

#[test]
fn bgv_integer_polynomials_exact_in_log_levels() {
    let p = BgvParameters::builder()
        .degree(2048)
        .plain_modulus(T)
        .moduli_bits(&[55; 8])
        .special_moduli_bits(&[60])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BgvContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([31; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let xs: Vec<u64> = (0..2048u64).map(|i| (i * i * 31 + 7) % T).collect();
    let x = ctx
        .encrypt(&ctx.encode(&xs).unwrap(), &pk, &mut rng)
        .unwrap();
    let top = Evaluator::max_level(&*ctx);
    for (d, chebyshev) in [(5usize, false), (13, true), (63, false), (63, true)] {
        let out = check_integer(&*ctx, &x, &xs, d, chebyshev, &rlk, |c| {
            ctx.decode(&ctx.decrypt(c, &sk).unwrap()).unwrap()
        });
        assert_eq!(out.level(), top - depth(d), "degree {d}");
    }
    // The integer schemes hold scale 1: another target scale is refused.
    let e = evaluate(
        &*ctx,
        &x,
        &Polynomial::monomial(vec![1, 2]),
        Target::new(0, 2.0),
        &rlk,
    )
    .unwrap_err();
    assert!(matches!(e, Error::InvalidParameters(_)), "{e}");
    // ... and a non-integer change of variable.
    let p = Polynomial::chebyshev(vec![1, 2], (-8.0, 8.0)).unwrap();
    assert!(evaluate(&*ctx, &x, &p, Target::new(0, 1.0), &rlk).is_err());
}

#[test]
fn bfv_integer_polynomials_exact() {
    let p = BfvParameters::builder()
        .degree(2048)
        .plain_modulus(T)
        .moduli_bits(&[60; 6])
        .special_moduli_bits(&[60])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BfvContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([32; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let xs: Vec<u64> = (0..2048u64).map(|i| (i * 977 + 3) % T).collect();
    let x = ctx
        .encrypt(&ctx.encode(&xs).unwrap(), &pk, &mut rng)
        .unwrap();
    for (d, chebyshev) in [(6usize, true), (63, false)] {
        check_integer(&*ctx, &x, &xs, d, chebyshev, &rlk, |c| {
            ctx.decode(&ctx.decrypt(c, &sk).unwrap()).unwrap()
        });
    }
    let e = evaluate(
        &*ctx,
        &x,
        &Polynomial::monomial(vec![1, 2]),
        Target::new(1, 1.0),
        &rlk,
    )
    .unwrap_err();
    assert!(matches!(e, Error::InvalidParameters(_)), "{e}");
}

/// HPR through the trait: sums, products, constants and a small polynomial, on coefficient
/// vectors (products are negacyclic).
#[test]
fn hpr_through_the_trait() {
    const N: usize = 32;
    let t = 193;
    let params = HprParameters::new(N, t, 3, 2, 61, 3.2, Security::InsecureResearchOnly).unwrap();
    let ctx = HprContext::new(&params).unwrap();
    let mut rng = Csprng::from_seed([33; 32]);
    let sk = ctx.secret_key(&mut rng).unwrap();
    let pk = ctx.public_key(&sk, &mut rng).unwrap();
    let rlk = ctx
        .relin_key(&sk, Relinearization::PerResidue, &mut rng)
        .unwrap();
    let a: Vec<u64> = (0..N as u64).map(|i| (i * 17 + 5) % t).collect();
    let b: Vec<u64> = (0..N as u64).map(|i| (i * 29 + 1) % t).collect();
    let ca = ctx.encrypt(&pk, &a, &mut rng).unwrap();
    let cb = ctx.encrypt(&pk, &b, &mut rng).unwrap();
    let ev = &*ctx;
    let dec = |c: &rnsfhe::hpr::HprCiphertext| ctx.decrypt(&sk, c).unwrap();
    let negacyclic = |x: &[u64], y: &[u64]| {
        let mut out = vec![0i128; N];
        for i in 0..N {
            for j in 0..N {
                let p = i128::from(x[i]) * i128::from(y[j]);
                if i + j < N {
                    out[i + j] += p;
                } else {
                    out[i + j - N] -= p;
                }
            }
        }
        out.iter()
            .map(|v| v.rem_euclid(i128::from(t)) as u64)
            .collect::<Vec<u64>>()
    };
    let zip = |f: &dyn Fn(u64, u64) -> u64| a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect();
    let want: Vec<u64> = zip(&|x, y| (x + y) % t);
    assert_eq!(dec(&Evaluator::add(ev, &ca, &cb).unwrap()), want);
    let want: Vec<u64> = zip(&|x, y| (x + t - y) % t);
    assert_eq!(dec(&Evaluator::sub(ev, &ca, &cb).unwrap()), want);
    let want: Vec<u64> = a.iter().map(|&x| (t - x) % t).collect();
    assert_eq!(dec(&Evaluator::negate(ev, &ca).unwrap()), want);
    assert_eq!(
        dec(&ev.mul_relin(&ca, &cb, &rlk).unwrap()),
        negacyclic(&a, &b)
    );
    let mut want = a.clone();
    want[0] = (want[0] + t - 4) % t;
    assert_eq!(dec(&Evaluator::add_const(ev, &ca, -4).unwrap()), want);
    let want: Vec<u64> = a.iter().map(|&x| x * 3 % t).collect();
    assert_eq!(dec(&ev.mul_const_to_scale(&ca, 3, 1.0).unwrap()), want);
    // 2 - a + 3 a^2 by the generic evaluator.
    let out = evaluate(
        ev,
        &ca,
        &Polynomial::monomial(vec![2, -1, 3]),
        Target::new(0, 1.0),
        &rlk,
    )
    .unwrap();
    let sq = negacyclic(&a, &a);
    let mut want: Vec<u64> = (0..N).map(|i| (3 * sq[i] + t - a[i]) % t).collect();
    want[0] = (want[0] + 2) % t;
    assert_eq!(dec(&out), want);
    assert!(ev.mul_values_to_scale(&ca, &[1, 2], 1.0).is_err());
}
