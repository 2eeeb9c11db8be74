"""rnsfhe.multiparty's reference polynomials (``Crp``): one expansion serves a party's shares and
the last step, with the same shares and keys as the ``Crs``; a ``Crp`` of another instance is
refused. PCKS's stated receiver secret (``ReceiverSecret``)."""

import pickle

import numpy as np
import pytest

import rnsfhe
from rnsfhe import multiparty as mpc

from test_multiparty import N, Session, bfv_ctx, ckks_ctx, values


@pytest.fixture(scope="module")
def bfv():
    return Session(bfv_ctx())


def test_ckg_with_crp_is_the_crs_key():
    ctx = ckks_ctx()
    crs = mpc.Crs(bytes(range(32)))
    parties = [mpc.Party(ctx, i, seed=bytes([i]) * 32) for i in range(N)]
    crp = mpc.ckg_crp(ctx, crs)
    assert crp.crs.id == crs.id and crp.elements == []
    shares = [mpc.ckg_share(p, crp) for p in parties]
    assert [s.to_bytes() for s in shares] == [mpc.ckg_share(p, crs).to_bytes() for p in parties]
    agg = mpc.aggregate(ctx, mpc.ckg_round(ctx, crs), range(N), shares)
    pk = mpc.ckg_public_key(ctx, crp, agg, range(N))
    assert pk.to_bytes() == mpc.ckg_public_key(ctx, crs, agg, range(N)).to_bytes()
    with pytest.raises(TypeError):
        pickle.dumps(crp)


def test_rkg_and_rtg_with_crp(bfv):
    """Every share of RKG round 1 and RTG, and the Galois keys, from one expansion each: the same
    bytes as from the Crs; the keys multiply and rotate under the collective secret."""
    ctx, crs, all_ = bfv.ctx, bfv.crs, list(range(N))
    crp = mpc.rkg_crp(ctx, crs)
    pairs = [mpc.rkg_share_round1(p, crp) for p in bfv.parties]
    r1 = mpc.aggregate(ctx, mpc.rkg_round1(ctx, crs), all_, [s for s, _ in pairs])
    r2 = mpc.aggregate(ctx, mpc.rkg_round2(r1), all_,
                       [mpc.rkg_share_round2(p, e, r1) for p, (_, e) in zip(bfv.parties, pairs)])
    mpc.rkg_relin_key(ctx, r1, r2, all_, bfv.pk)
    with pytest.raises(ValueError, match="level"):
        mpc.rkg_share_round1(bfv.parties[0], crp, level=crp.level - 1)

    elements = mpc.galois_elements(ctx, [1])
    crp = mpc.rtg_crp(ctx, crs, elements)
    assert crp.elements == elements
    shares = [mpc.rtg_share(p, crp) for p in bfv.parties]
    agg = mpc.aggregate(ctx, mpc.rtg_round(ctx, crs, elements), all_, shares)
    gk = mpc.rtg_galois_keys(ctx, crp, agg, all_, bfv.pk)
    assert gk.to_bytes() == mpc.rtg_galois_keys(ctx, crs, agg, all_, bfv.pk).to_bytes()
    with pytest.raises(ValueError, match="elements"):
        mpc.rtg_share(bfv.parties[0], crp, mpc.galois_elements(ctx, [2]))
    with pytest.raises(TypeError):
        mpc.rtg_share(bfv.parties[0], crs)

    a, b = values(seed=1), values(seed=2)
    ct = ctx.encrypt(a, bfv.pk) * ctx.encrypt(b, bfv.pk)
    ct = ct.rotate_rows(1) if hasattr(ct, "rotate_rows") else ctx.rotate_rows(ct, 1)
    got = bfv.decrypt(ct)
    half = ctx.params.degree // 2
    want = np.zeros(ctx.params.degree, dtype=np.int64)
    want[:16] = a * b % ctx.params.plain_modulus
    assert np.array_equal(got[:half], np.roll(want[:half], -1))


