//! Collective decryption and key switching against the plaintexts: CKS to s' = 0 and to
//! another collective key, PCKS to a receiver (BFV, BGV, CKKS); the smudging noise measured against
//! its analysis (`multiparty/smudging.rs`); t-out-of-N decryption by every subset of t parties, and
//! the N-out-of-N protocols run among t parties.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/multiparty.rs"]
mod mp;

use mp::{
    aggregate, bfv, bgv, ckks, collective_pk, collective_rlk, deal, indices, parties, pcks,
    session, subsets, sum_secret, T,
};
use rnsfhe::ckks::Complex;
use rnsfhe::multiparty::{
    cks_round, cks_share, decrypt, key_switch, Collective, Party, ReceiverSecret, Share,
    ShareSmudging, Smudging, ThresholdSecret,
};
use rnsfhe::rlwe::Crs;
use rnsfhe_math::sample::Csprng;

/// Collective decryption of `ct` by `ps`.
fn cks_decrypt<'s, C: Collective>(
    ctx: &C,
    crs: &Crs,
    ps: &[Party],
    ct: &C::Ciphertext,
    sm: impl Into<ShareSmudging<'s>>,
    rng: &mut Csprng,
) -> C::Plaintext {
    let sm = sm.into();
    let shares: Vec<Share> = ps
        .iter()
        .map(|p| cks_share(ctx, p, None, ct, crs, sm, rng).unwrap())
        .collect();
    let group = ps[0].group().cloned();
    let round = cks_round(ctx, crs, ct, None, group.as_ref()).unwrap();
    let agg = aggregate(ctx, round, &shares);
    decrypt(ctx, crs, ct, &agg, &indices(ps), sm.smudging()).unwrap()
}

/// CKS to s' = 0 for BFV, BGV and CKKS: the plaintext.
#[test]
fn collective_decryption() {
    let crs = Crs::new([21; 32]);
    let mut rng = Csprng::from_seed([21; 32]);
    let x = mp::values(2048, 7);

    let ctx = bfv(2048, &[55, 55, 55]);
    let (ps, pk, _) = session(&*ctx, &crs, 3, &mut rng);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let from_bound = Smudging::for_ciphertext(&*ctx, &ct, 40).unwrap();
    assert!(from_bound.sigma() > 1e6);
    let pt = cks_decrypt(&*ctx, &crs, &ps, &ct, &from_bound, &mut rng);
    assert_eq!(ctx.decode(&pt).unwrap(), x);

    let ctx = bgv(2048);
    let (ps, pk, _) = session(&*ctx, &crs, 3, &mut rng);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let ct = ctx.mod_switch(&ct).unwrap(); // at a lower level
    let sm_bgv = Smudging::for_ciphertext(&*ctx, &ct, 40).unwrap();
    let pt = cks_decrypt(&*ctx, &crs, &ps, &ct, &sm_bgv, &mut rng);
    assert_eq!(ctx.decode(&pt).unwrap(), x);

    let ctx = ckks(2048, 2);
    let (ps, pk, _) = session(&*ctx, &crs, 3, &mut rng);
    let v: Vec<Complex> = (0..1024)
        .map(|i| Complex::new((i % 17) as f64 / 17.0, 0.25))
        .collect();
    let ct = ctx
        .encrypt(&ctx.encode(&v).unwrap(), &pk, &mut rng)
        .unwrap();
    assert!(
        Smudging::for_ciphertext(&*ctx, &ct, 40).is_err(),
        "CKKS states its bound"
    );
    // A fresh encryption's error is below 2^5: sigma = 2^(20 + 5.5 + 5), slot errors about 2^-9.
    let sm = Smudging::new(40, 5.0, 2048, 1).unwrap();
    let got = ctx
        .decode(&cks_decrypt(
            &*ctx,
            &crs,
            &ps,
            &ct,
            sm.stated(5.0),
            &mut rng,
        ))
        .unwrap();
    for (g, w) in got.iter().zip(&v) {
        assert!((g.re - w.re).abs() < 0.05 && (g.im - w.im).abs() < 0.05);
    }
}

