//! Functions of encrypted real vectors with CKKS: the sigmoid, and the mean and variance of a batch
//! of numbers (`rnsfhe::circuits`: `circuits::sigmoid`, `circuits::mean`, `circuits::variance`, over
//! the public operations of `CkksContext`).
//!
//! Non-polynomial functions are approximated by polynomials: `sigmoid` uses its degree-7 Taylor
//! expansion (accurate for |x| <= 1, depth 4); `exp` and `inverse` work the same way, and
//! `evaluate_chebyshev` interpolates any function on an interval. `mean` and `variance` add the
//! slots together by rotations, so they need Galois keys for the steps 1, 2, 4, ..., count / 2.
//!
//! Run it: `cargo run --release -p rnsfhe --example ckks_functions`.

use rnsfhe::circuits;
use rnsfhe::ckks::{CkksContext, CkksParameters};
use rnsfhe_math::sample::Csprng;

/// Computes sigmoid(x), mean(x) and variance(x) on an encrypted vector and checks them against the
/// plain computation.
pub fn run() -> Result<(), Box<dyn std::error::Error>> {
    // N = 16384 leaves room for 6 levels of 40 bits at 128-bit security; the sigmoid uses 4.
    let params = CkksParameters::builder()
        .degree(16384)
        .levels(6)
        .scale_bits(40)
        .build()?;
    let ctx = CkksContext::new(params)?;
    let mut rng = Csprng::from_os_entropy()?;
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let rlk = ctx.relin_key(&sk, &mut rng)?;

    // 1024 numbers in [-1, 1]: they fill 1024 slots (sparse packing), and rotations wrap within them.
    let count: usize = 1024;
    let x: Vec<f64> = (0..count)
        .map(|i| ((i * 37 % 101) as f64 - 50.0) / 50.0)
        .collect();
    let ct = ctx.encrypt(&ctx.encode_real(&x)?, &pk, &mut rng)?;

    // Rotation keys for the slot sum: steps 1, 2, 4, ..., count / 2.
    let steps: Vec<i64> = (0..count.trailing_zeros()).map(|k| 1i64 << k).collect();
    let gk = ctx.galois_keys(&sk, &steps, false, &mut rng)?;

    // sigmoid(x) slot by slot.
    let sig = circuits::sigmoid(&ctx, &ct, &rlk)?;
    let got = ctx.decrypt_values(&sig, &sk)?;
    let sig_errors: Vec<f64> = x
        .iter()
        .zip(&got)
        .map(|(&xi, g)| (g.re - 1.0 / (1.0 + (-xi).exp())).abs())
        .collect();
    let sig_err = sig_errors.iter().copied().fold(0.0, f64::max);
    println!(
        "sigmoid: level {} -> {}, max error {sig_err:.2e} (Taylor degree 7 on [-1, 1])",
        ct.level(),
        sig.level()
    );

    // The mean and the variance of the 1024 numbers, in every slot.
    let mean = ctx.decrypt_values(&circuits::mean(&ctx, &ct, count, &gk)?, &sk)?[0].re;
    let var = ctx.decrypt_values(&circuits::variance(&ctx, &ct, count, &rlk, &gk)?, &sk)?[0].re;
    let want_mean = x.iter().sum::<f64>() / count as f64;
    let want_var = x.iter().map(|v| v * v).sum::<f64>() / count as f64 - want_mean * want_mean;
    println!("mean {mean:.6} (plain {want_mean:.6}), variance {var:.6} (plain {want_var:.6})");

    // The Taylor polynomial itself is off by about 2e-5 at |x| = 1; CKKS adds far less.
    // (`all` rather than the maximum, so that a NaN fails too.)
    if !sig_errors.iter().all(|&e| e < 1e-4) {
        return Err(format!("ckks_functions: sigmoid error {sig_err:e}").into());
    }
    if !((mean - want_mean).abs() < 1e-4 && (var - want_var).abs() < 1e-4) {
        return Err("ckks_functions: mean or variance differs from the plain computation".into());
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run()
}
