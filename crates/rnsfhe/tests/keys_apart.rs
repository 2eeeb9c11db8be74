//! Keys apart from contexts: keys and ciphertexts valid for every
//! context of equal parameters (directly, through bytes, from another process); a key generator
//! with a common reference string; secrets as any polynomial mod Q u P; key identities from public
//! keys; the evaluation key set. Results are checked against the plaintext (arithmetic mod t).
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{
    Crs, EvaluationKeySet, KeyContext, KeyGenerator, KeyId, PublicKey, SecretKey,
    MAX_GALOIS_ELEMENTS,
};
use rnsfhe::serialize::KeyBytes;
use rnsfhe::Error;
use rnsfhe_math::ring::Representation;
use rnsfhe_math::sample::Csprng;
use zeroize::Zeroizing;

const T: u64 = 12289;
const N: usize = 1024;

fn bfv_params(bits: u32) -> BfvParameters {
    BfvParameters::builder()
        .degree(N)
        .plain_modulus(T)
        .moduli_bits(&[bits, bits])
        .special_moduli_bits(&[50])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap()
}

fn bfv() -> Arc<BfvContext> {
    BfvContext::new(bfv_params(50)).unwrap()
}

fn values(seed: u64) -> Vec<u64> {
    (0..N as u64).map(|i| (i * i + seed * 7919) % T).collect()
}

/// Slot i of each row after a left rotation of the rows by `step`.
fn rotated(x: &[u64], step: usize) -> Vec<u64> {
    let h = N / 2;
    (0..N).map(|i| x[i / h * h + (i % h + step) % h]).collect()
}

fn product(x: &[u64], y: &[u64]) -> Vec<u64> {
    x.iter().zip(y).map(|(a, b)| a * b % T).collect()
}

/// Keys of one context serve another of equal parameters (the same rings), directly and through
/// bytes, and both ways.
#[test]
fn keys_and_ciphertexts_cross_contexts_of_equal_parameters() {
    let (c1, c2) = (bfv(), bfv());
    assert_eq!(c1.fingerprint(), c2.fingerprint());
    assert!(Arc::ptr_eq(
        c1.key_switcher().ring_qp(),
        c2.key_switcher().ring_qp()
    ));
    let mut rng = Csprng::from_seed([1; 32]);
    let (sk, pk) = c1.keygen(&mut rng).unwrap();
    let rlk = c1.relin_key(&sk, &mut rng).unwrap();
    let gk = c1.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    let (x, y) = (values(1), values(2));
    let cx = c1.encrypt(&c1.encode(&x).unwrap(), &pk, &mut rng).unwrap();
    let cy = c2.encrypt(&c2.encode(&y).unwrap(), &pk, &mut rng).unwrap();
    // Context 2 computes on context 1's ciphertexts with context 1's keys.
    let prod = c2.multiply(&cx, &cy, &rlk).unwrap();
    let rot = c2.rotate_rows(&prod, 1, &gk).unwrap();
    let want = rotated(&product(&x, &y), 1);
    assert_eq!(c1.decode(&c1.decrypt(&rot, &sk).unwrap()).unwrap(), want);
    assert_eq!(c2.decode(&c2.decrypt(&rot, &sk).unwrap()).unwrap(), want);
    // Through bytes: every key and the ciphertext written by one, read by the other.
    let sk2 = c2
        .secret_key_from_bytes(&c1.secret_key_to_bytes(&sk).unwrap())
        .unwrap();
    let rlk2 = c2
        .relin_key_from_bytes(&c1.relin_key_to_bytes(&rlk))
        .unwrap();
    let gk2 = c2
        .galois_keys_from_bytes(&c1.galois_keys_to_bytes(&gk))
        .unwrap();
    let pk2 = c2
        .public_key_from_bytes(&c1.public_key_to_bytes(&pk))
        .unwrap();
    let cx2 = c2
        .ciphertext_from_bytes(&c1.ciphertext_to_bytes(&cx).unwrap())
        .unwrap();
    assert_eq!((sk2.id(), pk2.id(), rlk2.id()), (sk.id(), sk.id(), sk.id()));
    let cy2 = c2.encrypt(&c2.encode(&y).unwrap(), &pk2, &mut rng).unwrap();
    let r2 = c1
        .rotate_rows(&c1.multiply(&cx2, &cy2, &rlk2).unwrap(), 1, &gk2)
        .unwrap();
    assert_eq!(c1.decode(&c1.decrypt(&r2, &sk2).unwrap()).unwrap(), want);
}

