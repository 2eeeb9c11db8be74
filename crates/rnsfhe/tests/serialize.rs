//! Serialisation: round trips, the seeded half-size form, and every malformed input refused without a
//! panic (truncations at every length, corrupted bytes, foreign parameter sets, residues out of range).
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::serialize::KeyBytes;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

/// Recomputes the CRC-32 trailer after a deliberate edit, so that the checks behind it are reached.
fn reseal(b: &mut [u8]) {
    let body = b.len() - 4;
    let crc = crc32fast::hash(&b[..body]);
    b[body..].copy_from_slice(&crc.to_le_bytes());
}

fn bfv(t: u64) -> std::sync::Arc<BfvContext> {
    let p = BfvParameters::builder()
        .degree(64)
        .plain_modulus(t)
        .moduli_bits(&[40, 40])
        .special_moduli_bits(&[40])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BfvContext::new(p).unwrap()
}

#[test]
fn bfv_round_trips_and_seeded_half_size() {
    let mut rng = Csprng::from_seed([1; 32]);
    let ctx = bfv(257);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let pt = ctx.encode(&[1, 2, 3, 250]).unwrap();
    let public = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let seeded = ctx.encrypt_symmetric(&pt, &sk, &mut rng).unwrap();
    let (bp, bs) = (
        ctx.ciphertext_to_bytes(&public).unwrap(),
        ctx.ciphertext_to_bytes(&seeded).unwrap(),
    );
    assert!(
        bs.len() * 2 < bp.len() + 200,
        "seeded form is about half: {} vs {}",
        bs.len(),
        bp.len()
    );
    for bytes in [&bp, &bs] {
        let back = ctx.ciphertext_from_bytes(bytes).unwrap();
        assert_eq!(
            ctx.decrypt(&back, &sk).unwrap(),
            ctx.decrypt(&public, &sk).unwrap()
        );
    }
    let three = ctx.multiply_no_relin(&public, &public).unwrap();
    let back = ctx
        .ciphertext_from_bytes(&ctx.ciphertext_to_bytes(&three).unwrap())
        .unwrap();
    assert_eq!(back.size(), 3);
    assert_eq!(
        ctx.decrypt(&back, &sk).unwrap(),
        ctx.decrypt(&three, &sk).unwrap()
    );
}

#[test]
fn malformed_bytes_are_refused() {
    let mut rng = Csprng::from_seed([2; 32]);
    let ctx = bfv(257);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let pt = ctx.encode(&[7]).unwrap();
    let bytes = ctx
        .ciphertext_to_bytes(&ctx.encrypt(&pt, &pk, &mut rng).unwrap())
        .unwrap();
    let seeded = ctx
        .ciphertext_to_bytes(&ctx.encrypt_symmetric(&pt, &sk, &mut rng).unwrap())
        .unwrap();
    // Every truncation, and trailing garbage.
    for b in [&bytes, &seeded] {
        for len in 0..b.len() {
            assert!(
                ctx.ciphertext_from_bytes(&b[..len]).is_err(),
                "truncated at {len}"
            );
        }
        let mut long = b.clone();
        long.push(0);
        assert!(ctx.ciphertext_from_bytes(&long).is_err());
    }
    // Header corruptions name the problem.
    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert!(
        matches!(ctx.ciphertext_from_bytes(&bad), Err(Error::Malformed(m)) if m.contains("magic"))
    );
    let mut bad = bytes.clone();
    bad[4] = 9;
    assert!(
        matches!(ctx.ciphertext_from_bytes(&bad), Err(Error::Malformed(m)) if m.contains("version"))
    );
    let other = bfv(65537 % 128 + 129);
    assert!(matches!(
        other.ciphertext_from_bytes(&bytes),
        Err(Error::ParameterMismatch { .. })
    ));
    // A residue at or above its modulus.
    let mut bad = bytes.clone();
    // header 15, key identity 1 + 8, noise bounds 1 + 16, parts 4, seed flag 1, polynomial header
    // 1 + 4 + 4
    let first_residue = 4 + 2 + 1 + 8 + 9 + 17 + 4 + 1 + 1 + 4 + 4;
    bad[first_residue..first_residue + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    reseal(&mut bad);
    assert!(matches!(
        ctx.ciphertext_from_bytes(&bad),
        Err(Error::OutOfRange(_))
    ));
    // Flipping any single byte is refused (the checksum), and never panics.
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x5a;
        assert!(ctx.ciphertext_from_bytes(&b).is_err(), "byte {i} flipped");
    }
    // Random bytes with a valid header never panic either.
    for trial in 0..200u64 {
        let mut b = bytes[..15].to_vec();
        let len = (trial * 37 % 300) as usize;
        b.extend((0..len).map(|i| (i as u64 * 31 + trial) as u8));
        let _ = ctx.ciphertext_from_bytes(&b);
    }
}

