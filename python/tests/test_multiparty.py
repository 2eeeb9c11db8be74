"""rnsfhe.multiparty: every protocol step against the clear values (BFV, BGV, CKKS), threshold
decryption by every pair of three parties, public-key switching, and every refusal kind."""

import pickle

import numpy as np
import pytest

import rnsfhe
from rnsfhe import multiparty as mpc

from worst import worst_error

N = 3
SEED = bytes(range(32))


def bfv_ctx():
    return rnsfhe.BfvContext(rnsfhe.BfvParameters(1024, 12289, moduli_bits=[60, 60, 60],
                                                  special_moduli_bits=[60], security="insecure"))


def bgv_ctx():
    return rnsfhe.BgvContext(rnsfhe.BgvParameters(1024, 12289, moduli_bits=[60, 60, 60],
                                                  special_moduli_bits=[60], security="insecure"))


def ckks_ctx():
    return rnsfhe.CkksContext(rnsfhe.CkksParameters(1024, 2, 50, first_modulus_bits=60,
                                                    special_moduli_bits=[60], security="insecure"))


class Session:
    """N parties of one context with a collective public key (CKG over bytes)."""

    def __init__(self, ctx, seed=SEED, salt=0):
        self.ctx, self.crs = ctx, mpc.Crs(seed)
        self.parties = [mpc.Party(ctx, i, seed=bytes([i + salt]) * 32) for i in range(N)]
        agg = mpc.Aggregator(ctx, mpc.ckg_round(ctx, self.crs), list(range(N)))
        for p in self.parties:
            agg.add_bytes(mpc.ckg_share(p, self.crs).to_bytes())
        self.pk = mpc.ckg_public_key(ctx, self.crs, agg.finish(), list(range(N)))
        for p in self.parties:
            p.join(self.pk)

    def relin(self):
        ctx, crs, all_ = self.ctx, self.crs, list(range(N))
        pairs = [mpc.rkg_share_round1(p, crs) for p in self.parties]
        r1 = mpc.aggregate(ctx, mpc.rkg_round1(ctx, crs), all_, [s for s, _ in pairs])
        r2 = mpc.aggregate(ctx, mpc.rkg_round2(r1), all_,
                           [mpc.rkg_share_round2(p, e, r1) for p, (_, e) in zip(self.parties, pairs)])
        return mpc.rkg_relin_key(ctx, r1, r2, all_, self.pk)

    def decrypt(self, ct, parties=None, smudging=None, group=None, noise_log2=None, **kw):
        """Collective decryption; without ``smudging``, a weak test one (sigma = 2^20, opted in by
        name: these tests check values, not what a decryption hides)."""
        parties = parties or self.parties
        weak = smudging is None
        smudging = smudging or mpc.Smudging.with_sigma(2.0 ** 20)
        shares = [mpc.cks_share(p, ct, self.crs, smudging, noise_log2=noise_log2,
                                allow_weak_smudging=weak) for p in parties]
        idx = [p.index for p in parties]
        agg = mpc.aggregate(self.ctx, mpc.cks_round(self.ctx, self.crs, ct, group), idx, shares)
        return mpc.decrypt(self.ctx, self.crs, ct, agg, idx, smudging, **kw)


@pytest.fixture(scope="module")
def bfv():
    return Session(bfv_ctx())


def values(k=16, seed=0, hi=100):
    return np.random.default_rng(seed).integers(0, hi, k)


@pytest.mark.parametrize("make", [bfv_ctx, bgv_ctx], ids=["bfv", "bgv"])
def test_collective_keys_integer(make):
    s = Session(make())
    s.relin()
    a, b = values(seed=1), values(seed=2)
    ca, cb = s.ctx.encrypt(a, s.pk), s.ctx.encrypt(b, s.pk)
    assert np.array_equal(s.decrypt(ca + cb)[:16], a + b)
    assert np.array_equal(s.decrypt(ca * cb)[:16], a * b % 12289)
    # The sum of the parties' secrets decrypts the collective key's ciphertexts.
    elements = mpc.galois_elements(s.ctx, [1])
    agg = mpc.aggregate(s.ctx, mpc.rtg_round(s.ctx, s.crs, elements), range(N),
                        [mpc.rtg_share(p, s.crs, elements) for p in s.parties])
    gk = mpc.rtg_galois_keys(s.ctx, s.crs, agg, range(N), s.pk)
    assert gk.key_id == s.pk.key_id
    rotated = s.decrypt(ca.rotate_rows(1))
    half = s.ctx.slots // 2
    full = np.zeros(half, dtype=np.int64)
    full[:16] = a
    assert np.array_equal(rotated[:half], np.roll(full, -1))


