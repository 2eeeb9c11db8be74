"""rnsfhe.multiparty re-sharing: a 3-of-5 sharing re-shared to 4-of-7 over bytes, every 4-subset
of the new group decrypts a ciphertext of the unchanged collective key, old and new shares never
aggregate together, and a new member's secret needs every dealer."""

import itertools

import numpy as np
import pytest

import rnsfhe
from rnsfhe import multiparty as mpc
from test_multiparty import bfv_ctx


def setup(n=5, t=3):
    ctx = bfv_ctx()
    crs = mpc.Crs(bytes(range(32)))
    parties = [mpc.Party(ctx, i, seed=bytes([40 + i]) * 32) for i in range(n)]
    everyone = list(range(n))
    pk = mpc.ckg_public_key(ctx, crs, mpc.aggregate(ctx, mpc.ckg_round(ctx, crs), everyone,
                                                    [mpc.ckg_share(p, crs) for p in parties]),
                            everyone)
    group = mpc.Group(t, everyone)
    polys = [mpc.shamir_polynomial(p, t) for p in parties]
    secrets = [mpc.threshold_secret(ctx, crs, group, j, [q.share_for(crs, group, j) for q in polys])
               for j in everyone]
    return ctx, crs, pk, secrets


def reshare(ctx, crs, secrets, present, t, members):
    """The new group and its members' secrets: every party of ``present`` re-shares (bytes)."""
    old_group = secrets[0].group
    acting = old_group.subgroup(present)
    new = mpc.reshared_group(old_group, crs, t, members)
    polys = [mpc.reshare_polynomial(secrets[j], present, new) for j in present]  # one per dealer
    boxes = [[g.share_for(crs, new, k).to_bytes(allow_secret=True) for k in members] for g in polys]
    return new, acting, [mpc.reshared_secret(ctx, crs, acting, new, k, [b[pos] for b in boxes])
                         for pos, k in enumerate(members)]


def decrypt(ctx, crs, pk, secrets, present, ct):
    parties = [s.combine(present) for s in secrets]
    for p in parties:
        p.join(pk)
    sm = mpc.Smudging.for_ciphertext(ct)
    group = secrets[0].group.subgroup(present)
    agg = mpc.aggregate(ctx, mpc.cks_round(ctx, crs, ct, group), present,
                        [mpc.cks_share(p, ct, crs, sm) for p in parties])
    return mpc.decrypt(ctx, crs, ct, agg, present, sm)


def test_reshare_3_of_5_to_4_of_7():
    ctx, crs, pk, old = setup()
    x = np.random.default_rng(7).integers(0, 12289, 1024)
    ct = ctx.encrypt(x, pk)
    crs2 = crs.with_nonce(b"reshare")
    new_group, acting, new = reshare(ctx, crs2, old, [0, 2, 4], 4, list(range(7)))
    assert new_group.epoch != 0 and (new_group.t, new_group.members) == (4, list(range(7)))
    assert acting.epoch == 0
    for present in itertools.combinations(range(7), 4):
        got = decrypt(ctx, crs, pk, [new[k] for k in present], list(present), ct)
        assert np.array_equal(got, x), present
    with pytest.raises(rnsfhe.ParameterError):
        new[0].combine([0, 1, 2])  # below t' = 4
    # Bytes keep the epoch.
    back = mpc.ThresholdSecret.from_bytes(ctx, new[5].to_bytes(allow_secret=True))
    assert back.group.epoch == new_group.epoch


def test_old_and_new_shares_never_mix():
    ctx, crs, pk, old = setup()
    x = np.random.default_rng(8).integers(0, 12289, 1024)
    ct = ctx.encrypt(x, pk)
    crs2 = crs.with_nonce(b"proactive")
    everyone = list(range(5))
    same, acting, new = reshare(ctx, crs2, old, [1, 2, 3], 3, everyone)
    present = [0, 1, 2]
    mixed = [old[0].combine(present), new[1].combine(present), new[2].combine(present)]
    for p in mixed:
        p.join(pk)
    sm = mpc.Smudging.for_ciphertext(ct)
    agg = mpc.Aggregator(ctx, mpc.cks_round(ctx, crs, ct, same.subgroup(present)), present)
    agg.add(mpc.cks_share(mixed[1], ct, crs, sm))
    agg.add(mpc.cks_share(mixed[2], ct, crs, sm))
    with pytest.raises(mpc.ShareRefusedError) as e:
        agg.add(mpc.cks_share(mixed[0], ct, crs, sm))
    assert e.value.fault == "stale" and "epoch" in str(e.value)
    assert np.array_equal(decrypt(ctx, crs, pk, [new[k] for k in present], present, ct), x)
    # A new member's secret needs the shares of every dealer.
    g = mpc.reshare_polynomial(old[1], [1, 2, 3], same)
    with pytest.raises(mpc.ShareRefusedError) as e:
        mpc.reshared_secret(ctx, crs2, acting, same, 4, [g.share_for(crs2, same, 4)])
    assert e.value.fault == "missing"
    with pytest.raises(rnsfhe.ParameterError, match="reshared_group"):
        mpc.reshare_polynomial(old[1], [1, 2, 3], mpc.Group(3, everyone))
