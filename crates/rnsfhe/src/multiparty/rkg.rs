//! RKG, the two-round relinearisation-key generation of Mouchet et al. (PETS 2021, Protocol 2),
//! in this library's gadget layout: per key component c (digit j, sub-digit b), w_c = P g_j
//! omega^b and a_c from the common reference string (the a of a relinearisation key under that CRS).
//!
//! - Round 1: party i draws an ephemeral u_i (the secret distribution) and sends, per component,
//!   h0_i = -u_i a + s_i w + e0_i and h1_i = s_i a + e1_i. The aggregate is
//!   (h0, h1) = (-u a + s w + e0, s a + e1) with u = sum u_i, s = sum s_i.
//! - Round 2: party i sends h0_i' + h1_i' = s_i h0 + (u_i - s_i) h1 + e2_i (the paper's two
//!   polynomials, summed: the aggregate only needs their sum).
//! - The key: k0 = sum_i (s_i h0 + (u_i - s_i) h1 + e2_i), k1 = h1; then
//!   k0 + k1 s = s^2 w + s e0 + u e1 + e2 (the paper's bound on ||e_rlk||), an exact sum of
//!   shares. k1 is no seed's expansion: the key holds it in full
//!   ([`crate::rlwe::KeySwitchKey::from_pairs_at`]).

use rnsfhe_math::arith::vector;
use rnsfhe_math::ring::{Form, Poly, Representation, RingKind};
use rnsfhe_math::sample::{ternary, ternary_hamming, Csprng};
use zeroize::{Zeroize, Zeroizing};

use super::share::{crs_id, digest, ShareDigest};
use super::{Crp, Group, Party, Protocol, Round, Share};
use crate::rlwe::{
    gaussian_poly, log2_modulus, Crs, Domain, KeyContext, KeyOptions, KeySwitchKey, PublicKey,
    RelinKey, SecretDistribution, SeedSource,
};
use crate::{Error, Result};

/// A party's ephemeral secret u_i between the rounds (NTT form over the key's ring Q_l u P),
/// zeroized on drop; it never leaves the party. It is bound to the round-1 share drawn with it
/// (its digest): round 2 refuses a round-1 aggregate that counts another round-1 share of the
/// party (a retried round 1 whose ephemeral and share got mixed up would give a wrong key).
pub struct RelinEphemeral {
    u: Poly,
    party: u32,
    crs: u64,
    level: usize,
    share: ShareDigest,
}

impl core::fmt::Debug for RelinEphemeral {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "RelinEphemeral(party {}, level {})",
            self.party, self.level
        )
    }
}

impl Drop for RelinEphemeral {
    fn drop(&mut self) {
        self.u.residues_mut().zeroize();
    }
}

/// The round 1 of RKG for a key at `level` in the session of `crs`.
pub fn round1(
    ctx: &dyn KeyContext,
    crs: &Crs,
    level: usize,
    group: Option<&Group>,
) -> Result<Round> {
    ctx.key_switcher().key_ring(0, level)?;
    Ok(first_round(crs_id(crs), level, group))
}

fn first_round(crs: u64, level: usize, group: Option<&Group>) -> Round {
    Round {
        protocol: Protocol::Relin,
        round: 1,
        crs,
        binding: 0,
        group: group.cloned(),
        level,
        elements: Vec::new(),
    }
}

/// The round 2 of RKG after the complete round-1 aggregate `round1` (its binding: a hash of it).
pub fn round2(round1: &Share) -> Result<Round> {
    let polys: Vec<&Poly> = round1.polys.iter().collect();
    Ok(Round {
        round: 2,
        binding: digest("rnsfhe rkg round 1 aggregate v2", &[], &polys)?,
        ..round1.round.clone()
    })
}

/// The common reference polynomials of RKG for a key at `level` under `crs`: the a_c of every
/// component (expanded once: [`share_round1_with`] reuses them).
pub fn crp(ctx: &dyn KeyContext, crs: &Crs, level: usize) -> Result<Crp> {
    super::party::supported(ctx)?;
    Crp::switching_keys(ctx, crs, [Domain::Relin], level)
}

