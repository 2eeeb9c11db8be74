//! FV and BGV over any cyclotomic Phi_m (Bajard et al. (SAC 2017)): encryption, addition, multiplication with
//! relinearisation (FV: BEHZ and HPS; BGV: with modulus switching), Galois automorphisms X -> X^g
//! (g in Z_m^*), squarings and slots, each checked against an exact model of the plaintext arithmetic
//! in Z_t[X]/(Phi_m); refusals of bad indices and moduli.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/any_m.rs"]
mod model;
use model::*;

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption, Multiplication};
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::params::Security;
use rnsfhe::Error;
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::ring::Reduction;
use rnsfhe_math::sample::Csprng;

#[test]
fn small_m_binary_and_prime() {
    for m in [21, 45] {
        check_all(m, 2, &[50, 50, 50, 50], Reduction::SparseBarrett);
        check_all(
            m,
            prime_one_mod(m as u64),
            &[50, 50, 50, 50],
            Reduction::Barrett,
        );
    }
}

#[test]
fn m_255_771_1285() {
    for m in [255, 771, 1285] {
        check_all(m, 2, &[50, 50, 50, 50], Reduction::SparseBarrett);
        check_all(
            m,
            prime_one_mod(m as u64),
            &[55, 55, 55, 55],
            Reduction::SparseBarrett,
        );
    }
}

#[test]
fn refusals() {
    let build = |m: usize, t: u64| {
        BgvParameters::builder()
            .cyclotomic_index(m)
            .plain_modulus(t)
            .moduli_bits(&[50, 50])
            .special_moduli_bits(&[55])
            .security(Security::InsecureResearchOnly)
            .build()
    };
    for m in [0, 1, 2] {
        assert!(
            matches!(build(m, 2), Err(Error::InvalidDegree { .. })),
            "m = {m}"
        );
    }
    // A modulus that is 1 mod 2n-ish but not 1 mod lcm(N, m, t).
    let bad = BgvParameters::builder()
        .cyclotomic_index(21)
        .plain_modulus(2)
        .moduli(&[65537])
        .security(Security::InsecureResearchOnly)
        .build();
    assert!(matches!(
        bad,
        Err(Error::InvalidModulus { modulus: 65537, .. })
    ));
    // Montgomery: the representation of section 4.2 for a general Phi_m, none for X^n + 1.
    let mont = |m: usize| {
        BgvParameters::builder()
            .cyclotomic_index(m)
            .reduction(Reduction::Montgomery)
            .moduli_bits(&[50, 50])
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap()
            .is_montgomery()
    };
    assert!(mont(21));
    assert!(!mont(64));
    // m a power of two: the negacyclic ring of degree m / 2.
    assert_eq!(build(64, 2).unwrap().degree(), 32);
    let mut s = setup(21, 2, &[50, 50], Reduction::Barrett);
    let ca = {
        let a = s.random();
        s.encrypt(&a, true)
    };
    assert!(matches!(
        s.ctx.rotate_rows(&ca, 1, &s.gk),
        Err(Error::InvalidParameters(_))
    ));
    let ctx = Arc::clone(&s.ctx);
    assert!(matches!(
        ctx.galois_keys_for_elements(&s.sk, &[7], &mut s.rng),
        Err(Error::InvalidParameters(_))
    ));
    assert!(matches!(
        ctx.apply_galois(&ca, 5, &s.gk),
        Err(Error::MissingGaloisKey { .. })
    ));
}

#[test]
fn fv_any_m_behz_and_hps() {
    for m in [21, 255, 771, 1285] {
        for t in [2, prime_one_mod(m as u64)] {
            for mul in [Multiplication::Behz, Multiplication::Hps] {
                check_fv(m, t, &[55, 55, 55], mul, Reduction::SparseBarrett);
            }
        }
    }
    check_fv(
        45,
        2,
        &[55, 55, 55],
        Multiplication::Hps,
        Reduction::Barrett,
    );
}

