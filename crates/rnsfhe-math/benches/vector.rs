//! Pointwise modular kernels of `arith::vector` on n = 16384 residues, 49-bit and 60-bit NTT primes, every
//! available backend: a *= b, acc += a * b, a *= w (Shoup constant).
#![allow(clippy::unwrap_used)] // a benchmark aborts loudly on a set-up error

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rnsfhe_math::arith::vector;
use rnsfhe_math::arith::{ntt_primes, Modulus};
use rnsfhe_math::ntt::available_backends;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 16384;

fn residues(q: &Modulus, seed: u64) -> Vec<u64> {
    (0..N as u64)
        .map(|i| (i ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) % q.value())
        .collect()
}

fn kernels(c: &mut Criterion) {
    for bits in [49u32, 60] {
        let mut g = c.benchmark_group(format!("vector_{bits}bit"));
        g.measurement_time(Duration::from_secs(2))
            .sample_size(30)
            .throughput(Throughput::Elements(N as u64));
        let q = Modulus::new(ntt_primes(bits, 2 * N as u64, 1, &[]).unwrap()[0]).unwrap();
        let (a, b, z) = (residues(&q, 1), residues(&q, 2), residues(&q, 3));
        let w = q.shoup(a[7]);
        let mut x = a.clone();
        g.bench_function(BenchmarkId::new("copy_only", N), |bch| {
            bch.iter(|| x.copy_from_slice(black_box(&a)))
        });
        for backend in available_backends(&q) {
            let id = |op: &str| BenchmarkId::new(format!("{op}/{}", backend.name()), N);
            let mut x = a.clone();
            g.bench_function(id("mul"), |bch| {
                bch.iter(|| {
                    x.copy_from_slice(&a);
                    vector::mul_assign_with(backend, &q, black_box(&mut x), &b).unwrap();
                })
            });
            g.bench_function(id("mul_add"), |bch| {
                bch.iter(|| {
                    x.copy_from_slice(&z);
                    vector::mul_add_assign_with(backend, &q, black_box(&mut x), &a, &b).unwrap();
                })
            });
            g.bench_function(id("mul_shoup"), |bch| {
                bch.iter(|| {
                    x.copy_from_slice(&a);
                    vector::mul_shoup_scalar_assign_with(backend, &q, black_box(&mut x), w)
                        .unwrap();
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, kernels);
criterion_main!(benches);
