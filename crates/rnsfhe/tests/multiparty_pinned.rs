//! The shares of every multiparty step are deterministic given the seeds: their digests are pinned
//! here, identical under every backend (`RNSFHE_BACKEND`), so that a faster implementation (the
//! common reference polynomials expanded once, the Lagrange-scaled share of a combination, round 2
//! limb by limb) is proven to give the same bytes.
//!
//! Which bytes each digest pins (`git log -S <digest>` finds the commit that wrote it):
//! - ckg, rkg round 1, rtg, rtg level 0, shamir, combined ckg, combined rkg round 1: the bytes of
//!   a236cbb, the code before the speed work, committed with that work in e5c1e93 (this file run
//!   against a236cbb's tree gives them), so every later change to these steps, the Gaussian words
//!   of `Csprng::fill_words` among them, kept a236cbb's bytes;
//! - rkg round 2, cks, pcks: the bytes of 627598d, where the bindings' hash became BLAKE3
//!   (`share::digest`, binding tags v2): their headers carry a new binding, so these three digests
//!   were taken again in the commit that also changed `rkg::share_round2`;
//! - "rkg round 2 values", "cks values", "pcks values": the same three shares' polynomials alone
//!   ([`poly_digest`], no header), computed by this file's `digests` run against a236cbb's code:
//!   the values a236cbb gave, so the retaken digests above differ from a236cbb's in the binding
//!   only.
//!
//! A regression guard only: a share's bytes are ChaCha20 streams through the library's own
//! Gaussian sampler, reference-polynomial expansion and share format, which nothing outside it
//! reproduces; re-deriving them would mean a second implementation of all three. What the shares
//! compute is checked against independent models elsewhere: collective keys decrypt and
//! key-switch to the plaintexts (`multiparty.rs`, `multiparty_keyswitch.rs`, which also decrypts
//! by every subset of t threshold parties).
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/multiparty.rs"]
mod mp;

use mp::{aggregate, bfv, ckks, session};
use rnsfhe::multiparty::{
    ckg, cks_share, pcks_share, rkg, rtg, threshold, Collective, Group, Share, Smudging,
    ThresholdSecret,
};
use rnsfhe::rlwe::{Crs, KeyGenerator};
use rnsfhe_math::sample::Csprng;
use sha2::{Digest, Sha256};

