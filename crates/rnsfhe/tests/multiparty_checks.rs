//! What the protocols refuse to stand behind: an aggregate of other parties than those expected
//! (an aggregator that drops an honest party's share), a substituted or missing share that a
//! party checks for itself, a retried RKG round 1 whose ephemeral secret and share got mixed up,
//! smudging too weak for the ciphertext's error, and the shares of another protocol instance
//! under one reference string.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/multiparty.rs"]
mod mp;

use mp::{aggregate, bfv, ckks, collective_pk, indices, parties, session, sum_secret};
use rnsfhe::ckks::Complex;
use rnsfhe::multiparty::{
    ckg, cks_round, cks_share, decrypt, key_switch, pcks_round, pcks_share, public_key_switch, rkg,
    rtg, threshold, Aggregator, Group, Party, ReceiverSecret, Share, ShareFault, Smudging,
    ThresholdSecret,
};
use rnsfhe::rlwe::{Crs, KeyContext};
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

/// The fault and message of a refusal (fails the test on another outcome).
fn fault<T: std::fmt::Debug>(r: rnsfhe::Result<T>) -> (ShareFault, String) {
    let e = r.unwrap_err();
    let Error::ShareRefused { fault, .. } = &e else {
        unreachable!("expected a refused share, got {e:?}");
    };
    (*fault, e.to_string())
}

/// The message of an `InvalidParameters` error.
fn invalid<T: std::fmt::Debug>(r: rnsfhe::Result<T>) -> String {
    match r.unwrap_err() {
        Error::InvalidParameters(m) => m,
        other => format!("not InvalidParameters: {other:?}"),
    }
}

/// The shares of `ps` aggregated by an aggregator that counts only `kept` of them.
fn dropping(
    ctx: &dyn KeyContext,
    round: rnsfhe::multiparty::Round,
    shares: &[Share],
    kept: &[u32],
) -> Share {
    let mut agg = Aggregator::new(ctx, round, kept).unwrap();
    for s in shares.iter().filter(|s| kept.contains(&s.parties()[0])) {
        agg.add(s).unwrap();
    }
    agg.finish().unwrap()
}

/// `bytes` of a partial sum with its complete flag (at `offset`) set and the checksum made again:
/// what an aggregator can send.
fn forge_complete(bytes: &[u8], offset: usize) -> Vec<u8> {
    let mut b = bytes.to_vec();
    assert_eq!(b[offset], 0, "the complete flag of a partial sum");
    b[offset] = 1;
    let body = b.len() - 4;
    let crc = crc32fast::hash(&b[..body]);
    b[body..].copy_from_slice(&crc.to_le_bytes());
    b
}

