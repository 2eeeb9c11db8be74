"""CKKS through Python: operations, operators, level alignment and the Cheon et al. (SAC 2018) functions, checked
against numpy within CKKS precision."""

import numpy as np
import pytest

import rnsfhe

from worst import worst_error

TOL = 1e-5


def close(a, b, tol=TOL):
    a, b = np.asarray(a), np.asarray(b)
    return worst_error(a[: len(b)], b) < tol


def test_parameters(ckks):
    ctx, *_ = ckks
    p = ctx.params
    assert (p.degree, p.levels, p.scale_bits, p.security) == (2048, 6, 40, "insecure")
    # Default key switching: 3 digits of 3 primes, as many 60-bit special primes as a digit has primes.
    assert len(p.moduli) == 7 and len(p.special_moduli) == 3
    assert all(q.bit_length() == 60 for q in p.special_moduli)
    assert p.scale == 2.0 ** 40 and p.eta >= 1
    assert ctx.slots == 1024 and ctx.max_level == 6


def test_default_parameters_are_secure():
    p = rnsfhe.CkksParameters()
    assert p.security == "128" and p.degree == 16384 and p.log_qp <= 438


def test_encode_decode(ckks, rng):
    ctx, *_ = ckks
    x = rng.uniform(-1, 1, 1024)
    pt = ctx.encode(x)
    assert pt.level == 6 and pt.scale == 2.0 ** 40 and pt.slots == 1024
    assert close(ctx.decode(pt), x, 1e-9)
    z = x + 1j * rng.uniform(-1, 1, 1024)
    assert close(ctx.decode(ctx.encode(z), complex=True), z, 1e-9)
    low = ctx.encode([0.25, 0.5], level=2, scale=2.0 ** 30)
    assert (low.level, low.scale, low.slots) == (2, 2.0 ** 30, 2)


def test_operators(ckks, rng):
    ctx, sk, pk, rlk, gk = ckks
    x, y = rng.uniform(-1, 1, 1024), rng.uniform(-1, 1, 1024)
    a, b = ctx.encrypt(x, pk), ctx.encrypt(y, sk)
    dec = lambda c: ctx.decrypt(c, sk)
    assert close(dec(a + b), x + y)
    assert close(dec(a - b), x - y)
    assert close(dec(-a), -x)
    assert close(dec(a * b), x * y)
    assert (a * b).level == 5
    assert close(dec(a * 0.5), 0.5 * x)
    assert close(dec(3 * a), 3 * x)
    assert close(dec(a + 2), x + 2)
    assert close(dec(1.5 - a), 1.5 - x)
    assert close(dec(a * y), x * y)
    assert close(dec(a + list(y)), x + y)
    assert close(dec(a ** 3), x ** 3)
    assert close(dec(a ** 5), x ** 5)
    # Levels are aligned by the operators: (a * b) is one level below c.
    c = ctx.encrypt(y, pk)
    assert close(dec(a * b + c), x * y + y)
    assert close(dec((a * b) * c), x * y * y)
    assert close(dec(a * ctx.encode(y, level=6, scale=ctx.params.moduli[6])), x * y)


def test_methods(ckks, rng):
    ctx, sk, pk, rlk, gk = ckks
    x, y = rng.uniform(-1, 1, 1024), rng.uniform(-1, 1, 1024)
    a, b = ctx.encrypt(x, pk), ctx.encrypt(y, pk)
    dec = lambda c: ctx.decrypt(c, sk)
    assert close(dec(ctx.add(a, b)), x + y)
    assert close(dec(ctx.sub(a, b)), x - y)
    assert close(dec(ctx.negate(a)), -x)
    assert close(dec(ctx.add_plain(a, y)), x + y)
    assert close(dec(ctx.sub_plain(a, y)), x - y)
    assert close(dec(ctx.rescale(ctx.mul_plain(a, y))), x * y)
    assert close(dec(ctx.add_const(a, 0.25)), x + 0.25)
    assert close(dec(ctx.mul_const(a, -2.0)), -2 * x)
    unscaled = ctx.multiply(a, b, rescale=False)
    assert unscaled.level == 6 and abs(np.log2(unscaled.scale) - 80) < 1e-9
    assert close(dec(ctx.rescale(unscaled)), x * y)
    three = ctx.multiply_no_relin(a, b)
    assert three.size == 3
    assert close(dec(ctx.rescale(ctx.relinearize(three, rlk))), x * y)
    assert ctx.drop_to_level(a, 2).level == 2
    assert close(dec(ctx.drop_to_level(a, 2)), x)


def test_rotations(ckks, rng):
    ctx, sk, pk, rlk, gk = ckks
    x = rng.uniform(-1, 1, 1024)
    a = ctx.encrypt(x, pk)
    assert close(ctx.decrypt(ctx.rotate(a, 4, gk), sk), np.roll(x, -4))
    assert close(ctx.decrypt(a.rotate(1), sk), np.roll(x, -1))
    z = x + 0.5j
    c = ctx.encrypt(z, pk)
    assert close(ctx.decrypt(c.conjugate(), sk, complex=True), np.conj(z))
    assert close(ctx.decrypt(ctx.conjugate(c, gk), sk, complex=True), np.conj(z))


