//! Reference polynomials ([`Crp`]) in the key-finalising steps (`ckg::public_key_with`,
//! `rtg::galois_keys_with`): the same keys as from the CRS, and refusals of the reference
//! polynomials of another instance; PCKS's stated receiver secret ([`ReceiverSecret`]).
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/multiparty.rs"]
mod mp;

use mp::{aggregate, bfv, ckks, collective_pk, indices, parties, pcks, session, sum_secret};
use rnsfhe::multiparty::{ckg, rkg, rtg, Crp, ReceiverSecret, Share, Smudging};
use rnsfhe::rlwe::{Crs, KeyContext};
use rnsfhe::serialize::KeyBytes;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

fn residues(p: &rnsfhe_math::ring::Poly) -> Vec<u64> {
    p.residues().to_vec()
}

/// The complete CKG aggregate of `ps` made with `crp`.
fn ckg_aggregate(ctx: &dyn KeyContext, crp: &Crp, ps: &[rnsfhe::multiparty::Party]) -> Share {
    let shares: Vec<Share> = ps
        .iter()
        .map(|p| ckg::share_with(ctx, p, crp).unwrap())
        .collect();
    aggregate(ctx, ckg::round(ctx, crp.crs(), None), &shares)
}

/// The collective public key from a Crp is the CRS's, bit for bit (BFV and CKKS), and encrypts
/// under the sum of the secrets.
#[test]
fn public_key_with_crp_is_the_crs_key() {
    let crs = Crs::new([31; 32]);
    let mut rng = Csprng::from_seed([31; 32]);
    let ctx = bfv(1024, &[50, 50]);
    let ps = parties(&*ctx, 3, &mut rng);
    let crp = ckg::crp(&*ctx, &crs).unwrap();
    let agg = ckg_aggregate(&*ctx, &crp, &ps);
    let with = ckg::public_key_with(&*ctx, &crp, &agg, &indices(&ps)).unwrap();
    let plain = ckg::public_key(&*ctx, &crs, &agg, &indices(&ps)).unwrap();
    assert_eq!(with.id(), plain.id());
    assert_eq!(residues(with.parts().0), residues(plain.parts().0));
    assert_eq!(residues(with.parts().1), residues(plain.parts().1));
    assert_eq!(with.seed(), plain.seed());
    let s = sum_secret(&*ctx, &ps, &with);
    let x = mp::values(1024, 3);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &with, &mut rng)
        .unwrap();
    assert_eq!(ctx.decode(&ctx.decrypt(&ct, &s).unwrap()).unwrap(), x);

    let ctx = ckks(1024, 2);
    let ps = parties(&*ctx, 2, &mut rng);
    let crp = ckg::crp(&*ctx, &crs).unwrap();
    let agg = ckg_aggregate(&*ctx, &crp, &ps);
    let with = ckg::public_key_with(&*ctx, &crp, &agg, &indices(&ps)).unwrap();
    let plain = ckg::public_key(&*ctx, &crs, &agg, &indices(&ps)).unwrap();
    assert_eq!(
        ctx.public_key_to_bytes(&with),
        ctx.public_key_to_bytes(&plain)
    );
}

