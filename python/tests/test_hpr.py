"""HPR-FV (paper 002) from Python: batch round trip, arithmetic against numpy mod t, rotations,
bytes and pickling, and the refusals (corrupted bytes, another key pair, another parameter set,
insecure parameters)."""

import pickle

import numpy as np
import pytest

import rnsfhe
from rnsfhe.errors import (
    ContextMismatchError,
    KeyMismatchError,
    MissingKeyError,
    ParameterError,
    SecretKeyExportError,
    SerializationError,
)

N, T = 4096, 65537


@pytest.fixture(scope="module")
def env():
    params = rnsfhe.HprParameters(N, T, primes=1, digits=2, bits=50)
    ctx = rnsfhe.HprContext(params)
    sk, pk = ctx.keygen()
    rlk = ctx.relin_key(sk)
    gk = ctx.galois_keys(sk, [1, -1])
    rng = np.random.default_rng(13)
    a = rng.integers(0, T, N, dtype=np.int64)
    b = rng.integers(0, T, N, dtype=np.int64)
    return params, ctx, sk, pk, rlk, gk, a, b


def test_parameters(env):
    params = env[0]
    assert (params.degree, params.plain_modulus, params.digits) == (N, T, 2)
    assert len(params.moduli) == 1 and len(params.auxiliary_moduli) == 2
    assert params.security == "128"
    assert rnsfhe.HprParameters.from_bytes(params.to_bytes()) == params
    assert pickle.loads(pickle.dumps(params)) == params


def test_insecure_parameters_refused_without_override():
    with pytest.raises(ParameterError):
        rnsfhe.HprParameters(N, T, primes=1, digits=3, bits=50)
    p = rnsfhe.HprParameters(N, T, primes=1, digits=3, bits=50, security="insecure")
    assert p.security == "insecure"
    with pytest.raises(ParameterError):
        rnsfhe.HprParameters(N, T, primes=1, digits=2, bits=40)


def test_round_trip(env):
    _, ctx, sk, pk, _, _, a, _ = env
    assert ctx.slots == N
    assert np.array_equal(ctx.decrypt(ctx.encrypt(a, pk), sk), a)
    assert np.array_equal(ctx.decrypt(ctx.encrypt(a, sk), sk), a)
    signed = ctx.decrypt(ctx.encrypt([-3, 5], pk), sk, signed=True)
    assert list(signed[:3]) == [-3, 5, 0]


def test_arithmetic(env):
    _, ctx, sk, pk, _, _, a, b = env
    x, y = ctx.encrypt(a, pk), ctx.encrypt(b, pk)
    dec = lambda c: ctx.decrypt(c, sk)  # noqa: E731
    assert np.array_equal(dec(x + y), (a + b) % T)
    assert np.array_equal(dec(x - y), (a - b) % T)
    assert np.array_equal(dec(-x), (-a) % T)
    assert np.array_equal(dec(x + 7), (a + 7) % T)
    assert np.array_equal(dec(7 - x), (7 - a) % T)
    assert np.array_equal(dec(x - b), (a - b) % T)
    assert np.array_equal(dec(x * 3), (a * 3) % T)
    assert np.array_equal(dec(b * x), (a * b) % T)
    assert np.array_equal(dec(x * y), (a * b) % T)
    assert (x * y).size == 2


def test_per_digit_relinearization():
    ctx = rnsfhe.HprContext(rnsfhe.HprParameters(N, T, primes=1, digits=2, bits=50))
    sk, pk = ctx.keygen()
    rlk = ctx.relin_key(sk, "digit")
    assert rlk.relinearization == "digit"
    a = np.arange(N, dtype=np.int64) % T
    x = ctx.encrypt(a, pk)
    assert np.array_equal(ctx.decrypt(x * x, sk), (a * a) % T)
    with pytest.raises(ParameterError):
        ctx.relin_key(sk, "nonsense")


