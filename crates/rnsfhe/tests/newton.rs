//! 1/x, 1/sqrt(x) and sqrt(x) (`circuits::newton`) against the exact functions on random inputs
//! spread over [2^-10, 1] and at its edges, without a hook (the whole depth in the chain) and with
//! the toy bootstrapper in both orders (refreshed in between, as many times as the plan says); the
//! plain model outside the domain; the refusals.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/ckks.rs"]
mod ckks_support;

use rnsfhe::circuits::bootstrapping::{
    BootstrapHook, Bootstrapper, BootstrappingKeys, BootstrappingOrder,
};
use rnsfhe::circuits::newton::{self, Budget, Function, Plan};
use rnsfhe::ckks::{CkksCiphertext, CkksContext, Complex};
use rnsfhe::eval::Levels;
use rnsfhe::rlwe::{PublicKey, RelinKey, SecretKey};
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

const DOMAIN: (f64, f64) = (1.0 / 1024.0, 1.0);
const FUNCTIONS: [Function; 3] = [Function::Inverse, Function::InvSqrt, Function::Sqrt];

struct Keys {
    ctx: std::sync::Arc<CkksContext>,
    sk: SecretKey,
    pk: PublicKey,
    rlk: RelinKey,
    rng: Csprng,
}

impl Keys {
    /// `x` encrypted at `level` on the chain's scale there.
    fn enc(&mut self, x: &[f64], level: usize) -> CkksCiphertext {
        let z: Vec<Complex> = x.iter().map(|&v| Complex::from_real(v)).collect();
        let pt = self
            .ctx
            .encode_at(&z, level, self.ctx.scale_at(level).unwrap())
            .unwrap();
        self.ctx.encrypt(&pt, &self.pk, &mut self.rng).unwrap()
    }
    fn dec(&self, c: &CkksCiphertext) -> Vec<f64> {
        let v = self.ctx.decrypt_values(c, &self.sk).unwrap();
        v.iter().map(|z| z.re).collect()
    }
}

/// The deep toy context of the test support, with its keys.
fn deep(levels: usize, seed: u8) -> Keys {
    let s = ckks_support::deep(levels, seed);
    Keys {
        ctx: s.ctx,
        sk: s.sk,
        pk: s.pk,
        rlk: s.rlk,
        rng: s.rng,
    }
}

/// `n` inputs log-uniform over [lo, hi], the edges lo and hi first.
fn inputs(rng: &mut Csprng, n: usize, (lo, hi): (f64, f64)) -> Vec<f64> {
    let mut x: Vec<f64> = (0..n)
        .map(|_| {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            lo * (hi / lo).powf(u)
        })
        .collect();
    x[0] = lo;
    x[1] = hi;
    x
}

/// The worst relative error |got / f(x) - 1| (NaN counts as infinite).
fn worst_relative(f: Function, x: &[f64], got: &[f64]) -> f64 {
    x.iter().zip(got).fold(0.0, |w, (&v, &g)| {
        let e = (g / f.exact(v) - 1.0).abs();
        if e.is_finite() {
            w.max(e)
        } else {
            f64::INFINITY
        }
    })
}

/// Whether every slot is within `bound` plus what the scheme's noise makes of it: an error `noise`
/// on x moves 1/x by noise / x relatively (the roots by half that), and the evaluation's own noise:
/// the iterates' (about 2^-20 relative to w near hi) meets the approximation error in the final
/// step's square, and a polynomial of degree 127 alone (the 20-bit plans) carries its basis's
/// rescale and key-switching noise, which T_i amplifies by up to i^2 at the domain's top: 2^-22 for
/// that (measured over the key seeds 41 to 48 of `every_function_without_a_hook`: the roots' worst
/// slot, near hi, needs up to 2.1 times 2^-24).
fn within(f: Function, x: &[f64], got: &[f64], bound: f64, noise: f64) -> Result<(), String> {
    for (&v, &g) in x.iter().zip(got) {
        let e = (g / f.exact(v) - 1.0).abs();
        let allowed = bound + noise / v + 2f64.powi(-22);
        if e.is_nan() || e > allowed {
            return Err(format!(
                "{f:?} at {v}: {g}, relative error {e:e} > {allowed:e}"
            ));
        }
    }
    Ok(())
}

/// max |dec(c) - x|: the input's noise, measured.
fn noise(k: &Keys, c: &CkksCiphertext, x: &[f64]) -> f64 {
    let d = k.dec(c);
    x.iter().zip(&d).fold(0.0, |m, (a, b)| m.max((a - b).abs()))
}

