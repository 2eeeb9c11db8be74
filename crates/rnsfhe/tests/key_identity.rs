//! Key identities and integrity of the byte format (item 4): keys and ciphertexts of
//! two key pairs sharing one parameter set never mix silently, identities survive bytes, and every
//! single flipped bit in serialised keys and ciphertexts is refused.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::serialize::KeyBytes;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

fn bfv() -> Arc<BfvContext> {
    let p = BfvParameters::builder()
        .degree(64)
        .plain_modulus(257)
        .moduli_bits(&[50, 50])
        .special_moduli_bits(&[50])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BfvContext::new(p).unwrap()
}

fn ckks() -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(1 << 7)
        .levels(2)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

fn is_key_mismatch<T: std::fmt::Debug>(r: Result<T, Error>, ids: &[String]) -> bool {
    match r {
        // The two identities are fields of the error, and the message names both.
        Err(e @ Error::KeyMismatch { left, right, .. }) => {
            let m = e.to_string();
            let mut fields = [left.to_string(), right.to_string()];
            let mut want = ids.to_vec();
            fields.sort();
            want.sort();
            fields.to_vec() == want && ids.iter().all(|id| m.contains(id.as_str()))
        }
        _ => false,
    }
}

#[test]
fn bfv_keys_of_two_users_never_mix() {
    let mut rng = Csprng::from_seed([1; 32]);
    let ctx = bfv();
    let (ask, apk) = ctx.keygen(&mut rng).unwrap();
    let (bsk, bpk) = ctx.keygen(&mut rng).unwrap();
    let (a, b) = (ask.id(), bsk.id());
    assert_ne!(a, b);
    assert_eq!(apk.id(), a);
    let (arlk, brlk) = (
        ctx.relin_key(&ask, &mut rng).unwrap(),
        ctx.relin_key(&bsk, &mut rng).unwrap(),
    );
    let bgk = ctx.galois_keys(&bsk, &[1], false, &mut rng).unwrap();
    let agk = ctx.galois_keys(&ask, &[1], false, &mut rng).unwrap();
    let x = ctx
        .encrypt(&ctx.encode(&[3, 4, 5]).unwrap(), &apk, &mut rng)
        .unwrap();
    let y = ctx
        .encrypt(&ctx.encode(&[1, 1, 1]).unwrap(), &bpk, &mut rng)
        .unwrap();
    assert_eq!(x.key_id(), Some(a));
    let ids = [a.to_string(), b.to_string()];
    // Alice's ciphertext with Bob's relinearisation or Galois keys, Bob's secret, or Bob's ciphertext.
    assert!(is_key_mismatch(ctx.multiply(&x, &x, &brlk), &ids));
    assert!(is_key_mismatch(ctx.rotate_rows(&x, 1, &bgk), &ids));
    assert!(is_key_mismatch(ctx.decrypt(&x, &bsk), &ids));
    assert!(is_key_mismatch(ctx.add(&x, &y), &ids));
    assert!(is_key_mismatch(ctx.multiply_no_relin(&x, &y), &ids));
    // Alice's own keys work, and results keep her identity.
    let sq = ctx.multiply(&x, &x, &arlk).unwrap();
    let rot = ctx.rotate_rows(&sq, 1, &agk).unwrap();
    assert_eq!(rot.key_id(), Some(a));
    let v = ctx.decode(&ctx.decrypt(&sq, &ask).unwrap()).unwrap();
    assert_eq!(&v[..3], &[9, 16, 25]);
    // A ciphertext symmetric-encrypted by Bob carries Bob's identity.
    let z = ctx
        .encrypt_symmetric(&ctx.encode(&[2]).unwrap(), &bsk, &mut rng)
        .unwrap();
    assert_eq!(z.key_id(), Some(b));
}

