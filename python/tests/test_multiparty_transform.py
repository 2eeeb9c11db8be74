"""rnsfhe.multiparty masked transform to another parameter set: three parties re-encrypt a CKKS
ciphertext into a ring twice as large and a BGV one into another chain and ring, with a slot map
on the way, each against numpy; a threshold transform of BFV; and the refusals (contexts of two
schemes, another plaintext modulus, too many slots, one party's two secrets of two indices, shares
aggregated under the wrong context or for another target)."""

import numpy as np
import pytest

import rnsfhe
from rnsfhe import multiparty as mpc
from test_multiparty import N, Session

T = 65537


def ckks(n, levels, scale_bits):
    return rnsfhe.CkksContext(rnsfhe.CkksParameters(n, levels, scale_bits, first_modulus_bits=60,
                                                    special_moduli_bits=[60], security="insecure"))


def bgv(n, chain, t=T):
    return rnsfhe.BgvContext(rnsfhe.BgvParameters(n, t, moduli_bits=chain,
                                                  special_moduli_bits=[55], security="insecure"))


def bfv(n, chain, t=T):
    return rnsfhe.BfvContext(rnsfhe.BfvParameters(n, t, moduli_bits=chain,
                                                  special_moduli_bits=[55], security="insecure"))


def transformed(a, b, ct, spec, smudging, parties=None, group=None, **kw):
    """``ct`` of session ``a`` re-encrypted under session ``b`` by ``parties`` (pairs of each
    party's two secrets; every party of both sessions by default), shares through bytes."""
    parties = parties or list(zip(a.parties, b.parties))
    pairs = [tuple(s.to_bytes() for s in mpc.transform_share(p, q, ct, a.crs, spec, smudging, **kw))
             for p, q in parties]
    idx = [p.index for p, _ in parties]
    return mpc.transform(a.ctx, b.ctx, a.crs, ct, spec, idx, pairs, smudging, b.pk, group)


def test_ckks_to_a_larger_ring_and_another_chain():
    a, b = Session(ckks(2048, 2, 45)), Session(ckks(4096, 3, 50), salt=10)
    v = np.random.default_rng(11).uniform(-1, 1, 256) + 1j * np.random.default_rng(12).uniform(
        -1, 1, 256)
    ct = a.ctx.encrypt(v, a.pk)
    sm = mpc.Smudging(6, 2048)
    spec = mpc.Refresh(0.0, map=mpc.SlotMap.rotate(7))
    out = transformed(a, b, ct, spec, sm, noise_log2=6)
    assert isinstance(out, rnsfhe.CkksCiphertext) and out.context.params.degree == 4096
    assert out.level == b.ctx.max_level
    got = b.decrypt(out, complex=True)[:256]
    err = got - np.roll(v, -7)
    # The smudging's cost, as in a refresh: sqrt(N n / 2) sigma / Delta per slot, or less (the
    # change of ring keeps the slots' subring only).
    sd = np.sqrt(N * 2048 / 2) * sm.sigma / ct.scale
    assert np.std(err.real) < 1.25 * sd and np.max(np.abs(err)) < 1e-2
    # The result computes on under the output's parameters.
    assert np.max(np.abs(b.decrypt(out + out, complex=True)[:256] - 2 * np.roll(v, -7))) < 2e-2


def test_bgv_to_another_chain_and_ring_with_a_linear_map():
    a, b = Session(bgv(1024, [50, 50, 50])), Session(bgv(2048, [55, 45, 45]), salt=10)
    rng = np.random.default_rng(13)
    x = rng.integers(0, T, 1024)
    ct = a.ctx.mod_switch(a.ctx.encrypt(x, a.pk))
    m = rng.integers(0, T, (1024, 1024))
    spec = mpc.Refresh(map=mpc.SlotMap.linear(m.tolist()))
    out = transformed(a, b, ct, spec, mpc.Smudging.for_ciphertext(ct))
    assert out.level == b.ctx.max_level
    y = (m.astype(object) @ x.astype(object)) % T  # the map in A's 2 x 512 slots
    want = np.zeros((2, 1024), dtype=object)
    want[:, :512] = y.reshape(2, 512)  # row r, column c carried to row r, column c
    assert np.array_equal(b.decrypt(out), want.ravel().astype(np.int64))


