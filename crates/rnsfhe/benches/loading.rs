//! Loading keys and ciphertexts from bytes: what a server pays per object it receives (every check of
//! the format included: checksum, fingerprint, key profile and layout, sizes, residues). CKKS at
//! N = 2^15, L = 10 (the default layout) and BFV at n = 2^14 (the default moduli). Run with
//! `RNSFHE_NUM_THREADS=1 cargo bench -p rnsfhe --bench loading`.
#![allow(clippy::unwrap_used)] // a benchmark aborts loudly on a set-up error

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::serialize::KeyBytes;
use rnsfhe_math::sample::Csprng;

fn loading(c: &mut Criterion) {
    let mut rng = Csprng::from_seed([36; 32]);
    let mut g = c.benchmark_group("loading");
    g.sample_size(20).measurement_time(Duration::from_secs(4));

    let ckks = CkksContext::new(
        CkksParameters::builder()
            .degree(1 << 15)
            .levels(10)
            .build()
            .unwrap(),
    )
    .unwrap();
    let (sk, pk) = ckks.keygen(&mut rng).unwrap();
    let rlk = ckks.relin_key_to_bytes(&ckks.relin_key(&sk, &mut rng).unwrap());
    let gk = ckks.galois_keys_to_bytes(
        &ckks
            .galois_keys(&sk, &[1, 2, 4, 8], false, &mut rng)
            .unwrap(),
    );
    let z: Vec<Complex> = (0..64).map(|i| Complex::from_real(i as f64)).collect();
    let ct = ckks
        .ciphertext_to_bytes(
            &ckks
                .encrypt(&ckks.encode(&z).unwrap(), &pk, &mut rng)
                .unwrap(),
        )
        .unwrap();
    let pkb = ckks.public_key_to_bytes(&pk);
    g.bench_function("ckks_2^15_relin_key", |b| {
        b.iter(|| black_box(ckks.relin_key_from_bytes(&rlk).unwrap()))
    });
    g.bench_function("ckks_2^15_galois_keys_4", |b| {
        b.iter(|| black_box(ckks.galois_keys_from_bytes(&gk).unwrap()))
    });
    g.bench_function("ckks_2^15_public_key", |b| {
        b.iter(|| black_box(ckks.public_key_from_bytes(&pkb).unwrap()))
    });
    g.bench_function("ckks_2^15_ciphertext", |b| {
        b.iter(|| black_box(ckks.ciphertext_from_bytes(&ct).unwrap()))
    });

    let bfv = BfvContext::new(
        BfvParameters::builder()
            .degree(1 << 14)
            .plain_modulus(65537)
            .build()
            .unwrap(),
    )
    .unwrap();
    let (sk, pk) = bfv.keygen(&mut rng).unwrap();
    let rlk = bfv.relin_key_to_bytes(&bfv.relin_key(&sk, &mut rng).unwrap());
    let ct = bfv
        .ciphertext_to_bytes(
            &bfv.encrypt(&bfv.encode(&[1, 2, 3]).unwrap(), &pk, &mut rng)
                .unwrap(),
        )
        .unwrap();
    g.bench_function("bfv_2^14_relin_key", |b| {
        b.iter(|| black_box(bfv.relin_key_from_bytes(&rlk).unwrap()))
    });
    g.bench_function("bfv_2^14_ciphertext", |b| {
        b.iter(|| black_box(bfv.ciphertext_from_bytes(&ct).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, loading);
criterion_main!(benches);
