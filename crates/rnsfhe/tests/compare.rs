//! Comparisons (`circuits::compare`) against plain models: every function on random inputs and at
//! the edges of its domain, through a composite that does not come from the Remez tables (Cheon,
//! Kim, Kim, Lee and Lee's f_3 = (35 x - 35 x^3 + 21 x^5 - 5 x^7) / 16, ASIACRYPT 2020, composed
//! with itself), so that the evaluation is checked apart from the approximation; the level hook
//! with and without a bootstrapper; the refusals.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/ckks.rs"]
mod ckks_support;
#[path = "support/worst.rs"]
mod worst;

use rnsfhe::circuits::bootstrapping::{
    BootstrapHook, Bootstrapper, BootstrappingKeys, BootstrappingOrder,
};
use rnsfhe::circuits::chebyshev_coefficients;
use rnsfhe::circuits::compare::{slots::max_steps, Comparator, Component, Composite};
use rnsfhe::ckks::{CkksCiphertext, CkksContext, Complex};
use rnsfhe::eval::Levels;
use rnsfhe::params::Security;
use rnsfhe::rlwe::{PublicKey, SecretKey};
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

/// f_3 composed `times` times, as Chebyshev series on [-1, 1].
fn cheon(times: usize) -> Composite {
    let f3 = |x: f64| (35.0 * x - 35.0 * x.powi(3) + 21.0 * x.powi(5) - 5.0 * x.powi(7)) / 16.0;
    let c = chebyshev_coefficients(f3, -1.0, 1.0, 7);
    let part = Component {
        chebyshev: c,
        radius: 1.0,
    };
    Composite::new(vec![part; times]).unwrap()
}

/// Worst |got - want| over the real parts (fails on NaN, infinity and a length mismatch).
fn worst(got: &[Complex], want: &[f64]) -> f64 {
    assert_eq!(got.len(), want.len(), "slot counts differ");
    worst::worst_error(got.iter().zip(want).map(|(g, v)| (g.re - v).abs()))
}

/// Values uniform in [-b, b] with |x| >= gap (when gap > 0), deterministic.
fn uniform(rng: &mut Csprng, n: usize, b: f64, gap: f64) -> Vec<f64> {
    (0..n)
        .map(|_| loop {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let x = (2.0 * u - 1.0) * b;
            if x.abs() >= gap {
                break x;
            }
        })
        .collect()
}

/// A deep toy context with its keys: `x` encrypted, and decrypted back.
struct Plain(ckks_support::Setup);

impl Plain {
    fn new(levels: usize, seed: u8) -> Self {
        Plain(ckks_support::deep(levels, seed))
    }
    fn enc(&mut self, x: &[f64]) -> CkksCiphertext {
        let pt = self.0.ctx.encode_real(x).unwrap();
        self.0
            .ctx
            .encrypt(&pt, &self.0.pk, &mut self.0.rng)
            .unwrap()
    }
    fn dec(&self, c: &CkksCiphertext) -> Vec<Complex> {
        self.0.ctx.decrypt_values(c, &self.0.sk).unwrap()
    }
}