#[test]
fn fv_refusals() {
    let build = |m: usize| {
        BfvParameters::builder()
            .cyclotomic_index(m)
            .plain_modulus(2)
            .moduli_bits(&[50, 50])
            .security(Security::InsecureResearchOnly)
            .build()
    };
    assert!(matches!(build(2), Err(Error::InvalidDegree { .. })));
    let bad = BfvParameters::builder()
        .cyclotomic_index(255)
        .plain_modulus(2)
        .moduli(&[65537])
        .security(Security::InsecureResearchOnly)
        .build();
    assert!(matches!(
        bad,
        Err(Error::InvalidModulus { modulus: 65537, .. })
    ));
    let ctx = BfvContext::new(build(21).unwrap()).unwrap();
    let mut rng = Csprng::from_seed([1; 32]);
    let (sk, _) = ctx.keygen(&mut rng).unwrap();
    assert!(matches!(
        ctx.galois_keys(&sk, &[1], false, &mut rng),
        Err(Error::InvalidParameters(_))
    ));
}

/// Bytes of a general-m parameter set, its keys and ciphertexts come back as the same ring: phi(255)
/// = 128 is a power of two, and the degree alone would rebuild X^128 + 1.
#[test]
fn bytes_round_trip_keeps_the_ring() {
    use rnsfhe::serialize::KeyBytes;
    let mut s = setup(255, 2, &[50, 50, 50], Reduction::SparseBarrett);
    let p = BgvParameters::from_bytes_allowing_insecure(&s.ctx.params().to_bytes()).unwrap();
    assert_eq!(p.cyclotomic_index(), 255);
    assert_eq!(&p, s.ctx.params());
    let ctx2 = BgvContext::new(p).unwrap();
    let (a, b) = (s.random(), s.random());
    let ca = s.encrypt(&a, true);
    let cb = s.encrypt(&b, false);
    let ca2 = ctx2
        .ciphertext_from_bytes(&s.ctx.ciphertext_to_bytes(&ca).unwrap())
        .unwrap();
    let cb2 = ctx2
        .ciphertext_from_bytes(&s.ctx.ciphertext_to_bytes(&cb).unwrap())
        .unwrap();
    let sk2 = ctx2
        .secret_key_from_bytes(&s.ctx.secret_key_to_bytes(&s.sk).unwrap())
        .unwrap();
    let rlk2 = ctx2
        .relin_key_from_bytes(&s.ctx.relin_key_to_bytes(&s.rlk))
        .unwrap();
    let gk2 = ctx2
        .galois_keys_from_bytes(&s.ctx.galois_keys_to_bytes(&s.gk))
        .unwrap();
    let prod = ctx2.multiply(&ca2, &cb2, &rlk2).unwrap();
    let got = ctx2.decrypt(&prod, &sk2).unwrap().coefficients().to_vec();
    assert_eq!(got, mul_model(&a, &b, &s.phi, 2));
    let rot = ctx2.apply_galois(&ca2, s.g as u64, &gk2).unwrap();
    let got = ctx2.decrypt(&rot, &sk2).unwrap().coefficients().to_vec();
    assert_eq!(got, galois_model(&a, s.g, 255, &s.phi, 2));
    let fv = BfvParameters::builder()
        .cyclotomic_index(771)
        .plain_modulus(2)
        .moduli_bits(&[50, 50])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let back = BfvParameters::from_bytes_allowing_insecure(&fv.to_bytes()).unwrap();
    assert_eq!(back.cyclotomic_index(), 771);
    assert_eq!(back, fv);
}

/// The slots `old` after the automorphism X -> X^g, predicted by the hypercube's slot map (new slot e
/// holds old slot e' raised to t^p).
fn expected_slots(
    alg: &rnsfhe_math::ring::cyclotomic::SlotAlgebra,
    old: &[Vec<u64>],
    g: usize,
) -> Vec<Vec<u64>> {
    alg.automorphism_slot_map(g)
        .unwrap()
        .into_iter()
        .map(|(e, p)| alg.slot_frobenius(&old[e], p).unwrap())
        .collect()
}