/// The first 8 bytes of SHA-256 over the bytes of `shares`, in hex. Each share's bytes are hashed
/// as format 5 wrote them: the header's format version set to 5 and the CRC-32 trailer taken again.
/// Format 6 added key profiles and key-switching layouts to keys, not to shares, so a share's bytes
/// differ from format 5's in the version field only, and the pinned digests stay those of the
/// commits named above.
fn digest(shares: &[&Share]) -> String {
    let mut h = Sha256::new();
    for s in shares {
        let mut b = s.to_bytes();
        b[4..6].copy_from_slice(&5u16.to_le_bytes());
        let body = b.len() - 4;
        let crc = crc32fast::hash(&b[..body]);
        b[body..].copy_from_slice(&crc.to_le_bytes());
        h.update(&b);
    }
    h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The first 8 bytes of SHA-256 over the residues of a share's polynomials, in hex: its values
/// without its header (and so without its binding).
fn poly_digest(s: &Share) -> String {
    let mut h = Sha256::new();
    for p in s.polys() {
        for w in p.residues() {
            h.update(w.to_le_bytes());
        }
    }
    h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One share of each step of every protocol among three parties (and a 2-of-3 threshold group),
/// named, with the digest of its bytes.
fn digests<C: Collective>(
    ctx: &C,
    ct: impl Fn(&rnsfhe::rlwe::PublicKey, &mut Csprng) -> C::Ciphertext,
) -> Vec<(&'static str, String)> {
    let kc = ctx.as_key_context();
    let crs = Crs::new([12; 32]);
    let mut rng = Csprng::from_seed([34; 32]);
    let (ps, pk, _) = session(kc, &crs, 3, &mut rng);
    let top = kc.key_switcher().top_level();
    let mut out = Vec::new();
    out.push(("ckg", digest(&[&ckg::share(kc, &ps[1], &crs).unwrap()])));
    let (r1, eph): (Vec<Share>, Vec<_>) = ps
        .iter()
        .map(|p| rkg::share_round1(kc, p, &crs, top, &mut rng).unwrap())
        .unzip();
    out.push(("rkg round 1", digest(&[&r1[1]])));
    let a1 = aggregate(kc, rkg::round1(kc, &crs, top, None).unwrap(), &r1);
    let r2 = rkg::share_round2(kc, &ps[1], &eph[1], &a1, &mut rng).unwrap();
    out.push(("rkg round 2", digest(&[&r2])));
    out.push(("rkg round 2 values", poly_digest(&r2)));
    let g = rtg::share(kc, &ps[2], &crs, &[5, 25, 3], top, &mut rng).unwrap();
    out.push(("rtg", digest(&[&g])));
    let g0 = rtg::share(kc, &ps[0], &crs, &[5], 0, &mut rng).unwrap();
    out.push(("rtg level 0", digest(&[&g0])));
    let sm = Smudging::new(40, 10.0, kc.key_switcher().ring_q().degree(), 1).unwrap();
    let sm = sm.stated(10.0);
    let c = ct(&pk, &mut rng);
    let cks = cks_share(ctx, &ps[0], None, &c, &crs, sm, &mut rng).unwrap();
    out.push(("cks", digest(&[&cks])));
    out.push(("cks values", poly_digest(&cks)));
    let (_, receiver) = KeyGenerator::new(kc, &mut rng).key_pair().unwrap();
    let pcks = pcks_share(ctx, &ps[1], &receiver, &c, &crs, sm, &mut rng).unwrap();
    out.push(("pcks", digest(&[&pcks])));
    out.push(("pcks values", poly_digest(&pcks)));

    // Thresholdizer, 2 of 3: every party's share for party 1, its threshold secret, the
    // combination among {1, 2}, and that party's CKG and RKG round-1 shares.
    let group = Group::new(2, &[0, 1, 2]).unwrap();
    let to1: Vec<Share> = ps
        .iter()
        .map(|p| {
            let f = threshold::shamir_polynomial(kc, p, 2, &mut rng).unwrap();
            f.share_for(kc, &crs, &group, 1).unwrap()
        })
        .collect();
    out.push(("shamir", digest(&[&to1[0], &to1[2]])));
    let round = threshold::shamir_round(kc, &crs, &group, 1).unwrap();
    let agg = aggregate(kc, round, &to1);
    let tsk = ThresholdSecret::from_aggregate(kc, &crs, &group, &agg, 1).unwrap();
    let q = tsk.combine(kc, &[1, 2]).unwrap();
    out.push((
        "combined ckg",
        digest(&[&ckg::share(kc, &q, &crs).unwrap()]),
    ));
    let (qr1, _) = rkg::share_round1(kc, &q, &crs, top, &mut rng).unwrap();
    out.push(("combined rkg round 1", digest(&[&qr1])));
    out
}

fn check(got: Vec<(&'static str, String)>, want: &[(&str, &str)]) {
    for (g, w) in got.iter().zip(want) {
        assert_eq!((g.0, g.1.as_str()), *w, "the {} share changed", g.0);
    }
    assert_eq!(got.len(), want.len());
}

#[test]
fn bfv_shares_are_pinned() {
    let ctx = bfv(1024, &[50, 50]);
    let x = ctx.encode(&[1, 2, 3]).unwrap();
    let got = digests(&*ctx, |pk, rng| ctx.encrypt(&x, pk, rng).unwrap());
    check(
        got,
        &[
            ("ckg", "d7b08d8a683d1f73"),
            ("rkg round 1", "745d3dc02008b977"),
            ("rkg round 2", "f9793f18b4b05b5d"),
            ("rkg round 2 values", "3742a859071579c3"),
            ("rtg", "7db9dfbca6448371"),
            ("rtg level 0", "08836b4dfe1d279b"),
            ("cks", "ef7a7e95968db71e"),
            ("cks values", "d68ab41eecf7f4b9"),
            ("pcks", "cb6d2ad092b1dcef"),
            ("pcks values", "4e38874a5c582833"),
            ("shamir", "549076d9d2a59548"),
            ("combined ckg", "a02a9caecbedf887"),
            ("combined rkg round 1", "9e34f3b5d6713ed1"),
        ],
    );
}

#[test]
fn ckks_shares_are_pinned() {
    let ctx = ckks(1024, 2);
    let v = ctx
        .encode(&[rnsfhe::ckks::Complex::new(0.5, -0.25)])
        .unwrap();
    let got = digests(&*ctx, |pk, rng| ctx.encrypt(&v, pk, rng).unwrap());
    check(
        got,
        &[
            ("ckg", "88bb1b2343e2bf2c"),
            ("rkg round 1", "246c18c035777dbb"),
            ("rkg round 2", "db7e3a3767f31ec6"),
            ("rkg round 2 values", "3d79cedfaa41ac3c"),
            ("rtg", "c93a41146a0eaa4d"),
            ("rtg level 0", "c6e17e3fb8d57feb"),
            ("cks", "ca8bdbadaa630e7d"),
            ("cks values", "c5538789a7397860"),
            ("pcks", "2bfa1f0f8d938d7b"),
            ("pcks values", "2144640945893bff"),
            ("shamir", "7d94b13e2f514742"),
            ("combined ckg", "5c0aa737a12a34e7"),
            ("combined rkg round 1", "e4473075ed14ca70"),
        ],
    );
}

/// Reference polynomials serve only the key they were expanded for, under their parameters.
#[test]
fn crp_of_another_key_or_context_is_refused() {
    let ctx = bfv(1024, &[50, 50]);
    let other = bfv(1024, &[50, 50, 50]);
    let crs = Crs::new([5; 32]);
    let mut rng = Csprng::from_seed([6; 32]);
    let p = rnsfhe::multiparty::Party::generate(&*ctx, 0, &mut rng).unwrap();
    let top = ctx.key_switcher().top_level();
    let relin = rkg::crp(&*ctx, &crs, top).unwrap();
    assert!(ckg::share_with(&*ctx, &p, &relin).is_err());
    assert!(rtg::share_with(&*ctx, &p, &relin, &mut rng).is_err());
    let galois = rtg::crp(&*ctx, &crs, &[5], top).unwrap();
    assert!(rkg::share_round1_with(&*ctx, &p, &galois, &mut rng).is_err());
    let foreign = ckg::crp(&*other, &crs).unwrap();
    assert!(ckg::share_with(&*ctx, &p, &foreign).is_err());
    // One expansion serves every party and share of the instance.
    let pk = ckg::crp(&*ctx, &crs).unwrap();
    let q = rnsfhe::multiparty::Party::generate(&*ctx, 1, &mut rng).unwrap();
    for party in [&p, &q] {
        let with = ckg::share_with(&*ctx, party, &pk).unwrap();
        assert_eq!(
            with.to_bytes(),
            ckg::share(&*ctx, party, &crs).unwrap().to_bytes()
        );
    }
}

/// `combine_into` writes `combine`'s party into an existing one (its secret's buffer reused): the
/// same index, group, identity and shares, its collective key forgotten; refused, it leaves the
/// party unchanged. A party of another kind (a fresh secret, t = 1) is replaced whole.
#[test]
fn combine_into_is_combine() {
    let ctx = bfv(1024, &[50, 50]);
    let kc = &*ctx;
    let crs = Crs::new([7; 32]);
    let mut rng = Csprng::from_seed([8; 32]);
    let (ps, pk, _) = session(kc, &crs, 3, &mut rng);
    for t in [1usize, 2, 3] {
        let group = Group::new(t, &[0, 1, 2]).unwrap();
        let tsk: Vec<ThresholdSecret> = (0..3u32)
            .map(|j| {
                let to_j: Vec<Share> = ps
                    .iter()
                    .map(|p| {
                        let f = threshold::shamir_polynomial(kc, p, t, &mut rng).unwrap();
                        f.share_for(kc, &crs, &group, j).unwrap()
                    })
                    .collect();
                let round = threshold::shamir_round(kc, &crs, &group, j).unwrap();
                let agg = aggregate(kc, round, &to_j);
                ThresholdSecret::from_aggregate(kc, &crs, &group, &agg, j).unwrap()
            })
            .collect();
        let set = [0u32, 1, 2];
        let want = tsk[1].combine(kc, &set).unwrap();
        // Into a combined party of another set, and into a party with a fresh secret.
        let mut into = tsk[0]
            .combine(kc, &[0, 2])
            .unwrap_or_else(|_| tsk[0].combine(kc, &set).unwrap());
        let mut fresh = rnsfhe::multiparty::Party::generate(kc, 2, &mut rng).unwrap();
        fresh.join(&pk).unwrap();
        for out in [&mut into, &mut fresh] {
            tsk[1].combine_into(kc, &set, out).unwrap();
            assert_eq!(out.index(), want.index());
            assert_eq!(out.group(), want.group());
            assert_eq!(out.collective(), None);
            assert_eq!(out.secret().id(), want.secret().id());
            assert_eq!(
                ckg::share(kc, out, &crs).unwrap().to_bytes(),
                ckg::share(kc, &want, &crs).unwrap().to_bytes()
            );
            // Refused (this party absent, or fewer than t): unchanged.
            let before = ckg::share(kc, out, &crs).unwrap().to_bytes();
            assert!(tsk[1].combine_into(kc, &[0, 2], out).is_err());
            if t > 1 {
                assert!(tsk[1].combine_into(kc, &[1], out).is_err());
            }
            assert_eq!(ckg::share(kc, out, &crs).unwrap().to_bytes(), before);
        }
    }
}