#[test]
fn every_function_against_its_plain_model() {
    let mut p = Plain::new(24, 31);
    let (rlk, n) = (p.0.rlk.clone(), 2048);
    let sign = cheon(6);
    let ctx = p.0.ctx.clone();
    let levels = Levels::new(&*ctx);
    let cmp = Comparator::new(&levels, &rlk, &sign);
    let model = |x: f64| sign.value_on(x, 1.0);
    // Decided inputs (|x| >= 1/8) and edge inputs: +-1, +-1/8 and values near 0.
    let mut x = uniform(&mut p.0.rng, n, 1.0, 0.125);
    x[..6].copy_from_slice(&[1.0, -1.0, 0.125, -0.125, 1e-3, -1e-3]);
    let y = uniform(&mut p.0.rng, n, 1.0, 0.0);
    let (cx, cy) = (p.enc(&x), p.enc(&y));
    // The scheme's error times the composite's slope near 0 (35/16 per f_3, 2^6.8 for six).
    let tol = 5e-4;

    let got = p.dec(&cmp.sign(&cx, 1.0).unwrap());
    let want: Vec<f64> = x.iter().map(|&v| model(v)).collect();
    assert!(worst(&got, &want) < tol, "sign {}", worst(&got, &want));
    // The composite decides |x| >= 1/8 (the plain model, then the true sign).
    let decided: Vec<f64> = x.iter().map(|v| v.signum()).collect();
    assert!(worst(&got[6..], &decided[6..]) < 0.01);

    let got = p.dec(&cmp.step(&cx, 1.0).unwrap());
    let want: Vec<f64> = x.iter().map(|&v| 0.5 * model(v) + 0.5).collect();
    assert!(worst(&got, &want) < tol, "step");

    let got = p.dec(&cmp.abs(&cx, 1.0).unwrap());
    let want: Vec<f64> = x.iter().map(|&v| v * model(v)).collect();
    assert!(worst(&got, &want) < tol, "abs");

    let got = p.dec(&cmp.relu(&cx, 1.0).unwrap());
    let want: Vec<f64> = x.iter().map(|&v| v * (0.5 * model(v) + 0.5)).collect();
    assert!(worst(&got, &want) < tol, "relu");

    // Two inputs: decided on (a - b) / 2.
    let step2 = |d: f64| 0.5 * sign.value_on(d, 2.0) + 0.5;
    let got = p.dec(&cmp.greater(&cx, &cy, 1.0).unwrap());
    let want: Vec<f64> = x.iter().zip(&y).map(|(a, b)| step2(a - b)).collect();
    assert!(worst(&got, &want) < tol, "greater");
    let got = p.dec(&cmp.less(&cx, &cy, 1.0).unwrap());
    let want: Vec<f64> = x.iter().zip(&y).map(|(a, b)| step2(b - a)).collect();
    assert!(worst(&got, &want) < tol, "less");

    let got = p.dec(&cmp.max(&cx, &cy, 1.0).unwrap());
    let want: Vec<f64> = x
        .iter()
        .zip(&y)
        .map(|(a, b)| b + (a - b) * step2(a - b))
        .collect();
    assert!(worst(&got, &want) < tol, "max");
    // Against the true max: within 2 alpha B = 1/4 everywhere, and close where decided.
    let exact: Vec<f64> = x.iter().zip(&y).map(|(a, b)| a.max(*b)).collect();
    assert!(worst(&got, &exact) < 0.25);

    let got = p.dec(&cmp.min(&cx, &cy, 1.0).unwrap());
    let want: Vec<f64> = x
        .iter()
        .zip(&y)
        .map(|(a, b)| a - (a - b) * step2(a - b))
        .collect();
    assert!(worst(&got, &want) < tol, "min");

    let got = p.dec(&cmp.clip(&cx, -0.5, 0.25, 1.0).unwrap());
    let relu2 = |d: f64| d * step2(d);
    let want: Vec<f64> = x
        .iter()
        .map(|&v| -0.5 + relu2(v + 0.5) - relu2(v - 0.25))
        .collect();
    assert!(worst(&got, &want) < tol, "clip");
}

#[test]
fn wider_bounds_scale_the_inputs() {
    let mut p = Plain::new(24, 32);
    let (rlk, n) = (p.0.rlk.clone(), 2048);
    let sign = cheon(5);
    let ctx = p.0.ctx.clone();
    let levels = Levels::new(&*ctx);
    let cmp = Comparator::new(&levels, &rlk, &sign);
    // Values in [-100, 100]: sign decided for |x| >= 12.5.
    let x = uniform(&mut p.0.rng, n, 100.0, 12.5);
    let c = p.enc(&x);
    let got = p.dec(&cmp.sign(&c, 100.0).unwrap());
    let want: Vec<f64> = x.iter().map(|&v| sign.value_on(v, 100.0)).collect();
    assert!(worst(&got, &want) < 1e-4);
}