def test_rotations(env):
    _, ctx, sk, pk, _, _, a, _ = env
    x = ctx.encrypt(a, pk)
    rows = a.reshape(2, N // 2)
    got = ctx.decrypt(x.rotate_rows(1), sk).reshape(2, N // 2)
    assert np.array_equal(got, np.roll(rows, -1, axis=1))
    got = ctx.decrypt(x.rotate_rows(-1), sk).reshape(2, N // 2)
    assert np.array_equal(got, np.roll(rows, 1, axis=1))
    got = ctx.decrypt(x.rotate_columns(), sk).reshape(2, N // 2)
    assert np.array_equal(got, rows[::-1])
    with pytest.raises(MissingKeyError):
        x.rotate_rows(5)


def test_bytes_and_pickle(env):
    params, ctx, sk, pk, rlk, gk, a, b = env
    x = ctx.encrypt(a, pk)
    for y in (rnsfhe.HprCiphertext.from_bytes(ctx, x.to_bytes()), pickle.loads(pickle.dumps(x)),
              pickle.loads(pickle.dumps(x, protocol=5))):
        assert y.key_id == x.key_id
        assert np.array_equal(ctx.decrypt(y, sk), a)
    pk2 = pickle.loads(pickle.dumps(pk))
    assert pk2.key_id == pk.key_id
    assert np.array_equal(ctx.decrypt(ctx.encrypt(b, ctx.public_key_from_bytes(pk.to_bytes())), sk), b)
    assert np.array_equal(ctx.decrypt(ctx.encrypt(b, pk2), sk), b)
    rlk2 = pickle.loads(pickle.dumps(rlk))
    gk2 = ctx.galois_keys_from_bytes(gk.to_bytes())
    assert (rlk2.key_id, gk2.key_id) == (rlk.key_id, gk.key_id)
    assert ctx.relin_key_from_bytes(rlk.to_bytes()).relinearization == "residue"
    ctx2 = pickle.loads(pickle.dumps(ctx))
    assert ctx2.params == params
    with pytest.raises(SecretKeyExportError):
        pickle.dumps(sk)


def test_corrupted_bytes_refused(env):
    _, ctx, _, pk, _, _, a, _ = env
    data = bytearray(ctx.encrypt(a, pk).to_bytes())
    with pytest.raises(SerializationError):
        ctx.ciphertext_from_bytes(bytes(data[:-9]))
    data[len(data) // 2] ^= 1
    with pytest.raises(SerializationError):
        ctx.ciphertext_from_bytes(bytes(data))
    pdata = bytearray(env[0].to_bytes())
    pdata[-5] ^= 0x10
    with pytest.raises(SerializationError):
        rnsfhe.HprParameters.from_bytes(bytes(pdata))


def test_other_key_pair_refused(env):
    _, ctx, sk, pk, _, _, a, _ = env
    sk2, pk2 = ctx.keygen()
    x, z = ctx.encrypt(a, pk), ctx.encrypt(a, pk2)
    with pytest.raises(KeyMismatchError):
        ctx.decrypt(z, sk)
    with pytest.raises(KeyMismatchError):
        x * z
    with pytest.raises(MissingKeyError):
        z * z
    ctx.relin_key(sk2)
    assert np.array_equal(ctx.decrypt(z * z, sk2), (a * a) % T)


def test_other_parameter_set_refused(env):
    _, ctx, sk, pk, _, _, a, _ = env
    other = rnsfhe.HprContext(rnsfhe.HprParameters(N, 40961, primes=1, digits=2, bits=50))
    osk, opk = other.keygen()
    x = ctx.encrypt(a, pk)
    with pytest.raises(ContextMismatchError):
        other.decrypt(x, osk)
    with pytest.raises(ContextMismatchError):
        ctx.decrypt(x, osk)
    with pytest.raises(ContextMismatchError):
        x + other.encrypt([1], opk)
    with pytest.raises(ContextMismatchError):
        other.ciphertext_from_bytes(x.to_bytes())


def test_multiply_without_relinearization(env):
    _, ctx, sk, pk, rlk, _, a, b = env
    x, y = ctx.encrypt(a, pk), ctx.encrypt(b, pk)
    z = ctx.multiply_no_relin(x, y)
    assert z.size == 3
    assert np.array_equal(ctx.decrypt(z, sk), (a * b) % T)
    z = pickle.loads(pickle.dumps(z))
    r = ctx.relinearize(z, rlk)
    assert r.size == 2
    assert np.array_equal(ctx.decrypt(r, sk), (a * b) % T)
    assert np.array_equal(ctx.decrypt(ctx.relinearize(z), sk), (a * b) % T)


def test_equal_parameters_share_the_context_and_its_keys(env):
    params, _, sk, pk, _, _, a, _ = env
    ctx2 = rnsfhe.HprContext(rnsfhe.HprParameters.from_bytes(params.to_bytes()))
    x = ctx2.encrypt(a, pk)
    assert np.array_equal(ctx2.decrypt(x * x, sk), (a * a) % T)
