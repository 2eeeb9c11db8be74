"""Bad input from Python: every case raises an exception that names the problem; none crashes."""

import numpy as np
import pytest

import rnsfhe
from rnsfhe import errors


def test_hierarchy():
    for name in errors.__all__:
        cls = getattr(errors, name)
        assert issubclass(cls, rnsfhe.RnsfheError)
    assert issubclass(rnsfhe.ParameterError, ValueError)
    assert issubclass(rnsfhe.MissingKeyError, LookupError)
    assert issubclass(rnsfhe.EntropyError, OSError)
    assert issubclass(rnsfhe.InternalError, RuntimeError)
    assert issubclass(rnsfhe.KeyMismatchError, rnsfhe.ContextMismatchError)
    assert issubclass(rnsfhe.SecretKeyExportError, PermissionError)


def test_bad_parameters():
    with pytest.raises(rnsfhe.ParameterError, match="128"):
        rnsfhe.BfvParameters(degree=1024, moduli_bits=[60, 60, 60])
    with pytest.raises(rnsfhe.ParameterError, match="security must be"):
        rnsfhe.BfvParameters(security=100)
    with pytest.raises(rnsfhe.ParameterError, match="degree 1000"):
        rnsfhe.BfvParameters(degree=1000, security="insecure")
    with pytest.raises(rnsfhe.ParameterError, match="multiplication"):
        rnsfhe.BfvParameters(multiplication="karatsuba")
    # HPR-FV is not a BFV multiplication option but a scheme of its own: the message says where.
    with pytest.raises(rnsfhe.ParameterError, match=r'"hps" or "behz".*rnsfhe\.HprParameters'):
        rnsfhe.BfvParameters(multiplication="hpr")
    with pytest.raises(rnsfhe.ParameterError, match="decryption"):
        rnsfhe.BfvParameters(decryption="magic")
    with pytest.raises(rnsfhe.ParameterError, match="levels"):
        rnsfhe.CkksParameters(levels=0)
    with pytest.raises(rnsfhe.ParameterError):
        rnsfhe.CkksParameters(degree=16384, levels=30)
    with pytest.raises(rnsfhe.OutOfRangeError, match="out of range"):
        rnsfhe.BfvParameters(plain_modulus=-3)
    with pytest.raises(TypeError):
        rnsfhe.BfvParameters(degree="big")
    with pytest.raises(ValueError, match="seed must be 32 bytes"):
        rnsfhe.BfvContext(seed=b"short")


def test_bad_bfv_values(bfv):
    ctx, sk, pk, *_ = bfv
    with pytest.raises(TypeError, match="dtype float64"):
        ctx.encode(np.array([1.5, 2.0]))
    with pytest.raises(TypeError, match="item 1 is a float"):
        ctx.encode([1, 2.5, 2 ** 80])
    with pytest.raises(rnsfhe.OutOfRangeError, match="index 0"):
        ctx.encode([2 ** 80])
    with pytest.raises(rnsfhe.OutOfRangeError, match="12289 at index 2"):
        ctx.encode([1, 2, 12289])
    with pytest.raises(rnsfhe.OutOfRangeError, match="-12289"):
        ctx.encode([-12289])
    with pytest.raises(rnsfhe.OutOfRangeError, match="at index 0"):
        ctx.encode(np.array([2 ** 63], dtype=np.uint64))
    with pytest.raises(rnsfhe.RnsfheError, match="1024"):
        ctx.encode(np.zeros(1025, dtype=np.int64))
    with pytest.raises(ValueError, match="2-D"):
        ctx.encode(np.zeros((2, 2), dtype=np.int64))
    with pytest.raises(TypeError, match="single int"):
        ctx.encode(5)
    with pytest.raises(TypeError, match="str"):
        ctx.encode("12")
    with pytest.raises(TypeError, match="dtype"):
        ctx.encode(np.array(["a", "b"]))
    with pytest.raises(TypeError, match="PublicKey or a SecretKey"):
        ctx.encrypt([1], "key")


