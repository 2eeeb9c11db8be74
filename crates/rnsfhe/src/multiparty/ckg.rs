//! CKG, collective public-key generation (Mouchet et al., PETS 2021, Protocol 1): with a from the
//! common reference string, party i sends p0_i = -(s_i a + e_i) over Q u P; the sum
//! p0 = -(s a + e) for s = sum_i s_i and e = sum_i e_i is the public key (p0, a) of s, usable by
//! every scheme of the parameters (BFV, BGV, CKKS).
//!
//! A share is p0 of the party's public key under the CRS (`KeyGenerator::with_crs`, the same a
//! for every party; its error from a stream keyed by s_i, so one secret and CRS always give one
//! share).

use super::share::crs_id;
use super::{Crp, Group, Party, Protocol, Round, Share};
use crate::rlwe::{Crs, Domain, KeyContext, PublicKey};
use crate::Result;

/// The round of CKG in the session of `crs` (`group`: the threshold group of combined secrets,
/// `None` for the parties' own secrets).
pub fn round(ctx: &dyn KeyContext, crs: &Crs, group: Option<&Group>) -> Round {
    Round {
        protocol: Protocol::PublicKey,
        round: 1,
        crs: crs_id(crs),
        binding: 0,
        group: group.cloned(),
        level: ctx.key_switcher().top_level(),
        elements: Vec::new(),
    }
}

/// The common reference polynomial a of CKG under `crs` (expanded once: [`share_with`] reuses it).
pub fn crp(ctx: &dyn KeyContext, crs: &Crs) -> Result<Crp> {
    super::party::supported(ctx)?;
    Crp::public_key(ctx, crs)
}

/// Party `party`'s share p0_i = -(s_i a + e_i) (NTT form over Q u P), a from `crs`.
pub fn share(ctx: &dyn KeyContext, party: &Party, crs: &Crs) -> Result<Share> {
    party.check(ctx)?;
    share_with(ctx, party, &crp(ctx, crs)?)
}

/// [`share`] with a already expanded ([`crp`]): the same share.
pub fn share_with(ctx: &dyn KeyContext, party: &Party, crp: &Crp) -> Result<Share> {
    party.check(ctx)?;
    crp.check(ctx, Domain::PublicKey, "a CKG share")?;
    let seed = crp.crs.seed(ctx.params_fingerprint(), Domain::PublicKey, 0);
    let p0 = PublicKey::p0_of(ctx, &party.secret, &crp.keys[0].1[0], &seed)?;
    let round = round(ctx, &crp.crs, party.group.as_ref());
    Ok(Share::of_party(ctx, round, party.index, vec![p0]))
}

/// The collective public key (sum_i p0_i, a) from the complete aggregate of the shares of
/// `parties` (refused, naming them, when it misses any or sums others'); its identity is its hash
/// ([`crate::rlwe::KeyId::of_public_key`]), which a holder of s = sum_i s_i takes with
/// [`crate::rlwe::SecretKey::with_identity`].
pub fn public_key(
    ctx: &dyn KeyContext,
    crs: &Crs,
    aggregate: &Share,
    parties: &[u32],
) -> Result<PublicKey> {
    super::party::supported(ctx)?;
    let expected = round(ctx, crs, aggregate.round.group.as_ref());
    aggregate.check_final(ctx, &expected, parties)?;
    let seed = crs.seed(ctx.params_fingerprint(), Domain::PublicKey, 0);
    PublicKey::from_parts(ctx, aggregate.polys[0].clone(), seed, None)
}

/// [`public_key`] with a already expanded ([`crp`]): the same key, without expanding a again.
/// Refused for reference polynomials of another instance (parameters, protocol, reference string).
pub fn public_key_with(
    ctx: &dyn KeyContext,
    crp: &Crp,
    aggregate: &Share,
    parties: &[u32],
) -> Result<PublicKey> {
    super::party::supported(ctx)?;
    let expected = round(ctx, &crp.crs, aggregate.round.group.as_ref());
    crp.check_for(ctx, &aggregate.round, "the collective public key")?;
    aggregate.check_final(ctx, &expected, parties)?;
    let seed = crp.crs.seed(ctx.params_fingerprint(), Domain::PublicKey, 0);
    let a = crp.keys[0].1[0].clone();
    PublicKey::from_parts_expanded(ctx, aggregate.polys[0].clone(), seed, a, None)
}
