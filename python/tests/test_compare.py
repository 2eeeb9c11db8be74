"""Comparisons from Python against numpy: sign, step, masks of a > b, abs, ReLU, max, min, clip,
the maximum, argmax and top-k over slots, the `>` and `<` operators, at the toy bootstrappable
preset (INSECURE, N = 2^11), bootstrapping by themselves; without bootstrapping keys they run on the
ciphertext's levels and say when those run out; the refusals."""

import numpy as np
import pytest

import rnsfhe
from rnsfhe.errors import ContextMismatchError, LevelMismatchError
from worst import worst_error

ALPHA = 8  # decide |x| >= 2^-8 of the bound: cheap at the toy preset
TOL = 2.0**-6  # the composite's error at alpha 8 plus the toy bootstrap's


@pytest.fixture(scope="module")
def boot():
    params = rnsfhe.CkksParameters.bootstrappable(logn=11, residual_levels=8, security="insecure")
    ctx = rnsfhe.CkksContext(params, seed=bytes([7] * 32))
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    ctx.bootstrapping_keys(sk)
    return ctx, sk, pk


def decided(rng, n, bound=1.0, alpha=ALPHA):
    """n values in [-bound, bound] at least 2^(2 - alpha) bound away from 0 (decided)."""
    x = rng.uniform(-bound, bound, n)
    gap = 2.0 ** (2 - alpha) * bound
    return np.where(np.abs(x) < gap, np.sign(x + 1e-300) * gap, x)


def enc(ctx, pk, x):
    return ctx.encrypt(x, pk)


def dec(ctx, sk, c, n):
    return ctx.decrypt(c, sk)[:n]


def test_one_input_functions_against_numpy(boot):
    ctx, sk, pk = boot
    rng = np.random.default_rng(1)
    n = ctx.slots
    x = decided(rng, n)
    x[:4] = [1.0, -1.0, 2.0 ** (2 - ALPHA), -(2.0 ** (2 - ALPHA))]  # the edges of the domain
    c = enc(ctx, pk, x)
    before = ctx.bootstraps
    assert worst_error(dec(ctx, sk, ctx.sign(c, alpha=ALPHA), n), np.sign(x)) < TOL
    assert ctx.bootstraps > before  # deeper than the residual levels: it bootstrapped
    assert worst_error(dec(ctx, sk, ctx.step(c, alpha=ALPHA), n), (x > 0).astype(float)) < TOL
    assert worst_error(dec(ctx, sk, ctx.abs(c, alpha=ALPHA), n), np.abs(x)) < TOL
    assert worst_error(dec(ctx, sk, ctx.relu(c, alpha=ALPHA), n), np.maximum(x, 0)) < TOL
    got = dec(ctx, sk, ctx.clip(c, -0.5, 0.25, alpha=ALPHA), n)
    # clip is decided where x is 2^(2 - alpha) away from lo and hi; elsewhere within that gap.
    want = np.clip(x, -0.5, 0.25)
    assert worst_error(got, want) < 2.0 ** (3 - ALPHA)


def test_two_input_functions_and_operators(boot):
    ctx, sk, pk = boot
    rng = np.random.default_rng(2)
    n = ctx.slots
    a = rng.uniform(-1, 1, n)
    d = decided(rng, n, 2.0)  # a - b decided on [-2, 2]
    b = np.clip(a - d, -1, 1)
    keep = np.abs(a - b) >= 2.0 ** (3 - ALPHA)
    ca, cb = enc(ctx, pk, a), enc(ctx, pk, b)
    gt = dec(ctx, sk, ctx.greater(ca, cb, alpha=ALPHA), n)
    assert worst_error(gt[keep], (a > b)[keep].astype(float)) < TOL
    lt = dec(ctx, sk, ctx.less(ca, cb, alpha=ALPHA), n)
    assert worst_error(lt[keep], (a < b)[keep].astype(float)) < TOL
    mx = dec(ctx, sk, ctx.max(ca, cb, alpha=ALPHA), n)
    mn = dec(ctx, sk, ctx.min(ca, cb, alpha=ALPHA), n)
    # Everywhere within 2 alpha-gaps; decided slots within the composite's error.
    assert worst_error(mx, np.maximum(a, b)) < 2.0 ** (4 - ALPHA)
    assert worst_error(mn, np.minimum(a, b)) < 2.0 ** (4 - ALPHA)
    # A number as the second operand, and the operators (default alpha).
    assert worst_error(dec(ctx, sk, ctx.max(ca, 0.25, alpha=ALPHA), n), np.maximum(a, 0.25)) < 2.0 ** (4 - ALPHA)
    mask = dec(ctx, sk, ca > cb, n)
    assert worst_error(mask[keep], (a > b)[keep].astype(float)) < TOL
    mask = dec(ctx, sk, ca < 0.0, n)
    far = np.abs(a) >= 2.0 ** (2 - ALPHA)
    assert worst_error(mask[far], (a < 0)[far].astype(float)) < TOL


