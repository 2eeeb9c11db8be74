"""Keys are refused by a context of another key-switching layout, distribution or security level,
naming the field; parameter sets marked insecure load from bytes and pickles only with an opt-in."""

import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import rnsfhe
from rnsfhe import ContextMismatchError, ParameterError

from worst import worst_error


def _ckks(digit_primes):
    return rnsfhe.CkksContext(rnsfhe.CkksParameters(
        degree=4096, levels=5, scale_bits=30, first_modulus_bits=40, special_moduli_bits=[60, 60],
        digit_primes=digit_primes, security="insecure"))


def test_relin_key_of_another_layout_is_refused():
    four, five = _ckks(4), _ckks(5)
    assert four.fingerprint == five.fingerprint  # what made the silent garbage possible
    sk, pk = four.keygen()
    rlk4 = four.relin_key(sk)
    with pytest.raises(ContextMismatchError, match="digit_primes = 4.*digit_primes = 5"):
        five.relin_key_from_bytes(rlk4.to_bytes())
    sk5 = five.secret_key_from_bytes(sk.to_bytes(allow_secret=True))
    pk5 = five.public_key_from_bytes(pk.to_bytes())
    x = five.encrypt(np.array([0.5, -1.0, 2.0]), pk5)
    # The key object of the other context is refused when registered (context identity).
    with pytest.raises(ContextMismatchError, match="another parameter set"):
        five.register_keys(relin_key=rlk4)
    five.register_keys(relin_key=five.relin_key(sk5))
    got = five.decrypt(five.multiply(x, x), sk5)[:3]
    assert worst_error(got, [0.25, 1.0, 4.0]) <= 1e-3


def test_keys_of_another_sigma_are_refused():
    a = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=4096, plain_modulus=65537))
    b = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=4096, plain_modulus=65537, sigma=4.0))
    assert a.fingerprint == b.fingerprint
    sk, pk = a.keygen()
    with pytest.raises(ContextMismatchError, match="sigma"):
        b.public_key_from_bytes(pk.to_bytes())
    with pytest.raises(ContextMismatchError, match="sigma"):
        b.relin_key_from_bytes(a.relin_key(sk).to_bytes())


def _toy():
    return rnsfhe.CkksParameters(degree=1024, levels=2, scale_bits=30, security="insecure")


def test_insecure_parameter_bytes_need_the_opt_in(monkeypatch):
    monkeypatch.delenv("RNSFHE_ALLOW_INSECURE", raising=False)
    p = _toy()  # parameters only: no live context of these bytes in this process
    with pytest.raises(ParameterError, match="insecure"):
        rnsfhe.CkksParameters.from_bytes(p.to_bytes())
    with pytest.raises(ParameterError, match="insecure"):
        rnsfhe.CkksContext.from_bytes(p.to_bytes())
    with pytest.raises(ParameterError, match="insecure"):
        pickle.loads(pickle.dumps(p))
    assert rnsfhe.CkksParameters.from_bytes(p.to_bytes(), security="insecure") == p
    rnsfhe.allow_insecure_parameters()
    try:
        assert pickle.loads(pickle.dumps(p)) == p
    finally:
        rnsfhe.allow_insecure_parameters(False)
    with pytest.raises(ParameterError):
        rnsfhe.CkksParameters.from_bytes(p.to_bytes(), security=128)
    # A secure set loads without any opt-in.
    q = rnsfhe.CkksParameters(degree=16384, levels=3)
    assert rnsfhe.CkksParameters.from_bytes(q.to_bytes()) == q


_SERVER = """
import pickle, sys, rnsfhe
try:
    ct = pickle.loads(sys.stdin.buffer.read())
    print("loaded", ct.level)
except rnsfhe.ParameterError as e:
    print("refused", e)
"""


@pytest.mark.parametrize("opt_in", [False, True])
def test_a_server_refuses_a_peers_toy_parameters(opt_in):
    """A peer pickles a ciphertext of insecure parameters to a server process: refused there unless
    the server opted in (RNSFHE_ALLOW_INSECURE=1)."""
    ctx = rnsfhe.CkksContext(_toy())
    sk, pk = ctx.keygen()
    blob = pickle.dumps(ctx.encrypt(np.array([1.0]), pk))
    env = {k: v for k, v in os.environ.items() if k != "RNSFHE_ALLOW_INSECURE"}
    if opt_in:
        env["RNSFHE_ALLOW_INSECURE"] = "1"
    out = subprocess.run([sys.executable, "-c", _SERVER], input=blob, capture_output=True,
                         env=env, check=True).stdout.decode()
    if opt_in:
        assert out.startswith("loaded"), out
    else:
        assert out.startswith("refused") and "insecure" in out, out