#[test]
fn every_function_without_a_hook() {
    let mut k = deep(20, 41);
    let n = k.ctx.slots();
    let x = inputs(&mut k.rng, n, DOMAIN);
    let top = k.ctx.max_level();
    let c = k.enc(&x, top);
    let eta = noise(&k, &c, &x);
    for f in FUNCTIONS {
        for bits in [12.0, 20.0] {
            let levels = Levels::new(&*k.ctx);
            let plan = newton::plan_for(&levels, &c, f, DOMAIN, bits).unwrap();
            let out = newton::evaluate(&levels, &c, &plan, &k.rlk).unwrap();
            assert_eq!(
                out.level(),
                top - plan.depth(),
                "{f:?}: the depth it states"
            );
            assert_eq!(levels.refreshes(), 0);
            let got = k.dec(&out);
            let err = worst_relative(f, &x, &got);
            println!(
                "{f:?} {bits} bits: degree {}, e0 {:.3e}, {} iterations, depth {}, bound \
                 2^{:.1}, measured 2^{:.1}",
                plan.degree(),
                plan.initial_error(),
                plan.iterations(),
                plan.depth(),
                plan.bound().log2(),
                err.log2()
            );
            assert!(plan.bound() <= (-bits).exp2());
            within(f, &x, &got, plan.bound(), eta).unwrap();
        }
    }
    // The module example's function name and the wrappers agree with evaluate.
    let levels = Levels::new(&*k.ctx);
    let got = k.dec(&newton::sqrt(&levels, &c, DOMAIN, 20.0, &k.rlk).unwrap());
    within(Function::Sqrt, &x, &got, 2f64.powi(-20), eta).unwrap();
}

#[test]
fn other_domains_and_inputs_outside() {
    let mut k = deep(20, 42);
    let n = k.ctx.slots();
    // A domain above 1 (no refresh: x itself is not bootstrapped) and one whose 2 / (hi - lo)
    // is an integer (no level for the change of variable).
    for domain in [(1.0, 100.0), (0.25, 2.25)] {
        let x = inputs(&mut k.rng, n, domain);
        let c = k.enc(&x, k.ctx.max_level());
        for f in FUNCTIONS {
            let levels = Levels::new(&*k.ctx);
            let plan = newton::plan_for(&levels, &c, f, domain, 24.0).unwrap();
            let out = newton::evaluate(&levels, &c, &plan, &k.rlk).unwrap();
            assert_eq!(out.level(), k.ctx.max_level() - plan.depth());
            let err = worst_relative(f, &x, &k.dec(&out));
            assert!(
                err < 2f64.powi(-20),
                "{f:?} on {domain:?}: 2^{}",
                err.log2()
            );
        }
    }
    // Just outside [lo, hi]: the model's value (Plan::value), converging more slowly.
    let (lo, hi) = DOMAIN;
    let near = [hi + lo / 2.0, hi * 1.0002, lo * 0.95, lo * 0.8];
    let mut x = vec![0.5; n];
    x[..4].copy_from_slice(&near);
    let c = k.enc(&x, k.ctx.max_level());
    for f in FUNCTIONS {
        let levels = Levels::new(&*k.ctx);
        let plan = newton::plan_for(&levels, &c, f, DOMAIN, 20.0).unwrap();
        let got = k.dec(&newton::evaluate(&levels, &c, &plan, &k.rlk).unwrap());
        for (i, &v) in near.iter().enumerate() {
            let model = plan.value(v);
            assert!(
                (got[i] / model - 1.0).abs() < 2f64.powi(-14),
                "{f:?} at {v}: {} vs model {model}",
                got[i]
            );
            println!("{f:?} at {v}: relative error {:.2e}", plan.error_at(v));
        }
    }
    // Far outside, the initial polynomial grows as T_n does: values unrelated to the function, and
    // past the modulus they wreck the other slots too.
    let mut x = vec![0.5; n];
    x[0] = 3.0;
    x[1] = -0.5;
    let c = k.enc(&x, k.ctx.max_level());
    for f in FUNCTIONS {
        let levels = Levels::new(&*k.ctx);
        let plan = newton::plan_for(&levels, &c, f, DOMAIN, 20.0).unwrap();
        let got = k.dec(&newton::evaluate(&levels, &c, &plan, &k.rlk).unwrap());
        let bad = (got[0] / f.exact(3.0) - 1.0).abs();
        assert!(bad.is_nan() || bad >= 0.1, "{f:?} at 3: {}", got[0]);
        assert!(plan.error_at(3.0) > 0.1 && plan.error_at(-0.5).is_infinite());
    }
}

