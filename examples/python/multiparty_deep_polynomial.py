"""Three hospitals evaluate a degree-16 polynomial of their pooled counts, deeper than their BFV
parameters allow, by refreshing the ciphertext collectively whenever its noise budget runs low;
midway, a fourth hospital joins the key holders by re-sharing, and finishes the work with them.

Each hospital runs in its own process (multiprocessing, spawn) and exchanges only bytes with an
aggregator (this process): a collective public key and relinearisation key (rnsfhe.multiparty),
a 2-of-3 threshold sharing of the collective secret (any two hospitals decrypt or refresh), the
counts encrypted, summed and raised through p(x) = x^16 + 3 x^8 + 5 x^4 + 7 x^2 + x + 11 (mod t)
by four squarings. The parameters carry two or three squarings; before a square would leave less
room than a refresh needs (``refresh_headroom_log2``), the aggregator asks a threshold of hospitals
for refresh shares of the factor: each sends one share (its secret times c1 minus a random mask,
smudged, and the mask re-encrypted under its secret), the aggregator sums them and finalises a
fresh encryption of the same values at full budget (one round; no bootstrapping keys).

After x^4, hospital 3 joins: two of the three hospitals re-share the secret to the 3-of-4 group
{0, 1, 2, 3} (each deals its Lagrange-weighted share with a new Shamir polynomial; no one
reconstructs the secret). The public and relinearisation keys stay as they are; the group gets a
new epoch, so a share made with an old secret is refused next to new ones (shown with hospital 0,
which here keeps its old secret instead of erasing it). The remaining refreshes and the final
decryption are done by three of the four, hospital 3 among them, and the result equals the clear
computation.

    python examples/python/multiparty_deep_polynomial.py            # N = 8192, 128-bit security
    python examples/python/multiparty_deep_polynomial.py --small    # N = 2048, insecure (tests)

What the aggregator learns from a refresh: the masked values m - M (one hospital's uniform mask
hides them) and the ciphertext's error plus the hospitals' smudging (which hides that error).
Here the hospitals size their smudging from the noise bound the ciphertexts carry, i.e. they take
the aggregator's word for it (honest but curious); against an aggregator that may understate it,
size it from a twin computed on your own encryptions of zero, as multiparty_hospitals.py does.
The Shamir and re-sharing shares are secret: here the aggregator relays them over the pipes for
brevity; in practice they go over private channels between hospitals (whoever sees a threshold of
them learns the secret).
"""

import argparse
import multiprocessing as mp
import struct
import time

import numpy as np

import rnsfhe
from rnsfhe import multiparty as mpc

HOSPITALS = 3
T = 2                      # 2-of-3 at first
NEWCOMER = 3               # the fourth hospital
T_NEW = 3                  # 3-of-4 after it joins
DIAGNOSES = 16
COEFFS = {16: 1, 8: 3, 4: 5, 2: 7, 1: 1, 0: 11}
RESHARE_NONCE = b"reshare: hospital 3 joins"


def pack(*parts: bytes) -> bytes:
    """Length-prefixed concatenation: the one message format on the pipes."""
    return b"".join(struct.pack("<Q", len(p)) + p for p in parts)


def unpack(data: bytes) -> list:
    out, i = [], 0
    while i < len(data):
        (n,) = struct.unpack_from("<Q", data, i)
        out.append(data[i + 8:i + 8 + n])
        i += 8 + n
    return out


def params(small: bool) -> rnsfhe.BfvParameters:
    if small:
        return rnsfhe.BfvParameters(2048, 65537, moduli_bits=[55, 55], special_moduli_bits=[55],
                                    security="insecure")
    return rnsfhe.BfvParameters(8192, 65537, moduli_bits=[50, 50, 50], special_moduli_bits=[60])


def counts_of(i: int) -> np.ndarray:
    return np.random.default_rng(300 + i).integers(0, 500, DIAGNOSES)


def context_of(conn, small: bool):
    p, seed = unpack(conn.recv_bytes())
    security = "insecure" if small else None  # the research-size parameters of --small, by name
    return rnsfhe.BfvContext(rnsfhe.BfvParameters.from_bytes(p, security=security)), mpc.Crs(seed)


