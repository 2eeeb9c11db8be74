"""HPR on the binding layer every scheme shares: the context methods BFV, BGV and CKKS have (default
parameters, add / sub, the context's bytes, security, the ciphertext's context, loaded keys
registered), and the user's view of two parties: a client encrypts and pickles, a server in another
process computes on what it unpickles, the client decrypts."""

import copy
import pickle
import subprocess
import sys

import numpy as np
import pytest

import rnsfhe
from rnsfhe.errors import ContextMismatchError, MissingKeyError

from test_hpr import SN, ST, small  # noqa: F401 (the seeded small context, keys and values)


def test_default_parameters_as_the_parameter_class():
    ctx = rnsfhe.HprContext()
    assert ctx.params == rnsfhe.HprParameters()
    assert ctx.security == "128"


def test_add_and_sub_methods(small):
    ctx, sk, pk, a = small
    b = (a * 5 + 1) % ST
    x, y = ctx.encrypt(a, pk), ctx.encrypt(b, pk)
    assert np.array_equal(ctx.decrypt(ctx.add(x, y), sk), (a + b) % ST)
    assert np.array_equal(ctx.decrypt(ctx.sub(x, y), sk), (a - b) % ST)
    other = rnsfhe.HprContext(rnsfhe.HprParameters(SN, 641, primes=2, digits=3, bits=50,
                                                   security="insecure"))
    _, opk = other.keygen()
    with pytest.raises(ContextMismatchError):
        ctx.add(x, other.encrypt([1], opk))


def test_context_bytes_security_and_repr(small):
    ctx, sk, pk, a = small
    params = ctx.params
    assert ctx.security == "insecure (seeded)"
    assert params.security == "insecure"
    ctx2 = rnsfhe.HprContext.from_bytes(ctx.to_bytes())
    assert ctx2.params == params
    assert ctx.to_bytes() == params.to_bytes()
    # The same live context: keys and ciphertexts of one work with the other.
    assert np.array_equal(ctx2.decrypt(ctx.encrypt(a, pk), sk), a)
    assert "HprContext" in repr(ctx) and "seeded" in repr(ctx)


def test_ciphertext_context(small):
    ctx, sk, pk, a = small
    x = ctx.encrypt(a, pk)
    c = x.context
    assert isinstance(c, rnsfhe.HprContext) and c.params == ctx.params
    assert np.array_equal(c.decrypt(x + 1, sk), (a + 1) % ST)


def test_loaded_keys_registered_per_key_pair(small):
    ctx, _, _, a = small
    sk, pk = ctx.keygen()
    rlk = ctx.relin_key_from_bytes(rnsfhe.HprContext(ctx.params).relin_key(sk).to_bytes())
    x = ctx.encrypt(a, pk)
    ctx.register_keys(relin_key=rlk)
    assert np.array_equal(ctx.decrypt(x * x, sk), (a * a) % ST)
    sk3, pk3 = ctx.keygen()
    with pytest.raises(MissingKeyError, match=r"register_keys\(relin_key=...\)"):
        ctx.encrypt(a, pk3) * ctx.encrypt(a, pk3)


def test_key_classes_as_the_rlwe_ones(small):
    ctx, sk, pk, a = small
    rlk, gk = ctx.relin_key(sk, "digit"), ctx.galois_keys(sk, [1])
    for key, cls in ((pk, rnsfhe.HprPublicKey), (rlk, rnsfhe.HprRelinKey),
                     (gk, rnsfhe.HprGaloisKeys)):
        loaded = cls.from_bytes(ctx, key.to_bytes())
        assert isinstance(loaded, cls) and loaded.key_id == key.key_id
        assert loaded.to_bytes() == key.to_bytes()
        assert "seeded" in repr(key) and "seeded" not in repr(loaded)
    assert rnsfhe.HprRelinKey.from_bytes(ctx, rlk.to_bytes()).relinearization == "digit"
    assert copy.copy(sk) is sk and copy.deepcopy(sk) is sk
    with pytest.raises(TypeError):
        rnsfhe.HprPublicKey.from_bytes(rnsfhe.BfvContext(), pk.to_bytes())
    bfv = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=4096, plain_modulus=65537))
    bsk, bpk = bfv.keygen()
    with pytest.raises(TypeError):
        rnsfhe.PublicKey.from_bytes(ctx, bpk.to_bytes())
    with pytest.raises(TypeError):
        ctx.encrypt(a, bpk)


SERVER = """
import pickle, sys
import rnsfhe  # noqa: F401 (the classes pickles name)
ctx, x, y, rlk, gk = pickle.loads(sys.stdin.buffer.read())
ctx.register_keys(relin_key=rlk, galois_keys=gk)
z = x * y + 3
sys.stdout.buffer.write(pickle.dumps((z, (x - y).sum_slots()), protocol=5))
"""


def test_two_parties_through_pickles():
    # Client: parameters, keys, encryption; only public material leaves.
    ctx = rnsfhe.HprContext(rnsfhe.HprParameters(4096, 65537, primes=1, digits=2, bits=50))
    sk, pk = ctx.keygen()
    rlk, gk = ctx.relin_key(sk), ctx.galois_keys(sk, for_sum=True)
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 1000, 4096), rng.integers(0, 1000, 4096)
    message = pickle.dumps((ctx, ctx.encrypt(a, pk), ctx.encrypt(b, pk), rlk, gk), protocol=5)
    # Server: another process, which never sees the secret key.
    out = subprocess.run([sys.executable, "-c", SERVER], input=message, capture_output=True,
                         check=True).stdout
    z, s = pickle.loads(out)
    # Client again.
    assert np.array_equal(ctx.decrypt(z, sk), (a * b + 3) % 65537)
    assert np.array_equal(ctx.decrypt(s, sk), np.full(4096, int((a - b).sum()) % 65537))
