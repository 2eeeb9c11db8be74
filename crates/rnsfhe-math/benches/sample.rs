//! Sampling throughput at n = 2^14: uniform (3 x 60-bit limbs), dense and fixed-weight ternary,
//! discrete Gaussian (sigma 3.2, |e| <= 19), and lifting a secret to RNS. Seed expansion of one limb at
//! n = 2^16 (60- and 55-bit primes), one thread: `rand_chacha` (the reference and former path) against
//! `uniform_from_seed_at` (the knob's kernel) and each backend's kernel; throughput in bytes of residues (the acceptance rate of these primes is
//! above 0.99, so keystream bytes are within 1% of it).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rnsfhe_math::arith::{ntt_primes, Modulus};
use rnsfhe_math::sample::{
    ternary, ternary_hamming, to_rns, uniform_from_seed, uniform_from_seed_at,
    uniform_from_seed_at_with, Csprng, DiscreteGaussian,
};
use rnsfhe_math::Backend;

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

const N_EXPAND: usize = 1 << 16;

/// The former expansion of one limb: `rand_chacha` then rejection (as `Csprng::uniform_mod`).
fn expand_rand_chacha(seed: &[u8; 32], stream: u64, q: &Modulus, out: &mut [u64]) {
    let mut rng = ChaCha20Rng::from_seed(*seed);
    rng.set_stream(1 << 63 | stream);
    let shift = 64 - q.bits();
    for x in out {
        *x = loop {
            let v = rng.next_u64() >> shift;
            if v < q.value() {
                break v;
            }
        };
    }
}

fn bench_expand(c: &mut Criterion) {
    let primes = [
        ("q60", 0x0fff_ffff_fffc_0001u64),
        (
            "q55",
            ntt_primes(55, 2 * N_EXPAND as u64, 1, &[]).map_or(0, |p| p[0]),
        ),
    ];
    let mut g = c.benchmark_group("expand_n65536");
    g.throughput(Throughput::Bytes(8 * N_EXPAND as u64));
    let mut out = vec![0u64; N_EXPAND];
    for (name, q) in primes {
        let Ok(m) = Modulus::new(q) else { continue };
        g.bench_function(format!("rand_chacha_{name}"), |b| {
            b.iter(|| expand_rand_chacha(black_box(&[7; 32]), 5, &m, &mut out))
        });
        g.bench_function(format!("uniform_from_seed_at_{name}"), |b| {
            b.iter(|| uniform_from_seed_at(black_box(&[7; 32]), 0, &[m], &[5], N_EXPAND))
        });
        for be in [Backend::Scalar, Backend::Avx2, Backend::Avx512] {
            if !be.is_supported() {
                continue;
            }
            g.bench_function(format!("{be}_{name}"), |b| {
                b.iter(|| {
                    uniform_from_seed_at_with(be, black_box(&[7; 32]), 0, &[m], &[5], N_EXPAND)
                })
            });
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = bench, bench_expand
}
criterion_main!(benches);
