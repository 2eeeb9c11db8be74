"""HPR-FV (Bajard et al. (HPR-FV, ePrint 2019/500)) from Python: batch round trip, arithmetic against numpy mod t, plaintexts,
powers, slot sums, the noise budget and the refused decryption past the depth, rotations, bytes and
pickling (the secret key only with allow_secret=True), and the refusals (corrupted bytes, another
key pair, another parameter set, insecure parameters)."""

import pickle

import numpy as np
import pytest

import rnsfhe
from rnsfhe.errors import (
    ContextMismatchError,
    KeyMismatchError,
    MissingKeyError,
    NoiseBudgetExhaustedError,
    OutOfRangeError,
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


# A small insecure set with room for several squarings (t = 257 = 1 mod 2n batches).
SN, ST = 64, 257


@pytest.fixture(scope="module")
def small():
    params = rnsfhe.HprParameters(SN, ST, primes=2, digits=3, bits=50, security="insecure")
    ctx = rnsfhe.HprContext(params, seed=bytes(range(32)))
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    ctx.galois_keys(sk, for_sum=True)
    a = np.random.default_rng(5).integers(0, ST, SN, dtype=np.int64)
    return ctx, sk, pk, a


def test_plaintext_encode_decode_and_operators(small):
    ctx, sk, pk, a = small
    b = (a * 7 + 3) % ST
    pt = ctx.encode(b)
    assert isinstance(pt, rnsfhe.HprPlaintext)
    assert np.array_equal(ctx.decode(pt), b)
    assert np.array_equal(ctx.decode(pt, signed=True), np.where(b > ST // 2, b - ST, b))
    coeffs = ctx.encode([1, -2, 3], coefficients=True)
    assert list(coeffs.coefficients()[:4]) == [1, ST - 2, 3, 0]
    assert list(ctx.decode(coeffs, coefficients=True, signed=True)[:4]) == [1, -2, 3, 0]
    x = ctx.encrypt(a, pk)
    dec = lambda c: ctx.decrypt(c, sk)  # noqa: E731
    assert np.array_equal(dec(x + pt), (a + b) % ST)
    assert np.array_equal(dec(pt + x), (a + b) % ST)
    assert np.array_equal(dec(x - pt), (a - b) % ST)
    assert np.array_equal(dec(pt - x), (b - a) % ST)
    assert np.array_equal(dec(x * pt), (a * b) % ST)
    assert np.array_equal(dec(pt * x), (a * b) % ST)
    assert np.array_equal(dec(ctx.encrypt(pt, pk)), b)
    assert np.array_equal(dec(ctx.encrypt(pt, sk)), b)
    assert ctx.decrypt_plaintext(ctx.encrypt(pt, pk), sk) == pt
    for q in (rnsfhe.HprPlaintext.from_bytes(ctx, pt.to_bytes()), pickle.loads(pickle.dumps(pt))):
        assert q == pt
    data = bytearray(pt.to_bytes())
    data[30] ^= 1
    with pytest.raises(SerializationError):
        ctx.plaintext_from_bytes(bytes(data))
    with pytest.raises(OutOfRangeError):
        ctx.encode(list(range(SN + 1)), coefficients=True)
    other = rnsfhe.HprContext(rnsfhe.HprParameters(SN, 641, primes=2, digits=3, bits=50,
                                                   security="insecure"))
    with pytest.raises(ContextMismatchError):
        x + other.encode([1])
    with pytest.raises(ContextMismatchError):
        other.plaintext_from_bytes(pt.to_bytes())


def test_power_by_squaring(small):
    ctx, sk, pk, a = small
    x = ctx.encrypt(a, pk)
    for k in (1, 2, 3, 5, 8):
        want = np.array([pow(int(v), k, ST) for v in a])
        assert np.array_equal(ctx.decrypt(x**k, sk), want), k
    assert (x**3).size == 2
    with pytest.raises(OutOfRangeError):
        x**0
    with pytest.raises(TypeError):
        pow(x, 2, 5)


def test_sum_slots(small):
    ctx, sk, pk, a = small
    x = ctx.encrypt(a, pk)
    want = np.full(SN, int(a.sum()) % ST)
    assert np.array_equal(ctx.decrypt(ctx.sum_slots(x), sk), want)
    assert np.array_equal(ctx.decrypt(x.sum_slots(), sk), want)
    sk2, pk2 = ctx.keygen()
    with pytest.raises(MissingKeyError):
        ctx.encrypt(a, pk2).sum_slots()
    gk2 = ctx.galois_keys(sk2, for_sum=True)
    y = ctx.sum_slots(ctx.encrypt(a, pk2), gk2)
    assert np.array_equal(ctx.decrypt(y, sk2), want)
    with pytest.raises(KeyMismatchError):
        ctx.sum_slots(x, gk2)


def test_noise_budget_and_refusal_past_the_depth(small):
    ctx, sk, pk, a = small
    x = ctx.encrypt(a, pk)
    want = a.copy()
    budgets = [ctx.noise_budget(x, sk)]
    assert budgets[0] > 0
    refused = False
    for _ in range(30):
        x = x * x
        want = want * want % ST
        budgets.append(ctx.noise_budget(x, sk))
        try:
            got = ctx.decrypt(x, sk)
        except NoiseBudgetExhaustedError:
            refused = True
            assert budgets[-1] == 0
            break
        assert np.array_equal(got, want)
        assert 0 < budgets[-1] < budgets[-2]
    assert refused, budgets
    # Alg. 1 alone still answers (garbage or not); the check is what refuses.
    assert ctx.decrypt(x, sk, check_noise=False).shape == (SN,)
    with pytest.raises(NoiseBudgetExhaustedError):
        ctx.decrypt_plaintext(x, sk)
    # The carried bound survives bytes and pickling.
    for y in (ctx.ciphertext_from_bytes(x.to_bytes()), pickle.loads(pickle.dumps(x))):
        with pytest.raises(NoiseBudgetExhaustedError):
            ctx.decrypt(y, sk)
        assert ctx.noise_budget(y, sk) == 0
    with pytest.raises(NoiseBudgetExhaustedError):
        ctx.decrypt(x * x, sk)


def test_secret_key_bytes(small):
    ctx, sk, pk, a = small
    with pytest.raises(SecretKeyExportError):
        sk.to_bytes()
    with pytest.raises(SecretKeyExportError):
        pickle.dumps(sk)
    data = sk.to_bytes(allow_secret=True)
    x = ctx.encrypt(a, pk)
    for sk2 in (ctx.secret_key_from_bytes(data), rnsfhe.HprSecretKey.from_bytes(ctx, data)):
        assert sk2.key_id == sk.key_id
        assert np.array_equal(ctx.decrypt(x, sk2), a)
    for i in (len(data) // 2, 10):
        bad = bytearray(data)
        bad[i] ^= 1
        with pytest.raises(SerializationError):
            ctx.secret_key_from_bytes(bytes(bad))
    with pytest.raises(SerializationError):
        ctx.secret_key_from_bytes(data[:-3])
    with pytest.raises(SerializationError):
        ctx.secret_key_from_bytes(x.to_bytes())
    other = rnsfhe.HprContext(rnsfhe.HprParameters(SN, 641, primes=2, digits=3, bits=50,
                                                   security="insecure"))
    with pytest.raises(ContextMismatchError):
        other.secret_key_from_bytes(data)
    foreign, _ = ctx.keygen()
    foreign = ctx.secret_key_from_bytes(foreign.to_bytes(allow_secret=True))
    with pytest.raises(KeyMismatchError):
        ctx.decrypt(x, foreign)
