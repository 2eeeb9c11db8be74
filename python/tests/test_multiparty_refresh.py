"""rnsfhe.multiparty refresh: a degree-16 polynomial over BFV parameters of depth 2 refreshed
collectively when the budget runs low (against numpy), BGV and CKKS back to the top level, the
masked transforms against numpy, threshold refresh, and the refusals."""

import numpy as np
import pytest

import rnsfhe
from rnsfhe import multiparty as mpc
from test_multiparty import N, Session, bfv_ctx

T = 65537


def bfv_shallow():
    return rnsfhe.BfvContext(rnsfhe.BfvParameters(2048, T, moduli_bits=[55, 55],
                                                  special_moduli_bits=[55], security="insecure"))


def refreshed(s, ct, spec, smudging=None, parties=None, group=None, **kw):
    """``ct`` refreshed by ``parties`` (all of the session's by default), shares through bytes."""
    parties = parties or s.parties
    smudging = smudging or mpc.Smudging.for_ciphertext(ct)
    shares = [mpc.refresh_share(p, ct, s.crs, spec, smudging, **kw).to_bytes() for p in parties]
    return mpc.refresh(s.ctx, s.crs, ct, spec, [p.index for p in parties], shares, smudging,
                       group)


def test_bfv_degree_16_polynomial_beyond_the_depth():
    s = Session(bfv_shallow())
    s.relin()
    x = np.random.default_rng(1).integers(0, T, 2048)
    cx = s.ctx.encrypt(x, s.pk)
    spec = mpc.Refresh()
    refreshes = []

    def square(c):
        """c * c; when the square leaves less room than a refresh needs, c is refreshed first."""
        sq = c * c
        room = mpc.refresh_headroom_log2(sq, mpc.Smudging.for_ciphertext(sq), N)
        if room > 2:
            return sq, c
        refreshes.append(mpc.noise_bound_log2(c))
        c = refreshed(s, c, spec)
        assert mpc.noise_bound_log2(c) < refreshes[-1] - 20
        return c * c, c

    x2, _ = square(cx)
    x4, x2 = square(x2)
    x8, x4 = square(x4)
    x16, x8 = square(x8)
    p = x16 + x8 * 3 + x4 * 5 + x2 * 7 + cx + 11
    xs = [int(v) for v in x]
    want = [(pow(v, 16, T) + 3 * pow(v, 8, T) + 5 * pow(v, 4, T) + 7 * pow(v, 2, T) + v + 11) % T
            for v in xs]
    assert len(refreshes) >= 1
    assert np.array_equal(s.decrypt(p), np.array(want))


def test_bgv_and_ckks_back_to_the_top():
    ctx = rnsfhe.BgvContext(rnsfhe.BgvParameters(2048, T, moduli_bits=[50, 50, 50],
                                                 special_moduli_bits=[55], security="insecure"))
    s = Session(ctx)
    s.relin()
    x = np.random.default_rng(2).integers(0, T, 2048)
    sq = ctx.mod_switch(s.ctx.encrypt(x, s.pk) * s.ctx.encrypt(x, s.pk))
    assert sq.level < ctx.max_level
    out = refreshed(s, sq, mpc.Refresh())
    assert out.level == ctx.max_level
    assert np.array_equal(s.decrypt(out), x * x % T)

    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(2048, 3, 55, first_modulus_bits=60,
                                                   special_moduli_bits=[60], security="insecure"))
    s = Session(ctx)
    s.relin()
    v = np.random.default_rng(3).uniform(-1, 1, 1024)
    c = s.ctx.encrypt(v, s.pk)
    c = c * c
    c = c * c
    sm = mpc.Smudging(8, 2048)  # a bound on the error after two products: 2^8
    out = refreshed(s, c, mpc.Refresh(0.0), sm, noise_log2=8)
    assert out.level == ctx.max_level
    assert out.scale == pytest.approx(ctx.scale_at(ctx.max_level), rel=1e-12)
    err = s.decrypt(out)[:1024] - v ** 4
    # The smudging's cost: each slot gains a Gaussian of sqrt(N n / 2) sigma / Delta_l.
    sd = np.sqrt(N * 2048 / 2) * sm.sigma / c.scale
    assert np.std(err) == pytest.approx(sd, rel=0.25)
    assert mpc.Refresh(0.0).mask_bits(np.log2(c.scale), sm, 2048) < 115


def test_masked_transforms_against_numpy():
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(1024, 12289, moduli_bits=[60, 60, 60],
                                                 special_moduli_bits=[60], security="insecure"))
    s = Session(ctx)
    n, t = 1024, 12289
    rng = np.random.default_rng(4)
    x = rng.integers(0, t, n)
    ct = ctx.encrypt(x, s.pk)
    perm = rng.permutation(n)
    got = s.decrypt(refreshed(s, ct, mpc.Refresh(map=mpc.SlotMap.permute(perm.tolist()))))
    assert np.array_equal(got, x[perm])
    a = rng.integers(0, t, (n, n))
    got = s.decrypt(refreshed(s, ct, mpc.Refresh(map=mpc.SlotMap.linear(a.tolist()))))
    want = np.array([sum(int(r) * int(v) for r, v in zip(row, x)) % t for row in a])
    assert np.array_equal(got, want)
    rows = x.reshape(2, n // 2)
    got = s.decrypt(refreshed(s, ct, mpc.Refresh(map=mpc.SlotMap.rotate(3))))
    assert np.array_equal(got, np.roll(rows, -3, axis=1).ravel())
    got = s.decrypt(refreshed(s, ct, mpc.Refresh(map=mpc.SlotMap.automorphism(2 * n - 1))))
    assert np.array_equal(got, rows[::-1].ravel())

    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(2048, 2, 55, first_modulus_bits=60,
                                                   special_moduli_bits=[60], security="insecure"))
    s = Session(ctx)
    v = np.random.default_rng(5).uniform(-1, 1, 1024)
    ct = ctx.encrypt(v, s.pk)
    sm = mpc.Smudging(6, 2048)
    spec = mpc.Refresh(0.0, map=mpc.SlotMap.rotate(5))
    got = s.decrypt(refreshed(s, ct, spec, sm, noise_log2=6))
    assert np.max(np.abs(got[:1024] - np.roll(v, -5))) < 1e-3
    with pytest.raises(rnsfhe.ParameterError, match="automorphisms"):
        refreshed(s, ct, mpc.Refresh(0.0, map=mpc.SlotMap.permute(list(range(1024)))), sm,
                  noise_log2=6)


