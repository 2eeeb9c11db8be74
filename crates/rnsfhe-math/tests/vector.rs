//! Every pointwise kernel of `arith::vector` against the scalar reference (and u128 arithmetic) on random
//! inputs and the edges 0, q - 1, for lengths that leave tails after the 8-lane vectors.
#![allow(clippy::unwrap_used)] // a test aborts loudly on a set-up error

#[path = "support/skip.rs"]
mod skip;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rnsfhe_math::arith::vector;
use rnsfhe_math::arith::{ntt_primes, Modulus};
use rnsfhe_math::ntt::{available_backends, Backend};

const BITS: [u32; 8] = [30, 40, 49, 50, 55, 60, 61, 62];
const LENS: [usize; 9] = [0, 1, 7, 8, 9, 15, 17, 63, 1000];

/// Moduli of each width: the two largest NTT primes of that width, the smallest odd value of that
/// width, and the power of two below it (Barrett's mu hits its cap there).
fn moduli(bits: u32) -> Vec<Modulus> {
    let mut v = ntt_primes(bits, 1 << 17, 2, &[]).unwrap();
    v.extend([
        (1u64 << (bits - 1)) + 1,
        1u64 << (bits - 1),
        (1u64 << bits) - 1,
    ]);
    v.into_iter().map(|q| Modulus::new(q).unwrap()).collect()
}

/// Operand vectors of length n: random, all 0, all q - 1, alternating edges, and random with edges.
fn operands(rng: &mut StdRng, q: u64, n: usize) -> Vec<Vec<u64>> {
    let mut v = vec![
        (0..n).map(|_| rng.random_range(0..q)).collect(),
        vec![0; n],
        vec![q - 1; n],
        (0..n).map(|i| if i % 2 == 0 { q - 1 } else { 0 }).collect(),
    ];
    let mut mixed: Vec<u64> = (0..n).map(|_| rng.random_range(0..q)).collect();
    for (i, x) in mixed.iter_mut().enumerate() {
        match i % 5 {
            0 => *x = q - 1,
            3 => *x = 0,
            _ => {}
        }
    }
    v.push(mixed);
    v
}

fn reference_mul(q: u64, a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| ((x as u128 * y as u128) % q as u128) as u64)
        .collect()
}

#[test]
fn simd_backends_exist_when_detected() {
    // On an AVX-512 IFMA machine the fast paths must actually be taken for q < 2^50 (within the
    // `RNSFHE_BACKEND` ceiling).
    let q = Modulus::new(ntt_primes(49, 1 << 17, 1, &[]).unwrap()[0]).unwrap();
    let b = vector::mul_backend(&q);
    assert_eq!(b, rnsfhe_math::arith::backend_for(&q));
    if std::env::var_os("RNSFHE_BACKEND").is_none() {
        assert_eq!(b, available_backends(&q)[0]);
    }
    assert_eq!(vector::shoup_backend(&q), b);
    let q60 = Modulus::new(ntt_primes(60, 1 << 17, 1, &[]).unwrap()[0]).unwrap();
    assert_ne!(vector::mul_backend(&q60), Backend::Avx512Ifma);
}

