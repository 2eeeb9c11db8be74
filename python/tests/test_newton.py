"""1/x, 1/sqrt(x) and sqrt(x) on a wide domain, [2^-10, 1], from Python against numpy: within the
levels of a deep context, and at the toy bootstrappable preset (INSECURE, N = 2^11), where the
context bootstraps in between by itself for a key pair with registered bootstrapping keys (and not
for one without); the old inverse(a, iterations) unchanged; the refusals."""

import numpy as np
import pytest

import rnsfhe
from rnsfhe.errors import LevelMismatchError, ParameterError

DOMAIN = (2.0 ** -10, 1.0)
FUNCTIONS = {
    "inverse": lambda x: 1 / x,
    "sqrt": np.sqrt,
    "inv_sqrt": lambda x: 1 / np.sqrt(x),
}


def spread(n, seed):
    """n values log-uniform over DOMAIN, its edges first."""
    lo, hi = DOMAIN
    x = lo * (hi / lo) ** np.random.default_rng(seed).uniform(0, 1, n)
    x[:2] = lo, hi
    return x


def worst(got, want):
    return np.max(np.abs(got / want - 1))


def call(ctx, name, a, **kw):
    return getattr(ctx, name)(a, domain=DOMAIN, **kw)


@pytest.fixture(scope="module")
def deep():
    params = rnsfhe.CkksParameters(2048, 14, 40, security="insecure", scale_level=7)
    ctx = rnsfhe.CkksContext(params, seed=bytes([5] * 32))
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    return ctx, sk, pk


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_within_the_levels(deep, name):
    """20 bits by default (the approximation's bound; the input's own noise, about 2^-27 over x,
    dominates near 2^-10), and 10 bits."""
    ctx, sk, pk = deep
    x = spread(ctx.slots, 1)
    a = ctx.encrypt(x, pk)
    noise = np.abs(ctx.decrypt(a, sk) - x)
    want = FUNCTIONS[name](x)
    out = call(ctx, name, a)
    err = np.abs(ctx.decrypt(out, sk) / want - 1)
    assert np.all(err < 2.0 ** -20 + noise / x + 2.0 ** -24), worst(ctx.decrypt(out, sk), want)
    coarse = call(ctx, name, a, bits=10)
    assert coarse.level >= out.level
    assert worst(ctx.decrypt(coarse, sk), want) < 2.0 ** -10


def test_the_paper_inverse_is_unchanged(deep):
    ctx, sk, pk = deep
    x = np.random.default_rng(2).uniform(0.5, 1.5, ctx.slots)
    a = ctx.encrypt(x, pk)
    rlk = ctx.relin_key(sk)
    for out in [ctx.inverse(a), ctx.inverse(a, 4), ctx.inverse(a, 4, rlk), ctx.inverse(a, iterations=4)]:
        assert out.level == a.level - 4
        assert np.max(np.abs(ctx.decrypt(out, sk) - 1 / x)) < 1e-3
    assert ctx.inverse(a, 2).level == a.level - 2


def test_refusals(deep):
    ctx, sk, pk = deep
    a = ctx.encrypt(np.full(4, 0.5), pk)
    with pytest.raises(ParameterError, match="one or the other"):
        ctx.inverse(a, 4, domain=DOMAIN)
    with pytest.raises(ParameterError, match="domain"):
        ctx.inverse(a, bits=20)
    for bad in [(0.0, 1.0), (1.0, 0.5), (float("nan"), 1.0)]:
        with pytest.raises(ParameterError, match="0 < lo < hi"):
            ctx.sqrt(a, domain=bad)
    with pytest.raises(ParameterError, match="bits"):
        ctx.inv_sqrt(a, domain=DOMAIN, bits=0)
    with pytest.raises(TypeError):
        ctx.sqrt(a)  # the domain is required
    low = ctx.drop_to_level(a, 6)
    with pytest.raises(LevelMismatchError, match="bootstrapper"):
        ctx.inverse(low, domain=DOMAIN)


@pytest.fixture(scope="module")
def toy():
    """The toy preset with 6 residual levels (each step fits a refreshed ciphertext), a key pair
    with bootstrapping keys and one without."""
    params = rnsfhe.CkksParameters.bootstrappable(logn=11, security="insecure", residual_levels=6)
    ctx = rnsfhe.CkksContext(params, seed=bytes([6] * 32))
    sk, pk = ctx.keygen()
    ctx.bootstrapping_keys(sk, progress=False)
    other = ctx.keygen()
    ctx.relin_key(other[0])
    return ctx, sk, pk, other


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_bootstraps_by_itself(toy, name):
    """Deeper than the 6 residual levels: bootstrapped in between (the bootstrapping keys' own
    relinearisation key), to 2^-20 and better; a ciphertext of the key pair without bootstrapping
    keys runs out of levels instead."""
    ctx, sk, pk, (sk2, pk2) = toy
    x = spread(ctx.slots, 3)
    out = call(ctx, name, ctx.encrypt(x, pk))
    assert out.level < ctx.bootstrap_level
    assert worst(ctx.decrypt(out, sk), FUNCTIONS[name](x)) < 2.0 ** -20
    with pytest.raises(LevelMismatchError, match="bootstrapper"):
        call(ctx, name, ctx.drop_to_level(ctx.encrypt(x, pk2), ctx.bootstrap_level))


def test_too_few_levels_between_bootstraps():
    """The toy preset's default 2 residual levels cannot hold the final Newton step: refused with
    what it needs."""
    params = rnsfhe.CkksParameters.bootstrappable(logn=11, security="insecure")
    ctx = rnsfhe.CkksContext(params, seed=bytes([7] * 32))
    sk, pk = ctx.keygen()
    ctx.bootstrapping_keys(sk, progress=False)
    with pytest.raises(LevelMismatchError, match="residual levels"):
        ctx.inverse(ctx.encrypt(spread(ctx.slots, 4), pk), domain=DOMAIN)