def test_ckks_collective_keys():
    s = Session(ckks_ctx())
    s.relin()
    x = np.linspace(-1, 1, 8)
    cx = s.ctx.encrypt(x, s.pk)
    smudging = mpc.Smudging(10, 1024)  # lambda = 40: sigma = 2^35, the scale is 2^50
    got = s.decrypt(cx * cx, smudging=smudging, noise_log2=10)[:8]  # a stated error bound
    assert worst_error(got.real, x * x) < 1e-3


def test_threshold_every_pair(bfv):
    ctx, crs = bfv.ctx, bfv.crs
    group = mpc.Group(2, [0, 1, 2])
    polys = [mpc.shamir_polynomial(p, 2) for p in bfv.parties]
    secrets = [mpc.threshold_secret(ctx, crs, group, j,
                                    [poly.share_for(crs, group, j).to_bytes(allow_secret=True)
                                     for poly in polys]) for j in range(N)]
    a = values(seed=3)
    ct = ctx.encrypt(a, bfv.pk)
    for pair in ([0, 1], [0, 2], [1, 2]):
        present = [secrets[j].combine(pair) for j in pair]
        got = bfv.decrypt(ct, present, group=mpc.Group(2, pair))
        assert np.array_equal(got[:16], a)
    with pytest.raises(rnsfhe.ParameterError):
        secrets[0].combine([0])  # one party alone is below t
    # Shamir shares are secret: no bytes without allow_secret, no pickling.
    with pytest.raises(rnsfhe.SecretKeyExportError):
        polys[0].share_for(crs, group, 1).to_bytes()
    with pytest.raises(rnsfhe.SecretKeyExportError):
        secrets[0].to_bytes()
    with pytest.raises(rnsfhe.SecretKeyExportError):
        pickle.dumps(bfv.parties[0])


def test_public_key_switch(bfv):
    ctx = bfv.ctx
    sk_r, pk_r = ctx.keygen()
    a = values(seed=4)
    ct = ctx.encrypt(a, bfv.pk)
    sm = mpc.Smudging.with_sigma(2.0 ** 20)
    shares = [mpc.pcks_share(p, pk_r, ct, bfv.crs, sm, allow_weak_smudging=True)
              for p in bfv.parties]
    agg = mpc.aggregate(ctx, mpc.pcks_round(ctx, bfv.crs, ct, pk_r), range(N), shares)
    out = mpc.public_key_switch(ctx, bfv.crs, ct, agg, range(N), pk_r, sm,
                                mpc.ReceiverSecret.single())
    assert out.key_id == pk_r.key_id
    assert np.array_equal(ctx.decrypt(out, sk_r)[:16], a)


def test_key_switch(bfv):
    """CKS from the session's collective key to another one: the target parties' collective
    decryption gives the values back, the session's key pair no longer decrypts it."""
    ctx = bfv.ctx
    other = Session(ctx, seed=bytes([7]) * 32, salt=N)
    a = values(seed=5)
    ct = ctx.encrypt(a, bfv.pk)
    sm = mpc.Smudging.with_sigma(2.0 ** 20)
    shares = [mpc.cks_share(p, ct, bfv.crs, sm, target=q, allow_weak_smudging=True)
              for p, q in zip(bfv.parties, other.parties)]
    rnd = mpc.cks_round(ctx, bfv.crs, ct, target=other.pk)
    agg = mpc.aggregate(ctx, rnd, range(N), shares)
    out = mpc.key_switch(ctx, bfv.crs, ct, agg, range(N), other.pk, sm)
    assert out.key_id == other.pk.key_id
    assert np.array_equal(other.decrypt(out)[:16], a)
    with pytest.raises(rnsfhe.ShareRefusedError):
        mpc.aggregate(ctx, mpc.cks_round(ctx, bfv.crs, ct), range(N), shares)


def test_share_attributes_and_bytes(bfv):
    s = mpc.ckg_share(bfv.parties[1], bfv.crs)
    assert (s.protocol, s.round, s.party, s.crs_id) == ("ckg", 1, 1, bfv.crs.id)
    back = mpc.Share.from_bytes(bfv.ctx, s.to_bytes())
    assert back.to_bytes() == s.to_bytes() and back.parties == [1]
    with pytest.raises(TypeError):
        pickle.dumps(s)
    assert pickle.loads(pickle.dumps(bfv.crs)).id == bfv.crs.id


def refusal(fn):
    with pytest.raises(rnsfhe.ShareRefusedError) as e:
        fn()
    return e.value