#[test]
fn every_backend_matches_scalar() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0007);
    let mut ran = std::collections::BTreeSet::new();
    for bits in BITS {
        for q in moduli(bits) {
            let qv = q.value();
            for n in LENS {
                let ops = operands(&mut rng, qv, n);
                for (ia, a) in ops.iter().enumerate() {
                    for b in &ops[ia..] {
                        let want = reference_mul(qv, a, b);
                        let z = &ops[(ia + 1) % ops.len()];
                        let want_fma: Vec<u64> = want
                            .iter()
                            .zip(z)
                            .map(|(&p, &s)| ((p as u128 + s as u128) % qv as u128) as u64)
                            .collect();
                        let w = q.shoup(b.first().copied().unwrap_or(qv - 1));
                        let want_shoup: Vec<u64> = a
                            .iter()
                            .map(|&x| ((x as u128 * w.value as u128) % qv as u128) as u64)
                            .collect();
                        let want_horner: Vec<u64> = want_shoup
                            .iter()
                            .zip(z)
                            .map(|(&p, &s)| ((p as u128 + s as u128) % qv as u128) as u64)
                            .collect();
                        for backend in
                            skip::backends_for(&q, "vector::every_backend_matches_scalar")
                        {
                            ran.insert(backend.name());
                            let ctx = format!("{backend:?}, q = {qv} ({bits} bits), n = {n}");
                            let mut x = a.clone();
                            vector::mul_assign_with(backend, &q, &mut x, b).unwrap();
                            assert_eq!(x, want, "mul, {ctx}");
                            let mut x = z.clone();
                            vector::mul_add_assign_with(backend, &q, &mut x, a, b).unwrap();
                            assert_eq!(x, want_fma, "mul_add, {ctx}");
                            let mut x = a.clone();
                            vector::mul_shoup_scalar_assign_with(backend, &q, &mut x, w).unwrap();
                            assert_eq!(x, want_shoup, "mul_shoup, {ctx}");
                            let mut x = vec![u64::MAX; a.len()];
                            vector::mul_shoup_scalar_into_with(backend, &q, a, w, &mut x).unwrap();
                            assert_eq!(x, want_shoup, "mul_shoup_into, {ctx}");
                            let mut x = a.clone();
                            vector::mul_shoup_scalar_add_assign_with(backend, &q, &mut x, w, z)
                                .unwrap();
                            assert_eq!(x, want_horner, "mul_shoup_add, {ctx}");
                        }
                        let mut x = a.clone();
                        vector::mul_assign(&q, &mut x, b);
                        assert_eq!(x, want, "mul_assign, q = {qv}");
                        let mut x = z.clone();
                        vector::mul_add_assign(&q, &mut x, a, b);
                        assert_eq!(x, want_fma, "mul_add_assign, q = {qv}");
                        let mut x = a.clone();
                        vector::mul_shoup_scalar_assign(&q, &mut x, w);
                        assert_eq!(x, want_shoup, "mul_shoup_scalar_assign, q = {qv}");
                        let mut x = vec![0; a.len()];
                        vector::mul_shoup_scalar_into(&q, a, w, &mut x);
                        assert_eq!(x, want_shoup, "mul_shoup_scalar_into, q = {qv}");
                        let mut x = a.clone();
                        vector::mul_shoup_scalar_add_assign(&q, &mut x, w, z);
                        assert_eq!(x, want_horner, "mul_shoup_scalar_add_assign, q = {qv}");
                    }
                }
            }
        }
    }
    eprintln!("backends exercised: {ran:?}");
}

/// Horner's rule over blocks against u128 arithmetic on every backend: several rows, lengths around
/// the lanes and the block size, the small points of Shamir shares (the one-word step, up to the edge
/// of its range for each width) and points beyond them (Shoup's step).
#[test]
fn horner_matches_u128_evaluation() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0017);
    for bits in [30u32, 34, 49, 55, 61, 62] {
        for q in moduli(bits) {
            let qv = q.value();
            // The largest x with (2q - 1) x + q - 1 < 2^64, and the next.
            let edge = ((1u128 << 64) - u128::from(qv)) / u128::from(2 * qv - 1);
            let edge = u64::try_from(edge).unwrap_or(u64::MAX).min(qv - 1);
            let points = [
                1u64,
                2,
                17,
                255,
                256,
                65537,
                edge,
                edge.saturating_add(1),
                rng.random_range(0..qv),
            ];
            for (t, n) in [
                (0usize, 9usize),
                (1, 9),
                (2, 3),
                (3, 13),
                (5, 1024),
                (17, 2051),
            ] {
                let rows: Vec<Vec<u64>> = (0..t)
                    .map(|k| operands(&mut rng, qv, n)[[0, 4, 2][k % 3]].clone())
                    .collect();
                let refs: Vec<&[u64]> = rows.iter().map(Vec::as_slice).collect();
                for x in points {
                    let want: Vec<u64> = (0..n)
                        .map(|i| {
                            let x = u128::from(x) % u128::from(qv);
                            let v = rows.iter().rev().fold(0u128, |acc, r| {
                                (acc * x + u128::from(r[i])) % u128::from(qv)
                            });
                            v as u64
                        })
                        .collect();
                    let ctx = format!("q = {qv} ({bits} bits), t = {t}, n = {n}, x = {x}");
                    for backend in skip::backends_for(&q, "vector::horner_matches_u128_evaluation")
                    {
                        let mut out = vec![1u64; n];
                        vector::horner_with(backend, &q, &refs, x, &mut out).unwrap();
                        assert_eq!(out, want, "{backend:?}, {ctx}");
                    }
                    let mut out = vec![1u64; n];
                    vector::horner(&q, &refs, x, &mut out);
                    assert_eq!(out, want, "horner, {ctx}");
                }
            }
        }
    }
}

