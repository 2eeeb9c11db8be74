//! Helpers of the multiparty tests: small parameter sets, parties, whole protocol runs, and the
//! collective secret s = sum_i s_i that the tests decrypt with (nobody holds it in a real run).
#![allow(dead_code)] // each test file uses a part

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::ckks::{CkksContext, CkksParameters};
use rnsfhe::multiparty::{
    ckg, pcks_round, pcks_share, public_key_switch, refresh, rkg, rtg, threshold, Aggregator,
    Collective, Group, Party, ReceiverSecret, Refresh, Refreshable, Round, Share, ShareSmudging,
    ThresholdSecret,
};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{Crs, GaloisKeys, KeyContext, PublicKey, RelinKey, SecretKey};
use rnsfhe_math::ring::Representation;
use rnsfhe_math::sample::Csprng;
use zeroize::Zeroizing;

pub const T: u64 = 65537;

pub fn bfv(n: usize, bits: &[u32]) -> Arc<BfvContext> {
    let p = BfvParameters::builder()
        .degree(n)
        .plain_modulus(T)
        .moduli_bits(bits)
        .special_moduli_bits(&[55])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BfvContext::new(p).unwrap()
}

pub fn bgv(n: usize) -> Arc<BgvContext> {
    let p = BgvParameters::builder()
        .degree(n)
        .plain_modulus(T)
        .moduli_bits(&[50, 50, 50])
        .special_moduli_bits(&[55])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BgvContext::new(p).unwrap()
}

pub fn ckks(n: usize, levels: usize) -> Arc<CkksContext> {
    ckks_scaled(n, levels, 45)
}

pub fn ckks_scaled(n: usize, levels: usize, scale_bits: u32) -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(n)
        .levels(levels)
        .scale_bits(scale_bits)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

pub fn parties(ctx: &dyn KeyContext, count: u32, rng: &mut Csprng) -> Vec<Party> {
    (0..count)
        .map(|i| Party::generate(ctx, i, rng).unwrap())
        .collect()
}

/// The indices of `parties`.
pub fn indices(parties: &[Party]) -> Vec<u32> {
    parties.iter().map(Party::index).collect()
}

/// The complete aggregate of `shares` for `round` (the parties: those of the shares).
pub fn aggregate(ctx: &dyn KeyContext, round: Round, shares: &[Share]) -> Share {
    let who: Vec<u32> = shares.iter().flat_map(|s| s.parties().to_vec()).collect();
    let mut agg = Aggregator::new(ctx, round, &who).unwrap();
    for s in shares {
        agg.add(s).unwrap();
    }
    agg.finish().unwrap()
}

/// CKG among `parties`, who join the key.
pub fn collective_pk(ctx: &dyn KeyContext, crs: &Crs, parties: &mut [Party]) -> PublicKey {
    let shares: Vec<Share> = parties
        .iter()
        .map(|p| ckg::share(ctx, p, crs).unwrap())
        .collect();
    let group = parties[0].group().cloned();
    let agg = aggregate(ctx, ckg::round(ctx, crs, group.as_ref()), &shares);
    let pk = ckg::public_key(ctx, crs, &agg, &indices(parties)).unwrap();
    for p in parties.iter_mut() {
        p.join(&pk).unwrap();
    }
    pk
}

/// `count` parties, their collective public key (joined) and the sum of their secrets.
pub fn session(
    ctx: &dyn KeyContext,
    crs: &Crs,
    count: u32,
    rng: &mut Csprng,
) -> (Vec<Party>, PublicKey, SecretKey) {
    let mut ps = parties(ctx, count, rng);
    let pk = collective_pk(ctx, crs, &mut ps);
    let s = sum_secret(ctx, &ps, &pk);
    (ps, pk, s)
}