/// A malicious aggregator drops party 2's CKG share: the "collective" key is then one that
/// parties 0 and 1 hold alone (their two secrets decrypt it). Every party's last step, given the
/// three parties, refuses it (also through bytes), naming party 2; an aggregate with a stranger
/// is refused naming it.
#[test]
fn dropped_party_is_refused_by_the_collective_key() {
    let crs = Crs::new([41; 32]);
    let mut rng = Csprng::from_seed([41; 32]);
    let ctx = bfv(1024, &[50, 50]);
    let ps = parties(&*ctx, 4, &mut rng);
    let shares: Vec<Share> = ps
        .iter()
        .map(|p| ckg::share(&*ctx, p, &crs).unwrap())
        .collect();
    let round = ckg::round(&*ctx, &crs, None);
    let dropped = dropping(&*ctx, round.clone(), &shares, &[0, 1]);

    // What the dropped share would have allowed: the two others decrypt alone.
    let alone = ckg::public_key(&*ctx, &crs, &dropped, &[0, 1]).unwrap();
    let s01 = sum_secret(&*ctx, &ps[..2], &alone);
    let x = mp::values(1024, 1);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &alone, &mut rng)
        .unwrap();
    assert_eq!(ctx.decode(&ctx.decrypt(&ct, &s01).unwrap()).unwrap(), x);

    let who = [0, 1, 2];
    let (f, msg) = fault(ckg::public_key(&*ctx, &crs, &dropped, &who));
    assert_eq!(f, ShareFault::Missing);
    assert!(msg.contains("missing [2]"), "{msg}");
    let bytes = Share::from_bytes(&*ctx, &dropped.to_bytes()).unwrap();
    let (f, _) = fault(ckg::public_key(&*ctx, &crs, &bytes, &who));
    assert_eq!(f, ShareFault::Missing);
    let crp = ckg::crp(&*ctx, &crs).unwrap();
    let (f, _) = fault(ckg::public_key_with(&*ctx, &crp, &dropped, &who));
    assert_eq!(f, ShareFault::Missing);

    // A partial sum of {0, 1} whose bytes say "complete" (offset: header 15, protocol and round
    // 2, CRS and binding 16, no group 1, level 4, elements 4).
    let mut partial = Aggregator::new(&*ctx, round.clone(), &[0, 1, 2]).unwrap();
    partial.add(&shares[0]).unwrap();
    partial.add(&shares[1]).unwrap();
    let forged = forge_complete(&partial.partial().unwrap().to_bytes(), 42);
    let forged = Share::from_bytes(&*ctx, &forged).unwrap();
    assert!(forged.is_complete());
    let (f, msg) = fault(ckg::public_key(&*ctx, &crs, &forged, &who));
    assert_eq!(f, ShareFault::Missing);
    assert!(msg.contains("missing [2]"), "{msg}");

    let stranger = dropping(&*ctx, round.clone(), &shares, &[0, 1, 2, 3]);
    let (f, msg) = fault(ckg::public_key(&*ctx, &crs, &stranger, &who));
    assert_eq!(f, ShareFault::Unexpected);
    assert!(msg.contains("unexpected [3]"), "{msg}");

    let full = dropping(&*ctx, round, &shares, &who);
    let pk = ckg::public_key(&*ctx, &crs, &full, &[2, 0, 1]).unwrap();
    assert_eq!(
        pk.id(),
        ckg::public_key_with(&*ctx, &crp, &full, &who).unwrap().id()
    );
}

