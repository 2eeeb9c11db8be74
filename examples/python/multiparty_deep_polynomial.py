"""Three hospitals evaluate a degree-16 polynomial of their pooled counts, deeper than their BFV
parameters allow, by refreshing the ciphertext collectively whenever its noise budget runs low.

Each hospital runs in its own process (multiprocessing, spawn) and exchanges only bytes with an
aggregator (this process): a collective public key and relinearisation key (rnsfhe.multiparty),
the counts encrypted, summed and raised through p(x) = x^16 + 3 x^8 + 5 x^4 + 7 x^2 + x + 11
(mod t) by four squarings. The parameters carry two or three squarings; before a square would leave
less room than a refresh needs (``refresh_headroom_log2``), the aggregator asks the hospitals for
refresh shares of the factor: each sends one share (its secret times c1 minus a random mask,
smudged, and the mask re-encrypted under its secret), the aggregator sums them and finalises a
fresh encryption of the same values at full budget (one round; no bootstrapping keys). The result
is decrypted collectively and equals the clear computation.

    python examples/python/multiparty_deep_polynomial.py            # N = 8192, 128-bit security
    python examples/python/multiparty_deep_polynomial.py --small    # N = 2048, insecure (tests)

What the aggregator learns from a refresh: the masked values m - M (one hospital's uniform mask
hides them) and the ciphertext's error plus the hospitals' smudging (which hides that error).
Here the hospitals size their smudging from the noise bound the ciphertexts carry, i.e. they take
the aggregator's word for it (honest but curious); against an aggregator that may understate it,
size it from a twin computed on your own encryptions of zero, as multiparty_hospitals.py does.
"""

import argparse
import multiprocessing as mp
import struct
import time

import numpy as np

import rnsfhe
from rnsfhe import multiparty as mpc

HOSPITALS = 3
DIAGNOSES = 16
COEFFS = {16: 1, 8: 3, 4: 5, 2: 7, 1: 1, 0: 11}


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


def hospital(i: int, small: bool, conn) -> None:
    """Hospital i: its secret never leaves this process; every message in and out is bytes."""
    p, seed = unpack(conn.recv_bytes())
    security = "insecure" if small else None  # the research-size parameters of --small, by name
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters.from_bytes(p, security=security))
    crs = mpc.Crs(seed)
    party = mpc.Party(ctx, i)
    everyone = list(range(HOSPITALS))
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
    spec = mpc.Refresh()
    # Requests: (kind, ciphertext) until an empty message.
    while msg := conn.recv_bytes():
        kind, blob = unpack(msg)
        ct = rnsfhe.BfvCiphertext.from_bytes(ctx, blob)
        smudging = mpc.Smudging.for_ciphertext(ct)  # lambda = 40 for its carried bound
        if kind == b"refresh":
            share = mpc.refresh_share(party, ct, crs, spec, smudging)
        else:
            share = mpc.cks_share(party, ct, crs, smudging)
        conn.send_bytes(share.to_bytes())