/// Hypercube rotations (+1 and -1 along every dimension) and Frobenius on encrypted slots move and
/// raise the slots as the hypercube of Z_m^* / <t> says, for FV (HPS) and BGV, with t = 2 (slots of
/// GF(2^d)) and with a prime t of one-coefficient slots.
#[test]
fn hypercube_rotations_and_frobenius_on_ciphertexts() {
    for (m, t) in [(255usize, 2u64), (771, 2), (255, 1021)] {
        let params = BfvParameters::builder()
            .cyclotomic_index(m)
            .plain_modulus(t)
            .moduli_bits(&[50, 50, 50])
            .special_moduli_bits(&[60])
            .multiplication(Multiplication::Hps)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let fv = BfvContext::new(params).unwrap();
        let mut rng = Csprng::from_seed([m as u8 ^ t as u8; 32]);
        let (sk, pk) = fv.keygen(&mut rng).unwrap();
        let gk = fv.galois_keys_for_hypercube(&sk, &mut rng).unwrap();
        let alg = fv.slot_algebra().unwrap();
        let tm = Modulus::new(t).unwrap();
        let slots: Vec<Vec<u64>> = (0..alg.slots())
            .map(|_| {
                (0..alg.slot_degree())
                    .map(|_| rng.uniform_mod(&tm))
                    .collect()
            })
            .collect();
        let ct = fv
            .encrypt(&fv.encode_slots(&slots).unwrap(), &pk, &mut rng)
            .unwrap();
        let dec = |c: &rnsfhe::bfv::BfvCiphertext| {
            fv.decode_slots(&fv.decrypt_checked(c, &sk, Decryption::Hps).unwrap())
                .unwrap()
        };
        assert!(
            !alg.dimensions().is_empty(),
            "m = {m}: no hypercube dimension"
        );
        for dim in 0..alg.dimensions().len() {
            for k in [1i64, -1] {
                let g = alg.rotation_galois_element(dim, k).unwrap();
                let got = dec(&fv.rotate_dimension(&ct, dim, k, &gk).unwrap());
                assert_eq!(
                    got,
                    expected_slots(alg, &slots, g),
                    "FV m = {m}, t = {t}, dim {dim}, k {k}"
                );
            }
        }
        let g = alg.frobenius_galois_element();
        if g != 1 {
            let got = dec(&fv.frobenius(&ct, &gk).unwrap());
            let want: Vec<Vec<u64>> = slots
                .iter()
                .map(|s| alg.slot_frobenius(s, 1).unwrap())
                .collect();
            assert_eq!(got, want, "FV Frobenius m = {m}, t = {t}");
            assert_eq!(want, expected_slots(alg, &slots, g));
        }
        // A rotation by 2 needs a key nobody generated: refused, not garbage.
        if alg.dimensions()[0].order > 3 {
            assert!(fv.rotate_dimension(&ct, 0, 2, &gk).is_err());
        }
        assert!(fv
            .rotate_dimension(&ct, alg.dimensions().len(), 1, &gk)
            .is_err());

        // BGV on the same (m, t).
        let mut s = setup(m, t, &[50, 50, 50], Reduction::Barrett);
        let gk = s.ctx.galois_keys_for_hypercube(&s.sk, &mut s.rng).unwrap();
        let alg = s.ctx.slot_algebra().unwrap();
        let ct = s
            .ctx
            .encrypt(&s.ctx.encode_slots(&slots).unwrap(), &s.pk, &mut s.rng)
            .unwrap();
        for dim in 0..alg.dimensions().len() {
            let g = alg.rotation_galois_element(dim, 1).unwrap();
            let r = s.ctx.rotate_dimension(&ct, dim, 1, &gk).unwrap();
            let got = s
                .ctx
                .decode_slots(&s.ctx.decrypt(&r, &s.sk).unwrap())
                .unwrap();
            assert_eq!(
                got,
                expected_slots(alg, &slots, g),
                "BGV m = {m}, t = {t}, dim {dim}"
            );
        }
    }
}
