//! RTG, collective Galois-key generation (Mouchet et al., PETS 2021, Protocol 3) for any set of
//! Galois elements (rotations, conjugation, bootstrapping's), at any level, in this library's
//! convention: the key of g switches s to phi_{g^-1}(s) ([`crate::rlwe::GaloisKeys`]), so the
//! collective keys serve hoisted rotations as single-party keys do.
//!
//! Party i's share for g is k0 of its key from phi_g(s_i) to s_i under the common reference
//! string, P g_j omega^b phi_g(s_i) - a_c s_i - e_i (every party's a_c is the same), linear in
//! s_i: the sum of the shares is k0 of that key for s = sum_i s_i, with the error sum_i e_i. The
//! last step applies phi_{g^-1} to the sum and to the a_c once (not once per party).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use rnsfhe_math::sample::Csprng;

use super::share::crs_id;
use super::{Crp, Group, Party, Protocol, Round, Share};
use crate::rlwe::{
    inverse_mod, log2_modulus, Crs, Domain, GaloisKeys, KeyContext, KeyOptions, KeySwitchKey,
    PublicKey, SeedSource, MAX_GALOIS_ELEMENTS,
};
use crate::{Error, Result};

/// The distinct elements of `elements` other than 1, reduced mod m and sorted (the order of the
/// shares' keys); refused when none is left, or more than [`MAX_GALOIS_ELEMENTS`].
fn normalize(ctx: &dyn KeyContext, elements: &[u64]) -> Result<Vec<u64>> {
    let m = ctx.key_switcher().ring_q().cyclotomic_index() as u64;
    let set: BTreeSet<u64> = elements.iter().map(|e| e % m).filter(|&e| e != 1).collect();
    if let Some(e) = set.iter().find(|&&e| num_integer::gcd(e, m) != 1) {
        return Err(Error::InvalidParameters(format!(
            "RTG: Galois element {e} is not in Z_m^* (m = {m})"
        )));
    }
    if set.is_empty() || set.len() > MAX_GALOIS_ELEMENTS {
        return Err(Error::InvalidParameters(format!(
            "RTG: {} Galois elements other than 1; give 1..={MAX_GALOIS_ELEMENTS}",
            set.len()
        )));
    }
    Ok(set.into_iter().collect())
}

/// The round of RTG for `elements` (any order, mod m; 1 dropped) at `level` in the session of
/// `crs`.
pub fn round(
    ctx: &dyn KeyContext,
    crs: &Crs,
    elements: &[u64],
    level: usize,
    group: Option<&Group>,
) -> Result<Round> {
    ctx.key_switcher().key_ring(0, level)?;
    Ok(Round {
        protocol: Protocol::Galois,
        round: 1,
        crs: crs_id(crs),
        binding: 0,
        group: group.cloned(),
        level,
        elements: normalize(ctx, elements)?,
    })
}

/// The common reference polynomials of RTG for `elements` (as [`round`] normalises them) at
/// `level` under `crs`: the a_c of every component of every element's key (expanded once:
/// [`share_with`] reuses them).
pub fn crp(ctx: &dyn KeyContext, crs: &Crs, elements: &[u64], level: usize) -> Result<Crp> {
    super::party::supported(ctx)?;
    let elements = normalize(ctx, elements)?;
    Crp::switching_keys(ctx, crs, elements.into_iter().map(Domain::Galois), level)
}

/// Party `party`'s share: for each element g (sorted), the k0 components of its key from
/// phi_g(s_i) to s_i under `crs` at `level`.
pub fn share(
    ctx: &dyn KeyContext,
    party: &Party,
    crs: &Crs,
    elements: &[u64],
    level: usize,
    rng: &mut Csprng,
) -> Result<Share> {
    party.check(ctx)?;
    share_with(ctx, party, &crp(ctx, crs, elements, level)?, rng)
}