#[test]
fn ckks_round_trip_and_checks() {
    let mut rng = Csprng::from_seed([3; 32]);
    let p = CkksParameters::builder()
        .degree(1 << 8)
        .levels(3)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = CkksContext::new(p).unwrap();
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let x: Vec<Complex> = (0..8).map(|i| Complex::new(i as f64 / 8.0, -0.5)).collect();
    let c = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let low = ctx.drop_to_level(&c, 1).unwrap();
    for ct in [&c, &low] {
        let bytes = ctx.ciphertext_to_bytes(ct).unwrap();
        let back = ctx.ciphertext_from_bytes(&bytes).unwrap();
        assert_eq!(
            (back.level(), back.scale(), back.slots()),
            (ct.level(), ct.scale(), ct.slots())
        );
        let (a, b) = (
            ctx.decrypt_values(&back, &sk).unwrap(),
            ctx.decrypt_values(ct, &sk).unwrap(),
        );
        assert!(a.iter().zip(&b).all(|(u, v)| (*u - *v).abs() < 1e-12));
        for len in (0..bytes.len()).step_by(97) {
            assert!(ctx.ciphertext_from_bytes(&bytes[..len]).is_err());
        }
    }
    let mut bad = ctx.ciphertext_to_bytes(&c).unwrap();
    bad[24..28].copy_from_slice(&99u32.to_le_bytes()); // level 99 (after the key identity)
    reseal(&mut bad);
    assert!(
        matches!(ctx.ciphertext_from_bytes(&bad), Err(Error::InvalidCiphertext(m)) if m.contains("level"))
    );
    let bfv_bytes = {
        let b = bfv(257);
        let (_, pkb) = b.keygen(&mut rng).unwrap();
        b.ciphertext_to_bytes(&b.encrypt(&b.encode(&[1]).unwrap(), &pkb, &mut rng).unwrap())
            .unwrap()
    };
    assert!(
        matches!(ctx.ciphertext_from_bytes(&bfv_bytes), Err(Error::Malformed(m)) if m.contains("kind"))
    );
}

