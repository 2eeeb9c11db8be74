//! The batch encoder: round trips, slot-wise products, rotations and row swaps through Galois
//! automorphisms, and the refused parameters.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::encoding::{apply_galois, BatchEncoder};
use rnsfhe::Error;
use rnsfhe_math::arith::{ntt_primes, Modulus};
use rnsfhe_math::sample::Csprng;

/// Plaintext moduli for degree n: 65537 and a 20-bit prime = 1 mod 2n.
fn moduli(n: usize) -> [u64; 2] {
    [65537, ntt_primes(20, 2 * n as u64, 1, &[]).unwrap()[0]]
}

fn random_values(rng: &mut Csprng, t: u64, len: usize) -> Vec<u64> {
    let q = Modulus::new(t).unwrap();
    (0..len).map(|_| rng.uniform_mod(&q)).collect()
}

/// Negacyclic product mod t, schoolbook.
fn negacyclic_mul(a: &[u64], b: &[u64], t: u64) -> Vec<u64> {
    let n = a.len();
    let t128 = u128::from(t);
    let mut acc = vec![0u128; n];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            let p = u128::from(x) * u128::from(y) % t128;
            let k = (i + j) % n;
            acc[k] = if i + j < n {
                acc[k] + p
            } else {
                acc[k] + t128 - p
            } % t128;
        }
    }
    acc.into_iter().map(|x| x as u64).collect()
}

/// Each row rotated left by `step` (negative: right), cyclically within n/2.
fn rotate_rows(v: &[u64], step: i64) -> Vec<u64> {
    let half = v.len() / 2;
    let s = step.rem_euclid(half as i64) as usize;
    let mut out = Vec::with_capacity(v.len());
    for row in v.chunks_exact(half) {
        out.extend_from_slice(&row[s..]);
        out.extend_from_slice(&row[..s]);
    }
    out
}

#[test]
fn round_trip() {
    let mut rng = Csprng::from_seed([7u8; 32]);
    for log_n in [4, 10, 13] {
        let n = 1usize << log_n;
        for t in moduli(n) {
            let enc = BatchEncoder::new(n, t).unwrap();
            assert_eq!(enc.slots(), n);
            let v = random_values(&mut rng, t, n);
            let a = enc.encode(&v).unwrap();
            assert!(a.iter().all(|&c| c < t));
            assert_eq!(enc.decode(&a).unwrap(), v, "n = {n}, t = {t}");

            // Fewer values: the rest of the slots are zero.
            let short = &v[..n / 3];
            let d = enc.decode(&enc.encode(short).unwrap()).unwrap();
            assert_eq!(&d[..n / 3], short);
            assert!(d[n / 3..].iter().all(|&x| x == 0));

            // Signed values, centered decoding.
            let half = (t - 1) / 2;
            let s: Vec<i64> = v.iter().map(|&x| x as i64 - half as i64).collect();
            let a = enc.encode_signed(&s).unwrap();
            assert_eq!(enc.decode_signed(&a).unwrap(), s);
            assert_eq!(enc.decode(&a).unwrap()[0], (s[0] + t as i64) as u64 % t);
        }
    }
}

#[test]
fn constant_and_identity() {
    // All slots equal c  <=>  the constant polynomial c.
    let enc = BatchEncoder::new(64, 65537).unwrap();
    let a = enc.encode(&[42; 64]).unwrap();
    assert_eq!(a[0], 42);
    assert!(a[1..].iter().all(|&c| c == 0));
}

#[test]
fn slot_wise_product() {
    let mut rng = Csprng::from_seed([8u8; 32]);
    for n in [2usize, 4, 16, 64, 256] {
        for t in moduli(n) {
            let enc = BatchEncoder::new(n, t).unwrap();
            let (x, y) = (random_values(&mut rng, t, n), random_values(&mut rng, t, n));
            let p = negacyclic_mul(&enc.encode(&x).unwrap(), &enc.encode(&y).unwrap(), t);
            let want: Vec<u64> = x
                .iter()
                .zip(&y)
                .map(|(&a, &b)| (u128::from(a) * u128::from(b) % u128::from(t)) as u64)
                .collect();
            assert_eq!(enc.decode(&p).unwrap(), want, "n = {n}, t = {t}");
        }
    }
}