/// A CKKS context rebuilt from equal parameters takes the first one's keys and ciphertexts.
#[test]
fn ckks_contexts_of_equal_parameters_share_keys() {
    let p = CkksParameters::builder()
        .degree(1 << 10)
        .levels(2)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let (c1, c2) = (
        CkksContext::new(p.clone()).unwrap(),
        CkksContext::new(p).unwrap(),
    );
    let mut rng = Csprng::from_seed([2; 32]);
    let (sk, pk) = c1.keygen(&mut rng).unwrap();
    let rlk = c1.relin_key(&sk, &mut rng).unwrap();
    let z: Vec<Complex> = (0..8).map(|i| Complex::new(i as f64 / 8.0, 0.0)).collect();
    let c = c1.encrypt(&c1.encode(&z).unwrap(), &pk, &mut rng).unwrap();
    let sq = c2.multiply_rescale(&c, &c, &rlk).unwrap();
    let got = c2.decrypt_values(&sq, &sk).unwrap();
    for (g, v) in got.iter().zip(&z) {
        assert!((g.re - v.re * v.re).abs() < 1e-5, "{g:?} against {v:?}^2");
    }
}

/// The child process of [`keys_from_another_process`], not a test of its own: ignored, so that a
/// run counts it as ignored rather than passed; the parent runs this binary again with `--ignored
/// --exact child_writes_keys` and `KEYS_APART_OUT` naming the file to write keys and a ciphertext
/// to (without it, a no-op).
#[test]
#[ignore = "the child process of keys_from_another_process, which runs it with --ignored --exact"]
fn child_writes_keys() {
    let Ok(path) = std::env::var("KEYS_APART_OUT") else {
        return;
    };
    let ctx = bfv();
    let mut rng = Csprng::from_seed([3; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let ct = ctx
        .encrypt(&ctx.encode(&values(3)).unwrap(), &pk, &mut rng)
        .unwrap();
    let parts = [
        ctx.secret_key_to_bytes(&sk).unwrap().to_vec(),
        ctx.relin_key_to_bytes(&rlk),
        ctx.ciphertext_to_bytes(&ct).unwrap(),
    ];
    let mut out = Vec::new();
    for p in parts {
        out.extend_from_slice(&(p.len() as u64).to_le_bytes());
        out.extend_from_slice(&p);
    }
    std::fs::write(path, out).unwrap();
}

/// Keys and a ciphertext written by another process load in this process's context of equal
/// parameters (built here, not a copy of the other's).
#[test]
fn keys_from_another_process() {
    let path = std::env::temp_dir().join(format!("keys_apart_{}.bin", std::process::id()));
    // The child's report is captured: its "test result" line is not one of this run's.
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "child_writes_keys",
            "--exact",
            "--ignored",
            "--test-threads=1",
        ])
        .env("KEYS_APART_OUT", &path)
        .output()
        .unwrap();
    assert!(
        child.status.success(),
        "{}{}",
        String::from_utf8_lossy(&child.stdout),
        String::from_utf8_lossy(&child.stderr)
    );
    let data = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let mut parts = Vec::new();
    let mut rest = &data[..];
    while !rest.is_empty() {
        let len = u64::from_le_bytes(rest[..8].try_into().unwrap()) as usize;
        parts.push(&rest[8..8 + len]);
        rest = &rest[8 + len..];
    }
    let ctx = bfv();
    let sk = ctx.secret_key_from_bytes(parts[0]).unwrap();
    let rlk = ctx.relin_key_from_bytes(parts[1]).unwrap();
    let ct = ctx.ciphertext_from_bytes(parts[2]).unwrap();
    assert_eq!(ct.key_id(), Some(sk.id()));
    let sq = ctx.multiply(&ct, &ct, &rlk).unwrap();
    let x = values(3);
    assert_eq!(
        ctx.decode(&ctx.decrypt(&sq, &sk).unwrap()).unwrap(),
        product(&x, &x)
    );
}