/// Party `party`'s round-1 share for a key at `level` (per component: h0_i, then h1_i), and its
/// ephemeral secret u_i for round 2.
pub fn share_round1(
    ctx: &dyn KeyContext,
    party: &Party,
    crs: &Crs,
    level: usize,
    rng: &mut Csprng,
) -> Result<(Share, RelinEphemeral)> {
    party.check(ctx)?;
    share_round1_with(ctx, party, &crp(ctx, crs, level)?, rng)
}

/// [`share_round1`] with the a_c already expanded ([`crp`], its level the key's): the same share.
pub fn share_round1_with(
    ctx: &dyn KeyContext,
    party: &Party,
    crp: &Crp,
    rng: &mut Csprng,
) -> Result<(Share, RelinEphemeral)> {
    party.check(ctx)?;
    crp.check(ctx, Domain::Relin, "an RKG round-1 share")?;
    let (crs, level) = (&crp.crs, crp.level);
    let sw = ctx.key_switcher();
    let ring = sw.key_ring(0, level)?;
    party
        .secret
        .check_exposure(log2_modulus(ring), "a relinearisation-key share")?;
    let s = sw.restrict_qp(party.secret.ntt_qp(), level)?;
    let n = ring.degree();
    let mut coeffs = match ctx.secret_distribution() {
        SecretDistribution::Ternary => ternary(rng, n),
        SecretDistribution::HammingWeight(h) => ternary_hamming(rng, n, h)?,
    };
    let mut u = Poly::from_signed(ring, &coeffs)?;
    coeffs.zeroize();
    u.to_ntt()?;
    let fp = ctx.params_fingerprint();
    let opts = KeyOptions {
        m_error: false,
        source: SeedSource::Expanded(crs, fp, Domain::Relin, &crp.keys[0].1),
        level,
    };
    // KSGen(s_i, u_i) = (s_i w - u_i a - e0_i, a) per component: h0_i and the CRS's a.
    let g = ctx.error_distribution();
    let mut pairs = Vec::with_capacity(sw.key_components_at(level));
    KeySwitchKey::components_with(sw, &u, &s, g, rng, opts, |_, h0, a| {
        pairs.push((h0, a));
        Ok(())
    })?;
    // h1_i = s_i a + e1_i, its errors drawn after every h0_i's.
    let mut polys = Vec::with_capacity(2 * pairs.len());
    for (h0, a) in pairs {
        let mut h1 = gaussian_poly(a.context(), g, rng)?;
        h1.to_ntt()?;
        h1.mul_add_assign(&a, &s)?;
        polys.push(h0);
        polys.push(h1);
    }
    let round = first_round(crs_id(crs), level, party.group.as_ref());
    let share = Share::of_party(ctx, round, party.index, polys);
    let eph = RelinEphemeral {
        u,
        party: party.index,
        crs: share.round.crs,
        level,
        share: share.digest()?,
    };
    Ok((share, eph))
}

/// Party `party`'s round-2 share from the complete round-1 aggregate: per component,
/// s_i h0 + (u_i - s_i) h1 + e2_i. Refused (`Missing`, `Substituted`) unless the aggregate counts,
/// for this party, the round-1 share drawn with `ephemeral`.
pub fn share_round2(
    ctx: &dyn KeyContext,
    party: &Party,
    ephemeral: &RelinEphemeral,
    round1_aggregate: &Share,
    rng: &mut Csprng,
) -> Result<Share> {
    party.check(ctx)?;
    let r1 = &round1_aggregate.round;
    let expected = first_round(ephemeral.crs, ephemeral.level, party.group.as_ref());
    round1_aggregate.check_aggregate(ctx, &expected)?;
    if ephemeral.party != party.index {
        return Err(Error::InvalidParameters(format!(
            "RKG round 2: the ephemeral secret is party {}'s, not party {}'s",
            ephemeral.party, party.index
        )));
    }
    round1_aggregate
        .verify_contribution_digest(party.index, &ephemeral.share)
        .map_err(|e| match e {
            Error::ShareRefused {
                share,
                fault,
                detail,
            } => Error::ShareRefused {
                share,
                fault,
                detail: format!(
                    "{detail}: this ephemeral secret was drawn with another round-1 share (use \
                     the ephemeral returned with the share that was aggregated)"
                ),
            },
            other => other,
        })?;
    let sw = ctx.key_switcher();
    let s = sw.restrict_qp(party.secret.ntt_qp(), r1.level)?;
    let mut d = ephemeral.u.clone();
    d.sub_assign(&s)?;
    let g = ctx.error_distribution();
    let mut e = Zeroizing::new(vec![0i64; s.context().degree()]);
    let mut polys = Vec::with_capacity(round1_aggregate.polys.len() / 2);
    for pair in round1_aggregate.polys.chunks_exact(2) {
        g.fill(rng, &mut e);
        polys.push(round2_component(
            &e,
            g.bound(),
            [&pair[0], &pair[1]],
            [&s, &d],
        )?);
    }
    d.residues_mut().zeroize();
    Ok(Share::of_party(
        ctx,
        round2(round1_aggregate)?,
        party.index,
        polys,
    ))
}

