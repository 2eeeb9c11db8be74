//! Collective refresh, the collective bootstrapping of Mouchet, Troncoso-Pastoriza, Bossuat and
//! Hubaux, "Multiparty Homomorphic Encryption from Ring-Learning-With-Errors" (PETS 2021; eprint
//! 2020/304, its refresh protocol): a ciphertext at any level comes back at the top level with a
//! fresh error, in one round and without bootstrapping keys. It is an encryption-to-shares
//! followed by a shares-to-encryption, both in one share per party.
//!
//! For a ciphertext (c_0, c_1) at level l of the collective secret s = sum_i s_i, with a uniform a
//! at the top level L expanded from the common reference string and the ciphertext (so that every
//! refresh has its own a), party i draws a mask M_i and sends
//!
//! - h0_i = s_i c_1 - Enc_l(M_i) + f e_i over Q_l, e_i the smudging noise ([`Smudging`], sized and
//!   checked as in collective decryption: the aggregator sees the ciphertext's error);
//! - h1_i = -s_i a + Enc_L(M_i) + f e'_i over Q_L, e'_i of the parameters' error distribution (a
//!   fresh RLWE sample under s_i: it hides s_i and M_i, and its error becomes the new one).
//!
//! The aggregator sums the shares (an [`Aggregator`](super::Aggregator) like every round) and
//! finalises ([`finalize`]): c_0 + sum_i h0_i is the phase of the masked plaintext m - M (M = sum_i
//! M_i) under no key; it decodes it to d and returns (Enc_L(d) + sum_i h1_i, a), whose phase under s
//! is Enc_L(d + M) + sum_i f e'_i = Enc_L(m) + a fresh error. Enc and the masks per scheme:
//!
//! - BFV: M_i uniform in R_t, Enc(x) = Delta \[x\]_t (f = 1). d = \[m - M\]_t is decrypted exactly as
//!   in collective decryption: the refresh needs the budget a decryption needs under the smudging
//!   (the carried bound plus [`Smudging::bound_log2`] below Delta / 2), so refresh while about
//!   lambda / 2 + log2(n) / 2 + 5 bits of budget remain ([`headroom_log2`]). The new error:
//!   sum_i e'_i and the wrap of d + M past t (Delta t K = -\[Q\]_t K mod Q, |K| <= (k + 2) / 2), so the
//!   budget after a refresh is about that of a fresh secret-key encryption (the tests: within 2
//!   bits of a fresh public-key encryption's, under the lambda + 2 bits asked).
//! - BGV: M_i uniform in R_t, Enc_l(x) = \[x\]_t lifted centred (f = t); the same, at any level l.
//! - CKKS: M_i integer coefficients uniform in [-2^(b-1), 2^(b-1)), Enc(x) = x (f = 1), b the mask
//!   bits of [`Refresh::ckks`] (one honest mask hides the coefficients m + e + E within 2^-lambda
//!   in statistical distance over the n coefficients); d = m + e + E - M is read exactly (it stays
//!   below Q_l / 2: Q_l needs b + log2(k) + 2 bits, [`Refresh::check_level`]) and rescaled to the top
//!   level's scale, each party's mask likewise (round(x Delta_L / Delta_l), additive within a unit
//!   per party). The result keeps the ciphertext's error and the smudging E: the precision of a
//!   fresh encryption less what the smudging costs ([`Smudging::flooding`]'s `precision_bits`).
//!
//! With a [`SlotMap`](super::SlotMap) ([`Refresh::with_map`]) the parties apply a linear function to the slots on
//! the way (Lattigo's masked transform): each party maps its own mask in h1_i, the aggregator maps
//! d, and the result encrypts the map of the plaintext ([`super::transform`]).
//!
//! # What a refresh reveals
//!
//! The aggregator sees c_0 + sum_i h0_i = Enc(m - M) + e + E: the masked plaintext, which one
//! honest party's mask hides (BFV, BGV: perfectly, M_h uniform in R_t; CKKS: statistically, within
//! 2^-lambda), and the ciphertext's error e plus the smudging E, which one honest party's e_h hides
//! as in collective decryption (sigma sized from the error bound the ciphertext carries, or one the
//! party states: [`ShareSmudging`]). A coalition of t - 1 parties (N - 1 without a threshold) with
//! the aggregator knows its own masks and noises and subtracts them: what is left is still masked by
//! an honest party's M_h and smudged by its e_h. The h1_i are RLWE samples under s_i with a fresh a.
//! Each refresh needs its own a (two with one a would differ by Enc(M_i - M_i') plus small errors):
//! a is expanded from the reference string, the parameters and the round's binding (the
//! ciphertext's level, key pair and c_1, the refresh's parameters), so a second refresh of the same
//! ciphertext takes another instance nonce ([`Crs::with_nonce`]).

