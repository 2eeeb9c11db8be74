//! Negacyclic NTT, forward and inverse, n = 2^12..2^16, 60-bit and 49-bit primes, every available backend.
#![allow(clippy::unwrap_used)] // a benchmark aborts loudly on a set-up error

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rnsfhe_math::arith::{ntt_primes, Modulus};
use rnsfhe_math::ntt::{available_backends, NttTable};
use std::hint::black_box;
use std::time::Duration;

fn ntt(c: &mut Criterion) {
    for bits in [60u32, 49] {
        let mut g = c.benchmark_group(format!("ntt_{bits}bit"));
        g.measurement_time(Duration::from_secs(2)).sample_size(20);
        for log_n in 12..=16u32 {
            let n = 1usize << log_n;
            let q = Modulus::new(ntt_primes(bits, 2 * n as u64, 1, &[]).unwrap()[0]).unwrap();
            let a: Vec<u64> = (0..n as u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) % q.value())
                .collect();
            for backend in available_backends(&q) {
                let t = NttTable::with_backend(q, n, backend).unwrap();
                let mut b = a.clone();
                let id = |dir: &str| BenchmarkId::new(format!("{dir}/{}", backend.name()), n);
                g.bench_function(id("forward"), |bch| {
                    bch.iter(|| {
                        b.copy_from_slice(&a);
                        t.forward(black_box(&mut b)).unwrap();
                    })
                });
                g.bench_function(id("inverse"), |bch| {
                    bch.iter(|| {
                        b.copy_from_slice(&a);
                        t.inverse(black_box(&mut b)).unwrap();
                    })
                });
            }
        }
        g.finish();
    }
}

criterion_group!(benches, ntt);
criterion_main!(benches);
