//! Collective key generation against the single-key schemes: the collective public key's
//! ciphertexts decrypt under s = sum_i s_i (BFV, BGV, CKKS); products relinearised with the
//! collective relinearisation key decrypt, its noise within the paper's bound and its depth within
//! one level of a single-party key's; rotations (hoisted too) with collective Galois keys.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/worst.rs"]
mod worst;
use worst::worst_error;

#[path = "support/multiparty.rs"]
mod mp;

use mp::{bfv, bgv, ckks, collective_gk, collective_rlk, session, T};
use rnsfhe::bfv::BfvContext;
use rnsfhe::ckks::{CkksContext, Complex};
use rnsfhe::rlwe::{Crs, KeyContext, RelinKey, SecretKey};
use rnsfhe::serialize::KeyBytes;
use rnsfhe::Error;
use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::sample::Csprng;

/// The collective public key is a key of the sum of the secrets for every scheme; its identity is
/// that of a holder of the sum who takes it, and each party's own key is refused.
#[test]
fn collective_public_key_encrypts_under_the_sum() {
    let crs = Crs::new([1; 32]);
    let mut rng = Csprng::from_seed([1; 32]);

    let ctx = bfv(2048, &[50, 50]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    assert_eq!(s.id(), pk.id());
    assert!(s.norm().unwrap().linf >= 2, "a sum of 3 ternary secrets");
    let x = mp::values(2048, 1);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    assert_eq!(ctx.decode(&ctx.decrypt(&ct, &s).unwrap()).unwrap(), x);
    assert!(matches!(
        ctx.decrypt(&ct, ps[0].secret()),
        Err(Error::KeyMismatch { .. })
    ));
    let plain = SecretKey::from_signed(&*ctx, s.coefficients().unwrap().to_vec().into()).unwrap();
    assert_ne!(plain.id(), pk.id(), "identity only through with_identity");

    let ctx = bgv(2048);
    let (_, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    assert_eq!(ctx.decode(&ctx.decrypt(&ct, &s).unwrap()).unwrap(), x);

    let ctx = ckks(2048, 2);
    let (_, pk, s) = session(&*ctx, &crs, 4, &mut rng);
    let v: Vec<Complex> = (0..8).map(|i| Complex::new(i as f64 / 8.0, -0.5)).collect();
    let ct = ctx
        .encrypt(&ctx.encode(&v).unwrap(), &pk, &mut rng)
        .unwrap();
    let got = ctx.decrypt_values(&ct, &s).unwrap();
    for (g, w) in got.iter().zip(&v) {
        assert!((g.re - w.re).abs() < 1e-6 && (g.im - w.im).abs() < 1e-6);
    }
}

/// BFV products relinearised with the collective key decrypt to the products mod t; the key
/// survives bytes (its k1 stored in full) and relinearises bit for bit the same.
#[test]
fn collective_relin_key_bfv() {
    let crs = Crs::new([2; 32]);
    let mut rng = Csprng::from_seed([2; 32]);
    let ctx = bfv(2048, &[55, 55, 55]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let rlk = collective_rlk(
        &*ctx,
        &crs,
        &ps,
        &pk,
        ctx.key_switcher().top_level(),
        &mut rng,
    );
    assert_eq!(rlk.id(), pk.id());
    assert!(!rlk.key().is_seeded());
    let (x, y) = (mp::values(2048, 3), mp::values(2048, 4));
    let cx = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let cy = ctx
        .encrypt(&ctx.encode(&y).unwrap(), &pk, &mut rng)
        .unwrap();
    let prod = ctx.multiply(&cx, &cy, &rlk).unwrap();
    assert_eq!(prod.size(), 2);
    let want: Vec<u64> = x.iter().zip(&y).map(|(a, b)| a * b % T).collect();
    assert_eq!(ctx.decode(&ctx.decrypt(&prod, &s).unwrap()).unwrap(), want);

    let back = ctx
        .relin_key_from_bytes(&ctx.relin_key_to_bytes(&rlk))
        .unwrap();
    assert_eq!(back.id(), rlk.id());
    let again = ctx.multiply(&cx, &cy, &back).unwrap();
    assert_eq!(again.parts()[0].residues(), prod.parts()[0].residues());
    assert_eq!(again.parts()[1].residues(), prod.parts()[1].residues());
    // At a lower level too (CKKS below), and a set of evaluation keys takes it.
    let set_bytes = {
        let mut set = rnsfhe::rlwe::EvaluationKeySet::new();
        set.set_relin_key(std::sync::Arc::new(rlk)).unwrap();
        ctx.evaluation_keys_to_bytes(&set)
    };
    let set = ctx.evaluation_keys_from_bytes(&set_bytes).unwrap();
    let third = ctx.multiply(&cx, &cy, set.relin_key().unwrap()).unwrap();
    assert_eq!(third.parts()[1].residues(), prod.parts()[1].residues());
}

/// ||k0 + k1 s - P g_c s^2||_inf per component, centred (one prime per digit, top level).
fn relin_key_error(ctx: &dyn KeyContext, rlk: &RelinKey, s: &SecretKey) -> Vec<i64> {
    let sw = ctx.key_switcher();
    let k = sw.top_level() + 1;
    let ring = sw.ring_qp();
    let n = ring.degree();
    let p: u64 = ring.moduli()[k..].iter().map(|m| m.value()).product();
    let s2 = s.ntt_qp().mul(s.ntt_qp()).unwrap();
    let mut out = Vec::new();
    for (c, (k0, k1)) in rlk.key().parts().iter().enumerate() {
        let mut e = k1.mul(s.ntt_qp()).unwrap();
        e.add_assign(k0).unwrap();
        let mut g = Poly::zero(ring, Representation::Ntt);
        let q = &ring.moduli()[c];
        let limb: Vec<u64> = s2.residues()[c * n..(c + 1) * n]
            .iter()
            .map(|&v| q.mul(v, q.reduce(p)))
            .collect();
        g.residues_mut()[c * n..(c + 1) * n].copy_from_slice(&limb);
        e.sub_assign(&g).unwrap();
        e.to_coefficient().unwrap();
        out.extend(mp::centred(&e));
    }
    out
}

/// The collective relinearisation key's error s e0 + u e1 + e2 (PETS 2021, RKG): within the
/// worst-case bound ||s||_1 N B + ||u||_1 N B + N B (B = 19, the errors' cut; ||u||_1 <= N n), and
/// of the size the variance (4/3) n N^2 sigma^2 + N sigma^2 predicts.
#[test]
fn collective_relin_key_noise_within_the_bound() {
    let crs = Crs::new([3; 32]);
    let mut rng = Csprng::from_seed([3; 32]);
    let ctx = bfv(2048, &[55, 55, 55]);
    let parties_n = 3usize;
    let (ps, pk, s) = session(&*ctx, &crs, parties_n as u32, &mut rng);
    let rlk = collective_rlk(
        &*ctx,
        &crs,
        &ps,
        &pk,
        ctx.key_switcher().top_level(),
        &mut rng,
    );
    let e = relin_key_error(&*ctx, &rlk, &s);
    let worst = e.iter().map(|v| v.unsigned_abs()).max().unwrap() as f64;
    let n = 2048f64;
    let nn = parties_n as f64;
    let b = 19.0;
    let bound = s.norm().unwrap().l1 * nn * b + nn * n * nn * b + nn * b;
    let sigma = 3.2;
    let sd = (4.0 / 3.0 * n * nn * nn * sigma * sigma + nn * sigma * sigma).sqrt();
    let measured_sd = (e.iter().map(|&v| (v * v) as f64).sum::<f64>() / e.len() as f64).sqrt();
    eprintln!(
        "collective rlk error: max {worst} (2^{:.1}), sd {measured_sd:.0} (predicted {sd:.0}), \
         worst-case bound 2^{:.1}",
        worst.log2(),
        bound.log2()
    );
    assert!(worst <= bound);
    assert!(
        (measured_sd / sd - 1.0).abs() < 0.1,
        "sd {measured_sd} against {sd}"
    );
    assert!(worst <= 7.0 * sd);
}

/// The largest number of squarings x -> x^2 (BFV, relinearised by `rlk`) that still decrypt.
fn bfv_depth(
    ctx: &BfvContext,
    rlk: &RelinKey,
    pk: &rnsfhe::rlwe::PublicKey,
    s: &SecretKey,
) -> usize {
    let mut rng = Csprng::from_seed([9; 32]);
    let x = mp::values(2048, 5);
    let mut want = x.clone();
    let mut ct = ctx.encrypt(&ctx.encode(&x).unwrap(), pk, &mut rng).unwrap();
    for depth in 0usize..12 {
        if ctx.decode(&ctx.decrypt(&ct, s).unwrap()).unwrap() != want {
            return depth.saturating_sub(1);
        }
        ct = ctx.multiply(&ct, &ct, rlk).unwrap();
        want = want.iter().map(|v| v * v % T).collect();
    }
    12
}

/// BFV: the collective key's depth is at most one below a single-party key's of the same
/// parameters (3 parties: ||s||_1 about 3 times larger).
#[test]
fn collective_depth_bfv() {
    let crs = Crs::new([4; 32]);
    let mut rng = Csprng::from_seed([4; 32]);
    let ctx = bfv(2048, &[55, 55, 55, 55]);
    let (sk, pk1) = ctx.keygen(&mut rng).unwrap();
    let single = bfv_depth(&ctx, &ctx.relin_key(&sk, &mut rng).unwrap(), &pk1, &sk);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let rlk = collective_rlk(
        &*ctx,
        &crs,
        &ps,
        &pk,
        ctx.key_switcher().top_level(),
        &mut rng,
    );
    let collective = bfv_depth(&ctx, &rlk, &pk, &s);
    eprintln!("BFV depth: single-party key {single}, collective (3 parties) {collective}");
    assert!(single >= 2);
    assert!(collective + 1 >= single);
}

/// log2 of the worst slot error after each squaring and rescale (CKKS), down the chain.
fn ckks_errors(
    ctx: &CkksContext,
    rlk: &RelinKey,
    pk: &rnsfhe::rlwe::PublicKey,
    s: &SecretKey,
) -> Vec<f64> {
    let mut rng = Csprng::from_seed([10; 32]);
    let mut want: Vec<f64> = (0..64).map(|i| 0.5 + i as f64 / 256.0).collect();
    let v: Vec<Complex> = want.iter().map(|&x| Complex::new(x, 0.0)).collect();
    let mut ct = ctx.encrypt(&ctx.encode(&v).unwrap(), pk, &mut rng).unwrap();
    let mut out = Vec::new();
    while ct.level() > 0 {
        ct = ctx.multiply_rescale(&ct, &ct, rlk).unwrap();
        want.iter_mut().for_each(|x| *x *= *x);
        let got = ctx.decrypt_values(&ct, s).unwrap();
        let err = worst_error(got.iter().zip(&want).map(|(g, w)| (g.re - w).abs()));
        out.push(err.log2());
    }
    out
}

/// CKKS: the collective key reaches the same levels, each within a few bits of a single-party
/// key's precision (the depth "minus at most one level" holds with precision 2^-20 as the bar).
#[test]
fn collective_depth_ckks() {
    let crs = Crs::new([5; 32]);
    let mut rng = Csprng::from_seed([5; 32]);
    let ctx = ckks(2048, 4);
    let (sk, pk1) = ctx.keygen(&mut rng).unwrap();
    let single = ckks_errors(&ctx, &ctx.relin_key(&sk, &mut rng).unwrap(), &pk1, &sk);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let rlk = collective_rlk(&*ctx, &crs, &ps, &pk, ctx.max_level(), &mut rng);
    let collective = ckks_errors(&ctx, &rlk, &pk, &s);
    eprintln!("CKKS log2 errors per level: single {single:.1?}, collective {collective:.1?}");
    let depth = |e: &[f64]| e.iter().take_while(|&&x| x < -20.0).count();
    assert_eq!(single.len(), 4);
    assert!(depth(&collective) + 1 >= depth(&single));
    for (c, s) in collective.iter().zip(&single) {
        assert!(c - s < 4.0, "collective 2^{c:.1} against single 2^{s:.1}");
    }
}

/// Rotations with collective Galois keys: BFV row rotations, CKKS rotations one by one and
/// hoisted (`rotate_many`), keys at two levels merged, and a relinearisation key at a level.
#[test]
fn collective_galois_keys_rotate() {
    let crs = Crs::new([6; 32]);
    let mut rng = Csprng::from_seed([6; 32]);
    let ctx = bfv(2048, &[55, 55]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let elements = [ctx.galois_element(1), ctx.galois_element(-3)];
    let top = ctx.key_switcher().top_level();
    let gk = collective_gk(&*ctx, &crs, &ps, &pk, &elements, top, &mut rng);
    assert_eq!(gk.id(), pk.id());
    let x = mp::values(2048, 6);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    for step in [1i64, -3] {
        let r = ctx.rotate_rows(&ct, step, &gk).unwrap();
        let h = 1024usize;
        let want: Vec<u64> = (0..2048)
            .map(|i| x[i / h * h + ((i % h) as i64 + step).rem_euclid(h as i64) as usize])
            .collect();
        assert_eq!(ctx.decode(&ctx.decrypt(&r, &s).unwrap()).unwrap(), want);
    }

    let ctx = ckks(2048, 2);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let steps = [1i64, 2, 5];
    let el: Vec<u64> = steps
        .iter()
        .map(|&k| ctx.encoder().rotation_galois_element(k))
        .collect();
    let mut gk = collective_gk(&*ctx, &crs, &ps, &pk, &el[..2], 2, &mut rng);
    gk.merge(&collective_gk(&*ctx, &crs, &ps, &pk, &el[2..], 1, &mut rng))
        .unwrap();
    assert_eq!(gk.level(el[2]), Some(1));
    let v: Vec<Complex> = (0..ctx.slots())
        .map(|i| Complex::new((i % 13) as f64 / 13.0, 0.0))
        .collect();
    let ct = ctx
        .encrypt(&ctx.encode(&v).unwrap(), &pk, &mut rng)
        .unwrap();
    let check = |got: &[Complex], k: usize| {
        for (i, g) in got.iter().enumerate().take(64) {
            let w = v[(i + k) % v.len()].re;
            assert!((g.re - w).abs() < 1e-5, "slot {i}: {} against {w}", g.re);
        }
    };
    let many = ctx.rotate_many(&ct, &steps[..2], &gk).unwrap();
    for (r, &k) in many.iter().zip(&steps) {
        check(&ctx.decrypt_values(r, &s).unwrap(), k as usize);
    }
    assert!(
        ctx.rotate(&ct, 5, &gk).is_err(),
        "the key of step 5 is at level 1"
    );
    let rlk = collective_rlk(&*ctx, &crs, &ps, &pk, 1, &mut rng);
    let low = ctx.multiply_rescale(&ct, &ct, &rlk);
    assert!(
        low.is_err(),
        "a level-1 relinearisation key refuses level 2"
    );
    let ct1 = ctx
        .encrypt(
            &ctx.encode_at(&v, 1, ctx.scale_at(1).unwrap()).unwrap(),
            &pk,
            &mut rng,
        )
        .unwrap();
    check(
        &ctx.decrypt_values(&ctx.rotate(&ct1, 5, &gk).unwrap(), &s)
            .unwrap(),
        5,
    );
    let sq = ctx.multiply_rescale(&ct1, &ct1, &rlk).unwrap();
    let got = ctx.decrypt_values(&sq, &s).unwrap();
    for (g, w) in got.iter().zip(&v).take(64) {
        assert!((g.re - w.re * w.re).abs() < 1e-4);
    }
}

/// BGV (errors scaled by t at key switching): a product relinearised with the collective key and
/// a row rotation with a collective Galois key decrypt to the plaintext results.
#[test]
fn collective_keys_bgv() {
    let crs = Crs::new([7; 32]);
    let mut rng = Csprng::from_seed([7; 32]);
    let ctx = bgv(2048);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let top = ctx.key_switcher().top_level();
    let rlk = collective_rlk(&*ctx, &crs, &ps, &pk, top, &mut rng);
    let gk = collective_gk(
        &*ctx,
        &crs,
        &ps,
        &pk,
        &[ctx.galois_element(2)],
        top,
        &mut rng,
    );
    let (x, y) = (mp::values(2048, 11), mp::values(2048, 12));
    let cx = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let cy = ctx
        .encrypt(&ctx.encode(&y).unwrap(), &pk, &mut rng)
        .unwrap();
    let prod = ctx.multiply(&cx, &cy, &rlk).unwrap();
    let want: Vec<u64> = x.iter().zip(&y).map(|(a, b)| a * b % T).collect();
    assert_eq!(ctx.decode(&ctx.decrypt(&prod, &s).unwrap()).unwrap(), want);
    let r = ctx.rotate_rows(&prod, 2, &gk).unwrap();
    let h = 1024usize;
    let rotated: Vec<u64> = (0..2048)
        .map(|i| want[i / h * h + (i % h + 2) % h])
        .collect();
    assert_eq!(ctx.decode(&ctx.decrypt(&r, &s).unwrap()).unwrap(), rotated);
}
