//! CKKS values that must not wrap or lose precision silently: the level's
//! coefficient bound at encoding and constant addition, scales that lose the message, exact decoding
//! of large values, one exact scale for sums (`align`, variance), and slot sums over fewer slots.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::circuits;
use rnsfhe::ckks::{CkksCiphertext, Complex};
use rnsfhe::params::Security;
use rnsfhe::Error;

#[path = "support/ckks.rs"]
mod ckks_support;
use ckks_support::Setup;

/// An insecure toy context (seed 7) with power-of-two rotation keys.
fn setup(log_n: u32, levels: usize) -> Setup {
    let steps: Vec<i64> = (0..log_n - 1).map(|i| 1i64 << i).collect();
    ckks_support::setup(log_n, levels, Security::InsecureResearchOnly, 7, &steps)
}

impl Setup {
    fn enc(&mut self, x: &[f64]) -> CkksCiphertext {
        let pt = self.ctx.encode_real(x).unwrap();
        self.ctx.encrypt(&pt, &self.pk, &mut self.rng).unwrap()
    }
    fn dec(&self, c: &CkksCiphertext) -> Vec<f64> {
        let v = self.ctx.decrypt_values(c, &self.sk).unwrap();
        v.iter().map(|z| z.re).collect()
    }
}

fn real(x: &[f64]) -> Vec<Complex> {
    x.iter().map(|&v| Complex::from_real(v)).collect()
}

/// The issue's `decode(encode(full(2^25), level=0))`: refused with the level's largest value, while
/// values under that bound decode exactly.
#[test]
fn encoding_beyond_the_level_modulus_is_refused() {
    let s = setup(10, 3);
    let ctx = &s.ctx;
    let delta = ctx.params().scale();
    let e = ctx
        .encode_at(&real(&vec![2f64.powi(25); 512]), 0, delta)
        .unwrap_err();
    assert!(
        matches!(&e, Error::OutOfRange(m) if m.contains("holds values up to")),
        "{e}"
    );
    let q0 = ctx.params().moduli()[0] as f64;
    let fits = q0 / 8.0 / delta;
    let pt = ctx.encode_at(&real(&[fits, -fits]), 0, delta).unwrap();
    let back = ctx.decode(&pt).unwrap();
    assert!((back[0].re / fits - 1.0).abs() < 1e-9, "{:?}", back[0]);
    assert!((back[1].re / fits + 1.0).abs() < 1e-9, "{:?}", back[1]);
}

/// Values far above scale 2^40 but below the level's bound decode exactly (the decoder's few-prime
/// lift is checked against every prime of the level).
#[test]
fn large_values_at_a_high_level_decode_exactly() {
    let s = setup(10, 3);
    let ctx = &s.ctx;
    let big = 2f64.powi(70);
    let pt = ctx
        .encode_at(&real(&[big, -big / 3.0]), 3, 2f64.powi(40))
        .unwrap();
    let back = ctx.decode(&pt).unwrap();
    assert!(
        (back[0] - Complex::from_real(big)).abs() / big < 1e-12,
        "{:?}",
        back[0]
    );
    assert!(
        (back[1] - Complex::from_real(-big / 3.0)).abs() / big < 1e-12,
        "{:?}",
        back[1]
    );
}

/// The issue's `drop_to_level(encrypt([0.5]), 0) + 2^20`: refused instead of decrypting to 0.5.
#[test]
fn constant_addition_beyond_the_level_bound_is_refused() {
    let mut s = setup(10, 2);
    let c = s.enc(&[0.5]);
    let low = s.ctx.drop_to_level(&c, 0).unwrap();
    let e = s.ctx.add_const(&low, 2f64.powi(20)).unwrap_err();
    assert!(
        matches!(&e, Error::OutOfRange(m) if m.contains("level 0")),
        "{e}"
    );
    let ok = s.ctx.add_const(&low, 1000.0).unwrap();
    assert!((s.dec(&ok)[0] - 1000.5).abs() < 1e-4);
}

