"""Encrypted vectors by plaintext matrices (`CkksContext.matrix`, `CkksContext.matmul`): numpy's
M @ x for square, wide and tall, real and complex matrices, one matrix for many vectors, and the
refusals (too large, NaN, not 2-D, another level or context, missing Galois keys)."""

import numpy as np
import pytest

import rnsfhe

from worst import worst_error


@pytest.fixture(scope="module")
def ckks():
    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=4096, levels=3, scale_bits=40,
                                                   first_modulus_bits=60,
                                                   special_moduli_bits=[60], security="insecure"),
                             seed=bytes(range(32)))
    sk, pk = ctx.keygen()
    return ctx, sk, pk


def product(ctx, sk, pk, m, x, **kw):
    mat = ctx.matrix(m, **kw)
    ctx.galois_keys(sk, steps=mat.rotation_steps)  # registered for the key pair
    ct = ctx.encrypt(np.pad(x, (0, mat.slots - len(x))), pk)  # zeros up to the matrix's slots
    y = ctx.matmul(ct, mat)
    assert y.level == ct.level - 1
    return ctx.decrypt(y, sk, complex=np.iscomplexobj(m))[: m.shape[0]]


@pytest.mark.parametrize("shape", [(16, 16), (20, 30), (30, 20), (1, 64), (64, 1), (100, 128)])
def test_matches_numpy(ckks, shape):
    ctx, sk, pk = ckks
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    m = rng.uniform(-1, 1, shape)
    x = rng.uniform(-1, 1, shape[1])
    got = product(ctx, sk, pk, m, x)
    assert worst_error(got, m @ x) < 1e-6


def test_complex_matrix_and_sparse_entries(ckks):
    ctx, sk, pk = ckks
    rng = np.random.default_rng(7)
    m = rng.normal(size=(24, 24)) + 1j * rng.normal(size=(24, 24))
    m[rng.uniform(size=m.shape) < 0.7] = 0  # a sparse matrix: fewer diagonals
    x = rng.uniform(-1, 1, 24) + 1j * rng.uniform(-1, 1, 24)
    got = product(ctx, sk, pk, m, x)
    assert worst_error(got, m @ x) < 1e-5


def test_one_matrix_many_vectors_and_arrays(ckks):
    ctx, sk, pk = ckks
    rng = np.random.default_rng(8)
    m = rng.integers(-3, 4, (32, 32))  # integers are taken as reals
    mat = ctx.matrix(m)
    assert mat.shape == (32, 32) and mat.slots == 32 and mat.level == ctx.max_level
    ctx.galois_keys(sk, steps=mat.rotation_steps)
    for seed in range(3):
        x = np.random.default_rng(seed).uniform(-1, 1, 32)
        y = ctx.matmul(ctx.encrypt(x, pk), mat)
        assert worst_error(ctx.decrypt(y, sk)[:32], m @ x) < 1e-6
    # An array is encoded for the ciphertext's level and slots on the spot.
    x = rng.uniform(-1, 1, 32)
    low = ctx.drop_to_level(ctx.encrypt(x, pk), 2)
    y = ctx.matmul(low, m)
    assert y.level == 1 and worst_error(ctx.decrypt(y, sk)[:32], m @ x) < 1e-6


def test_refusals(ckks):
    ctx, sk, pk = ckks
    with pytest.raises(rnsfhe.LengthMismatchError):
        ctx.matrix(np.ones((3, ctx.slots + 1)))
    with pytest.raises(rnsfhe.LengthMismatchError):
        ctx.matrix(np.ones((40, 40)), slots=32)
    with pytest.raises(rnsfhe.OutOfRangeError, match="entry"):
        ctx.matrix(np.array([[1.0, np.nan]]))
    with pytest.raises(TypeError, match="2-D"):
        ctx.matrix(np.ones(8))
    with pytest.raises(TypeError, match="2-D"):
        ctx.matrix([["a", "b"]])
    with pytest.raises(ValueError, match="zero matrix"):
        ctx.matrix(np.zeros((4, 4)))
    mat = ctx.matrix(np.eye(8)[::-1])  # a permutation: needs its own rotations
    x = ctx.encrypt(np.arange(8.0), pk)
    sk2, pk2 = ctx.keygen()  # another key pair: no Galois keys registered for it
    with pytest.raises(rnsfhe.MissingKeyError):
        ctx.matmul(ctx.encrypt(np.arange(8.0), pk2), mat)
    ctx.galois_keys(sk, steps=mat.rotation_steps)
    assert worst_error(ctx.decrypt(ctx.matmul(x, mat), sk)[:8], np.arange(8.0)[::-1]) <= 1e-6
    with pytest.raises(rnsfhe.LevelMismatchError):
        ctx.matmul(ctx.drop_to_level(x, 1), mat)  # encoded for the top level
    with pytest.raises(rnsfhe.LengthMismatchError, match="padded with zeros"):
        ctx.matmul(ctx.encrypt(np.arange(4.0), pk), mat)  # 4 slots repeat: not zero-padded
    other = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=4096, levels=2, scale_bits=40,
                                                     security="insecure"))
    with pytest.raises(rnsfhe.ContextMismatchError):
        ctx.matmul(x, other.matrix(np.eye(8)))


