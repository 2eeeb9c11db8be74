//! Hoisted key switching against separate rotations, CKKS at N = 2^15, L = 10 (the default layout,
//! then one prime per digit):
//! `rotate_many` of 16 steps vs 16 `rotate` calls, `sum_rotations` of 16
//! weighted steps (double hoisting), and a 64-diagonal linear transform on 2^14 slots by hoisted BSGS
//! vs 64 rotations and plaintext products. Run with `RNSFHE_NUM_THREADS=1 cargo bench -p rnsfhe
//! --bench hoisting` (`rnsfhe bench hoisting` prints the same comparisons as a table).
#![allow(clippy::unwrap_used)] // a benchmark aborts loudly on a set-up error

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use rnsfhe::circuits::lintrans::{CkksLinearTransform, Diagonals};
use rnsfhe::ckks::{CkksContext, CkksParameters, CkksPlaintext, CkksWeights, Complex};
use rnsfhe_math::sample::Csprng;

fn hoisting(c: &mut Criterion) {
    // The default layout (3 digits of 4 primes, 4 special primes), then one prime per digit with one
    // 60-bit special prime (the peers' setting, 11 digits).
    let default = CkksParameters::builder()
        .degree(1 << 15)
        .levels(10)
        .build()
        .unwrap();
    group(c, "hoisting_default_layout", default);
    let peers = CkksParameters::builder()
        .degree(1 << 15)
        .levels(10)
        .special_moduli_bits(&[60])
        .key_switching(rnsfhe::rlwe::KeySwitching::default())
        .build()
        .unwrap();
    group(c, "hoisting_1prime_digits", peers);
}

fn group(c: &mut Criterion, name: &str, params: CkksParameters) {
    let ctx = CkksContext::new(params).unwrap();
    let mut rng = Csprng::from_seed([23; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let steps: Vec<i64> = (1..=16).collect();
    let slots = 1 << 14;
    let diagonals: Diagonals<Complex> = (0..64)
        .map(|k| {
            let v = (0..slots)
                .map(|t| Complex::new(((k * 31 + t) % 17) as f64 / 64.0, 0.0))
                .collect();
            (k, v)
        })
        .collect();
    let level = ctx.max_level();
    let lt = CkksLinearTransform::new(&ctx, &diagonals, level, slots).unwrap();
    let mut keys = steps.clone();
    keys.extend(lt.rotation_steps());
    let gk = ctx.galois_keys(&sk, &keys, false, &mut rng).unwrap();
    let x: Vec<Complex> = (0..ctx.slots())
        .map(|i| Complex::new((i % 97) as f64 / 97.0, 0.0))
        .collect();
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let ct_sparse = ctx
        .encrypt(&ctx.encode(&x[..slots]).unwrap(), &pk, &mut rng)
        .unwrap();
    let weights: Vec<f64> = (0..16).map(|i| 0.25 + f64::from(i) / 16.0).collect();
    let ql = ctx.params().moduli()[level] as f64;
    let factor = ctx.scale_at(level - 1).unwrap() * ql / ct.scale();
    // The transform's baseline: rotations by 1 (a rotation's cost does not depend on its step) and
    // products by plaintexts encoded beforehand.
    let plains: Vec<CkksPlaintext> = diagonals
        .values()
        .map(|d| ctx.encode_at(d, level, factor).unwrap())
        .collect();

    let mut g = c.benchmark_group(name);
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("rotate_x16", |b| {
        b.iter(|| {
            for &s in &steps {
                black_box(ctx.rotate(&ct, s, &gk).unwrap());
            }
        })
    });
    g.bench_function("rotate_many_16", |b| {
        b.iter(|| black_box(ctx.rotate_many(&ct, &steps, &gk).unwrap()))
    });
    g.bench_function("weighted_sum_16_separate", |b| {
        b.iter(|| {
            let mut acc = None;
            for (&s, &w) in steps.iter().zip(&weights) {
                let r = ctx
                    .mul_integer(
                        &ctx.rotate(&ct, s, &gk).unwrap(),
                        (w * factor).round() as i64,
                    )
                    .unwrap();
                acc = Some(match acc {
                    None => r,
                    Some(a) => ctx.add(&a, &r).unwrap(),
                });
            }
            let r = ctx.set_scale(&acc.unwrap(), ct.scale() * factor).unwrap();
            black_box(ctx.rescale(&r).unwrap())
        })
    });
    g.bench_function("sum_rotations_16", |b| {
        b.iter(|| {
            black_box(
                ctx.sum_rotations(&ct, &steps, Some(CkksWeights::Real(&weights)), &gk)
                    .unwrap(),
            )
        })
    });
    g.bench_function("lintrans64_naive", |b| {
        b.iter(|| {
            let mut acc = None;
            for p in &plains {
                let r = ctx
                    .mul_plain(&ctx.rotate(&ct_sparse, 1, &gk).unwrap(), p)
                    .unwrap();
                acc = Some(match acc {
                    None => r,
                    Some(a) => ctx.add(&a, &r).unwrap(),
                });
            }
            black_box(ctx.rescale(&acc.unwrap()).unwrap())
        })
    });
    g.bench_function("lintrans64_bsgs", |b| {
        b.iter(|| black_box(lt.apply(&ctx, &ct_sparse, &gk).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, hoisting);
criterion_main!(benches);
