//! Per-stage counts and times of a homomorphic DFT (`circuits::dft`): `cargo run --release --example
//! dft_stages -- [logN] [budget] [s2c|c2s] [iterations] [log_slots]` (defaults 14, 4, s2c, 5, logN -
//! 1). Parameters: `budget` levels of 40-bit primes at 128-bit security, the builder's key-switching
//! layout; the DFT starts at the top level. Prints, per stage: the level, the diagonals, the BSGS
//! split (n1, baby and giant steps), the rotations (Galois keys) and the best time of `apply` over the
//! iterations; then the whole DFT and its error against the plaintext model.

use std::time::{Duration, Instant};

use rnsfhe::circuits::dft::{DftDirection, HomomorphicDft};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

fn best<T>(iters: usize, mut f: impl FnMut() -> Result<T>) -> Result<(Duration, T)> {
    let mut out = None;
    let mut best = Duration::MAX;
    for _ in 0..iters.max(1) {
        let t = Instant::now();
        let r = f()?;
        best = best.min(t.elapsed());
        out = Some(r);
    }
    let r = out.ok_or_else(|| rnsfhe::Error::Internal("no iteration".into()))?;
    Ok((best, r))
}

fn main() -> Result<()> {
    let a: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: usize| a.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (log_n, budget) = (arg(1, 14), arg(2, 4));
    let direction = match a.get(3).map(String::as_str) {
        Some("c2s") => DftDirection::CoeffsToSlots,
        _ => DftDirection::SlotsToCoeffs,
    };
    let (iters, log_slots) = (arg(4, 5), arg(5, log_n - 1));
    let params = CkksParameters::builder()
        .degree(1 << log_n)
        .levels(budget)
        .scale_bits(40)
        .build()?;
    let ctx = CkksContext::new(params)?;
    let slots = 1usize << log_slots;
    let t = Instant::now();
    let dft = HomomorphicDft::new(&ctx, direction, slots, budget, ctx.max_level())?;
    println!(
        "N = 2^{log_n}, {slots} slots, {direction:?}, budget {budget}: built in {:.2?}",
        t.elapsed()
    );
    let mut rng = Csprng::from_seed([1; 32]);
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let steps = dft.rotation_steps();
    let gk = ctx.galois_keys(&sk, &steps, false, &mut rng)?;
    println!("Galois keys: {} rotation steps", steps.len());
    let z: Vec<Complex> = (0..slots)
        .map(|i| Complex::new((i % 17) as f64 / 17.0 - 0.5, (i % 13) as f64 / 13.0 - 0.5))
        .collect();
    let mut ct = ctx.encrypt(&ctx.encode(&z)?, &pk, &mut rng)?;
    let input = ct.clone();
    println!("stage  level  diagonals    n1  babies  giants  rotations  time");
    for (k, s) in dft.stages().iter().enumerate() {
        let split = s.split();
        let diagonals: usize = split.giants.values().map(Vec::len).sum();
        let babies: std::collections::BTreeSet<usize> =
            split.giants.values().flatten().copied().collect();
        let (time, out) = best(iters, || s.apply(&ctx, &ct, &gk))?;
        println!(
            "{k:>5}  {:>5}  {diagonals:>9}  {:>4}  {:>6}  {:>6}  {:>9}  {time:.2?}",
            s.level(),
            split.n1,
            babies.iter().filter(|&&i| i != 0).count(),
            split.giants.keys().filter(|&&j| j != 0).count(),
            s.rotation_steps().len(),
        );
        ct = out;
    }
    let (time, out) = best(iters, || dft.apply(&ctx, &input, &gk))?;
    let got = ctx.decrypt_values(&out, &sk)?;
    let want = dft.apply_plain(&z)?;
    let err = got
        .iter()
        .zip(&want)
        .map(|(g, w)| (*g - *w).abs())
        .fold(0.0, f64::max);
    println!(
        "whole DFT: {time:.2?}, level {} -> {}, max error {err:.2e}",
        dft.level(),
        out.level()
    );
    Ok(())
}