def test_threshold_refresh_and_refusals():
    s = Session(bfv_shallow())
    ctx, crs = s.ctx, s.crs
    group = mpc.Group(2, [0, 1, 2])
    polys = [mpc.shamir_polynomial(p, 2) for p in s.parties]
    secrets = [mpc.threshold_secret(ctx, crs, group, j, [q.share_for(crs, group, j) for q in polys])
               for j in range(N)]
    x = np.random.default_rng(6).integers(0, T, 2048)
    ct = ctx.encrypt(x, s.pk)
    pair = [0, 2]
    present = [secrets[j].combine(pair) for j in pair]
    for p in present:
        p.join(s.pk)
    out = refreshed(s, ct, mpc.Refresh(), parties=present, group=mpc.Group(2, pair))
    assert np.array_equal(s.decrypt(out), x)

    spec, sm = mpc.Refresh(), mpc.Smudging.for_ciphertext(ct)
    other = ctx.encrypt(x, s.pk)
    agg = mpc.Aggregator(ctx, mpc.refresh_round(ctx, crs, ct, spec), [0, 1, 2])
    with pytest.raises(mpc.ShareRefusedError) as e:
        agg.add(mpc.refresh_share(s.parties[0], other, crs, spec, sm))
    assert e.value.fault == "stale"
    with pytest.raises(mpc.ShareRefusedError) as e:  # a share of a refresh with a map
        agg.add(mpc.refresh_share(s.parties[0], ct, crs,
                                  mpc.Refresh(map=mpc.SlotMap.rotate(1)), sm))
    assert e.value.fault == "stale"
    for p in s.parties[:2]:
        agg.add(mpc.refresh_share(p, ct, crs, spec, sm))
    with pytest.raises(mpc.ShareRefusedError) as e:
        mpc.refresh_finalize(ctx, crs, ct, spec, agg.partial(), [0, 1, 2], sm)
    assert e.value.fault == "missing"
    with pytest.raises(rnsfhe.ParameterError, match="Refresh::new"):
        mpc.refresh_share(s.parties[0], ct, crs, mpc.Refresh(0.0), sm)
    # Too little budget for the smudging: refused, naming the budget a refresh needs.
    s.relin()
    deep = ct
    while True:
        nxt = deep * deep
        if mpc.refresh_headroom_log2(nxt, mpc.Smudging.for_ciphertext(nxt), N) < -5:
            deep = nxt
            break
        deep = nxt
    with pytest.raises(rnsfhe.NoiseBudgetExhaustedError, match="refresh earlier"):
        refreshed(s, deep, spec)


def test_refresh_with_the_expanded_polynomial():
    """``refresh_crp`` expands a refresh's uniform a once: shares and the result made with it are
    those made with the Crs (two sessions of the same seeds); the a of another ciphertext or of
    another context is refused."""
    twins = [Session(bfv_shallow()), Session(bfv_shallow())]
    x = np.arange(2048) % T
    cts = [s.ctx.encrypt(x, s.pk) for s in twins]
    ct = rnsfhe.BfvCiphertext.from_bytes(twins[1].ctx, cts[0].to_bytes())
    spec, sm = mpc.Refresh(), mpc.Smudging.for_ciphertext(cts[0])
    crp = mpc.refresh_crp(twins[1].ctx, twins[1].crs, ct, spec)
    plain = [mpc.refresh_share(p, cts[0], twins[0].crs, spec, sm).to_bytes()
             for p in twins[0].parties]
    with_crp = [mpc.refresh_share(p, ct, crp, spec, sm).to_bytes() for p in twins[1].parties]
    assert plain == with_crp
    out = mpc.refresh(twins[1].ctx, crp, ct, spec, list(range(N)), with_crp, sm)
    assert np.array_equal(twins[1].decrypt(out), x)
    other = mpc.refresh_crp(twins[1].ctx, twins[1].crs, twins[1].ctx.encrypt(x, twins[1].pk), spec)
    with pytest.raises(rnsfhe.ParameterError, match="another refresh"):
        mpc.refresh_share(twins[1].parties[0], ct, other, spec, sm)
    another = Session(bfv_ctx())  # other parameters
    y = another.ctx.encrypt(x[:16], another.pk)
    with pytest.raises(rnsfhe.ContextMismatchError):
        mpc.refresh_share(another.parties[0], y, crp, spec, mpc.Smudging.for_ciphertext(y))
