//! Every refusal of the multiparty protocols: a duplicated, stale (other round, reference string, input, group,
//! level, elements or recipient), corrupted or foreign share, an unexpected party, a missing one,
//! a partial sum where the aggregate is needed; shares and threshold secrets through bytes; tree
//! aggregation; unsupported parameters and mismatched key pairs.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/multiparty.rs"]
mod mp;

use mp::{aggregate, bfv, collective_pk, parties};
use rnsfhe::multiparty::{
    ckg, cks_round, cks_share, pcks_share, rkg, rtg, threshold, Aggregator, Group, Party, Share,
    ShareFault, Smudging, ThresholdSecret,
};
use rnsfhe::rlwe::Crs;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

/// The fault of a refusal (fails the test on another outcome).
fn fault<T: std::fmt::Debug>(r: rnsfhe::Result<T>) -> (ShareFault, String) {
    let e = r.err().unwrap();
    let Error::ShareRefused { fault, .. } = &e else {
        unreachable!("expected a refused share, got {e:?}");
    };
    (*fault, e.to_string())
}

#[test]
fn duplicated_unexpected_and_missing_shares() {
    let crs = Crs::new([31; 32]);
    let mut rng = Csprng::from_seed([31; 32]);
    let ctx = bfv(1024, &[50, 50]);
    let ps = parties(&*ctx, 4, &mut rng);
    let shares: Vec<Share> = ps
        .iter()
        .map(|p| ckg::share(&*ctx, p, &crs).unwrap())
        .collect();
    let mut agg = Aggregator::new(&*ctx, ckg::round(&*ctx, &crs, None), &[0, 1, 2]).unwrap();
    agg.add(&shares[1]).unwrap();
    let (f, msg) = fault(agg.add(&shares[1]));
    assert_eq!(f, ShareFault::Duplicate);
    assert!(msg.contains("party 1"), "{msg}");
    let (f, msg) = fault(agg.add(&shares[3]));
    assert_eq!(f, ShareFault::Unexpected);
    assert!(msg.contains("party 3"), "{msg}");
    assert_eq!(agg.missing(), vec![0, 2]);
    // A partial sum counts its parties: tree aggregation, and its duplicates are refused too.
    let mut low = Aggregator::new(&*ctx, ckg::round(&*ctx, &crs, None), &[0, 2]).unwrap();
    low.add(&shares[0]).unwrap();
    low.add(&shares[2]).unwrap();
    let partial = low.partial().unwrap();
    assert_eq!(partial.parties(), &[0, 2]);
    let mut top = Aggregator::new(&*ctx, ckg::round(&*ctx, &crs, None), &[0, 1, 2]).unwrap();
    top.add(&shares[0]).unwrap();
    let (f, msg) = fault(top.add(&partial));
    assert_eq!(f, ShareFault::Duplicate);
    assert!(msg.contains("parties [0, 2]"), "{msg}");
    let (f, msg) = fault(
        Aggregator::new(&*ctx, ckg::round(&*ctx, &crs, None), &[0, 1, 2])
            .unwrap()
            .finish(),
    );
    assert_eq!(f, ShareFault::Missing);
    assert!(msg.contains("[0, 1, 2]"), "{msg}");
    agg.add(&partial).unwrap();
    let tree = agg.finish().unwrap();
    let flat = aggregate(&*ctx, ckg::round(&*ctx, &crs, None), &shares[..3]);
    assert_eq!(tree.polys()[0].residues(), flat.polys()[0].residues());
    // A single share or a partial sum is not an aggregate.
    let (f, _) = fault(ckg::public_key(&*ctx, &crs, &shares[0], &[0]));
    assert_eq!(f, ShareFault::Missing);
    let (f, _) = fault(ckg::public_key(&*ctx, &crs, &partial, &[0, 2]));
    assert_eq!(f, ShareFault::Missing);
    assert!(ckg::public_key(&*ctx, &crs, &tree, &[0, 1, 2]).is_ok());
    // The group of a threshold round fixes the parties.
    let g = Group::new(2, &[0, 1]).unwrap();
    assert!(Aggregator::new(&*ctx, ckg::round(&*ctx, &crs, Some(&g)), &[0, 2]).is_err());
}

