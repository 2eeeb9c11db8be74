//! The collective refresh in `rnsfhe bench multiparty`, at Lattigo's anchor (N = 2^14, Q 7 x 55
//! bits, P 55 bits, one thread), BGV (t = 65537) and CKKS (scale 2^55): a party's share, the
//! aggregation (Lattigo's in-place self-add, and a running sum with the `Aggregator`'s checks) and
//! the last step, as Lattigo's `RefreshProtocol` benchmarks time GenShare, AggregateShares and
//! Finalize (`bench/lattigo_refresh.sh`); the share and the last step take a expanded once
//! (`refresh::crp`, timed on its own row), as Lattigo's take their CRP. The inputs: BGV at level 0
//! as Lattigo's benchmark, with smudging of sigma 2^30 (Lattigo's usual flooding; unchecked, the
//! level has no room for lambda = 40); CKKS at level 3, the lowest whose modulus holds Lattigo's
//! masks at its benchmark's 128 bits of mask security (ours, at lambda = 40, are 111 bits),
//! smudging for errors below 2^10. Also the re-sharing of a 3-of-5 sharing to 4-of-7: one old
//! party's polynomial and its 7 shares, and one new party's aggregation of 3.

use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::multiparty::{
    ckg, refresh, threshold, Aggregator, Group, Party, Refresh, Refreshable, Share, ShareSmudging,
    Smudging, ThresholdSecret,
};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{Crs, KeySwitching, PublicKey};
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

use super::multiparty_shares::{add_time, bytes, double_time, sink, sum};
use crate::report::Report;
use crate::table::Table;
use crate::timing::{human, kib, Budget};

pub fn run(budget: &Budget, rep: &mut Report) -> Result<()> {
    rep.text(
        "\n#### Collective refresh and re-sharing: N = 2^14, Q 7 x 55 bits, P 55 bits, one thread\n",
    );
    let ks = KeySwitching::default();
    let insecure = Security::InsecureResearchOnly; // Lattigo's anchor as it is (log QP = 440)
    let bgv = BgvContext::new(
        BgvParameters::builder()
            .degree(1 << 14)
            .plain_modulus(65537)
            .moduli_bits(&[55; 7])
            .special_moduli_bits(&[55])
            .key_switching(ks)
            .security(insecure)
            .build()?,
    )?;
    let ckks = CkksContext::new(
        CkksParameters::builder()
            .degree(1 << 14)
            .chain_bits(vec![55; 7])
            .scale_bits(55)
            .special_moduli_bits(&[55])
            .key_switching(ks)
            .security(insecure)
            .build()?,
    )?;
    let mut rng = Csprng::from_seed([38; 32]);
    let crs = Crs::new([38; 32]);
    let (ps, pk) = parties(&*bgv, &crs, &mut rng)?;
    let ct = bgv.encrypt(&bgv.encode(&[1, 2, 3])?, &pk, &mut rng)?;
    let ct = bgv.mod_switch_to_level(&ct, 0)?;
    let sm = Smudging::with_sigma(2f64.powi(30))?;
    let b = rows(
        budget,
        &*bgv,
        (&crs, &ps),
        &ct,
        &Refresh::new(),
        sm.unchecked(),
    )?;
    let (ps, pk) = parties(&*ckks, &crs, &mut rng)?;
    let ct = ckks.encrypt(&ckks.encode(&[Complex::new(0.5, 0.0)])?, &pk, &mut rng)?;
    let ct = ckks.drop_to_level(&ct, 3)?;
    let sm = Smudging::new(40, 10.0, 1 << 14, 1)?;
    let spec = Refresh::ckks(0.0)?;
    let c = rows(budget, &*ckks, (&crs, &ps), &ct, &spec, sm.stated(10.0))?;
    let mut table = Table::new(&["step", "BGV (level 0)", "CKKS (level 3)", "bytes per share"]);
    for ((name, tb, bytes), (_, tc, _)) in b.iter().zip(&c) {
        table.row(vec![
            name.clone(),
            human(*tb),
            human(*tc),
            bytes.map_or_else(String::new, kib),
        ]);
    }
    rep.table(&table);
    rep.table(&reshare_rows(budget, &*bgv, &mut rng)?);
    Ok(())
}

type Row = (String, f64, Option<usize>);

/// Two parties of `ctx` with their collective public key.
fn parties(
    ctx: &dyn rnsfhe::rlwe::KeyContext,
    crs: &Crs,
    rng: &mut Csprng,
) -> Result<(Vec<Party>, PublicKey)> {
    let mut ps = vec![Party::generate(ctx, 0, rng)?, Party::generate(ctx, 1, rng)?];
    let shares = ps
        .iter()
        .map(|p| ckg::share(ctx, p, crs))
        .collect::<Result<Vec<_>>>()?;
    let agg = sum(ctx, &ckg::round(ctx, crs, None), &[&shares[0], &shares[1]])?;
    let pk = ckg::public_key(ctx, crs, &agg, &[0, 1])?;
    for p in &mut ps {
        p.join(&pk)?;
    }
    Ok((ps, pk))
}