def hospital(i: int, small: bool, conn) -> None:
    """Hospital i (one of the first three): keys, its counts, then requests."""
    ctx, crs = context_of(conn, small)
    party = mpc.Party(ctx, i)
    everyone = list(range(HOSPITALS))
    group = mpc.Group(T, everyone)
    # Thresholdizer: a Shamir share of s_i for every hospital j (secret bytes).
    poly = mpc.shamir_polynomial(party, T)
    conn.send_bytes(pack(*(poly.share_for(crs, group, j).to_bytes(allow_secret=True)
                           for j in everyone)))
    secret = mpc.threshold_secret(ctx, crs, group, i, unpack(conn.recv_bytes()))
    own = mpc.ckg_share(party, crs)
    conn.send_bytes(own.to_bytes())
    agg = mpc.Share.from_bytes(ctx, conn.recv_bytes())
    agg.verify_contribution(own)
    pk = mpc.ckg_public_key(ctx, crs, agg, everyone)
    party.join(pk)
    share1, eph = mpc.rkg_share_round1(party, crs)
    conn.send_bytes(share1.to_bytes())
    r1 = mpc.Share.from_bytes(ctx, conn.recv_bytes())
    conn.send_bytes(mpc.rkg_share_round2(party, eph, r1).to_bytes())
    conn.send_bytes(ctx.encrypt(counts_of(i), pk).to_bytes())
    del party  # from here on the hospital acts only through its threshold secret
    serve(ctx, crs, pk, i, secret, conn)


def newcomer(i: int, small: bool, conn) -> None:
    """Hospital 3, started midway: the public key, then its share of the re-shared secret."""
    ctx, crs = context_of(conn, small)
    pk = rnsfhe.PublicKey.from_bytes(ctx, conn.recv_bytes())
    serve(ctx, crs, pk, i, None, conn)


def serve(ctx, crs, pk, i: int, secret, conn) -> None:
    """Requests until an empty message: refresh and decryption shares by the hospitals present,
    and the two steps of a re-sharing (deal to the new group; receive this hospital's share)."""
    spec = mpc.Refresh()
    old = None
    while msg := conn.recv_bytes():
        kind, *rest = unpack(msg)
        if kind == b"deal":  # this hospital is among the old ones that re-share
            acting, t_new, members = list(rest[0]), rest[1][0], list(rest[2])
            crs_r = crs.with_nonce(RESHARE_NONCE)
            new_group = mpc.reshared_group(secret.group, crs_r, t_new, members)
            g = mpc.reshare_polynomial(secret, acting, new_group)
            conn.send_bytes(pack(*(g.share_for(crs_r, new_group, k).to_bytes(allow_secret=True)
                                   for k in members)))
        elif kind == b"receive":  # this hospital's share of the new group, from every dealer
            acting, t_new, members, *boxes = rest
            crs_r = crs.with_nonce(RESHARE_NONCE)
            old_group = mpc.Group(T, list(range(HOSPITALS)))
            new_group = mpc.reshared_group(old_group, crs_r, t_new[0], list(members))
            new = mpc.reshared_secret(ctx, crs_r, old_group.subgroup(list(acting)), new_group, i,
                                      boxes)
            # An honest hospital erases its old secret now; hospital 0 keeps it, to show that the
            # aggregator refuses it next to new shares.
            old = secret if i == 0 else None
            secret = new
            conn.send_bytes(struct.pack("<Q", new_group.epoch))
        else:
            present, blob = list(rest[0]), rest[1]
            ct = rnsfhe.BfvCiphertext.from_bytes(ctx, blob)
            me = (old if kind == b"decrypt with the old secret" else secret).combine(present)
            me.join(pk)
            smudging = mpc.Smudging.for_ciphertext(ct)  # lambda = 40 for its carried bound
            if kind == b"refresh":
                share = mpc.refresh_share(me, ct, crs, spec, smudging)
            else:
                share = mpc.cks_share(me, ct, crs, smudging)
            conn.send_bytes(share.to_bytes())


