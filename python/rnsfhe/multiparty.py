"""Keys held by many parties: the protocols of Mouchet, Troncoso-Pastoriza, Bossuat and Hubaux, "Multiparty Homomorphic Encryption from Ring-Learning-With-Errors" (PETS 2021), and the
t-out-of-N thresholdizer of Mouchet, Bertrand and Hubaux (2022), over BFV, BGV and CKKS contexts.

Every protocol step is a plain function. A party's step returns a :class:`Share` (send
``share.to_bytes()``; load with ``Share.from_bytes(ctx, data)``); an :class:`Aggregator` sums one
round's shares and refuses a duplicated, stale, corrupted, foreign or unexpected one with
:class:`~rnsfhe.errors.ShareRefusedError`; a last function turns the aggregate into the key or the
result. The collective keys are the context's own key classes and are registered with it, so
``ctx.encrypt(values, pk)``, ``a * b`` and rotations work as with single-party keys::

    crs = Crs(seed)                                   # public, agreed on by every party
    parties = [Party(ctx, i) for i in range(3)]      # each in its own process
    agg = Aggregator(ctx, ckg_round(ctx, crs), [0, 1, 2])
    for p in parties:
        agg.add_bytes(ckg_share(p, crs).to_bytes())
    pk = ckg_public_key(ctx, crs, agg.finish(), [0, 1, 2])

Every last step (``ckg_public_key``, ``rkg_relin_key``, ``rtg_galois_keys``, :func:`decrypt`,
:func:`key_switch`, :func:`public_key_switch`, ``ThresholdSecret.from_aggregate``) takes the
parties whose shares the aggregate must sum (for a threshold round: the parties present) and
raises :class:`~rnsfhe.errors.ShareRefusedError` naming the missing or unexpected ones: an
aggregate's party list comes from whoever aggregated. A party that kept its share (or
``share.digest``) checks that an aggregate counts it: ``aggregate.verify_contribution(share)``
(fault ``"missing"`` or ``"substituted"``); RKG's round 2 refuses a round-1 aggregate that counts
another round-1 share of the party than the one its ephemeral was drawn with (a retried round 1).

Two protocol instances under one seed take distinct nonces, ``Crs(seed, nonce=b"retry 1")``: each
expands its own polynomials, and an aggregator of one refuses the other's shares ("stale").

A party or aggregator that runs an instance's steps expands its reference polynomials once:
``crp = ckg_crp(ctx, crs)`` (``rkg_crp``, ``rtg_crp``), then passes ``crp`` where ``crs`` goes in
that protocol's shares and last step (the same shares and keys; RKG's last step needs none).

Smudging: ``cks_share`` and ``pcks_share`` refuse a :class:`Smudging` below what lambda = 40 asks for
the ciphertext's error bound, the one it carries (BFV, BGV: ``noise_bound_log2(ct)``) or one the
party states with ``noise_log2=`` (CKKS; or a ciphertext from a sender the party does not trust,
whose carried bound is what that sender wrote: take the bound of a twin, the same circuit on your
own encryptions of zero); ``allow_weak_smudging=True`` opts out by name.

Public-key switching (PCKS) states what its noise bound assumes of the receiver's key pair, which
its public key cannot show: :class:`ReceiverSecret` (``single()``, ``collective(parties)``,
``stated(l2, error_sigma)``).

Threshold t-of-N: each party sends ``shamir_polynomial(party, t).share_for(crs, group, j)`` to
every party j (secret bytes, ``to_bytes(allow_secret=True)``); party j aggregates the shares it
received into a :class:`ThresholdSecret`, and any t parties present act as
``secret.combine(present)``: their shares of any round sum to shares of the collective secret.

Refresh (collective bootstrapping, one round): a ciphertext at any level comes back at the top
level with a fresh error. Every party sends ``refresh_share(p, ct, crs, spec, smudging)``; the
aggregator sums them for ``refresh_round(ctx, crs, ct, spec)`` and calls
``refresh_finalize(ctx, crs, ct, spec, aggregate, parties, smudging)``. ``spec`` is a
:class:`Refresh` every party agrees on: ``Refresh()`` for BFV and BGV, ``Refresh(values_log2)`` for
CKKS (a bound on the slots' modulus, which sizes the masks), and ``map=SlotMap.rotate(k)`` (or
``permute``, ``linear`` for BFV and BGV, ``complex`` for CKKS, ``automorphism``) to apply a linear
map of the slots on the way. The smudging is sized and checked as for a decryption (the aggregator sees the masked
phase and the ciphertext's error): BFV and BGV must refresh while ``refresh_headroom_log2(ct,
smudging, parties)`` is positive (about 31 bits of budget at n = 2^12); CKKS precision drops by
what the smudging costs (``Flooding.precision_bits``). Each refreshed ciphertext gets its own
uniform polynomial from the CRS and the ciphertext; refreshing one ciphertext twice takes a new
CRS nonce. ``crp = refresh_crp(ctx, crs, ct, spec)`` expands it once: pass ``crp`` where
``refresh_share`` and ``refresh_finalize`` take ``crs`` (the same share and result).

Masked transform to another parameter set (another modulus chain or ring degree, one scheme):
every party holds a secret under each context (``Party(ctx_in, i)`` and ``Party(ctx_out, i)``,
or threshold secrets of both) and the output context has its own collective public key
``pk_out`` (a CKG under it). Each party sends ``transform_share(p_in, p_out, ct, crs, spec,
smudging)``, two shares: the first aggregated under ``ctx_in`` and the second under ``ctx_out``
for ``transform_rounds(ctx_in, ctx_out, crs, ct, spec, pk_out)``; ``transform_finalize`` (or
:func:`transform`) returns a ciphertext of ``ctx_out`` at its top level under ``pk_out``'s key,
the slot map applied. CKKS keeps the ciphertext's slots (at most the output ring's N/2); BFV and
BGV need one plaintext modulus, and with another ring degree carry slot (row, column) of the 2 x
N/2 matrix to the same (row, column) of the output's.

Re-sharing (a group changes: hospitals join or leave): t or more old parties acting together,
``acting = secret.group.subgroup(present)``, give a new group ``new = reshared_group(old_group,
crs, t2, members2)`` shares of the same secret without reconstructing it: each sends
``reshare_polynomial(secret, present, new).share_for(crs, new, k)`` to every new party k (secret
bytes), and k sums them with :func:`reshared_secret`. The collective keys stay valid; the new
group has a new epoch, and shares of old and new secrets never aggregate together ("stale").
Rounds among new parties take ``new.subgroup(present)`` as their group.

Threat model: semi-honest parties (see the Rust module ``rnsfhe::multiparty``). A party's secret
(:class:`Party`, :class:`ThresholdSecret`, :class:`ShamirPolynomial`, :class:`RelinEphemeral`)
never pickles; its bytes leave the process only with ``allow_secret=True``.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

from ._rnsfhe import (
    Aggregator,
    Crp,
    Crs,
    Group,
    Party,
    PublicKey,
    ReceiverSecret,
    Refresh,
    RefreshCrp,
    RelinEphemeral,
    Round,
    ShamirPolynomial,
    Share,
    SlotMap,
    Smudging,
    ThresholdSecret,
    ckg_crp,
    ckg_public_key,
    ckg_round,
    ckg_share,
    cks_round,
    cks_share,
    galois_elements,
    noise_bound_log2,
    pcks_round,
    pcks_share,
    refresh_crp,
    refresh_finalize,
    refresh_headroom_log2,
    refresh_round,
    refresh_share,
    reshare_polynomial,
    reshare_round,
    reshared_group,
    rkg_crp,
    rkg_relin_key,
    rkg_round1,
    rkg_round2,
    rkg_share_round1,
    rkg_share_round2,
    rtg_crp,
    rtg_galois_keys,
    rtg_round,
    rtg_share,
    shamir_polynomial,
    shamir_round,
    transform_finalize,
    transform_rounds,
    transform_share,
)
from ._rnsfhe import cks_decrypt as _cks_decrypt
from ._rnsfhe import cks_switch as _cks_switch
from ._rnsfhe import pcks_switch as _pcks_switch
from .errors import ParameterError, ShareRefusedError


def aggregate(ctx: Any, round: Round, parties: Sequence[int], shares: Iterable[Share | bytes]) -> Share:
    """The complete aggregate of ``round`` from ``shares`` (objects or bytes) of ``parties``."""
    agg = Aggregator(ctx, round, list(parties))
    for s in shares:
        if isinstance(s, Share):
            agg.add(s)
        else:
            agg.add_bytes(s)
    return agg.finish()


def decrypt(ctx: Any, crs: Crs, ct: Any, aggregate: Share, parties: Sequence[int],
            smudging: Smudging, **decode: Any) -> Any:
    """The values of ``ct`` from the complete aggregate of the :func:`cks_share` of ``parties``
    (``decode`` keywords go to ``ctx.decode``, e.g. ``signed=True`` for BFV)."""
    return ctx.decode(_cks_decrypt(ctx, crs, ct, aggregate, list(parties), smudging), **decode)


def decrypt_plaintext(ctx: Any, crs: Crs, ct: Any, aggregate: Share, parties: Sequence[int],
                      smudging: Smudging) -> Any:
    """:func:`decrypt`, to the plaintext."""
    return _cks_decrypt(ctx, crs, ct, aggregate, list(parties), smudging)


def key_switch(ctx: Any, crs: Crs, ct: Any, aggregate: Share, parties: Sequence[int],
               target: PublicKey, smudging: Smudging) -> Any:
    """``ct`` switched to the collective key pair of ``target`` (its collective public key) from
    the complete aggregate of the ``cks_share(p, ct, crs, smudging, target=q)`` of ``parties``,
    each party p with its counterpart q among the target's parties (aggregated for
    ``cks_round(ctx, crs, ct, target=target)``); the noise bound grows by the smudging."""
    return _cks_switch(ctx, crs, ct, aggregate, list(parties), target, smudging)


def public_key_switch(ctx: Any, crs: Crs, ct: Any, aggregate: Share, parties: Sequence[int],
                      receiver: PublicKey, smudging: Smudging,
                      receiver_secret: ReceiverSecret) -> Any:
    """``ct`` re-encrypted under ``receiver``'s public key from the complete aggregate of the
    :func:`pcks_share` of ``parties``: only the receiver's secret key decrypts it. The noise bound
    grows by ``smudging`` (what the parties drew) and their encryptions of zero, which depend on
    the receiver's secret: ``receiver_secret`` states it (``ReceiverSecret.single()`` for a key
    pair of ``ctx.keygen()``, ``ReceiverSecret.collective(n)`` for a collective key of n
    parties); refused when it says ``single()`` of the ciphertext's own collective key."""
    return _pcks_switch(ctx, crs, ct, aggregate, list(parties), receiver, smudging,
                        receiver_secret)


