"""BGV through Python: every operation and operator against the same computation on integers mod t,
modulus switching, pickling, bytes, the key registry and the error classes."""

import pickle

import numpy as np
import pytest

import rnsfhe

T = 65537
N = 1024
SEED = bytes(range(32))


@pytest.fixture(scope="module")
def bgv():
    params = rnsfhe.BgvParameters(
        degree=N, plain_modulus=T, moduli_bits=[40, 40, 40, 40], special_moduli_bits=[45],
        security="insecure",
    )
    ctx = rnsfhe.BgvContext(params, seed=SEED)
    sk, pk = ctx.keygen()
    rlk = ctx.relin_key(sk)
    gk = ctx.galois_keys(sk, steps=[1, -1, 3], columns=True)
    return ctx, sk, pk, rlk, gk


def test_parameters(bgv):
    ctx, *_ = bgv
    p = ctx.params
    assert (p.degree, p.plain_modulus, len(p.moduli), p.security) == (N, T, 4, "insecure")
    assert p.max_level == 3 == ctx.max_level and p.slots == N == ctx.slots
    assert all(q % (2 * N * T) == 1 for q in p.moduli)
    assert "BgvContext" in repr(ctx)
    d = rnsfhe.BgvParameters()
    assert d.security == "128" and d.degree == 8192


def test_operations_against_integers(bgv, rng):
    ctx, sk, pk, *_ = bgv
    a = rng.integers(0, T, size=N)
    b = rng.integers(0, T, size=N)
    x, y = ctx.encrypt(a, pk), ctx.encrypt(b, sk)
    assert x.level == 3 and x.size == 2
    assert np.array_equal(ctx.decrypt(x + y, sk), (a + b) % T)
    assert np.array_equal(ctx.decrypt(x - y, sk), (a - b) % T)
    assert np.array_equal(ctx.decrypt(-x, sk), (-a) % T)
    assert np.array_equal(ctx.decrypt(x * y, sk), a * b % T)
    assert np.array_equal(ctx.decrypt(x * b, sk), a * b % T)
    assert np.array_equal(ctx.decrypt(x + 5, sk), (a + 5) % T)
    assert np.array_equal(ctx.decrypt(7 - x, sk), (7 - a) % T)
    assert np.array_equal(ctx.decrypt(x * -3, sk), (-3 * a) % T)
    assert np.array_equal(ctx.decrypt(x ** 3, sk), a ** 3 % T)
    z = ctx.multiply_no_relin(x, y)
    assert z.size == 3
    assert np.array_equal(ctx.decrypt(ctx.relinearize(z), sk), a * b % T)
    assert ctx.noise_budget(x, sk) > ctx.noise_budget(x * y, sk) > 0


def test_mod_switch(bgv, rng):
    ctx, sk, pk, *_ = bgv
    a = rng.integers(0, T, size=N)
    x = ctx.encrypt(a, pk)
    acc, want = x, a.copy()
    while acc.level > 0:
        acc = (acc * ctx.mod_switch_to_level(x, acc.level)).mod_switch()
        want = want * a % T
        assert np.array_equal(ctx.decrypt(acc, sk), want)
    with pytest.raises(rnsfhe.LevelMismatchError):
        acc.mod_switch()
    # Operands at different levels: aligned to the lower one (modulus_switching="auto", default).
    s = x + x.mod_switch()
    assert s.level == x.level - 1 and ctx.params.modulus_switching == "auto"
    assert np.array_equal(ctx.decrypt(s, sk), 2 * a % T)
    # Refused in the manual mode.
    manual = rnsfhe.BgvContext(rnsfhe.BgvParameters(
        degree=N, plain_modulus=T, moduli_bits=[40, 40, 40, 40], special_moduli_bits=[45],
        security="insecure", modulus_switching="manual"), seed=SEED)
    msk, mpk = manual.keygen()
    manual.relin_key(msk)
    y = manual.encrypt(a, mpk)
    with pytest.raises(rnsfhe.LevelMismatchError):
        _ = y + y.mod_switch()
    with pytest.raises(rnsfhe.LevelMismatchError):
        _ = y * y.mod_switch()


def test_rotations(bgv, rng):
    ctx, sk, pk, *_ = bgv
    a = rng.integers(0, T, size=N)
    x = ctx.encrypt(a, pk)
    half = N // 2
    rows = a.reshape(2, half)
    assert np.array_equal(ctx.decrypt(x.rotate_rows(1), sk), np.roll(rows, -1, axis=1).ravel())
    assert np.array_equal(ctx.decrypt(ctx.rotate_rows(x, -1), sk), np.roll(rows, 1, axis=1).ravel())
    assert np.array_equal(ctx.decrypt(x.rotate_columns(), sk), rows[::-1].ravel())
    with pytest.raises(rnsfhe.MissingKeyError):
        x.rotate_rows(2)


def test_pickle_and_bytes(bgv, rng):
    ctx, sk, pk, rlk, gk = bgv
    a = rng.integers(0, T, size=N)
    x = ctx.encrypt(a, pk).mod_switch()
    y = pickle.loads(pickle.dumps(x))
    assert y.level == x.level
    assert np.array_equal(ctx.decrypt(y, sk), a)
    z = rnsfhe.BgvCiphertext.from_bytes(ctx, x.to_bytes())
    assert np.array_equal(ctx.decrypt(z, sk), a)
    assert pickle.loads(pickle.dumps(ctx.params)) == ctx.params
    assert pickle.loads(pickle.dumps(ctx)).params == ctx.params
    pk2 = pickle.loads(pickle.dumps(pk))
    rlk2 = pickle.loads(pickle.dumps(rlk))
    assert rlk2.key_id == rlk.key_id
    w = ctx.encrypt(a, pk2)
    assert np.array_equal(ctx.decrypt(ctx.multiply(w, w, rlk2), sk), a * a % T)
    sk2 = ctx.secret_key_from_bytes(sk.to_bytes(allow_secret=True))
    assert np.array_equal(ctx.decrypt(w, sk2), a)
    pt = ctx.encode(a)
    assert pickle.loads(pickle.dumps(pt)) == pt
    bad = bytearray(x.to_bytes())
    bad[50] ^= 1
    with pytest.raises(rnsfhe.SerializationError):
        ctx.ciphertext_from_bytes(bytes(bad))


def test_errors(bgv):
    ctx, sk, pk, *_ = bgv
    other = rnsfhe.BgvContext(rnsfhe.BgvParameters(
        degree=N, plain_modulus=T, moduli_bits=[40, 40], special_moduli_bits=[45], security="insecure"))
    sk2, pk2 = ctx.keygen()
    x = ctx.encrypt([1, 2, 3], pk)
    with pytest.raises(rnsfhe.KeyMismatchError):
        _ = x + ctx.encrypt([1], pk2)
    with pytest.raises(rnsfhe.ContextMismatchError):
        other.decrypt(x, sk)
    with pytest.raises(rnsfhe.ParameterError):
        rnsfhe.BgvParameters(degree=N, moduli=[65537 * 4 + 1], security="insecure")
    with pytest.raises(rnsfhe.MissingKeyError):
        _ = ctx.encrypt([1], pk2) * ctx.encrypt([2], pk2)
    # Squares at level 0 exhaust the 40-bit modulus: refused, never a wrong value.
    y = ctx.mod_switch_to_level(x, 0)
    rlk = ctx.relin_key(sk)
    with pytest.raises(rnsfhe.NoiseBudgetExhaustedError):
        for _ in range(4):
            y = ctx.multiply(y, y, rlk)
            ctx.decrypt(y, sk)