#[test]
fn tiny_moduli() {
    // q = 2, 3 and small powers of two: L - 1 shifts of 1 or 2 and capped Barrett constants.
    let mut rng = StdRng::seed_from_u64(11);
    for qv in [2u64, 3, 4, 5, 8, 65537, 1 << 16] {
        let q = Modulus::new(qv).unwrap();
        let a: Vec<u64> = (0..37).map(|_| rng.random_range(0..qv)).collect();
        let b: Vec<u64> = (0..37).map(|_| rng.random_range(0..qv)).collect();
        let want = reference_mul(qv, &a, &b);
        for backend in skip::backends_for(&q, "vector::tiny_moduli") {
            let mut x = a.clone();
            vector::mul_assign_with(backend, &q, &mut x, &b).unwrap();
            assert_eq!(x, want, "{backend:?}, q = {qv}");
        }
    }
}

#[test]
fn explicit_backend_errors() {
    let q = Modulus::new(ntt_primes(55, 1 << 17, 1, &[]).unwrap()[0]).unwrap();
    let mut a = vec![1u64; 9];
    // IFMA needs q < 2^50.
    assert!(vector::mul_assign_with(Backend::Avx512Ifma, &q, &mut a, &[1; 9]).is_err());
    assert!(vector::mul_assign_with(Backend::Scalar, &q, &mut a, &[1; 8]).is_err());
    assert!(vector::mul_add_assign_with(Backend::Scalar, &q, &mut a, &[1; 9], &[1; 10]).is_err());
    let bad = rnsfhe_math::arith::Shoup {
        value: 3,
        quotient: 0,
    };
    assert!(vector::mul_shoup_scalar_assign_with(Backend::Scalar, &q, &mut a, bad).is_err());
}

#[test]
fn inner_product_matches_u128_sums() {
    let mut rng = StdRng::seed_from_u64(77);
    for bits in [30u32, 49, 50, 55, 61] {
        for q in moduli(bits) {
            for (rows, n) in [(1usize, 16usize), (9, 67), (40, 64)] {
                // Random rows and edge rows (all q - 1, alternating, mixed) in both operands.
                let a: Vec<Vec<u64>> = (0..rows)
                    .map(|j| operands(&mut rng, q.value(), n)[[0, 2, 3, 4][j % 4]].clone())
                    .collect();
                let b: Vec<Vec<u64>> = (0..rows)
                    .map(|j| operands(&mut rng, q.value(), n)[[2, 0, 4, 3][j % 4]].clone())
                    .collect();
                let ar: Vec<&[u64]> = a.iter().map(Vec::as_slice).collect();
                let br: Vec<&[u64]> = b.iter().map(Vec::as_slice).collect();
                let mut out = vec![0u64; n];
                vector::inner_product(&q, &ar, &br, &mut out);
                // Two sets of rows at once: the words of two single products.
                let (mut o0, mut o1) = (vec![0u64; n], vec![0u64; n]);
                let rev: Vec<&[u64]> = br.iter().rev().copied().collect();
                vector::inner_product2(&q, &ar, (&br, &rev), &mut o0, &mut o1);
                let mut want1 = vec![0u64; n];
                vector::inner_product(&q, &ar, &rev, &mut want1);
                assert_eq!((&o0, &o1), (&out, &want1), "{bits} bits, {rows} rows");
                for t in 0..n {
                    let want = (0..rows).fold(0u128, |s, j| {
                        (s + u128::from(a[j][t]) * u128::from(b[j][t])) % u128::from(q.value())
                    });
                    assert_eq!(
                        u128::from(out[t]),
                        want,
                        "{bits} bits, {rows} rows, t = {t}"
                    );
                }
            }
        }
    }
}

