"""The moduli layouts. layout="narrow" puts every default prime below 2^50 (the AVX-512 IFMA
range) at the same log q; the default keeps the scheme's own layout; an unknown name is refused."""

import numpy as np
import pytest

import rnsfhe

from worst import worst_error


def widths(moduli):
    return [int(q).bit_length() for q in moduli]


@pytest.mark.parametrize("cls", [rnsfhe.BfvParameters, rnsfhe.BgvParameters])
def test_narrow_integer_layouts_have_primes_below_2_50(cls):
    narrow = cls(degree=8192, layout="narrow")
    assert max(widths(narrow.moduli) + widths(narrow.special_moduli)) <= 49
    ctx = rnsfhe.BfvContext(narrow) if cls is rnsfhe.BfvParameters else rnsfhe.BgvContext(narrow)
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    x = ctx.encrypt([3, 4, 5], pk)
    assert list(ctx.decrypt(x * x + x, sk)[:3]) == [12, 20, 30]


def test_bfv_default_layout_is_unchanged():
    wide = rnsfhe.BfvParameters(degree=8192)
    assert widths(wide.moduli) == [59, 58, 58]
    assert widths(rnsfhe.BfvParameters(degree=8192, layout="default").moduli) == [59, 58, 58]


def test_ckks_layouts():
    default = rnsfhe.CkksParameters(degree=32768, levels=10)
    assert widths(default.moduli)[0] == 60 and widths(default.special_moduli) == [49] * 4
    narrow = rnsfhe.CkksParameters(degree=16384, levels=5, layout="narrow")
    assert max(widths(narrow.moduli) + widths(narrow.special_moduli)) <= 49
    ctx = rnsfhe.CkksContext(narrow)
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    v = np.array([0.5, -1.25, 2.0])
    y = ctx.decrypt(ctx.encrypt(v, pk) * ctx.encrypt(v, pk), sk)[:3]
    assert worst_error(y, v * v) <= 1e-5
    # An explicit q_0 still wins over the layout.
    assert widths(rnsfhe.CkksParameters(layout="narrow", first_modulus_bits=55).moduli)[0] == 55


def test_unknown_layout_is_refused():
    with pytest.raises(rnsfhe.ParameterError, match="narrow"):
        rnsfhe.BfvParameters(layout="ifma")
