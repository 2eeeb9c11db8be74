//! Ring operations at n = 2^14 with 8 x 55-bit moduli (440-bit Q, the 128-bit-secure size).
#![allow(clippy::unwrap_used)] // a benchmark aborts loudly on a set-up error

use criterion::{criterion_group, criterion_main, Criterion};
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::sample::Csprng;
use std::hint::black_box;
use std::time::Duration;

fn ring(c: &mut Criterion) {
    let n = 1 << 14;
    let moduli = ntt_primes(55, 2 * n as u64, 8, &[]).unwrap();
    let ctx = RingContext::new(n, &moduli).unwrap();
    let mut rng = Csprng::from_seed([7; 32]);
    let a = Poly::from_residues(
        &ctx,
        rng.uniform_poly(ctx.moduli(), n),
        Representation::Coefficient,
    )
    .unwrap();
    let mut fa = a.clone();
    fa.to_ntt().unwrap();
    let mut g = c.benchmark_group("ring_n16384_8x55");
    g.measurement_time(Duration::from_secs(2)).sample_size(20);
    g.bench_function("to_ntt", |b| {
        b.iter(|| black_box(a.clone()).to_ntt().unwrap())
    });
    g.bench_function("to_coefficient", |b| {
        b.iter(|| black_box(fa.clone()).to_coefficient().unwrap())
    });
    g.bench_function("mul_ntt", |b| b.iter(|| black_box(fa.mul(&fa).unwrap())));
    g.bench_function("add", |b| b.iter(|| black_box(fa.add(&fa).unwrap())));
    g.bench_function("automorphism_ntt", |b| {
        b.iter(|| black_box(fa.automorphism(5).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, ring);
criterion_main!(benches);