def test_threshold_transform_to_another_chain():
    a, b = Session(bfv(2048, [55, 55, 55])), Session(bfv(2048, [50, 50]), salt=10)
    group = mpc.Group(2, [0, 1, 2])

    def deal(s):
        polys = [mpc.shamir_polynomial(p, 2) for p in s.parties]
        return [mpc.threshold_secret(s.ctx, s.crs, group, j,
                                     [q.share_for(s.crs, group, j) for q in polys])
                for j in range(N)]

    sa, sb = deal(a), deal(b)
    pair = [0, 2]
    present = []
    for j in pair:
        p, q = sa[j].combine(pair), sb[j].combine(pair)
        p.join(a.pk)
        q.join(b.pk)
        present.append((p, q))
    x = np.random.default_rng(14).integers(0, T, 2048)
    ct = a.ctx.encrypt(x, a.pk)
    out = transformed(a, b, ct, mpc.Refresh(map=mpc.SlotMap.rotate(1)),
                      mpc.Smudging.for_ciphertext(ct), parties=present,
                      group=group.subgroup(pair))
    assert np.array_equal(b.decrypt(out), np.roll(x.reshape(2, 1024), -1, axis=1).ravel())


def test_transform_refusals():
    a = Session(bfv(1024, [55, 55, 55]))
    ct = a.ctx.encrypt(np.arange(16), a.pk)
    sm = mpc.Smudging.for_ciphertext(ct)
    spec = mpc.Refresh()
    c = Session(ckks(1024, 2, 45), salt=20)
    with pytest.raises(rnsfhe.ParameterError, match="one scheme"):
        mpc.transform_share(a.parties[0], c.parties[0], ct, a.crs, spec, sm)
    other_t = Session(bfv(1024, [50, 50], t=12289), salt=30)
    with pytest.raises(rnsfhe.ParameterError, match="plaintext moduli"):
        mpc.transform_share(a.parties[0], other_t.parties[0], ct, a.crs, spec, sm)
    big, small = Session(ckks(2048, 2, 45), salt=40), Session(ckks(1024, 2, 45), salt=50)
    full = big.ctx.encrypt(np.zeros(1024), big.pk)
    with pytest.raises(rnsfhe.ParameterError, match="slots"):
        mpc.transform_share(big.parties[0], small.parties[0], full, big.crs, mpc.Refresh(0.0),
                            mpc.Smudging(6, 2048), noise_log2=6)

    b = Session(bfv(1024, [50, 50]), salt=60)
    with pytest.raises(rnsfhe.ParameterError, match="party 1"):
        mpc.transform_share(a.parties[0], b.parties[1], ct, a.crs, spec, sm)
    with pytest.raises(rnsfhe.ParameterError, match="joined no"):
        mpc.transform_share(a.parties[0], mpc.Party(b.ctx, 0), ct, a.crs, spec, sm)
    r_in, r_out = mpc.transform_rounds(a.ctx, b.ctx, a.crs, ct, spec, b.pk)
    s_in, s_out = mpc.transform_share(a.parties[0], b.parties[0], ct, a.crs, spec, sm)
    agg = mpc.Aggregator(a.ctx, r_in, list(range(N)))
    with pytest.raises(mpc.ShareRefusedError) as e:
        agg.add(s_out)  # the output's share under the input's parameters
    assert e.value.fault == "foreign"
    agg.add(s_in)
    with pytest.raises(mpc.ShareRefusedError) as e:
        agg.add(mpc.refresh_share(a.parties[1], ct, a.crs, spec, sm))  # a refresh's share
    assert e.value.fault == "stale"
    another = Session(b.ctx, salt=70).pk  # another collective key of the output's parameters
    _, for_another = mpc.transform_rounds(a.ctx, b.ctx, a.crs, ct, spec, another)
    with pytest.raises(mpc.ShareRefusedError) as e:
        mpc.Aggregator(b.ctx, for_another, list(range(N))).add(s_out)  # made for b.pk
    assert e.value.fault == "stale"
    # A complete transform finalised for another target key: refused, naming the difference.
    pairs = [mpc.transform_share(p, q, ct, a.crs, spec, sm) for p, q in zip(a.parties, b.parties)]
    agg_in = mpc.aggregate(a.ctx, r_in, list(range(N)), [p[0] for p in pairs])
    agg_out = mpc.aggregate(b.ctx, r_out, list(range(N)), [p[1] for p in pairs])
    with pytest.raises(mpc.ShareRefusedError) as e:
        mpc.transform_finalize(a.ctx, b.ctx, a.crs, ct, spec, agg_in, agg_out, list(range(N)),
                               another, sm)
    assert e.value.fault == "stale"
    with pytest.raises(rnsfhe.ContextMismatchError):  # the two aggregates swapped
        mpc.transform_finalize(a.ctx, b.ctx, a.crs, ct, spec, agg_out, agg_in, list(range(N)),
                               b.pk, sm)
    out = mpc.transform_finalize(a.ctx, b.ctx, a.crs, ct, spec, agg_in, agg_out, list(range(N)),
                                 b.pk, sm)
    assert np.array_equal(b.decrypt(out)[:16], np.arange(16))


