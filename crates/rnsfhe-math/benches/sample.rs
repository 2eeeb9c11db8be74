//! Sampling throughput at n = 2^14: uniform (3 x 60-bit limbs), dense and fixed-weight ternary,
//! discrete Gaussian (sigma 3.2, |e| <= 19), and lifting a secret to RNS.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::sample::{
    ternary, ternary_hamming, to_rns, uniform_from_seed, Csprng, DiscreteGaussian,
};

const N: usize = 1 << 14;

fn bench(c: &mut Criterion) {
    let moduli: Vec<Modulus> = [
        0x0fff_ffff_fffc_0001u64,
        0x0fff_ffff_ffa8_0001,
        0x0fff_ffff_ff7c_0001,
    ]
    .iter()
    .filter_map(|&q| Modulus::new(q).ok())
    .collect();
    let mut rng = Csprng::from_seed([42; 32]);
    let mut out = vec![0u64; moduli.len() * N];
    let gauss = DiscreteGaussian::default();
    let mut g = c.benchmark_group("sample_n16384");
    g.bench_function("uniform_3_limbs", |b| {
        b.iter(|| rng.fill_uniform(black_box(&moduli), N, &mut out))
    });
    g.bench_function("uniform_from_seed_3_limbs", |b| {
        b.iter(|| uniform_from_seed(black_box(&[7; 32]), &moduli, N))
    });
    g.bench_function("ternary_dense", |b| {
        b.iter(|| ternary(&mut rng, black_box(N)))
    });
    g.bench_function("ternary_hamming_192", |b| {
        b.iter(|| ternary_hamming(&mut rng, black_box(N), 192))
    });
    g.bench_function("gaussian_3.2", |b| {
        b.iter(|| gauss.sample(&mut rng, black_box(N)))
    });
    let s = ternary(&mut rng, N);
    g.bench_function("to_rns_3_limbs", |b| {
        b.iter(|| to_rns(black_box(&s), &moduli))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
