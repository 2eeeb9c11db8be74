//! FV and BGV over a general Phi_m with Bajard et al. (SAC 2017)'s Montgomery representation: BGV's pipeline of
//! section 4.2 (ciphertexts as c M, keys with M^2) and FV's mixed strategy of section 4.4, each checked
//! against the exact model of Z_t[X]/(Phi_m) and against the Barrett reductions; the reduction kept in
//! bytes.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/any_m.rs"]
mod model;
use model::*;

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption, Multiplication};
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::params::Security;
use rnsfhe::rlwe::SecretKey;
use rnsfhe_math::ring::cyclotomic::cyclotomic_polynomial;
use rnsfhe_math::ring::Reduction;
use rnsfhe_math::sample::Csprng;

/// BGV in the Montgomery representation (Bajard et al. (SAC 2017) section 4.2): every phase of `check_all` against
/// the exact model, for m in {21, 255, 771}, t = 2 and (m = 21) a prime t with d = 1.
#[test]
fn bgv_montgomery_any_m() {
    for m in [21, 255, 771] {
        check_all(m, 2, &[50, 50, 50, 50], Reduction::Montgomery);
    }
    check_all(
        21,
        prime_one_mod(21),
        &[55, 55, 55, 55],
        Reduction::Montgomery,
    );
}

/// Montgomery and Barrett BGV decrypt a product, a switch, a rotation and the plaintext operations to
/// the same message, and the
/// Montgomery ciphertext holds c M: leaving the form gives a ciphertext that decrypts right with the
/// plain arithmetic of the Barrett ring (same moduli, same secret).
#[test]
fn bgv_montgomery_agrees_with_barrett() {
    use rnsfhe_math::ring::{Form, Poly, Representation};
    let m = 255;
    let mut mo = setup(m, 2, &[50, 50, 50], Reduction::Montgomery);
    let mut ba = setup(m, 2, &[50, 50, 50], Reduction::Barrett);
    let (a, b) = (mo.random(), mo.random());
    let run = |s: &mut Setup| {
        let ca = s.encrypt(&a, true);
        let cb = s.encrypt(&b, false);
        let prod = s.ctx.multiply(&ca, &cb, &s.rlk).unwrap();
        let down = s.ctx.mod_switch(&prod).unwrap();
        let rot = s.ctx.apply_galois(&down, s.g as u64, &s.gk).unwrap();
        let pb = s.ctx.plaintext_from_coefficients(&b).unwrap();
        let plain_ops = [
            s.ctx.mul_plain(&ca, &pb).unwrap(),
            s.ctx.add_plain(&ca, &pb).unwrap(),
            s.ctx.mul_scalar(&ca, 3).unwrap(),
        ]
        .map(|c| s.decrypt(&c));
        (ca, s.decrypt(&down), s.decrypt(&rot), plain_ops)
    };
    let (ca, mo_down, mo_rot, mo_plain) = run(&mut mo);
    let (_, ba_down, ba_rot, ba_plain) = run(&mut ba);
    assert_eq!(mo_down, ba_down);
    assert_eq!(mo_rot, ba_rot);
    assert_eq!(mo_plain, ba_plain);
    assert_eq!(mo_plain[0], mul_model(&a, &b, &mo.phi, 2));
    assert_eq!(mo_plain[1], add_model(&a, &b, 2));
    assert_eq!(mo_down, mul_model(&a, &b, &mo.phi, 2));
    // The parts are in Montgomery form; their values c (out of the form) under the same secret in
    // the Barrett ring decrypt to a.
    let ring = ba.ctx.ring_at(ca.level()).unwrap();
    let sk_ba = SecretKey::from_coefficients(
        &*ba.ctx,
        zeroize::Zeroizing::new(mo.sk.coefficients().unwrap().to_vec()),
    )
    .unwrap();
    let parts: Vec<Poly> = ca
        .parts()
        .iter()
        .map(|p| {
            assert_eq!(p.montgomery_form(), Form::Montgomery);
            let mut c = p.from_montgomery().unwrap();
            c.to_coefficient().unwrap();
            assert_ne!(c.residues(), {
                let mut raw = p.clone();
                raw.to_coefficient().unwrap();
                raw.residues().to_vec()
            });
            Poly::from_residues(ring, c.residues().to_vec(), Representation::Coefficient).unwrap()
        })
        .collect();
    let plain = ba
        .ctx
        .ciphertext_from_parts(parts, Some(sk_ba.id()))
        .unwrap();
    let got = ba.ctx.decrypt(&plain, &sk_ba).unwrap();
    assert_eq!(got.coefficients(), &a[..]);
}

