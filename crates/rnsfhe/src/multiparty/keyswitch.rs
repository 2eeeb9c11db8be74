//! Collective key switching (Mouchet et al., PETS 2021, Protocols 4 and 5) on the RLWE
//! ciphertext (c_0, c_1) of any scheme ([`Collective`]), with smudging ([`Smudging`]):
//!
//! - CKS from s = sum_i s_i to s' = sum_i s'_i: party i sends h_i = (s_i - s'_i) c_1 + f e_i;
//!   the result is (c_0 + sum_i h_i, c_1). With s' = 0 it is collective decryption: c_0 + sum h_i
//!   is the phase m + e + f sum_i e_i.
//! - PCKS to a receiver's public key (p0, p1) = (-(a s' + e_pk), a): party i sends
//!   (h0_i, h1_i) = (s_i c_1 + f (p0 u_i + e0_i + e_i), f (p1 u_i + e1_i)) for a fresh u_i (the
//!   encryption of zero of [`PublicKey::encrypt_zero`], over Q u P then divided by P); the result
//!   (c_0 + sum h0_i, sum h1_i) is encrypted under s', so only the receiver decrypts it.
//!
//! f is the scheme's noise factor (BGV: t, so the added error stays a multiple of t; else 1), e_i
//! the smudging noise, whose sigma a party checks against the ciphertext's error bound before
//! drawing it ([`ShareSmudging`]). Shares are in the ciphertext's representation (BFV: coefficient
//! form, BGV and CKKS: NTT form) at its level, bound to its c_1 (and to the target's identity).
//! The last steps take the parties whose shares the aggregate must sum.

use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::sample::Csprng;
use zeroize::Zeroize;

use super::schemes::CiphertextView;
use super::share::{crs_id, digest};
use super::{
    Collective, Group, Party, Protocol, ReceiverSecret, Round, Share, ShareSmudging, Smudging,
};
use crate::rlwe::{select_limbs, Crs, KeyId, PublicKey};
use crate::{Error, Result, ShareFault};

/// The round of CKS of `ct` to the collective key pair `target` (`None`: decryption, s' = 0).
pub fn cks_round<C: Collective + ?Sized>(
    ctx: &C,
    crs: &Crs,
    ct: &C::Ciphertext,
    target: Option<KeyId>,
    group: Option<&Group>,
) -> Result<Round> {
    bound_round(Protocol::KeySwitch, crs, &ctx.view(ct)?, target, group)
}

/// The round of PCKS of `ct` to `receiver`'s public key.
pub fn pcks_round<C: Collective + ?Sized>(
    ctx: &C,
    crs: &Crs,
    ct: &C::Ciphertext,
    receiver: &PublicKey,
    group: Option<&Group>,
) -> Result<Round> {
    let view = ctx.view(ct)?;
    bound_round(
        Protocol::PublicKeySwitch,
        crs,
        &view,
        Some(receiver.id()),
        group,
    )
}

/// A round bound to a ciphertext (its level, key pair and c_1) and a target key pair.
fn bound_round(
    protocol: Protocol,
    crs: &Crs,
    v: &CiphertextView<'_>,
    target: Option<KeyId>,
    group: Option<&Group>,
) -> Result<Round> {
    let words = [
        v.level as u64,
        v.key_id.map_or(0, |k| k.0),
        target.map_or(0, |k| k.0),
    ];
    Ok(Round {
        protocol,
        round: 1,
        crs: crs_id(crs),
        binding: digest("rnsfhe key switch v2", &words, &[v.c1])?,
        group: group.cloned(),
        level: v.level,
        elements: Vec::new(),
    })
}

/// The view of `ct` for a share of `party`: refused for a party of other parameters, and for a
/// ciphertext of another key pair than the party's collective one (when known).
pub(super) fn view_for<'a, C: Collective + ?Sized>(
    ctx: &C,
    party: &Party,
    ct: &'a C::Ciphertext,
) -> Result<CiphertextView<'a>> {
    party.check(ctx.as_key_context())?;
    let v = ctx.view(ct)?;
    if let Some(id) = party.collective {
        KeyId::check(v.key_id, id, "collective key pair of the party")?;
    }
    Ok(v)
}

/// x (NTT form) in representation `form`, plus the noise e (coefficient form), which is zeroized.
fn add_error(x: &mut Poly, mut e: Poly, form: Representation) -> Result<()> {
    if form == Representation::Ntt {
        e.to_ntt()?;
    } else {
        x.to_coefficient()?;
    }
    x.add_assign(&e)?;
    e.residues_mut().zeroize();
    Ok(())
}