class Aggregator:
    """Relays and sums bytes, computes on ciphertexts, never decrypts alone."""

    def __init__(self, small: bool):
        self.small = small
        self.ctx = rnsfhe.BfvContext(params(small))
        self.crs = mpc.Crs()
        self.spawn = mp.get_context("spawn")
        self.conns, self.procs = {}, []
        for i in range(HOSPITALS):
            self.start(i, hospital)
        self.group = mpc.Group(T, list(range(HOSPITALS)))
        # Who acts in each refresh, in turn: two of the first three, then three of the four.
        self.turns = [[0, 1], [1, 2], [0, 2]]
        self.turn = 0
        self.refreshes = []
        self.time_refresh = 0.0

    def start(self, i: int, target) -> None:
        here, there = self.spawn.Pipe()
        proc = self.spawn.Process(target=target, args=(i, self.small, there), daemon=True)
        proc.start()
        here.send_bytes(pack(self.ctx.params.to_bytes(), self.crs.seed))
        self.conns[i] = here
        self.procs.append(proc)

    def ask(self, present: list, msg: bytes) -> list:
        for i in present:
            self.conns[i].send_bytes(msg)
        return [self.conns[i].recv_bytes() for i in present]

    def refresh(self, ct):
        """``ct`` refreshed by the hospitals of this turn: one share each, one aggregation."""
        t = time.perf_counter()
        present = self.turns[self.turn % len(self.turns)]
        self.turn += 1
        before = mpc.noise_bound_log2(ct)
        shares = self.ask(present, pack(b"refresh", bytes(present), ct.to_bytes()))
        smudging = mpc.Smudging.for_ciphertext(ct)
        out = mpc.refresh(self.ctx, self.crs, ct, mpc.Refresh(), present, shares, smudging,
                          group=self.group.subgroup(present))
        self.time_refresh += time.perf_counter() - t
        self.refreshes.append(present)
        limit = self.ctx.params.log_q - np.log2(self.ctx.plain_modulus) - 1
        print(f"refresh {len(self.refreshes)} by hospitals {present} ({self.group.t}-of-"
              f"{len(self.group.members)}): error bound 2^{before:.1f} -> "
              f"2^{mpc.noise_bound_log2(out):.1f} (decryption needs it below Delta / 2 = "
              f"2^{limit:.1f})")
        return out

    def square(self, c):
        """c * c; when the square would leave less room than a refresh needs, refresh c first."""
        sq = c * c
        parties = max(len(p) for p in self.turns)
        if mpc.refresh_headroom_log2(sq, mpc.Smudging.for_ciphertext(sq), parties) > 2:
            return sq, c
        c = self.refresh(c)
        return c * c, c

    def join_newcomer(self, pk) -> float:
        """Hospital 3 joins: hospitals 1 and 2 (a threshold of the old group) re-share the secret to
        the 3-of-4 group; every member of the new group, old and new, receives its share."""
        t0 = time.perf_counter()
        self.start(NEWCOMER, newcomer)
        self.conns[NEWCOMER].send_bytes(pk.to_bytes())
        acting = [1, 2]
        members = list(range(HOSPITALS)) + [NEWCOMER]
        crs_r = self.crs.with_nonce(RESHARE_NONCE)
        new_group = mpc.reshared_group(self.group, crs_r, T_NEW, members)
        boxes = [unpack(b) for b in
                 self.ask(acting, pack(b"deal", bytes(acting), bytes([T_NEW]), bytes(members)))]
        for pos, k in enumerate(members):  # dealer j's share for k goes to k
            self.conns[k].send_bytes(pack(b"receive", bytes(acting), bytes([T_NEW]),
                                          bytes(members), *(b[pos] for b in boxes)))
        epochs = {struct.unpack("<Q", self.conns[k].recv_bytes())[0] for k in members}
        assert epochs == {new_group.epoch}, epochs
        self.group = new_group
        self.turns = [[1, 2, 3], [0, 1, 3], [0, 2, 3]]
        self.turn = 0
        print(f"hospital {NEWCOMER} joins: hospitals {acting} re-share the secret to the "
              f"{T_NEW}-of-{len(members)} group {members} (epoch 0 -> {new_group.epoch:016x}); "
              "public and relinearisation keys unchanged")
        return time.perf_counter() - t0

    def stale_share_refused(self, ct) -> None:
        """Hospital 0 answers with its old secret next to hospitals 1 and 2's new ones: refused."""
        present = [0, 1, 2]
        agg = mpc.Aggregator(self.ctx, mpc.cks_round(self.ctx, self.crs, ct,
                                                     self.group.subgroup(present)), present)
        msg = pack(b"decrypt", bytes(present), ct.to_bytes())
        for b in self.ask([1, 2], msg):
            agg.add_bytes(b)
        old = self.ask([0], pack(b"decrypt with the old secret", bytes(present), ct.to_bytes()))[0]
        try:
            agg.add_bytes(old)
            raise AssertionError("a share of the old sharing was counted with new ones")
        except mpc.ShareRefusedError as e:
            assert e.fault == "stale", e
            print(f"hospital 0 with its old secret, next to hospitals 1 and 2 with new ones: "
                  f"refused ({e.fault}: another epoch)")

    def run(self) -> None:
        ctx, crs = self.ctx, self.crs
        first = list(range(HOSPITALS))
        t0 = time.perf_counter()
        boxes = [unpack(self.conns[i].recv_bytes()) for i in first]
        for j in first:  # hospital i's Shamir share for j goes to j
            self.conns[j].send_bytes(pack(*(boxes[i][j] for i in first)))
        agg = mpc.aggregate(ctx, mpc.ckg_round(ctx, crs), first,
                            [self.conns[i].recv_bytes() for i in first])
        for i in first:
            self.conns[i].send_bytes(agg.to_bytes())
        pk = mpc.ckg_public_key(ctx, crs, agg, first)
        r1 = mpc.aggregate(ctx, mpc.rkg_round1(ctx, crs), first,
                           [self.conns[i].recv_bytes() for i in first])
        for i in first:
            self.conns[i].send_bytes(r1.to_bytes())
        r2 = mpc.aggregate(ctx, mpc.rkg_round2(r1), first,
                           [self.conns[i].recv_bytes() for i in first])
        mpc.rkg_relin_key(ctx, r1, r2, first, pk)  # registered with ctx
        cts = [rnsfhe.BfvCiphertext.from_bytes(ctx, self.conns[i].recv_bytes()) for i in first]
        t_keys = time.perf_counter() - t0

        t0 = time.perf_counter()
        x = cts[0] + cts[1] + cts[2]
        powers = {1: x}
        c = x
        t_join = 0.0
        for e in (2, 4, 8, 16):
            if e == 8:
                t_join = self.join_newcomer(pk)
                self.stale_share_refused(c)
            sq, powers[e // 2] = self.square(c)
            powers[e] = c = sq
        p = powers[16]
        for e in (8, 4, 2, 1):
            p = p + powers[e] * COEFFS[e]
        p = p + COEFFS[0]
        t_compute = time.perf_counter() - t0 - t_join

        present = [0, 2, NEWCOMER]
        shares = self.ask(present, pack(b"decrypt", bytes(present), p.to_bytes()))
        agg = mpc.aggregate(ctx, mpc.cks_round(ctx, crs, p, self.group.subgroup(present)),
                            present, shares)
        got = mpc.decrypt(ctx, crs, p, agg, present, mpc.Smudging.for_ciphertext(p))[:DIAGNOSES]
        for conn in self.conns.values():
            conn.send_bytes(b"")
        for proc in self.procs:
            proc.join(timeout=30)

        t = ctx.plain_modulus
        pooled = [int(v) for v in sum(counts_of(i) for i in first)]
        want = [sum(k * pow(v, e, t) for e, k in COEFFS.items()) % t for v in pooled]
        assert np.array_equal(got, np.array(want)), (got, want)
        print(f"\npooled counts: {pooled}")
        print(f"p(pooled) mod {t}, decrypted by hospitals {present} ({T_NEW}-of-4): "
              f"{got.tolist()}")
        print(f"\nN = {ctx.params.degree}, log2 Q = {ctx.params.log_q:.0f}: degree 16 with "
              f"{len(self.refreshes)} collective refresh{'' if len(self.refreshes) == 1 else 'es'}")
        print(f"keys (Shamir, CKG, RKG) and inputs {t_keys * 1e3:9.1f} ms")
        print(f"hospital 3 joins (re-sharing)      {t_join * 1e3:9.1f} ms (with its process start)")
        print(f"polynomial                         {t_compute * 1e3:9.1f} ms "
              f"(of which refreshes {self.time_refresh * 1e3:.1f} ms)")
        print("the decrypted polynomial equals the clear computation")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="N = 2048, insecure parameters (tests)")
    args = ap.parse_args()
    Aggregator(args.small).run()


if __name__ == "__main__":
    main()
