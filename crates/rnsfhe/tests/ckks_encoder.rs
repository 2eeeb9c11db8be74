//! The CKKS encoder (Cheon et al. (SAC 2018), §2.1): tau against a direct evaluation, round trips with full and
//! sparse packing, slot-wise products, rotations and conjugation through Galois automorphisms, and
//! the refused inputs.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/worst.rs"]
mod worst;
use worst::{worst_error, worst_slot_error};

use std::f64::consts::PI;

use rnsfhe::ckks::{apply_galois_f64, CkksEncoder, Complex};
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

fn rng(tag: u8) -> Csprng {
    Csprng::from_seed([tag; 32])
}

/// Uniform in [-1, 1).
fn unit(rng: &mut Csprng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

fn random_complex(rng: &mut Csprng, len: usize) -> Vec<Complex> {
    (0..len)
        .map(|_| Complex::new(unit(rng), unit(rng)))
        .collect()
}

/// The slow reference: a(zeta^(5^j)) for j < N/2, zeta = exp(-pi i / N), O(N^2).
fn tau_direct(a: &[f64]) -> Vec<Complex> {
    let n = a.len();
    let m = 2 * n;
    let mut g = 1usize;
    let mut out = Vec::new();
    for _ in 0..n / 2 {
        let mut acc = Complex::ZERO;
        for (k, &c) in a.iter().enumerate() {
            let e = g * k % m;
            acc += Complex::from_angle(-PI * e as f64 / n as f64) * c;
        }
        out.push(acc);
        g = g * 5 % m;
    }
    out
}

fn max_diff(a: &[Complex], b: &[Complex]) -> f64 {
    worst_slot_error(a, b)
}

fn to_f64(c: &[i128]) -> Vec<f64> {
    c.iter().map(|&x| x as f64).collect()
}

/// Schoolbook product in R[X]/(X^N + 1).
fn negacyclic_mul(a: &[f64], b: &[f64]) -> Vec<f64> {
    let n = a.len();
    let mut out = vec![0.0; n];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            if i + j < n {
                out[i + j] += x * y;
            } else {
                out[i + j - n] -= x * y;
            }
        }
    }
    out
}

#[test]
fn tau_matches_direct_evaluation() {
    let mut r = rng(1);
    for n in [2usize, 4, 8, 16, 64] {
        let enc = CkksEncoder::new(n).unwrap();
        let a: Vec<f64> = (0..n).map(|_| unit(&mut r)).collect();
        let fast = enc.embed(&a);
        let slow = tau_direct(&a);
        assert!(max_diff(&fast, &slow) < 1e-12 * n as f64, "n = {n}");
        // tau^-1 checked against the reference too, for full and sparse slot counts (the sparse
        // vector appears replicated in all N/2 slots).
        let mut count = n / 2;
        while count >= 1 {
            let z = random_complex(&mut r, count);
            let coeffs = enc.embed_inverse(&z).unwrap();
            let all = tau_direct(&coeffs);
            let replicated: Vec<Complex> = (0..n / 2).map(|j| z[j % count]).collect();
            assert!(
                max_diff(&all, &replicated) < 1e-12 * n as f64,
                "n = {n}, slots = {count}"
            );
            count /= 2;
        }
    }
}

#[test]
fn embed_reads_longer_inputs_modulo_x_n_plus_1() {
    let enc = CkksEncoder::new(8).unwrap();
    let mut long = vec![0.0; 17];
    long[3] = 1.0; // X^3
    long[9] = 2.0; // 2 X^9 = -2 X
    long[16] = 4.0; // 4 X^16 = 4
    let mut reduced = vec![0.0; 8];
    reduced[3] = 1.0;
    reduced[1] = -2.0;
    reduced[0] = 4.0;
    assert!(max_diff(&enc.embed(&long), &enc.embed(&reduced)) < 1e-12);
    assert!(max_diff(&enc.embed(&[1.0]), &[Complex::from_real(1.0); 4]) < 1e-15);
}

#[test]
fn round_trip_full_and_sparse() {
    let scale = 2f64.powi(40);
    let mut r = rng(2);
    for log_n in [4u32, 10, 15] {
        let n = 1usize << log_n;
        let enc = CkksEncoder::new(n).unwrap();
        for count in [n / 2, n / 4, 8, 2, 1] {
            let z = random_complex(&mut r, count);
            let m = enc.encode(&z, scale).unwrap();
            let back = enc.decode(&to_f64(&m), scale, count).unwrap();
            let err = max_diff(&back, &z);
            assert!(
                err < 2f64.powi(-30),
                "N = 2^{log_n}, slots {count}: {err:e}"
            );

            let x: Vec<f64> = (0..count).map(|_| unit(&mut r)).collect();
            let m = enc.encode_real(&x, scale).unwrap();
            let back = enc.decode_real(&to_f64(&m), scale, count).unwrap();
            let err = worst_error(back.iter().zip(&x).map(|(a, b)| (a - b).abs()));
            assert!(
                err < 2f64.powi(-30),
                "real, N = 2^{log_n}, slots {count}: {err:e}"
            );
            // Real slots give a polynomial whose slots have ~0 imaginary parts.
            let full = enc.decode(&to_f64(&m), scale, count).unwrap();
            assert!(full.iter().all(|z| z.im.abs() < 2f64.powi(-30)));
        }
    }
}