/// The collective Galois keys from a Crp are the CRS's (their bytes, and the rotations they
/// make, bit for bit), at the top and at a lower level (bytes), and rotate under the sum of the secrets.
#[test]
fn galois_keys_with_crp_are_the_crs_keys() {
    let crs = Crs::new([32; 32]);
    let mut rng = Csprng::from_seed([32; 32]);
    let ctx = bfv(2048, &[50, 50, 50]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let elements = [ctx.galois_element(1), ctx.galois_element(-2)];
    let x = mp::values(2048, 4);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    for level in [ctx.key_switcher().top_level(), 1] {
        let crp = rtg::crp(&*ctx, &crs, &elements, level).unwrap();
        let shares: Vec<Share> = ps
            .iter()
            .map(|p| rtg::share_with(&*ctx, p, &crp, &mut rng).unwrap())
            .collect();
        let round = rtg::round(&*ctx, &crs, &elements, level, None).unwrap();
        let agg = aggregate(&*ctx, round, &shares);
        let with = rtg::galois_keys_with(&*ctx, &crp, &agg, &indices(&ps), &pk).unwrap();
        let plain = rtg::galois_keys(&*ctx, &crs, &agg, &indices(&ps), &pk).unwrap();
        assert_eq!(with.id(), pk.id());
        assert_eq!(
            ctx.galois_keys_to_bytes(&with),
            ctx.galois_keys_to_bytes(&plain)
        );
        if level != ctx.key_switcher().top_level() {
            continue;
        }
        let a = ctx.rotate_rows(&ct, 1, &with).unwrap();
        let b = ctx.rotate_rows(&ct, 1, &plain).unwrap();
        for (p, q) in a.parts().iter().zip(b.parts()) {
            assert_eq!(residues(p), residues(q));
        }
        let h = 1024usize;
        let want: Vec<u64> = (0..2048).map(|i| x[i / h * h + (i % h + 1) % h]).collect();
        assert_eq!(ctx.decode(&ctx.decrypt(&a, &s).unwrap()).unwrap(), want);
    }
}

fn invalid(e: Error) -> String {
    match e {
        Error::InvalidParameters(m) => m,
        other => format!("not InvalidParameters: {other:?}"),
    }
}

/// A finalising step refuses reference polynomials of another reference string, protocol,
/// parameter set, level or set of Galois elements, naming them.
#[test]
fn crp_of_another_instance_is_refused_when_finalising() {
    let crs = Crs::new([33; 32]);
    let other_crs = Crs::new([34; 32]);
    let mut rng = Csprng::from_seed([33; 32]);
    let ctx = bfv(1024, &[50, 50, 50]);
    let other = bfv(1024, &[50, 50]);
    let top = ctx.key_switcher().top_level();
    let (ps, pk, _) = session(&*ctx, &crs, 2, &mut rng);
    let crp = ckg::crp(&*ctx, &crs).unwrap();
    let agg = ckg_aggregate(&*ctx, &crp, &ps);

    let m = invalid(
        ckg::public_key_with(
            &*ctx,
            &ckg::crp(&*ctx, &other_crs).unwrap(),
            &agg,
            &indices(&ps),
        )
        .unwrap_err(),
    );
    assert!(m.contains("(Crp)") && m.contains("reference string"), "{m}");
    let relin = rkg::crp(&*ctx, &crs, top).unwrap();
    let m = invalid(ckg::public_key_with(&*ctx, &relin, &agg, &indices(&ps)).unwrap_err());
    assert!(m.contains("reference polynomials of another key"), "{m}");
    let foreign = ckg::crp(&*other, &crs).unwrap();
    assert!(matches!(
        ckg::public_key_with(&*ctx, &foreign, &agg, &indices(&ps)).unwrap_err(),
        Error::ParameterMismatch { .. }
    ));

    let elements = [ctx.galois_element(1)];
    let crp = rtg::crp(&*ctx, &crs, &elements, top).unwrap();
    let shares: Vec<Share> = ps
        .iter()
        .map(|p| rtg::share_with(&*ctx, p, &crp, &mut rng).unwrap())
        .collect();
    let round = rtg::round(&*ctx, &crs, &elements, top, None).unwrap();
    let agg = aggregate(&*ctx, round, &shares);
    assert!(rtg::galois_keys_with(&*ctx, &crp, &agg, &indices(&ps), &pk).is_ok());
    let cases: [(Crp, &str); 4] = [
        (
            rtg::crp(&*ctx, &other_crs, &elements, top).unwrap(),
            "reference string",
        ),
        (rtg::crp(&*ctx, &crs, &elements, 1).unwrap(), "at level 1"),
        (
            rtg::crp(&*ctx, &crs, &[ctx.galois_element(2)], top).unwrap(),
            "Galois elements",
        ),
        (ckg::crp(&*ctx, &crs).unwrap(), "another key"),
    ];
    for (bad, what) in cases {
        let m = invalid(rtg::galois_keys_with(&*ctx, &bad, &agg, &indices(&ps), &pk).unwrap_err());
        assert!(m.contains(what), "{what}: {m}");
    }
    // A CKG aggregate is refused by the RTG step (another protocol), whatever the Crp.
    let ckg_agg = ckg_aggregate(&*ctx, &ckg::crp(&*ctx, &crs).unwrap(), &ps);
    assert!(rtg::galois_keys_with(&*ctx, &crp, &ckg_agg, &indices(&ps), &pk).is_err());
}

/// PCKS's noise bound follows the stated receiver secret: a collective receiver of k parties
/// widens it, and so does a stated norm above the parameters'; the result decrypts under the
/// receiver's secret within its bound. Refused: `Single` for the ciphertext's own collective
/// key pair, and impossible statements.
#[test]
fn pcks_bound_follows_the_receiver_secret() {
    let crs = Crs::new([35; 32]);
    let mut rng = Csprng::from_seed([35; 32]);
    let ctx = bfv(2048, &[55, 55, 55]);
    let (ps, pk, _) = session(&*ctx, &crs, 3, &mut rng);
    // The receiver: the collective key pair of 8 other parties (its secret sums 8 ternary ones).
    let mut qs = parties(&*ctx, 8, &mut rng);
    let rpk = collective_pk(&*ctx, &Crs::new([36; 32]), &mut qs);
    let rsk = sum_secret(&*ctx, &qs, &rpk);
    let x = mp::values(2048, 5);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    // A small smudging, so that the receiver's terms show in the bound.
    let sm = Smudging::with_sigma(1.0).unwrap();
    let sm = sm.unchecked();
    let mut bounds = Vec::new();
    let norm = rsk.norm().unwrap();
    for secret in [
        ReceiverSecret::Single,
        ReceiverSecret::Collective { parties: 8 },
        ReceiverSecret::Stated {
            l2: norm.l2,
            error_sigma: 3.2 * 8f64.sqrt(),
        },
    ] {
        let out = pcks(&*ctx, (&crs, &ps), &ct, &rpk, secret, sm, &mut rng).unwrap();
        assert_eq!(out.key_id(), Some(rpk.id()));
        assert_eq!(ctx.decode(&ctx.decrypt(&out, &rsk).unwrap()).unwrap(), x);
        assert!(ctx.noise_budget(&out, &rsk).unwrap() > 0);
        bounds.push(out.noise_bound_log2().unwrap());
    }
    assert!(bounds[1] > bounds[0], "{bounds:?}");
    assert!(bounds[2] > bounds[0], "{bounds:?}");
    // The stated norm is that of the sum of 8 (about sqrt(8 * 2n/3)), within the k-party bound.
    assert!(bounds[2] <= bounds[1] + 1e-9, "{bounds:?}");

    let m = invalid(
        pcks(
            &*ctx,
            (&crs, &ps),
            &ct,
            &pk,
            ReceiverSecret::Single,
            sm,
            &mut rng,
        )
        .unwrap_err(),
    );
    assert!(m.contains("own collective key pair"), "{m}");
    let own = ReceiverSecret::Collective { parties: 3 };
    assert!(pcks(&*ctx, (&crs, &ps), &ct, &pk, own, sm, &mut rng).is_ok());
    for bad in [
        ReceiverSecret::Collective { parties: 0 },
        ReceiverSecret::Stated {
            l2: f64::NAN,
            error_sigma: 3.2,
        },
        ReceiverSecret::Stated {
            l2: 10.0,
            error_sigma: -1.0,
        },
    ] {
        let m = invalid(pcks(&*ctx, (&crs, &ps), &ct, &rpk, bad, sm, &mut rng).unwrap_err());
        assert!(m.contains("PCKS receiver"), "{m}");
    }
}

/// A refresh's expanded a (`refresh::crp`): shares and the refreshed ciphertext made with it are
/// those made with the CRS, bit for bit (BGV, the same randomness); the a of another ciphertext is
/// refused by the share and by the last step.
#[test]
fn refresh_with_crp_is_the_crs_refresh() {
    use rnsfhe::multiparty::{refresh, Refresh};
    use rnsfhe_math::ring::Representation;
    let crs = Crs::new([36; 32]);
    let mut rng = Csprng::from_seed([36; 32]);
    let ctx = mp::bgv(1024);
    let (ps, pk, s) = session(&*ctx, &crs, 2, &mut rng);
    let enc = |v: &[u64], rng: &mut Csprng| ctx.encrypt(&ctx.encode(v).unwrap(), &pk, rng).unwrap();
    let (ct, other) = (enc(&[4, 5, 6], &mut rng), enc(&[7], &mut rng));
    let sm = Smudging::for_ciphertext(&*ctx, &ct, 40).unwrap();
    let spec = Refresh::new();
    let crp = refresh::crp(&*ctx, &crs, &ct, &spec).unwrap();
    let shares = |with: bool| -> Vec<Share> {
        let mut r = Csprng::from_seed([37; 32]);
        ps.iter()
            .map(|p| match with {
                true => refresh::share_with(&*ctx, p, &ct, &crp, &spec, &sm, &mut r).unwrap(),
                false => refresh::share(&*ctx, p, &ct, &crs, &spec, &sm, &mut r).unwrap(),
            })
            .collect()
    };
    let (a, b) = (shares(true), shares(false));
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.to_bytes(), y.to_bytes());
    }
    let round = refresh::round(&*ctx, &crs, &ct, &spec, None).unwrap();
    let agg = aggregate(&*ctx, round, &a);
    let who = indices(&ps);
    let with = refresh::finalize_with(&*ctx, &crp, &ct, &spec, &agg, &who, &sm).unwrap();
    let plain = refresh::finalize(&*ctx, &crs, &ct, &spec, &agg, &who, &sm).unwrap();
    let ntt = |c: &rnsfhe::bgv::BgvCiphertext| {
        c.parts()
            .iter()
            .map(|p| {
                let mut p = p.clone();
                p.to_ntt().unwrap();
                assert_eq!(p.representation(), Representation::Ntt);
                residues(&p)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(ntt(&with), ntt(&plain));
    assert_eq!(
        &ctx.decode(&ctx.decrypt(&with, &s).unwrap()).unwrap()[..3],
        &[4, 5, 6]
    );
    let stale = refresh::crp(&*ctx, &crs, &other, &spec).unwrap();
    let mut r = Csprng::from_seed([38; 32]);
    for err in [
        refresh::share_with(&*ctx, &ps[0], &ct, &stale, &spec, &sm, &mut r).unwrap_err(),
        refresh::finalize_with(&*ctx, &stale, &ct, &spec, &agg, &who, &sm).unwrap_err(),
    ] {
        assert!(
            matches!(&err, Error::InvalidParameters(m) if m.contains("another refresh")),
            "{err}"
        );
    }
}
