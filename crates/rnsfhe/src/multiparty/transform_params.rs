//! The masked transform to another parameter set ([`super::transform`]'s module doc): the
//! refresh's encryption-to-shares under the input's parameters and shares-to-encryption under the
//! output's, in one share per party made of two [`Share`]s, one per parameter set, each aggregated
//! under its own parameters.

use rnsfhe_math::sample::Csprng;

use super::keyswitch::{sums, view_for};
use super::refresh::{finish, share_polys, RefreshCrp};
use super::refresh_schemes::{Mask, Masks, Refreshable, Scheme};
use super::schemes::CiphertextView;
use super::share::{crs_id, digest};
use super::{Group, Party, Protocol, Refresh, Round, Share, ShareSmudging, Smudging};
use crate::rlwe::{Crs, KeyContext, KeyId};
use crate::{Error, Result};

/// The binding of the transform of the ciphertext of `v` (of `input`'s parameters) with `refresh`
/// to `output`'s parameters and key pair `target`: both rounds' and the a's.
fn binding(
    (input, output): (&dyn KeyContext, &dyn KeyContext),
    v: &CiphertextView<'_>,
    refresh: &Refresh,
    target: KeyId,
) -> Result<u64> {
    let [values, lambda, map] = refresh.words();
    let words = [
        input.params_fingerprint(),
        v.level as u64,
        v.key_id.map_or(0, |k| k.0),
        output.params_fingerprint(),
        target.0,
        values,
        lambda,
        map,
    ];
    digest("rnsfhe masked transform v1", &words, &[v.c1])
}

fn bound_rounds(
    output: &dyn KeyContext,
    crs: &Crs,
    (v, binding): (&CiphertextView<'_>, u64),
    groups: [Option<&Group>; 2],
) -> [Round; 2] {
    let round = |protocol, group: Option<&Group>, level| Round {
        protocol,
        round: 1,
        crs: crs_id(crs),
        binding,
        group: group.cloned(),
        level,
        elements: Vec::new(),
    };
    [
        round(Protocol::EncToShares, groups[0], v.level),
        round(
            Protocol::SharesToEnc,
            groups[1],
            output.key_switcher().top_level(),
        ),
    ]
}

/// The two rounds of the transform of `ct` (of `input`'s parameters) with `refresh` under `crs`
/// to `output`'s parameters and their collective key pair `target`: the encryption-to-shares
/// round (aggregated under `input`'s parameters) and the shares-to-encryption round (under
/// `output`'s). `groups`: the threshold groups present of the input's and the output's secrets
/// (`None`: the parties' own secrets).
pub fn rounds<C: Refreshable + ?Sized>(
    (input, output): (&C, &C),
    crs: &Crs,
    ct: &C::Ciphertext,
    refresh: &Refresh,
    target: KeyId,
    groups: [Option<&Group>; 2],
) -> Result<[Round; 2]> {
    let v = input.view(ct)?;
    let io = (input.as_key_context(), output.as_key_context());
    let b = binding(io, &v, refresh, target)?;
    Ok(bound_rounds(io.1, crs, (&v, b), groups))
}

/// The expanded a of the transform of `ct` to `output`'s parameters and key pair `target`
/// (over the output's top level; see [`super::refresh::crp`]).
pub fn crp<C: Refreshable + ?Sized>(
    (input, output): (&C, &C),
    crs: &Crs,
    ct: &C::Ciphertext,
    refresh: &Refresh,
    target: KeyId,
) -> Result<RefreshCrp> {
    let v = input.view(ct)?;
    let io = (input.as_key_context(), output.as_key_context());
    RefreshCrp::expand(
        output.as_key_context(),
        crs,
        binding(io, &v, refresh, target)?,
    )
}

/// Party `parties.0`'s (its secret under the input's parameters) and `parties.1`'s (the same
/// party's secret under the output's, joined to their collective public key) transform shares
/// of `ct` to the output's parameters: the encryption-to-shares share (h0_i = s_i c_1 + e_i -
/// Enc(M_i), under the input's parameters) and the shares-to-encryption share (h1_i = -s'_i a +
/// Enc'(map(M_i)) + e'_i, under the output's). The smudging is checked as in [`super::cks_share`].
/// Refused as a refresh share is, and for two parties of different indices, an output party that
/// has not joined a collective key, or parameter sets the masks cannot cross (BFV and BGV:
/// another t, or another degree without batching; CKKS: more slots than the output ring holds).
pub fn share<'s, C: Refreshable + ?Sized>(
    (input, output): (&C, &C),
    parties: (&Party, &Party),
    ct: &C::Ciphertext,
    crs: &Crs,
    refresh: &Refresh,
    smudging: impl Into<ShareSmudging<'s>>,
    rng: &mut Csprng,
) -> Result<[Share; 2]> {
    let target = target_of(output, parties)?;
    let crp = crp((input, output), crs, ct, refresh, target)?;
    share_with((input, output), parties, ct, &crp, refresh, smudging, rng)
}

