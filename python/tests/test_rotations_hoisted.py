"""`ctx.rotate_many(ct, steps)` and `ctx.sum_rotations(ct, steps, weights=None)` (hoisted key
switching) against separate `rotate` / `rotate_rows` calls and numpy's `np.roll` sums, for
CKKS, BFV and BGV; Galois keys are found as for `rotate` (registered per key pair)."""

import numpy as np
import pytest

import rnsfhe

from worst import worst_error

SEED = bytes(range(32))
STEPS = [0, 1, 2, -3, 5]
T = 40961


@pytest.fixture(scope="module")
def ckks():
    params = rnsfhe.CkksParameters(degree=1024, levels=3, scale_bits=40, security="insecure")
    ctx = rnsfhe.CkksContext(params, seed=SEED)
    sk, pk = ctx.keygen()
    gk = ctx.galois_keys(sk, steps=STEPS)
    return ctx, sk, pk, gk


def integer_context(scheme):
    cls, ctx_cls = {
        "bfv": (rnsfhe.BfvParameters, rnsfhe.BfvContext),
        "bgv": (rnsfhe.BgvParameters, rnsfhe.BgvContext),
    }[scheme]
    params = cls(degree=1024, plain_modulus=T, moduli_bits=[50, 50, 50],
                 special_moduli_bits=[50], security="insecure")
    ctx = ctx_cls(params, seed=SEED)
    sk, pk = ctx.keygen()
    ctx.galois_keys(sk, steps=STEPS)
    return ctx, sk, pk


def close(a, b, tol=1e-5):
    return worst_error(np.asarray(a), np.asarray(b)) < tol


def test_ckks_rotate_many_equals_separate_rotations(ckks):
    ctx, sk, pk, gk = ckks
    x = np.random.default_rng(1).uniform(-1, 1, ctx.slots) + 0.5j
    a = ctx.encrypt(x, pk)
    many = ctx.rotate_many(a, STEPS)
    assert len(many) == len(STEPS)
    for step, r in zip(STEPS, many):
        one = ctx.decrypt(ctx.rotate(a, step), sk, complex=True)
        got = ctx.decrypt(r, sk, complex=True)
        assert np.array_equal(got, one), step  # the same path: the same bits, the same values
        assert close(got, np.roll(x, -step)), step
    assert len(ctx.rotate_many(a, STEPS, gk)) == len(STEPS)  # explicit keys too


def test_ckks_sum_rotations_matches_numpy(ckks):
    ctx, sk, pk, gk = ckks
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, ctx.slots)
    a = ctx.encrypt(x, pk)
    rolled = [np.roll(x, -s) for s in STEPS]
    s = ctx.sum_rotations(a, STEPS)
    assert (s.level, s.scale) == (a.level, a.scale)
    assert close(ctx.decrypt(s, sk), sum(rolled))
    separate = ctx.rotate(a, STEPS[0])
    for step in STEPS[1:]:
        separate = ctx.add(separate, ctx.rotate(a, step))
    assert close(ctx.decrypt(s, sk), ctx.decrypt(separate, sk), 2.0 ** -20 * len(STEPS))
    w = [0.5, -1.0, 2.0, 0.25, 1.5]
    s = ctx.sum_rotations(a, STEPS, w)
    assert s.level == a.level - 1 and s.scale == ctx.scale_at(a.level - 1)
    assert close(ctx.decrypt(s, sk), sum(wi * r for wi, r in zip(w, rolled)))
    wc = [0.5, 1j, -0.25 + 0.5j, 2, 0.0]
    s = ctx.sum_rotations(a, STEPS, wc)
    assert close(ctx.decrypt(s, sk, complex=True), sum(wi * r for wi, r in zip(wc, rolled)))
    wv = rng.uniform(-1, 1, (len(STEPS), ctx.slots))
    s = ctx.sum_rotations(a, STEPS, wv)
    assert close(ctx.decrypt(s, sk), sum(wi * r for wi, r in zip(wv, rolled)))


def test_ckks_errors(ckks):
    ctx, sk, pk, gk = ckks
    a = ctx.encrypt(np.ones(ctx.slots), pk)
    with pytest.raises(rnsfhe.MissingKeyError, match="step 7"):
        ctx.rotate_many(a, [1, 7])
    with pytest.raises(rnsfhe.LengthMismatchError):
        ctx.sum_rotations(a, [1, 2], [1.0])
    with pytest.raises(TypeError):
        ctx.sum_rotations(a, [1, 2], [1.0, [1.0, 2.0]])


@pytest.mark.parametrize("scheme", ["bfv", "bgv"])
def test_integer_rotate_many_and_sum_rotations(scheme):
    ctx, sk, pk = integer_context(scheme)
    half = ctx.slots // 2
    rng = np.random.default_rng(3)
    x = rng.integers(0, T, size=ctx.slots)
    a = ctx.encrypt(x, pk)
    rows = x.reshape(2, half)
    rolled = [np.roll(rows, -s, axis=1).reshape(-1) for s in STEPS]
    many = ctx.rotate_many(a, STEPS)
    for step, r, want in zip(STEPS, many, rolled):
        assert np.array_equal(ctx.decrypt(r, sk), want), step
        assert np.array_equal(ctx.decrypt(r, sk), ctx.decrypt(ctx.rotate_rows(a, step), sk))
    got = ctx.decrypt(ctx.sum_rotations(a, STEPS), sk)
    assert np.array_equal(got, sum(rolled) % T)
    w = [3, -2, 1, 0, 40000]
    got = ctx.decrypt(ctx.sum_rotations(a, STEPS, w), sk)
    want = sum(int(wi) % T * r for wi, r in zip(w, rolled)) % T
    assert np.array_equal(got, want)
    wv = rng.integers(0, 16, size=(len(STEPS), ctx.slots))
    got = ctx.decrypt(ctx.sum_rotations(a, STEPS, list(wv)), sk)
    assert np.array_equal(got, sum(wi * r for wi, r in zip(wv, rolled)) % T)
    pts = [ctx.encode(v) for v in wv]
    got2 = ctx.decrypt(ctx.sum_rotations(a, STEPS, pts), sk)
    assert np.array_equal(got2, got)
    with pytest.raises(rnsfhe.MissingKeyError, match="step 4"):
        ctx.sum_rotations(a, [1, 4])
