"""Noise flooding from Python: ``multiparty.smudging_for`` for every scheme with collective keys
(BFV, BGV, CKKS; HPR has no multiparty protocols), smudging of a product beyond 2^48, and CKKS
decryption with ``flood=rnsfhe.Flooding(...)`` (precision as predicted, fresh noise each time)."""

import numpy as np
import pytest

import rnsfhe
from rnsfhe import multiparty as mpc

from test_multiparty import Session  # N parties with a collective public key
from worst import worst_error


def bfv_ctx(n=1024, bits=(60, 60, 60)):
    return rnsfhe.BfvContext(rnsfhe.BfvParameters(n, 65537, moduli_bits=list(bits),
                                                  special_moduli_bits=[60], security="insecure"))


def bgv_ctx():
    return rnsfhe.BgvContext(rnsfhe.BgvParameters(1024, 65537, moduli_bits=[60, 60, 60],
                                                  special_moduli_bits=[60], security="insecure"))


def ckks_ctx(n=1024, levels=1, scale_bits=50):
    return rnsfhe.CkksContext(rnsfhe.CkksParameters(n, levels, scale_bits, first_modulus_bits=60,
                                                    special_moduli_bits=[60], security="insecure"))


@pytest.mark.parametrize("make", [bfv_ctx, bgv_ctx], ids=["bfv", "bgv"])
def test_smudging_for_integer_schemes(make):
    s = Session(make())
    x = np.arange(16) * 7
    ct = s.ctx.encrypt(x, s.pk)
    carried = mpc.smudging_for(ct)                       # the bound the ciphertext carries
    stated = mpc.smudging_for(ct, noise_log2=20.0, decryptions=4)
    assert stated.sigma == pytest.approx(2.0 ** (20 + 0.5 * (10 + 2) + 20))
    assert carried.sigma > 1.0
    for sm in (carried, stated):
        assert np.array_equal(s.decrypt(ct, smudging=sm)[:16], x)
    with pytest.raises(rnsfhe.ParameterError, match="noise_log2"):
        mpc.smudging_for(ct, decryptions=2)


def test_smudging_for_ckks():
    s = Session(ckks_ctx())
    v = np.linspace(-1, 1, 512)
    ct = s.ctx.encrypt(v, s.pk)
    sm = mpc.smudging_for(ct, noise_log2=6.0)
    assert sm.sigma == pytest.approx(2.0 ** (20 + 5 + 6))
    got = s.decrypt(ct, smudging=sm, noise_log2=6.0)[:512]
    assert worst_error(got, v) < 1e-2
    with pytest.raises(rnsfhe.ParameterError, match="no noise bound"):
        mpc.smudging_for(ct)                             # CKKS carries none: state it


def test_bfv_product_smudged_beyond_2_48():
    """A BFV product at N = 4096 over three 55-bit primes wants sigma = 2^68.5 at lambda = 40; it
    is drawn and the product still decrypts."""
    s = Session(bfv_ctx(4096, (55, 55, 55)), salt=2)
    s.relin()
    a, b = np.arange(32) + 3, np.arange(32) * 5 + 1
    prod = s.ctx.encrypt(a, s.pk) * s.ctx.encrypt(b, s.pk)
    sm = mpc.smudging_for(prod)
    assert sm.sigma > 2.0 ** 60
    assert np.array_equal(s.decrypt(prod, smudging=sm)[:32], a * b % 65537)


def test_flooded_decryption():
    """IND-CPA-D decryption: the error of a rehearsal under a throwaway key sizes the flooding;
    the flooded slots keep the predicted precision (within a bit), two flooded decryptions of one
    ciphertext differ, the raw one is unchanged, and a Flooding without a degree takes the
    context's."""
    ctx = ckks_ctx(4096, levels=1, scale_bits=50)
    scale = 2.0 ** 70                                    # a level of two primes holds it
    v = np.cos(np.arange(2048) / 100.0)
    throwaway_sk, throwaway_pk = ctx.keygen()
    pt = ctx.encode(v, level=1, scale=scale)
    bound = ctx.error_log2(ctx.encrypt(pt, throwaway_pk), throwaway_sk, pt)
    assert 0 < bound < 16

    sk, pk = ctx.keygen()
    ct = ctx.encrypt(pt, pk)
    flood = rnsfhe.Flooding(bound + 1, decryptions=8)   # lambda_ = 40 by default
    with pytest.raises(rnsfhe.ParameterError, match="degree"):
        flood.sigma
    assert flood.sigma_for(4096) == pytest.approx(2.0 ** (20 + 0.5 * (12 + 3) + bound + 1))
    a = ctx.decrypt(ct, sk, flood=flood)
    b = ctx.decode(ctx.decrypt_plaintext(ct, sk, flood=flood))
    assert not np.array_equal(a, b)
    predicted = flood.precision_bits(70, 4096)
    for got in (a, b):
        measured = -np.log2(np.sqrt(np.mean((got - v) ** 2)))
        assert abs(measured - predicted) < 1.0, (measured, predicted)
    assert predicted > 20
    raw = ctx.decrypt(ct, sk)
    assert worst_error(raw, v) < 2.0 ** -40
    assert flood.scale_log2_for(predicted, 4096) == pytest.approx(70)
    with pytest.raises(rnsfhe.ParameterError):
        rnsfhe.Flooding(float("nan"))
    assert rnsfhe.Flooding.with_sigma(2.0 ** 80).sigma == 2.0 ** 80