#[test]
fn keys_round_trip_and_work() {
    use rnsfhe::bfv::Multiplication;
    use rnsfhe::rlwe::KeySwitching;
    let mut rng = Csprng::from_seed([4; 32]);
    for (special, ks) in [
        (vec![40u32], KeySwitching::default()),
        (
            vec![],
            KeySwitching {
                truncation: 1,
                ..KeySwitching::default()
            },
        ),
        (
            vec![],
            KeySwitching {
                omega_bits: Some(12),
                ..KeySwitching::default()
            },
        ),
        (
            vec![40, 40],
            KeySwitching {
                digit_primes: 2,
                ..KeySwitching::default()
            },
        ),
    ] {
        let p = BfvParameters::builder()
            .degree(64)
            .plain_modulus(257)
            .moduli_bits(&[40, 40, 40])
            .special_moduli_bits(&special)
            .key_switching(ks)
            .multiplication(Multiplication::Behz)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let ctx = BfvContext::new(p).unwrap();
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let gk = ctx.galois_keys(&sk, &[1], true, &mut rng).unwrap();
        let pk2 = ctx
            .public_key_from_bytes(&ctx.public_key_to_bytes(&pk))
            .unwrap();
        let rlk_bytes = ctx.relin_key_to_bytes(&rlk);
        let rlk2 = ctx.relin_key_from_bytes(&rlk_bytes).unwrap();
        let gk_bytes = ctx.galois_keys_to_bytes(&gk);
        let gk2 = ctx.galois_keys_from_bytes(&gk_bytes).unwrap();
        let v: Vec<u64> = (0..64).map(|i| i * 3 % 257).collect();
        let ct = ctx
            .encrypt(&ctx.encode(&v).unwrap(), &pk2, &mut rng)
            .unwrap();
        let sq = ctx
            .rotate_rows(&ctx.square(&ct, &rlk2).unwrap(), 1, &gk2)
            .unwrap();
        let got = ctx.decode(&ctx.decrypt(&sq, &sk).unwrap()).unwrap();
        let want: Vec<u64> = (0..64)
            .map(|i| {
                let j = if i < 32 {
                    (i + 1) % 32
                } else {
                    32 + (i - 32 + 1) % 32
                };
                v[j] * v[j] % 257
            })
            .collect();
        assert_eq!(got, want, "{ks:?}");
        for len in (0..rlk_bytes.len()).step_by(501) {
            assert!(ctx.relin_key_from_bytes(&rlk_bytes[..len]).is_err());
        }
        for len in (0..gk_bytes.len()).step_by(499) {
            assert!(ctx.galois_keys_from_bytes(&gk_bytes[..len]).is_err());
        }
        assert!(
            ctx.public_key_from_bytes(&rlk_bytes).is_err(),
            "kind checked"
        );
    }
    // CKKS keys with hybrid digits.
    let p = CkksParameters::builder()
        .degree(1 << 8)
        .levels(3)
        .special_moduli_bits(&[60, 60])
        .key_switching(KeySwitching {
            digit_primes: 2,
            ..KeySwitching::default()
        })
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = CkksContext::new(p).unwrap();
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    let pk2 = ctx
        .public_key_from_bytes(&ctx.public_key_to_bytes(&pk))
        .unwrap();
    let rlk2 = ctx
        .relin_key_from_bytes(&ctx.relin_key_to_bytes(&rlk))
        .unwrap();
    let gk2 = ctx
        .galois_keys_from_bytes(&ctx.galois_keys_to_bytes(&gk))
        .unwrap();
    let x: Vec<Complex> = (0..8).map(|i| Complex::new(i as f64 / 8.0, 0.25)).collect();
    let c = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk2, &mut rng)
        .unwrap();
    let r = ctx
        .rotate(&ctx.multiply_rescale(&c, &c, &rlk2).unwrap(), 1, &gk2)
        .unwrap();
    let got = ctx.decrypt_values(&r, &sk).unwrap();
    for i in 0..8 {
        let w = x[(i + 1) % 8] * x[(i + 1) % 8];
        assert!((got[i] - w).abs() < 1e-5, "slot {i}");
    }
}

