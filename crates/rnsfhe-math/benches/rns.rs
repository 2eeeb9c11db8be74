//! FastBconv vs FHBE (Vollmer et al. (ARITH 2023) Table I / Fig. 1 shapes) and the exact converters, batch of 4096.
#![allow(clippy::unwrap_used)] // a benchmark aborts loudly on a set-up error

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::rns::{
    BaseConverter, FastBaseConverter, FhbeConverter, HpsConverter, RnsBasis, SkConverter,
};
use rnsfhe_math::sample::Csprng;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 4096;

fn run(c: &mut Criterion, name: &str, conv: &dyn BaseConverter, rng: &mut Csprng) {
    let input = rng.uniform_poly(conv.source().moduli(), N);
    let mut out = vec![0u64; conv.target().len() * N];
    let mut g = c.benchmark_group("base_extension");
    g.measurement_time(Duration::from_secs(2))
        .sample_size(20)
        .throughput(Throughput::Elements(N as u64));
    g.bench_function(name, |b| {
        b.iter(|| conv.convert(black_box(&input), &mut out).unwrap())
    });
    g.finish();
}

fn paper_003(c: &mut Criterion) {
    let mut rng = Csprng::from_seed([3; 32]);
    for (k, w, cs) in [
        (12usize, 62u32, &[2usize, 3, 4, 6][..]),
        (26, 30, &[2, 13]),
        (25, 62, &[5]),
        (54, 30, &[9]),
        (56, 29, &[7]),
    ] {
        let primes = ntt_primes(w, 2, 2 * k, &[]).unwrap();
        let (src, dst) = (
            RnsBasis::new(&primes[..k]).unwrap(),
            RnsBasis::new(&primes[k..]).unwrap(),
        );
        run(
            c,
            &format!("fbe_{k}x{w}"),
            &FastBaseConverter::new(&src, &dst),
            &mut rng,
        );
        for &col in cs {
            run(
                c,
                &format!("fhbe_{k}x{w}_c{col}"),
                &FhbeConverter::new(&src, &dst, col).unwrap(),
                &mut rng,
            );
        }
    }
    // The exact converters at a BFV size: 8 x 55-bit q to 9 x 55-bit (HPS), B u {m_sk} to q (SK).
    let primes = ntt_primes(55, 2, 18, &[]).unwrap();
    let (q, p) = (
        RnsBasis::new(&primes[..8]).unwrap(),
        RnsBasis::new(&primes[8..17]).unwrap(),
    );
    run(c, "hps_8x55_to_9x55", &HpsConverter::new(&q, &p), &mut rng);
    let mut bsk: Vec<u64> = primes[8..17].to_vec();
    bsk.push(ntt_primes(61, 2, 1, &[]).unwrap()[0]);
    run(
        c,
        "sk_10x55_to_8x55",
        &SkConverter::new(&RnsBasis::new(&bsk).unwrap(), &q).unwrap(),
        &mut rng,
    );
}

criterion_group!(benches, paper_003);
criterion_main!(benches);
