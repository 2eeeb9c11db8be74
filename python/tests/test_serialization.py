"""Bytes and pickles: every object round-trips; corrupted, truncated and foreign bytes raise."""

import pickle

import numpy as np
import pytest

import rnsfhe

from worst import worst_error


def test_bfv_round_trips(bfv):
    ctx, sk, pk, rlk, gk = bfv
    x = np.arange(1024) % 50
    a = ctx.encrypt(x, pk)
    seeded = ctx.encrypt(x, sk)
    assert len(seeded.to_bytes()) * 2 < len(a.to_bytes()) + 200  # half size (seeded c1)
    for obj in [a, seeded, a * a]:
        back = ctx.ciphertext_from_bytes(obj.to_bytes())
        assert np.array_equal(ctx.decrypt(back, sk), ctx.decrypt(obj, sk))
        back = pickle.loads(pickle.dumps(obj))
        assert np.array_equal(ctx.decrypt(back, sk), ctx.decrypt(obj, sk))
    pt = ctx.encode(x)
    assert ctx.plaintext_from_bytes(pt.to_bytes()) == pt
    assert pickle.loads(pickle.dumps(pt)) == pt
    p = ctx.params
    assert rnsfhe.BfvParameters.from_bytes(p.to_bytes()) == p
    assert pickle.loads(pickle.dumps(p)) == p
    assert hash(pickle.loads(pickle.dumps(p))) == hash(p)
    ctx2 = pickle.loads(pickle.dumps(ctx))
    assert ctx2.params == p


def test_keys_round_trip_and_work(bfv):
    ctx, sk, pk, rlk, gk = bfv
    sk2 = ctx.secret_key_from_bytes(sk.to_bytes(allow_secret=True))
    pk2 = pickle.loads(pickle.dumps(pk))
    rlk2 = ctx.relin_key_from_bytes(rlk.to_bytes())
    gk2 = pickle.loads(pickle.dumps(gk))
    assert sorted(gk2.elements) == sorted(gk.elements)
    a = ctx.encrypt([1, 2, 3], pk2)
    b = ctx.rotate_rows(ctx.multiply(a, a, rlk2), 1, gk2)
    assert np.array_equal(ctx.decrypt(b, sk2)[:2], [4, 9])
    assert "SecretKey(" in repr(sk) and "BfvParameters" in repr(sk) and sk.key_id in repr(sk)
    assert sk2.key_id == sk.key_id == pk2.key_id == rlk2.key_id == gk2.key_id == b.key_id


def test_secret_keys_leave_the_process_only_on_request(bfv):
    import copy
    ctx, sk, *_ = bfv
    with pytest.raises(rnsfhe.SecretKeyExportError, match="allow_secret=True"):
        sk.to_bytes()
    with pytest.raises(rnsfhe.SecretKeyExportError):
        pickle.dumps(sk)
    assert copy.deepcopy(sk) is sk and copy.copy(sk) is sk
    assert ctx.secret_key_from_bytes(sk.to_bytes(allow_secret=True)).key_id == sk.key_id


def test_ckks_round_trips(ckks):
    ctx, sk, pk, rlk, gk = ckks
    x = np.linspace(-1, 1, 1024)
    a = ctx.encrypt(x, pk)
    for obj in [a, a * a, ctx.drop_to_level(a, 1)]:
        back = ctx.ciphertext_from_bytes(obj.to_bytes())
        assert (back.level, back.scale, back.slots) == (obj.level, obj.scale, obj.slots)
        assert worst_error(ctx.decrypt(back, sk), ctx.decrypt(obj, sk)) == 0.0
        back = pickle.loads(pickle.dumps(obj))
        assert worst_error(ctx.decrypt(back, sk), ctx.decrypt(obj, sk)) == 0.0
    pt = ctx.encode(x, level=3)
    back = pickle.loads(pickle.dumps(pt))
    assert back.level == 3 and worst_error(ctx.decode(back), x) < 1e-6
    assert worst_error(ctx.decode(ctx.plaintext_from_bytes(pt.to_bytes())), x) < 1e-6
    p = ctx.params
    assert rnsfhe.CkksParameters.from_bytes(p.to_bytes()) == p
    assert pickle.loads(pickle.dumps(p)) == p
    assert type(ctx.secret_key_from_bytes(sk.to_bytes(allow_secret=True))) is type(sk)
    for key, load in [(pk, ctx.public_key_from_bytes), (rlk, ctx.relin_key_from_bytes),
                      (gk, ctx.galois_keys_from_bytes)]:
        assert type(load(key.to_bytes())) is type(key)
        assert type(pickle.loads(pickle.dumps(key))) is type(key)


