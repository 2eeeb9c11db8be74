//! 16 rotations of one CKKS ciphertext (N = 2^15, L = 10, scale 2^40, the default key-switching
//! layout) by `rotate_many` against 16 `rotate` calls, in alternating runs (the median of each, and
//! their ratio): the hoisting target of `rnsfhe bench hoisting` without its other rows, for profiling.
//!
//! `cargo run --release --example hoisted_rotations -- [runs] [peers]` (`peers`: one prime per digit
//! and one 60-bit special prime, the peers' layout). Backend and threads: `RNSFHE_BACKEND`,
//! `RNSFHE_NUM_THREADS`; `ONLY_MANY=k`: k calls of `rotate_many` and nothing else (for a profiler).

use std::time::Instant;

use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::rlwe::KeySwitching;
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let mut b = CkksParameters::builder().degree(1 << 15).levels(10);
    if args.iter().any(|a| a == "peers") {
        b = b
            .special_moduli_bits(&[60])
            .key_switching(KeySwitching::default());
    }
    let ctx = CkksContext::new(b.build()?)?;
    let mut rng = Csprng::from_seed([23; 32]);
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let steps: Vec<i64> = (1..=16).collect();
    let gk = ctx.galois_keys(&sk, &steps, false, &mut rng)?;
    let x: Vec<Complex> = (0..ctx.slots())
        .map(|i| Complex::new((i % 97) as f64 / 97.0, 0.0))
        .collect();
    let ct = ctx.encrypt(&ctx.encode(&x)?, &pk, &mut rng)?;
    if let Ok(k) = std::env::var("ONLY_MANY") {
        for _ in 0..k.parse().unwrap_or(10) {
            std::hint::black_box(ctx.rotate_many(&ct, &steps, &gk)?);
        }
        return Ok(());
    }
    // Warm-up, and the check that both give the same bits.
    let many = ctx.rotate_many(&ct, &steps, &gk)?;
    for (s, r) in steps.iter().zip(&many) {
        let one = ctx.rotate(&ct, *s, &gk)?;
        if ctx.ciphertext_to_bytes(&one)? != ctx.ciphertext_to_bytes(r)? {
            return Err(rnsfhe::Error::Internal(format!(
                "rotate_many differs from rotate at step {s}"
            )));
        }
    }
    let (mut sep, mut hoisted) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let t = Instant::now();
        for &s in &steps {
            std::hint::black_box(ctx.rotate(&ct, s, &gk)?);
        }
        sep.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        std::hint::black_box(ctx.rotate_many(&ct, &steps, &gk)?);
        hoisted.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (s, h) = (median(&mut sep), median(&mut hoisted));
    println!(
        "[{:?}, {} threads] 16 x rotate {s:.1} ms, rotate_many {h:.1} ms, ratio {:.3}",
        rnsfhe::backend(),
        rnsfhe::num_threads(),
        h / s
    );
    Ok(())
}
