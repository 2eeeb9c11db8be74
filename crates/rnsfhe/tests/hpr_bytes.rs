//! HPR-FV bytes: the secret-key and plaintext formats (round trip, every corrupted or foreign
//! input refused) and the noise bound a ciphertext keeps through its bytes.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::hpr::{HprContext, HprParameters};
use rnsfhe::params::Security;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

const N: usize = 32;
/// Magic (4), version (2), kind (1), fingerprint (8), key identity (8), count (4).
const COEFFS_AT: usize = 27;

fn ctx(k: usize, d: usize) -> std::sync::Arc<HprContext> {
    let p = HprParameters::new(N, 193, k, d, 61, 3.2, Security::InsecureResearchOnly).unwrap();
    HprContext::new(&p).unwrap()
}

fn reseal(b: &mut [u8]) {
    let body = b.len() - 4;
    let crc = crc32fast::hash(&b[..body]);
    b[body..].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn secret_key_round_trip_and_refusals() {
    let c = ctx(2, 3);
    let mut rng = Csprng::from_seed([21; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let m: Vec<u64> = (0..N as u64).map(|i| i * 5 % 193).collect();
    let ct = c.encrypt_symmetric(&sk, &m, &mut rng).unwrap();
    let bytes = c.secret_key_to_bytes(&sk);
    assert_eq!(bytes.len(), COEFFS_AT + N + 4);
    let back = c.secret_key_from_bytes(&bytes).unwrap();
    assert_eq!(back.id(), sk.id());
    assert_eq!(back.coefficients(), sk.coefficients());
    assert_eq!(c.decrypt_checked(&back, &ct).unwrap(), m);

    // Every truncation and a flipped byte: the checksum.
    for len in 0..bytes.len() {
        assert!(
            c.secret_key_from_bytes(&bytes[..len]).is_err(),
            "length {len}"
        );
    }
    let mut bad = bytes.to_vec();
    bad[COEFFS_AT + 3] ^= 1;
    assert!(matches!(
        c.secret_key_from_bytes(&bad),
        Err(Error::Malformed(_))
    ));
    // A coefficient out of {-1, 0, 1} behind a valid checksum.
    let mut bad = bytes.to_vec();
    bad[COEFFS_AT + 3] = 2;
    reseal(&mut bad);
    assert!(matches!(
        c.secret_key_from_bytes(&bad),
        Err(Error::Malformed(_))
    ));
    // Another valid key with the stored identity left: refused by the identity check.
    let mut bad = bytes.to_vec();
    let x = &mut bad[COEFFS_AT + 3];
    *x = if *x == 0 { 1 } else { 0 };
    reseal(&mut bad);
    let err = c.secret_key_from_bytes(&bad).err().unwrap();
    assert!(err.to_string().contains("identity"), "{err}");
    // Another parameter set, and another kind of object.
    assert!(matches!(
        ctx(1, 4).secret_key_from_bytes(&bytes),
        Err(Error::ParameterMismatch { .. })
    ));
    let ct_bytes = c.ciphertext_to_bytes(&ct).unwrap();
    assert!(matches!(
        c.secret_key_from_bytes(&ct_bytes),
        Err(Error::Malformed(_))
    ));
    // A foreign secret key loaded from bytes is still refused by the ciphertext.
    let other = c.secret_key(&mut rng).unwrap();
    let other = c
        .secret_key_from_bytes(&c.secret_key_to_bytes(&other))
        .unwrap();
    assert!(c.decrypt_checked(&other, &ct).is_err());
}

#[test]
fn plaintext_round_trip_and_refusals() {
    let c = ctx(2, 3);
    let m: Vec<u64> = (0..N as u64).map(|i| i * 11 % 193).collect();
    let bytes = c.plaintext_to_bytes(&m).unwrap();
    assert_eq!(c.plaintext_from_bytes(&bytes).unwrap(), m);
    assert!(c.plaintext_to_bytes(&m[1..]).is_err());
    for len in 0..bytes.len() {
        assert!(
            c.plaintext_from_bytes(&bytes[..len]).is_err(),
            "length {len}"
        );
    }
    // A coefficient >= t behind a valid checksum.
    let mut bad = bytes.clone();
    bad[COEFFS_AT - 8] = 200;
    reseal(&mut bad);
    assert!(matches!(
        c.plaintext_from_bytes(&bad),
        Err(Error::OutOfRange(_))
    ));
    assert!(matches!(
        ctx(1, 4).plaintext_from_bytes(&bytes),
        Err(Error::ParameterMismatch { .. })
    ));
}

/// The carried bound travels with the bytes: an exhausted ciphertext stays refused after a round
/// trip, and a NaN bound is refused.
#[test]
fn ciphertext_bytes_keep_the_noise_bound() {
    let c = ctx(1, 2);
    let mut rng = Csprng::from_seed([22; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let pk = c.public_key(&sk, &mut rng).unwrap();
    let rlk = c
        .relin_key(&sk, rnsfhe::hpr::Relinearization::PerResidue, &mut rng)
        .unwrap();
    let m: Vec<u64> = (0..N as u64).map(|i| i % 193).collect();
    let mut ct = c.encrypt(&pk, &m, &mut rng).unwrap();
    while c.decrypt_checked(&sk, &ct).is_ok() {
        ct = c.mul(&ct, &ct, &rlk).unwrap();
    }
    let bytes = c.ciphertext_to_bytes(&ct).unwrap();
    let back = c.ciphertext_from_bytes(&bytes).unwrap();
    assert_eq!(back.noise_bound_log2(), ct.noise_bound_log2());
    assert!(matches!(
        c.decrypt_checked(&sk, &back),
        Err(Error::NoiseBudgetExhausted(_))
    ));
    // Header (15), key identity (1 + 8), bound flag (1), then the bound on ||nu||_inf.
    let mut bad = bytes.clone();
    bad[25..33].copy_from_slice(&f64::NAN.to_le_bytes());
    reseal(&mut bad);
    assert!(matches!(
        c.ciphertext_from_bytes(&bad),
        Err(Error::Malformed(_))
    ));
}