def test_ckks_complex_map_against_numpy():
    """A random unitary matrix on 64 slots during a refresh and during a transform to a ring twice
    as large, against numpy's product; the error has the refresh's size (a unitary map keeps it);
    a map on BFV and a matrix of another size are refused."""
    a, b = Session(ckks(2048, 2, 45)), Session(ckks(4096, 3, 50), salt=10)
    rng = np.random.default_rng(15)
    slots = 64
    v = rng.uniform(-1, 1, slots) + 1j * rng.uniform(-1, 1, slots)
    q, _ = np.linalg.qr(rng.normal(size=(slots, slots)) + 1j * rng.normal(size=(slots, slots)))
    ct = a.ctx.encrypt(v, a.pk)
    sm = mpc.Smudging(6, 2048)
    spec = mpc.Refresh(0.0, map=mpc.SlotMap.complex(q))
    parties = a.parties
    shares = [mpc.refresh_share(p, ct, a.crs, spec, sm, noise_log2=6) for p in parties]
    out = mpc.refresh(a.ctx, a.crs, ct, spec, [p.index for p in parties], shares, sm)
    err = a.decrypt(out, complex=True)[:slots] - q @ v
    sd = np.sqrt(N * 2048 / 2) * sm.sigma / ct.scale
    assert np.std(err.real) < 1.25 * sd and np.max(np.abs(err)) < 1e-2
    out = transformed(a, b, ct, spec, sm, noise_log2=6)
    err = b.decrypt(out, complex=True)[:slots] - q @ v
    assert np.std(err.real) < 1.25 * sd and np.max(np.abs(err)) < 1e-2

    with pytest.raises(rnsfhe.ParameterError, match="64 x 64"):
        mpc.refresh_share(a.parties[0], ct, a.crs,
                          mpc.Refresh(0.0, map=mpc.SlotMap.complex(np.eye(32))), sm, noise_log2=6)
    f = Session(bfv(1024, [55, 55, 55]))
    x = f.ctx.encrypt(np.arange(4), f.pk)
    with pytest.raises(rnsfhe.ParameterError, match="CKKS"):
        mpc.refresh_share(f.parties[0], x, f.crs, mpc.Refresh(map=mpc.SlotMap.complex(np.eye(2))),
                          mpc.Smudging.for_ciphertext(x))