#[test]
fn too_few_levels_without_a_hook_says_so() {
    let s = ckks_support::setup(11, 8, Security::InsecureResearchOnly, 33, &[]);
    let sign = cheon(4); // 12 levels
    let levels = Levels::new(&*s.ctx);
    let cmp = Comparator::new(&levels, &s.rlk, &sign);
    let mut rng = s.rng;
    let c = s
        .ctx
        .encrypt(&s.ctx.encode_real(&[0.5]).unwrap(), &s.pk, &mut rng)
        .unwrap();
    match cmp.sign(&c, 1.0) {
        Err(Error::LevelsExhausted { op, .. }) => {
            assert!(op.contains("component 3 of 4"), "{op}");
            assert!(op.contains("bootstrapper"), "{op}");
        }
        other => panic!("expected LevelsExhausted, got {other:?}"),
    }
    assert!(matches!(
        cmp.sign(&c, f64::NAN),
        Err(Error::InvalidParameters(_))
    ));
    assert!(matches!(
        cmp.clip(&c, 0.5, 0.25, 1.0),
        Err(Error::InvalidParameters(_))
    ));
    assert!(Composite::new(vec![]).is_err());
    assert!(Composite::new(vec![Component {
        chebyshev: vec![0.0, f64::INFINITY],
        radius: 1.0
    }])
    .is_err());
}

struct Booted {
    ctx: std::sync::Arc<CkksContext>,
    boot: Bootstrapper,
    sk: SecretKey,
    pk: PublicKey,
    keys: BootstrappingKeys,
    rng: std::cell::RefCell<Csprng>,
}

/// The test support's toy bootstrap.
fn booted(order: BootstrappingOrder, residual: usize, seed: u8) -> Booted {
    let t = ckks_support::toy_boot(order, residual, seed);
    Booted {
        ctx: t.ctx,
        boot: t.boot,
        sk: t.sk,
        pk: t.pk,
        keys: t.keys,
        rng: t.rng.into(),
    }
}

impl Booted {
    /// `x` encrypted at the bootstrap's output level.
    fn enc(&self, x: &[f64]) -> CkksCiphertext {
        let start = self.boot.output_level();
        let z: Vec<Complex> = x.iter().map(|&v| Complex::from_real(v)).collect();
        let pt = self
            .ctx
            .encode_at(&z, start, self.ctx.scale_at(start).unwrap());
        let mut rng = self.rng.borrow_mut();
        self.ctx.encrypt(&pt.unwrap(), &self.pk, &mut rng).unwrap()
    }
}

#[test]
fn the_hook_bootstraps_between_components() {
    for order in [
        BootstrappingOrder::CoeffsToSlotsFirst,
        BootstrappingOrder::SlotsToCoeffsFirst,
    ] {
        let b = booted(order, 4, 35);
        let (ctx, boot, keys) = (b.ctx.clone(), &b.boot, &b.keys);
        let rlk = keys.relin_key().unwrap().clone();
        let hook = BootstrapHook::new(boot, keys);
        let levels = Levels::with_refresh(&*ctx, &hook);
        // Deeper than a bootstrap's output: refreshed in between.
        let sign = cheon(5);
        let depth = sign.depth(&ctx).unwrap();
        assert!(depth > levels.most_spendable(), "{depth}");
        let cmp = Comparator::new(&levels, &rlk, &sign);
        let x = uniform(&mut b.rng.borrow_mut(), ctx.slots(), 1.0, 0.1);
        let c = b.enc(&x);
        let out = cmp.relu(&c, 1.0).unwrap();
        assert!(cmp.levels().refreshes() >= 1, "{order:?}");
        assert!(out.level() >= boot.input_level());
        let got = ctx.decrypt_values(&out, &b.sk).unwrap();
        let want: Vec<f64> = x
            .iter()
            .map(|&v| v * (0.5 * sign.value_on(v, 1.0) + 0.5))
            .collect();
        assert!(
            worst(&got, &want) < 1e-3,
            "{order:?}: {}",
            worst(&got, &want)
        );
    }
}

/// The plain model of the slot circuits for a composite P on inputs in [-1, 1]: the same
/// formulas in f64, slot by slot.
struct SlotModel<'a>(&'a Composite);

