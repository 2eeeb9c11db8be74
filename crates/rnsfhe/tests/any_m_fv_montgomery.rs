//! FV in the full Montgomery representation of Bajard et al. (SAC 2017) sections 4 and 4.1 (ciphertexts c M, the
//! BEHZ / HPS tensor on Montgomery rings, keys with M^2), checked against the exact model of
//! Z_t[X]/(Phi_m) for m in {21, 255, 771}, against the mixed strategy and the Barrett reductions,
//! and through bytes.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/any_m.rs"]
mod model;
use model::*;

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption, FvMontgomery, Multiplication};
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::ring::cyclotomic::cyclotomic_polynomial;
use rnsfhe_math::ring::{Form, Reduction};
use rnsfhe_math::sample::Csprng;

fn full(m: usize, t: u64, bits: &[u32], mul: Multiplication) -> BfvParameters {
    fv_builder(m, t, bits, mul)
        .reduction(Reduction::Montgomery)
        .fv_montgomery(FvMontgomery::Full)
        .build()
        .unwrap()
}

/// Every phase of `check_fv` (encryption, addition, product with relinearisation, two squarings,
/// X -> X^g, slots; checked decryption, so the carried bound of Prop. 1 must hold) with BEHZ and HPS.
#[test]
fn fv_full_montgomery_any_m() {
    for m in [21, 255, 771] {
        for mul in [Multiplication::Behz, Multiplication::Hps] {
            let p = full(m, 2, &[55, 55, 55, 55], mul);
            assert!(p.is_full_montgomery() && !p.is_mixed_montgomery());
            check_fv_params(p);
        }
    }
    check_fv_params(full(
        21,
        prime_one_mod(21),
        &[55, 55, 55, 55],
        Multiplication::Behz,
    ));
}