# Batches: B vectors per ciphertext times one matrix, in one transform.

@pytest.mark.parametrize("layout", ["rows", "interleaved"])
@pytest.mark.parametrize("batch,shape", [(16, (32, 32)), (8, (20, 30)), (4, (60, 17))])
def test_batch_matches_numpy(ckks, layout, batch, shape):
    ctx, sk, pk = ckks
    rng = np.random.default_rng(batch * 100 + shape[0])
    m = rng.uniform(-1, 1, shape)
    x = rng.uniform(-1, 1, (batch, shape[1]))  # one vector per row
    mat = ctx.matrix(m, batch=batch, layout=layout)
    assert (mat.batch, mat.layout) == (batch, layout)
    ctx.galois_keys(sk, steps=mat.rotation_steps)
    y = ctx.matmul(ctx.encrypt(mat.pack(x), pk), mat)
    got = mat.unpack(ctx.decrypt(y, sk))
    assert got.shape == (batch, shape[0])
    assert worst_error(got, x @ m.T) < 1e-6


def test_row_major_batch_is_numpys_ravel(ckks):
    """Without pack: a ciphertext of X.ravel() for X of shape (B, n) and a square n x n matrix;
    any batch size (here 6) and any n (here 24)."""
    ctx, sk, pk = ckks
    rng = np.random.default_rng(3)
    m = rng.uniform(-1, 1, (24, 24))
    x = rng.uniform(-1, 1, (6, 24))
    mat = ctx.matrix(m, batch=6)
    assert mat.stride == 24 and mat.slots == 256
    ctx.galois_keys(sk, steps=mat.rotation_steps)
    y = ctx.matmul(ctx.encrypt(np.pad(x.ravel(), (0, 256 - x.size)), pk), mat)
    got = ctx.decrypt(y, sk)[: x.size].reshape(6, 24)
    assert worst_error(got, x @ m.T) < 1e-6


def test_interleaved_batch_costs_one_product(ckks):
    """16 vectors of 64 interleaved need the rotations of one 64 x 64 product on 64 slots."""
    ctx, _, _ = ckks
    m = np.random.default_rng(4).uniform(-1, 1, (64, 64))
    one = ctx.matrix(m)
    batched = ctx.matrix(m, batch=16, layout="interleaved")
    assert batched.slots == 1024 and batched.stride == 64
    assert len(batched.rotation_steps) == len(one.rotation_steps)
    assert all(s % 16 == 0 for s in batched.rotation_steps)


def test_two_layer_network_on_a_batch(ckks):
    """A batch of 16 inputs through dense(64 -> 32), x^2, dense(32 -> 10), encrypted, against numpy:
    both layers keep the layout, so the second multiplies the first's output as it is."""
    ctx, sk, pk = ckks
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, (16, 64))
    w1 = rng.uniform(-0.2, 0.2, (32, 64))
    w2 = rng.uniform(-1, 1, (10, 32))
    ctx.relin_key(sk)
    for layout in ["rows", "interleaved"]:
        l1 = ctx.matrix(w1, batch=16, layout=layout, stride=64 if layout == "rows" else None)
        l2 = ctx.matrix(w2, batch=16, layout=layout, stride=64 if layout == "rows" else None,
                        slots=l1.slots, level=l1.level - 2)
        ctx.galois_keys(sk, steps=sorted(set(l1.rotation_steps) | set(l2.rotation_steps)))
        h = ctx.matmul(ctx.encrypt(l1.pack(x), pk), l1)
        y = ctx.matmul(h * h, l2)
        assert y.level == ctx.max_level - 3
        want = ((x @ w1.T) ** 2) @ w2.T
        assert worst_error(l2.unpack(ctx.decrypt(y, sk)), want) < 1e-5, layout


def test_batch_refusals(ckks):
    ctx, _, _ = ckks
    m = np.ones((8, 8))
    with pytest.raises(rnsfhe.ParameterError, match="power of two"):
        ctx.matrix(m, batch=3, layout="interleaved")
    with pytest.raises(ValueError, match="layout must be"):
        ctx.matrix(m, batch=2, layout="columns")
    with pytest.raises(ValueError, match="stride"):
        ctx.matrix(m, batch=2, layout="interleaved", stride=8)
    with pytest.raises(rnsfhe.LengthMismatchError, match="more than"):
        ctx.matrix(m, batch=ctx.slots)  # 8 x N/2 slots
    with pytest.raises(rnsfhe.LengthMismatchError, match="stride"):
        ctx.matrix(m, batch=4, stride=8, slots=16)
    with pytest.raises(rnsfhe.LengthMismatchError):
        ctx.matrix(np.ones((8, 12)), batch=2, stride=10)  # cols beyond the stride
    mat = ctx.matrix(m, batch=4, layout="interleaved")
    with pytest.raises(rnsfhe.LengthMismatchError, match=r"\(4, 8\) array"):
        mat.pack(np.ones((3, 8)))
    with pytest.raises(rnsfhe.LengthMismatchError):
        mat.unpack(np.ones(mat.slots - 1))