#[test]
fn non_power_of_two_lengths_are_zero_padded() {
    let enc = CkksEncoder::new(64).unwrap();
    let mut r = rng(3);
    let scale = 2f64.powi(40);
    for count in [3usize, 5, 7, 20] {
        let z = random_complex(&mut r, count);
        let m = enc.encode(&z, scale).unwrap();
        let padded = enc
            .decode(&to_f64(&m), scale, count.next_power_of_two())
            .unwrap();
        assert!(max_diff(&padded[..count], &z) < 2f64.powi(-30));
        assert!(padded[count..].iter().all(|x| x.abs() < 2f64.powi(-30)));
        assert_eq!(enc.decode(&to_f64(&m), scale, count).unwrap().len(), count);
    }
}

#[test]
fn sparse_decode_averages_the_replicas() {
    let n = 64;
    let enc = CkksEncoder::new(n).unwrap();
    let mut r = rng(4);
    let a: Vec<f64> = (0..n).map(|_| unit(&mut r)).collect();
    let all = enc.embed(&a);
    for count in [1usize, 2, 8, 16] {
        let reps = (n / 2 / count) as f64;
        let mean: Vec<Complex> = (0..count)
            .map(|j| {
                let mut s = Complex::ZERO;
                for k in (j..n / 2).step_by(count) {
                    s += all[k];
                }
                s.scale(1.0 / reps)
            })
            .collect();
        assert!(max_diff(&enc.decode(&a, 1.0, count).unwrap(), &mean) < 1e-12);
    }
}

#[test]
fn products_are_slot_wise() {
    let scale = 2f64.powi(30);
    let mut r = rng(5);
    for n in [4usize, 16, 64] {
        let enc = CkksEncoder::new(n).unwrap();
        for count in [n / 2, 4.min(n / 2), 1] {
            let z1 = random_complex(&mut r, count);
            let z2 = random_complex(&mut r, count);
            let a = to_f64(&enc.encode(&z1, scale).unwrap());
            let b = to_f64(&enc.encode(&z2, scale).unwrap());
            let prod = enc
                .decode(&negacyclic_mul(&a, &b), scale * scale, count)
                .unwrap();
            let want: Vec<Complex> = z1.iter().zip(&z2).map(|(x, y)| *x * *y).collect();
            let err = max_diff(&prod, &want);
            assert!(err < 1e-6, "n = {n}, slots {count}: {err:e}");
        }
    }
}

#[test]
fn galois_elements() {
    let enc = CkksEncoder::new(32).unwrap();
    assert_eq!(enc.rotation_galois_element(0), 1);
    assert_eq!(enc.rotation_galois_element(1), 5);
    assert_eq!(enc.rotation_galois_element(2), 25);
    assert_eq!(enc.rotation_galois_element(16), 1); // 5 has order N/2 mod 2N
    for r in 1..16 {
        let g = enc.rotation_galois_element(r);
        let h = enc.rotation_galois_element(-r);
        assert_eq!(g * h % 64, 1, "r = {r}");
    }
    assert_eq!(enc.conjugation_galois_element(), 63);
    assert_eq!(CkksEncoder::new(2).unwrap().rotation_galois_element(-3), 1);
}

#[test]
fn rotations_and_conjugation_act_on_the_slots() {
    let scale = 2f64.powi(40);
    let mut r = rng(6);
    for n in [16usize, 64, 1024] {
        let enc = CkksEncoder::new(n).unwrap();
        for count in [n / 2, 4] {
            let z = random_complex(&mut r, count);
            let m = to_f64(&enc.encode(&z, scale).unwrap());
            for step in [1i64, 3, -1] {
                let rotated = apply_galois_f64(&m, enc.rotation_galois_element(step));
                let got = enc.decode(&rotated, scale, count).unwrap();
                let c = count as i64;
                let want: Vec<Complex> = (0..c)
                    .map(|j| z[(j + step).rem_euclid(c) as usize])
                    .collect();
                let err = max_diff(&got, &want);
                assert!(
                    err < 2f64.powi(-30),
                    "n {n}, slots {count}, step {step}: {err:e}"
                );
            }
            let conj = apply_galois_f64(&m, enc.conjugation_galois_element());
            let got = enc.decode(&conj, scale, count).unwrap();
            let want: Vec<Complex> = z.iter().map(|x| x.conj()).collect();
            assert!(max_diff(&got, &want) < 2f64.powi(-30), "conj n {n}");
        }
    }
}