def refresh(ctx: Any, crs: Crs | RefreshCrp, ct: Any, spec: Refresh, parties: Sequence[int],
            shares: Iterable[Share | bytes], smudging: Smudging,
            group: Optional[Group] = None) -> Any:
    """``ct`` refreshed (top level, fresh error, ``spec``'s slot map applied) from the
    :func:`refresh_share` of ``parties`` (objects or bytes; ``group``: the threshold group
    present, if the parties act as one; ``crs``: the Crs or this refresh's ``refresh_crp``): one
    aggregation and the last step."""
    agg = aggregate(ctx, refresh_round(ctx, crs.crs if isinstance(crs, RefreshCrp) else crs, ct,
                                       spec, group), parties, shares)
    return refresh_finalize(ctx, crs, ct, spec, agg, list(parties), smudging)


def transform(ctx_in: Any, ctx_out: Any, crs: Crs, ct: Any, spec: Refresh, parties: Sequence[int],
              shares: Iterable[tuple], smudging: Smudging, target: PublicKey,
              group: Optional[Group] = None, group_out: Optional[Group] = None) -> Any:
    """``ct`` (of ``ctx_in``) re-encrypted at the top level of ``ctx_out`` under its collective
    key ``target`` (``spec``'s slot map applied) from the :func:`transform_share` pairs of
    ``parties`` (objects or bytes): one aggregation per context and the last step."""
    r_in, r_out = transform_rounds(ctx_in, ctx_out, crs, ct, spec, target, group, group_out)
    pairs = list(shares)
    agg_in = aggregate(ctx_in, r_in, parties, [p[0] for p in pairs])
    agg_out = aggregate(ctx_out, r_out, parties, [p[1] for p in pairs])
    return transform_finalize(ctx_in, ctx_out, crs, ct, spec, agg_in, agg_out, list(parties),
                              target, smudging)