/// RKG, RTG, collective decryption, key switching, PCKS and the threshold secret: each last step
/// refuses an aggregate that misses an expected party.
#[test]
fn dropped_party_is_refused_by_every_last_step() {
    let crs = Crs::new([42; 32]);
    let mut rng = Csprng::from_seed([42; 32]);
    let ctx = bfv(1024, &[50, 50]);
    let (ps, pk, _) = session(&*ctx, &crs, 3, &mut rng);
    let who = [0, 1, 2];
    let kept = [0, 1];
    let top = ctx.key_switcher().top_level();
    let missing = |r: rnsfhe::Result<_>| {
        let (f, msg) = fault(r);
        assert_eq!(f, ShareFault::Missing, "{msg}");
        assert!(msg.contains("missing [2]"), "{msg}");
    };

    // RKG: both aggregates of parties 0 and 1 only.
    let (r1, eph): (Vec<Share>, Vec<_>) = ps
        .iter()
        .map(|p| rkg::share_round1(&*ctx, p, &crs, top, &mut rng).unwrap())
        .unzip();
    let a1 = dropping(
        &*ctx,
        rkg::round1(&*ctx, &crs, top, None).unwrap(),
        &r1,
        &kept,
    );
    let r2: Vec<Share> = ps[..2]
        .iter()
        .zip(&eph)
        .map(|(p, e)| rkg::share_round2(&*ctx, p, e, &a1, &mut rng).unwrap())
        .collect();
    let a2 = aggregate(&*ctx, rkg::round2(&a1).unwrap(), &r2);
    missing(rkg::relin_key(&*ctx, &a1, &a2, &who, &pk).map(|_| ()));
    assert!(rkg::relin_key(&*ctx, &a1, &a2, &kept, &pk).is_ok());
    // Party 2 finds its round-1 share missing when asked for round 2.
    let (f, _) = fault(rkg::share_round2(&*ctx, &ps[2], &eph[2], &a1, &mut rng));
    assert_eq!(f, ShareFault::Missing);

    // RTG.
    let el = [ctx.galois_element(1)];
    let g: Vec<Share> = ps
        .iter()
        .map(|p| rtg::share(&*ctx, p, &crs, &el, top, &mut rng).unwrap())
        .collect();
    let ga = dropping(
        &*ctx,
        rtg::round(&*ctx, &crs, &el, top, None).unwrap(),
        &g,
        &kept,
    );
    missing(rtg::galois_keys(&*ctx, &crs, &ga, &who, &pk).map(|_| ()));
    let crp = rtg::crp(&*ctx, &crs, &el, top).unwrap();
    missing(rtg::galois_keys_with(&*ctx, &crp, &ga, &who, &pk).map(|_| ()));

    // Decryption, key switching and PCKS.
    let ct = ctx
        .encrypt(&ctx.encode(&[3]).unwrap(), &pk, &mut rng)
        .unwrap();
    let sm = Smudging::for_ciphertext(&*ctx, &ct, 40).unwrap();
    let dec: Vec<Share> = ps
        .iter()
        .map(|p| cks_share(&*ctx, p, None, &ct, &crs, &sm, &mut rng).unwrap())
        .collect();
    let round = cks_round(&*ctx, &crs, &ct, None, None).unwrap();
    missing(
        decrypt(
            &*ctx,
            &crs,
            &ct,
            &dropping(&*ctx, round, &dec, &kept),
            &who,
            &sm,
        )
        .map(|_| ()),
    );
    let mut qs = parties(&*ctx, 3, &mut rng);
    let pk2 = collective_pk(&*ctx, &Crs::new([43; 32]), &mut qs);
    let sw: Vec<Share> = ps
        .iter()
        .zip(&qs)
        .map(|(p, q)| cks_share(&*ctx, p, Some(q), &ct, &crs, &sm, &mut rng).unwrap())
        .collect();
    let round = cks_round(&*ctx, &crs, &ct, Some(pk2.id()), None).unwrap();
    let agg = dropping(&*ctx, round, &sw, &kept);
    missing(key_switch(&*ctx, &crs, &ct, &agg, &who, pk2.id(), &sm).map(|_| ()));
    let (_, rpk) = ctx.keygen(&mut rng).unwrap();
    let pc: Vec<Share> = ps
        .iter()
        .map(|p| pcks_share(&*ctx, p, &rpk, &ct, &crs, &sm, &mut rng).unwrap())
        .collect();
    let round = pcks_round(&*ctx, &crs, &ct, &rpk, None).unwrap();
    let agg = dropping(&*ctx, round, &pc, &kept);
    let single = ReceiverSecret::Single;
    missing(public_key_switch(&*ctx, &crs, &ct, &agg, &who, &rpk, single, &sm).map(|_| ()));

    // The threshold secret: party 0's aggregator leaves out party 2's Shamir share (an aggregate
    // of the group {0, 1}), refused by party 0, which expects the group {0, 1, 2}.
    let group = Group::new(2, &who).unwrap();
    let f: Vec<_> = ps
        .iter()
        .map(|p| threshold::shamir_polynomial(&*ctx, p, 2, &mut rng).unwrap())
        .collect();
    let small = Group::new(2, &kept).unwrap();
    let to0: Vec<Share> = f[..2]
        .iter()
        .map(|f| f.share_for(&*ctx, &crs, &small, 0).unwrap())
        .collect();
    let agg = aggregate(
        &*ctx,
        threshold::shamir_round(&*ctx, &crs, &small, 0).unwrap(),
        &to0,
    );
    let (fault_kind, msg) = fault(ThresholdSecret::from_aggregate(
        &*ctx, &crs, &group, &agg, 0,
    ));
    assert!(
        matches!(fault_kind, ShareFault::Stale | ShareFault::Missing),
        "{msg}"
    );
    let to0: Vec<Share> = f
        .iter()
        .map(|f| f.share_for(&*ctx, &crs, &group, 0).unwrap())
        .collect();
    // Or a partial sum of {0, 1} among {0, 1, 2} whose bytes say "complete".
    let round = threshold::shamir_round(&*ctx, &crs, &group, 0).unwrap();
    let mut partial = Aggregator::new(&*ctx, round, &who).unwrap();
    partial.add(&to0[0]).unwrap();
    partial.add(&to0[1]).unwrap();
    // Offset of the complete flag: header 15, protocol and round 2, CRS and binding 16, the group
    // (flag, t, count, 3 members) 21, level 4, elements 4.
    let forged = forge_complete(&partial.partial().unwrap().to_bytes(), 62);
    let agg = Share::from_bytes(&*ctx, &forged).unwrap();
    assert!(agg.is_complete());
    missing(ThresholdSecret::from_aggregate(&*ctx, &crs, &group, &agg, 0).map(|_| ()));
    let agg = aggregate(
        &*ctx,
        threshold::shamir_round(&*ctx, &crs, &group, 0).unwrap(),
        &to0,
    );
    assert!(ThresholdSecret::from_aggregate(&*ctx, &crs, &group, &agg, 0).is_ok());
}