#[test]
fn parameters_and_plaintexts_round_trip() {
    use rnsfhe::rlwe::SecretDistribution;
    let mut rng = Csprng::from_seed([5; 32]);
    let p = BfvParameters::builder()
        .degree(64)
        .plain_modulus(257)
        .moduli_bits(&[40, 40])
        .special_moduli_bits(&[40])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let bytes = p.to_bytes();
    let p2 = BfvParameters::from_bytes_allowing_insecure(&bytes).unwrap();
    assert_eq!(p, p2);
    // A ciphertext written under one context loads under a context rebuilt from the bytes.
    let (a, b) = (BfvContext::new(p).unwrap(), BfvContext::new(p2).unwrap());
    assert_eq!(a.fingerprint(), b.fingerprint());
    let (sk, pk) = a.keygen(&mut rng).unwrap();
    let pt = a.encode(&[5, 6]).unwrap();
    let ct = b
        .ciphertext_from_bytes(
            &a.ciphertext_to_bytes(&a.encrypt(&pt, &pk, &mut rng).unwrap())
                .unwrap(),
        )
        .unwrap();
    let pt_b = b
        .plaintext_from_bytes(&a.plaintext_to_bytes(&pt).unwrap())
        .unwrap();
    assert_eq!(b.decode(&pt_b).unwrap()[..2], [5, 6]);
    // Keys belong to parameters, not to context objects: a's secret key is b's.
    assert_eq!(
        b.decode(&b.decrypt(&ct, &sk).unwrap()).unwrap()[..2],
        [5, 6]
    );
    for len in 0..bytes.len() {
        assert!(BfvParameters::from_bytes_allowing_insecure(&bytes[..len]).is_err());
    }
    let mut bad = bytes.clone();
    bad[15 + 8 + 8 + 4..15 + 8 + 8 + 4 + 8].copy_from_slice(&1000u64.to_le_bytes()); // q_0 = 1000
    reseal(&mut bad);
    assert!(BfvParameters::from_bytes_allowing_insecure(&bad).is_err());

    let c = CkksParameters::builder()
        .degree(1 << 8)
        .levels(3)
        .secret(SecretDistribution::HammingWeight(32))
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let cb = c.to_bytes();
    let c2 = CkksParameters::from_bytes_allowing_insecure(&cb).unwrap();
    assert_eq!(c, c2);
    let (x, y) = (CkksContext::new(c).unwrap(), CkksContext::new(c2).unwrap());
    let pt = x.encode_real(&[0.5, -0.25]).unwrap();
    let back = y
        .plaintext_from_bytes(&x.plaintext_to_bytes(&pt).unwrap())
        .unwrap();
    let v = y.decode(&back).unwrap();
    assert!((v[0].re - 0.5).abs() < 1e-9 && (v[1].re + 0.25).abs() < 1e-9);
    for len in (0..cb.len()).step_by(7) {
        assert!(CkksParameters::from_bytes_allowing_insecure(&cb[..len]).is_err());
    }
    let insecure = {
        let mut b = cb.clone();
        let last = b.len() - 1;
        b[last] = 1; // ask for 128-bit security on research-size parameters
        b
    };
    assert!(CkksParameters::from_bytes_allowing_insecure(&insecure).is_err());
}

#[test]
fn secret_key_round_trip_and_checks() {
    let mut rng = Csprng::from_seed([5; 32]);
    let ctx = bfv(257);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let bytes = ctx.secret_key_to_bytes(&sk).unwrap();
    // Header, key profile, identity, body flag, count, one byte per coefficient, checksum.
    assert_eq!(bytes.len(), 15 + 29 + 8 + 1 + 4 + 64 + 4);
    let sk2 = ctx.secret_key_from_bytes(&bytes).unwrap();
    assert_eq!(sk2.coefficients(), sk.coefficients());
    let ct = ctx
        .encrypt(&ctx.encode(&[7, 8, 9]).unwrap(), &pk, &mut rng)
        .unwrap();
    assert_eq!(
        ctx.decrypt(&ct, &sk2).unwrap(),
        ctx.decrypt(&ct, &sk).unwrap()
    );
    let mut bad = bytes.to_vec();
    bad[15 + 29 + 8 + 1 + 4 + 1] = 2;
    reseal(&mut bad);
    assert!(
        matches!(ctx.secret_key_from_bytes(&bad), Err(Error::Malformed(m)) if m.contains("coefficient 1"))
    );
    for len in 0..bytes.len() {
        assert!(ctx.secret_key_from_bytes(&bytes[..len]).is_err());
    }
    assert!(matches!(
        bfv(65537).secret_key_from_bytes(&bytes),
        Err(Error::ParameterMismatch { .. })
    ));
}