impl SlotModel<'_> {
    fn step2(&self, d: f64) -> f64 {
        0.5 * self.0.value_on(d, 2.0) + 0.5
    }
    fn max(&self, a: f64, b: f64) -> f64 {
        b + (a - b) * self.step2(a - b)
    }
    fn max_slots(&self, x: &[f64], block: usize) -> Vec<f64> {
        let n = x.len();
        let mut m = x.to_vec();
        let mut s = 1;
        while s < block {
            m = (0..n).map(|i| self.max(m[i], m[(i + s) % n])).collect();
            s *= 2;
        }
        if block == n {
            return m; // cyclic: each slot its own window
        }
        (0..n).map(|i| m[i - i % block]).collect()
    }
    fn argmax(&self, x: &[f64], m: &[f64], gap: f64) -> Vec<f64> {
        x.iter()
            .zip(m)
            .map(|(v, m)| self.step2(v - m + gap / 2.0))
            .collect()
    }
}

#[test]
fn slot_max_argmax_and_top_k() {
    let s = booted(BootstrappingOrder::CoeffsToSlotsFirst, 12, 34);
    let slots = s.ctx.slots();
    let mut steps = max_steps(8, slots);
    steps.extend(max_steps(slots, slots));
    let gk = s
        .ctx
        .galois_keys(&s.sk, &steps, false, &mut s.rng.borrow_mut())
        .unwrap();
    let rlk = s.keys.relin_key().unwrap().clone();
    let hook = BootstrapHook::new(&s.boot, &s.keys);
    let sign = cheon(4);
    let model = SlotModel(&sign);
    let levels = Levels::with_refresh(&*s.ctx, &hook);
    let cmp = Comparator::new(&levels, &rlk, &sign);
    // Blocks of 8: distinct values 1/8 apart in [-7/16, 7/16].
    let mut x = vec![0.0; slots];
    for (b, block) in x.chunks_mut(8).enumerate() {
        for (i, v) in block.iter_mut().enumerate() {
            *v = (((i * 5 + b * 3) % 8) as f64 - 3.5) / 8.0;
        }
    }
    let c = s.enc(&x);
    assert_eq!(c.slots(), slots);
    let dec = |c: &CkksCiphertext| s.ctx.decrypt_values(c, &s.sk).unwrap();
    let tol = 1e-3;

    let m = dec(&cmp.max_slots(&c, 8, 1.0, &gk).unwrap());
    let want_m = model.max_slots(&x, 8);
    assert!(worst(&m, &want_m) < tol, "max {}", worst(&m, &want_m));
    let exact: Vec<f64> = x
        .chunks(8)
        .flat_map(|b| [b.iter().copied().fold(f64::MIN, f64::max); 8])
        .collect();
    assert!(
        worst(&m, &exact) < 0.05,
        "max vs exact {}",
        worst(&m, &exact)
    );

    let mask = dec(&cmp.argmax(&c, 8, 0.125, 1.0, &gk).unwrap());
    let want = model.argmax(&x, &want_m, 0.125);
    assert!(worst(&mask, &want) < tol, "argmax {}", worst(&mask, &want));
    let onehot: Vec<f64> = x
        .iter()
        .zip(&exact)
        .map(|(v, m)| f64::from(u8::from(v == m)))
        .collect();
    // Rounded, the mask is the one-hot argmax (this composite decides 1/32 only loosely).
    let rounded: Vec<f64> = mask.iter().map(|m| m.re.round()).collect();
    assert_eq!(rounded, onehot);

    let top = cmp.top_k(&c, 2, 8, 0.125, 1.0, &gk).unwrap();
    assert_eq!(top.len(), 2);
    let rest: Vec<f64> = x
        .iter()
        .zip(&want)
        .map(|(v, k)| v - k * (v + 1.0))
        .collect();
    let second = model.max_slots(&rest, 8);
    assert!(worst(&dec(&top[0].0), &want_m) < tol);
    assert!(worst(&dec(&top[1].0), &second) < tol, "second");

    // The whole ciphertext as one block: cyclic, every slot holds the maximum.
    let m = dec(&cmp.max_slots(&c, slots, 1.0, &gk).unwrap());
    let want_all = model.max_slots(&x, slots);
    assert!(
        worst(&m, &want_all) < tol,
        "cyclic max {}",
        worst(&m, &want_all)
    );
    assert!(worst(&m, &vec![7.0 / 16.0; slots]) < 0.05);
    assert!(matches!(
        cmp.max_slots(&c, 12, 1.0, &gk),
        Err(Error::InvalidParameters(_))
    ));
}