#[test]
fn stale_shares() {
    let crs = Crs::new([32; 32]);
    let crs2 = Crs::new([33; 32]);
    let mut rng = Csprng::from_seed([32; 32]);
    let ctx = bfv(1024, &[50, 50]);
    let mut ps = parties(&*ctx, 3, &mut rng);
    let who = [0, 1, 2];
    let top = ctx.key_switcher().top_level();

    // Another reference string.
    let mut agg = Aggregator::new(&*ctx, ckg::round(&*ctx, &crs, None), &who).unwrap();
    let (f, msg) = fault(agg.add(&ckg::share(&*ctx, &ps[0], &crs2).unwrap()));
    assert_eq!(f, ShareFault::Stale);
    assert!(msg.contains("reference string"), "{msg}");

    // Another round: a round-1 share offered to round 2, round 2 of another round-1 aggregate.
    let (r1, eph): (Vec<Share>, Vec<_>) = ps
        .iter()
        .map(|p| rkg::share_round1(&*ctx, p, &crs, top, &mut rng).unwrap())
        .unzip();
    let a1 = aggregate(&*ctx, rkg::round1(&*ctx, &crs, top, None).unwrap(), &r1);
    let mut agg2 = Aggregator::new(&*ctx, rkg::round2(&a1).unwrap(), &who).unwrap();
    let (f, msg) = fault(agg2.add(&r1[0]));
    assert_eq!(f, ShareFault::Stale);
    assert!(msg.contains("Relin round 1 share"), "{msg}");
    let (again, eph_again) = rkg::share_round1(&*ctx, &ps[0], &crs, top, &mut rng).unwrap();
    let a1_other = aggregate(
        &*ctx,
        rkg::round1(&*ctx, &crs, top, None).unwrap(),
        &[again, r1[1].clone(), r1[2].clone()],
    );
    // A retried round 1: the first ephemeral does not go with the second share.
    let (f, msg) = fault(rkg::share_round2(
        &*ctx, &ps[0], &eph[0], &a1_other, &mut rng,
    ));
    assert_eq!(f, ShareFault::Substituted);
    assert!(msg.contains("another round-1 share"), "{msg}");
    let r2_other = rkg::share_round2(&*ctx, &ps[0], &eph_again, &a1_other, &mut rng).unwrap();
    let (f, msg) = fault(agg2.add(&r2_other));
    assert_eq!(f, ShareFault::Stale);
    assert!(msg.contains("another input"), "{msg}");
    // Round 2 refuses a partial round 1, and another party's ephemeral secret.
    assert!(rkg::share_round2(&*ctx, &ps[0], &eph[0], &r1[0], &mut rng).is_err());
    assert!(rkg::share_round2(&*ctx, &ps[1], &eph[0], &a1, &mut rng).is_err());

    // Another level or other elements (RTG).
    let el = [ctx.galois_element(1)];
    let mut agg = Aggregator::new(
        &*ctx,
        rtg::round(&*ctx, &crs, &el, top, None).unwrap(),
        &who,
    )
    .unwrap();
    let (f, msg) = fault(agg.add(&rtg::share(&*ctx, &ps[0], &crs, &el, 0, &mut rng).unwrap()));
    assert_eq!(f, ShareFault::Stale);
    assert!(msg.contains("level"), "{msg}");
    let other = [ctx.galois_element(2)];
    let (f, msg) = fault(agg.add(&rtg::share(&*ctx, &ps[0], &crs, &other, top, &mut rng).unwrap()));
    assert_eq!(f, ShareFault::Stale);
    assert!(msg.contains("Galois elements"), "{msg}");

    // Another ciphertext, and a PCKS share offered to CKS.
    let pk = collective_pk(&*ctx, &crs, &mut ps);
    let sm = Smudging::with_sigma(1024.0).unwrap();
    let ct1 = ctx
        .encrypt(&ctx.encode(&[1]).unwrap(), &pk, &mut rng)
        .unwrap();
    let ct2 = ctx
        .encrypt(&ctx.encode(&[2]).unwrap(), &pk, &mut rng)
        .unwrap();
    let mut agg = Aggregator::new(
        &*ctx,
        cks_round(&*ctx, &crs, &ct1, None, None).unwrap(),
        &who,
    )
    .unwrap();
    let (f, msg) = fault(
        agg.add(&cks_share(&*ctx, &ps[0], None, &ct2, &crs, sm.unchecked(), &mut rng).unwrap()),
    );
    assert_eq!(f, ShareFault::Stale);
    assert!(msg.contains("another input"), "{msg}");
    let (_, rpk) = ctx.keygen(&mut rng).unwrap();
    let (f, _) = fault(
        agg.add(&pcks_share(&*ctx, &ps[0], &rpk, &ct1, &crs, sm.unchecked(), &mut rng).unwrap()),
    );
    assert_eq!(f, ShareFault::Stale);

    // Shamir: a share for another recipient, and one of another threshold.
    let g = Group::new(2, &who).unwrap();
    let f0 = threshold::shamir_polynomial(&*ctx, &ps[0], 2, &mut rng).unwrap();
    let mut agg = Aggregator::new(
        &*ctx,
        threshold::shamir_round(&*ctx, &crs, &g, 1).unwrap(),
        &who,
    )
    .unwrap();
    let (f, msg) = fault(agg.add(&f0.share_for(&*ctx, &crs, &g, 2).unwrap()));
    assert_eq!(f, ShareFault::Stale);
    assert!(msg.contains("another input"), "{msg}");
    let g3 = Group::new(3, &who).unwrap();
    let f3 = threshold::shamir_polynomial(&*ctx, &ps[0], 3, &mut rng).unwrap();
    let (f, msg) = fault(agg.add(&f3.share_for(&*ctx, &crs, &g3, 1).unwrap()));
    assert_eq!(f, ShareFault::Stale);
    assert!(msg.contains("threshold group"), "{msg}");
    assert!(
        f0.share_for(&*ctx, &crs, &g3, 1).is_err(),
        "a polynomial of t = 2 for t = 3"
    );
}