class Aggregator:
    """Relays and sums bytes, computes on ciphertexts, never decrypts alone."""

    def __init__(self, small: bool):
        self.ctx = rnsfhe.BfvContext(params(small))
        self.crs = mpc.Crs()
        spawn = mp.get_context("spawn")
        self.conns, self.procs = [], []
        for i in range(HOSPITALS):
            here, there = spawn.Pipe()
            proc = spawn.Process(target=hospital, args=(i, small, there), daemon=True)
            proc.start()
            self.conns.append(here)
            self.procs.append(proc)
        self.everyone = list(range(HOSPITALS))
        self.refreshes = []
        self.time_refresh = 0.0

    def gather(self, msg: bytes) -> list:
        for c in self.conns:
            c.send_bytes(msg)
        return [c.recv_bytes() for c in self.conns]

    def refresh(self, ct):
        """``ct`` refreshed by the three hospitals: one share each, one aggregation."""
        t = time.perf_counter()
        before = mpc.noise_bound_log2(ct)
        shares = self.gather(pack(b"refresh", ct.to_bytes()))
        smudging = mpc.Smudging.for_ciphertext(ct)
        out = mpc.refresh(self.ctx, self.crs, ct, mpc.Refresh(), self.everyone, shares, smudging)
        self.time_refresh += time.perf_counter() - t
        self.refreshes.append((before, mpc.noise_bound_log2(out)))
        return out

    def square(self, c):
        """c * c; when the square would leave less room than a refresh needs, refresh c first."""
        sq = c * c
        if mpc.refresh_headroom_log2(sq, mpc.Smudging.for_ciphertext(sq), HOSPITALS) > 2:
            return sq, c
        c = self.refresh(c)
        return c * c, c

    def run(self) -> None:
        ctx, crs, everyone = self.ctx, self.crs, self.everyone
        t0 = time.perf_counter()
        for c in self.conns:
            c.send_bytes(pack(ctx.params.to_bytes(), crs.seed))
        agg = mpc.aggregate(ctx, mpc.ckg_round(ctx, crs), everyone,
                            [c.recv_bytes() for c in self.conns])
        for c in self.conns:
            c.send_bytes(agg.to_bytes())
        pk = mpc.ckg_public_key(ctx, crs, agg, everyone)
        r1 = mpc.aggregate(ctx, mpc.rkg_round1(ctx, crs), everyone,
                           [c.recv_bytes() for c in self.conns])
        for c in self.conns:
            c.send_bytes(r1.to_bytes())
        r2 = mpc.aggregate(ctx, mpc.rkg_round2(r1), everyone, [c.recv_bytes() for c in self.conns])
        mpc.rkg_relin_key(ctx, r1, r2, everyone, pk)  # registered with ctx
        cts = [rnsfhe.BfvCiphertext.from_bytes(ctx, c.recv_bytes()) for c in self.conns]
        t_keys = time.perf_counter() - t0

        t0 = time.perf_counter()
        x = cts[0] + cts[1] + cts[2]
        powers = {1: x}
        c = x
        for e in (2, 4, 8, 16):
            sq, powers[e // 2] = self.square(c)
            powers[e] = c = sq
        p = powers[16]
        for e in (8, 4, 2, 1):
            p = p + powers[e] * COEFFS[e]
        p = p + COEFFS[0]
        t_compute = time.perf_counter() - t0

        shares = self.gather(pack(b"decrypt", p.to_bytes()))
        agg = mpc.aggregate(ctx, mpc.cks_round(ctx, crs, p), everyone, shares)
        got = mpc.decrypt(ctx, crs, p, agg, everyone, mpc.Smudging.for_ciphertext(p))[:DIAGNOSES]
        for c in self.conns:
            c.send_bytes(b"")
        for proc in self.procs:
            proc.join(timeout=30)

        t = ctx.plain_modulus
        pooled = [int(v) for v in sum(counts_of(i) for i in everyone)]
        want = [sum(k * pow(v, e, t) for e, k in COEFFS.items()) % t for v in pooled]
        assert np.array_equal(got, np.array(want)), (got, want)
        print(f"pooled counts: {pooled}")
        print(f"p(pooled) mod {t}: {got.tolist()}")
        limit = ctx.params.log_q - np.log2(t) - 1
        for k, (before, after) in enumerate(self.refreshes):
            print(f"refresh {k + 1}: error bound 2^{before:.1f} -> 2^{after:.1f} (decryption needs "
                  f"it below Delta / 2 = 2^{limit:.1f})")
        print(f"\nN = {ctx.params.degree}, log2 Q = {ctx.params.log_q:.0f}: degree 16 with "
              f"{len(self.refreshes)} collective refreshes")
        print(f"keys (CKG, RKG) and inputs {t_keys * 1e3:9.1f} ms")
        print(f"polynomial                 {t_compute * 1e3:9.1f} ms "
              f"(of which refreshes {self.time_refresh * 1e3:.1f} ms)")
        print("the decrypted polynomial equals the clear computation")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="N = 2048, insecure parameters (tests)")
    args = ap.parse_args()
    Aggregator(args.small).run()


if __name__ == "__main__":
    main()