/// The ciphertexts hold c M on a Montgomery ring; the plaintext operations, symmetric encryption, a
/// 3-part decryption, a squaring chain and the bytes of parameters, keys and ciphertexts give the
/// model's messages, the same as the mixed strategy and the Barrett reductions.
#[test]
fn fv_full_agrees_with_mixed_and_barrett() {
    let m = 255;
    let phi = cyclotomic_polynomial(m).unwrap();
    let tm = Modulus::new(2).unwrap();
    let mut seed_rng = Csprng::from_seed([9; 32]);
    let n = phi.len() - 1;
    let a: Vec<u64> = (0..n).map(|_| seed_rng.uniform_mod(&tm)).collect();
    let b: Vec<u64> = (0..n).map(|_| seed_rng.uniform_mod(&tm)).collect();
    let builder =
        |r: Reduction| fv_builder(m, 2, &[55, 55, 55, 55], Multiplication::Behz).reduction(r);
    let sets = [
        builder(Reduction::Montgomery)
            .fv_montgomery(FvMontgomery::Full)
            .build()
            .unwrap(),
        builder(Reduction::Montgomery).build().unwrap(),
        builder(Reduction::Barrett).build().unwrap(),
        builder(Reduction::SparseBarrett).build().unwrap(),
    ];
    let mut outputs = Vec::new();
    for params in sets {
        let is_full = params.is_full_montgomery();
        let ctx = BfvContext::new(params.clone()).unwrap();
        let mut rng = Csprng::from_seed([5; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let pa = ctx.plaintext_from_coefficients(&a).unwrap();
        let pb = ctx.plaintext_from_coefficients(&b).unwrap();
        let ca = ctx.encrypt(&pa, &pk, &mut rng).unwrap();
        let cb = ctx.encrypt_symmetric(&pb, &sk, &mut rng).unwrap();
        if is_full {
            assert_eq!(ctx.ring().reduction(), Some(Reduction::Montgomery));
            for p in ca.parts().iter().chain(cb.parts()) {
                assert_eq!(p.montgomery_form(), Form::Montgomery, "ciphertexts are c M");
            }
            for (k0, k1) in rlk.key().parts() {
                assert_eq!(k0.montgomery_form(), Form::Montgomery);
                assert_eq!(k1.montgomery_form(), Form::Montgomery);
            }
        }
        let dec = |ct: &rnsfhe::bfv::BfvCiphertext| {
            ctx.decrypt_checked(ct, &sk, Decryption::Hps)
                .unwrap()
                .coefficients()
                .to_vec()
        };
        let mut out = vec![dec(&ca), dec(&cb)];
        out.push(dec(&ctx.add_plain(&ca, &pb).unwrap()));
        out.push(dec(&ctx.sub_plain(&ca, &pb).unwrap()));
        out.push(dec(&ctx.mul_plain(&ca, &pb).unwrap()));
        out.push(dec(&ctx.mul_scalar(&ca, 3).unwrap()));
        let three = ctx.multiply_no_relin(&ca, &cb).unwrap();
        out.push(dec(&three));
        let mut x = ctx.relinearize(&three, &rlk).unwrap();
        for _ in 0..2 {
            x = ctx.square(&x, &rlk).unwrap();
        }
        out.push(dec(&x));
        // Bytes: parameters (the flag keeps the representation), keys and ciphertexts.
        let back = BfvParameters::from_bytes_allowing_insecure(&params.to_bytes()).unwrap();
        assert_eq!(back, params);
        assert_eq!(back.is_full_montgomery(), is_full);
        let ctx2 = BfvContext::new(back).unwrap();
        assert_eq!(ctx2.fingerprint(), ctx.fingerprint());
        use rnsfhe::serialize::KeyBytes;
        let sk2 = ctx2
            .secret_key_from_bytes(&ctx.secret_key_to_bytes(&sk).unwrap())
            .unwrap();
        let rlk2 = ctx2
            .relin_key_from_bytes(&ctx.relin_key_to_bytes(&rlk))
            .unwrap();
        let ca2 = ctx2
            .ciphertext_from_bytes(&ctx.ciphertext_to_bytes(&ca).unwrap())
            .unwrap();
        let cb2 = ctx2
            .ciphertext_from_bytes(&ctx.ciphertext_to_bytes(&cb).unwrap())
            .unwrap();
        let prod = ctx2.multiply(&ca2, &cb2, &rlk2).unwrap();
        out.push(
            ctx2.decrypt_checked(&prod, &sk2, Decryption::Gamma)
                .unwrap()
                .coefficients()
                .to_vec(),
        );
        outputs.push(out);
    }
    let ab = mul_model(&a, &b, &phi, 2);
    let mut x = ab.clone();
    for _ in 0..2 {
        x = mul_model(&x, &x, &phi, 2);
    }
    let want = vec![
        a.clone(),
        b.clone(),
        add_model(&a, &b, 2),
        add_model(&a, &b, 2),
        ab.clone(),
        a.clone(),
        ab.clone(),
        x,
        ab,
    ];
    for (i, out) in outputs.iter().enumerate() {
        assert_eq!(out, &want, "parameter set {i}");
    }
}

/// The full and mixed strategies have distinct fingerprints (their ciphertexts hold other residues),
/// and `FvMontgomery::Full` without the Montgomery reduction or on X^n + 1 is refused.
#[test]
fn fv_full_is_flagged_and_validated() {
    let mixed = fv_builder(21, 2, &[50, 50], Multiplication::Hps)
        .reduction(Reduction::Montgomery)
        .build()
        .unwrap();
    let full = full(21, 2, &[50, 50], Multiplication::Hps);
    let f = |p: BfvParameters| BfvContext::new(p).unwrap().fingerprint();
    assert_ne!(f(mixed.clone()), f(full.clone()));
    let cm = BfvContext::new(mixed).unwrap();
    let cf = BfvContext::new(full).unwrap();
    let mut rng = Csprng::from_seed([1; 32]);
    let (_, pk) = cf.keygen(&mut rng).unwrap();
    let ct = cf
        .encrypt(&cf.encode_coefficients(&[1]).unwrap(), &pk, &mut rng)
        .unwrap();
    assert!(cm
        .ciphertext_from_bytes(&cf.ciphertext_to_bytes(&ct).unwrap())
        .is_err());
    for b in [
        fv_builder(21, 2, &[50, 50], Multiplication::Hps).reduction(Reduction::SparseBarrett),
        BfvParameters::builder()
            .degree(1024)
            .reduction(Reduction::Montgomery),
    ] {
        assert!(b.fv_montgomery(FvMontgomery::Full).build().is_err());
    }
}
