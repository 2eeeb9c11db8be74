"""Keys apart from contexts: keys made in another process load into this process's context of
equal parameters and serve its operators through the registered key set, which behaves as before
(registering replaces a key pair's keys of that kind; a pair without keys gets MissingKeyError)."""

import pickle
import subprocess
import sys

import numpy as np
import pytest

import rnsfhe

PARAMS = dict(degree=1024, plain_modulus=12289, moduli_bits=[50, 50], special_moduli_bits=[50],
              security="insecure")

KEYGEN = """
import pickle, sys
import numpy as np
import rnsfhe
ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(**pickle.loads(sys.stdin.buffer.read())))
sk, pk = ctx.keygen()
x = ctx.encrypt(np.arange(1024) % 12289, pk)
out = (sk.to_bytes(allow_secret=True), ctx.relin_key(sk).to_bytes(),
       ctx.galois_keys(sk, steps=[1]).to_bytes(), x.to_bytes(), sk.key_id)
sys.stdout.buffer.write(pickle.dumps(out))
"""


def test_keys_from_another_process():
    out = subprocess.run([sys.executable, "-c", KEYGEN], input=pickle.dumps(PARAMS),
                         capture_output=True, check=True).stdout
    sk_b, rlk_b, gk_b, x_b, key_id = pickle.loads(out)
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(**PARAMS))
    sk = ctx.secret_key_from_bytes(sk_b)
    assert sk.key_id == key_id
    ctx.register_keys(relin_key=ctx.relin_key_from_bytes(rlk_b),
                      galois_keys=ctx.galois_keys_from_bytes(gk_b))
    x = ctx.ciphertext_from_bytes(x_b)
    a = np.arange(1024) % 12289
    half = 512
    want = np.roll((a * a % 12289).reshape(2, half), -1, axis=1).ravel()
    assert np.array_equal(ctx.decrypt((x * x).rotate_rows(1), sk), want)


def test_registering_replaces_a_pairs_keys_of_one_kind():
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(**PARAMS))
    sk, pk = ctx.keygen()
    a = np.arange(1024) % 12289
    x = ctx.encrypt(a, pk)
    ctx.galois_keys(sk, steps=[1])
    rows = a.reshape(2, 512)
    assert np.array_equal(ctx.decrypt(x.rotate_rows(1), sk), np.roll(rows, -1, axis=1).ravel())
    gk2 = ctx.galois_keys(sk, steps=[2])
    assert np.array_equal(ctx.decrypt(x.rotate_rows(2), sk), np.roll(rows, -2, axis=1).ravel())
    with pytest.raises(rnsfhe.MissingKeyError):
        x.rotate_rows(1)
    # The replaced keys still work when passed explicitly, and a pickled key set round-trips.
    gk1 = pickle.loads(pickle.dumps(ctx.galois_keys(sk, steps=[1])))
    assert np.array_equal(ctx.decrypt(ctx.rotate_rows(x, 1, gk1), sk),
                          np.roll(rows, -1, axis=1).ravel())
    ctx.register_keys(galois_keys=gk2)
    with pytest.raises(rnsfhe.MissingKeyError):
        x.rotate_rows(1)