/// A party checks that an aggregate counts its own share: refused when the aggregate counts none
/// of its shares, or another share in its name (a substitute); accepted for the honest aggregate,
/// flat, as a tree of partial sums and through bytes.
#[test]
fn party_verifies_its_contribution() {
    let crs = Crs::new([44; 32]);
    let mut rng = Csprng::from_seed([44; 32]);
    let ctx = bfv(1024, &[50, 50]);
    let ps = parties(&*ctx, 3, &mut rng);
    let shares: Vec<Share> = ps
        .iter()
        .map(|p| ckg::share(&*ctx, p, &crs).unwrap())
        .collect();
    let round = ckg::round(&*ctx, &crs, None);
    let own = &shares[2];
    let digest = own.digest().unwrap();
    assert_eq!(
        Share::from_bytes(&*ctx, &own.to_bytes())
            .unwrap()
            .digest()
            .unwrap(),
        digest
    );

    let dropped = dropping(&*ctx, round.clone(), &shares, &[0, 1]);
    let (f, msg) = fault(dropped.verify_contribution(own));
    assert_eq!(f, ShareFault::Missing);
    assert!(msg.contains("party 2"), "{msg}");

    // The aggregator counts, in party 2's name, a share of a secret it chose.
    let impostor = Party::generate(&*ctx, 2, &mut rng).unwrap();
    let fake = ckg::share(&*ctx, &impostor, &crs).unwrap();
    let substituted = aggregate(
        &*ctx,
        round.clone(),
        &[shares[0].clone(), shares[1].clone(), fake],
    );
    let (f, msg) = fault(substituted.verify_contribution(own));
    assert_eq!(f, ShareFault::Substituted);
    assert!(msg.contains("party 2"), "{msg}");
    let back = Share::from_bytes(&*ctx, &substituted.to_bytes()).unwrap();
    let (f, _) = fault(back.verify_contribution_digest(2, &digest));
    assert_eq!(f, ShareFault::Substituted);
    substituted.verify_contribution(&shares[0]).unwrap();

    // The honest aggregate: flat, as a tree, and through bytes, every party finds its share.
    let flat = aggregate(&*ctx, round.clone(), &shares);
    let mut low = Aggregator::new(&*ctx, round.clone(), &[0, 2]).unwrap();
    low.add(&shares[0]).unwrap();
    low.add(&shares[2]).unwrap();
    let mut top = Aggregator::new(&*ctx, round.clone(), &[0, 1, 2]).unwrap();
    top.add_bytes(&*ctx, &low.partial().unwrap().to_bytes())
        .unwrap();
    top.add(&shares[1]).unwrap();
    let tree = top.finish().unwrap();
    for agg in [
        &flat,
        &tree,
        &Share::from_bytes(&*ctx, &tree.to_bytes()).unwrap(),
    ] {
        for s in &shares {
            agg.verify_contribution(s).unwrap();
        }
        let listed = agg.contributions();
        let want: Vec<(u32, [u8; 32])> = shares
            .iter()
            .map(|s| (s.parties()[0], s.digest().unwrap()))
            .collect();
        assert_eq!(listed, want);
    }
    assert!(
        flat.digest().is_err(),
        "a sum of three has no digest of its own"
    );
    // A share of another round is not checked against this aggregate.
    let crs2 = Crs::new([45; 32]);
    let (f, _) = fault(flat.verify_contribution(&ckg::share(&*ctx, &ps[2], &crs2).unwrap()));
    assert_eq!(f, ShareFault::Stale);
}

