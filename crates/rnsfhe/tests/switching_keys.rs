//! Switching between two secrets: a dense ternary secret and an ephemeral sparse one
//! (Hamming weight 32). CKKS dense -> sparse -> dense round trips at N = 2^11 and 2^12 decrypt to the
//! input within the noise, over the parameters' key switcher and over one of q_0 and a prefix of P;
//! BGV and BFV do the same exactly; refusals (wrong key pair, level above the key's); bytes. The
//! encapsulation pair at N = 2^16 and 128-bit security: the dense-to-sparse key lives over q_0 and
//! one special prime (121 bits), and every key or ciphertext that would expose the sparse secret at
//! a larger modulus is refused (Lattigo's v6.1.1 pitfall: the key at the full modulus Q P).
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::ckks::{CkksCiphertext, CkksContext, CkksParameters, Complex};
use rnsfhe::params::{Security, SecurityLevel};
use rnsfhe::rlwe::{KeyGenerator, SecretDistribution, SecretKey};
use rnsfhe::serialize::KeyBytes;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

const SPARSE: SecretDistribution = SecretDistribution::HammingWeight(32);

fn ckks(n: usize, special: &[u32], security: Security) -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(n)
        .levels(3)
        .scale_bits(40)
        .first_modulus_bits(60)
        .special_moduli_bits(special)
        .security(security)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

fn values(n: usize) -> Vec<Complex> {
    (0..n)
        .map(|i| {
            Complex::new(
                ((i * 37) % 101) as f64 / 50.0 - 1.0,
                ((i * 11) % 7) as f64 / 7.0,
            )
        })
        .collect()
}

/// Decryption within `tol` of `want` (fresh encryption and key-switching noise at level 0, scale
/// 2^40: about sqrt(N) 2^-29 in the slots).
fn close(
    ct: (&CkksContext, &CkksCiphertext),
    sk: &SecretKey,
    want: &[Complex],
    tol: f64,
    what: &str,
) {
    let got = ct.0.decrypt_values(ct.1, sk).unwrap();
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g.re - w.re).abs() < tol && (g.im - w.im).abs() < tol,
            "{what}: {g:?} against {w:?}"
        );
    }
}