#[test]
fn rotation_follows_seal() {
    // SEAL's example: v = 0..n-1, rotating rows by 1 gives row 0 = [1, 2, ..., n/2 - 1, 0].
    let n = 16;
    let enc = BatchEncoder::new(n, 97).unwrap();
    let v: Vec<u64> = (0..n as u64).collect();
    let g = enc.galois_element_for_rotation(1);
    let r = enc
        .decode(&apply_galois(&enc.encode(&v).unwrap(), g, 97).unwrap())
        .unwrap();
    assert_eq!(
        r,
        vec![1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8]
    );
}

#[test]
fn rotations_and_row_swap() {
    let mut rng = Csprng::from_seed([9u8; 32]);
    for log_n in [2, 3, 4, 10, 13] {
        let n = 1usize << log_n;
        for t in moduli(n) {
            let enc = BatchEncoder::new(n, t).unwrap();
            let v = random_values(&mut rng, t, n);
            let a = enc.encode(&v).unwrap();
            let half = (n / 2) as i64;
            for step in [0, 1, 2, -1, half - 1, -half - 3] {
                let g = enc.galois_element_for_rotation(step);
                let r = enc.decode(&apply_galois(&a, g, t).unwrap()).unwrap();
                assert_eq!(r, rotate_rows(&v, step), "n = {n}, t = {t}, step = {step}");
            }
            let g = enc.galois_element_for_row_swap();
            assert_eq!(g, 2 * n as u64 - 1);
            let r = enc.decode(&apply_galois(&a, g, t).unwrap()).unwrap();
            let (top, bottom) = v.split_at(n / 2);
            assert_eq!(r, [bottom, top].concat(), "n = {n}, t = {t}, row swap");
        }
    }
}

#[test]
fn refused_parameters() {
    // t not prime.
    let e = BatchEncoder::new(16, 65535).unwrap_err();
    assert!(
        matches!(&e, Error::InvalidParameters(m) if m.contains("not prime")),
        "{e}"
    );
    // t prime but not 1 mod 2n: 65537 = 1 mod 2^17 only up to n = 2^16.
    let e = BatchEncoder::new(1 << 17, 65537).unwrap_err();
    assert!(
        matches!(&e, Error::InvalidParameters(m) if m.contains("1 mod 2n")),
        "{e}"
    );
    assert!(BatchEncoder::new(16, 31).is_err()); // 31 = 31 mod 32
    assert!(BatchEncoder::new(16, 1).is_err());
    assert!(BatchEncoder::new(16, 0).is_err());
    // Degree not a power of two, or out of range.
    assert!(matches!(
        BatchEncoder::new(12, 97),
        Err(Error::InvalidDegree { .. })
    ));
    assert!(matches!(
        BatchEncoder::new(1, 97),
        Err(Error::InvalidDegree { .. })
    ));
    assert!(matches!(
        BatchEncoder::new(1 << 18, 65537),
        Err(Error::InvalidDegree { .. })
    ));
}

#[test]
fn refused_inputs() {
    let enc = BatchEncoder::new(16, 97).unwrap();
    // Too many values.
    assert!(matches!(enc.encode(&[0; 17]), Err(Error::OutOfRange(_))));
    assert!(matches!(
        enc.encode_signed(&[0; 17]),
        Err(Error::OutOfRange(_))
    ));
    // A value >= t; the message names the index and t.
    let e = enc.encode(&[1, 2, 97]).unwrap_err();
    assert!(
        matches!(&e, Error::OutOfRange(m) if m.contains("index 2") && m.contains("97")),
        "{e}"
    );
    assert!(enc.encode_signed(&[-97]).is_err());
    assert!(enc.encode_signed(&[96, -96]).is_ok());
    // Decoding needs exactly n coefficients below t.
    assert!(matches!(
        enc.decode(&[0; 15]),
        Err(Error::LengthMismatch {
            expected: 16,
            got: 15,
            ..
        })
    ));
    assert!(enc.decode(&[0; 17]).is_err());
    let mut bad = vec![0u64; 16];
    bad[5] = 97;
    assert!(matches!(enc.decode(&bad), Err(Error::OutOfRange(_))));
    assert!(enc.decode_signed(&bad).is_err());
    // apply_galois refuses even elements.
    assert!(apply_galois(&[0; 16], 4, 97).is_err());
}