/// Threshold shares of one set of parties present refuse to join the aggregation of another.
#[test]
fn stale_threshold_group() {
    let crs = Crs::new([34; 32]);
    let mut rng = Csprng::from_seed([34; 32]);
    let ctx = bfv(1024, &[50, 50]);
    let ps = parties(&*ctx, 3, &mut rng);
    let g = Group::new(2, &[0, 1, 2]).unwrap();
    let polys: Vec<_> = ps
        .iter()
        .map(|p| threshold::shamir_polynomial(&*ctx, p, 2, &mut rng).unwrap())
        .collect();
    let tsk: Vec<ThresholdSecret> = (0..3)
        .map(|j| {
            let shares: Vec<Share> = polys
                .iter()
                .map(|f| f.share_for(&*ctx, &crs, &g, j).unwrap())
                .collect();
            let round = threshold::shamir_round(&*ctx, &crs, &g, j).unwrap();
            let agg = aggregate(&*ctx, round, &shares);
            ThresholdSecret::from_aggregate(&*ctx, &crs, &g, &agg, j).unwrap()
        })
        .collect();
    let p0_with_1 = tsk[0].combine(&*ctx, &[0, 1]).unwrap();
    let present = Group::new(2, &[0, 2]).unwrap();
    let mut agg = Aggregator::new(&*ctx, ckg::round(&*ctx, &crs, Some(&present)), &[0, 2]).unwrap();
    let (f, msg) = fault(agg.add(&ckg::share(&*ctx, &p0_with_1, &crs).unwrap()));
    assert_eq!(f, ShareFault::Stale);
    assert!(msg.contains("threshold group"), "{msg}");
    agg.add(&ckg::share(&*ctx, &tsk[0].combine(&*ctx, &[0, 2]).unwrap(), &crs).unwrap())
        .unwrap();
    // A threshold secret of another party, or aggregated from another recipient's shares.
    let shares: Vec<Share> = polys
        .iter()
        .map(|f| f.share_for(&*ctx, &crs, &g, 1).unwrap())
        .collect();
    let a1 = aggregate(
        &*ctx,
        threshold::shamir_round(&*ctx, &crs, &g, 1).unwrap(),
        &shares,
    );
    assert!(ThresholdSecret::from_aggregate(&*ctx, &crs, &g, &a1, 2).is_err());
}

#[test]
fn corrupted_and_foreign_bytes() {
    let crs = Crs::new([35; 32]);
    let mut rng = Csprng::from_seed([35; 32]);
    let ctx = bfv(1024, &[50, 50]);
    let other = bfv(1024, &[51, 51]);
    let ps = parties(&*ctx, 2, &mut rng);
    let qs = parties(&*other, 2, &mut rng);
    let share = ckg::share(&*ctx, &ps[0], &crs).unwrap();
    let bytes = share.to_bytes();
    let mut agg = Aggregator::new(&*ctx, ckg::round(&*ctx, &crs, None), &[0, 1]).unwrap();

    let mut bad = bytes.to_vec();
    bad[100] ^= 4;
    let (f, msg) = fault(agg.add_bytes(&*ctx, &bad));
    assert_eq!(f, ShareFault::Corrupted);
    assert!(msg.contains("checksum"), "{msg}");
    let (f, _) = fault(agg.add_bytes(&*ctx, &bytes[..bytes.len() - 9]));
    assert_eq!(f, ShareFault::Corrupted);

    let foreign = ckg::share(&*other, &qs[1], &crs).unwrap();
    let (f, msg) = fault(agg.add_bytes(&*ctx, &foreign.to_bytes()));
    assert_eq!(f, ShareFault::Foreign);
    assert!(msg.contains("parameter set"), "{msg}");
    let (f, _) = fault(agg.add(&foreign));
    assert_eq!(f, ShareFault::Foreign);

    // The refusals left the sum alone: the right shares still make the key.
    agg.add_bytes(&*ctx, &bytes).unwrap();
    agg.add(&ckg::share(&*ctx, &ps[1], &crs).unwrap()).unwrap();
    let pk = ckg::public_key(&*ctx, &crs, &agg.finish().unwrap(), &[0, 1]).unwrap();
    assert_eq!(pk.fingerprint(), ctx.fingerprint());
}