def test_bad_ckks_values(ckks):
    ctx, sk, pk, *_ = ckks
    for bad in [float("nan"), float("inf"), -float("inf")]:
        with pytest.raises(rnsfhe.OutOfRangeError):
            ctx.encrypt([0.5, bad], pk)
    with pytest.raises(rnsfhe.OutOfRangeError):
        ctx.encode(np.ones(1025))
    with pytest.raises(TypeError, match="real or complex"):
        ctx.encode(np.array(["x"]))
    with pytest.raises(TypeError):
        ctx.encode([object()])
    with pytest.raises(ValueError, match="2-D"):
        ctx.encode([[1.0], [2.0]])
    with pytest.raises(rnsfhe.RnsfheError):
        ctx.encode([1.0], level=99)
    a = ctx.encrypt([0.5], pk)
    with pytest.raises(rnsfhe.OutOfRangeError, match="not finite"):
        a + float("nan")
    with pytest.raises(rnsfhe.OutOfRangeError):
        a * float("inf")
    with pytest.raises(rnsfhe.OutOfRangeError):
        a * 1e300


def test_bad_operands(bfv, ckks):
    bctx, bsk, bpk, *_ = bfv
    cctx, csk, cpk, *_ = ckks
    b = bctx.encrypt([1], bpk)
    c = cctx.encrypt([0.5], cpk)
    for op in [lambda: b + "x", lambda: b * None, lambda: b - 1.5, lambda: c + "x", lambda: c * {}]:
        with pytest.raises(TypeError, match="unsupported operand"):
            op()
    with pytest.raises(TypeError, match="unsupported operand"):
        b + c
    with pytest.raises(TypeError):
        c + b
    with pytest.raises(ValueError, match="between 1 and 64"):
        b ** 0
    with pytest.raises(ValueError, match="between 1 and 64"):
        c ** 65
    with pytest.raises(TypeError, match="must be an int"):
        c ** 1.5
    with pytest.raises(TypeError, match="modulus"):
        pow(b, 2, 5)
    with pytest.raises(rnsfhe.OutOfRangeError, match="64 bits"):
        b * 2 ** 70


def test_mismatched_contexts(bfv, ckks):
    bctx, bsk, bpk, brlk, _ = bfv
    cctx, csk, cpk, crlk, _ = ckks
    other = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=1024, plain_modulus=65537,
                                                   moduli_bits=[50, 50, 50], special_moduli_bits=[50],
                                                   security="insecure"))
    osk, opk = other.keygen()
    a = bctx.encrypt([1], bpk)
    o = other.encrypt([1], opk)
    with pytest.raises(rnsfhe.ContextMismatchError, match="another parameter set"):
        a + o
    with pytest.raises(rnsfhe.ContextMismatchError):
        bctx.decrypt(a, osk)
    with pytest.raises(rnsfhe.ContextMismatchError):
        bctx.encrypt([1], opk)
    with pytest.raises(rnsfhe.ContextMismatchError):
        bctx.multiply(a, a, crlk)
    with pytest.raises(rnsfhe.ContextMismatchError):
        cctx.decrypt(cctx.encrypt([0.5], cpk), bsk)
    with pytest.raises(rnsfhe.ContextMismatchError):
        other.add(a, o)
    with pytest.raises(TypeError):
        bctx.add(a, cctx.encrypt([0.5], cpk))


def test_missing_keys():
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=1024, plain_modulus=12289,
                                                 moduli_bits=[40, 40], special_moduli_bits=[40],
                                                 security="insecure"))
    sk, pk = ctx.keygen()
    a = ctx.encrypt([1, 2], pk)
    with pytest.raises(rnsfhe.MissingKeyError, match="relin_key"):
        a * a
    with pytest.raises(rnsfhe.MissingKeyError, match="relinearisation"):
        a ** 2
    with pytest.raises(rnsfhe.MissingKeyError, match="galois_keys"):
        a.rotate_rows(1)
    gk = ctx.galois_keys(sk, steps=[1], columns=False)
    with pytest.raises(rnsfhe.MissingKeyError, match="Galois"):
        ctx.rotate_rows(a, 2, gk)
    with pytest.raises(rnsfhe.MissingKeyError):
        ctx.rotate_columns(a, gk)
    with pytest.raises(rnsfhe.CiphertextError, match="3"):
        ctx.rotate_rows(ctx.multiply_no_relin(a, a), 1, gk)
    c = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=1024, levels=2, security="insecure"))
    csk, cpk = c.keygen()
    x = c.encrypt([0.5], cpk)
    with pytest.raises(rnsfhe.MissingKeyError):
        x * x
    with pytest.raises(rnsfhe.MissingKeyError):
        c.mean(x, 1)