/// Scales that lose the message: below 1, or rounding every value to 0.
#[test]
fn scales_that_lose_the_message_are_refused() {
    let s = setup(10, 2);
    let ctx = &s.ctx;
    assert!(matches!(
        ctx.encode_at(&real(&[0.5, 0.25]), 2, 1e-300),
        Err(Error::OutOfRange(_))
    ));
    let e = ctx
        .encode_at(&real(&[1e-20]), 2, 2f64.powi(40))
        .unwrap_err();
    assert!(
        matches!(&e, Error::OutOfRange(m) if m.contains("round to 0")),
        "{e}"
    );
    // Zeros are a message of their own, and scale 1 keeps values to within rounding.
    assert!(ctx.encode_at(&real(&[0.0; 4]), 2, 1.0).is_ok());
    let pt = ctx.encode_at(&real(&[3000.0, -5000.0]), 2, 1.0).unwrap();
    let back = ctx.decode(&pt).unwrap();
    assert!((back[0].re - 3000.0).abs() < 2.0 && (back[1].re + 5000.0).abs() < 2.0);
}

/// `sum_slots` and `mean` over fewer slots than the ciphertext holds put the result in every slot,
/// as documented.
#[test]
fn slot_sums_over_part_of_the_slots_fill_every_slot() {
    let mut s = setup(10, 3);
    let x: Vec<f64> = (0..16).map(|i| (i as f64 - 7.0) / 10.0).collect();
    let c = s.enc(&x);
    let sum4: f64 = x[..4].iter().sum();
    let got = s.dec(&circuits::sum_slots(&s.ctx, &c, 4, &s.gk).unwrap());
    assert_eq!(got.len(), 16);
    for (i, g) in got.iter().enumerate() {
        assert!((g - sum4).abs() < 1e-6, "slot {i}: {g} vs {sum4}");
    }
    let got = s.dec(&circuits::mean(&s.ctx, &c, 8, &s.gk).unwrap());
    let mean8: f64 = x[..8].iter().sum::<f64>() / 8.0;
    for (i, g) in got.iter().enumerate() {
        assert!((g - mean8).abs() < 1e-6, "slot {i}: {g} vs {mean8}");
    }
}

/// The variance of 0.9 + 0.01 u (u uniform in [-1, 1)): E[x^2] and E[x]^2 cancel 15 bits, so a
/// scale difference between them shows as a large relative error.
#[test]
fn variance_of_a_small_spread_keeps_its_precision() {
    let mut s = setup(12, 4);
    let n = s.ctx.slots();
    let x: Vec<f64> = (0..n)
        .map(|i| 0.9 + 0.01 * (((i * 7919) % n) as f64 / n as f64 * 2.0 - 1.0))
        .collect();
    let mean = x.iter().sum::<f64>() / n as f64;
    let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n as f64;
    let c = s.enc(&x);
    let got = s.dec(&circuits::variance(&s.ctx, &c, n, &s.rlk, &s.gk).unwrap());
    let rel = (got[0] - var).abs() / var;
    assert!(
        rel < 5e-4,
        "variance {} vs {var}: relative error {rel:e}",
        got[0]
    );
}

