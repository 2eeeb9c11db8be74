//! Re-sharing a threshold secret (`threshold::reshare_polynomial`): 3-of-5 to 4-of-7, every
//! 4-subset of the new group decrypts a ciphertext of the unchanged collective key, old and new
//! shares never aggregate together (also for a re-sharing to the same t and members), and the
//! refusals.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/multiparty.rs"]
mod mp;

use std::time::Instant;

use mp::{aggregate, bfv, deal, indices, session, subsets};
use rnsfhe::multiparty::{
    cks_round, cks_share, decrypt, threshold, Aggregator, Group, Party, Share, Smudging,
    ThresholdSecret,
};
use rnsfhe::rlwe::{Crs, KeyContext, PublicKey};
use rnsfhe::{Error, ShareFault};
use rnsfhe_math::sample::Csprng;

/// The new group's threshold secrets: every member of `acting` re-shares to every member of
/// `new_group`; returns them with the time per old party (its polynomial and all its shares) and
/// per new party (its aggregation).
fn reshare(
    ctx: &dyn KeyContext,
    crs: &Crs,
    old: &[ThresholdSecret],
    acting: &Group,
    new_group: &Group,
    rng: &mut Csprng,
) -> (Vec<ThresholdSecret>, f64, f64) {
    let t0 = Instant::now();
    let boxes: Vec<Vec<Share>> = acting
        .members()
        .iter()
        .map(|&j| {
            let g = threshold::reshare_polynomial(
                ctx,
                &old[j as usize],
                acting.members(),
                new_group,
                rng,
            )
            .unwrap();
            new_group
                .members()
                .iter()
                .map(|&k| g.share_for(ctx, crs, new_group, k).unwrap())
                .collect()
        })
        .collect();
    let per_old = t0.elapsed().as_secs_f64() / acting.members().len() as f64;
    let t0 = Instant::now();
    let new = new_group
        .members()
        .iter()
        .enumerate()
        .map(|(pos, &k)| {
            let round = threshold::reshare_round(ctx, crs, acting, new_group, k).unwrap();
            let shares: Vec<Share> = boxes.iter().map(|b| b[pos].clone()).collect();
            let agg = aggregate(ctx, round, &shares);
            ThresholdSecret::from_reshare(ctx, crs, acting, new_group, &agg, k).unwrap()
        })
        .collect();
    let per_new = t0.elapsed().as_secs_f64() / new_group.members().len() as f64;
    (new, per_old, per_new)
}

/// Collective decryption by `present` (combined, joined to `pk`).
fn decrypt_by(
    ctx: &rnsfhe::bfv::BfvContext,
    crs: &Crs,
    secrets: &[&ThresholdSecret],
    present: &[u32],
    pk: &PublicKey,
    ct: &rnsfhe::bfv::BfvCiphertext,
    rng: &mut Csprng,
) -> rnsfhe::Result<Vec<u64>> {
    let mut ps: Vec<Party> = secrets
        .iter()
        .map(|s| s.combine(ctx, present).unwrap())
        .collect();
    ps.iter_mut().for_each(|p| p.join(pk).unwrap());
    let sm = Smudging::for_ciphertext(ctx, ct, 40).unwrap();
    let shares: Vec<Share> = ps
        .iter()
        .map(|p| cks_share(ctx, p, None, ct, crs, &sm, rng).unwrap())
        .collect();
    let round = cks_round(ctx, crs, ct, None, ps[0].group()).unwrap();
    let agg = aggregate(ctx, round, &shares);
    ctx.decode(&decrypt(ctx, crs, ct, &agg, &indices(&ps), &sm)?)
}

#[test]
fn reshare_3_of_5_to_4_of_7() {
    let crs = Crs::new([41; 32]);
    let mut rng = Csprng::from_seed([41; 32]);
    let ctx = bfv(1024, &[55, 55]);
    let (ps, pk, _) = session(&*ctx, &crs, 5, &mut rng);
    let old = deal(&*ctx, &crs, &ps, 3, &mut rng);
    let x = mp::values(1024, 11);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();

    let crs2 = Crs::with_nonce([41; 32], b"reshare 1").unwrap();
    let acting = old[0].group().subgroup(&[0, 2, 4]).unwrap();
    let members: Vec<u32> = (0..7).collect();
    let new_group = threshold::reshared_group(old[0].group(), &crs2, 4, &members).unwrap();
    assert_ne!(new_group.epoch(), 0);
    let (new, per_old, per_new) = reshare(&*ctx, &crs2, &old, &acting, &new_group, &mut rng);
    eprintln!(
        "re-sharing 3-of-5 to 4-of-7 at n = 1024, 2 x 55-bit primes + 55: {:.2} ms per old party \
         (7 shares), {:.2} ms per new party (3 shares)",
        per_old * 1e3,
        per_new * 1e3
    );
    // The new secrets survive bytes, epoch included.
    let new: Vec<ThresholdSecret> = new
        .iter()
        .map(|s| ThresholdSecret::from_bytes(&*ctx, &s.to_bytes()).unwrap())
        .collect();
    assert_eq!(new[3].group(), &new_group);

    // Every 4 of the 7 decrypt a ciphertext of the collective key made before the re-sharing.
    let sets = subsets(&members, 4);
    assert_eq!(sets.len(), 35);
    for set in &sets {
        let secrets: Vec<&ThresholdSecret> = set.iter().map(|&k| &new[k as usize]).collect();
        let got = decrypt_by(&ctx, &crs, &secrets, set, &pk, &ct, &mut rng).unwrap();
        assert_eq!(got, x, "new subset {set:?}");
    }
    // Three new parties are below t' = 4.
    assert!(new[0].combine(&*ctx, &[0, 1, 2]).is_err());
    // The old parties still decrypt among themselves (erasing old shares is theirs to do).
    let secrets: Vec<&ThresholdSecret> = [1u32, 3, 4].iter().map(|&j| &old[j as usize]).collect();
    assert_eq!(
        decrypt_by(&ctx, &crs, &secrets, &[1, 3, 4], &pk, &ct, &mut rng).unwrap(),
        x
    );
}

