//! `rnsfhe bench multiparty`: the multiparty protocols against their targets, one thread, at Lattigo's anchor (N = 2^14,
//! Q 7 x 55 bits, P 1 x 55 bits, one prime per digit), BFV and CKKS: time per share and per
//! aggregation of CKG, RKG rounds 1 and 2, RTG (one element), the thresholdizer at t = 17
//! (polynomial, one recipient's share, combination) and CKS / PCKS, and the bytes of each share.
//! As in Lattigo's `BenchmarkMultiParty`, the common reference polynomials are expanded once per
//! protocol instance (their own row, `rnsfhe::multiparty::Crp`) and a share's time excludes them.
//! Aggregation, two rows: Lattigo's operation, `AggregateShares(s, s, &s)` (a share added to itself in
//! place: one share's bytes read and written), here `Poly::double_assign` of each polynomial (the same
//! add kernel with both operands at one buffer); and the realistic step, a distinct share added into a
//! running sum by `Aggregator::add` with its checks (two shares' bytes read, one written). The
//! combination likewise: into the caller's party (`combine_into`, as Lattigo's `GenAdditiveShare`
//! writes into its secret key) and allocating (`combine`, its party's drop and zeroization
//! timed).
//! A last table streams buffers of the shares' sizes (copy, a += b, a = 2a) to place the
//! aggregations against this machine's memory bandwidth.
//! Lattigo v6.2.0's own figures (Zen 4, IFMA, one thread, from the issue) stand beside them;
//! `../shared/peers/lattigo_multiparty.sh` reruns Lattigo on this machine.

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::multiparty::{
    ckg, cks_round, cks_share, pcks_share, rkg, rtg, threshold, Collective, Group, Party, Share,
    Smudging, ThresholdSecret,
};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{Crs, KeyContext, KeyGenerator, KeySwitching, PublicKey};
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

use super::multiparty_shares::{add_time, bytes, double_time, sink, sum};
use crate::report::Report;
use crate::table::Table;
use crate::timing::{human, kib, Budget};

/// The thresholdizer's t (Lattigo's benchmark goes up to t = 17).
const T: usize = 17;