/// RKG among `parties` at `level`.
pub fn collective_rlk(
    ctx: &dyn KeyContext,
    crs: &Crs,
    parties: &[Party],
    pk: &PublicKey,
    level: usize,
    rng: &mut Csprng,
) -> RelinKey {
    let group = parties[0].group().cloned();
    let (r1, eph): (Vec<Share>, Vec<_>) = parties
        .iter()
        .map(|p| rkg::share_round1(ctx, p, crs, level, rng).unwrap())
        .unzip();
    let a1 = aggregate(
        ctx,
        rkg::round1(ctx, crs, level, group.as_ref()).unwrap(),
        &r1,
    );
    let r2: Vec<Share> = parties
        .iter()
        .zip(&eph)
        .map(|(p, e)| rkg::share_round2(ctx, p, e, &a1, rng).unwrap())
        .collect();
    let a2 = aggregate(ctx, rkg::round2(&a1).unwrap(), &r2);
    rkg::relin_key(ctx, &a1, &a2, &indices(parties), pk).unwrap()
}

/// RTG among `parties` for `elements` at `level`.
pub fn collective_gk(
    ctx: &dyn KeyContext,
    crs: &Crs,
    parties: &[Party],
    pk: &PublicKey,
    elements: &[u64],
    level: usize,
    rng: &mut Csprng,
) -> GaloisKeys {
    let group = parties[0].group().cloned();
    let shares: Vec<Share> = parties
        .iter()
        .map(|p| rtg::share(ctx, p, crs, elements, level, rng).unwrap())
        .collect();
    let round = rtg::round(ctx, crs, elements, level, group.as_ref()).unwrap();
    let agg = aggregate(ctx, round, &shares);
    rtg::galois_keys(ctx, crs, &agg, &indices(parties), pk).unwrap()
}

/// PCKS of `ct` by the parties `ps` of session `crs` to `receiver`, finished with the stated
/// receiver `secret`.
pub fn pcks<'s, C: Collective>(
    ctx: &C,
    (crs, ps): (&Crs, &[Party]),
    ct: &C::Ciphertext,
    receiver: &PublicKey,
    secret: ReceiverSecret,
    sm: impl Into<ShareSmudging<'s>>,
    rng: &mut Csprng,
) -> rnsfhe::Result<C::Ciphertext> {
    let sm = sm.into();
    let shares: Vec<Share> = ps
        .iter()
        .map(|p| pcks_share(ctx, p, receiver, ct, crs, sm, rng).unwrap())
        .collect();
    let round = pcks_round(ctx, crs, ct, receiver, None).unwrap();
    let agg = aggregate(ctx.as_key_context(), round, &shares);
    public_key_switch(
        ctx,
        crs,
        ct,
        &agg,
        &indices(ps),
        receiver,
        secret,
        sm.smudging(),
    )
}

/// s = sum of the parties' secrets (residues mod Q u P: also for threshold shares), with the
/// identity of the collective key `pk`.
pub fn sum_secret(ctx: &dyn KeyContext, parties: &[Party], pk: &PublicKey) -> SecretKey {
    let ring = ctx.key_switcher().ring_qp();
    let n = ring.degree();
    let mut acc = vec![0u64; ring.moduli().len() * n];
    for p in parties {
        let r = p.secret().residues_qp().unwrap();
        for (i, q) in ring.moduli().iter().enumerate() {
            for j in 0..n {
                acc[i * n + j] = q.add(acc[i * n + j], r[i * n + j]);
            }
        }
    }
    SecretKey::from_residues(ctx, Zeroizing::new(acc), Representation::Coefficient)
        .unwrap()
        .with_identity(pk)
        .unwrap()
}

/// The centred value of coefficient j of a coefficient-form polynomial, from its first limb
/// (checked against every other limb: the value is small).
pub fn centred(p: &rnsfhe_math::ring::Poly) -> Vec<i64> {
    let ring = p.context();
    let n = ring.degree();
    let q0 = &ring.moduli()[0];
    (0..n)
        .map(|j| {
            let v = q0.center(p.residues()[j]);
            for (i, q) in ring.moduli().iter().enumerate().skip(1) {
                let r = i128::from(v).rem_euclid(i128::from(q.value())) as u64;
                assert_eq!(r, p.residues()[i * n + j], "coefficient {j} is not small");
            }
            v
        })
        .collect()
}