def test_refusals(bfv):
    ctx, crs = bfv.ctx, bfv.crs
    agg = mpc.Aggregator(ctx, mpc.ckg_round(ctx, crs), [0, 1, 2])
    share = mpc.ckg_share(bfv.parties[0], crs)
    agg.add(share)
    assert refusal(lambda: agg.add_bytes(share.to_bytes())).fault == "duplicate"
    stale = mpc.ckg_share(bfv.parties[1], mpc.Crs(bytes(32)))  # another session
    assert refusal(lambda: agg.add(stale)).fault == "stale"
    bad = bytearray(mpc.ckg_share(bfv.parties[1], crs).to_bytes())
    bad[len(bad) // 2] ^= 1
    assert refusal(lambda: agg.add_bytes(bytes(bad))).fault == "corrupted"
    other = Session(bgv_ctx())
    foreign = mpc.ckg_share(other.parties[1], other.crs)
    assert refusal(lambda: agg.add(foreign)).fault == "foreign"
    assert refusal(lambda: mpc.Share.from_bytes(ctx, foreign.to_bytes())).fault == "foreign"
    stranger = mpc.Party(ctx, 7)
    assert refusal(lambda: agg.add(mpc.ckg_share(stranger, crs))).fault == "unexpected"
    assert agg.missing == [1, 2]
    e = refusal(agg.finish)
    assert e.fault == "missing" and e.share
    # A decryption share of another ciphertext is stale for this one.
    a, b = ctx.encrypt(values(seed=5), bfv.pk), ctx.encrypt(values(seed=6), bfv.pk)
    sm = mpc.Smudging.with_sigma(2.0 ** 20)
    agg = mpc.Aggregator(ctx, mpc.cks_round(ctx, crs, a), [0, 1, 2])
    share_b = mpc.cks_share(bfv.parties[0], b, crs, sm, allow_weak_smudging=True)
    assert refusal(lambda: agg.add(share_b)).fault == "stale"
    assert issubclass(rnsfhe.ShareRefusedError, rnsfhe.RnsfheError)


def test_partial_aggregation(bfv):
    ctx, crs = bfv.ctx, bfv.crs
    left = mpc.Aggregator(ctx, mpc.ckg_round(ctx, crs), [0, 1])
    for p in bfv.parties[:2]:
        left.add(mpc.ckg_share(p, crs))
    part = left.partial()
    assert part.parties == [0, 1] and part.party is None
    agg = mpc.Aggregator(ctx, mpc.ckg_round(ctx, crs), [0, 1, 2])
    agg.add_bytes(part.to_bytes())
    agg.add(mpc.ckg_share(bfv.parties[2], crs))
    assert agg.is_complete
    assert mpc.ckg_public_key(ctx, crs, agg.finish(), [0, 1, 2]).key_id == bfv.pk.key_id


def test_stubs_cover_multiparty():
    import ast
    from pathlib import Path

    tree = ast.parse(Path(rnsfhe.__file__).with_name("_rnsfhe.pyi").read_text())
    classes = {n.name: {f.name for f in n.body if isinstance(f, ast.FunctionDef)}
               for n in tree.body if isinstance(n, ast.ClassDef)}
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    for name in ["Crs", "Group", "Round", "Share", "Aggregator", "Smudging", "Party",
                 "ShamirPolynomial", "ThresholdSecret"]:
        public = {m for m in dir(getattr(mpc, name)) if not m.startswith("_")}
        assert public - classes[name] == set(), name
    for name in mpc.__all__:
        obj = getattr(mpc, name)
        assert obj.__doc__ or name in classes, name
        if callable(obj) and not isinstance(obj, type) and obj.__module__ != mpc.__name__:
            assert name in functions, name


def test_secrets_stay_and_load(bfv):
    ctx, crs = bfv.ctx, bfv.crs
    group = mpc.Group(2, [0, 1, 2])
    polys = [mpc.shamir_polynomial(p, 2) for p in bfv.parties]
    secret = mpc.threshold_secret(ctx, crs, group, 1, [q.share_for(crs, group, 1) for q in polys])
    back = mpc.ThresholdSecret.from_bytes(ctx, secret.to_bytes(allow_secret=True))
    assert (back.index, back.group.members, back.group.t) == (1, [0, 1, 2], 2)
    for obj in (secret, polys[0], mpc.rkg_share_round1(bfv.parties[0], crs)[1]):
        with pytest.raises(rnsfhe.SecretKeyExportError):
            pickle.dumps(obj)
    # A party from a given secret key gives the same CKG share as the party of that key.
    sk = bfv.parties[2].secret_key()
    twin = mpc.Party(ctx, 2, secret_key=sk)
    assert mpc.ckg_share(twin, crs).to_bytes() == mpc.ckg_share(bfv.parties[2], crs).to_bytes()
    # Corrupted bytes are refused as such by Share.from_bytes too; a finished aggregator is spent.
    bad = bytearray(mpc.ckg_share(twin, crs).to_bytes())
    bad[-3] ^= 0x10
    assert refusal(lambda: mpc.Share.from_bytes(ctx, bytes(bad))).fault == "corrupted"
    agg = mpc.Aggregator(ctx, mpc.ckg_round(ctx, crs), [2])
    agg.add(mpc.ckg_share(twin, crs))
    agg.finish()
    with pytest.raises(RuntimeError):
        agg.finish()
