"""Small, fast (insecure) contexts shared by the tests; keys are generated once per session.

The suite runs on research-size parameters, so it opts in to loading insecure parameter sets from
bytes and pickles (its subprocesses and Dask workers inherit the variable); test_key_profile.py
checks the refusal without it."""

import os

import numpy as np
import pytest

os.environ["RNSFHE_ALLOW_INSECURE"] = "1"

import rnsfhe  # noqa: E402

SEED = bytes(range(32))


@pytest.fixture(scope="session")
def bfv():
    params = rnsfhe.BfvParameters(
        degree=1024, plain_modulus=12289, moduli_bits=[50, 50, 50], special_moduli_bits=[50],
        security="insecure",
    )
    ctx = rnsfhe.BfvContext(params, seed=SEED)
    sk, pk = ctx.keygen()
    rlk = ctx.relin_key(sk)
    gk = ctx.galois_keys(sk, steps=[1, -1, 3], columns=True)
    return ctx, sk, pk, rlk, gk


@pytest.fixture(scope="session")
def ckks():
    params = rnsfhe.CkksParameters(degree=2048, levels=6, scale_bits=40, security="insecure")
    ctx = rnsfhe.CkksContext(params, seed=SEED)
    sk, pk = ctx.keygen()
    rlk = ctx.relin_key(sk)
    gk = ctx.galois_keys(sk, conjugation=True)
    return ctx, sk, pk, rlk, gk


@pytest.fixture()
def rng():
    return np.random.default_rng(7)
