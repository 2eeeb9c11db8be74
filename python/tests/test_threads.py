"""Threads across RNS limbs (issue 12): the thread count changes no bit of any result, and contexts,
keys and ciphertexts work from several Python threads at once (the GIL is released in heavy calls)."""

import threading

import numpy as np

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
