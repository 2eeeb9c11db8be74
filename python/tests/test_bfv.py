"""BFV through Python: every operation and operator against the same computation on integers mod t."""

import numpy as np
import pytest

import rnsfhe

T = 12289


def centred(v):
    v = np.asarray(v, dtype=np.int64) % T
    return np.where(v > T // 2, v - T, v)


def test_parameters_and_context(bfv):
    ctx, *_ = bfv
    p = ctx.params
    assert (p.degree, p.plain_modulus, len(p.moduli), p.security) == (1024, T, 3, "insecure")
    assert p.slots == 1024 and ctx.slots == 1024
    assert p.multiplication == "hps" and p.decryption == "hps"
    assert 149 < p.log_q < 150.01
    assert ctx.worst_case_depth >= 1
    assert "degree=1024" in repr(ctx)


def test_default_parameters_are_secure():
    p = rnsfhe.BfvParameters()
    assert p.security == "128" and p.degree == 8192 and p.plain_modulus == 65537
    assert p.log_q <= 218


def test_encode_decode_round_trip(bfv, rng):
    ctx, *_ = bfv
    v = rng.integers(-(T - 1), T, size=1024)
    pt = ctx.encode(v)
    assert np.array_equal(ctx.decode(pt, signed=True), centred(v))
    assert np.array_equal(ctx.decode(pt), v % T)
    assert np.array_equal(ctx.decode(ctx.encode([1, 2, 3]))[:4], [1, 2, 3, 0])
    c = ctx.encode([5, -6], coefficients=True)
    assert np.array_equal(c.coefficients()[:3], [5, T - 6, 0])
    assert np.array_equal(ctx.decode(c, coefficients=True, signed=True)[:3], [5, -6, 0])


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint64])
def test_integer_dtypes_accepted(bfv, dtype):
    ctx, sk, pk, *_ = bfv
    v = np.array([1, 2, 3, 100], dtype=dtype)
    assert np.array_equal(ctx.decrypt(ctx.encrypt(v, pk), sk)[:4], v.astype(np.int64))


def test_arithmetic_and_operators(bfv, rng):
    ctx, sk, pk, rlk, gk = bfv
    x = rng.integers(-50, 50, size=1024)
    y = rng.integers(-50, 50, size=1024)
    a, b = ctx.encrypt(x, pk), ctx.encrypt(y, sk)
    dec = lambda c: ctx.decrypt(c, sk, signed=True)
    assert np.array_equal(dec(a + b), centred(x + y))
    assert np.array_equal(dec(a - b), centred(x - y))
    assert np.array_equal(dec(-a), centred(-x))
    assert np.array_equal(dec(a * b), centred(x * y))
    assert np.array_equal(dec(a * 7), centred(7 * x))
    assert np.array_equal(dec(3 * a), centred(3 * x))
    assert np.array_equal(dec(a + 5), centred(x + 5))
    assert np.array_equal(dec(5 - a), centred(5 - x))
    assert np.array_equal(dec(a * y), centred(x * y))
    assert np.array_equal(dec(a + list(y)), centred(x + y))
    assert np.array_equal(dec(a ** 3), centred(x ** 3))
    assert np.array_equal(dec(a ** 1), centred(x))
    assert np.array_equal(dec(a * ctx.encode(y)), centred(x * y))
    # The explicit methods agree with the operators.
    assert np.array_equal(dec(ctx.add(a, b)), dec(a + b))
    assert np.array_equal(dec(ctx.sub(a, b)), dec(a - b))
    assert np.array_equal(dec(ctx.negate(a)), dec(-a))
    assert np.array_equal(dec(ctx.multiply(a, b, rlk)), dec(a * b))
    assert np.array_equal(dec(ctx.square(a)), centred(x * x))
    three = ctx.multiply_no_relin(a, b)
    assert three.size == 3
    assert np.array_equal(dec(three), centred(x * y))
    assert np.array_equal(dec(ctx.relinearize(three, rlk)), centred(x * y))
    assert np.array_equal(dec(ctx.add_plain(a, y)), centred(x + y))
    assert np.array_equal(dec(ctx.sub_plain(a, y)), centred(x - y))
    assert np.array_equal(dec(ctx.mul_plain(a, y)), centred(x * y))
    assert np.array_equal(dec(ctx.mul_scalar(a, -4)), centred(-4 * x))


def test_rotations_and_sums(bfv, rng):
    ctx, sk, pk, rlk, gk = bfv
    x = rng.integers(0, 100, size=1024)
    a = ctx.encrypt(x, pk)
    rows = x.reshape(2, 512)
    got = ctx.decrypt(ctx.rotate_rows(a, 1, gk), sk).reshape(2, 512)
    assert np.array_equal(got, np.roll(rows, -1, axis=1))
    got = ctx.decrypt(a.rotate_rows(-1), sk).reshape(2, 512)
    assert np.array_equal(got, np.roll(rows, 1, axis=1))
    got = ctx.decrypt(a.rotate_columns(), sk).reshape(2, 512)
    assert np.array_equal(got, rows[::-1])
    sum_keys = ctx.galois_keys(sk, for_sum=True)
    s = ctx.decrypt(ctx.sum_slots(a, sum_keys), sk)
    assert np.all(s == x.sum() % T)
    assert set(gk.elements) >= {3, 2 * 1024 - 1}
    ctx.register_keys(galois_keys=gk)  # restore the fixture's keys for other tests


@pytest.mark.parametrize("method", ["gamma", "power_of_two_gamma", "floating_point", "hps", "alg1", "lemma3", "flp"])
def test_every_decryption_method(bfv, rng, method):
    ctx, sk, pk, *_ = bfv
    x = rng.integers(0, T, size=1024)
    a = ctx.encrypt(x, pk)
    assert np.array_equal(ctx.decrypt(a * a, sk, method=method), x * x % T)


def test_behz_multiplication():
    p = rnsfhe.BfvParameters(degree=1024, plain_modulus=12289, moduli_bits=[50, 50, 50],
                             special_moduli_bits=[50], multiplication="behz", decryption="gamma",
                             security="insecure")
    ctx = rnsfhe.BfvContext(p)
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    x = np.arange(1024) % 97
    a = ctx.encrypt(x, pk)
    assert np.array_equal(ctx.decrypt(a * a * a, sk), x ** 3 % T)
    assert p.multiplication == "behz"


def test_noise_budget_decreases_and_exhaustion_raises(bfv):
    ctx, sk, pk, *_ = bfv
    a = ctx.encrypt([3, 1, 2], pk)
    fresh = ctx.noise_budget(a, sk)
    prod = a * a
    assert 0 < ctx.noise_budget(prod, sk) < fresh
    x = a
    with pytest.raises(rnsfhe.NoiseBudgetExhaustedError, match="noise budget exhausted"):
        for _ in range(12):
            x = x * x
            ctx.decrypt(x, sk)
    # The unchecked path still returns values (wrong ones), on request.
    assert len(ctx.decrypt(x, sk, check_noise=False)) == 1024


def test_paper000_parameters():
    p = rnsfhe.BfvParameters.paper000(2048, 3, 30, 2)
    assert p.multiplication == "behz" and p.decryption == "gamma"
    assert len(p.moduli) == 3


def test_equal_parameters_share_one_context(bfv):
    ctx, sk, pk, *_ = bfv
    again = rnsfhe.BfvContext(ctx.params)
    a = again.encrypt([4, 5], pk)  # a key of the first context works with the second
    assert np.array_equal(ctx.decrypt(a, sk)[:2], [4, 5])
    assert a.context.params == ctx.params