/// Bytes of a Montgomery parameter set keep the representation, and its ciphertexts and keys come
/// back as c M and keys with M^2 (a product of read-back parts decrypts right); a Barrett context
/// of the same moduli does not take them (the fingerprints differ).
#[test]
fn bgv_montgomery_bytes_round_trip() {
    use rnsfhe::serialize::KeyBytes;
    let mut s = setup(255, 2, &[50, 50, 50], Reduction::Montgomery);
    let p = BgvParameters::from_bytes_allowing_insecure(&s.ctx.params().to_bytes()).unwrap();
    assert!(p.is_montgomery());
    assert_eq!(&p, s.ctx.params());
    let ctx2 = BgvContext::new(p).unwrap();
    let (a, b) = (s.random(), s.random());
    let ca = s.encrypt(&a, true);
    let cb = s.encrypt(&b, false);
    let bytes = s.ctx.ciphertext_to_bytes(&ca).unwrap();
    let ca2 = ctx2.ciphertext_from_bytes(&bytes).unwrap();
    let cb2 = ctx2
        .ciphertext_from_bytes(&s.ctx.ciphertext_to_bytes(&cb).unwrap())
        .unwrap();
    let sk2 = ctx2
        .secret_key_from_bytes(&s.ctx.secret_key_to_bytes(&s.sk).unwrap())
        .unwrap();
    let rlk2 = ctx2
        .relin_key_from_bytes(&s.ctx.relin_key_to_bytes(&s.rlk))
        .unwrap();
    let prod = ctx2.multiply(&ca2, &cb2, &rlk2).unwrap();
    let got = ctx2.decrypt(&prod, &sk2).unwrap().coefficients().to_vec();
    assert_eq!(got, mul_model(&a, &b, &s.phi, 2));
    let barrett = setup(255, 2, &[50, 50, 50], Reduction::Barrett);
    assert!(barrett.ctx.ciphertext_from_bytes(&bytes).is_err());
}

/// FV with the mixed strategy of Bajard et al. (SAC 2017) section 4.4 (optimised Barrett tensor, Montgomery
/// relinearisation with keys carrying M): every phase of `check_fv` against the exact model.
#[test]
fn fv_mixed_montgomery_any_m() {
    for m in [21, 255, 771] {
        for mul in [Multiplication::Behz, Multiplication::Hps] {
            check_fv(m, 2, &[55, 55, 55], mul, Reduction::Montgomery);
        }
    }
    check_fv(
        21,
        prime_one_mod(21),
        &[55, 55, 55],
        Multiplication::Hps,
        Reduction::Montgomery,
    );
}