/// Format-2 bytes still load: a ternary secret key (no identity stored) takes the identity of
/// version 1 (a hash of its coefficients), which the ciphertexts and keys written beside it carry,
/// so it opens them.
#[test]
fn format_2_secret_keys_and_ciphertexts_still_load() {
    let mut rng = Csprng::from_seed([7; 32]);
    let ctx = bfv(257);
    let (sk, _) = ctx.keygen(&mut rng).unwrap();
    let v3 = ctx.secret_key_to_bytes(&sk).unwrap();
    // Format 2: header (version 2), count, coefficients, checksum; no key profile (29 bytes), no
    // identity, no body flag.
    let mut v2 = v3[..15].to_vec();
    v2[4..6].copy_from_slice(&2u16.to_le_bytes());
    v2.extend_from_slice(&v3[15 + 29 + 8 + 1..]);
    reseal(&mut v2);
    let old = ctx.secret_key_from_bytes(&v2).unwrap();
    assert_eq!(old.coefficients(), sk.coefficients());
    assert_ne!(
        old.id(),
        sk.id(),
        "format 2 keeps the identity of version 1"
    );
    // A format-2 ciphertext of that key pair: its stored identity is the old one.
    let ct = ctx
        .encrypt_symmetric(&ctx.encode(&[4, 5]).unwrap(), &old, &mut rng)
        .unwrap();
    assert_eq!(ct.key_id(), Some(old.id()));
    let mut b = ctx.ciphertext_to_bytes(&ct).unwrap();
    b[4..6].copy_from_slice(&2u16.to_le_bytes());
    reseal(&mut b);
    let back = ctx.ciphertext_from_bytes(&b).unwrap();
    assert_eq!(
        ctx.decode(&ctx.decrypt(&back, &old).unwrap()).unwrap()[..2],
        [4, 5]
    );
    assert!(matches!(
        ctx.decrypt(&back, &sk),
        Err(Error::KeyMismatch { .. })
    ));
}

/// Size limits: counts claimed by the bytes are checked against the context before anything is
/// allocated, so a short input claiming a huge object is refused at once.
#[test]
fn claimed_sizes_are_bounded_by_the_context() {
    let mut rng = Csprng::from_seed([6; 32]);
    let ctx = bfv(257);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    // Galois keys: header 15, key profile 29, key identity 8, then the count.
    let mut b = ctx.galois_keys_to_bytes(&gk);
    b[52..56].copy_from_slice(&u32::MAX.to_le_bytes());
    reseal(&mut b);
    assert!(
        matches!(ctx.galois_keys_from_bytes(&b), Err(Error::Malformed(m)) if m.contains("Galois keys for degree"))
    );
    // A ciphertext claiming 2^32 - 1 parts.
    let ct = ctx
        .encrypt(&ctx.encode(&[1]).unwrap(), &pk, &mut rng)
        .unwrap();
    let mut b = ctx.ciphertext_to_bytes(&ct).unwrap();
    b[41..45].copy_from_slice(&u32::MAX.to_le_bytes());
    reseal(&mut b);
    assert!(matches!(
        ctx.ciphertext_from_bytes(&b),
        Err(Error::InvalidCiphertext(m)) if m.contains("2..=16")
    ));
    // A polynomial claiming a huge degree.
    let mut b = ctx.ciphertext_to_bytes(&ct).unwrap();
    b[51..55].copy_from_slice(&u32::MAX.to_le_bytes());
    reseal(&mut b);
    assert!(matches!(
        ctx.ciphertext_from_bytes(&b),
        Err(Error::Malformed(_))
    ));
}