def threshold_secret(ctx: Any, crs: Crs, group: Group, index: int,
                     shares: Iterable[Share | bytes]) -> ThresholdSecret:
    """Party ``index``'s threshold secret from the Shamir shares it received from every member
    of ``group`` (objects or bytes)."""
    agg = aggregate(ctx, shamir_round(ctx, crs, group, index), group.members, shares)
    return ThresholdSecret.from_aggregate(ctx, crs, group, agg, index)


def reshared_secret(ctx: Any, crs: Crs, acting: Group, new_group: Group, index: int,
                    shares: Iterable[Share | bytes]) -> ThresholdSecret:
    """New party ``index``'s threshold secret of ``new_group`` from the re-sharing shares it
    received from every old party of ``acting`` (objects or bytes)."""
    agg = aggregate(ctx, reshare_round(ctx, crs, acting, new_group, index), acting.members, shares)
    return ThresholdSecret.from_reshare(ctx, crs, acting, new_group, agg, index)


def smudging_for(ct: Any, noise_log2: Optional[float] = None, *, lambda_: int = 40,
                 decryptions: int = 1) -> Smudging:
    """The smudging of ``decryptions`` collective decryptions of ``ct`` (BFV, BGV or CKKS): from
    ``noise_log2``, a stated bound on its error in bits (CKKS ciphertexts carry none: measure it on
    a rehearsal with ``ctx.error_log2``), or else from the noise bound the ciphertext carries
    (BFV, BGV; one decryption)."""
    if noise_log2 is None:
        if decryptions != 1:
            raise ParameterError(
                "smudging_for: a ciphertext's carried bound sizes one decryption; for "
                f"{decryptions} give noise_log2, a bound on its error in bits")
        return Smudging.for_ciphertext(ct, lambda_=lambda_)
    return Smudging(noise_log2, ct.context.params.degree, lambda_=lambda_, decryptions=decryptions)