/// Old and new shares never aggregate together, even for a re-sharing to the same t and members
/// (a proactive refresh): the epochs differ. And the refusals of the re-sharing itself.
#[test]
fn reshare_refusals() {
    let crs = Crs::new([42; 32]);
    let mut rng = Csprng::from_seed([42; 32]);
    let ctx = bfv(1024, &[55, 55]);
    let (ps, pk, _) = session(&*ctx, &crs, 5, &mut rng);
    let old = deal(&*ctx, &crs, &ps, 3, &mut rng);
    let all: Vec<u32> = (0..5).collect();
    let crs2 = Crs::with_nonce([42; 32], b"proactive").unwrap();
    let acting = old[0].group().subgroup(&[0, 1, 2]).unwrap();
    let same = threshold::reshared_group(old[0].group(), &crs2, 3, &all).unwrap();
    assert_eq!((same.t(), same.members()), (3, &all[..]));
    let (new, _, _) = reshare(&*ctx, &crs2, &old, &acting, &same, &mut rng);
    let x = mp::values(1024, 12);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let sm = Smudging::for_ciphertext(&*ctx, &ct, 40).unwrap();

    // Old party 0 and new parties 1, 2 among {0, 1, 2}: the old share is stale in the new round.
    let present = [0u32, 1, 2];
    let mut old0 = old[0].combine(&*ctx, &present).unwrap();
    old0.join(&pk).unwrap();
    let mut new12: Vec<Party> = [1usize, 2]
        .iter()
        .map(|&k| new[k].combine(&*ctx, &present).unwrap())
        .collect();
    new12.iter_mut().for_each(|p| p.join(&pk).unwrap());
    let round = cks_round(&*ctx, &crs, &ct, None, new12[0].group()).unwrap();
    let mut agg = Aggregator::new(&*ctx, round, &present).unwrap();
    for p in &new12 {
        agg.add(&cks_share(&*ctx, p, None, &ct, &crs, &sm, &mut rng).unwrap())
            .unwrap();
    }
    let e = agg
        .add(&cks_share(&*ctx, &old0, None, &ct, &crs, &sm, &mut rng).unwrap())
        .unwrap_err();
    match e {
        Error::ShareRefused { fault, detail, .. } => {
            assert_eq!(fault, ShareFault::Stale);
            assert!(detail.contains("epoch"), "{detail}");
        }
        e => panic!("{e}"),
    }
    // The new parties alone decrypt (the same t and members, a new sharing of the same s).
    let secrets: Vec<&ThresholdSecret> = present.iter().map(|&k| &new[k as usize]).collect();
    assert_eq!(
        decrypt_by(&ctx, &crs, &secrets, &present, &pk, &ct, &mut rng).unwrap(),
        x
    );

    // A re-sharing to a group of the old epoch is refused; so is a new party's secret from an
    // aggregate that misses a dealer, or for a party outside the new group.
    let plain = Group::new(3, &all).unwrap();
    assert!(threshold::reshare_polynomial(&*ctx, &old[0], &[0, 1, 2], &plain, &mut rng).is_err());
    let g = threshold::reshare_polynomial(&*ctx, &old[0], &[0, 1, 2], &same, &mut rng).unwrap();
    let round = threshold::reshare_round(&*ctx, &crs2, &acting, &same, 3).unwrap();
    let mut agg = Aggregator::new(&*ctx, round, acting.members()).unwrap();
    agg.add(&g.share_for(&*ctx, &crs2, &same, 3).unwrap())
        .unwrap();
    let partial = agg.partial().unwrap();
    match ThresholdSecret::from_reshare(&*ctx, &crs2, &acting, &same, &partial, 3).unwrap_err() {
        Error::ShareRefused { fault, .. } => assert_eq!(fault, ShareFault::Missing),
        e => panic!("{e}"),
    }
    assert!(threshold::reshare_round(&*ctx, &crs2, &acting, &same, 9).is_err());
    // A share of a dealing under another reference string is stale for this re-sharing.
    let round = threshold::reshare_round(&*ctx, &crs2, &acting, &same, 3).unwrap();
    let mut agg = Aggregator::new(&*ctx, round, acting.members()).unwrap();
    let other = g.share_for(&*ctx, &crs, &same, 3).unwrap();
    assert!(matches!(
        agg.add(&other).unwrap_err(),
        Error::ShareRefused {
            fault: ShareFault::Stale,
            ..
        }
    ));
    // Old parties acting below t do not re-share.
    assert!(threshold::reshare_polynomial(&*ctx, &old[0], &[0, 1], &same, &mut rng).is_err());
}
