"""BGV's automatic modulus switching from Python: with the default
`modulus_switching="auto"` a chain of `c = c * c` reaches the depth of the hand-tuned chain (a
`mod_switch()` after each product), at the default parameters of n = 2^14 and over Phi_255; with
`"manual"` the operators never switch (today's behaviour). Every accepted decryption is checked
against the square computed on the values."""

import numpy as np
import pytest

import rnsfhe

SEED = bytes(range(32))


def squarings(ctx, values, square, hand_tuned):
    """Squarings `c = c * c` counted while each decrypts to the square of the values; with
    `hand_tuned`, each product is followed by `mod_switch()` (none at level 0). Returns the count and
    the levels the products were computed at."""
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    c, want = ctx.encrypt(values, pk), values
    count, levels = 0, []
    while count < 40:
        c = c * c
        levels.append(c.level)
        if hand_tuned and c.level > 0:
            c = c.mod_switch()
        want = square(want)
        try:
            got = ctx.decrypt(c, sk)
        except rnsfhe.NoiseBudgetExhaustedError:
            break
        assert np.array_equal(got, want), f"squaring {count + 1}: accepted but wrong"
        count += 1
    return count, levels


def default_2_14(mode=None):
    kw = {} if mode is None else {"modulus_switching": mode}
    return rnsfhe.BgvContext(rnsfhe.BgvParameters(degree=1 << 14, **kw), seed=SEED)


def test_power_of_two_default_auto_reaches_the_hand_tuned_depth():
    ctx = default_2_14()
    assert ctx.params.modulus_switching == "auto" and ctx.max_level == 7
    t = ctx.plain_modulus
    v = np.random.default_rng(1).integers(0, t, size=ctx.slots)
    sq = lambda x: x * x % t  # noqa: E731
    auto, auto_levels = squarings(ctx, v, sq, hand_tuned=False)
    hand, hand_levels = squarings(ctx, v, sq, hand_tuned=True)
    assert hand >= 7
    assert (auto, auto_levels) == (hand, hand_levels)
    # `**` and the context's methods go through the same products.
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    c = ctx.encrypt(v, pk)
    c8 = (c ** 2) ** 4
    assert np.array_equal(ctx.decrypt(c8, sk), pow_mod(v, 8, t))
    assert c8.level == ctx.max_level - 2  # product k computed at level L + 1 - k: the 3rd here


def pow_mod(v, k, t):
    return np.array([pow(int(x), k, t) for x in v])


def test_power_of_two_manual_mode_is_unchanged():
    ctx = default_2_14("manual")
    assert ctx.params.modulus_switching == "manual"
    assert "manual" in repr(ctx.params)
    back = rnsfhe.BgvParameters.from_bytes(ctx.params.to_bytes())
    assert back == ctx.params and back.modulus_switching == "manual"
    assert back != default_2_14().params
    t = ctx.plain_modulus
    v = np.random.default_rng(2).integers(0, t, size=ctx.slots)
    sq = lambda x: x * x % t  # noqa: E731
    plain, plain_levels = squarings(ctx, v, sq, hand_tuned=False)
    hand, _ = squarings(ctx, v, sq, hand_tuned=True)
    # The products stay at the top and are refused after a few squarings, as before the automatic
    # mode (3 at these parameters); `mod_switch()` after each product reaches the full depth.
    assert all(level == ctx.max_level for level in plain_levels)
    assert plain < hand and hand >= 7
    with pytest.raises(rnsfhe.ParameterError):
        rnsfhe.BgvParameters(degree=1024, modulus_switching="sometimes", security="insecure")


def phi_255(t):
    p = rnsfhe.BgvParameters(cyclotomic_index=255, plain_modulus=t, moduli_bits=[50] * 10,
                             special_moduli_bits=[55], security="insecure")
    return rnsfhe.BgvContext(p, seed=SEED)


def test_general_m_auto_is_the_hand_tuned_depth():
    # t = 1021 = 1 mod 255: 128 slots of GF(1021), the square slot by slot.
    ctx = phi_255(1021)
    v = np.random.default_rng(3).integers(0, 1021, size=(ctx.slots, 1))
    sq = lambda x: x * x % 1021  # noqa: E731
    auto, auto_levels = squarings(ctx, v, sq, hand_tuned=False)
    hand, hand_levels = squarings(ctx, v, sq, hand_tuned=True)
    assert hand >= 8
    assert (auto, auto_levels) == (hand, hand_levels)


def gf_square(slots, g, t):
    """Each slot (coefficients of a polynomial in Y) squared in GF(t)[Y]/(G), G monic."""
    d = slots.shape[1]
    g = np.array(g if len(g) == d + 1 else list(g) + [1], dtype=np.int64)
    out = []
    for s in slots:
        p = np.convolve(s, s) % t
        for k in range(len(p) - 1, d - 1, -1):
            p[k - d:k + 1] = (p[k - d:k + 1] - p[k] * g) % t
        out.append(p[:d])
    return np.array(out)


def test_general_m_binary_auto_reaches_the_hand_tuned_depth():
    # The ring: Phi_255, t = 2 (16 slots of GF(2^8)), 10 primes, where 8 plain squarings
    # were refused. The automatic mode keeps two squarings at a level where the noise allows it.
    ctx = phi_255(2)
    v = np.random.default_rng(4).integers(0, 2, size=(ctx.slots, ctx.slot_degree))
    sq = lambda x: gf_square(x, ctx.slot_polynomial, 2)  # noqa: E731
    auto, _ = squarings(ctx, v, sq, hand_tuned=False)
    hand, _ = squarings(ctx, v, sq, hand_tuned=True)
    assert hand >= 9 and auto >= hand and auto >= 8


def test_mixed_levels_and_operands():
    ctx = rnsfhe.BgvContext(rnsfhe.BgvParameters(
        degree=1024, plain_modulus=65537, moduli_bits=[45] * 6, special_moduli_bits=[50],
        security="insecure"), seed=SEED)
    t, top = 65537, ctx.max_level
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    rng = np.random.default_rng(5)
    a, b, c, p = (rng.integers(0, t, size=1024) for _ in range(4))
    x, y, z = ctx.encrypt(a, pk), ctx.encrypt(b, pk), ctx.encrypt(c, pk)
    xy = x * y
    low = ctx.mod_switch_to_level(z, top - 2)
    ab = a * b % t
    cases = [
        (xy, ab),
        (xy * xy, ab * ab % t),
        (xy * low, ab * c % t),
        (low * xy, ab * c % t),
        (xy + low, (ab + c) % t),
        (low - xy, (c - ab) % t),
        (ctx.add(xy, low), (ab + c) % t),
        (ctx.multiply(low, xy), ab * c % t),
        ((xy * 3 + p) * low - 5, ((ab * 3 + p) % t * c - 5) % t),
        (ctx.mul_plain(xy, p) * (x ** 3), ab * p % t * pow_mod(a, 3, t) % t),
    ]
    for i, (ct, want) in enumerate(cases):
        assert np.array_equal(ctx.decrypt(ct, sk), want), f"case {i}"
    assert (xy * low).level <= top - 2 and (xy + low).level == top - 2
    assert ctx.mul_plain(xy, p).level == xy.level == top