/// The smudging noise as drawn: BFV's aggregate phase minus the phase under s is the parties'
/// noise E, whose coefficients have the standard deviation sqrt(N) sigma (within 3%) and stay
/// below `bound_log2`; CKKS slot errors within the analysis' figure.
#[test]
fn smudging_noise_measured() {
    let crs = Crs::new([22; 32]);
    let mut rng = Csprng::from_seed([22; 32]);
    let ctx = bfv(4096, &[55, 55, 55]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let ct = ctx
        .encrypt(&ctx.encode(&[1, 2, 3]).unwrap(), &pk, &mut rng)
        .unwrap();
    // Sized for a stated error bound of 2^8 (below the carried bound: the smudging measured).
    let sm = Smudging::new(40, 8.0, 4096, 1).unwrap();
    let shares: Vec<Share> = ps
        .iter()
        .map(|p| cks_share(&*ctx, p, None, &ct, &crs, sm.stated(8.0), &mut rng).unwrap())
        .collect();
    let agg = aggregate(
        &*ctx,
        cks_round(&*ctx, &crs, &ct, None, None).unwrap(),
        &shares,
    );
    let mut e = agg.polys()[0].clone();
    let mut c1s = ctx.phase(&ct, &s).unwrap();
    c1s.sub_assign(&ct.parts()[0]).unwrap();
    e.sub_assign(&c1s).unwrap();
    let e = mp::centred(&e);
    let sd = (e.iter().map(|&v| (v as f64) * (v as f64)).sum::<f64>() / e.len() as f64).sqrt();
    let want = 3f64.sqrt() * sm.sigma();
    let max = e.iter().map(|v| v.unsigned_abs()).max().unwrap() as f64;
    eprintln!(
        "smudging: sigma 2^{:.2}, measured sd of E 2^{:.2} (want 2^{:.2}), max 2^{:.2} (bound 2^{:.2})",
        sm.sigma().log2(),
        sd.log2(),
        want.log2(),
        max.log2(),
        sm.bound_log2(3)
    );
    assert!((sd / want - 1.0).abs() < 0.03);
    assert!(max.log2() <= sm.bound_log2(3));
    assert!(max > 3.0 * want, "a Gaussian's tail is there");

    // CKKS: slot errors of about sqrt(N n / 2) sigma / Delta per component.
    let ctx = ckks(4096, 1);
    let (ps, pk, _) = session(&*ctx, &crs, 3, &mut rng);
    let v: Vec<Complex> = (0..2048)
        .map(|i| Complex::new((i % 29) as f64 / 29.0, 0.0))
        .collect();
    let ct = ctx
        .encrypt(&ctx.encode(&v).unwrap(), &pk, &mut rng)
        .unwrap();
    let sm = Smudging::new(40, 6.0, 4096, 1).unwrap();
    let got = ctx
        .decode(&cks_decrypt(
            &*ctx,
            &crs,
            &ps,
            &ct,
            sm.stated(6.0),
            &mut rng,
        ))
        .unwrap();
    let err: Vec<f64> = got.iter().zip(&v).map(|(g, w)| g.re - w.re).collect();
    let sd = (err.iter().map(|x| x * x).sum::<f64>() / err.len() as f64).sqrt();
    let predicted = (3.0 * 4096.0 / 2.0f64).sqrt() * sm.sigma() / ct.scale();
    eprintln!(
        "CKKS slot error sd 2^{:.2}, predicted 2^{:.2}",
        sd.log2(),
        predicted.log2()
    );
    assert!((sd / predicted - 1.0).abs() < 0.1);
}

/// CKS from one collective key to another (the target parties' secrets), and PCKS to a receiver
/// whose key alone decrypts the result (BFV, BGV, CKKS).
#[test]
fn key_switch_and_public_key_switch() {
    let crs = Crs::new([23; 32]);
    let crs2 = Crs::new([24; 32]);
    let mut rng = Csprng::from_seed([23; 32]);
    let x = mp::values(2048, 8);
    let sm = Smudging::new(40, 12.0, 2048, 1).unwrap();

    let ctx = bfv(2048, &[55, 55, 55]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let mut qs = parties(&*ctx, 3, &mut rng);
    let pk2 = collective_pk(&*ctx, &crs2, &mut qs);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let shares: Vec<Share> = ps
        .iter()
        .zip(&qs)
        .map(|(p, q)| cks_share(&*ctx, p, Some(q), &ct, &crs, sm.stated(12.0), &mut rng).unwrap())
        .collect();
    let agg = aggregate(
        &*ctx,
        cks_round(&*ctx, &crs, &ct, Some(pk2.id()), None).unwrap(),
        &shares,
    );
    let switched = key_switch(&*ctx, &crs, &ct, &agg, &indices(&ps), pk2.id(), &sm).unwrap();
    assert_eq!(switched.key_id(), Some(pk2.id()));
    let s2 = sum_secret(&*ctx, &qs, &pk2);
    assert_eq!(
        ctx.decode(&ctx.decrypt(&switched, &s2).unwrap()).unwrap(),
        x
    );

    let (rsk, rpk) = ctx.keygen(&mut rng).unwrap();
    let out = pcks(
        &*ctx,
        (&crs, &ps),
        &ct,
        &rpk,
        ReceiverSecret::Single,
        sm.stated(12.0),
        &mut rng,
    )
    .unwrap();
    assert_eq!(ctx.decode(&ctx.decrypt(&out, &rsk).unwrap()).unwrap(), x);
    assert!(
        ctx.decrypt(&out, &s).is_err(),
        "only the receiver's key pair"
    );
    // The switched ciphertext keeps a noise bound, grown from the input's; a positive budget says
    // the measured noise is within it (the checked decryption refuses a measurement above it).
    let bound = out.noise_bound_log2().expect("PCKS keeps a noise bound");
    assert!(bound > ct.noise_bound_log2().unwrap());
    assert!(ctx.noise_budget(&out, &rsk).unwrap() > 0);

    let ctx = bgv(2048);
    let (ps, pk, _) = session(&*ctx, &crs, 3, &mut rng);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let (rsk, rpk) = ctx.keygen(&mut rng).unwrap();
    let out = pcks(
        &*ctx,
        (&crs, &ps),
        &ct,
        &rpk,
        ReceiverSecret::Single,
        sm.stated(12.0),
        &mut rng,
    )
    .unwrap();
    assert_eq!(ctx.decode(&ctx.decrypt(&out, &rsk).unwrap()).unwrap(), x);
    let bound = out.noise_bound_log2().expect("PCKS keeps a noise bound");
    assert!(bound > ct.noise_bound_log2().unwrap());
    assert!(ctx.noise_budget(&out, &rsk).unwrap() > 0.0);

    let ctx = ckks(2048, 2);
    let (ps, pk, _) = session(&*ctx, &crs, 3, &mut rng);
    let v: Vec<Complex> = (0..1024)
        .map(|i| Complex::new((i % 11) as f64 / 11.0, 0.0))
        .collect();
    let pt = ctx.encode_at(&v, 1, ctx.scale_at(1).unwrap()).unwrap();
    let ct = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let sm = Smudging::new(40, 5.0, 2048, 1).unwrap();
    let (rsk, rpk) = ctx.keygen(&mut rng).unwrap();
    let out = pcks(
        &*ctx,
        (&crs, &ps),
        &ct,
        &rpk,
        ReceiverSecret::Single,
        sm.stated(5.0),
        &mut rng,
    )
    .unwrap();
    let got = ctx.decrypt_values(&out, &rsk).unwrap();
    for (g, w) in got.iter().zip(&v) {
        assert!((g.re - w.re).abs() < 0.05);
    }
}

/// 2 of 3 and 3 of 5: every subset of t parties decrypts (BFV), the threshold secrets survive
/// bytes, and a set of t parties runs RKG and CKG among themselves (keys of the same s).
#[test]
fn threshold_decryption_by_every_subset() {
    let crs = Crs::new([25; 32]);
    let mut rng = Csprng::from_seed([25; 32]);
    let ctx = bfv(1024, &[55, 55]);
    let sm = Smudging::new(40, 12.0, 1024, 1).unwrap();
    let sm = sm.stated(12.0);
    let x = mp::values(1024, 9);
    for (n, t) in [(3u32, 2usize), (5, 3)] {
        let mut ps = parties(&*ctx, n, &mut rng);
        let pk = collective_pk(&*ctx, &crs, &mut ps);
        let tsk = deal(&*ctx, &crs, &ps, t, &mut rng);
        let tsk: Vec<ThresholdSecret> = tsk
            .iter()
            .map(|k| ThresholdSecret::from_bytes(&*ctx, &k.to_bytes()).unwrap())
            .collect();
        let ct = ctx
            .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
            .unwrap();
        let all: Vec<u32> = (0..n).collect();
        let sets = subsets(&all, t);
        assert_eq!(sets.len(), if n == 3 { 3 } else { 10 });
        for set in &sets {
            let mut present: Vec<Party> = set
                .iter()
                .map(|&j| tsk[j as usize].combine(&*ctx, set).unwrap())
                .collect();
            present.iter_mut().for_each(|p| p.join(&pk).unwrap());
            let pt = cks_decrypt(&*ctx, &crs, &present, &ct, sm, &mut rng);
            assert_eq!(
                ctx.decode(&pt).unwrap(),
                x,
                "subset {set:?} of {n}, t = {t}"
            );
        }
        // A party dropped out: the others (t of them) make a relinearisation key and a public key
        // of the same s.
        let mut present: Vec<Party> = sets[0]
            .iter()
            .map(|&j| tsk[j as usize].combine(&*ctx, &sets[0]).unwrap())
            .collect();
        let top = ctx.key_switcher().top_level();
        let crs3 = Crs::new([26; 32]);
        let pk_t = collective_pk(&*ctx, &crs3, &mut present);
        let rlk = collective_rlk(&*ctx, &crs, &present, &pk, top, &mut rng);
        let s = sum_secret(&*ctx, &ps, &pk);
        let y = mp::values(1024, 10);
        let cy = ctx
            .encrypt(&ctx.encode(&y).unwrap(), &pk, &mut rng)
            .unwrap();
        let prod = ctx.multiply(&ct, &cy, &rlk).unwrap();
        let want: Vec<u64> = x.iter().zip(&y).map(|(a, b)| a * b % T).collect();
        assert_eq!(ctx.decode(&ctx.decrypt(&prod, &s).unwrap()).unwrap(), want);
        let s_t = sum_secret(&*ctx, &ps, &pk_t);
        let c = ctx
            .encrypt(&ctx.encode(&y).unwrap(), &pk_t, &mut rng)
            .unwrap();
        assert_eq!(ctx.decode(&ctx.decrypt(&c, &s_t).unwrap()).unwrap(), y);
        // Fewer than t do not combine.
        assert!(tsk[0].combine(&*ctx, &sets[0][..t - 1]).is_err());
    }
}

/// Threshold decryption of a CKKS ciphertext by 2 of 3.
#[test]
fn threshold_decryption_ckks() {
    let crs = Crs::new([27; 32]);
    let mut rng = Csprng::from_seed([27; 32]);
    let ctx = ckks(2048, 1);
    let (ps, pk, _) = session(&*ctx, &crs, 3, &mut rng);
    let tsk = deal(&*ctx, &crs, &ps, 2, &mut rng);
    let v: Vec<Complex> = (0..64)
        .map(|i| Complex::new(i as f64 / 64.0, 0.0))
        .collect();
    let ct = ctx
        .encrypt(&ctx.encode(&v).unwrap(), &pk, &mut rng)
        .unwrap();
    let sm = Smudging::new(40, 6.0, 2048, 1).unwrap();
    let sm = sm.stated(6.0);
    let set = [0u32, 2];
    let mut present: Vec<Party> = set
        .iter()
        .map(|&j| tsk[j as usize].combine(&*ctx, &set).unwrap())
        .collect();
    present.iter_mut().for_each(|p| p.join(&pk).unwrap());
    let got = ctx
        .decode(&cks_decrypt(&*ctx, &crs, &present, &ct, sm, &mut rng))
        .unwrap();
    for (g, w) in got.iter().zip(&v) {
        assert!((g.re - w.re).abs() < 0.05);
    }
}
