"""Several users in one process: contexts of equal parameters are one object, but
each user's evaluation keys serve only that user's ciphertexts, found by the key pair's identity."""

import pickle

import numpy as np
import pytest

import rnsfhe

from worst import worst_error


@pytest.fixture(scope="module")
def ckks_params():
    return rnsfhe.CkksParameters(degree=2048, levels=3, scale_bits=40, security="insecure")


@pytest.fixture(scope="module")
def bfv_params():
    return rnsfhe.BfvParameters(degree=1024, plain_modulus=12289, moduli_bits=[50, 50, 50],
                                special_moduli_bits=[50], security="insecure")


def test_ckks_reproducer_alice_and_bob(ckks_params):
    alice, bob = rnsfhe.CkksContext(ckks_params), rnsfhe.CkksContext(ckks_params)
    ask, apk = alice.keygen()
    alice.relin_key(ask)
    bsk, bpk = bob.keygen()
    bob.relin_key(bsk)
    x = alice.encrypt(np.array([0.5, 0.25, 0.125]), apk)
    assert x.key_id == ask.key_id != bsk.key_id
    assert worst_error(alice.decrypt(x * x, ask)[:3], [0.25, 0.0625, 0.015625]) <= 1e-5
    y = bob.encrypt(np.array([1.0, 2.0]), bpk)
    assert worst_error(bob.decrypt(y * y, bsk)[:2], [1.0, 4.0]) <= 1e-4
    with pytest.raises(rnsfhe.KeyMismatchError) as e:
        x + y
    assert ask.key_id in str(e.value) and bsk.key_id in str(e.value)
    with pytest.raises(rnsfhe.KeyMismatchError):
        alice.decrypt(x, bsk)
    with pytest.raises(rnsfhe.KeyMismatchError):
        alice.multiply(x, x, rlk=bob.relin_key(bsk))


def test_bfv_reproducer_alice_and_bob(bfv_params):
    alice, bob = rnsfhe.BfvContext(bfv_params), rnsfhe.BfvContext(bfv_params)
    ask, apk = alice.keygen()
    alice.relin_key(ask)
    alice.galois_keys(ask, steps=[1])
    bsk, bpk = bob.keygen()
    bob.relin_key(bsk)
    bob.galois_keys(bsk, steps=[1])
    x = alice.encrypt([3, 4, 5], apk)
    assert np.array_equal(alice.decrypt(x * x, ask)[:3], [9, 16, 25])
    assert np.array_equal(alice.decrypt(x.rotate_rows(1), ask)[:2], [4, 5])
    y = bob.encrypt([7], bpk)
    with pytest.raises(rnsfhe.KeyMismatchError):
        x * y
    # A user without keys of their own gets a MissingKeyError naming their key pair, never another's key.
    csk, cpk = alice.keygen()
    z = alice.encrypt([2], cpk)
    with pytest.raises(rnsfhe.MissingKeyError, match=csk.key_id):
        z * z


def test_three_clients_interleaved(bfv_params, ckks_params):
    rng = np.random.default_rng(11)
    clients = []
    for _ in range(3):
        ctx = rnsfhe.BfvContext(bfv_params)
        sk, pk = ctx.keygen()
        ctx.relin_key(sk)
        ctx.galois_keys(sk, steps=[1])
        clients.append((ctx, sk, pk))
    values = [rng.integers(0, 100, size=8) for _ in clients]
    cts = [ctx.encrypt(v, pk) for (ctx, _, pk), v in zip(clients, values)]
    # Interleave: square everyone, then rotate everyone, then add each to itself.
    sq = [c * c for c in cts]
    rot = [c.rotate_rows(1) for c in sq]
    out = [r + s for r, s in zip(rot, sq)]
    for (ctx, sk, _), v, o in zip(clients, values, out):
        want = (np.roll(v * v, -1)[:7] + (v * v)[:7]) % 12289
        assert np.array_equal(ctx.decrypt(o, sk)[:7], want)
    # The server side: ciphertexts and evaluation keys arrive as pickles, identity intact.
    ctx, sk, pk = clients[1]
    rlk = ctx.relin_key(sk)
    server_ct, server_rlk = pickle.loads(pickle.dumps(cts[1])), pickle.loads(pickle.dumps(rlk))
    assert server_ct.key_id == server_rlk.key_id == sk.key_id
    back = rnsfhe.BfvCiphertext.from_bytes(ctx, server_ct.to_bytes())
    assert back.key_id == sk.key_id
    assert np.array_equal(ctx.decrypt(ctx.multiply(back, back, server_rlk), sk)[:8],
                          values[1] * values[1] % 12289)
    cctx = rnsfhe.CkksContext(ckks_params)
    csk, cpk = cctx.keygen()
    c = pickle.loads(pickle.dumps(cctx.encrypt([0.5], cpk)))
    assert c.key_id == csk.key_id