/// The mixed strategy's relinearisation keys live on the Montgomery ring in Montgomery form (residues
/// K M), its ciphertexts on the optimised Barrett ring in plain form; the parameter bytes keep the
/// strategy and the relinearisation key comes back usable; a plain FV context of the same moduli
/// refuses the bytes (the fingerprints differ).
#[test]
fn fv_mixed_keys_carry_m_and_round_trip() {
    use rnsfhe::serialize::KeyBytes;
    use rnsfhe_math::ring::Form;
    let build = |r: Reduction| {
        BfvParameters::builder()
            .cyclotomic_index(255)
            .plain_modulus(2)
            .moduli_bits(&[55, 55, 55])
            .special_moduli_bits(&[60])
            .reduction(r)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap()
    };
    let params = build(Reduction::Montgomery);
    assert!(params.is_mixed_montgomery());
    let ctx = BfvContext::new(params.clone()).unwrap();
    assert_eq!(
        ctx.ring().reduction(),
        Some(Reduction::SparseBarrett),
        "the tensor's ring"
    );
    assert_eq!(
        ctx.relin_switcher().ring_q().reduction(),
        Some(Reduction::Montgomery)
    );
    let mut rng = Csprng::from_seed([3; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    for (k0, k1) in rlk.key().parts() {
        assert_eq!(k0.montgomery_form(), Form::Montgomery);
        assert_eq!(k1.montgomery_form(), Form::Montgomery);
    }
    let back = BfvParameters::from_bytes_allowing_insecure(&params.to_bytes()).unwrap();
    assert_eq!(back, params);
    let ctx2 = BfvContext::new(back).unwrap();
    let rlk2 = ctx2
        .relin_key_from_bytes(&ctx.relin_key_to_bytes(&rlk))
        .unwrap();
    let sk2 = ctx2
        .secret_key_from_bytes(&ctx.secret_key_to_bytes(&sk).unwrap())
        .unwrap();
    let n = ctx.params().degree();
    let a: Vec<u64> = (0..n).map(|i| (i % 3 == 0) as u64).collect();
    let pt = ctx.plaintext_from_coefficients(&a).unwrap();
    let ca = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let ca2 = ctx2
        .ciphertext_from_bytes(&ctx.ciphertext_to_bytes(&ca).unwrap())
        .unwrap();
    let sq = ctx2.multiply(&ca2, &ca2, &rlk2).unwrap();
    let phi = cyclotomic_polynomial(255).unwrap();
    let got = ctx2.decrypt_checked(&sq, &sk2, Decryption::Hps).unwrap();
    assert_eq!(got.coefficients(), &mul_model(&a, &a, &phi, 2)[..]);
    let plain = BfvContext::new(build(Reduction::SparseBarrett)).unwrap();
    assert!(plain
        .relin_key_from_bytes(&ctx.relin_key_to_bytes(&rlk))
        .is_err());
}

/// Parameter bytes keep each reduction (Bajard et al. (SAC 2017) Alg. 1, Alg. 2, Montgomery) of FV and BGV; Alg. 1
/// and Alg. 2 share a fingerprint (bit-identical residues, so their ciphertexts are interchangeable).
#[test]
fn bytes_keep_the_reduction() {
    let all = [
        Reduction::Barrett,
        Reduction::SparseBarrett,
        Reduction::Montgomery,
    ];
    for r in all {
        let bgv = BgvParameters::builder()
            .cyclotomic_index(255)
            .plain_modulus(2)
            .moduli_bits(&[50, 50])
            .special_moduli_bits(&[55])
            .reduction(r)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let back = BgvParameters::from_bytes_allowing_insecure(&bgv.to_bytes()).unwrap();
        assert_eq!((back.reduction(), &back), (r, &bgv));
        let fv = BfvParameters::builder()
            .cyclotomic_index(21)
            .plain_modulus(2)
            .moduli_bits(&[50, 50])
            .special_moduli_bits(&[55])
            .reduction(r)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let back = BfvParameters::from_bytes_allowing_insecure(&fv.to_bytes()).unwrap();
        assert_eq!((back.reduction(), &back), (r, &fv));
    }
    let fingerprint = |r: Reduction| {
        let p = BgvParameters::builder()
            .cyclotomic_index(255)
            .plain_modulus(2)
            .moduli_bits(&[50, 50])
            .special_moduli_bits(&[55])
            .reduction(r)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        BgvContext::new(p).unwrap().fingerprint()
    };
    assert_eq!(
        fingerprint(Reduction::Barrett),
        fingerprint(Reduction::SparseBarrett)
    );
    assert_ne!(
        fingerprint(Reduction::Barrett),
        fingerprint(Reduction::Montgomery)
    );
}