def test_corrupted_and_truncated_bytes_raise(bfv, ckks):
    ctx, sk, pk, rlk, gk = bfv
    data = ctx.encrypt([1, 2], pk).to_bytes()
    with pytest.raises(rnsfhe.SerializationError, match="magic"):
        ctx.ciphertext_from_bytes(b"XXXX" + data[4:])
    with pytest.raises(rnsfhe.SerializationError, match="version"):
        ctx.ciphertext_from_bytes(data[:4] + b"\x09\x00" + data[6:])
    with pytest.raises(rnsfhe.SerializationError, match="kind"):
        ctx.plaintext_from_bytes(data)
    for cut in [0, 3, 10, 15, 40, len(data) // 2, len(data) - 1]:
        with pytest.raises(rnsfhe.RnsfheError):
            ctx.ciphertext_from_bytes(data[:cut])
    with pytest.raises(rnsfhe.SerializationError):
        ctx.ciphertext_from_bytes(data + b"\x00")
    bad = bytearray(data)
    bad[40:48] = b"\xff" * 8  # a residue above its modulus: the checksum sees it first
    with pytest.raises(rnsfhe.SerializationError, match="checksum"):
        ctx.ciphertext_from_bytes(bytes(bad))
    with pytest.raises(rnsfhe.SerializationError, match="version 1"):
        ctx.ciphertext_from_bytes(data[:4] + b"\x01\x00" + data[6:])
    for loader in [ctx.secret_key_from_bytes, ctx.public_key_from_bytes, ctx.relin_key_from_bytes,
                   ctx.galois_keys_from_bytes, rnsfhe.BfvParameters.from_bytes,
                   rnsfhe.CkksParameters.from_bytes]:
        with pytest.raises(rnsfhe.RnsfheError):
            loader(b"RNSF\x01\x00")
    with pytest.raises(TypeError):
        ctx.ciphertext_from_bytes("not bytes")
    cctx = ckks[0]
    with pytest.raises(rnsfhe.SerializationError, match="kind"):
        cctx.ciphertext_from_bytes(data)
    # Same format, another parameter set.
    other = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=1024, plain_modulus=65537,
                                                   moduli_bits=[50, 50, 50], special_moduli_bits=[50],
                                                   security="insecure"))
    # The typed ParameterMismatch names both parameter fingerprints.
    with pytest.raises(rnsfhe.ContextMismatchError, match="belongs to parameter set [0-9a-f]{16}"):
        other.ciphertext_from_bytes(data)
    with pytest.raises(rnsfhe.ContextMismatchError):
        other.secret_key_from_bytes(sk.to_bytes(allow_secret=True))


def test_pickle_of_a_corrupted_payload_raises(bfv):
    ctx, sk, pk, *_ = bfv
    from rnsfhe._rnsfhe import _restore
    with pytest.raises(rnsfhe.SerializationError):
        _restore("BfvCiphertext", ctx.params.to_bytes(), b"RNSF")
    with pytest.raises(rnsfhe.SerializationError):
        _restore("bfv:Nonsense", ctx.params.to_bytes(), b"")
    with pytest.raises(rnsfhe.RnsfheError):
        _restore("BfvCiphertext", b"garbage", b"")


def test_from_bytes_on_every_class(bfv, ckks):
    for ctx, sk, pk, rlk, gk in [bfv, ckks]:
        ct = ctx.encrypt([1, 2], pk)
        pt = ctx.encode([3, 4])
        assert type(ctx).from_bytes(ctx.to_bytes()).params == ctx.params
        assert type(ct).from_bytes(ctx, ct.to_bytes()).to_bytes() == ct.to_bytes()
        assert type(pt).from_bytes(ctx, pt.to_bytes()).to_bytes() == pt.to_bytes()
        for key in [pk, rlk, gk]:
            back = type(key).from_bytes(ctx, key.to_bytes())
            assert type(back) is type(key) and back.to_bytes() == key.to_bytes()
        back = type(sk).from_bytes(ctx, sk.to_bytes(allow_secret=True))
        assert back.key_id == sk.key_id
    with pytest.raises(TypeError, match="BfvContext or a CkksContext"):
        rnsfhe.SecretKey.from_bytes("ctx", b"")
    with pytest.raises(rnsfhe.SerializationError, match="kind"):
        rnsfhe.PublicKey.from_bytes(bfv[0], bfv[1].to_bytes(allow_secret=True))
    with pytest.raises(rnsfhe.RnsfheError):
        rnsfhe.BfvContext.from_bytes(b"RNSF")


def test_protocol_5_pickles_carry_the_payload_out_of_band(bfv, ckks):
    """Ciphertexts and keys give their bytes as one out-of-band buffer (zero-copy frames for Dask);
    the in-band pickle holds only the class and the parameter set."""
    for ctx, sk, pk, rlk, gk in [bfv, ckks]:
        seeded = ctx.encrypt([1, 2, 3], sk)
        for obj in [ctx.encrypt([1, 2, 3], pk), seeded, pk, rlk, gk]:
            buffers = []
            data = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
            assert len(buffers) == 1
            assert buffers[0].raw().nbytes == len(obj.to_bytes())
            assert len(data) < len(ctx.params.to_bytes()) + 200
            for kind in [bytes, bytearray, memoryview]:
                back = pickle.loads(data, buffers=[kind(buffers[0].raw())])
                assert type(back) is type(obj) and back.to_bytes() == obj.to_bytes()
            inband = pickle.dumps(obj, protocol=5)
            assert pickle.loads(inband).to_bytes() == obj.to_bytes()
            assert pickle.loads(pickle.dumps(obj, protocol=2)).to_bytes() == obj.to_bytes()
    with pytest.raises(TypeError):
        from rnsfhe._rnsfhe import _restore
        _restore("BfvCiphertext", bfv[0].params.to_bytes(), 12)
