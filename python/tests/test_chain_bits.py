"""Parameters: CKKS chains whose primes differ in width per level (`chain_bits`) with the
scale 2^scale_bits at a chosen level (`scale_level`): widths honoured, scales on the chain's rule,
a product walked down the chain, bytes and pickles round-trip, bad widths refused."""

import pickle

import numpy as np
import pytest

import rnsfhe

from worst import worst_error

MIXED = [60, 40, 40, 55, 55, 55]


def mixed(scale_level=2):
    return rnsfhe.CkksParameters(degree=2048, scale_bits=40, chain_bits=MIXED,
                                 scale_level=scale_level, security="insecure")


def test_widths_and_scale_level():
    p = mixed()
    assert p.chain_bits == MIXED and p.levels == 5 and p.scale_level == 2
    assert [round(np.log2(float(q))) for q in p.moduli] == MIXED
    assert len(set(p.moduli) | set(p.special_moduli)) == len(p.moduli) + len(p.special_moduli)
    # Uniform chains are unchanged, named or not.
    uniform = rnsfhe.CkksParameters(degree=2048, levels=3, security="insecure")
    assert uniform.scale_level == 3 and uniform.chain_bits == [60, 40, 40, 40]
    assert rnsfhe.CkksParameters(degree=2048, chain_bits=[60, 40, 40, 40],
                                 security="insecure") == uniform


def test_scales_and_a_walk_down_the_chain():
    ctx = rnsfhe.CkksContext(mixed(), seed=bytes(32))
    q = ctx.params.moduli
    s = [ctx.scale_at(level) for level in range(6)]
    assert s[2] == 2.0**40
    for level in range(1, 6):
        assert abs(s[level] ** 2 / q[level] / s[level - 1] - 1) < 2.0**-48
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    rng = np.random.default_rng(24)
    v = rng.uniform(-1, 1, 8)
    x = ctx.encrypt(v, pk)
    assert (x.level, x.scale) == (5, s[5])
    want, y = v.copy(), x
    for level in range(5, 0, -1):
        y = y * x if y.level == x.level else y * ctx.encrypt(ctx.encode(v, level=level), pk)
        want = want * v
        assert (y.level, y.scale) == (level - 1, s[level - 1])
        assert worst_error(ctx.decrypt(y, sk)[:8], want) <= 2.0**-20


def test_bytes_and_pickles_round_trip():
    p = mixed()
    back = rnsfhe.CkksParameters.from_bytes(p.to_bytes())
    assert back == p and back.scale_level == 2 and back.chain_bits == MIXED
    assert pickle.loads(pickle.dumps(p)) == p
    assert mixed(1) != p and mixed(1).to_bytes() != p.to_bytes()


@pytest.mark.parametrize("kwargs, match", [
    ({"chain_bits": [60, 40, 19]}, r"chain_bits\[2\] = 19"),
    ({"chain_bits": [60, 62]}, r"chain_bits\[1\] = 62"),
    ({"chain_bits": [60, 40], "scale_level": 2}, "scale_level R = 2"),
])
def test_bad_chains_are_refused(kwargs, match):
    with pytest.raises(rnsfhe.ParameterError, match=match):
        rnsfhe.CkksParameters(degree=2048, security="insecure", **kwargs)