/// NTT(e) + h0 s_i + h1 (u_i - s_i) for one component (|e| <= `max_abs`, the sampler's tail bound),
/// limb by limb (each limb's error, transform and both products while it stays in cache; one
/// reduction for the two products): the values of `gaussian_poly`, `to_ntt` and two
/// `mul_add_assign`, in one pass over the output.
fn round2_component(
    e: &[i64],
    max_abs: u64,
    [h0, h1]: [&Poly; 2],
    [s, d]: [&Poly; 2],
) -> Result<Poly> {
    let ring = s.context();
    let plain_ntt = |p: &Poly| {
        p.context().id() == ring.id()
            && p.representation() == Representation::Ntt
            && p.montgomery_form() == Form::Plain
    };
    if ring.kind() != RingKind::PowerOfTwo || ![h0, h1, s, d].into_iter().all(plain_ntt) {
        return Err(Error::ContextMismatch(
            "RKG round 2: the round-1 aggregate and the secrets must be plain NTT forms over the \
             key's ring"
                .into(),
        ));
    }
    let n = ring.degree();
    let mut products = rnsfhe_math::pool::Buffer::stale(n);
    Poly::from_fill(ring, Representation::Ntt, |data| -> Result<()> {
        let limbs = data
            .chunks_exact_mut(n)
            .zip(ring.moduli().iter().zip(ring.ntt_tables()));
        for (i, (out, (q, table))) in limbs.enumerate() {
            vector::reduce_signed_into(q, max_abs, e, out);
            table.forward(out)?;
            let (a, b) = ([h0.limb(i)?, h1.limb(i)?], [s.limb(i)?, d.limb(i)?]);
            vector::inner_product(q, &a, &b, &mut products);
            vector::add_assign(q, out, &products);
        }
        Ok(())
    })
}

/// The collective relinearisation key (k0 = round-2 aggregate, k1 = h1 of the round-1
/// aggregate), of the key pair of the collective public key `collective`, from the complete
/// aggregates of both rounds of the shares of `parties` (refused, naming them, when either misses
/// any or sums others').
pub fn relin_key(
    ctx: &dyn KeyContext,
    round1_aggregate: &Share,
    round2_aggregate: &Share,
    parties: &[u32],
    collective: &PublicKey,
) -> Result<RelinKey> {
    super::party::supported(ctx)?;
    let r1 = &round1_aggregate.round;
    if (r1.protocol, r1.round) != (Protocol::Relin, 1) {
        return Err(round1_aggregate.refused(
            crate::ShareFault::Stale,
            "an RKG round-1 aggregate is needed".into(),
        ));
    }
    round1_aggregate.check_final(ctx, r1, parties)?;
    round2_aggregate.check_final(ctx, &round2(round1_aggregate)?, parties)?;
    crate::rlwe::check_params(
        collective.fingerprint(),
        ctx.params_fingerprint(),
        "collective public key",
    )?;
    let pairs = round2_aggregate
        .polys
        .iter()
        .zip(round1_aggregate.polys.chunks_exact(2))
        .map(|(k0, h)| (k0.clone(), h[1].clone()))
        .collect();
    Ok(RelinKey {
        key: KeySwitchKey::from_pairs_at(ctx.key_switcher(), pairs, r1.level)?,
        fingerprint: ctx.params_fingerprint(),
        key_id: collective.id(),
    })
}