#[test]
fn minimax_sign_from_the_tables() {
    // alpha 2^-8 at error 2^-20 (depth 12) on the levels alone, against the plain model and sign.
    let mut p = Plain::new(24, 36);
    let (rlk, n) = (p.0.rlk.clone(), 2048);
    let sign = Composite::sign(8, 20).unwrap();
    assert_eq!(sign.depth(&p.0.ctx).unwrap(), 12 + 3); // and one level for x / (1 + 2^-10)
    let ctx = p.0.ctx.clone();
    let levels = Levels::new(&*ctx);
    let cmp = Comparator::new(&levels, &rlk, &sign);
    let a = 2f64.powi(-8);
    let mut x = uniform(&mut p.0.rng, n, 1.0, a);
    x[..4].copy_from_slice(&[a, -a, 1.0, -1.0]);
    let c = p.enc(&x);
    let got = p.dec(&cmp.sign(&c, 1.0).unwrap());
    let model: Vec<f64> = x.iter().map(|&v| sign.value_on(v, 1.0)).collect();
    assert!(worst(&got, &model) < 1e-4, "{}", worst(&got, &model));
    let exact: Vec<f64> = x.iter().map(|v| v.signum()).collect();
    assert!(
        worst(&got, &exact) < 2f64.powi(-19),
        "{}",
        worst(&got, &exact).log2()
    );
}

#[test]
fn sharpening_is_f3_and_quadruples_the_bits() {
    let plain = Composite::new(vec![Component {
        chebyshev: vec![0.0, 1.0],
        radius: 1.0,
    }])
    .unwrap()
    .sharpened();
    for x in [-1.0, -0.7, -0.1, 0.0, 0.3, 0.9, 1.0] {
        let f3 = (35.0 * x - 35.0 * f64::powi(x, 3) + 21.0 * f64::powi(x, 5)
            - 5.0 * f64::powi(x, 7))
            / 16.0;
        assert!((plain.value(x) - f3).abs() < 1e-15, "{x}");
    }
    let e = 2f64.powi(-10);
    assert!(1.0 - plain.value(1.0 - e) < 2f64.powi(-34));
}

/// What inputs outside [-bound, bound] get (the module doc): the composite read on
/// [-(1 + 2^-10), 1 + 2^-10] decides the bound plus the scheme's error; beyond its interval a
/// minimax polynomial leaves +-1 fast (2^-12 outside, the sign flips; further, it explodes).
#[test]
fn outside_the_domain() {
    let sign = Composite::sign(12, 20).unwrap();
    for x in [1.0, 1.0 + 2f64.powi(-20), 1.0 + 2f64.powi(-11)] {
        for x in [x, -x] {
            let e = (sign.value_on(x, 1.0) - x.signum()).abs();
            assert!(e < 2f64.powi(-20), "{x}: {e:e}");
        }
    }
    // The composite itself, just outside [-1, 1]: wrong, then not a number.
    assert!((sign.value(1.0 + 2f64.powi(-12)) - 1.0).abs() > 1.0);
    assert!(!sign.value(1.5).is_finite() || sign.value(1.5).abs() > 1e6);
    // Inside the gap: odd, of x's sign, within [-1, 1].
    for x in [1e-6, 1e-5, 2f64.powi(-13)] {
        let v = sign.value_on(x, 1.0);
        assert!(v > 0.0 && v <= 1.0 + 2f64.powi(-20), "{x}: {v}");
        assert!((sign.value_on(-x, 1.0) + v).abs() < 1e-12);
    }
}