/// Two generators with one CRS draw the same a in every key; without a CRS each key has its own.
#[test]
fn a_common_reference_string_gives_common_uniform_parts() {
    let ctx = bfv();
    let crs = Crs::new([7; 32]);
    let (mut r1, mut r2) = (Csprng::from_seed([1; 32]), Csprng::from_seed([2; 32]));
    let mut g1 = KeyGenerator::new(&*ctx, &mut r1).with_crs(crs);
    let mut g2 = KeyGenerator::new(&*ctx, &mut r2).with_crs(crs);
    let (s1, p1) = g1.key_pair().unwrap();
    let (s2, p2) = g2.key_pair().unwrap();
    assert_ne!(s1.id(), s2.id());
    assert_eq!(p1.seed(), p2.seed());
    assert_eq!(p1.parts().1.residues(), p2.parts().1.residues());
    assert_ne!(p1.parts().0.residues(), p2.parts().0.residues());
    let (rk1, rk2) = (g1.relin_key(&s1).unwrap(), g2.relin_key(&s2).unwrap());
    assert_eq!(rk1.key().seeds(), rk2.key().seeds());
    let (gk1, gk2) = (
        g1.galois_keys(&s1, &[3, 5]).unwrap(),
        g2.galois_keys(&s2, &[5, 3]).unwrap(),
    );
    let seeds = |gk: &rnsfhe::rlwe::GaloisKeys| {
        let mut set = EvaluationKeySet::new();
        set.add_galois_keys(gk).unwrap();
        [3, 5].map(|g| set.galois_key(g).unwrap().seeds().to_vec())
    };
    let (a1, a2) = (seeds(&gk1), seeds(&gk2));
    assert_eq!(a1, a2);
    assert_ne!(a1[0], a1[1], "domain separation by element");
    assert_ne!(rk1.key().seeds()[0], a1[0][0], "domain separation by kind");
    // Without a CRS: fresh seeds.
    let (mut r3, mut r4) = (Csprng::from_seed([1; 32]), Csprng::from_seed([2; 32]));
    let rk3 = ctx.relin_key(&s1, &mut r3).unwrap();
    let rk4 = ctx.relin_key(&s1, &mut r4).unwrap();
    assert_ne!(rk3.key().seeds(), rk4.key().seeds());
}

