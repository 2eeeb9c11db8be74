//! Collective refresh (`multiparty::refresh`) against plaintext models: BFV, BGV and CKKS at low
//! levels back to the top, the budget and precision after a refresh against the stated cost,
//! chains deeper than the parameters' depth refreshed in between, t-out-of-N, and the refusals.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/multiparty.rs"]
mod mp;

use mp::{bfv, bgv, ckks, ckks_scaled, collective_rlk, deal, indices, refresh_by, session, T};
use rnsfhe::ckks::Complex;
use rnsfhe::multiparty::{refresh, Party, Refresh, Share, Smudging};
use rnsfhe::rlwe::Crs;
use rnsfhe::{Error, ShareFault};
use rnsfhe_math::sample::Csprng;

/// The slot-wise x^2 mod t.
fn square(x: &[u64]) -> Vec<u64> {
    x.iter().map(|a| a * a % T).collect()
}

/// BFV: a product whose budget is low comes back with about a fresh encryption's budget (within 2
/// bits of a public-key encryption's; the target allows lambda + 2), the same plaintext, and a
/// carried bound that covers the measured noise.
#[test]
fn bfv_refresh_restores_the_budget() {
    let crs = Crs::new([31; 32]);
    let mut rng = Csprng::from_seed([31; 32]);
    let ctx = bfv(4096, &[55, 55, 55]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let top = ctx.key_switcher().top_level();
    let rlk = collective_rlk(&*ctx, &crs, &ps, &pk, top, &mut rng);
    let x = mp::values(4096, 3);
    let fresh = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let fresh_budget = ctx.noise_budget(&fresh, &s).unwrap();
    let mut ct = fresh.clone();
    let mut want = x.clone();
    for _ in 0..2 {
        ct = ctx.multiply(&ct, &ct, &rlk).unwrap();
        want = square(&want);
    }
    let low = ctx.noise_budget(&ct, &s).unwrap();
    let sm = Smudging::for_ciphertext(&*ctx, &ct, 40).unwrap();
    let out = refresh_by(&*ctx, &crs, &ps, &ct, &Refresh::new(), &sm, &mut rng).unwrap();
    let after = ctx.noise_budget(&out, &s).unwrap();
    eprintln!(
        "BFV refresh: budget {low} -> {after} bits (fresh encryption: {fresh_budget}), smudging \
         sigma 2^{:.1}",
        sm.sigma().log2()
    );
    assert!(low + 40 < fresh_budget, "the input's budget was spent");
    assert!(
        after + 2 >= fresh_budget,
        "within 2 bits of a fresh encryption"
    );
    assert!(
        after + 42 >= fresh_budget,
        "the target: within lambda + 2 bits"
    );
    assert_eq!(ctx.decode(&ctx.decrypt(&out, &s).unwrap()).unwrap(), want);
    assert_eq!(out.key_id(), Some(pk.id()));
    // The carried bound: at most a few bits above the measured noise, and below the limit.
    let bound = out.noise_bound_log2().unwrap();
    assert!(bound < -1.0 - f64::from(after) + 4.0 && bound > -1.0 - f64::from(after) - 8.0);
    // The refreshed ciphertext computes on.
    let sq = ctx.multiply(&out, &out, &rlk).unwrap();
    assert_eq!(
        ctx.decode(&ctx.decrypt(&sq, &s).unwrap()).unwrap(),
        square(&want)
    );
}

/// BFV to any depth: p(x) = x^16 + 3 x^8 + 5 x^4 + 7 x^2 + x + 11 over parameters whose depth is
/// 2, refreshed collectively whenever the carried bound says the next product would leave less
/// than a refresh needs; checked against the plaintext model.
#[test]
fn bfv_degree_16_polynomial_beyond_the_depth() {
    let crs = Crs::new([32; 32]);
    let mut rng = Csprng::from_seed([32; 32]);
    let ctx = bfv(4096, &[55, 55]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let top = ctx.key_switcher().top_level();
    let rlk = collective_rlk(&*ctx, &crs, &ps, &pk, top, &mut rng);
    let x = mp::values(4096, 4);
    let cx = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    // Without refresh, x^16 is beyond the parameters.
    let mut plain = cx.clone();
    let mut failed = false;
    for _ in 0..4 {
        match ctx.multiply(&plain, &plain, &rlk) {
            Ok(c) => plain = c,
            Err(_) => {
                failed = true;
                break;
            }
        }
    }
    assert!(
        failed || ctx.noise_budget(&plain, &s).unwrap() == 0,
        "the depth is below 4"
    );

    // Square; when the square has less room than a refresh needs (its headroom, from the carried
    // bound and the smudging it would take), refresh the factor first and square again.
    let mut refreshes = 0;
    let mut step = |c: &rnsfhe::bfv::BfvCiphertext, rng: &mut Csprng| {
        let sq = ctx.multiply(c, c, &rlk).unwrap();
        let sm = Smudging::for_ciphertext(&*ctx, &sq, 40).unwrap();
        let room = refresh::headroom_log2(&*ctx, &sq, &sm, ps.len())
            .unwrap()
            .unwrap();
        if room > 2.0 {
            return (sq, c.clone());
        }
        refreshes += 1;
        let sm = Smudging::for_ciphertext(&*ctx, c, 40).unwrap();
        let c = refresh_by(&*ctx, &crs, &ps, c, &Refresh::new(), &sm, rng).unwrap();
        (ctx.multiply(&c, &c, &rlk).unwrap(), c)
    };
    let (x2, _) = step(&cx, &mut rng);
    let (x4, x2) = step(&x2, &mut rng);
    let (x8, x4) = step(&x4, &mut rng);
    let (x16, x8) = step(&x8, &mut rng);
    let mul = |c: &rnsfhe::bfv::BfvCiphertext, k: i64| ctx.mul_scalar(c, k).unwrap();
    let mut p = x16.clone();
    for (c, k) in [(&x8, 3), (&x4, 5), (&x2, 7), (&cx, 1)] {
        p = ctx.add(&p, &mul(c, k)).unwrap();
    }
    let p = ctx
        .add_plain(&p, &ctx.encode(&vec![11; 4096]).unwrap())
        .unwrap();
    let want: Vec<u64> = x
        .iter()
        .map(|&v| {
            let pw = |e: u32| (0..e).fold(1u64, |a, _| a * v % T);
            (pw(16) + 3 * pw(8) + 5 * pw(4) + 7 * pw(2) + v + 11) % T
        })
        .collect();
    assert!(refreshes >= 1, "the chain needed a refresh");
    eprintln!(
        "BFV degree 16: {refreshes} refreshes, final budget {} bits",
        ctx.noise_budget(&p, &s).unwrap()
    );
    assert_eq!(ctx.decode(&ctx.decrypt(&p, &s).unwrap()).unwrap(), want);
}

/// BGV: a product at level 1 (and a fresh encryption switched to level 0) come back at the top
/// level with about a fresh encryption's budget; deeper than the chain with refreshes in between.
#[test]
fn bgv_refresh_from_any_level() {
    let crs = Crs::new([33; 32]);
    let mut rng = Csprng::from_seed([33; 32]);
    let ctx = bgv(4096);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let top = ctx.max_level();
    let rlk = collective_rlk(&*ctx, &crs, &ps, &pk, top, &mut rng);
    let x = mp::values(4096, 5);
    let fresh = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let fresh_budget = ctx.noise_budget(&fresh, &s).unwrap();
    let sq = ctx
        .mod_switch(&ctx.multiply(&fresh, &fresh, &rlk).unwrap())
        .unwrap();
    assert_eq!(sq.level(), top - 1);
    let sm = Smudging::for_ciphertext(&*ctx, &sq, 40).unwrap();
    let out = refresh_by(&*ctx, &crs, &ps, &sq, &Refresh::new(), &sm, &mut rng).unwrap();
    assert_eq!(out.level(), top);
    let after = ctx.noise_budget(&out, &s).unwrap();
    eprintln!(
        "BGV refresh from level {}: budget {after:.1} bits (fresh: {fresh_budget:.1})",
        sq.level()
    );
    assert!(after + 2.0 >= fresh_budget && after + 42.0 >= fresh_budget);
    assert_eq!(
        ctx.decode(&ctx.decrypt(&out, &s).unwrap()).unwrap(),
        square(&x)
    );

    // A chain of 4 squarings on a chain of 3 levels: refreshed whenever a level is spent.
    let mut c = fresh;
    let mut want = x;
    let mut refreshes = 0;
    for _ in 0..4 {
        if c.level() < top {
            let sm = Smudging::for_ciphertext(&*ctx, &c, 40).unwrap();
            c = refresh_by(&*ctx, &crs, &ps, &c, &Refresh::new(), &sm, &mut rng).unwrap();
            refreshes += 1;
        }
        c = ctx
            .mod_switch(&ctx.multiply(&c, &c, &rlk).unwrap())
            .unwrap();
        want = square(&want);
    }
    assert_eq!(refreshes, 3);
    assert_eq!(ctx.decode(&ctx.decrypt(&c, &s).unwrap()).unwrap(), want);
}

/// CKKS: products down to level 1 come back at the top level and scale; the precision is that of
/// the smudging's prediction within 1 bit; x^16 on a chain of 3 levels with refreshes in between.
#[test]
fn ckks_refresh_precision_and_depth() {
    let crs = Crs::new([34; 32]);
    let mut rng = Csprng::from_seed([34; 32]);
    let n = 4096;
    let ctx = ckks_scaled(n, 3, 55);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let top = ctx.max_level();
    let rlk = collective_rlk(&*ctx, &crs, &ps, &pk, top, &mut rng);
    let v: Vec<Complex> = (0..n / 2)
        .map(|i| Complex::new(((i % 31) as f64 / 31.0) * 2.0 - 1.0, (i % 7) as f64 / 8.0))
        .collect();
    let ct = ctx
        .encrypt(&ctx.encode(&v).unwrap(), &pk, &mut rng)
        .unwrap();
    let sq = ctx.multiply_rescale(&ct, &ct, &rlk).unwrap();
    let sq = ctx.multiply_rescale(&sq, &sq, &rlk).unwrap();
    assert_eq!(sq.level(), top - 2);
    let want: Vec<Complex> = v.iter().map(|&z| (z * z) * (z * z)).collect();
    // The error after two products is below 2^8 (the rescalings' roundings); the smudging for it.
    let sm = Smudging::new(40, 8.0, n, 1).unwrap();
    let spec = Refresh::ckks(1.0).unwrap();
    let out = refresh_by(&*ctx, &crs, &ps, &sq, &spec, sm.stated(8.0), &mut rng).unwrap();
    assert_eq!(out.level(), top);
    assert!((out.scale() / ctx.scale_at(top).unwrap() - 1.0).abs() < 1e-12);
    let got = ctx.decrypt_values(&out, &s).unwrap();
    let mse: f64 = got
        .iter()
        .zip(&want)
        .map(|(g, w)| (g.re - w.re).powi(2) + (g.im - w.im).powi(2))
        .sum::<f64>()
        / (2 * got.len()) as f64;
    let measured = -0.5 * mse.log2();
    let predicted = sm.flooding().precision_bits(sq.scale().log2(), n, ps.len());
    eprintln!(
        "CKKS refresh from level {}: precision {measured:.2} bits, predicted {predicted:.2} \
         (mask bits {:?})",
        sq.level(),
        spec.mask_bits(sq.scale().log2(), sm.sigma(), n)
    );
    assert!((measured - predicted).abs() < 1.0);

    // x^16 on 3 levels: refresh when fewer than 2 remain.
    let x: Vec<Complex> = (0..n / 2)
        .map(|i| Complex::new(0.7 + 0.3 * ((i % 13) as f64 / 13.0), 0.0))
        .collect();
    let mut c = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let mut refreshes = 0;
    for _ in 0..4 {
        if c.level() < 2 {
            c = refresh_by(&*ctx, &crs, &ps, &c, &spec, sm.stated(8.0), &mut rng).unwrap();
            refreshes += 1;
        }
        c = ctx.multiply_rescale(&c, &c, &rlk).unwrap();
    }
    assert!(refreshes >= 1);
    let got = ctx.decrypt_values(&c, &s).unwrap();
    for (g, w) in got.iter().zip(&x) {
        assert!(
            (g.re - w.re.powi(16)).abs() < 1e-2,
            "{} vs {}",
            g.re,
            w.re.powi(16)
        );
    }
}

/// t-out-of-N: 2 of 3 refresh (BFV and CKKS) through combined threshold secrets.
#[test]
fn threshold_refresh() {
    let crs = Crs::new([35; 32]);
    let mut rng = Csprng::from_seed([35; 32]);
    let ctx = bfv(2048, &[55, 55, 55]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let tsk = deal(&*ctx, &crs, &ps, 2, &mut rng);
    let x = mp::values(2048, 6);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let set = [0u32, 2];
    let mut present: Vec<Party> = set
        .iter()
        .map(|&j| tsk[j as usize].combine(&*ctx, &set).unwrap())
        .collect();
    present.iter_mut().for_each(|p| p.join(&pk).unwrap());
    let sm = Smudging::for_ciphertext(&*ctx, &ct, 40).unwrap();
    let out = refresh_by(&*ctx, &crs, &present, &ct, &Refresh::new(), &sm, &mut rng).unwrap();
    assert_eq!(ctx.decode(&ctx.decrypt(&out, &s).unwrap()).unwrap(), x);

    let ctx = ckks(2048, 3);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let tsk = deal(&*ctx, &crs, &ps, 2, &mut rng);
    let v: Vec<Complex> = (0..64)
        .map(|i| Complex::new(i as f64 / 64.0, 0.0))
        .collect();
    let ct = ctx
        .encrypt(&ctx.encode(&v).unwrap(), &pk, &mut rng)
        .unwrap();
    let ct = ctx.drop_to_level(&ct, 1).unwrap();
    let mut present: Vec<Party> = set
        .iter()
        .map(|&j| tsk[j as usize].combine(&*ctx, &set).unwrap())
        .collect();
    present.iter_mut().for_each(|p| p.join(&pk).unwrap());
    let sm = Smudging::new(40, 6.0, 2048, 1).unwrap();
    let spec = Refresh::ckks(0.0).unwrap();
    let out = refresh_by(&*ctx, &crs, &present, &ct, &spec, sm.stated(6.0), &mut rng).unwrap();
    assert_eq!(out.level(), ctx.max_level());
    for (g, w) in ctx.decrypt_values(&out, &s).unwrap().iter().zip(&v) {
        assert!((g.re - w.re).abs() < 0.05);
    }
}

/// The refusals: a share of another ciphertext, of another refresh (map, CRS), a party missing, an
/// aggregate of others, a stale threshold group, a budget too low for the smudging (BFV), a level
/// too low for the masks (CKKS), a CKKS refresh without a value bound, bytes corrupted.
#[test]
fn refresh_refusals() {
    let crs = Crs::new([36; 32]);
    let mut rng = Csprng::from_seed([36; 32]);
    let ctx = bfv(2048, &[55, 55, 55]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let x = mp::values(2048, 7);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let other = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let sm = Smudging::for_ciphertext(&*ctx, &ct, 40).unwrap();
    let spec = Refresh::new();
    let all = indices(&ps);
    let shares: Vec<Share> = ps
        .iter()
        .map(|p| refresh::share(&*ctx, p, &ct, &crs, &spec, &sm, &mut rng).unwrap())
        .collect();
    let round = refresh::round(&*ctx, &crs, &ct, &spec, None).unwrap();
    let fault = |e: Error| match e {
        Error::ShareRefused { fault, .. } => fault,
        e => panic!("not a share refusal: {e}"),
    };

    // Another ciphertext's share.
    let stray = refresh::share(&*ctx, &ps[0], &other, &crs, &spec, &sm, &mut rng).unwrap();
    let mut agg = rnsfhe::multiparty::Aggregator::new(&*ctx, round.clone(), &all).unwrap();
    assert_eq!(fault(agg.add(&stray).unwrap_err()), ShareFault::Stale);
    // A share of a refresh with a map, or under another reference string.
    let mapped = Refresh::new().with_map(rnsfhe::multiparty::SlotMap::Rotate(1));
    let s2 = refresh::share(&*ctx, &ps[0], &ct, &crs, &mapped, &sm, &mut rng).unwrap();
    assert_eq!(fault(agg.add(&s2).unwrap_err()), ShareFault::Stale);
    let s3 = refresh::share(
        &*ctx,
        &ps[0],
        &ct,
        &Crs::new([37; 32]),
        &spec,
        &sm,
        &mut rng,
    )
    .unwrap();
    assert_eq!(fault(agg.add(&s3).unwrap_err()), ShareFault::Stale);
    // A party missing.
    agg.add(&shares[0]).unwrap();
    agg.add(&shares[1]).unwrap();
    let partial = agg.partial().unwrap();
    let e = refresh::finalize(&*ctx, &crs, &ct, &spec, &partial, &all, &sm).unwrap_err();
    assert_eq!(fault(e), ShareFault::Missing);
    agg.add(&shares[2]).unwrap();
    let full = agg.finish().unwrap();
    // The aggregate of another ciphertext, or finalised for other parties.
    let e = refresh::finalize(&*ctx, &crs, &other, &spec, &full, &all, &sm).unwrap_err();
    assert_eq!(fault(e), ShareFault::Stale);
    let e = refresh::finalize(&*ctx, &crs, &ct, &spec, &full, &[0, 1, 2, 3], &sm).unwrap_err();
    assert!(e.to_string().contains("missing [3]"), "{e}");
    // Bytes: the same share, and a corrupted one refused.
    let bytes = shares[0].to_bytes();
    let back = Share::from_bytes(&*ctx, &bytes).unwrap();
    assert_eq!(back.digest().unwrap(), shares[0].digest().unwrap());
    let mut bad = bytes.to_vec();
    let mid = bad.len() / 2;
    bad[mid] ^= 1;
    let mut agg = rnsfhe::multiparty::Aggregator::new(&*ctx, round.clone(), &all).unwrap();
    assert_eq!(
        fault(agg.add_bytes(&*ctx, &bad).unwrap_err()),
        ShareFault::Corrupted
    );
    // The refreshed ciphertext from the full aggregate decrypts.
    let out = refresh::finalize(&*ctx, &crs, &ct, &spec, &full, &all, &sm).unwrap();
    assert_eq!(out.key_id(), Some(pk.id()));

    // A stale threshold group: shares of the set {0, 1} in a round of {0, 2}.
    let tsk = deal(&*ctx, &crs, &ps, 2, &mut rng);
    let p01 = tsk[0].combine(&*ctx, &[0, 1]).unwrap();
    let g02 = rnsfhe::multiparty::Group::new(2, &[0, 2]).unwrap();
    let r02 = refresh::round(&*ctx, &crs, &ct, &spec, Some(&g02)).unwrap();
    let mut agg = rnsfhe::multiparty::Aggregator::new(&*ctx, r02, &[0, 2]).unwrap();
    let s01 = refresh::share(&*ctx, &p01, &ct, &crs, &spec, &sm, &mut rng).unwrap();
    assert_eq!(fault(agg.add(&s01).unwrap_err()), ShareFault::Stale);

    // BFV: a ciphertext with too little budget for the smudging is refused with what it needs.
    let top = ctx.key_switcher().top_level();
    let rlk = collective_rlk(&*ctx, &crs, &ps, &pk, top, &mut rng);
    // The deepest square that still decrypts: less budget than the smudging needs.
    let mut deep = ct.clone();
    loop {
        let next = ctx.multiply(&deep, &deep, &rlk).unwrap();
        if ctx.noise_budget(&next, &s).unwrap() == 0 {
            break;
        }
        deep = next;
    }
    eprintln!(
        "refused refresh at a budget of {} bits",
        ctx.noise_budget(&deep, &s).unwrap()
    );
    let sm_deep = Smudging::for_ciphertext(&*ctx, &deep, 40).unwrap();
    let e = refresh_by(&*ctx, &crs, &ps, &deep, &spec, &sm_deep, &mut rng).unwrap_err();
    assert!(matches!(e, Error::NoiseBudgetExhausted(_)), "{e}");
    assert!(e.to_string().contains("refresh earlier"), "{e}");
    // Weak smudging is refused before any share is made.
    let weak = Smudging::with_sigma(2f64.powi(10)).unwrap();
    assert!(refresh::share(&*ctx, &ps[0], &ct, &crs, &spec, &weak, &mut rng).is_err());
    // A CKKS bound on a BFV refresh.
    let e = refresh::share(
        &*ctx,
        &ps[0],
        &ct,
        &crs,
        &Refresh::ckks(0.0).unwrap(),
        &sm,
        &mut rng,
    )
    .unwrap_err();
    assert!(e.to_string().contains("Refresh::new()"), "{e}");

    // CKKS: no value bound; a level too low for the masks.
    let ctx = ckks(2048, 2);
    let (ps, pk, _) = session(&*ctx, &crs, 3, &mut rng);
    let v = vec![Complex::new(0.5, 0.0); 8];
    let ct = ctx
        .encrypt(&ctx.encode(&v).unwrap(), &pk, &mut rng)
        .unwrap();
    let sm = Smudging::new(40, 6.0, 2048, 1).unwrap();
    let e = refresh::share(
        &*ctx,
        &ps[0],
        &ct,
        &crs,
        &Refresh::new(),
        sm.stated(6.0),
        &mut rng,
    )
    .unwrap_err();
    assert!(e.to_string().contains("Refresh::ckks"), "{e}");
    let low = ctx.drop_to_level(&ct, 0).unwrap();
    let spec = Refresh::ckks(0.0).unwrap();
    let e = refresh::share(&*ctx, &ps[0], &low, &crs, &spec, sm.stated(6.0), &mut rng).unwrap_err();
    assert!(matches!(e, Error::LevelsExhausted { .. }), "{e}");
    // CKKS takes automorphisms only.
    let perm = Refresh::ckks(0.0)
        .unwrap()
        .with_map(rnsfhe::multiparty::SlotMap::Permute((0..2048).collect()));
    let e = refresh::share(&*ctx, &ps[0], &ct, &crs, &perm, sm.stated(6.0), &mut rng).unwrap_err();
    assert!(e.to_string().contains("automorphisms"), "{e}");
}