#[test]
fn ckks_keys_of_two_users_never_mix() {
    let mut rng = Csprng::from_seed([2; 32]);
    let ctx = ckks();
    let (ask, apk) = ctx.keygen(&mut rng).unwrap();
    let (bsk, _bpk) = ctx.keygen(&mut rng).unwrap();
    let ids = [ask.id().to_string(), bsk.id().to_string()];
    let brlk = ctx.relin_key(&bsk, &mut rng).unwrap();
    let arlk = ctx.relin_key(&ask, &mut rng).unwrap();
    let bgk = ctx.galois_keys(&bsk, &[1], false, &mut rng).unwrap();
    let vals = [Complex::new(0.5, 0.0), Complex::new(0.25, 0.0)];
    let x = ctx
        .encrypt(&ctx.encode(&vals).unwrap(), &apk, &mut rng)
        .unwrap();
    assert!(is_key_mismatch(ctx.multiply(&x, &x, &brlk), &ids));
    assert!(is_key_mismatch(ctx.rotate(&x, 1, &bgk), &ids));
    assert!(is_key_mismatch(ctx.decrypt(&x, &bsk), &ids));
    let y = ctx
        .encrypt_symmetric(&ctx.encode(&vals).unwrap(), &bsk, &mut rng)
        .unwrap();
    assert!(is_key_mismatch(ctx.add(&x, &y), &ids));
    let sq = ctx.multiply_rescale(&x, &x, &arlk).unwrap();
    let v = ctx.decrypt_values(&sq, &ask).unwrap();
    assert!((v[0].re - 0.25).abs() < 1e-4 && (v[1].re - 0.0625).abs() < 1e-4);
    // A trivial ciphertext has no identity and combines with either user's.
    let t = ctx.encrypt_trivial(&vals, x.level(), x.scale()).unwrap();
    assert_eq!(t.key_id(), None);
    assert_eq!(ctx.add(&x, &t).unwrap().key_id(), Some(ask.id()));
}

#[test]
fn identities_survive_bytes() {
    let mut rng = Csprng::from_seed([3; 32]);
    let ctx = bfv();
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let gk = ctx.galois_keys_for_sum(&sk, &mut rng).unwrap();
    let ct = ctx
        .encrypt(&ctx.encode(&[1, 2]).unwrap(), &pk, &mut rng)
        .unwrap();
    let id = sk.id();
    let sk2 = ctx
        .secret_key_from_bytes(&ctx.secret_key_to_bytes(&sk).unwrap())
        .unwrap();
    assert_eq!(sk2.id(), id);
    let pk2 = ctx
        .public_key_from_bytes(&ctx.public_key_to_bytes(&pk))
        .unwrap();
    assert_eq!(pk2.id(), id);
    let rlk2 = ctx
        .relin_key_from_bytes(&ctx.relin_key_to_bytes(&rlk))
        .unwrap();
    assert_eq!(rlk2.id(), id);
    let gk2 = ctx
        .galois_keys_from_bytes(&ctx.galois_keys_to_bytes(&gk))
        .unwrap();
    assert_eq!(gk2.id(), id);
    let ct2 = ctx
        .ciphertext_from_bytes(&ctx.ciphertext_to_bytes(&ct).unwrap())
        .unwrap();
    assert_eq!(ct2.key_id(), Some(id));
    // A ciphertext encrypted under the reloaded public key still has the identity, and a reloaded key
    // of another pair is still refused.
    let (other, _) = ctx.keygen(&mut rng).unwrap();
    let orlk = ctx.relin_key(&other, &mut rng).unwrap();
    let orlk2 = ctx
        .relin_key_from_bytes(&ctx.relin_key_to_bytes(&orlk))
        .unwrap();
    assert!(matches!(
        ctx.multiply(&ct2, &ct2, &orlk2),
        Err(Error::KeyMismatch { .. })
    ));
    let ck = ckks();
    let (csk, cpk) = ck.keygen(&mut rng).unwrap();
    let c = ck
        .encrypt(
            &ck.encode(&[Complex::new(1.0, 0.0)]).unwrap(),
            &cpk,
            &mut rng,
        )
        .unwrap();
    let c2 = ck
        .ciphertext_from_bytes(&ck.ciphertext_to_bytes(&c).unwrap())
        .unwrap();
    assert_eq!(c2.key_id(), Some(csk.id()));
}