/// (p0_1 + p0_2, a) under one CRS is a public key of s1 + s2: it encrypts, and a secret key holding
/// s1 + s2 with that key's identity decrypts, exactly (and the sum has larger coefficients).
#[test]
fn the_sum_of_two_public_keys_is_a_key_of_the_sum_of_secrets() {
    let ctx = bfv();
    let crs = Crs::new([11; 32]);
    let (mut r1, mut r2) = (Csprng::from_seed([4; 32]), Csprng::from_seed([5; 32]));
    let (s1, p1) = KeyGenerator::new(&*ctx, &mut r1)
        .with_crs(crs)
        .key_pair()
        .unwrap();
    let (s2, p2) = KeyGenerator::new(&*ctx, &mut r2)
        .with_crs(crs)
        .key_pair()
        .unwrap();
    let p0 = p1.parts().0.add(p2.parts().0).unwrap();
    let pk = PublicKey::from_parts(&*ctx, p0, *p1.seed(), None).unwrap();
    assert_eq!(
        pk.id(),
        KeyId::of_public_key(ctx.fingerprint(), pk.seed(), pk.parts().0).unwrap()
    );
    let sum: Vec<i64> = s1
        .coefficients()
        .unwrap()
        .iter()
        .zip(s2.coefficients().unwrap())
        .map(|(a, b)| a + b)
        .collect();
    assert!(sum.iter().any(|c| c.abs() == 2));
    let sk = SecretKey::from_signed(&*ctx, Zeroizing::new(sum))
        .unwrap()
        .with_identity(&pk)
        .unwrap();
    assert_eq!(sk.id(), pk.id());
    assert!(sk.norm().unwrap().linf == 2);
    let mut rng = Csprng::from_seed([6; 32]);
    let x = values(4);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    assert_eq!(ctx.decode(&ctx.decrypt(&ct, &sk).unwrap()).unwrap(), x);
    // Each party's own key is refused for the collective ciphertext.
    assert!(matches!(
        ctx.decrypt(&ct, &s1),
        Err(Error::KeyMismatch { .. })
    ));
    // The collective secret serialises as residues and keeps its identity.
    let back = ctx
        .secret_key_from_bytes(&ctx.secret_key_to_bytes(&sk).unwrap())
        .unwrap();
    assert_eq!(back.id(), pk.id());
    assert_eq!(ctx.decode(&ctx.decrypt(&ct, &back).unwrap()).unwrap(), x);
}