/// [`share`] with a already expanded ([`crp`]): the same shares.
pub fn share_with<'s, C: Refreshable + ?Sized>(
    (input, output): (&C, &C),
    (party, party_out): (&Party, &Party),
    ct: &C::Ciphertext,
    crp: &RefreshCrp,
    refresh: &Refresh,
    smudging: impl Into<ShareSmudging<'s>>,
    rng: &mut Csprng,
) -> Result<[Share; 2]> {
    let target = target_of(output, (party, party_out))?;
    let v = view_for(input, party, ct)?;
    let io = (input.as_key_context(), output.as_key_context());
    let b = binding(io, &v, refresh, target)?;
    crp.check(output.as_key_context(), b, "a transform share")?;
    let checked = smudging.into().checked(&v)?;
    let masks = Masks::between(input, output, ct, refresh, checked.sigma())?;
    let groups = [party.group.as_ref(), party_out.group.as_ref()];
    let [r_in, r_out] = bound_rounds(io.1, &crp.crs, (&v, b), groups);
    let [h0, h1] = share_polys(&masks, (party, party_out), &v, &crp.a, checked, rng)?;
    Ok([
        Share::of_party(io.0, r_in, party.index, vec![h0]),
        Share::of_party(io.1, r_out, party.index, vec![h1]),
    ])
}

/// The output party's collective key pair, after the checks that both are the same party's.
fn target_of<C: Refreshable + ?Sized>(output: &C, (party, out): (&Party, &Party)) -> Result<KeyId> {
    out.check(output.as_key_context())?;
    if party.index != out.index {
        return Err(Error::InvalidParameters(format!(
            "a transform share of party {} with the output secret of party {}: give one party's \
             two secrets",
            party.index, out.index
        )));
    }
    out.collective.ok_or_else(|| {
        Error::InvalidParameters(
            "a transform share: the party's secret under the output parameters has joined no \
             collective public key (Party::join with the output's collective key)"
                .into(),
        )
    })
}

/// The transformed ciphertext: at the top level of `output`'s parameters, of their collective key
/// pair `target`, with a fresh error (BFV, BGV; CKKS: the ciphertext's error and the smudging, at
/// the top level's scale), the slot map of `refresh` applied; from the complete aggregates of the
/// two rounds ([`rounds`]) over the shares of `parties` (refused, naming them, when either misses
/// any, sums others', or is of another ciphertext, reference string, refresh, target or group).
#[allow(clippy::too_many_arguments)]
pub fn finalize<C: Refreshable + ?Sized>(
    (input, output): (&C, &C),
    crs: &Crs,
    ct: &C::Ciphertext,
    refresh: &Refresh,
    aggregates: [&Share; 2],
    parties: &[u32],
    target: KeyId,
    smudging: &Smudging,
) -> Result<C::Ciphertext> {
    let crp = crp((input, output), crs, ct, refresh, target)?;
    finalize_with(
        (input, output),
        &crp,
        ct,
        refresh,
        aggregates,
        parties,
        target,
        smudging,
    )
}

