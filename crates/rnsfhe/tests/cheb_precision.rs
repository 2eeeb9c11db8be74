//! The precision of `circuits::evaluate_chebyshev` for sin on [-1, 1], degree 63, over 2^12
//! slots (N = 2^13, 40-bit scale): max error against f64 sin, and the levels spent. Measured
//! (seeds 1-3): 6 levels, 2^-25.9, 2^-25.7, 2^-25.7; asserted: 6 levels and 2^-25. In `make
//! test-heavy` (seconds in release, but not needed by the default run).
#![allow(clippy::unwrap_used)]

#[path = "support/worst.rs"]
mod worst;
use worst::worst_error;

use rnsfhe::circuits;
use rnsfhe::ckks::{CkksContext, CkksParameters};
use rnsfhe::params::Security;
use rnsfhe_math::sample::Csprng;

#[test]
#[ignore = "opt-in tier: make test-heavy"]
fn chebyshev_sin_degree_63_precision() {
    let params = CkksParameters::builder()
        .degree(1 << 13)
        .levels(9)
        .scale_bits(40)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = CkksContext::new(params).unwrap();
    for seed in [1u8, 2, 3] {
        let mut rng = Csprng::from_seed([seed; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let n = 1 << 12;
        let x: Vec<f64> = (0..n)
            .map(|i| 2.0 * i as f64 / (n - 1) as f64 - 1.0)
            .collect();
        let c = ctx
            .encrypt(&ctx.encode_real(&x).unwrap(), &pk, &mut rng)
            .unwrap();
        let t = std::time::Instant::now();
        let out = circuits::evaluate_chebyshev(&ctx, &c, f64::sin, (-1.0, 1.0), 63, &rlk).unwrap();
        let el = t.elapsed();
        let got = ctx.decrypt_values(&out, &sk).unwrap();
        let err = worst_error(got.iter().zip(&x).map(|(g, v)| (g.re - v.sin()).abs()));
        println!(
            "seed {seed}: levels spent {}, max error {err:.3e} (log2 {:.2}), scale 2^{:.6}, {el:?}",
            9 - out.level(),
            err.log2(),
            out.scale().log2()
        );
        assert_eq!(9 - out.level(), 6, "seed {seed}: levels spent");
        assert!(err < 2f64.powi(-25), "seed {seed}: 2^{:.2}", err.log2());
    }
}
