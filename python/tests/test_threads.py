"""Threads across RNS limbs: the thread count changes no bit of any result, and contexts,
keys and ciphertexts work from several Python threads at once (the GIL is released in heavy calls)."""

import threading

import numpy as np
import pytest

import rnsfhe


def test_thread_count_changes_no_bit(bfv, ckks):
    ctx, sk, pk, rlk, gk = bfv
    x = ctx.encrypt(np.arange(64), pk)
    cctx, csk, cpk, *_ = ckks
    c = cctx.encrypt(np.linspace(-1, 1, 64), cpk)
    results = {}
    try:
        for t in [1, 2, 3]:
            rnsfhe.set_num_threads(t)
            assert rnsfhe.num_threads() == t
            results[t] = [(x * x).rotate_rows(1).to_bytes(), (c * c).rotate(1).to_bytes()]
    finally:
        rnsfhe.set_num_threads(1)
    assert results[1] == results[2] == results[3]


def test_python_threads_share_a_context(bfv):
    ctx, sk, pk, rlk, gk = bfv
    rnsfhe.set_num_threads(2)
    try:
        inputs = [ctx.encrypt(np.full(8, i), pk) for i in range(6)]
        out = [None] * len(inputs)

        def work(i):
            out[i] = (inputs[i] * inputs[i]).rotate_rows(1)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        rnsfhe.set_num_threads(1)
    for i, o in enumerate(out):
        assert np.array_equal(ctx.decrypt(o, sk)[:7], np.full(7, i * i))


def test_backend_knob_changes_no_bit():
    """Every backend this CPU has gives the same bits: a seeded context made after each switch (so
    with that backend's tables) encrypts, squares and rotates to identical bytes."""
    import gc

    before = rnsfhe.backend()
    params = rnsfhe.BfvParameters(degree=2048, plain_modulus=12289, moduli_bits=[50, 50, 50],
                                  special_moduli_bits=[50], security="insecure")
    got = {}
    try:
        for name in ["scalar", "avx2", "avx512", "avx512ifma"]:
            try:
                rnsfhe.set_backend(name)
            except rnsfhe.ParameterError as e:
                assert name in str(e)  # this CPU lacks it: refused by name
                continue
            assert rnsfhe.backend() == name
            gc.collect()  # the previous backend's context must be gone (one live context per set)
            ctx = rnsfhe.BfvContext(params, seed=bytes(range(32)))
            sk, pk = ctx.keygen()
            ctx.relin_key(sk)
            ctx.galois_keys(sk, steps=[1])
            x = ctx.encrypt(np.arange(100), pk)
            y = (x * x).rotate_rows(1)
            got[name] = y.to_bytes()
            assert np.array_equal(ctx.decrypt(y, sk)[:99], (np.arange(1, 100) ** 2) % 12289)
            del ctx, sk, pk, x, y
        with pytest.raises(rnsfhe.ParameterError, match="unknown backend"):
            rnsfhe.set_backend("sse9")
    finally:
        rnsfhe.set_backend(before)
    assert "scalar" in got and len(got) >= 1
    assert len(set(got.values())) == 1, sorted(got)
