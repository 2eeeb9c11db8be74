"""What rnsfhe.multiparty refuses to stand behind: an aggregate that leaves out a party (a malicious
aggregator), an aggregate that counts another share in a party's name, a retried RKG round 1 whose
ephemeral and share got mixed up, smudging too weak for the ciphertext (unless opted out by name),
and the shares of another protocol instance under one reference string."""

import pickle
import zlib

import numpy as np
import pytest

import rnsfhe
from rnsfhe import multiparty as mpc

from test_multiparty import N, Session, bfv_ctx, ckks_ctx, values
from worst import worst_error

ALL = list(range(N))


def refusal(fn):
    with pytest.raises(rnsfhe.ShareRefusedError) as e:
        fn()
    return e.value


class Hospital:
    """A party that sees only bytes from the aggregator, and keeps the shares it sent."""

    def __init__(self, ctx, crs, i):
        self.ctx, self.crs, self.i = ctx, crs, i
        self.party = mpc.Party(ctx, i, seed=bytes([40 + i]) * 32)
        self.sent = {}

    def ckg(self) -> bytes:
        share = mpc.ckg_share(self.party, self.crs)
        self.sent["ckg"] = share.digest
        return share.to_bytes()

    def collective_key(self, aggregate: bytes):
        """The public key from the aggregator's bytes: checked against the parties of the session
        and against this hospital's own share."""
        agg = mpc.Share.from_bytes(self.ctx, aggregate)
        agg.verify_contribution_digest(self.i, self.sent["ckg"])
        return mpc.ckg_public_key(self.ctx, self.crs, agg, ALL)


class DroppingAggregator:
    """Sums the shares it receives, except those of `dropped`."""

    def __init__(self, ctx, crs, dropped):
        self.ctx, self.crs, self.dropped = ctx, crs, dropped

    def ckg(self, shares: dict) -> bytes:
        kept = [i for i in shares if i not in self.dropped]
        agg = mpc.aggregate(self.ctx, mpc.ckg_round(self.ctx, self.crs), kept,
                            [shares[i] for i in kept])
        return agg.to_bytes()


def forge_complete(data: bytes, offset: int) -> bytes:
    """A partial sum's bytes with the complete flag set and the CRC-32 trailer made again."""
    b = bytearray(data)
    assert b[offset] == 0
    b[offset] = 1
    b[-4:] = zlib.crc32(bytes(b[:-4])).to_bytes(4, "little")
    return bytes(b)


def test_malicious_aggregator_dropping_a_party():
    ctx, crs = bfv_ctx(), mpc.Crs(bytes(range(32)))
    hospitals = [Hospital(ctx, crs, i) for i in ALL]
    shares = {h.i: h.ckg() for h in hospitals}
    honest = mpc.aggregate(ctx, mpc.ckg_round(ctx, crs), ALL, list(shares.values())).to_bytes()
    pk = hospitals[2].collective_key(honest)
    assert all(h.collective_key(honest).key_id == pk.key_id for h in hospitals)

    dropped = DroppingAggregator(ctx, crs, {2}).ckg(shares)
    # What the aggregator is after: a "collective" key that hospitals 0 and 1 hold alone.
    alone = mpc.ckg_public_key(ctx, crs, mpc.Share.from_bytes(ctx, dropped), [0, 1])
    two = [mpc.Party(ctx, i, secret_key=hospitals[i].party.secret_key()) for i in (0, 1)]
    a = values(seed=11)
    ct = ctx.encrypt(a, alone)
    sm = mpc.Smudging.for_ciphertext(ct)
    dec = [mpc.cks_share(p, ct, crs, sm) for p in two]
    agg = mpc.aggregate(ctx, mpc.cks_round(ctx, crs, ct), [0, 1], dec)
    assert np.array_equal(mpc.decrypt(ctx, crs, ct, agg, [0, 1], sm)[:16], a)

    # Every hospital refuses it: hospital 2 misses its own share, all miss party 2.
    e = refusal(lambda: hospitals[2].collective_key(dropped))
    assert e.fault == "missing" and "party 2" in str(e)
    for h in hospitals[:2]:
        e = refusal(lambda: h.collective_key(dropped))
        assert e.fault == "missing" and "missing [2]" in str(e)
    # A partial sum of {0, 1} whose bytes claim to be complete is refused the same way (offset of
    # the flag: header 15, protocol and round 2, CRS and binding 16, no group 1, level 4,
    # elements 4).
    part = mpc.Aggregator(ctx, mpc.ckg_round(ctx, crs), ALL)
    part.add_bytes(shares[0])
    part.add_bytes(shares[1])
    forged = forge_complete(part.partial().to_bytes(), 42)
    assert mpc.Share.from_bytes(ctx, forged).is_complete
    e = refusal(lambda: mpc.ckg_public_key(ctx, crs, mpc.Share.from_bytes(ctx, forged), ALL))
    assert e.fault == "missing"


