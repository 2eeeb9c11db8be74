"""Values that must not wrap or be refused by the operators that made them, numpy on either side of an
operator, byte buffers into the loaders, out-of-range integers as the library's errors, and bounded
sizes."""

import math

import numpy as np
import pytest

import rnsfhe

from worst import worst_error


def notes(exc_info):
    return " ".join(getattr(exc_info.value, "__notes__", []))


# --- CKKS values that wrap ----------------------------------------------------------------------

def test_encoding_beyond_the_level_is_refused(ckks):
    ctx, sk, pk, *_ = ckks
    with pytest.raises(rnsfhe.OutOfRangeError, match="holds values up to"):
        ctx.decode(ctx.encode(np.full(1024, 2.0 ** 25), level=0))
    with pytest.raises(rnsfhe.OutOfRangeError, match="level 0"):
        ctx.drop_to_level(ctx.encrypt([0.5], pk), 0) + 2.0 ** 20
    with pytest.raises(rnsfhe.OutOfRangeError):
        ctx.drop_to_level(ctx.encrypt([0.5], pk), 0) + [2.0 ** 20]
    with pytest.raises(rnsfhe.OutOfRangeError, match="scale"):
        ctx.encode([0.5, 0.25], scale=1e-300)
    with pytest.raises(rnsfhe.OutOfRangeError, match="round to 0"):
        ctx.encode([1e-20], scale=2.0 ** 40)
    # Within the bound, large values come back exactly (also above scale 2^40 at a high level).
    big = 2.0 ** 60
    assert abs(ctx.decode(ctx.encode([big, -big]))[0] / big - 1) < 1e-12
    low = ctx.drop_to_level(ctx.encrypt([0.5], pk), 0) + 1000.0
    assert abs(ctx.decrypt(low, sk)[0] - 1000.5) < 1e-4


# --- operators that refuse what they made -------------------------------------------------------

def test_sums_at_one_level_with_different_scales(ckks, rng):
    ctx, sk, pk, *_ = ckks
    x, y = rng.uniform(-1, 1, 8), rng.uniform(-1, 1, 8)
    a = ctx.encrypt(x, pk)
    sq = a * a                                            # level 5, scale ~ 2^40
    low = a * ctx.encode(y, level=6, scale=2.0 ** 30)     # level 5, scale ~ 2^30
    assert sq.level == low.level and sq.scale != low.scale
    with pytest.raises(rnsfhe.ScaleMismatchError, match="relative difference"):
        ctx.add(sq, low)
    p, q = ctx.align(sq, low)
    assert (p.level, p.scale) == (q.level, q.scale)
    got = ctx.decrypt(sq + low, sk)[:8]
    assert worst_error(got, x * x + x * y) < 1e-5
    got = ctx.decrypt(low - sq, sk)[:8]
    assert worst_error(got, x * y - x * x) < 1e-5
    # x * c lands on the scale of x * x: the sum needs no extra level.
    s = a * a + a * 0.9
    assert s.level == 5
    assert worst_error(ctx.decrypt(s, sk)[:8], x * x + 0.9 * x) < 1e-5
    s = a ** 8 + a * 0.9
    assert worst_error(ctx.decrypt(s, sk)[:8], x ** 8 + 0.9 * x) < 1e-5


def test_level_and_scale_mismatch_kinds(ckks):
    ctx, sk, pk, *_ = ckks
    a = ctx.encrypt([0.5], pk)
    with pytest.raises(rnsfhe.LevelMismatchError):
        ctx.add(a, ctx.drop_to_level(a, 3))
    with pytest.raises(rnsfhe.ParameterError):
        ctx.add(a, ctx.drop_to_level(a, 3))
    with pytest.raises(rnsfhe.LevelMismatchError):
        ctx.add_plain(a, ctx.encode([1.0], level=2))
    with pytest.raises(rnsfhe.ScaleMismatchError):
        ctx.add_plain(a, ctx.encode([1.0], scale=2.0 ** 30))
    assert issubclass(rnsfhe.ScaleMismatchError, rnsfhe.ParameterError)


def test_variance_of_a_small_spread(ckks, rng):
    ctx, sk, pk, *_ = ckks
    x = 0.9 + 0.01 * rng.uniform(-1, 1, 1024)
    got = ctx.decrypt(ctx.variance(ctx.encrypt(x, pk)), sk)
    assert abs(got[0] - x.var()) / x.var() < 1e-3


def test_mean_and_sum_over_fewer_slots_fill_every_slot(ckks, rng):
    ctx, sk, pk, *_ = ckks
    x = rng.uniform(-1, 1, 64)
    a = ctx.encrypt(x, pk)
    got = ctx.decrypt(ctx.sum_slots(a, 16), sk)
    assert worst_error(got, x[:16].sum()) < 1e-5
    got = ctx.decrypt(ctx.mean(a, 8), sk)
    assert worst_error(got, x[:8].mean()) < 1e-5


# --- numpy on either side, numpy scalars, byte buffers ------------------------------------------

def test_numpy_on_the_left_and_numpy_scalars_ckks(ckks):
    ctx, sk, pk, *_ = ckks
    a = ctx.encrypt([1.0, 2.0, 3.0], pk)
    v = np.array([10, 20, 30])
    for expr, want in [(lambda: v + a, [11, 22, 33]), (lambda: v - a, [9, 18, 27]),
                       (lambda: v * a, [10, 40, 90]), (lambda: a + np.int64(3), [4, 5, 6]),
                       (lambda: a * np.float32(0.5), [0.5, 1, 1.5]),
                       (lambda: np.float64(1) - a, [0, -1, -2])]:
        r = expr()
        assert isinstance(r, rnsfhe.CkksCiphertext)
        assert worst_error(ctx.decrypt(r, sk)[:3], want) < 1e-4


