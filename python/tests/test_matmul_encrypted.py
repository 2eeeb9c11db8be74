"""Encrypted matrix times encrypted matrix (`CkksContext.matrix_product`, `matmul_encrypted`; Jiang,
Kim, Lauter and Song, CCS 2018): numpy's A @ B for d^2 equal to and below the slots, rectangular
shapes, real and complex, three levels down, and the refusals (d^2 beyond the slots, too few levels,
missing keys, another level, slot count or context)."""

import numpy as np
import pytest

import rnsfhe
from worst import worst_error


@pytest.fixture(scope="module")
def ckks():
    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=4096, levels=4, scale_bits=40,
                                                   first_modulus_bits=60,
                                                   special_moduli_bits=[60], security="insecure"),
                             seed=bytes(range(32)))
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    return ctx, sk, pk


@pytest.mark.parametrize("d,slots", [(4, None), (8, None), (5, None), (3, 256), (16, None)])
def test_matches_numpy(ckks, d, slots):
    ctx, sk, pk = ckks
    rng = np.random.default_rng(d)
    a, b = rng.uniform(-1, 1, (d, d)), rng.uniform(-1, 1, (d, d))
    prod = ctx.matrix_product(d, slots=slots)
    assert prod.d == d and prod.slots == (slots or 1 << (d * d - 1).bit_length())
    ctx.galois_keys(sk, steps=prod.rotation_steps)
    c = ctx.matmul_encrypted(ctx.encrypt(prod.pack(a), pk), ctx.encrypt(prod.pack(b), pk), prod)
    assert c.level == prod.level - 3 == ctx.max_level - 3
    got = prod.unpack(ctx.decrypt(c, sk))
    assert worst_error(got, a @ b) < 1e-5
    assert np.all(np.abs(ctx.decrypt(c, sk)[d * d:]) < 1e-5)  # the padding stays zero


def test_complex_and_a_product_built_on_the_spot(ckks):
    ctx, sk, pk = ckks
    rng = np.random.default_rng(9)
    a = rng.normal(size=(4, 4)) + 1j * rng.normal(size=(4, 4))
    b = rng.normal(size=(4, 4)) - 1j * rng.normal(size=(4, 4))
    prod = ctx.matrix_product(4, level=3)
    ctx.galois_keys(sk, steps=prod.rotation_steps)
    ca = ctx.drop_to_level(ctx.encrypt(prod.pack(a), pk), 3)
    cb = ctx.drop_to_level(ctx.encrypt(prod.pack(b), pk), 3)
    for p in [prod, 4]:  # d alone: encoded for the ciphertexts' level and slots
        c = ctx.matmul_encrypted(ca, cb, p)
        assert c.level == 0
        assert worst_error(prod.unpack(ctx.decrypt(c, sk, complex=True)), a @ b) < 1e-4


@pytest.mark.parametrize("shape", [(2, 8, 8), (3, 5, 7), (8, 8, 3), (4, 16, 16), (1, 6, 2)])
def test_rectangular_matches_numpy(ckks, shape):
    ctx, sk, pk = ckks
    d1, d2, d3 = shape
    rng = np.random.default_rng(d1 * 100 + d2 * 10 + d3)
    a, b = rng.uniform(-1, 1, (d1, d2)), rng.uniform(-1, 1, (d2, d3))
    prod = ctx.matrix_product(shape)
    assert prod.shape == shape and prod.d == max(shape)
    ctx.galois_keys(sk, steps=prod.rotation_steps)
    c = ctx.matmul_encrypted(ctx.encrypt(prod.pack(a), pk), ctx.encrypt(prod.pack(b), pk), shape)
    got = prod.unpack(ctx.decrypt(c, sk))
    assert got.shape == (d1, d3)
    assert worst_error(got, a @ b) < 1e-5


def test_refusals(ckks):
    ctx, sk, pk = ckks
    with pytest.raises(rnsfhe.ParameterError, match=r"d\^2 = 81"):
        ctx.matrix_product(9, slots=64)
    with pytest.raises(rnsfhe.ParameterError, match=r"d\^2 = 4096"):
        ctx.matrix_product(64)  # 4096 > N/2 = 2048 slots
    with pytest.raises(rnsfhe.LevelMismatchError, match=r"needs 3 more level"):
        ctx.matrix_product(4, level=2)
    prod = ctx.matrix_product(4)
    with pytest.raises(rnsfhe.LengthMismatchError, match="4 x 4"):
        prod.pack(np.ones((3, 4)))
    a = ctx.encrypt(prod.pack(np.eye(4)), pk)
    sk2, pk2 = ctx.keygen()  # no keys registered for this pair
    b2 = ctx.encrypt(prod.pack(np.eye(4)), pk2)
    with pytest.raises(rnsfhe.MissingKeyError):
        ctx.matmul_encrypted(b2, b2, prod)
    ctx.galois_keys(sk, steps=prod.rotation_steps[1:])  # one step short
    with pytest.raises(rnsfhe.MissingKeyError, match="Galois key"):
        ctx.matmul_encrypted(a, a, prod)
    ctx.galois_keys(sk, steps=prod.rotation_steps)
    with pytest.raises(rnsfhe.LevelMismatchError, match="the ciphertext of B"):
        ctx.matmul_encrypted(a, ctx.drop_to_level(a, 3), prod)
    with pytest.raises(rnsfhe.LengthMismatchError, match="slots"):
        ctx.matmul_encrypted(a, ctx.encrypt(np.ones(32), pk), prod)
    with pytest.raises(TypeError, match="CkksMatrixProduct"):
        ctx.matmul_encrypted(a, a, "four")
    with pytest.raises(TypeError, match=r"\(d1, d2, d3\)"):
        ctx.matrix_product((4, 4))
    with pytest.raises(rnsfhe.ParameterError, match="dimensions >= 1"):
        ctx.matrix_product((0, 4, 4))
    with pytest.raises(rnsfhe.LengthMismatchError, match=r"A \(2 x 8\) or B \(8 x 8\)"):
        ctx.matrix_product((2, 8, 8)).pack(np.ones((8, 2)))
    other = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=4096, levels=4, scale_bits=40,
                                                     security="insecure"))
    with pytest.raises(rnsfhe.ContextMismatchError):
        ctx.matmul_encrypted(a, a, other.matrix_product(4))
    assert np.allclose(prod.unpack(ctx.decrypt(ctx.matmul_encrypted(a, a, prod), sk)), np.eye(4),
                       atol=1e-5)