/// The refresh rows of `ct` by the two `ps`.
fn rows<C: Refreshable>(
    budget: &Budget,
    ctx: &C,
    (crs, ps): (&Crs, &[Party]),
    ct: &C::Ciphertext,
    spec: &Refresh,
    sm: ShareSmudging<'_>,
) -> Result<Vec<Row>> {
    let kc = ctx.as_key_context();
    let mut rng = Csprng::from_seed([39; 32]);
    // a expanded once (`refresh::crp`), as Lattigo's GenShare and Finalize take its CRP.
    let crp = refresh::crp(ctx, crs, ct, spec)?;
    let s0 = refresh::share_with(ctx, &ps[0], ct, &crp, spec, sm, &mut rng)?;
    let s1 = refresh::share_with(ctx, &ps[1], ct, &crp, spec, sm, &mut rng)?;
    let t_share = budget.seconds_per_call(|| {
        sink(refresh::share_with(
            ctx, &ps[0], ct, &crp, spec, sm, &mut rng,
        ));
    });
    let round = refresh::round(ctx, crs, ct, spec, None)?;
    let t_crp = budget.seconds_per_call(|| sink(refresh::crp(ctx, crs, ct, spec)));
    let t_self = double_time(budget, &s0);
    let t_agg = add_time(budget, kc, &round, &s0, &s1);
    let agg = sum(kc, &round, &[&s0, &s1])?;
    let t_fin = budget.seconds_per_call(|| {
        sink(refresh::finalize_with(
            ctx,
            &crp,
            ct,
            spec,
            &agg,
            &[0, 1],
            sm.smudging(),
        ));
    });
    Ok(vec![
        (
            "refresh CRP expansion (a, once per refreshed ciphertext: refresh::crp)".into(),
            t_crp,
            None,
        ),
        ("refresh share (GenShare)".into(), t_share, Some(bytes(&s0))),
        (
            "refresh aggregation as Lattigo (a share + itself, in place)".into(),
            t_self,
            None,
        ),
        (
            "refresh aggregation (1 share, running sum)".into(),
            t_agg,
            None,
        ),
        ("refresh finalisation (Finalize)".into(), t_fin, None),
    ])
}

/// Re-sharing 3-of-5 to 4-of-7: one old party's polynomial and its 7 shares, one new party's
/// aggregation of the 3 dealers' shares.
fn reshare_rows(
    budget: &Budget,
    ctx: &dyn rnsfhe::rlwe::KeyContext,
    rng: &mut Csprng,
) -> Result<Table> {
    let crs = Crs::new([40; 32]);
    let ps = (0..5)
        .map(|i| Party::generate(ctx, i, rng))
        .collect::<Result<Vec<_>>>()?;
    let all: Vec<u32> = (0..5).collect();
    let group = Group::new(3, &all)?;
    let polys = ps
        .iter()
        .map(|p| threshold::shamir_polynomial(ctx, p, 3, rng))
        .collect::<Result<Vec<_>>>()?;
    let old = all
        .iter()
        .map(|&j| {
            let shares = polys
                .iter()
                .map(|f| f.share_for(ctx, &crs, &group, j))
                .collect::<Result<Vec<Share>>>()?;
            let refs: Vec<&Share> = shares.iter().collect();
            let agg = sum(ctx, &threshold::shamir_round(ctx, &crs, &group, j)?, &refs)?;
            ThresholdSecret::from_aggregate(ctx, &crs, &group, &agg, j)
        })
        .collect::<Result<Vec<_>>>()?;
    let present = [0u32, 2, 4];
    let acting = group.subgroup(&present)?;
    let crs2 = Crs::with_nonce([40; 32], b"reshare")?;
    let members: Vec<u32> = (0..7).collect();
    let new_group = threshold::reshared_group(&group, &crs2, 4, &members)?;
    let mut scratch = Csprng::from_seed([41; 32]);
    let t_old = budget.seconds_per_call(|| {
        let g = threshold::reshare_polynomial(ctx, &old[0], &present, &new_group, &mut scratch);
        if let Ok(g) = g {
            for &k in &members {
                sink(g.share_for(ctx, &crs2, &new_group, k));
            }
        }
    });
    let shares = present
        .iter()
        .map(|&j| {
            let g =
                threshold::reshare_polynomial(ctx, &old[j as usize], &present, &new_group, rng)?;
            g.share_for(ctx, &crs2, &new_group, 6)
        })
        .collect::<Result<Vec<_>>>()?;
    let round = threshold::reshare_round(ctx, &crs2, &acting, &new_group, 6)?;
    let t_new = budget.seconds_per_call(|| {
        if let Ok(mut agg) = Aggregator::new(ctx, round.clone(), &present) {
            for s in &shares {
                sink(agg.add(s));
            }
            if let Ok(a) = agg.finish() {
                sink(ThresholdSecret::from_reshare(
                    ctx, &crs2, &acting, &new_group, &a, 6,
                ));
            }
        }
    });
    let mut table = Table::new(&["re-sharing 3-of-5 to 4-of-7 (BGV parameters)", "time"]);
    table.row(vec![
        "old party: polynomial (t' = 4) and its 7 shares".into(),
        human(t_old),
    ]);
    table.row(vec![
        "new party: aggregation of 3 shares into its secret".into(),
        human(t_new),
    ]);
    Ok(table)
}