def test_crp_of_another_instance_is_refused(bfv):
    ctx, crs = bfv.ctx, bfv.crs
    other = mpc.Crs(bytes([9]) * 32)
    agg = mpc.aggregate(ctx, mpc.ckg_round(ctx, crs), range(N),
                        [mpc.ckg_share(p, crs) for p in bfv.parties])
    with pytest.raises(rnsfhe.RnsfheError, match="reference string"):
        mpc.ckg_public_key(ctx, mpc.ckg_crp(ctx, other), agg, range(N))
    with pytest.raises(rnsfhe.RnsfheError, match="another key"):
        mpc.ckg_public_key(ctx, mpc.rkg_crp(ctx, crs), agg, range(N))
    # A Crp of an equal context is the same polynomials; of other parameters, refused.
    assert mpc.ckg_share(bfv.parties[0], mpc.ckg_crp(bfv_ctx(), crs)).to_bytes() == \
        mpc.ckg_share(bfv.parties[0], crs).to_bytes()
    foreign = rnsfhe.BfvContext(rnsfhe.BfvParameters(1024, 12289, moduli_bits=[60, 60],
                                                     special_moduli_bits=[60],
                                                     security="insecure"))
    with pytest.raises(rnsfhe.RnsfheError, match="Crp"):
        mpc.ckg_share(bfv.parties[0], mpc.ckg_crp(foreign, crs))
    elements = mpc.galois_elements(ctx, [1])
    shares = [mpc.rtg_share(p, crs, elements) for p in bfv.parties]
    agg = mpc.aggregate(ctx, mpc.rtg_round(ctx, crs, elements), range(N), shares)
    for bad, what in [(mpc.rtg_crp(ctx, other, elements), "reference string"),
                      (mpc.rtg_crp(ctx, crs, mpc.galois_elements(ctx, [3])), "Galois elements"),
                      (mpc.rtg_crp(ctx, crs, elements, 0), "level")]:
        with pytest.raises(rnsfhe.RnsfheError, match=what):
            mpc.rtg_galois_keys(ctx, bad, agg, range(N), bfv.pk)


def test_public_key_switch_states_the_receiver(bfv):
    """PCKS to the collective key of another session, stated as such: that session's parties
    decrypt it. The statement is required; refused as `single()` for the ciphertext's own
    collective key, and for impossible statements."""
    ctx = bfv.ctx
    receiver = Session(ctx, seed=bytes([7]) * 32, salt=50)
    a = values(seed=5)
    ct = ctx.encrypt(a, bfv.pk)
    sm = mpc.Smudging.with_sigma(2.0 ** 20)
    shares = [mpc.pcks_share(p, receiver.pk, ct, bfv.crs, sm, allow_weak_smudging=True)
              for p in bfv.parties]
    agg = mpc.aggregate(ctx, mpc.pcks_round(ctx, bfv.crs, ct, receiver.pk), range(N), shares)
    out = mpc.public_key_switch(ctx, bfv.crs, ct, agg, range(N), receiver.pk, sm,
                                mpc.ReceiverSecret.collective(N))
    assert out.key_id == receiver.pk.key_id
    assert np.array_equal(receiver.decrypt(out)[:16], a)
    with pytest.raises(TypeError):
        mpc.public_key_switch(ctx, bfv.crs, ct, agg, range(N), receiver.pk, sm)

    shares = [mpc.pcks_share(p, bfv.pk, ct, bfv.crs, sm, allow_weak_smudging=True)
              for p in bfv.parties]
    agg = mpc.aggregate(ctx, mpc.pcks_round(ctx, bfv.crs, ct, bfv.pk), range(N), shares)
    with pytest.raises(rnsfhe.RnsfheError, match="own collective key pair"):
        mpc.public_key_switch(ctx, bfv.crs, ct, agg, range(N), bfv.pk, sm,
                              mpc.ReceiverSecret.single())
    for bad in [mpc.ReceiverSecret.collective(0), mpc.ReceiverSecret.stated(float("nan"), 3.2)]:
        with pytest.raises(rnsfhe.RnsfheError, match="PCKS receiver"):
            mpc.public_key_switch(ctx, bfv.crs, ct, agg, range(N), bfv.pk, sm, bad)