#[test]
fn add_and_sub_match_scalar() {
    let mut rng = StdRng::seed_from_u64(78);
    for bits in [30u32, 50, 62] {
        for q in moduli(bits) {
            let ops = operands(&mut rng, q.value(), 37);
            for a in &ops {
                for b in &ops {
                    let (mut s, mut d) = (a.clone(), a.clone());
                    vector::add_assign(&q, &mut s, b);
                    vector::sub_assign(&q, &mut d, b);
                    let (mut s2, mut d2) = (vec![u64::MAX; a.len()], vec![u64::MAX; a.len()]);
                    vector::add_into(&q, a, b, &mut s2);
                    vector::sub_into(&q, a, b, &mut d2);
                    for i in 0..a.len() {
                        assert_eq!(s[i], q.add(a[i], b[i]));
                        assert_eq!(d[i], q.sub(a[i], b[i]));
                    }
                    assert_eq!((s2, d2), (s, d), "into, q = {}", q.value());
                }
                let mut x = a.clone();
                vector::double_assign(&q, &mut x);
                let want: Vec<u64> = a.iter().map(|&v| q.add(v, v)).collect();
                assert_eq!(x, want, "double, q = {}", q.value());
            }
        }
    }
}

#[test]
fn lazy_sum_matches_u128_sums_past_the_fold() {
    let mut rng = StdRng::seed_from_u64(79);
    for bits in [40u32, 50, 61] {
        let q = moduli(bits)[0];
        let n = 24;
        let terms = 1100; // past the 2^10 - 1 fold of the IFMA halves
        let mut sum = vector::LazySum::new(&q, n);
        let mut want = vec![0u128; n];
        for _ in 0..terms {
            let a: Vec<u64> = (0..n).map(|_| rng.random_range(0..q.value())).collect();
            let b: Vec<u64> = (0..n)
                .map(|_| q.value() - 1 - rng.random_range(0..8))
                .collect();
            sum.mul_add(&a, &b);
            for t in 0..n {
                want[t] = (want[t] + u128::from(a[t]) * u128::from(b[t])) % u128::from(q.value());
            }
        }
        let mut out = vec![0u64; n];
        sum.finish(&mut out);
        assert!(
            out.iter().zip(&want).all(|(&o, &w)| u128::from(o) == w),
            "{bits} bits"
        );
    }
}

#[test]
fn reduce_into_every_range() {
    let mut rng = StdRng::seed_from_u64(80);
    let q = moduli(49)[0];
    for bound in [q.value() / 3, q.value(), 2 * q.value() - 5, 1 << 60] {
        let src: Vec<u64> = (0..45).map(|_| rng.random_range(0..bound)).collect();
        let mut dst = vec![0u64; src.len()];
        vector::reduce_into(&q, bound, &src, &mut dst);
        assert!(
            src.iter().zip(&dst).all(|(&s, &d)| d == s % q.value()),
            "bound {bound}"
        );
    }
}

#[test]
fn lift_centered_matches_signed_reduction() {
    let mut rng = StdRng::seed_from_u64(81);
    for (fb, qb) in [(40u32, 40u32), (40, 60), (60, 40), (55, 30)] {
        let from = moduli(fb)[0];
        let q = moduli(qb)[1];
        let src: Vec<u64> = (0..37)
            .map(|i| match i % 4 {
                0 => from.value() / 2,
                1 => from.value() / 2 + 1,
                _ => rng.random_range(0..from.value()),
            })
            .collect();
        let mut dst = vec![0u64; src.len()];
        vector::lift_centered(&from, &q, &src, &mut dst);
        for (&s, &d) in src.iter().zip(&dst) {
            assert_eq!(
                d,
                q.reduce_i64(from.center(s)),
                "{fb} -> {qb} bits, x = {s}"
            );
        }
    }
}

#[test]
fn reduce_signed_into_matches_reduce_i64() {
    // Both paths (sign mask when max_abs < q, Barrett otherwise), lengths leaving tails after the
    // vectors, and the edges +-max_abs and 0.
    let mut rng = StdRng::seed_from_u64(82);
    for bits in [30u32, 50, 55, 61] {
        let q = moduli(bits)[0];
        for max_abs in [19u64, q.value() - 1, q.value(), 1 << 62] {
            for n in LENS {
                let src: Vec<i64> = (0..n)
                    .map(|i| match i % 7 {
                        0 => max_abs as i64,
                        1 => -(max_abs as i64),
                        2 => 0,
                        _ => rng.random_range(-(max_abs as i64)..=max_abs as i64),
                    })
                    .collect();
                let mut dst = vec![u64::MAX; n];
                vector::reduce_signed_into(&q, max_abs, &src, &mut dst);
                let want: Vec<u64> = src.iter().map(|&c| q.reduce_i64(c)).collect();
                assert_eq!(dst, want, "{bits} bits, max_abs {max_abs}, n = {n}");
            }
        }
    }
}