#[test]
fn refusals() {
    let mut k = deep(8, 43);
    let c = k.enc(&[0.5], k.ctx.max_level());
    let levels = Levels::new(&*k.ctx);
    match newton::inverse(&levels, &c, DOMAIN, 20.0, &k.rlk) {
        Err(Error::LevelsExhausted { op, .. }) => assert!(op.contains("bootstrapper"), "{op}"),
        other => panic!("expected LevelsExhausted, got {other:?}"),
    }
    for bad in [
        (0.0, 1.0),
        (0.5, 0.25),
        (f64::NAN, 1.0),
        (0.5, f64::INFINITY),
    ] {
        assert!(matches!(
            newton::sqrt(&levels, &c, bad, 10.0, &k.rlk),
            Err(Error::InvalidParameters(_))
        ));
    }
    assert!(matches!(
        newton::inv_sqrt(&levels, &c, DOMAIN, 0.0, &k.rlk),
        Err(Error::InvalidParameters(_))
    ));
    // A window too small for the final Newton step.
    assert!(matches!(
        Plan::new(Function::Inverse, DOMAIN, 20.0, Budget::Window(2)),
        Err(Error::LevelsExhausted { .. })
    ));
}

struct Booted {
    keys: Keys,
    boot: Bootstrapper,
    bk: BootstrappingKeys,
}

/// The test support's toy bootstrap.
fn booted(order: BootstrappingOrder, residual: usize, seed: u8) -> Booted {
    let t = ckks_support::toy_boot(order, residual, seed);
    let rlk = t.keys.relin_key().unwrap().as_ref().clone();
    Booted {
        keys: Keys {
            ctx: t.ctx,
            sk: t.sk,
            pk: t.pk,
            rlk,
            rng: t.rng,
        },
        boot: t.boot,
        bk: t.keys,
    }
}

#[test]
fn the_hook_bootstraps_in_between() {
    for order in [
        BootstrappingOrder::CoeffsToSlotsFirst,
        BootstrappingOrder::SlotsToCoeffsFirst,
    ] {
        let mut b = booted(order, 6, 44);
        let ctx = b.keys.ctx.clone();
        let hook = BootstrapHook::new(&b.boot, &b.bk);
        let n = ctx.slots();
        let x = inputs(&mut b.keys.rng, n, DOMAIN);
        // Encrypted at the top of the chain: dropped to the bootstrap's output level first.
        let c = b.keys.enc(&x, ctx.max_level());
        for f in FUNCTIONS {
            let levels = Levels::with_refresh(&*ctx, &hook);
            let plan = newton::plan_for(&levels, &c, f, DOMAIN, 20.0).unwrap();
            let window = levels.most_spendable();
            assert!(plan.depth() > window, "{f:?}: deeper than one window");
            let out = newton::evaluate(&levels, &c, &plan, &b.keys.rlk).unwrap();
            let expected = plan.refreshes(window, window);
            assert_eq!(levels.refreshes(), expected, "{order:?} {f:?}");
            assert!(expected >= 1);
            let err = worst_relative(f, &x, &b.keys.dec(&out));
            println!(
                "{order:?} {f:?}: window {window}, degree {}, {} iterations, depth {}, {} \
                 bootstraps, measured 2^{:.1}",
                plan.degree(),
                plan.iterations(),
                plan.depth(),
                expected,
                err.log2()
            );
            assert!(err < 2f64.powi(-14), "{order:?} {f:?}: 2^{}", err.log2());
        }
        // An input at the bootstrap's input level is refreshed first (once more).
        let low = b.keys.enc(&x, b.boot.input_level());
        let levels = Levels::with_refresh(&*ctx, &hook);
        let plan = newton::plan_for(&levels, &low, Function::Inverse, DOMAIN, 20.0).unwrap();
        let out = newton::evaluate(&levels, &low, &plan, &b.keys.rlk).unwrap();
        let window = levels.most_spendable();
        assert_eq!(levels.refreshes(), plan.refreshes(0, window));
        let err = worst_relative(Function::Inverse, &x, &b.keys.dec(&out));
        assert!(
            err < 2f64.powi(-8),
            "{order:?} refreshed input: 2^{}",
            err.log2()
        );
        // A domain above 1 cannot refresh x.
        assert!(matches!(
            newton::inverse(&levels, &low, (0.5, 2.0), 20.0, &b.keys.rlk),
            Err(Error::InvalidParameters(_))
        ));
    }
}