pub fn run(budget: &Budget, rep: &mut Report) -> Result<()> {
    rep.text("\n### Multiparty keys: N = 2^14, Q 7 x 55 bits, P 1 x 55 bits, one thread\n");
    let ks = KeySwitching::default();
    let insecure = Security::InsecureResearchOnly; // log QP = 440 > 438: Lattigo's anchor as it is
    let bfv = BfvContext::new(
        BfvParameters::builder()
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
    let mut rng = Csprng::from_seed([25; 32]);
    let x = bfv.encode(&[1, 2, 3])?;
    let v = ckks.encode(&[Complex::new(0.5, 0.0)])?;
    let mut table = Table::new(&["step", "BFV", "CKKS", "bytes per share", "Lattigo (Zen 4)"]);
    let (b, c) = (
        keys_rows(budget, &*bfv, &mut rng, |pk, rng| bfv.encrypt(&x, pk, rng))?,
        keys_rows(budget, &*ckks, &mut rng, |pk, rng| {
            ckks.encrypt(&v, pk, rng)
        })?,
    );
    for ((name, tb, bytes, lattigo), (_, tc, _, _)) in b.iter().zip(&c) {
        table.row(vec![
            name.clone(),
            human(*tb),
            human(*tc),
            bytes.map_or_else(String::new, kib),
            lattigo.to_string(),
        ]);
    }
    rep.table(&table);
    rep.table(&bandwidth(budget, &[1, 7, 14, 17])?);
    super::multiparty_refresh::run(budget, rep)
}

/// Time and bandwidth of a copy, a += b and a = 2a (the add kernel) over `mib` MiB of 55-bit
/// residues, one thread: the floor of an aggregation that streams shares of that size.
fn bandwidth(budget: &Budget, mib: &[usize]) -> Result<Table> {
    let q =
        rnsfhe_math::arith::Modulus::new(rnsfhe_math::arith::ntt_primes(55, 1 << 15, 1, &[])?[0])?;
    let mut rng = Csprng::from_seed([3; 32]);
    let mut table = Table::new(&[
        "stream (one thread)",
        "copy (2 x bytes moved)",
        "a += b (3 x)",
        "a = 2a in place (2 x)",
    ]);
    for &m in mib {
        let words = m << 17;
        let b: Vec<u64> = (0..words).map(|_| rng.uniform_mod(&q)).collect();
        let mut a = b.clone();
        let mut c = vec![0u64; words];
        let t_copy = budget.seconds_per_call(|| {
            c.copy_from_slice(&b);
            sink(&c);
        });
        let t_add = budget.seconds_per_call(|| {
            rnsfhe_math::arith::vector::add_assign(&q, &mut a, &b);
            sink(&a);
        });
        let t_double = budget.seconds_per_call(|| {
            rnsfhe_math::arith::vector::double_assign(&q, &mut a);
            sink(&a);
        });
        let rate = |t: f64, moved: usize| {
            format!(
                "{} ({:.1} GB/s)",
                human(t),
                (moved * words * 8) as f64 / t / 1e9
            )
        };
        table.row(vec![
            format!("{m} MiB"),
            rate(t_copy, 2),
            rate(t_add, 3),
            rate(t_double, 2),
        ]);
    }
    Ok(table)
}

/// (step, seconds, bytes of its share, Lattigo's figure).
type Row = (String, f64, Option<usize>, &'static str);

/// Every row for one scheme; `encrypt` gives a ciphertext under the collective key.
fn keys_rows<C: Collective>(
    budget: &Budget,
    ctx: &C,
    rng: &mut Csprng,
    encrypt: impl Fn(&PublicKey, &mut Csprng) -> Result<C::Ciphertext>,
) -> Result<Vec<Row>> {
    let kc = ctx.as_key_context();
    let crs = Crs::new([17; 32]);
    let p0 = Party::generate(kc, 0, rng)?;
    let p1 = Party::generate(kc, 1, rng)?;
    let top = kc.key_switcher().top_level();
    let mut rows = Vec::new();
    let time = |f: &mut dyn FnMut()| budget.seconds_per_call(f);

    // CKG.
    let t_crp = time(&mut || sink(ckg::crp(kc, &crs)));
    let crp = ckg::crp(kc, &crs)?;
    let s0 = ckg::share_with(kc, &p0, &crp)?;
    let s1 = ckg::share_with(kc, &p1, &crp)?;
    let round = ckg::round(kc, &crs, None);
    let t_share = time(&mut || sink(ckg::share_with(kc, &p0, &crp)));
    let t_agg = add_time(budget, kc, &round, &s0, &s1);
    let t_self = double_time(budget, &s0);
    let agg = sum(kc, &round, &[&s0, &s1])?;
    let t_key = time(&mut || sink(ckg::public_key(kc, &crs, &agg, &[0, 1])));
    let pk = ckg::public_key(kc, &crs, &agg, &[0, 1])?;
    rows.push(("CKG CRP expansion (once)".into(), t_crp, None, ""));
    rows.push(("CKG share".into(), t_share, Some(bytes(&s0)), "2.53 ms"));
    rows.push((AS_LATTIGO.replace("{}", "CKG"), t_self, None, ""));
    rows.push(("CKG aggregation (1 share)".into(), t_agg, None, ""));
    rows.push(("CKG public key from the aggregate".into(), t_key, None, ""));

    // RKG.
    let t_crp = time(&mut || sink(rkg::crp(kc, &crs, top)));
    let crp = rkg::crp(kc, &crs, top)?;
    let (r0, e0) = rkg::share_round1_with(kc, &p0, &crp, rng)?;
    let (r1, e1) = rkg::share_round1_with(kc, &p1, &crp, rng)?;
    let round1 = rkg::round1(kc, &crs, top, None)?;
    let mut scratch = Csprng::from_seed([1; 32]);
    let t1 = time(&mut || sink(rkg::share_round1_with(kc, &p0, &crp, &mut scratch)));
    let t_agg = add_time(budget, kc, &round1, &r0, &r1);
    let t_self = double_time(budget, &r0);
    let a1 = sum(kc, &round1, &[&r0, &r1])?;
    let t2 = time(&mut || sink(rkg::share_round2(kc, &p0, &e0, &a1, &mut scratch)));
    let q0 = rkg::share_round2(kc, &p0, &e0, &a1, rng)?;
    let q1 = rkg::share_round2(kc, &p1, &e1, &a1, rng)?;
    let a2 = sum(kc, &rkg::round2(&a1)?, &[&q0, &q1])?;
    let t_key = time(&mut || sink(rkg::relin_key(kc, &a1, &a2, &[0, 1], &pk)));
    rows.push(("RKG CRP expansion (once)".into(), t_crp, None, ""));
    rows.push(("RKG round 1 share".into(), t1, Some(bytes(&r0)), "36.7 ms"));
    rows.push(("RKG round 2 share".into(), t2, Some(bytes(&q0)), "19.0 ms"));
    rows.push((AS_LATTIGO.replace("{}", "RKG round-1"), t_self, None, ""));
    rows.push(("RKG aggregation (1 round-1 share)".into(), t_agg, None, ""));
    rows.push((
        "RKG relinearisation key from the aggregates".into(),
        t_key,
        None,
        "",
    ));

    // RTG, one element (rotation by 1).
    let el = [5u64];
    let t_crp = time(&mut || sink(rtg::crp(kc, &crs, &el, top)));
    let crp = rtg::crp(kc, &crs, &el, top)?;
    let g0 = rtg::share_with(kc, &p0, &crp, rng)?;
    let g1 = rtg::share_with(kc, &p1, &crp, rng)?;
    let round = rtg::round(kc, &crs, &el, top, None)?;
    let t_share = time(&mut || sink(rtg::share_with(kc, &p0, &crp, &mut scratch)));
    let t_agg = add_time(budget, kc, &round, &g0, &g1);
    let t_self = double_time(budget, &g0);
    let agg = sum(kc, &round, &[&g0, &g1])?;
    let t_key = time(&mut || sink(rtg::galois_keys(kc, &crs, &agg, &[0, 1], &pk)));
    rows.push(("RTG CRP expansion (once)".into(), t_crp, None, ""));
    rows.push((
        "RTG share (one element)".into(),
        t_share,
        Some(bytes(&g0)),
        "18.3 ms",
    ));
    rows.push((AS_LATTIGO.replace("{}", "RTG"), t_self, None, ""));
    rows.push(("RTG aggregation (1 share)".into(), t_agg, None, ""));
    rows.push(("RTG Galois key from the aggregate".into(), t_key, None, ""));

    rows.extend(threshold_rows(budget, kc, &crs, rng)?);

    // CKS and PCKS of a fresh ciphertext (smudging for lambda = 40 and errors below 2^10).
    let ct = encrypt(&pk, rng)?;
    let sm = Smudging::new(40, 10.0, kc.key_switcher().ring_q().degree(), 1)?;
    let sm = sm.stated(10.0);
    let c0 = cks_share(ctx, &p0, None, &ct, &crs, sm, rng)?;
    let c1 = cks_share(ctx, &p1, None, &ct, &crs, sm, rng)?;
    let round = cks_round(ctx, &crs, &ct, None, None)?;
    let t_cks = time(&mut || sink(cks_share(ctx, &p0, None, &ct, &crs, sm, &mut scratch)));
    let t_agg = add_time(budget, kc, &round, &c0, &c1);
    let (_, receiver) = KeyGenerator::new(kc, rng).key_pair()?;
    let pc = pcks_share(ctx, &p0, &receiver, &ct, &crs, sm, rng)?;
    let t_pcks = time(&mut || sink(pcks_share(ctx, &p0, &receiver, &ct, &crs, sm, &mut scratch)));
    rows.push(("CKS share (decryption)".into(), t_cks, Some(bytes(&c0)), ""));
    rows.push(("CKS aggregation (1 share)".into(), t_agg, None, ""));
    rows.push(("PCKS share".into(), t_pcks, Some(bytes(&pc)), ""));
    Ok(rows)
}

/// The thresholdizer at t = 17 among 17 parties: one party's polynomial, its share for one
/// recipient, the sum of two shares, and the combination into an additive share.
fn threshold_rows(
    budget: &Budget,
    kc: &dyn KeyContext,
    crs: &Crs,
    rng: &mut Csprng,
) -> Result<Vec<Row>> {
    let members: Vec<u32> = (0..T as u32).collect();
    let group = Group::new(T, &members)?;
    let mut shares = Vec::with_capacity(T);
    let mut first = None;
    for &i in &members {
        let p = Party::generate(kc, i, rng)?;
        let f = threshold::shamir_polynomial(kc, &p, T, rng)?;
        shares.push(f.share_for(kc, crs, &group, 0)?);
        if first.is_none() {
            first = Some((p, f));
        }
    }
    let (p, f) = first.ok_or_else(|| rnsfhe::Error::Internal("no party".into()))?;
    let mut scratch = Csprng::from_seed([2; 32]);
    let t_poly =
        budget.seconds_per_call(|| sink(threshold::shamir_polynomial(kc, &p, T, &mut scratch)));
    let t_share = budget.seconds_per_call(|| sink(f.share_for(kc, crs, &group, 0)));
    let round = threshold::shamir_round(kc, crs, &group, 0)?;
    let t_agg = add_time(budget, kc, &round, &shares[0], &shares[1]);
    let t_self = double_time(budget, &shares[0]);
    let all: Vec<&Share> = shares.iter().collect();
    let tsk = ThresholdSecret::from_aggregate(kc, crs, &group, &sum(kc, &round, &all)?, 0)?;
    let mut out = tsk.combine(kc, &members)?;
    let t_into = budget.seconds_per_call(|| sink(tsk.combine_into(kc, &members, &mut out)));
    let t_combine = budget.seconds_per_call(|| sink(tsk.combine(kc, &members)));
    Ok(vec![
        ("Shamir polynomial, t = 17".into(), t_poly, None, ""),
        (
            "Shamir share for one party, t = 17".into(),
            t_share,
            Some(bytes(&shares[0])),
            "3.68 ms (Shamir shares)",
        ),
        (AS_LATTIGO.replace("{}", "Shamir"), t_self, None, ""),
        ("Shamir aggregation (1 share)".into(), t_agg, None, ""),
        (
            "combination, t = 17, into the caller's party (combine_into; as Lattigo)".into(),
            t_into,
            None,
            "",
        ),
        (
            "combination, t = 17, allocating (combine; its drop and zeroization timed)".into(),
            t_combine,
            None,
            "",
        ),
    ])
}

/// The row of Lattigo's aggregation benchmark for a protocol ("{}").
const AS_LATTIGO: &str = "{} aggregation as Lattigo (a share + itself, in place)";
