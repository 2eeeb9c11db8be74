"""`galois_keys(sk, steps=..., for_sum=True)` gives the union: the rotations asked for and those the
slot sum needs, in every scheme (the steps were once dropped, and rotating by 3 then
raised MissingKeyError). Parameter sets of their own, so that no other test's keys are touched."""

import numpy as np
import pytest

import rnsfhe

from worst import worst_error

SEED = bytes(range(32))
STEPS = (1, -1, 3)


def integer_context(scheme):
    cls, ctx_cls = {
        "bfv": (rnsfhe.BfvParameters, rnsfhe.BfvContext),
        "bgv": (rnsfhe.BgvParameters, rnsfhe.BgvContext),
    }[scheme]
    params = cls(degree=1024, plain_modulus=40961, moduli_bits=[50, 50, 50],
                 special_moduli_bits=[50], security="insecure")
    return ctx_cls(params, seed=SEED), 40961, 512


def hpr_context():
    params = rnsfhe.HprParameters(128, 257, primes=2, digits=3, bits=50, security="insecure")
    return rnsfhe.HprContext(params, seed=SEED), 257, 64


@pytest.mark.parametrize("scheme", ["bfv", "bgv", "hpr"])
def test_integer_steps_and_sum_keys_are_the_union(scheme):
    ctx, t, half = hpr_context() if scheme == "hpr" else integer_context(scheme)
    sk, pk = ctx.keygen()
    gk = ctx.galois_keys(sk, steps=STEPS, for_sum=True)
    x = np.random.default_rng(3).integers(0, t, size=2 * half)
    a = ctx.encrypt(x, pk)
    rows = x.reshape(2, half)
    for step in STEPS:
        got = ctx.decrypt(a.rotate_rows(step), sk).reshape(2, half)
        assert np.array_equal(got, np.roll(rows, -step, axis=1)), step
    got = ctx.decrypt(a.rotate_columns(), sk).reshape(2, half)
    assert np.array_equal(got, rows[::-1])
    assert np.all(ctx.decrypt(a.sum_slots(), sk) == x.sum() % t)
    assert np.all(ctx.decrypt(ctx.sum_slots(a, gk), sk) == x.sum() % t)
    # for_sum alone still gives the sum's keys only: no key for a rotation by 3.
    sk2, pk2 = ctx.keygen()
    ctx.galois_keys(sk2, for_sum=True)
    b = ctx.encrypt(x, pk2)
    assert np.all(ctx.decrypt(b.sum_slots(), sk2) == x.sum() % t)
    with pytest.raises(rnsfhe.MissingKeyError):
        b.rotate_rows(3)


def test_ckks_steps_and_sum_keys_are_the_union():
    params = rnsfhe.CkksParameters(degree=1024, levels=2, scale_bits=40, security="insecure")
    ctx = rnsfhe.CkksContext(params, seed=SEED)
    sk, pk = ctx.keygen()
    gk = ctx.galois_keys(sk, steps=STEPS, for_sum=True)
    x = np.random.default_rng(3).uniform(-1, 1, ctx.slots)
    a = ctx.encrypt(x, pk)
    for step in STEPS:
        got = ctx.decrypt(ctx.rotate(a, step, gk), sk)
        assert worst_error(got, np.roll(x, -step)) < 1e-5, step
    got = ctx.decrypt(ctx.sum_slots(a, keys=gk), sk)
    assert worst_error(got, x.sum()) < 1e-3
    # Explicit steps without for_sum: exactly those, the slot sum lacks the power 2.
    sk2, pk2 = ctx.keygen()
    ctx.galois_keys(sk2, steps=STEPS)
    with pytest.raises(rnsfhe.MissingKeyError):
        ctx.encrypt(x, pk2).rotate(2)
