//! The wide-prime kernels of an N = 2^16 bootstrap (preset n16: 60-bit ciphertext primes, 61-bit special
//! primes, digits of 5 primes) under every backend of the `RNSFHE_BACKEND` knob: the key-switching inner
//! product of 6 digit rows and the FastBconv of a digit (5 x 60 bits) to 30 primes and of P (5 x 61
//! bits) to 25 primes. Throughput in coefficients (per target limb for FastBconv).
#![allow(clippy::unwrap_used)] // a benchmark aborts loudly on a set-up error

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rnsfhe_math::arith::{available_backends, ntt_primes, vector, Modulus};
use rnsfhe_math::rns::{BaseConverter, FastBaseConverter, RnsBasis};
use rnsfhe_math::sample::Csprng;
use rnsfhe_math::set_backend;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 1 << 16;

fn wide(c: &mut Criterion) {
    let mut rng = Csprng::from_seed([7; 32]);
    let q60 = Modulus::new(ntt_primes(60, 2 * N as u64, 1, &[]).unwrap()[0]).unwrap();
    let backends = available_backends(&q60);
    let mut g = c.benchmark_group("wide_inner_product");
    g.measurement_time(Duration::from_secs(2))
        .sample_size(10)
        .throughput(Throughput::Elements(N as u64));
    for bits in [60u32, 61] {
        let q = Modulus::new(ntt_primes(bits, 2 * N as u64, 1, &[]).unwrap()[0]).unwrap();
        let rows: Vec<Vec<u64>> = (0..12)
            .map(|_| rng.uniform_poly(std::slice::from_ref(&q), N))
            .collect();
        let (a, b): (Vec<&[u64]>, Vec<&[u64]>) = (
            rows[..6].iter().map(Vec::as_slice).collect(),
            rows[6..].iter().map(Vec::as_slice).collect(),
        );
        let mut out = vec![0u64; N];
        for &be in &backends {
            set_backend(be).unwrap();
            g.bench_function(BenchmarkId::new(format!("6x{bits}/{be}"), N), |bch| {
                bch.iter(|| vector::inner_product(&q, black_box(&a), &b, &mut out))
            });
        }
    }
    g.finish();
    let mut g = c.benchmark_group("wide_fast_bconv");
    g.measurement_time(Duration::from_secs(3)).sample_size(10);
    for (k, sbits, t) in [(5usize, 60u32, 30usize), (5, 61, 25)] {
        let sp = ntt_primes(sbits, 2 * N as u64, k, &[]).unwrap();
        let src = RnsBasis::new(&sp).unwrap();
        let dst = RnsBasis::new(&ntt_primes(60, 2 * N as u64, t, &sp).unwrap()).unwrap();
        let conv = FastBaseConverter::new(&src, &dst);
        let input = rng.uniform_poly(src.moduli(), N);
        let mut out = vec![0u64; t * N];
        g.throughput(Throughput::Elements((t * N) as u64));
        for &be in &backends {
            set_backend(be).unwrap();
            g.bench_function(
                BenchmarkId::new(format!("{k}x{sbits}_to_{t}x60/{be}"), N),
                |bch| bch.iter(|| conv.convert(black_box(&input), &mut out).unwrap()),
            );
        }
    }
    g.finish();
}

criterion_group!(benches, wide);
criterion_main!(benches);