/// (s_i - s'_i) c_1 + f e_i in the ciphertext's representation, e_i the smudging noise.
pub(super) fn smudged_product(
    v: &CiphertextView<'_>,
    party: &Party,
    target: Option<&Party>,
    smudging: &Smudging,
    rng: &mut Csprng,
) -> Result<Poly> {
    let ring = v.c1.context();
    let mut d = party.secret.ntt_at(ring)?;
    if let Some(t) = target {
        d.sub_assign(&t.secret.ntt_at(ring)?)?;
    }
    let mut h = v.c1.clone();
    h.to_ntt()?;
    h.mul_assign(&d)?;
    d.residues_mut().zeroize();
    let e = smudging.sample_poly(ring, v.factor, rng)?;
    add_error(&mut h, e, v.c1.representation())?;
    Ok(h)
}

/// Party `party`'s share `polys` of `protocol` for the ciphertext of `v` and the target key pair.
fn bound_share<C: Collective + ?Sized>(
    ctx: &C,
    (protocol, crs): (Protocol, &Crs),
    v: &CiphertextView<'_>,
    target: Option<KeyId>,
    party: &Party,
    polys: Vec<Poly>,
) -> Result<Share> {
    let round = bound_round(protocol, crs, v, target, party.group.as_ref())?;
    Ok(Share::of_party(
        ctx.as_key_context(),
        round,
        party.index,
        polys,
    ))
}

/// Party `party`'s CKS share of `ct`: (s_i - s'_i) c_1 + f e_i with s'_i the secret of `target`
/// (`None`: decryption). A target party must have joined its collective key pair. Refused when the
/// smudging is below what lambda = 40 asks for the ciphertext's error bound ([`ShareSmudging`]:
/// a `&Smudging` is checked against the carried bound; [`Smudging::stated`], [`Smudging::unchecked`]).
pub fn cks_share<'s, C: Collective + ?Sized>(
    ctx: &C,
    party: &Party,
    target: Option<&Party>,
    ct: &C::Ciphertext,
    crs: &Crs,
    smudging: impl Into<ShareSmudging<'s>>,
    rng: &mut Csprng,
) -> Result<Share> {
    let v = view_for(ctx, party, ct)?;
    let smudging = smudging.into().checked(&v)?;
    let target_id = match target {
        None => None,
        Some(t) => {
            t.check(ctx.as_key_context())?;
            Some(t.collective.ok_or_else(|| {
                Error::InvalidParameters(
                    "the target party's secret has no collective key pair: join it first".into(),
                )
            })?)
        }
    };
    let h = smudged_product(&v, party, target, smudging, rng)?;
    bound_share(
        ctx,
        (Protocol::KeySwitch, crs),
        &v,
        target_id,
        party,
        vec![h],
    )
}

/// Party `party`'s PCKS share of `ct` for `receiver` (see the module doc); its smudging checked
/// as [`cks_share`]'s.
pub fn pcks_share<'s, C: Collective + ?Sized>(
    ctx: &C,
    party: &Party,
    receiver: &PublicKey,
    ct: &C::Ciphertext,
    crs: &Crs,
    smudging: impl Into<ShareSmudging<'s>>,
    rng: &mut Csprng,
) -> Result<Share> {
    let v = view_for(ctx, party, ct)?;
    let smudging = smudging.into().checked(&v)?;
    let fp = ctx.params_fingerprint();
    crate::rlwe::check_params(receiver.fingerprint(), fp, "receiver's key")?;
    let (sw, dist, g) = (
        ctx.key_switcher(),
        ctx.secret_distribution(),
        ctx.error_distribution(),
    );
    let (z0, z1) = if v.c1.representation() == Representation::Ntt {
        receiver.encrypt_zero_ntt(sw, dist, g, rng)?
    } else {
        receiver.encrypt_zero(sw, dist, g, rng)?
    };
    let ring = v.c1.context();
    let limbs: Vec<usize> = (0..ring.moduli().len()).collect();
    let mut h = smudged_product(&v, party, None, smudging, rng)?;
    let mut z1 = select_limbs(&z1, ring, &limbs)?;
    let mut z0 = select_limbs(&z0, ring, &limbs)?;
    if v.factor != 1 {
        z0.mul_scalar_assign(v.factor);
        z1.mul_scalar_assign(v.factor);
    }
    h.add_assign(&z0)?;
    let target = Some(receiver.id());
    bound_share(
        ctx,
        (Protocol::PublicKeySwitch, crs),
        &v,
        target,
        party,
        vec![h, z1],
    )
}