def test_party_verifies_its_contribution():
    s = Session(bfv_ctx())
    ctx, crs = s.ctx, s.crs
    shares = [mpc.ckg_share(p, crs) for p in s.parties]
    own = shares[2]
    assert len(own.digest) == 32
    assert mpc.Share.from_bytes(ctx, own.to_bytes()).digest == own.digest
    impostor = mpc.Party(ctx, 2)  # a secret the aggregator chose, in party 2's name
    substituted = mpc.aggregate(ctx, mpc.ckg_round(ctx, crs), ALL,
                                shares[:2] + [mpc.ckg_share(impostor, crs)])
    e = refusal(lambda: substituted.verify_contribution(own))
    assert e.fault == "substituted" and "party 2" in str(e)
    back = mpc.Share.from_bytes(ctx, substituted.to_bytes())
    assert refusal(lambda: back.verify_contribution_digest(2, own.digest)).fault == "substituted"
    back.verify_contribution(shares[0])
    honest = mpc.aggregate(ctx, mpc.ckg_round(ctx, crs), ALL, [x.to_bytes() for x in shares])
    assert honest.contributions == {i: x.digest for i, x in enumerate(shares)}
    for x in shares:
        honest.verify_contribution(x)
    with pytest.raises(rnsfhe.ShareRefusedError):
        honest.digest  # a sum of three has no digest of its own
    with pytest.raises(ValueError):
        honest.verify_contribution_digest(2, b"short")
    # Every last step takes the parties expected: here an aggregate of all three for two.
    e = refusal(lambda: mpc.ckg_public_key(ctx, crs, honest, [0, 1]))
    assert e.fault == "unexpected" and "unexpected [2]" in str(e)


def test_retried_rkg_round1():
    s = Session(bfv_ctx())
    ctx, crs = s.ctx, s.crs
    pairs = [mpc.rkg_share_round1(p, crs) for p in s.parties]
    _, eph_retry = mpc.rkg_share_round1(s.parties[1], crs)  # party 1 ran round 1 again
    r1 = mpc.aggregate(ctx, mpc.rkg_round1(ctx, crs), ALL, [x for x, _ in pairs])
    e = refusal(lambda: mpc.rkg_share_round2(s.parties[1], eph_retry, r1))
    assert e.fault == "substituted" and "ephemeral" in str(e)
    r2 = mpc.aggregate(ctx, mpc.rkg_round2(r1), ALL,
                       [mpc.rkg_share_round2(p, e, r1) for p, (_, e) in zip(s.parties, pairs)])
    assert refusal(lambda: mpc.rkg_relin_key(ctx, r1, r2, [0, 1, 2, 3], s.pk)).fault == "missing"
    mpc.rkg_relin_key(ctx, r1, r2, ALL, s.pk)
    a, b = values(seed=12), values(seed=13)
    got = s.decrypt(ctx.encrypt(a, s.pk) * ctx.encrypt(b, s.pk))
    assert np.array_equal(got[:16], a * b % ctx.plain_modulus)