use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::sample::Csprng;
use sha2::{Digest, Sha256};

use super::keyswitch::{smudged_product, sums, view_for};
use super::refresh_schemes::{decryption_limit_log2, Masks, Refreshable};
pub use super::refresh_terms::{Refresh, MAX_CKKS_PARTIES};
use super::schemes::CiphertextView;
use super::share::{crs_id, digest};
use super::{Group, Party, Protocol, Round, Share, ShareSmudging, Smudging};
use crate::rlwe::{Crs, KeyContext};
use crate::{Error, Result};

/// log2 of the room a BFV or BGV ciphertext leaves for a refresh by `parties` parties with
/// `smudging`: the refresh decrypts the masked phase, whose error is the ciphertext's plus the
/// smudging's, so its carried bound grown by [`Smudging::bound_log2`] must stay below the
/// decryption's limit (BFV: an invariant noise of 1/2; BGV: Q_l / 2): this is log2 of the limit
/// over the grown bound, positive when the refresh goes through. `None` for CKKS (no carried bound:
/// its refresh reads the masked phase exactly, [`Refresh::check_level`]) and for a ciphertext built
/// from parts. A computation that refreshes "when the budget runs low" squares, checks this of the
/// square, and refreshes the factor first when it is below a bit or two.
pub fn headroom_log2<C: Refreshable + ?Sized>(
    ctx: &C,
    ct: &C::Ciphertext,
    smudging: &Smudging,
    parties: usize,
) -> Result<Option<f64>> {
    let v = ctx.view(ct)?;
    let Some(b) = v.noise_log2 else {
        return Ok(None);
    };
    let grown = crate::rlwe::log2_add(b, smudging.bound_log2(parties));
    Ok(Some(decryption_limit_log2(ctx, &v) - grown))
}

/// The round of the refresh of `ct` with `refresh` under `crs` (`group`: the threshold group of
/// combined secrets, `None` for the parties' own secrets).
pub fn round<C: Refreshable + ?Sized>(
    ctx: &C,
    crs: &Crs,
    ct: &C::Ciphertext,
    refresh: &Refresh,
    group: Option<&Group>,
) -> Result<Round> {
    let v = ctx.view(ct)?;
    bound_round(crs, &v, refresh, group)
}

fn bound_round(
    crs: &Crs,
    v: &CiphertextView<'_>,
    refresh: &Refresh,
    group: Option<&Group>,
) -> Result<Round> {
    let [values, lambda, map] = refresh.words();
    let words = [
        v.level as u64,
        v.key_id.map_or(0, |k| k.0),
        values,
        lambda,
        map,
    ];
    Ok(Round {
        protocol: Protocol::Refresh,
        round: 1,
        crs: crs_id(crs),
        binding: digest("rnsfhe refresh v1", &words, &[v.c1])?,
        group: group.cloned(),
        level: v.level,
        elements: Vec::new(),
    })
}

/// The uniform a of the refreshed ciphertext of `round` (NTT form over the top level Q_L; public):
/// expanded from the reference string, the parameters and the round's binding, so that every
/// refreshed ciphertext has its own. [`crp`] keeps it, for a party or an aggregator that would
/// otherwise expand it in each share and in the last step (Lattigo's refresh takes it expanded,
/// its CRP).
pub fn common_a(ctx: &dyn KeyContext, crs: &Crs, round: &Round) -> Result<Poly> {
    expand_a(ctx, crs, round.binding)
}

fn expand_a(ctx: &dyn KeyContext, crs: &Crs, binding: u64) -> Result<Poly> {
    let fp = ctx.params_fingerprint();
    let mut h = Sha256::new();
    h.update(b"rnsfhe refresh crs v1");
    h.update(crs.bytes());
    h.update(fp.to_le_bytes());
    h.update(binding.to_le_bytes());
    crs.hash_nonce(&mut h);
    let seed: [u8; 32] = h.finalize().into();
    crate::rlwe::uniform_seeded(ctx.key_switcher().ring_q(), &seed, 0)
}

/// The uniform a of one refresh (or masked transform, [`super::transform::crp`]) expanded once:
/// the reference string, the output's parameters, the refresh's binding (its ciphertext, key pair
/// and [`Refresh`]) and a. Public: anyone holding the reference string computes the same.
/// [`share_with`] and [`finalize_with`] take it instead of the reference string: the same shares
/// and result, without expanding a again.
#[derive(Clone, Debug)]
pub struct RefreshCrp {
    pub(crate) crs: Crs,
    pub(crate) fingerprint: u64,
    pub(crate) binding: u64,
    pub(crate) a: Poly,
}