/// The checked aggregate's polynomials for `ct`: refused unless complete, of this round, of the
/// shares of exactly `parties` and in the ciphertext's representation.
pub(super) fn sums<'a>(
    ctx: &dyn crate::rlwe::KeyContext,
    (aggregate, parties): (&'a Share, &[u32]),
    expected: &Round,
    v: &CiphertextView<'_>,
) -> Result<&'a [Poly]> {
    aggregate.check_final(ctx, expected, parties)?;
    if aggregate
        .polys
        .iter()
        .any(|p| p.representation() != v.c0.representation())
    {
        return Err(aggregate.refused(
            ShareFault::Corrupted,
            "the shares are in another representation than the ciphertext".into(),
        ));
    }
    Ok(&aggregate.polys)
}

/// The key-switched ciphertext (c_0 + sum_i h_i, c_1) of the target collective key pair
/// `target`, from the complete CKS aggregate of the shares of `parties` (its noise bound grown by
/// `smudging`'s).
pub fn key_switch<C: Collective + ?Sized>(
    ctx: &C,
    crs: &Crs,
    ct: &C::Ciphertext,
    aggregate: &Share,
    parties: &[u32],
    target: KeyId,
    smudging: &Smudging,
) -> Result<C::Ciphertext> {
    let v = ctx.view(ct)?;
    let group = aggregate.round.group.as_ref();
    let expected = bound_round(Protocol::KeySwitch, crs, &v, Some(target), group)?;
    let h = sums(ctx.as_key_context(), (aggregate, parties), &expected, &v)?;
    let mut c0 = v.c0.clone();
    c0.add_assign(&h[0])?;
    let added = smudging.bound_log2(aggregate.parties.len());
    Ok(ctx.rebuild(ct, [c0, v.c1.clone()], Some(target), Some(added)))
}

/// Collective decryption: the plaintext of the phase c_0 + sum_i h_i from the complete CKS
/// aggregate to s' = 0 of the shares of `parties` (`smudging`: what the parties drew, for the
/// noise bound).
pub fn decrypt<C: Collective + ?Sized>(
    ctx: &C,
    crs: &Crs,
    ct: &C::Ciphertext,
    aggregate: &Share,
    parties: &[u32],
    smudging: &Smudging,
) -> Result<C::Plaintext> {
    let v = ctx.view(ct)?;
    let expected = bound_round(
        Protocol::KeySwitch,
        crs,
        &v,
        None,
        aggregate.round.group.as_ref(),
    )?;
    let h = sums(ctx.as_key_context(), (aggregate, parties), &expected, &v)?;
    let mut phase = v.c0.clone();
    phase.add_assign(&h[0])?;
    ctx.decode(ct, phase, smudging.bound_log2(aggregate.parties.len()))
}

/// The ciphertext (c_0 + sum_i h0_i, sum_i h1_i) under `receiver`'s key pair from the complete
/// PCKS aggregate of the shares of `parties`, its noise bound grown by the parties' smudging and
/// encryptions of zero
/// ([`Smudging`]: what they drew; `secret`: what is assumed of the receiver's secret and error,
/// which its public key cannot show). Refused when `secret` says [`ReceiverSecret::Single`] of a
/// receiver that is the ciphertext's own collective key pair (a sum of the parties' secrets).
#[allow(clippy::too_many_arguments)] // the inputs of the protocol's last step, as in the paper
pub fn public_key_switch<C: Collective + ?Sized>(
    ctx: &C,
    crs: &Crs,
    ct: &C::Ciphertext,
    aggregate: &Share,
    parties: &[u32],
    receiver: &PublicKey,
    secret: ReceiverSecret,
    smudging: &Smudging,
) -> Result<C::Ciphertext> {
    let v = ctx.view(ct)?;
    if secret == ReceiverSecret::Single && v.key_id == Some(receiver.id()) {
        return Err(Error::InvalidParameters(
            "PCKS to the ciphertext's own collective key pair: its secret is a sum of the \
             parties' secrets, not ReceiverSecret::Single (state ReceiverSecret::Collective)"
                .into(),
        ));
    }
    let expected = pcks_round(ctx, crs, ct, receiver, aggregate.round.group.as_ref())?;
    let h = sums(ctx.as_key_context(), (aggregate, parties), &expected, &v)?;
    let added =
        smudging.public_switch_bound_log2(ctx.as_key_context(), secret, aggregate.parties.len())?;
    let mut c0 = v.c0.clone();
    c0.add_assign(&h[0])?;
    Ok(ctx.rebuild(ct, [c0, h[1].clone()], Some(receiver.id()), Some(added)))
}