def test_weak_smudging_refused_then_opted_out():
    s = Session(bfv_ctx())
    ctx, crs = s.ctx, s.crs
    a = values(seed=14)
    ct = ctx.encrypt(a, s.pk)
    bound = mpc.noise_bound_log2(ct)
    assert bound is not None and bound > 0
    weak = mpc.Smudging.with_sigma(1.0)
    with pytest.raises(rnsfhe.ParameterError, match="below"):
        mpc.cks_share(s.parties[0], ct, crs, weak)
    sk_r, pk_r = ctx.keygen()
    with pytest.raises(rnsfhe.ParameterError, match="below"):
        mpc.pcks_share(s.parties[0], pk_r, ct, crs, weak)
    floor = mpc.Smudging.for_ciphertext(ct)
    assert floor.sigma == mpc.Smudging(bound, ctx.params.degree).sigma
    mpc.cks_share(s.parties[0], ct, crs, floor)
    # Opted out by name, the weak smudging is drawn, and the decryption works.
    shares = [mpc.cks_share(p, ct, crs, weak, allow_weak_smudging=True) for p in s.parties]
    agg = mpc.aggregate(ctx, mpc.cks_round(ctx, crs, ct), ALL, shares)
    assert np.array_equal(mpc.decrypt(ctx, crs, ct, agg, ALL, weak)[:16], a)
    mpc.pcks_share(s.parties[0], pk_r, ct, crs, weak, allow_weak_smudging=True)
    # A received ciphertext carries the bound its sender wrote; a party states its own (here, its
    # analysis says 8 times more): the floor follows the statement, not the sender.
    received = rnsfhe.BfvCiphertext.from_bytes(ctx, ct.to_bytes())
    assert mpc.noise_bound_log2(received) == bound
    twin = bound + 3
    mpc.cks_share(s.parties[0], received, crs, floor)
    with pytest.raises(rnsfhe.ParameterError, match="below"):
        mpc.cks_share(s.parties[0], received, crs, floor, noise_log2=twin)
    mpc.cks_share(s.parties[0], received, crs, mpc.Smudging(twin, ctx.params.degree),
                  noise_log2=twin)

    # CKKS: no bound carried; a stated one is checked like a carried one.
    c = Session(ckks_ctx())
    cx = c.ctx.encrypt(np.linspace(-1, 1, 8), c.pk)
    assert mpc.noise_bound_log2(cx) is None
    sm = mpc.Smudging(5, 1024)
    with pytest.raises(rnsfhe.ParameterError, match="no error bound"):
        mpc.cks_share(c.parties[0], cx, c.crs, sm)
    with pytest.raises(rnsfhe.ParameterError, match="below"):
        mpc.cks_share(c.parties[0], cx, c.crs, sm, noise_log2=8)
    got = c.decrypt(cx, smudging=sm, noise_log2=5)[:8]
    assert worst_error(got.real, np.linspace(-1, 1, 8)) < 1e-3


def test_instance_nonce():
    seed = bytes([5]) * 32
    crs, empty = mpc.Crs(seed), mpc.Crs(seed, nonce=b"")
    retry = crs.with_nonce(b"public key, retry 1")
    assert empty.id == crs.id and retry.id != crs.id and retry.seed == crs.seed
    assert retry.nonce == b"public key, retry 1" and crs.nonce == b""
    back = pickle.loads(pickle.dumps(retry))
    assert back.id == retry.id and back.nonce == retry.nonce
    with pytest.raises(rnsfhe.ParameterError):
        mpc.Crs(seed, nonce=bytes(65))

    ctx = bfv_ctx()
    parties = [mpc.Party(ctx, i, seed=bytes([60 + i]) * 32) for i in ALL]
    assert mpc.ckg_share(parties[0], empty).to_bytes() == mpc.ckg_share(parties[0], crs).to_bytes()
    agg = mpc.Aggregator(ctx, mpc.ckg_round(ctx, crs), ALL)
    agg.add(mpc.ckg_share(parties[0], crs))
    e = refusal(lambda: agg.add_bytes(mpc.ckg_share(parties[1], retry).to_bytes()))
    assert e.fault == "stale" and "reference string" in str(e)
    # The retried instance makes its own, working key.
    shares = [mpc.ckg_share(p, retry) for p in parties]
    pk = mpc.ckg_public_key(ctx, retry, mpc.aggregate(ctx, mpc.ckg_round(ctx, retry), ALL, shares),
                            ALL)
    for p in parties:
        p.join(pk)
    a = values(seed=15)
    ct = ctx.encrypt(a, pk)
    sm = mpc.Smudging.for_ciphertext(ct)
    dec = [mpc.cks_share(p, ct, retry, sm) for p in parties]
    agg = mpc.aggregate(ctx, mpc.cks_round(ctx, retry, ct), ALL, dec)
    assert np.array_equal(mpc.decrypt(ctx, retry, ct, agg, ALL, sm)[:16], a)


def test_threshold_secret_checks_its_group():
    s = Session(bfv_ctx())
    ctx, crs = s.ctx, s.crs
    group = mpc.Group(2, ALL)
    polys = [mpc.shamir_polynomial(p, 2) for p in s.parties]
    to0 = [q.share_for(crs, group, 0) for q in polys]
    agg = mpc.aggregate(ctx, mpc.shamir_round(ctx, crs, group, 0), ALL, to0)
    mpc.ThresholdSecret.from_aggregate(ctx, crs, group, agg, 0)
    # An aggregate of the group {0, 1} is not the one party 0 expects ({0, 1, 2}).
    small = mpc.Group(2, [0, 1])
    shares = [q.share_for(crs, small, 0) for q in polys[:2]]
    agg = mpc.aggregate(ctx, mpc.shamir_round(ctx, crs, small, 0), [0, 1], shares)
    assert refusal(lambda: mpc.ThresholdSecret.from_aggregate(ctx, crs, group, agg, 0)).fault in (
        "stale", "missing")