impl RefreshCrp {
    pub(crate) fn expand(ctx: &dyn KeyContext, crs: &Crs, binding: u64) -> Result<Self> {
        Ok(RefreshCrp {
            crs: *crs,
            fingerprint: ctx.params_fingerprint(),
            binding,
            a: expand_a(ctx, crs, binding)?,
        })
    }

    /// The reference string it was expanded from.
    pub fn crs(&self) -> &Crs {
        &self.crs
    }

    /// a (NTT form over the top level of the output's Q).
    pub fn a(&self) -> &Poly {
        &self.a
    }

    /// Ok when it is the a of the round of `binding` under `ctx`'s parameters; refused, naming
    /// what differs, otherwise.
    pub(crate) fn check(&self, ctx: &dyn KeyContext, binding: u64, what: &str) -> Result<()> {
        crate::rlwe::check_params(self.fingerprint, ctx.params_fingerprint(), what)?;
        if self.binding != binding {
            return Err(Error::InvalidParameters(format!(
                "{what}: the refresh's reference polynomial (RefreshCrp) of another refresh \
                 ({:016x}; this one is {binding:016x}: another ciphertext, key pair or Refresh)",
                self.binding
            )));
        }
        Ok(())
    }
}

/// The expanded a of the refresh of `ct` with `refresh` under `crs` ([`RefreshCrp`]).
pub fn crp<C: Refreshable + ?Sized>(
    ctx: &C,
    crs: &Crs,
    ct: &C::Ciphertext,
    refresh: &Refresh,
) -> Result<RefreshCrp> {
    let v = ctx.view(ct)?;
    let round = bound_round(crs, &v, refresh, None)?;
    RefreshCrp::expand(ctx.as_key_context(), crs, round.binding)
}

/// Party `party`'s refresh share of `ct` under `crs` with `refresh` (the masks and map every party
/// and the aggregator agree on): (h0_i, h1_i), see the module doc. The smudging is checked as in
/// [`super::cks_share`] (against the bound the ciphertext carries, or one stated). Refused for a
/// ciphertext of another key pair than the party's, a CKKS refresh without a value bound, a BFV or
/// BGV one with one, a level too low for the CKKS masks, or a map the scheme cannot apply.
pub fn share<'s, C: Refreshable + ?Sized>(
    ctx: &C,
    party: &Party,
    ct: &C::Ciphertext,
    crs: &Crs,
    refresh: &Refresh,
    smudging: impl Into<ShareSmudging<'s>>,
    rng: &mut Csprng,
) -> Result<Share> {
    view_for(ctx, party, ct)?;
    let crp = crp(ctx, crs, ct, refresh)?;
    share_with(ctx, party, ct, &crp, refresh, smudging, rng)
}

/// [`share`] with a already expanded ([`crp`]): the same share.
pub fn share_with<'s, C: Refreshable + ?Sized>(
    ctx: &C,
    party: &Party,
    ct: &C::Ciphertext,
    crp: &RefreshCrp,
    refresh: &Refresh,
    smudging: impl Into<ShareSmudging<'s>>,
    rng: &mut Csprng,
) -> Result<Share> {
    let v = view_for(ctx, party, ct)?;
    let round = bound_round(&crp.crs, &v, refresh, party.group.as_ref())?;
    crp.check(ctx.as_key_context(), round.binding, "a refresh share")?;
    let checked = smudging.into().checked(&v)?;
    let masks = Masks::new(ctx, ct, refresh, checked.sigma())?;
    let polys = share_polys(&masks, (party, party), &v, &crp.a, checked, rng)?;
    Ok(Share::of_party(
        ctx.as_key_context(),
        round,
        party.index,
        polys.into(),
    ))
}