def test_max_argmax_and_top_k_over_slots(boot):
    ctx, sk, pk = boot
    rng = np.random.default_rng(3)
    block = 16
    n = ctx.slots
    # Distinct values per block, 1/16 apart, shuffled.
    x = np.concatenate([rng.permutation(np.arange(block)) / block - 0.5 for _ in range(n // block)])
    steps = ctx.comparison_steps(block)
    assert sorted(steps) == [-8, -4, -2, -1, 1, 2, 4, 8]
    gk = ctx.galois_keys(sk, steps=steps)
    c = enc(ctx, pk, x)
    blocks = x.reshape(-1, block)
    m = dec(ctx, sk, ctx.max_slots(c, block, alpha=ALPHA, keys=gk), n).reshape(-1, block)
    assert worst_error(m, np.repeat(blocks.max(axis=1, keepdims=True), block, axis=1)) < 2.0**-5
    mask = dec(ctx, sk, ctx.argmax(c, block, gap=1 / block, alpha=ALPHA, keys=gk), n).reshape(-1, block)
    assert (mask.argmax(axis=1) == blocks.argmax(axis=1)).all()
    assert worst_error(mask, np.eye(block)[blocks.argmax(axis=1)]) < 0.1
    (m1, i1), (m2, i2) = ctx.top_k(c, 2, block, gap=1 / block, alpha=ALPHA, keys=gk)
    second = np.sort(blocks, axis=1)[:, -2]
    got2 = dec(ctx, sk, m2, n).reshape(-1, block)
    assert worst_error(got2[:, 0], second) < 2.0**-4
    assert (dec(ctx, sk, i2, n).reshape(-1, block).argmax(axis=1) == np.argsort(blocks, axis=1)[:, -2]).all()


def test_without_bootstrapping_keys_the_levels_run_out():
    params = rnsfhe.CkksParameters(degree=4096, levels=6, scale_bits=40, security="insecure")
    ctx = rnsfhe.CkksContext(params, seed=bytes(32))
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    c = ctx.encrypt(np.array([0.5, -0.5]), pk)
    with pytest.raises(LevelMismatchError, match="bootstrapper"):
        ctx.sign(c, alpha=ALPHA)
    # A shallow enough composite runs on the levels alone.
    params = rnsfhe.CkksParameters(degree=4096, levels=20, scale_bits=40, security="insecure")
    deep = rnsfhe.CkksContext(params, seed=bytes(32))
    sk, pk = deep.keygen()
    deep.relin_key(sk)
    got = deep.decrypt(deep.sign(deep.encrypt(np.array([0.5, -0.5, 0.1]), pk), alpha=3), sk)[:3]
    assert worst_error(got, np.array([1.0, -1.0, 1.0])) < 0.05
    assert deep.bootstraps == 0


def test_refusals(boot):
    ctx, sk, pk = boot
    c = enc(ctx, pk, np.array([0.5]))
    with pytest.raises(ValueError, match="bound"):
        ctx.sign(c, bound=0.0)
    with pytest.raises(rnsfhe.errors.ParameterError, match="clip"):
        ctx.clip(c, 0.5, 0.25)
    with pytest.raises(TypeError, match="CkksCiphertext or a finite real"):
        ctx.max(c, "x")
    with pytest.raises(TypeError):
        ctx.max(c, float("nan"))
    with pytest.raises(rnsfhe.errors.ParameterError, match="block"):
        ctx.max_slots(c, 12)
    other = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=4096, levels=3, security="insecure"))
    _, opk = other.keygen()
    with pytest.raises(ContextMismatchError):
        ctx.greater(c, other.encrypt(np.array([0.5]), opk))