/// Every single flipped bit of every serialised object is refused (2,008 of 12,909 flips loaded before
/// the checksum).
#[test]
fn every_single_bit_flip_is_refused() {
    let mut rng = Csprng::from_seed([4; 32]);
    let ctx = bfv();
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    let pt = ctx.encode(&[5, 6]).unwrap();
    let ct = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let seeded = ctx.encrypt_symmetric(&pt, &sk, &mut rng).unwrap();
    type Load<'a> = Box<dyn Fn(&[u8]) -> bool + 'a>;
    let objects: Vec<(&str, Vec<u8>, Load<'_>)> = vec![
        (
            "ciphertext",
            ctx.ciphertext_to_bytes(&ct).unwrap(),
            Box::new(|b| ctx.ciphertext_from_bytes(b).is_ok()),
        ),
        (
            "seeded ciphertext",
            ctx.ciphertext_to_bytes(&seeded).unwrap(),
            Box::new(|b| ctx.ciphertext_from_bytes(b).is_ok()),
        ),
        (
            "plaintext",
            ctx.plaintext_to_bytes(&pt).unwrap(),
            Box::new(|b| ctx.plaintext_from_bytes(b).is_ok()),
        ),
        (
            "secret key",
            ctx.secret_key_to_bytes(&sk).unwrap().to_vec(),
            Box::new(|b| ctx.secret_key_from_bytes(b).is_ok()),
        ),
        (
            "public key",
            ctx.public_key_to_bytes(&pk),
            Box::new(|b| ctx.public_key_from_bytes(b).is_ok()),
        ),
        (
            "relinearisation key",
            ctx.relin_key_to_bytes(&rlk),
            Box::new(|b| ctx.relin_key_from_bytes(b).is_ok()),
        ),
        (
            "Galois keys",
            ctx.galois_keys_to_bytes(&gk),
            Box::new(|b| ctx.galois_keys_from_bytes(b).is_ok()),
        ),
        (
            "parameters",
            ctx.params().to_bytes(),
            Box::new(|b| BfvParameters::from_bytes_allowing_insecure(b).is_ok()),
        ),
    ];
    for (what, bytes, load) in &objects {
        assert!(load(bytes), "{what} loads");
        for bit in 0..bytes.len() * 8 {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            assert!(!load(&b), "{what}: flipped bit {bit} was loaded");
        }
    }
}

#[test]
fn version_1_bytes_are_refused_clearly() {
    let mut rng = Csprng::from_seed([5; 32]);
    let ctx = bfv();
    let (_, pk) = ctx.keygen(&mut rng).unwrap();
    let mut b = ctx.public_key_to_bytes(&pk);
    b[4..6].copy_from_slice(&1u16.to_le_bytes());
    match ctx.public_key_from_bytes(&b) {
        Err(Error::Malformed(m)) => assert!(m.contains("version 1"), "{m}"),
        other => panic!("expected a version error, got {other:?}"),
    }
}

/// A BFV ciphertext's noise bounds survive bytes, so a loaded ciphertext keeps its checked
/// decryption (a measurement alone cannot see a coefficient that wrapped past q/2).
#[test]
fn noise_bounds_survive_bytes() {
    let mut rng = Csprng::from_seed([6; 32]);
    let ctx = bfv();
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let x = ctx
        .encrypt(&ctx.encode(&[3]).unwrap(), &pk, &mut rng)
        .unwrap();
    let y = ctx.multiply(&x, &x, &rlk).unwrap();
    assert!(y.noise_bound_log2().is_some());
    let back = ctx
        .ciphertext_from_bytes(&ctx.ciphertext_to_bytes(&y).unwrap())
        .unwrap();
    assert_eq!(back.noise_bound_log2(), y.noise_bound_log2());
    assert_eq!(
        ctx.noise_budget(&back, &sk).unwrap(),
        ctx.noise_budget(&y, &sk).unwrap()
    );
}
