//! Re-sharing a threshold secret to a new group without reconstructing it (the resharing of
//! Desmedt and Jajodia, "Redistributing secret shares to new access structures", 1997, on the
//! thresholdizer of Mouchet, Bertrand and Hubaux, 2022): the holders of a t-out-of-N sharing of s
//! give a new group of N' parties a t'-out-of-N' sharing of the same s.
//!
//! - A qualified set T of the old group (at least t members, acting together: [`Group::subgroup`])
//!   each hold an additive share w_j = lambda_j^T F(x_j) of s (the Lagrange-weighted share of
//!   [`ThresholdSecret::combine`]). Old party j draws g_j of degree t' - 1 with g_j(0) = w_j and
//!   sends g_j(x'_k) to each new party k ([`reshare_polynomial`], [`ShamirPolynomial::share_for`]
//!   with the new group; secret shares, private channels).
//! - New party k sums what the members of T sent ([`ThresholdSecret::from_reshare`]): G(x'_k) for
//!   G = sum_{j in T} g_j, whose constant term is sum_j w_j = s. Any t' new parties combine as
//!   before, so the collective keys of s stay valid.
//!
//! The new group carries a new epoch ([`reshared_group`]: a hash of the old group, its epoch, the
//! reference string and the new group), and every share made with a combined secret carries its
//! group with the epoch: old and new shares never aggregate together (stale), whatever the
//! parties' indices. Old shares still combine among themselves: erasing them (proactive
//! security) is the old parties' to do. Each re-sharing takes its own reference string nonce.
//!
//! What it reveals: each g_j(x'_k) alone is uniform (t' >= 2: the coefficients of g_j are
//! uniform); t' - 1 new parties learn nothing of w_j, hence of s; the old parties of T learn
//! nothing new. A member of T that withholds its shares stops the re-sharing (another qualified set
//! may run it).

use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::sample::Csprng;

use super::share::{crs_id, digest};
use super::{Group, Protocol, Round, ShamirPolynomial, Share, ThresholdSecret};
use crate::rlwe::{Crs, KeyContext};
use crate::{Error, Result};

/// The group `t` of `members` that a re-sharing of `old`'s secret under `crs` deals to, with its
/// epoch: the first 8 bytes of a hash of the old group (t, members, epoch), the reference string's
/// identity and the new t and members (never 0, never the old epoch). Every old and new party
/// computes the same.
pub fn reshared_group(old: &Group, crs: &Crs, t: usize, members: &[u32]) -> Result<Group> {
    let mut g = Group::new(t, members)?;
    let mut words = vec![
        u64::from(old.t),
        old.epoch,
        crs_id(crs),
        old.members.len() as u64,
    ];
    words.extend(old.members.iter().map(|&m| u64::from(m)));
    words.push(u64::from(g.t));
    words.extend(g.members.iter().map(|&m| u64::from(m)));
    let e = digest("rnsfhe reshare epoch v1", &words, &[])?;
    g.epoch = if e == 0 || e == old.epoch { e ^ 1 } else { e };
    if g.epoch == 0 {
        g.epoch = 2;
    }
    Ok(g)
}

/// The round of the re-sharing shares for new party `recipient` of `new_group` from the old
/// parties `acting` (a subgroup of the old group, with its epoch): what `recipient`'s aggregator
/// expects from every member of `acting`.
pub fn reshare_round(
    ctx: &dyn KeyContext,
    crs: &Crs,
    acting: &Group,
    new_group: &Group,
    recipient: u32,
) -> Result<Round> {
    if !new_group.contains(recipient) {
        return Err(Error::InvalidParameters(format!(
            "re-sharing share for party {recipient}, not a member of the new group {:?}",
            new_group.members
        )));
    }
    if new_group.epoch == acting.epoch {
        return Err(Error::InvalidParameters(format!(
            "re-sharing to a group of the old epoch {:016x}: make the new group with \
             threshold::reshared_group, so that old and new shares never mix",
            acting.epoch
        )));
    }
    let mut words = vec![
        u64::from(new_group.t),
        new_group.epoch,
        Group::point(recipient),
    ];
    words.extend(new_group.members.iter().map(|&m| u64::from(m)));
    Ok(Round {
        protocol: Protocol::Reshare,
        round: 1,
        crs: crs_id(crs),
        binding: digest("rnsfhe reshare v1", &words, &[])?,
        group: Some(acting.clone()),
        level: ctx.key_switcher().top_level(),
        elements: Vec::new(),
    })
}

/// Old party `secret`'s re-sharing polynomial g_j (degree t' - 1 of `new_group`, g_j(0) its
/// Lagrange-weighted share among `present`, at least t members of its group and itself among
/// them); zeroized on drop. Its [`ShamirPolynomial::share_for`] with `new_group` makes the shares.
pub fn reshare_polynomial(
    ctx: &dyn KeyContext,
    secret: &ThresholdSecret,
    present: &[u32],
    new_group: &Group,
    rng: &mut Csprng,
) -> Result<ShamirPolynomial> {
    let acting = secret.group.subgroup(present)?;
    if new_group.epoch == acting.epoch {
        return Err(Error::InvalidParameters(
            "re-sharing to a group of the old epoch: make it with threshold::reshared_group".into(),
        ));
    }
    let (_, lambdas) = secret.lagrange_at(ctx, present)?;
    let ring = secret.share.context();
    let w = Poly::from_fill(ring, Representation::Ntt, |d| {
        secret.scale_into(&lambdas, d);
        Ok::<(), Error>(())
    })?;
    let mut coeffs = Vec::with_capacity(new_group.t());
    coeffs.push(w);
    for _ in 1..new_group.t() {
        let data = rng.uniform_poly(ring.moduli(), ring.degree());
        coeffs.push(Poly::from_residues(ring, data, Representation::Ntt)?);
    }
    Ok(ShamirPolynomial {
        party: secret.index,
        coeffs,
        fingerprint: ctx.params_fingerprint(),
        from: Some(acting),
    })
}

impl ThresholdSecret {
    /// New party `index`'s threshold secret of `new_group` from the complete aggregate of the
    /// re-sharing shares it received from every member of `acting` (the old parties that
    /// re-shared, with the old epoch): refused, naming the parties, when the aggregate misses
    /// any, sums others' shares, or is of another re-sharing.
    pub fn from_reshare(
        ctx: &dyn KeyContext,
        crs: &Crs,
        acting: &Group,
        new_group: &Group,
        aggregate: &Share,
        index: u32,
    ) -> Result<Self> {
        let expected = reshare_round(ctx, crs, acting, new_group, index)?;
        aggregate.check_final(ctx, &expected, &acting.members)?;
        Ok(ThresholdSecret {
            index,
            share: aggregate.polys[0].clone(),
            group: new_group.clone(),
            fingerprint: ctx.params_fingerprint(),
        })
    }
}