/// [`share`] for the elements and level of `crp` ([`crp`]), the a_c already expanded: the same
/// share.
pub fn share_with(
    ctx: &dyn KeyContext,
    party: &Party,
    crp: &Crp,
    rng: &mut Csprng,
) -> Result<Share> {
    party.check(ctx)?;
    crp.check(ctx, Domain::Galois(0), "an RTG share")?;
    let elements = crp.elements();
    let (crs, level) = (&crp.crs, crp.level);
    let round = round(ctx, crs, &elements, level, party.group.as_ref())?;
    let sw = ctx.key_switcher();
    let ring = sw.key_ring(0, level)?;
    party
        .secret
        .check_exposure(log2_modulus(ring), "a Galois-key share")?;
    let s = sw.restrict_qp(party.secret.ntt_qp(), level)?;
    let fp = ctx.params_fingerprint();
    let mut polys = Vec::with_capacity(round.elements.len() * sw.key_components_at(level));
    for (domain, a) in &crp.keys {
        let Domain::Galois(g) = *domain else {
            continue;
        };
        let s_g = s.automorphism(g as i64)?;
        let opts = KeyOptions::of(sw, SeedSource::Expanded(crs, fp, *domain, a), level);
        let g = ctx.error_distribution();
        KeySwitchKey::components_with(sw, &s, &s_g, g, rng, opts, |_, k0, _| {
            polys.push(k0);
            Ok(())
        })?;
    }
    Ok(Share::of_party(ctx, round, party.index, polys))
}

/// The collective Galois keys from the complete aggregate of the shares of `parties` (refused,
/// naming them, when it misses any or sums others'): per element g, phi_{g^-1} of the summed k0
/// and of the expansions a_c of the CRS's seeds (the library's convention, the same key as a
/// single party's of s); of the key pair of `collective`.
pub fn galois_keys(
    ctx: &dyn KeyContext,
    crs: &Crs,
    aggregate: &Share,
    parties: &[u32],
    collective: &PublicKey,
) -> Result<GaloisKeys> {
    keys_of(ctx, crs, None, (aggregate, parties), collective)
}

/// [`galois_keys`] with the a_c already expanded ([`crp`] of the aggregate's elements and level):
/// the same keys, without expanding the a_c again. Refused for reference polynomials of another
/// instance (parameters, protocol, reference string, level, elements).
pub fn galois_keys_with(
    ctx: &dyn KeyContext,
    crp: &Crp,
    aggregate: &Share,
    parties: &[u32],
    collective: &PublicKey,
) -> Result<GaloisKeys> {
    super::party::supported(ctx)?;
    crp.check_for(ctx, &aggregate.round, "the collective Galois keys")?;
    keys_of(ctx, &crp.crs, Some(crp), (aggregate, parties), collective)
}

/// The keys of [`galois_keys`], the a_c taken from `crp` when given.
fn keys_of(
    ctx: &dyn KeyContext,
    crs: &Crs,
    crp: Option<&Crp>,
    (aggregate, parties): (&Share, &[u32]),
    collective: &PublicKey,
) -> Result<GaloisKeys> {
    super::party::supported(ctx)?;
    let r = &aggregate.round;
    let expected = round(ctx, crs, &r.elements, r.level, r.group.as_ref())?;
    aggregate.check_final(ctx, &expected, parties)?;
    crate::rlwe::check_params(
        collective.fingerprint(),
        ctx.params_fingerprint(),
        "collective public key",
    )?;
    let sw = ctx.key_switcher();
    let fp = ctx.params_fingerprint();
    let m = sw.ring_q().cyclotomic_index() as u64;
    let count = sw.key_components_at(r.level);
    let mut keys = BTreeMap::new();
    for (&g, k0) in r.elements.iter().zip(aggregate.polys.chunks_exact(count)) {
        let seeds = (0..count as u32)
            .map(|c| crs.seed(fp, Domain::Galois(g), c))
            .collect();
        let uniforms = crp.and_then(|c| c.uniforms(Domain::Galois(g)));
        let key = KeySwitchKey::from_parts_expanded(sw, k0.to_vec(), seeds, uniforms, r.level)?;
        keys.insert(g, Arc::new(key.automorphism(inverse_mod(g, m)?, true)?));
    }
    Ok(GaloisKeys {
        keys,
        fingerprint: fp,
        key_id: collective.id(),
    })
}