/// On the chain x^2 and a fresh ciphertext dropped beside it have one scale, the
/// level's, and add as they are. Scales chosen by hand can still differ at one level: `align` brings
/// them one level down onto the chain's scale; the plain `add` refuses them with a `ScaleMismatch`
/// whose message shows the scales in full.
#[test]
fn align_gives_one_exact_scale() {
    let mut s = setup(10, 3);
    let x = [0.5, -0.25, 0.75];
    let a = s.enc(&x);
    let sq = s.ctx.multiply_rescale(&a, &a, &s.rlk).unwrap();
    let fresh = s.enc(&x);
    let b = s.ctx.drop_to_level(&fresh, sq.level()).unwrap();
    assert_eq!(sq.scale(), b.scale());
    assert_eq!(sq.scale(), s.ctx.scale_at(sq.level()).unwrap());
    let got = s.dec(&s.ctx.add(&sq, &b).unwrap());
    for (g, v) in got.iter().zip(x) {
        assert!((g - (v * v + v)).abs() < 1e-6, "{g} vs {}", v * v + v);
    }
    // A scale chosen by hand at sq's level.
    let pt = s
        .ctx
        .encode_at(&real(&x), sq.level(), 2f64.powi(30))
        .unwrap();
    let hand = s.ctx.encrypt(&pt, &s.pk, &mut s.rng).unwrap();
    let e = s.ctx.add(&sq, &hand).unwrap_err();
    assert!(
        matches!(&e, Error::ScaleMismatch { .. }) && e.to_string().contains("relative difference"),
        "{e}"
    );
    let (p, q) = s.ctx.align(&sq, &hand).unwrap();
    assert_eq!(p.scale(), q.scale());
    assert_eq!((p.level(), p.scale()), (1, s.ctx.scale_at(1).unwrap()));
    let got = s.dec(&s.ctx.add(&p, &q).unwrap());
    for (g, v) in got.iter().zip(x) {
        assert!((g - (v * v + v)).abs() < 1e-6, "{g} vs {}", v * v + v);
    }
    // Different levels: the higher one lands on the lower one's level and scale.
    let (p, q) = s.ctx.align(&a, &sq).unwrap();
    assert_eq!((p.level(), p.scale()), (q.level(), q.scale()));
    let lvl0 = s.ctx.drop_to_level(&sq, 0).unwrap();
    let pt0 = s.ctx.encode_at(&real(&x), 0, 2f64.powi(30)).unwrap();
    let hand0 = s.ctx.encrypt(&pt0, &s.pk, &mut s.rng).unwrap();
    assert!(matches!(
        s.ctx.align(&lvl0, &hand0),
        Err(Error::ScaleMismatch { .. })
    ));
    assert!(matches!(
        s.ctx.add(&a, &sq),
        Err(Error::LevelMismatch { .. })
    ));
}

/// Sizes a caller gives are bounded before any work: a Chebyshev degree of 10^5 (O(d^2) to
/// interpolate), a polynomial of 2000 coefficients, 300 Galois keys.
#[test]
fn sizes_a_caller_gives_are_capped() {
    let mut s = setup(10, 3);
    let c = s.enc(&[0.5]);
    let e = circuits::evaluate_chebyshev(&s.ctx, &c, f64::exp, (-1.0, 1.0), 100_000, &s.rlk)
        .unwrap_err();
    assert!(
        matches!(&e, Error::OutOfRange(m) if m.contains("1024")),
        "{e}"
    );
    let e = circuits::evaluate_polynomial_bsgs(&s.ctx, &c, &vec![0.5; 2000], &s.rlk).unwrap_err();
    assert!(
        matches!(&e, Error::OutOfRange(m) if m.contains("2000")),
        "{e}"
    );
    let e = circuits::evaluate_polynomial(&s.ctx, &c, &vec![0.5; 2000], &s.rlk).unwrap_err();
    assert!(
        matches!(&e, Error::OutOfRange(m) if m.contains("2000")),
        "{e}"
    );
    // Degree 8 fits the cap but needs 3 + 2 levels: refused before sampling f.
    let e = circuits::check_chebyshev_degree(&c, 8).unwrap_err();
    assert!(
        matches!(&e, Error::InvalidParameters(m) if m.contains("levels")),
        "{e}"
    );
    let steps: Vec<i64> = (1..=300).collect();
    let e = s
        .ctx
        .galois_keys(&s.sk, &steps, false, &mut s.rng)
        .unwrap_err();
    assert!(
        matches!(&e, Error::OutOfRange(m) if m.contains("300")),
        "{e}"
    );
}