/// A secret given as residues (coefficient or NTT form) is the same key; a secret uniform mod Q u P
/// (a share) has no small coefficients, yet decrypts its own symmetric encryptions exactly and
/// survives bytes.
#[test]
fn secrets_from_residues() {
    let ctx = bfv();
    let mut rng = Csprng::from_seed([7; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let res = sk.residues_qp().unwrap();
    let same = SecretKey::from_residues(&*ctx, res.clone(), Representation::Coefficient).unwrap();
    assert_eq!(same.id(), sk.id());
    assert_eq!(same.coefficients(), sk.coefficients());
    let ring = ctx.key_switcher().ring_qp();
    let mut p =
        rnsfhe_math::ring::Poly::from_residues(ring, res.to_vec(), Representation::Coefficient)
            .unwrap();
    p.to_ntt().unwrap();
    let from_ntt = SecretKey::from_residues(
        &*ctx,
        Zeroizing::new(p.residues().to_vec()),
        Representation::Ntt,
    )
    .unwrap();
    assert_eq!(from_ntt.id(), sk.id());
    let x = values(5);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    assert_eq!(
        ctx.decode(&ctx.decrypt(&ct, &from_ntt).unwrap()).unwrap(),
        x
    );

    let uniform = rng.uniform_poly(ring.moduli(), N);
    let share =
        SecretKey::from_residues(&*ctx, Zeroizing::new(uniform), Representation::Coefficient)
            .unwrap();
    assert!(share.coefficients().is_none() && share.norm().is_none());
    let ct = ctx
        .encrypt_symmetric(&ctx.encode(&x).unwrap(), &share, &mut rng)
        .unwrap();
    assert_eq!(ctx.decode(&ctx.decrypt(&ct, &share).unwrap()).unwrap(), x);
    let back = ctx
        .secret_key_from_bytes(&ctx.secret_key_to_bytes(&share).unwrap())
        .unwrap();
    assert_eq!(back.id(), share.id());
    assert_eq!(ctx.decode(&ctx.decrypt(&ct, &back).unwrap()).unwrap(), x);
    // Ternary only through from_coefficients.
    assert!(SecretKey::from_coefficients(&*ctx, Zeroizing::new(vec![2; N])).is_err());
}

/// A secret key's identity is its public key's, computed from the public key alone; the canonical
/// public key is deterministic, so a re-imported secret has the same identity.
#[test]
fn identities_come_from_public_keys() {
    let ctx = bfv();
    let mut rng = Csprng::from_seed([8; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    assert_eq!(sk.id(), pk.id());
    assert_eq!(
        pk.id(),
        KeyId::of_public_key(ctx.fingerprint(), pk.seed(), pk.parts().0).unwrap()
    );
    let again = KeyGenerator::new(&*ctx, &mut rng).public_key(&sk).unwrap();
    assert_eq!(again.parts().0.residues(), pk.parts().0.residues());
    assert_eq!(again.seed(), pk.seed());
    let coeffs = Zeroizing::new(sk.coefficients().unwrap().to_vec());
    assert_eq!(
        SecretKey::from_coefficients(&*ctx, coeffs).unwrap().id(),
        sk.id()
    );
    // A context of other parameters gives the same secret another identity.
    let other = BfvContext::new(bfv_params(45)).unwrap();
    let coeffs = Zeroizing::new(sk.coefficients().unwrap().to_vec());
    assert_ne!(
        SecretKey::from_coefficients(&*other, coeffs).unwrap().id(),
        sk.id()
    );
}

/// The key set merges Galois keys of several calls (beyond the per-call cap), looks keys up by
/// element, names a missing element, refuses keys of another pair or parameters, and survives bytes.
#[test]
fn evaluation_key_set() {
    let ctx = bfv();
    let mut rng = Csprng::from_seed([9; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let two_n = 2 * N as u64;
    let odd: Vec<u64> = (3..two_n).step_by(2).collect();
    let (first, second) = (&odd[..200], &odd[150..300]);
    let mut set = EvaluationKeySet::new();
    set.add_galois_keys(&ctx.galois_keys_for_elements(&sk, first, &mut rng).unwrap())
        .unwrap();
    set.add_galois_keys(&ctx.galois_keys_for_elements(&sk, second, &mut rng).unwrap())
        .unwrap();
    assert_eq!(set.galois_elements(), odd[..300].to_vec());
    assert!(set.galois_elements().len() > MAX_GALOIS_ELEMENTS);
    assert!(ctx
        .galois_keys_for_elements(&sk, &odd[..300], &mut rng)
        .is_err());
    set.set_relin_key(Arc::new(ctx.relin_key(&sk, &mut rng).unwrap()))
        .unwrap();
    assert_eq!(set.id(), Some(sk.id()));
    // Lookup, and use: a rotation by 1 (element 3) and a product with the set's keys.
    let x = values(6);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let sq = ctx.multiply(&ct, &ct, set.relin_key().unwrap()).unwrap();
    let rot = ctx.rotate_rows(&sq, 1, set.galois_keys().unwrap()).unwrap();
    let want = rotated(&product(&x, &x), 1);
    assert_eq!(ctx.decode(&ctx.decrypt(&rot, &sk).unwrap()).unwrap(), want);
    assert!(set.galois_key(odd[299]).is_ok());
    match set.galois_key(odd[300]) {
        Err(Error::MissingGaloisKey { element, .. }) => assert_eq!(element, odd[300]),
        other => panic!("expected a missing key, got {other:?}"),
    }
    // Keys of another pair, or of other parameters, are refused.
    let (sk2, _) = ctx.keygen(&mut rng).unwrap();
    let foreign = ctx.galois_keys(&sk2, &[1], false, &mut rng).unwrap();
    assert!(matches!(
        set.add_galois_keys(&foreign),
        Err(Error::KeyMismatch { .. })
    ));
    let other = BfvContext::new(bfv_params(45)).unwrap();
    let (osk, _) = other.keygen(&mut rng).unwrap();
    let orlk = Arc::new(other.relin_key(&osk, &mut rng).unwrap());
    assert!(matches!(
        set.set_relin_key(orlk),
        Err(Error::ParameterMismatch { .. })
    ));
    // Bytes, and their length without them.
    for s in [&set, &EvaluationKeySet::new()] {
        assert_eq!(
            ctx.evaluation_keys_len(s),
            ctx.evaluation_keys_to_bytes(s).len()
        );
    }
    let back = ctx
        .evaluation_keys_from_bytes(&ctx.evaluation_keys_to_bytes(&set))
        .unwrap();
    assert_eq!(back.galois_elements(), set.galois_elements());
    assert_eq!(back.id(), set.id());
    let rot = ctx
        .rotate_rows(
            &ctx.multiply(&ct, &ct, back.relin_key().unwrap()).unwrap(),
            1,
            back.galois_keys().unwrap(),
        )
        .unwrap();
    assert_eq!(ctx.decode(&ctx.decrypt(&rot, &sk).unwrap()).unwrap(), want);
    let empty = ctx
        .evaluation_keys_from_bytes(&ctx.evaluation_keys_to_bytes(&EvaluationKeySet::new()))
        .unwrap();
    assert!(empty.id().is_none() && matches!(empty.relin_key(), Err(Error::MissingKey(_))));
    assert!(other
        .evaluation_keys_from_bytes(&ctx.evaluation_keys_to_bytes(&set))
        .is_err());
}

/// Keys, key sets and ciphertexts of other parameters are refused with a context mismatch, directly
/// and through bytes; so are keys of another scheme over the same rings.
#[test]
fn foreign_parameters_are_refused() {
    let (ctx, other) = (bfv(), BfvContext::new(bfv_params(45)).unwrap());
    assert_ne!(ctx.fingerprint(), other.fingerprint());
    let mut rng = Csprng::from_seed([10; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let (osk, opk) = other.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let pt = ctx.encode(&values(7)).unwrap();
    let ct = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let mismatch = |r: Result<_, Error>| matches!(r, Err(Error::ParameterMismatch { .. }));
    assert!(mismatch(ctx.encrypt(&pt, &opk, &mut rng).map(|_| ())));
    assert!(mismatch(ctx.decrypt(&ct, &osk).map(|_| ())));
    assert!(mismatch(other.relin_key(&sk, &mut rng).map(|_| ())));
    assert!(mismatch(other.decrypt(&ct, &osk).map(|_| ())));
    let oct = other
        .encrypt(&other.encode(&[1]).unwrap(), &opk, &mut rng)
        .unwrap();
    assert!(mismatch(ctx.multiply(&oct, &oct, &rlk).map(|_| ())));
    assert!(mismatch(
        other
            .relin_key_from_bytes(&ctx.relin_key_to_bytes(&rlk))
            .map(|_| ())
    ));
    assert!(mismatch(
        other
            .secret_key_from_bytes(&ctx.secret_key_to_bytes(&sk).unwrap())
            .map(|_| ())
    ));
    // A BGV key is not a BFV key, even over the same rings.
    let bp = rnsfhe::bgv::BgvParameters::builder()
        .degree(N)
        .plain_modulus(T)
        .moduli_bits(&[50, 50])
        .special_moduli_bits(&[50])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let fp = BfvParameters::builder()
        .degree(N)
        .plain_modulus(T)
        .moduli(bp.moduli())
        .special_moduli(bp.special_moduli())
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let (bg, fv) = (
        rnsfhe::bgv::BgvContext::new(bp).unwrap(),
        BfvContext::new(fp).unwrap(),
    );
    assert!(Arc::ptr_eq(
        bg.key_switcher().ring_qp(),
        fv.key_switcher().ring_qp()
    ));
    assert_ne!(bg.params_fingerprint(), fv.params_fingerprint());
    let (bsk, bpk) = bg.keygen(&mut rng).unwrap();
    let (fsk, fpk) = fv.keygen(&mut rng).unwrap();
    let fct = fv
        .encrypt(&fv.encode(&[1]).unwrap(), &fpk, &mut rng)
        .unwrap();
    assert!(mismatch(
        fv.encrypt(&fv.encode(&[1]).unwrap(), &bpk, &mut rng)
            .map(|_| ())
    ));
    assert!(mismatch(fv.decrypt(&fct, &bsk).map(|_| ())));
    assert!(mismatch(bg.relin_key(&fsk, &mut rng).map(|_| ())));
}