#[test]
fn refused_inputs() {
    for bad in [0usize, 1, 3, 12, 1 << 18] {
        assert!(
            matches!(CkksEncoder::new(bad), Err(Error::InvalidDegree { .. })),
            "N = {bad}"
        );
    }
    let enc = CkksEncoder::new(16).unwrap();
    let ok = [Complex::from_real(0.5); 8];
    match enc.encode(&[Complex::ZERO; 9], 1.0) {
        Err(Error::OutOfRange(msg)) => assert!(msg.contains("at most N/2 = 8"), "{msg}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(enc.encode(&[], 1.0), Err(Error::OutOfRange(_))));
    let mut nan = ok;
    nan[3] = Complex::new(0.0, f64::NAN);
    assert!(matches!(enc.encode(&nan, 2.0), Err(Error::OutOfRange(_))));
    assert!(matches!(
        enc.encode_real(&[1.0, f64::INFINITY], 2.0),
        Err(Error::OutOfRange(_))
    ));
    assert!(matches!(
        enc.embed_inverse(&[Complex::new(f64::NEG_INFINITY, 0.0)]),
        Err(Error::OutOfRange(_))
    ));
    for scale in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(enc.encode(&ok, scale), Err(Error::OutOfRange(_))));
        assert!(matches!(
            enc.decode(&[0.0; 16], scale, 8),
            Err(Error::OutOfRange(_))
        ));
    }
    // 0.5 * 2^127 = 2^126 is refused, just below is accepted.
    match enc.encode(&ok, 2f64.powi(127)) {
        Err(Error::OutOfRange(msg)) => assert!(msg.contains("2^126"), "{msg}"),
        other => panic!("{other:?}"),
    }
    let near = enc.encode(&ok, 2f64.powi(126)).unwrap();
    assert_eq!(near[0], 1i128 << 125);
    assert!(matches!(
        enc.encode_real(&[1e300], 1e300),
        Err(Error::OutOfRange(_))
    ));
    assert!(matches!(
        enc.decode(&[0.0; 15], 1.0, 8),
        Err(Error::LengthMismatch { .. })
    ));
    assert!(matches!(
        enc.decode(&[0.0; 16], 1.0, 9),
        Err(Error::OutOfRange(_))
    ));
    assert!(matches!(
        enc.decode(&[0.0; 16], 1.0, 0),
        Err(Error::OutOfRange(_))
    ));
}

#[test]
fn galois_map_on_coefficients() {
    // X -> X^3 in R[X]/(X^4 + 1): X^2 -> X^6 = -X^2, X^3 -> X^9 = X.
    assert_eq!(
        apply_galois_f64(&[1.0, 2.0, 3.0, 4.0], 3),
        vec![1.0, 4.0, -3.0, 2.0]
    );
    assert!(apply_galois_f64(&[], 5).is_empty());
}

/// N = 2^15 (the peers' ring): the encoded integer coefficients, evaluated directly at zeta^(5^j) for
/// sampled slots j (O(N) each, independent of the special FFT), give z_j * Delta up to the rounding of
/// N coefficients; the decoder returns every slot to the same precision. (Timings: `rnsfhe bench ckks`.)
#[test]
fn encoding_at_n_2_15_matches_direct_evaluation() {
    let n = 1usize << 15;
    let enc = CkksEncoder::new(n).unwrap();
    let mut r = rng(7);
    let z = random_complex(&mut r, n / 2);
    let scale = 2f64.powi(40);
    let m = enc.encode(&z, scale).unwrap();
    assert_eq!(m.len(), n);
    // Rounding N coefficients by at most 1/2 moves a slot by at most N/2 (far less in practice).
    let bound = 1e-9;
    let two_n = 2 * n;
    for _ in 0..8 {
        let j = (r.next_u64() % (n as u64 / 2)) as usize;
        let mut g = 1usize;
        for _ in 0..j {
            g = g * 5 % two_n;
        }
        let mut acc = Complex::ZERO;
        for (k, &c) in m.iter().enumerate() {
            let e = g * k % two_n;
            acc += Complex::from_angle(-PI * e as f64 / n as f64) * (c as f64);
        }
        let err = (acc * (1.0 / scale) - z[j]).abs();
        assert!(err < bound, "slot {j}: error {err:e}");
    }
    let back = enc.decode(&to_f64(&m), scale, n / 2).unwrap();
    let err = max_diff(&back, &z);
    assert!(err < bound, "round trip error {err:e}");
}