/// [`finalize`] with a already expanded ([`crp`]): the same ciphertext.
#[allow(clippy::too_many_arguments)]
pub fn finalize_with<C: Refreshable + ?Sized>(
    (input, output): (&C, &C),
    crp: &RefreshCrp,
    ct: &C::Ciphertext,
    refresh: &Refresh,
    [agg_in, agg_out]: [&Share; 2],
    parties: &[u32],
    target: KeyId,
    smudging: &Smudging,
) -> Result<C::Ciphertext> {
    let v = input.view(ct)?;
    let io = (input.as_key_context(), output.as_key_context());
    let b = binding(io, &v, refresh, target)?;
    let groups = [agg_in.round.group.as_ref(), agg_out.round.group.as_ref()];
    let [r_in, r_out] = bound_rounds(io.1, &crp.crs, (&v, b), groups);
    let h0 = sums(io.0, (agg_in, parties), &r_in, &v)?;
    let h1 = sums(io.1, (agg_out, parties), &r_out, &v)?;
    crp.check(io.1, b, "a transform")?;
    let masks = Masks::between(input, output, ct, refresh, smudging.sigma())?;
    let k = agg_in.parties.len();
    let hs = [&h0[0], &h1[0]];
    finish(
        (input, output),
        ct,
        (&masks, &v),
        hs,
        &crp.a,
        (Some(target), k),
        smudging,
    )
}

/// A mask or masked plaintext of `input`'s ring carried to `output`'s of another degree: CKKS's
/// `slots` (n') slots live in the subring of Y = X^(N / 2n') (the encoder's sparse packing), whose
/// 2n' coefficients go from X^(j N_in / 2n') to X^(j N_out / 2n'), the others dropped (a
/// projection that keeps the slots: they are the subring's); BFV and BGV decode to the slots of
/// the 2 x N_in/2 matrix, carry row r, column c to row r, column c of the 2 x N_out/2 matrix
/// (the columns both have; zeros elsewhere) and encode. Linear (modulo t, or over the integers),
/// so the parties' shares carried sum to the plaintext carried.
pub(crate) fn to_ring(
    input: Scheme<'_>,
    output: Scheme<'_>,
    mask: Mask,
    slots: Option<usize>,
) -> Result<Mask> {
    match (input, output, &mask, slots) {
        (Scheme::Ckks(a), Scheme::Ckks(b), Mask::Integers(x), Some(slots)) => {
            let (n_in, n_out) = (a.encoder().degree(), b.encoder().degree());
            let (g_in, g_out) = (n_in / (2 * slots), n_out / (2 * slots));
            let mut out = vec![0i128; n_out];
            for j in 0..2 * slots {
                out[j * g_out] = x[j * g_in];
            }
            Ok(Mask::Integers(out))
        }
        (Scheme::Bfv(a), Scheme::Bfv(b), Mask::Plain(x), _) => {
            let values = a.decode(&a.plaintext_from_coefficients(x)?)?;
            let carried = carry_rows(&values, b.params().degree());
            Ok(Mask::Plain(b.encode(&carried)?.coeffs.clone()))
        }
        (Scheme::Bgv(a), Scheme::Bgv(b), Mask::Plain(x), _) => {
            let values = a.decode(&a.plaintext_from_coefficients(x)?)?;
            let carried = carry_rows(&values, b.params().degree());
            Ok(Mask::Plain(b.encode(&carried)?.coeffs.clone()))
        }
        _ => Err(Error::Internal("a mask of another scheme".into())),
    }
}

/// The slots of a 2 x n/2 matrix (row-major) in a 2 x `n_out`/2 one: row r, column c to row r,
/// column c for the columns both have, zeros elsewhere.
fn carry_rows(values: &[u64], n_out: usize) -> Vec<u64> {
    let (half_in, half_out) = (values.len() / 2, n_out / 2);
    let cols = half_in.min(half_out);
    let mut out = vec![0u64; n_out];
    for r in 0..2 {
        out[r * half_out..r * half_out + cols]
            .copy_from_slice(&values[r * half_in..r * half_in + cols]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::carry_rows;

    #[test]
    fn rows_carried_to_a_larger_and_a_smaller_matrix() {
        let v: Vec<u64> = (1..=8).collect();
        assert_eq!(
            carry_rows(&v, 16),
            [1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8, 0, 0, 0, 0]
        );
        assert_eq!(carry_rows(&v, 4), [1, 2, 5, 6]);
    }
}