/// Batched values below t.
pub fn values(n: usize, seed: u64) -> Vec<u64> {
    (0..n as u64)
        .map(|i| (i * i + seed * 7919 + 3) % T)
        .collect()
}

/// The relinearised product of two encryptions under `pk` of `values` (seeds `seeds`), and the
/// slot-wise product mod t it decrypts to.
pub fn bfv_product(
    ctx: &BfvContext,
    pk: &PublicKey,
    rlk: &RelinKey,
    seeds: (u64, u64),
    rng: &mut Csprng,
) -> (rnsfhe::bfv::BfvCiphertext, Vec<u64>) {
    let n = ctx.params().degree();
    let (x, y) = (values(n, seeds.0), values(n, seeds.1));
    let mut enc = |v: &[u64]| ctx.encrypt(&ctx.encode(v).unwrap(), pk, rng).unwrap();
    let (cx, cy) = (enc(&x), enc(&y));
    let want = x.iter().zip(&y).map(|(a, b)| a * b % T).collect();
    (ctx.multiply(&cx, &cy, rlk).unwrap(), want)
}

/// Deals threshold secrets of `t` among all `ps` (every party's Shamir polynomial, one share per
/// recipient, each recipient's aggregate).
pub fn deal(
    ctx: &dyn KeyContext,
    crs: &Crs,
    ps: &[Party],
    t: usize,
    rng: &mut Csprng,
) -> Vec<ThresholdSecret> {
    let all: Vec<u32> = ps.iter().map(|p| p.index()).collect();
    let group = Group::new(t, &all).unwrap();
    let polys: Vec<_> = ps
        .iter()
        .map(|p| threshold::shamir_polynomial(ctx, p, t, rng).unwrap())
        .collect();
    all.iter()
        .map(|&j| {
            let shares: Vec<Share> = polys
                .iter()
                .map(|f| f.share_for(ctx, crs, &group, j).unwrap())
                .collect();
            let round = threshold::shamir_round(ctx, crs, &group, j).unwrap();
            let agg = aggregate(ctx, round, &shares);
            ThresholdSecret::from_aggregate(ctx, crs, &group, &agg, j).unwrap()
        })
        .collect()
}

/// The subsets of `items` of size k.
pub fn subsets(items: &[u32], k: usize) -> Vec<Vec<u32>> {
    if k == 0 {
        return vec![vec![]];
    }
    if items.len() < k {
        return vec![];
    }
    let mut out: Vec<Vec<u32>> = subsets(&items[1..], k - 1)
        .into_iter()
        .map(|mut s| {
            s.insert(0, items[0]);
            s
        })
        .collect();
    out.extend(subsets(&items[1..], k));
    out
}

/// The refresh of `ct` by `ps` (every share, one aggregation, the last step).
pub fn refresh_by<'s, C: Refreshable>(
    ctx: &C,
    crs: &Crs,
    ps: &[Party],
    ct: &C::Ciphertext,
    spec: &Refresh,
    sm: impl Into<ShareSmudging<'s>>,
    rng: &mut Csprng,
) -> rnsfhe::Result<C::Ciphertext> {
    let sm = sm.into();
    let shares = ps
        .iter()
        .map(|p| refresh::share(ctx, p, ct, crs, spec, sm, rng))
        .collect::<rnsfhe::Result<Vec<Share>>>()?;
    let group = ps[0].group().cloned();
    let round = refresh::round(ctx, crs, ct, spec, group.as_ref())?;
    let agg = aggregate(ctx.as_key_context(), round, &shares);
    refresh::finalize(ctx, crs, ct, spec, &agg, &indices(ps), sm.smudging())
}
