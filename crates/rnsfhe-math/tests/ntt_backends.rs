//! Every NTT backend against the scalar reference: bit-identical forward and inverse outputs.
#![allow(clippy::unwrap_used)] // a test aborts loudly on a set-up error

#[path = "support/skip.rs"]
mod skip;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rnsfhe_math::arith::{backend_for, ntt_primes, Modulus};
use rnsfhe_math::ntt::{available_backends, Backend, CyclicNttTable, NttTable};

const BITS: [u32; 11] = [30, 34, 45, 49, 50, 55, 56, 57, 60, 61, 62];
const SIMD: [Backend; 3] = [Backend::Avx512Ifma, Backend::Avx512, Backend::Avx2];

/// Inputs: random below `bound`, then the edges 0, q - 1 and bound - 1.
fn inputs(rng: &mut StdRng, n: usize, q: u64, bound: u64, iters: usize) -> Vec<Vec<u64>> {
    let mut v: Vec<Vec<u64>> = (0..iters)
        .map(|_| (0..n).map(|_| rng.random_range(0..bound)).collect())
        .collect();
    v.extend([vec![0; n], vec![q - 1; n], vec![bound - 1; n]]);
    v
}

fn check_negacyclic(backend: Backend, bits: u32, log_n: u32, rng: &mut StdRng) -> bool {
    let n = 1usize << log_n;
    let q = Modulus::new(ntt_primes(bits, 2 * n as u64, 1, &[]).unwrap()[0]).unwrap();
    if !backend.is_available(&q) {
        return false;
    }
    let fast = NttTable::with_backend(q, n, backend).unwrap();
    let slow = NttTable::with_backend(q, n, Backend::Scalar).unwrap();
    assert_eq!(fast.backend(), backend);
    let iters = if log_n >= 14 { 1 } else { 4 };
    let qv = q.value();
    for a in inputs(rng, n, qv, 4 * qv, iters) {
        let (mut x, mut y) = (a.clone(), a.clone());
        fast.forward(&mut x).unwrap();
        slow.forward(&mut y).unwrap();
        assert_eq!(x, y, "{backend:?} forward, n = 2^{log_n}, {bits} bits");
        let mut z = a.clone();
        fast.forward_lazy_unchecked(&mut z);
        assert!(z.iter().zip(&y).all(|(&l, &r)| l < 4 * qv && l % qv == r));
    }
    for a in inputs(rng, n, qv, 2 * qv, iters) {
        let (mut x, mut y) = (a.clone(), a.clone());
        fast.inverse(&mut x).unwrap();
        slow.inverse(&mut y).unwrap();
        assert_eq!(x, y, "{backend:?} inverse, n = 2^{log_n}, {bits} bits");
    }
    true
}

#[test]
fn simd_negacyclic_matches_scalar() {
    let mut rng = StdRng::seed_from_u64(2024);
    for backend in SIMD {
        if !skip::runs(backend, "ntt_backends::simd_negacyclic_matches_scalar") {
            continue;
        }
        let mut ran = 0;
        for bits in BITS {
            for log_n in 1..=17 {
                ran += usize::from(check_negacyclic(backend, bits, log_n, &mut rng));
            }
        }
        assert!(ran > 0, "{backend:?} ran for no width");
    }
}

#[test]
fn simd_cyclic_matches_scalar() {
    let mut rng = StdRng::seed_from_u64(7);
    for backend in SIMD {
        if !skip::runs(backend, "ntt_backends::simd_cyclic_matches_scalar") {
            continue;
        }
        for bits in [30u32, 49, 62] {
            for log_n in [1u32, 4, 5, 9, 13] {
                let n = 1usize << log_n;
                let q = Modulus::new(ntt_primes(bits, n as u64, 1, &[]).unwrap()[0]).unwrap();
                if !backend.is_available(&q) {
                    continue; // IFMA for q above 2^50: by design, not a skip
                }
                let fast = CyclicNttTable::with_backend(q, n, backend).unwrap();
                let slow = CyclicNttTable::with_backend(q, n, Backend::Scalar).unwrap();
                for a in inputs(&mut rng, n, q.value(), q.value(), 3) {
                    let (mut x, mut y) = (a.clone(), a.clone());
                    fast.forward(&mut x).unwrap();
                    slow.forward(&mut y).unwrap();
                    assert_eq!(x, y);
                    fast.inverse(&mut x).unwrap();
                    slow.inverse(&mut y).unwrap();
                    assert_eq!(x, y);
                    assert_eq!(x, a);
                }
            }
        }
    }
}

/// The selection answers what this CPU and q support (detected features, IFMA only for q < 2^51),
/// every listed backend builds a table and no other does, scalar comes last, and the default table
/// runs the first listed backend with the scalar kernel's outputs.
#[test]
fn backend_selection() {
    let n = 1 << 10;
    let mut rng = StdRng::seed_from_u64(11);
    for bits in [49u32, 60] {
        let q = Modulus::new(ntt_primes(bits, 2 * n as u64, 1, &[]).unwrap()[0]).unwrap();
        let avail = available_backends(&q);
        assert_eq!(
            avail.last(),
            Some(&Backend::Scalar),
            "{bits} bits: {avail:?}"
        );
        for b in [Backend::Avx512Ifma, Backend::Avx512, Backend::Scalar] {
            assert_eq!(avail.contains(&b), b.is_available(&q), "{bits} bits: {b:?}");
            let built = NttTable::with_backend(q, n, b);
            assert_eq!(built.is_ok(), b.is_available(&q), "{bits} bits: {b:?}");
        }
        #[cfg(target_arch = "x86_64")]
        {
            let f = is_x86_feature_detected!("avx512f");
            let ifma = f && is_x86_feature_detected!("avx512ifma");
            assert_eq!(Backend::Avx512.is_available(&q), f, "{bits} bits");
            assert_eq!(
                Backend::Avx512Ifma.is_available(&q),
                ifma && bits <= 50,
                "{bits} bits"
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!(avail, vec![Backend::Scalar]);
        // The fastest backend within the `RNSFHE_BACKEND` ceiling (avail[0] without one).
        let fast = NttTable::new(q, n).unwrap();
        assert_eq!(fast.backend(), backend_for(&q), "{bits} bits");
        let slow = NttTable::with_backend(q, n, Backend::Scalar).unwrap();
        let a: Vec<u64> = (0..n).map(|_| rng.random_range(0..q.value())).collect();
        let (mut x, mut y) = (a.clone(), a);
        fast.forward(&mut x).unwrap();
        slow.forward(&mut y).unwrap();
        assert_eq!(x, y, "{bits} bits: {:?} against scalar", fast.backend());
    }
}