/// Every share kind survives bytes (round, parties, polynomials); so do aggregates and threshold
/// secrets.
#[test]
fn shares_through_bytes() {
    let crs = Crs::new([36; 32]);
    let mut rng = Csprng::from_seed([36; 32]);
    let ctx = bfv(1024, &[50, 50]);
    let mut ps = parties(&*ctx, 2, &mut rng);
    let top = ctx.key_switcher().top_level();
    let (r1, _eph) = rkg::share_round1(&*ctx, &ps[0], &crs, top, &mut rng).unwrap();
    let g = Group::new(2, &[0, 1]).unwrap();
    let f = threshold::shamir_polynomial(&*ctx, &ps[1], 2, &mut rng).unwrap();
    let mut shares = vec![
        ckg::share(&*ctx, &ps[0], &crs).unwrap(),
        r1,
        rtg::share(&*ctx, &ps[1], &crs, &[3, 5, 7], 0, &mut rng).unwrap(),
        f.share_for(&*ctx, &crs, &g, 0).unwrap(),
    ];
    let pk = collective_pk(&*ctx, &crs, &mut ps);
    let ct = ctx
        .encrypt(&ctx.encode(&[4]).unwrap(), &pk, &mut rng)
        .unwrap();
    let sm = Smudging::with_sigma(2f64.powi(30)).unwrap();
    shares.push(cks_share(&*ctx, &ps[0], None, &ct, &crs, sm.unchecked(), &mut rng).unwrap());
    shares.push(pcks_share(&*ctx, &ps[1], &pk, &ct, &crs, sm.unchecked(), &mut rng).unwrap());
    let all = [
        ckg::share(&*ctx, &ps[0], &crs).unwrap(),
        ckg::share(&*ctx, &ps[1], &crs).unwrap(),
    ];
    shares.push(aggregate(&*ctx, ckg::round(&*ctx, &crs, None), &all));
    for s in &shares {
        let back = Share::from_bytes(&*ctx, &s.to_bytes()).unwrap();
        assert_eq!(back.round(), s.round());
        assert_eq!(back.parties(), s.parties());
        assert_eq!(back.is_complete(), s.is_complete());
        assert_eq!(back.polys().len(), s.polys().len());
        for (a, b) in back.polys().iter().zip(s.polys()) {
            assert_eq!(a.residues(), b.residues());
            assert_eq!(a.representation(), b.representation());
        }
    }
    assert!(Share::from_bytes(&*ctx, &[0u8; 8]).is_err());
}

/// Parameters multiparty does not support, and key-pair checks.
#[test]
fn unsupported_parameters_and_key_pairs() {
    let crs = Crs::new([37; 32]);
    let mut rng = Csprng::from_seed([37; 32]);
    let p = rnsfhe::bgv::BgvParameters::builder()
        .cyclotomic_index(1155)
        .plain_modulus(2)
        .moduli_bits(&[50, 50])
        .special_moduli_bits(&[50])
        .security(rnsfhe::params::Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let any_m = rnsfhe::bgv::BgvContext::new(p).unwrap();
    assert!(matches!(
        Party::generate(&*any_m, 0, &mut rng),
        Err(Error::InvalidParameters(_))
    ));

    let ctx = bfv(1024, &[50, 50]);
    let mut ps = parties(&*ctx, 2, &mut rng);
    let pk = collective_pk(&*ctx, &crs, &mut ps);
    let (_, own) = ctx.keygen(&mut rng).unwrap();
    let ct = ctx
        .encrypt(&ctx.encode(&[1]).unwrap(), &own, &mut rng)
        .unwrap();
    let sm = Smudging::with_sigma(1024.0).unwrap();
    assert!(matches!(
        cks_share(&*ctx, &ps[0], None, &ct, &crs, sm.unchecked(), &mut rng),
        Err(Error::KeyMismatch { .. })
    ));
    // The flooding sampler takes any sigma to 2^1000 (beyond 2^48 as a sum of parts).
    assert!(Smudging::with_sigma(2f64.powi(50)).is_ok());
    assert!(Smudging::new(40, 30.0, 1 << 15, 1).is_ok());
    assert!(Smudging::with_sigma(2f64.powi(1001)).is_err());
    assert!(Smudging::with_sigma(0.5).is_err());
    let ct = ctx
        .encrypt(&ctx.encode(&[1]).unwrap(), &pk, &mut rng)
        .unwrap();
    let target = parties(&*ctx, 1, &mut rng);
    assert!(cks_share(
        &*ctx,
        &ps[0],
        Some(&target[0]),
        &ct,
        &crs,
        sm.unchecked(),
        &mut rng
    )
    .is_err());
}