/// Dense -> sparse at level 0 -> dense, with the parameters' key switcher (both special primes)
/// and with one of q_0 and the first special prime only; refusals of the wrong key pair, of a level
/// above the key's, and of a 3-part ciphertext.
#[test]
fn ckks_round_trip_through_a_sparse_secret() {
    for n in [1 << 11, 1 << 12] {
        let ctx = ckks(n, &[60, 60], Security::InsecureResearchOnly);
        let mut rng = Csprng::from_seed([3; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let mut kg = KeyGenerator::new(&*ctx, &mut rng);
        let sparse = kg.secret_key_with(SPARSE).unwrap();
        assert_eq!(sparse.distribution(), SPARSE);
        assert_eq!(
            sparse
                .coefficients()
                .unwrap()
                .iter()
                .filter(|&&c| c != 0)
                .count(),
            32
        );
        let keys = kg.encapsulation_keys_with(&sk, &sparse).unwrap();
        let (d2s, s2d) = (keys.dense_to_sparse(), keys.sparse_to_dense());
        assert_eq!((d2s.level(), s2d.level()), (0, 3));
        assert_eq!((d2s.special_primes(), s2d.special_primes()), (2, 2));
        let own = kg.switching_key_with(&sk, &sparse, 0, 1).unwrap();
        assert_eq!(own.special_primes(), 1);
        assert!(own.log_modulus() < d2s.log_modulus() - 55.0);
        let z = values(n / 2);
        let ct = ctx
            .encrypt(
                &ctx.encode_at(&z, 0, ctx.params().scale()).unwrap(),
                &pk,
                &mut rng,
            )
            .unwrap();
        for (key, what) in [(d2s, "P"), (&own, "q_0 and p_0")] {
            let down = ctx.switch_key(&ct, key).unwrap();
            assert_eq!(down.key_id(), Some(sparse.id()));
            assert_eq!((down.level(), down.scale()), (0, ct.scale()));
            close((&ctx, &down), &sparse, &z, 1e-7, what);
            assert!(
                ctx.decrypt(&down, &sk).is_err(),
                "the dense key no longer opens it"
            );
            let back = ctx.switch_key(&down, s2d).unwrap();
            assert_eq!(back.key_id(), Some(sk.id()));
            close((&ctx, &back), &sk, &z, 1e-7, what);
            // Refused: a ciphertext under another key pair than the key's source.
            match ctx.switch_key(&down, key) {
                Err(Error::KeyMismatch { left, right, .. }) => {
                    assert_eq!((left, right), (sparse.id(), sk.id()))
                }
                other => panic!("{other:?}"),
            }
        }
        // Refused: above the key's level (level 0), naming the key.
        let top = ctx
            .encrypt(&ctx.encode(&z).unwrap(), &pk, &mut rng)
            .unwrap();
        match ctx.switch_key(&top, d2s) {
            Err(Error::LevelOutOfRange { op, level, max }) => {
                assert_eq!((level, max), (3, 0));
                assert!(op.contains("switching key is for levels <= 0"), "{op}");
            }
            other => panic!("{other:?}"),
        }
        // Another key pair's ciphertext, and a 3-part one.
        let (_, pk2) = ctx.keygen(&mut rng).unwrap();
        let other = ctx
            .encrypt(
                &ctx.encode_at(&z, 0, ctx.params().scale()).unwrap(),
                &pk2,
                &mut rng,
            )
            .unwrap();
        assert!(matches!(
            ctx.switch_key(&other, d2s),
            Err(Error::KeyMismatch { .. })
        ));
        let three = ctx.multiply_no_relin(&ct, &ct).unwrap();
        assert!(matches!(
            ctx.switch_key(&three, d2s),
            Err(Error::InvalidCiphertext(_))
        ));
    }
}

/// Switching keys and the encapsulation pair through bytes: the same components, the same bits of
/// a switch; a key over a prefix of P keeps its own switcher.
#[test]
fn switching_keys_round_trip_through_bytes() {
    let ctx = ckks(1 << 11, &[60, 60], Security::InsecureResearchOnly);
    let mut rng = Csprng::from_seed([4; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let mut kg = KeyGenerator::new(&*ctx, &mut rng);
    let keys = kg.encapsulation_keys(&sk, 32).unwrap();
    let sparse = kg.secret_key_with(SPARSE).unwrap();
    let own = kg.switching_key_with(&sk, &sparse, 1, 1).unwrap();
    let z = values(1024);
    let ct = ctx
        .encrypt(
            &ctx.encode_at(&z, 0, ctx.params().scale()).unwrap(),
            &pk,
            &mut rng,
        )
        .unwrap();
    for key in [keys.dense_to_sparse(), &own] {
        let back = ctx
            .switching_key_from_bytes(&ctx.switching_key_to_bytes(key))
            .unwrap();
        assert_eq!(
            (
                back.level(),
                back.special_primes(),
                back.from_id(),
                back.to_id()
            ),
            (
                key.level(),
                key.special_primes(),
                key.from_id(),
                key.to_id()
            )
        );
        let (a, b) = (
            ctx.switch_key(&ct, key).unwrap(),
            ctx.switch_key(&ct, &back).unwrap(),
        );
        for (x, y) in a.parts().iter().zip(b.parts()) {
            assert_eq!(x.residues(), y.residues());
        }
    }
    let pair = ctx
        .encapsulation_keys_from_bytes(&ctx.encapsulation_keys_to_bytes(&keys))
        .unwrap();
    assert_eq!(pair.hamming_weight(), 32);
    assert_eq!(pair.sparse_to_dense().to_id(), sk.id());
    // A pair whose keys do not meet is refused.
    let bad = ctx.switching_key_to_bytes(&own);
    assert!(ctx.encapsulation_keys_from_bytes(&bad).is_err());
}

/// BGV (t-scaled error) and BFV: dense -> sparse -> dense decrypts to the message exactly.
#[test]
fn bgv_and_bfv_round_trips() {
    let t = 65537;
    let p = BgvParameters::builder()
        .degree(1 << 11)
        .plain_modulus(t)
        .moduli_bits(&[50, 50, 50])
        .special_moduli_bits(&[55])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BgvContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([5; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let mut kg = KeyGenerator::new(&*ctx, &mut rng);
    let sparse = kg.secret_key_with(SPARSE).unwrap();
    let keys = kg.encapsulation_keys_with(&sk, &sparse).unwrap();
    let m: Vec<u64> = (0..1u64 << 11).map(|i| (i * 7919) % t).collect();
    let pt = ctx.plaintext_from_coefficients(&m).unwrap();
    let ct = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let low = ctx.mod_switch_to_level(&ct, 0).unwrap();
    let down = ctx.switch_key(&low, keys.dense_to_sparse()).unwrap();
    assert_eq!(
        down.noise_bound_log2(),
        None,
        "another secret: the bound is dropped"
    );
    assert_eq!(ctx.decrypt(&down, &sparse).unwrap().coefficients(), &m[..]);
    let back = ctx.switch_key(&down, keys.sparse_to_dense()).unwrap();
    assert_eq!(ctx.decrypt(&back, &sk).unwrap().coefficients(), &m[..]);

    let p = BfvParameters::builder()
        .degree(1 << 11)
        .plain_modulus(t)
        .moduli_bits(&[50, 50])
        .special_moduli_bits(&[55])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BfvContext::new(p).unwrap();
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let mut kg = KeyGenerator::new(&*ctx, &mut rng);
    let sparse = kg.secret_key_with(SPARSE).unwrap();
    let there = kg.switching_key(&sk, &sparse, 1).unwrap();
    let home = kg.switching_key(&sparse, &sk, 1).unwrap();
    let pt = ctx.plaintext_from_coefficients(&m).unwrap();
    let ct = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let down = ctx.switch_key(&ct, &there).unwrap();
    assert_eq!(ctx.decrypt(&down, &sparse).unwrap().coefficients(), &m[..]);
    let back = ctx.switch_key(&down, &home).unwrap();
    assert_eq!(ctx.decrypt(&back, &sk).unwrap().coefficients(), &m[..]);
    // Between two secrets of the parameters' distribution the bound is kept.
    let mut kg = KeyGenerator::new(&*ctx, &mut rng);
    let dense = kg.secret_key().unwrap();
    let key = kg.switching_key(&sk, &dense, 1).unwrap();
    let moved = ctx.switch_key(&ct, &key).unwrap();
    assert!(moved.noise_bound_log2().unwrap() > ct.noise_bound_log2().unwrap());
    assert_eq!(ctx.decrypt(&moved, &dense).unwrap().coefficients(), &m[..]);
}

/// The security gate of the sparse secret (N = 2^16, 128-bit, q_0 of 60 bits, one 61-bit special
/// prime): the encapsulation's dense-to-sparse key is over q_0 p_0 (<= 121 bits, the estimated
/// modulus of `SPARSE_ESTIMATES`), and the mistake Lattigo fixed in v6.1.1 is refused: a switching
/// key to the sparse secret at the top level (the full modulus Q P), or at level 1, its public,
/// relinearisation and Galois keys and its symmetric encryption at Q. Each encapsulation pair has a
/// sparse secret of its own. The round trip decrypts to the input.
#[test]
fn n16_sparse_secret_is_exposed_at_q0_p0_only() {
    let ctx = ckks(1 << 16, &[61], Security::Standard(SecurityLevel::Bits128));
    let mut rng = Csprng::from_seed([6; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let mut kg = KeyGenerator::new(&*ctx, &mut rng);
    let keys = kg.encapsulation_keys(&sk, 32).unwrap();
    let d2s = keys.dense_to_sparse();
    assert_eq!((d2s.level(), d2s.special_primes()), (0, 1));
    assert!(
        d2s.log_modulus() <= 121.0 && d2s.log_modulus() > 120.0,
        "{}",
        d2s.log_modulus()
    );
    assert!(keys.sparse_to_dense().log_modulus() > 200.0);
    let again = kg.encapsulation_keys(&sk, 32).unwrap();
    assert_ne!(
        again.dense_to_sparse().to_id(),
        d2s.to_id(),
        "a fresh sparse secret"
    );

    let sparse = kg.secret_key_with(SPARSE).unwrap();
    assert_eq!(sparse.max_log_modulus(), 121.0);
    assert!(sk.max_log_modulus() >= 1747.0);
    for level in [1, 3] {
        let err = kg.switching_key(&sk, &sparse, level).unwrap_err();
        assert!(err.to_string().contains("at most 121.0 bits"), "{err}");
    }
    assert!(kg.switching_key_with(&sk, &sparse, 0, 1).is_ok());
    assert!(kg.public_key(&sparse).is_err());
    assert!(kg.relin_key(&sparse).is_err());
    assert!(kg.galois_keys(&sparse, &[5]).is_err());
    assert!(
        kg.galois_keys_at(&sparse, &[5], 0).is_ok(),
        "q_0 p_0: 121 bits"
    );
    let z = values(1 << 15);
    let pt = ctx.encode(&z).unwrap();
    let mut erng = Csprng::from_seed([7; 32]);
    assert!(ctx.encrypt_symmetric(&pt, &sparse, &mut erng).is_err());
    // A sparse secret's weight below 32 is not covered by any estimate.
    let tiny = kg
        .secret_key_with(SecretDistribution::HammingWeight(16))
        .unwrap();
    assert_eq!(tiny.max_log_modulus(), 0.0);
    assert!(kg.encapsulation_keys_with(&sk, &tiny).is_err());

    let keys = kg.encapsulation_keys_with(&sk, &sparse).unwrap();
    let ct = ctx
        .encrypt(
            &ctx.encode_at(&z, 0, ctx.params().scale()).unwrap(),
            &pk,
            &mut erng,
        )
        .unwrap();
    let down = ctx.switch_key(&ct, keys.dense_to_sparse()).unwrap();
    close((&ctx, &down), &sparse, &z, 2e-6, "under the sparse secret");
    let back = ctx.switch_key(&down, keys.sparse_to_dense()).unwrap();
    close((&ctx, &back), &sk, &z, 2e-6, "back under the dense secret");
}

/// The bytes with their CRC-32 trailer made again.
fn reseal(b: &mut Vec<u8>) {
    b.truncate(b.len() - 4);
    let crc = crc32fast::hash(b);
    b.extend_from_slice(&crc.to_le_bytes());
}

/// Malformed switching-key bytes are refused, never loaded or panicking: every truncation, and
/// resealed bytes claiming another special-prime count, level or target weight.
#[test]
fn malformed_switching_key_bytes_are_refused() {
    let ctx = ckks(1 << 10, &[50, 50], Security::InsecureResearchOnly);
    let mut rng = Csprng::from_seed([8; 32]);
    let (sk, _) = ctx.keygen(&mut rng).unwrap();
    let mut kg = KeyGenerator::new(&*ctx, &mut rng);
    let sparse = kg.secret_key_with(SPARSE).unwrap();
    let key = kg.switching_key_with(&sk, &sparse, 1, 1).unwrap();
    let bytes = ctx.switching_key_to_bytes(&key);
    for len in 0..bytes.len() {
        assert!(
            ctx.switching_key_from_bytes(&bytes[..len]).is_err(),
            "{len}"
        );
    }
    // Header 15, identities 16, distribution 8, special primes 4, level 4.
    let (dist, special, level) = (15 + 16, 15 + 16 + 8, 15 + 16 + 8 + 4);
    for (at, value) in [
        (special, 0u64),
        (special, 3),
        (level, 0),
        (level, 2),
        (level, 99),
        (dist, 5000),
    ] {
        let mut b = bytes.clone();
        let width = if at == dist { 8 } else { 4 };
        b[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
        reseal(&mut b);
        assert!(
            ctx.switching_key_from_bytes(&b).is_err(),
            "field at {at} = {value}"
        );
    }
}

/// A general Phi_m ring at 128-bit security (m = 7 * 2^11, n = phi(m) = 6144, read at 4096 in the
/// table as the parameters' gate does): secrets of the parameters' distribution keep their public,
/// relinearisation and Galois keys; a sparse one gets none at Q u P.
#[test]
fn general_m_secrets_follow_the_parameter_gate() {
    let p = BfvParameters::builder()
        .cyclotomic_index(7 << 11)
        .plain_modulus(65537)
        .moduli_bits(&[50])
        .special_moduli_bits(&[50])
        .build()
        .unwrap();
    let ctx = BfvContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([9; 32]);
    let (sk, _) = ctx.keygen(&mut rng).unwrap();
    assert_eq!(sk.max_log_modulus(), 109.0);
    let mut kg = KeyGenerator::new(&*ctx, &mut rng);
    kg.relin_key(&sk).unwrap();
    let sparse = kg.secret_key_with(SPARSE).unwrap();
    assert!(kg.public_key(&sparse).is_err());
}