def test_functions(ckks, rng):
    ctx, sk, pk, rlk, gk = ckks
    x = rng.uniform(-1, 1, 1024)
    a = ctx.encrypt(x, pk)
    dec = lambda c: ctx.decrypt(c, sk)
    assert close(dec(ctx.polynomial(a, [0.5, -1.0, 0.25, 2.0])), 0.5 - x + 0.25 * x**2 + 2 * x**3)
    assert close(dec(ctx.polynomial(a, [0.5, -1.0, 0.25], method="powers")), 0.5 - x + 0.25 * x**2)
    taylor = sum(x**k / np.prod(np.arange(1, k + 1)) for k in range(8))
    assert close(dec(ctx.exp(a)), taylor)
    assert close(dec(ctx.sigmoid(a)), 1 / (1 + np.exp(-x)), 2e-3)
    assert close(dec(ctx.chebyshev(a, np.tanh, -1.0, 1.0, 15)), np.tanh(x), 1e-4)
    pos = ctx.encrypt(rng.uniform(0.5, 1.5, 1024), pk)
    assert close(dec(ctx.inverse(pos, 4)), 1 / ctx.decrypt(pos, sk), 1e-3)
    assert close(dec(ctx.sum_slots(a)), np.full(1024, x.sum()), 1e-3)
    assert close(dec(ctx.mean(a, 1024)), np.full(1024, x.mean()))
    assert close(dec(ctx.variance(a, 1024)), np.full(1024, x.var()))
    with pytest.raises(rnsfhe.ParameterError, match="power of two"):
        ctx.mean(a, 1000)
    with pytest.raises(ValueError, match="bsgs"):
        ctx.polynomial(a, [1.0, 2.0], method="horner")


def test_chebyshev_function_errors_propagate(ckks):
    ctx, sk, pk, *_ = ckks
    a = ctx.encrypt([0.1], pk)

    def bad(_x):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        ctx.chebyshev(a, bad, -1.0, 1.0, 7)
    with pytest.raises(rnsfhe.OutOfRangeError, match="not finite"):
        ctx.chebyshev(a, lambda _x: float("nan"), -1.0, 1.0, 7)


def test_levels_exhaust_with_an_error(ckks):
    ctx, sk, pk, *_ = ckks
    a = ctx.encrypt([0.5], pk)
    for _ in range(6):
        a = a * a
    assert a.level == 0
    with pytest.raises(rnsfhe.ParameterError):
        a * a
    with pytest.raises(rnsfhe.RnsfheError):
        ctx.rescale(a)


def test_sum_of_vector_and_constant_products_keeps_its_level():
    # A case once reported (N = 2^14, 7 levels): x * vec and ctx.mul_const(x, 0.0855)
    # both land on level 6 at its scale, so their sum stays at level 6.
    params = rnsfhe.CkksParameters(degree=1 << 14, levels=7, scale_bits=40)
    ctx = rnsfhe.CkksContext(params, seed=bytes(32))
    sk, pk = ctx.keygen()
    rng = np.random.default_rng(22)
    x, v = rng.uniform(-1, 1, 16), rng.uniform(-1, 1, 16)
    a = ctx.encrypt(x, pk)
    p, q = a * v, ctx.mul_const(a, 0.0855)
    assert (p.level, q.level) == (6, 6)
    assert p.scale == q.scale == ctx.scale_at(6)
    s = a * v + ctx.mul_const(a, 0.0855)
    assert s.level == 6
    assert close(ctx.decrypt(s, sk), x * v + 0.0855 * x)


def test_every_level_has_one_scale(ckks, rng):
    ctx, sk, pk, rlk, gk = ckks
    q = ctx.params.moduli
    top = ctx.max_level
    assert ctx.scale_at(top) == 2.0 ** 40
    for level in range(top, 0, -1):
        assert ctx.scale_at(level - 1) == ctx.scale_at(level) ** 2 / q[level]
    with pytest.raises(rnsfhe.ParameterError):
        ctx.scale_at(top + 1)
    x, y = rng.uniform(-1, 1, 8), rng.uniform(-1, 1, 8)
    a, b = ctx.encrypt(x, pk), ctx.encrypt(y, pk)
    made = [a * b, a * 0.3, ctx.mul_const(a, 0.3), a * y, a * ctx.encode(y, level=top),
            ctx.multiply(a, b), ctx.rescale(ctx.mul_plain(a, y)), ctx.drop_to_level(a, 2),
            (a * b) * a + a, a ** 3 - a * 0.5]
    for c in made:
        assert c.scale == ctx.scale_at(c.level), (c.level, c.scale)
    assert ctx.encode(y, level=3).scale == ctx.scale_at(3)
    assert (a * b + a * 0.3 + a * y + ctx.mul_const(b, 2.0)).level == top - 1