def test_numpy_on_the_left_and_numpy_scalars_bfv(bfv):
    ctx, sk, pk, *_ = bfv
    a = ctx.encrypt([1, 2, 3], pk)
    v = np.array([10, 20, 30])
    for expr, want in [(lambda: v + a, [11, 22, 33]), (lambda: v - a, [9, 18, 27]),
                       (lambda: v * a, [10, 40, 90]), (lambda: a + np.int64(3), [4, 5, 6]),
                       (lambda: a * np.uint8(2), [2, 4, 6]), (lambda: a ** np.int32(2), [1, 4, 9])]:
        r = expr()
        assert isinstance(r, rnsfhe.BfvCiphertext)
        assert list(ctx.decrypt(r, sk)[:3]) == want


@pytest.mark.parametrize("wrap", [bytes, bytearray, memoryview])
def test_loaders_take_byte_buffers(bfv, ckks, wrap):
    cctx, csk, cpk, *_ = ckks
    c = cctx.encrypt([0.5], cpk)
    assert cctx.decrypt(rnsfhe.CkksCiphertext.from_bytes(cctx, wrap(c.to_bytes())), csk)[0] == \
        pytest.approx(0.5, abs=1e-6)
    assert cctx.ciphertext_from_bytes(wrap(c.to_bytes())).level == c.level
    pt = cctx.encode([0.25])
    assert rnsfhe.CkksPlaintext.from_bytes(cctx, wrap(pt.to_bytes())).level == pt.level
    assert rnsfhe.CkksParameters.from_bytes(wrap(cctx.params.to_bytes())) == cctx.params
    assert rnsfhe.CkksContext.from_bytes(wrap(cctx.to_bytes())).slots == cctx.slots
    cctx.public_key_from_bytes(wrap(cpk.to_bytes()))
    bctx, bsk, bpk, *_ = bfv
    b = bctx.encrypt([7], bpk)
    assert bctx.decrypt(rnsfhe.BfvCiphertext.from_bytes(bctx, wrap(b.to_bytes())), bsk)[0] == 7
    bp = bctx.encode([3])
    assert rnsfhe.BfvPlaintext.from_bytes(bctx, wrap(bp.to_bytes())) == bp
    assert rnsfhe.BfvParameters.from_bytes(wrap(bctx.params.to_bytes())) == bctx.params
    bctx.public_key_from_bytes(wrap(bpk.to_bytes()))
    with pytest.raises(TypeError, match="bytes"):
        bctx.ciphertext_from_bytes("not bytes")


# --- out-of-range integers and sizes ------------------------------------------------------------

def test_out_of_range_integers_are_the_librarys_errors(bfv, ckks):
    cctx, csk, cpk, *_ = ckks
    bctx, bsk, bpk, *_ = bfv
    a = cctx.encrypt([0.5], pk := cpk)
    b = bctx.encrypt([1], bpk)
    cases = [
        (lambda: rnsfhe.CkksParameters(degree=-1), "degree"),
        (lambda: rnsfhe.CkksParameters(levels=2 ** 64), "levels"),
        (lambda: rnsfhe.BfvParameters(moduli=[2 ** 64]), "moduli"),
        (lambda: rnsfhe.BfvParameters(plain_modulus=-5), "plain_modulus"),
        (lambda: cctx.rotate(a, 2 ** 63), "step"),
        (lambda: cctx.drop_to_level(a, -1), "level"),
        (lambda: cctx.encode([1.0], level=-1), "level"),
        (lambda: cctx.galois_keys(csk, steps=[2 ** 63]), "steps"),
        (lambda: cctx.sum_slots(a, -2), "count"),
        (lambda: bctx.mul_scalar(b, 2 ** 63), "c"),
        (lambda: bctx.rotate_rows(b, -2 ** 64), "step"),
        (lambda: a.rotate(2 ** 64), "step"),
    ]
    for f, arg in cases:
        with pytest.raises(rnsfhe.OutOfRangeError, match="out of range") as e:
            f()
        assert arg in notes(e), (arg, notes(e))
    with pytest.raises(rnsfhe.OutOfRangeError, match="float"):
        a + 2 ** 2000
    with pytest.raises(rnsfhe.OutOfRangeError):
        b * 2 ** 63


def test_sizes_a_caller_gives_are_capped(ckks):
    ctx, sk, pk, *_ = ckks
    a = ctx.encrypt([0.5], pk)
    calls = []

    def f(t):
        calls.append(t)
        return math.exp(t)

    with pytest.raises(rnsfhe.OutOfRangeError, match="1024"):
        ctx.chebyshev(a, f, -1.0, 1.0, 10 ** 5)
    with pytest.raises(rnsfhe.ParameterError, match="levels"):
        ctx.chebyshev(a, f, -1.0, 1.0, 64)
    assert calls == []
    with pytest.raises(rnsfhe.OutOfRangeError, match="2000"):
        ctx.polynomial(a, [0.5] * 2000)
    with pytest.raises(rnsfhe.OutOfRangeError, match="256"):
        ctx.galois_keys(sk, steps=list(range(1, 301)))
    with pytest.raises(rnsfhe.OutOfRangeError, match="between 1 and 64"):
        a ** 65
    with pytest.raises(rnsfhe.OutOfRangeError, match="samples"):
        rnsfhe.logistic.rotation_steps(2 ** 62, 2)
    with pytest.raises(rnsfhe.OutOfRangeError, match="iterations"):
        rnsfhe.logistic.train_plain(np.ones((2, 2)), np.ones(2), 10 ** 9)