/// A retried RKG round 1: the party drew two shares and two ephemerals; the aggregator counted
/// the first share. Round 2 with the second ephemeral is refused (it would make a wrong
/// relinearisation key); with the first, the key relinearises a product correctly.
#[test]
fn retried_rkg_round1() {
    let crs = Crs::new([46; 32]);
    let mut rng = Csprng::from_seed([46; 32]);
    let ctx = bfv(2048, &[55, 55, 55]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let top = ctx.key_switcher().top_level();
    let (r1, eph): (Vec<Share>, Vec<_>) = ps
        .iter()
        .map(|p| rkg::share_round1(&*ctx, p, &crs, top, &mut rng).unwrap())
        .unzip();
    let (_retry, eph_retry) = rkg::share_round1(&*ctx, &ps[1], &crs, top, &mut rng).unwrap();
    let a1 = aggregate(&*ctx, rkg::round1(&*ctx, &crs, top, None).unwrap(), &r1);
    let (f, msg) = fault(rkg::share_round2(&*ctx, &ps[1], &eph_retry, &a1, &mut rng));
    assert_eq!(f, ShareFault::Substituted);
    assert!(msg.contains("party 1"), "{msg}");

    let r2: Vec<Share> = ps
        .iter()
        .zip(&eph)
        .map(|(p, e)| rkg::share_round2(&*ctx, p, e, &a1, &mut rng).unwrap())
        .collect();
    let a2 = aggregate(&*ctx, rkg::round2(&a1).unwrap(), &r2);
    let rlk = rkg::relin_key(&*ctx, &a1, &a2, &indices(&ps), &pk).unwrap();
    let (prod, want) = mp::bfv_product(&ctx, &pk, &rlk, (2, 3), &mut rng);
    assert_eq!(ctx.decode(&ctx.decrypt(&prod, &s).unwrap()).unwrap(), want);
}

/// Smudging below what lambda = 40 asks for the ciphertext's error is refused by CKS and PCKS
/// shares, and drawn only when opted out by name; CKKS states its bound.
#[test]
fn weak_smudging_is_refused_unless_opted_out() {
    let crs = Crs::new([47; 32]);
    let mut rng = Csprng::from_seed([47; 32]);
    let ctx = bfv(1024, &[50, 50]);
    let (ps, pk, _) = session(&*ctx, &crs, 2, &mut rng);
    let ct = ctx
        .encrypt(&ctx.encode(&[5]).unwrap(), &pk, &mut rng)
        .unwrap();
    let (_, rpk) = ctx.keygen(&mut rng).unwrap();
    let weak = Smudging::with_sigma(1.0).unwrap();
    let m = invalid(cks_share(&*ctx, &ps[0], None, &ct, &crs, &weak, &mut rng));
    assert!(m.contains("below") && m.contains("lambda = 40"), "{m}");
    let m = invalid(pcks_share(&*ctx, &ps[0], &rpk, &ct, &crs, &weak, &mut rng));
    assert!(m.contains("below"), "{m}");
    // Lattigo's default 2^30 is below the floor of this ciphertext too.
    let lattigo = Smudging::with_sigma(2f64.powi(30)).unwrap();
    assert!(cks_share(&*ctx, &ps[0], None, &ct, &crs, &lattigo, &mut rng).is_err());
    // The floor is for_ciphertext's sigma: exactly that passes.
    let enough = Smudging::for_ciphertext(&*ctx, &ct, 40).unwrap();
    assert!(cks_share(&*ctx, &ps[0], None, &ct, &crs, &enough, &mut rng).is_ok());
    let lower = Smudging::with_sigma(enough.sigma() * 0.99).unwrap();
    assert!(cks_share(&*ctx, &ps[0], None, &ct, &crs, &lower, &mut rng).is_err());
    // Opted out by name, the weak smudging is drawn (and decrypts).
    let shares: Vec<Share> = ps
        .iter()
        .map(|p| cks_share(&*ctx, p, None, &ct, &crs, weak.unchecked(), &mut rng).unwrap())
        .collect();
    let agg = aggregate(
        &*ctx,
        cks_round(&*ctx, &crs, &ct, None, None).unwrap(),
        &shares,
    );
    let pt = decrypt(&*ctx, &crs, &ct, &agg, &[0, 1], &weak).unwrap();
    assert_eq!(ctx.decode(&pt).unwrap()[0], 5);
    assert!(pcks_share(&*ctx, &ps[0], &rpk, &ct, &crs, weak.unchecked(), &mut rng).is_ok());

    // CKKS carries no bound: refused until stated; a statement is checked like a carried bound.
    let ctx = ckks(2048, 1);
    let (ps, pk, _) = session(&*ctx, &crs, 2, &mut rng);
    let v = [Complex::new(0.5, 0.0)];
    let ct = ctx
        .encrypt(&ctx.encode(&v).unwrap(), &pk, &mut rng)
        .unwrap();
    let sm = Smudging::new(40, 5.0, 2048, 1).unwrap();
    let m = invalid(cks_share(&*ctx, &ps[0], None, &ct, &crs, &sm, &mut rng));
    assert!(m.contains("no error bound"), "{m}");
    assert!(cks_share(&*ctx, &ps[0], None, &ct, &crs, sm.stated(5.0), &mut rng).is_ok());
    let m = invalid(cks_share(
        &*ctx,
        &ps[0],
        None,
        &ct,
        &crs,
        sm.stated(8.0),
        &mut rng,
    ));
    assert!(m.contains("2^8.00"), "{m}");
    assert!(cks_share(
        &*ctx,
        &ps[0],
        None,
        &ct,
        &crs,
        sm.stated(f64::NAN),
        &mut rng
    )
    .is_err());
    assert!(cks_share(&*ctx, &ps[0], None, &ct, &crs, sm.unchecked(), &mut rng).is_ok());
}

/// Two instances under one reference string, told apart by their nonces: the empty nonce is the
/// reference string without one (the same identity and shares); another nonce expands another a
/// (another key, which works), and an aggregator of one instance refuses the shares of the other,
/// as does a last step given the other's reference polynomials.
#[test]
fn instance_nonce_separates_instances() {
    let seed = [48; 32];
    let crs = Crs::new(seed);
    let empty = Crs::with_nonce(seed, b"").unwrap();
    assert_eq!(empty, crs);
    assert_eq!(
        rnsfhe::multiparty::crs_id(&empty),
        rnsfhe::multiparty::crs_id(&crs)
    );
    let retry = Crs::with_nonce(seed, b"relinearisation key, retry 1").unwrap();
    assert_eq!(retry.nonce(), b"relinearisation key, retry 1");
    assert_eq!(retry.bytes(), crs.bytes());
    assert_ne!(
        rnsfhe::multiparty::crs_id(&retry),
        rnsfhe::multiparty::crs_id(&crs)
    );
    assert!(Crs::with_nonce(seed, &[7; 65]).is_err());

    let mut rng = Csprng::from_seed([48; 32]);
    let ctx = bfv(1024, &[50, 50]);
    let mut ps = parties(&*ctx, 2, &mut rng);
    let a: Vec<Share> = ps
        .iter()
        .map(|p| ckg::share(&*ctx, p, &crs).unwrap())
        .collect();
    let e: Vec<Share> = ps
        .iter()
        .map(|p| ckg::share(&*ctx, p, &empty).unwrap())
        .collect();
    assert_eq!(a[0].to_bytes(), e[0].to_bytes());

    let mut agg = Aggregator::new(&*ctx, ckg::round(&*ctx, &crs, None), &[0, 1]).unwrap();
    agg.add(&a[0]).unwrap();
    let b1 = ckg::share(&*ctx, &ps[1], &retry).unwrap();
    let (f, msg) = fault(agg.add(&b1));
    assert_eq!(f, ShareFault::Stale);
    assert!(msg.contains("reference string"), "{msg}");
    let (f, _) = fault(agg.add_bytes(&*ctx, &b1.to_bytes()));
    assert_eq!(f, ShareFault::Stale);
    agg.add(&a[1]).unwrap();
    let pk = ckg::public_key(&*ctx, &crs, &agg.finish().unwrap(), &[0, 1]).unwrap();

    let pk_retry = collective_pk(&*ctx, &retry, &mut ps);
    assert_ne!(
        pk.parts().1.residues(),
        pk_retry.parts().1.residues(),
        "another a"
    );
    let s = sum_secret(&*ctx, &ps, &pk_retry);
    let x = mp::values(1024, 6);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk_retry, &mut rng)
        .unwrap();
    assert_eq!(ctx.decode(&ctx.decrypt(&ct, &s).unwrap()).unwrap(), x);
    // The other instance's reference polynomials are refused by this one's last step.
    let agg = aggregate(&*ctx, ckg::round(&*ctx, &crs, None), &a);
    let m = invalid(ckg::public_key_with(
        &*ctx,
        &ckg::crp(&*ctx, &retry).unwrap(),
        &agg,
        &[0, 1],
    ));
    assert!(m.contains("reference string"), "{m}");
}