/// (h0_i, h1_i) of party `parties.0` (its secret under the input's parameters) and `parties.1`
/// (under the output's): h0_i = s_i c_1 + f e_i - Enc_l(M_i) over the input's Q_l, h1_i = -s'_i a
/// + Enc_L(map(M_i)) + f e'_i over the output's Q_L, both in the ciphertext's representation.
pub(crate) fn share_polys(
    masks: &Masks<'_>,
    (party, out): (&Party, &Party),
    v: &CiphertextView<'_>,
    a: &Poly,
    smudging: &Smudging,
    rng: &mut Csprng,
) -> Result<[Poly; 2]> {
    masks.check_level(v, 1)?;
    let mask = masks.draw(v.c1.context().degree(), rng)?;
    let mut h0 = smudged_product(v, party, None, smudging, rng)?;
    h0.sub_assign(&masks.embed(&mask, v.level, h0.representation())?)?;
    let mapped = masks.map(mask)?;
    let mut h1 = a.clone();
    h1.mul_assign(&out.secret.ntt_at(h1.context())?)?;
    h1.neg_assign();
    let mut add = masks.embed_top(&mapped, Representation::Coefficient)?;
    let mut e = crate::rlwe::gaussian_poly(h1.context(), masks.error_distribution(), rng)?;
    if v.factor != 1 {
        e.mul_scalar_assign(v.factor);
    }
    add.add_assign(&e)?;
    zeroize::Zeroize::zeroize(e.residues_mut());
    if h0.representation() == Representation::Ntt {
        add.to_ntt()?;
    } else {
        h1.to_coefficient()?;
    }
    h1.add_assign(&add)?;
    zeroize::Zeroize::zeroize(add.residues_mut());
    Ok([h0, h1])
}

/// The refreshed ciphertext: at the top level, of the same key pair, with a fresh error (BFV, BGV;
/// CKKS: the ciphertext's error and the smudging, at the top level's scale), the slot map of
/// `refresh` applied; from the complete aggregate of the shares of `parties` (refused, naming them,
/// when it misses any, sums others', is of another ciphertext, reference string, refresh or group).
/// `smudging`: what the parties drew (for the noise bound and the decryption's check; BFV and BGV
/// refuse a ciphertext whose budget the smudging would exhaust, naming the budget needed).
pub fn finalize<C: Refreshable + ?Sized>(
    ctx: &C,
    crs: &Crs,
    ct: &C::Ciphertext,
    refresh: &Refresh,
    aggregate: &Share,
    parties: &[u32],
    smudging: &Smudging,
) -> Result<C::Ciphertext> {
    let v = ctx.view(ct)?;
    let expected = bound_round(crs, &v, refresh, aggregate.round.group.as_ref())?;
    sums(ctx.as_key_context(), (aggregate, parties), &expected, &v)?;
    let crp = RefreshCrp::expand(ctx.as_key_context(), crs, expected.binding)?;
    finalize_with(ctx, &crp, ct, refresh, aggregate, parties, smudging)
}

/// [`finalize`] with a already expanded ([`crp`]): the same ciphertext.
pub fn finalize_with<C: Refreshable + ?Sized>(
    ctx: &C,
    crp: &RefreshCrp,
    ct: &C::Ciphertext,
    refresh: &Refresh,
    aggregate: &Share,
    parties: &[u32],
    smudging: &Smudging,
) -> Result<C::Ciphertext> {
    let v = ctx.view(ct)?;
    let expected = bound_round(&crp.crs, &v, refresh, aggregate.round.group.as_ref())?;
    let h = sums(ctx.as_key_context(), (aggregate, parties), &expected, &v)?;
    crp.check(ctx.as_key_context(), expected.binding, "a refresh")?;
    let masks = Masks::new(ctx, ct, refresh, smudging.sigma())?;
    let k = aggregate.parties.len();
    finish(
        (ctx, ctx),
        ct,
        (&masks, &v),
        [&h[0], &h[1]],
        &crp.a,
        (v.key_id, k),
        smudging,
    )
}

/// The ciphertext (Enc_L(map(d)) + sum_i h1_i, a) of `out`'s parameters and key pair `key_id`,
/// from the sums `h` of `k` parties' shares of `ct` of `ctx` (its view `v`): d the masked
/// plaintext read from c_0 + sum_i h0_i.
pub(crate) fn finish<C: Refreshable + ?Sized>(
    (ctx, out): (&C, &C),
    ct: &C::Ciphertext,
    (masks, v): (&Masks<'_>, &CiphertextView<'_>),
    h: [&Poly; 2],
    a: &Poly,
    (key_id, k): (Option<crate::rlwe::KeyId>, usize),
    smudging: &Smudging,
) -> Result<C::Ciphertext> {
    masks.check_level(v, k)?;
    let mut phase = v.c0.clone();
    phase.add_assign(h[0])?;
    let d = masks.decode_masked(ctx, ct, phase, smudging.bound_log2(k))?;
    let d = masks.map(d)?;
    let mut c0 = masks.embed_top(&d, h[1].representation())?;
    c0.add_assign(h[1])?;
    let mut c1 = a.clone();
    if h[1].representation() == Representation::Coefficient {
        c1.to_coefficient()?;
    }
    masks.output(out, [c0, c1], key_id, k)
}
