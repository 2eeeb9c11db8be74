//! Cheon et al. (SAC 2018)'s logistic regression past its levels: `train_logistic_refreshed` with a toy bootstrap
//! (insecure, N = 2^11, 7 residual levels) equals `train_plain`, bootstraps when the weights' levels
//! run out (one bootstrap per refresh), and refuses a bootstrap that leaves too few levels.
#![allow(clippy::unwrap_used)] // test

use rnsfhe::circuits::bootstrapping::{Bootstrapper, BootstrappingParameters};
use rnsfhe::circuits::logistic;
use rnsfhe::ckks::{CkksCiphertext, CkksContext, Complex};
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

#[path = "support/logistic.rs"]
mod logistic_data;

#[test]
fn training_refreshed_by_bootstrapping_equals_the_clear_one() {
    let z = logistic_data::data(100);
    let (r, f) = logistic::layout(z.len(), 4);
    let mut p = BootstrappingParameters::toy(11);
    p.slots = r * f; // 128 x 4 = 512: sparse packing
    p.residual_levels = 7;
    let ctx = CkksContext::new(p.ckks_parameters().unwrap()).unwrap();
    let boot = Bootstrapper::new(&ctx, p).unwrap();
    let mut rng = Csprng::from_seed([9; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let keys = boot.generate_keys(&sk, &mut rng, None).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let steps = logistic::rotation_steps(r, f);
    let gk = ctx.galois_keys(&sk, &steps, true, &mut rng).unwrap();
    let top = boot.output_level();
    let packed: Vec<Complex> = logistic::pack(&z)
        .unwrap()
        .into_iter()
        .map(Complex::from_real)
        .collect();
    let pt = ctx
        .encode_at(&packed, top, ctx.scale_at(top).unwrap())
        .unwrap();
    let cz = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let iterations = 4;
    let (mut boots, mut ticks) = (0, Vec::new());
    let mut refresh = |c: &CkksCiphertext| {
        boots += 1;
        boot.bootstrap(&ctx, c, &keys)
    };
    let mut progress = |done: usize, _: usize| ticks.push(done);
    let beta = logistic::train_logistic_refreshed(
        &ctx,
        &cz,
        z.len(),
        4,
        iterations,
        &rlk,
        &gk,
        &mut refresh,
        Some(&mut progress),
    )
    .unwrap();
    // 7 residual levels hold one iteration: a bootstrap before each but the first.
    assert_eq!(boots, iterations - 1);
    assert_eq!(ticks, vec![1, 2, 3, 4]);
    let got = ctx.decrypt_values(&beta, &sk).unwrap();
    let want = logistic_data::train_reference(&z, iterations);
    for row in 0..r {
        for j in 0..4 {
            let g = got[row * f + j].re;
            assert!(
                (g - want[j]).abs() < 1e-4,
                "row {row} weight {j}: {g} vs {}",
                want[j]
            );
        }
    }

    // A "bootstrap" that leaves 6 levels is refused (an iteration and the packing need 7).
    let mut short = |c: &CkksCiphertext| {
        let fresh = boot.bootstrap(&ctx, c, &keys)?;
        ctx.drop_to_level(&fresh, 6)
    };
    let err =
        logistic::train_logistic_refreshed(&ctx, &cz, z.len(), 4, 2, &rlk, &gk, &mut short, None)
            .unwrap_err();
    assert!(
        matches!(err, Error::LevelsExhausted { needed: 7, .. }),
        "{err}"
    );
}