__all__ = [
    "Aggregator",
    "Crp",
    "Crs",
    "Group",
    "Party",
    "ReceiverSecret",
    "Refresh",
    "RefreshCrp",
    "RelinEphemeral",
    "Round",
    "ShamirPolynomial",
    "Share",
    "ShareRefusedError",
    "SlotMap",
    "Smudging",
    "ThresholdSecret",
    "aggregate",
    "ckg_crp",
    "ckg_public_key",
    "ckg_round",
    "ckg_share",
    "cks_round",
    "cks_share",
    "decrypt",
    "decrypt_plaintext",
    "galois_elements",
    "key_switch",
    "noise_bound_log2",
    "pcks_round",
    "pcks_share",
    "public_key_switch",
    "refresh",
    "refresh_crp",
    "refresh_finalize",
    "refresh_headroom_log2",
    "refresh_round",
    "refresh_share",
    "reshare_polynomial",
    "reshare_round",
    "reshared_group",
    "reshared_secret",
    "rkg_crp",
    "rkg_relin_key",
    "rkg_round1",
    "rkg_round2",
    "rkg_share_round1",
    "rkg_share_round2",
    "rtg_crp",
    "rtg_galois_keys",
    "rtg_round",
    "rtg_share",
    "shamir_polynomial",
    "shamir_round",
    "smudging_for",
    "threshold_secret",
    "transform",
    "transform_finalize",
    "transform_rounds",
    "transform_share",
]
