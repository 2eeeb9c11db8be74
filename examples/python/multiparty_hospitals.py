"""Three hospitals pool patient counts without any of them, or the aggregator, seeing the others'.

Each hospital runs in its own process (multiprocessing, spawn) and exchanges only bytes with an
untrusted aggregator (this process): BFV keys held 2-out-of-3 (rnsfhe.multiparty). The hospitals
generate a collective public key and relinearisation key; each encrypts its counts per diagnosis;
the aggregator sums them and multiplies the sum by hospital 2's private cost weights (a product of
two ciphertexts, relinearised with the collective key); any 2 hospitals decrypt (shown with two
pairs); one alone cannot. The result equals the clear computation. The aggregator is not trusted
with more than relaying: each hospital checks that the aggregates it receives count its own share
and every hospital's, and sizes its decryption noise (smudging) itself.

    python examples/python/multiparty_hospitals.py            # N = 8192, 128-bit security
    python examples/python/multiparty_hospitals.py --small    # N = 2048, insecure (tests)

The pipes stand for authenticated channels; Shamir shares, which the aggregator relays here,
would go over channels private between each pair of hospitals in a deployment.
"""

import argparse
import multiprocessing as mp
import struct
import time

import numpy as np

import rnsfhe
from rnsfhe import multiparty as mpc

HOSPITALS = 3
T = 2
DIAGNOSES = 8


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
        return rnsfhe.BfvParameters(2048, 65537, moduli_bits=[60, 60, 60], special_moduli_bits=[60],
                                    security="insecure")
    return rnsfhe.BfvParameters(8192, 65537, moduli_bits=[50, 50, 50], special_moduli_bits=[60])


def counts_of(i: int) -> np.ndarray:
    return np.random.default_rng(100 + i).integers(0, 200, DIAGNOSES)


WEIGHTS = np.random.default_rng(7).integers(1, 50, DIAGNOSES)  # hospital 2's cost weights


def hospital(i: int, conn) -> None:
    """Hospital i: its secret never leaves this process; every message in and out is bytes."""
    p, seed = unpack(conn.recv_bytes())
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters.from_bytes(p))
    crs = mpc.Crs(seed)
    party = mpc.Party(ctx, i)
    group = mpc.Group(T, list(range(HOSPITALS)))
    # Thresholdizer: a Shamir share of s_i for every hospital j (secret bytes).
    poly = mpc.shamir_polynomial(party, T)
    conn.send_bytes(pack(*(poly.share_for(crs, group, j).to_bytes(allow_secret=True)
                           for j in range(HOSPITALS))))
    secret = mpc.threshold_secret(ctx, crs, group, i, unpack(conn.recv_bytes()))
    # CKG: the key from the aggregate, which must count this hospital's share and every
    # hospital's; then RKG's two rounds (round 2 refuses a round-1 aggregate without this
    # hospital's round-1 share), and the relinearisation key from the round-2 aggregate, which
    # must count this hospital's round-2 share (registered with ctx: the product twin below).
    own = mpc.ckg_share(party, crs)
    conn.send_bytes(own.to_bytes())
    agg = mpc.Share.from_bytes(ctx, conn.recv_bytes())
    agg.verify_contribution(own)
    pk = mpc.ckg_public_key(ctx, crs, agg, list(range(HOSPITALS)))
    party.join(pk)
    share1, eph = mpc.rkg_share_round1(party, crs)
    conn.send_bytes(share1.to_bytes())
    r1 = mpc.Share.from_bytes(ctx, conn.recv_bytes())
    share2 = mpc.rkg_share_round2(party, eph, r1)
    conn.send_bytes(share2.to_bytes())
    r2 = mpc.Share.from_bytes(ctx, conn.recv_bytes())
    r2.verify_contribution(share2)
    mpc.rkg_relin_key(ctx, r1, r2, list(range(HOSPITALS)), pk)
    # Data: the counts, and hospital 2's weights.
    cts = [ctx.encrypt(counts_of(i), pk).to_bytes()]
    if i == 2:
        cts.append(ctx.encrypt(WEIGHTS, pk).to_bytes())
    conn.send_bytes(pack(*cts))
    # Smudging, sized here, not by the aggregator: the noise bound a ciphertext from bytes carries
    # is what its sender (the aggregator) wrote, so the hospital states the bounds of twins of the
    # circuit on its own encryptions of zero (the same operations give the same bound: the schemes'
    # noise model does not depend on the values), at lambda = 40. The product's smudging is far
    # wider than the sum's (sigma about 2^72 at N = 8192) and still decrypts exactly.
    z = ctx.encrypt(np.zeros(1, dtype=np.int64), pk)
    twins = [z + z + z, (z + z + z) * z]
    smudging = [(mpc.Smudging.for_ciphertext(t), {"noise_log2": mpc.noise_bound_log2(t)})
                for t in twins]
    # Decryption requests: (present parties, ciphertexts) until an empty message.
    while msg := conn.recv_bytes():
        present, *blobs = unpack(msg)
        present = list(present)
        try:
            me = secret.combine(present)
        except rnsfhe.ParameterError as e:
            conn.send_bytes(b"refused: " + str(e).encode())
            continue
        me.join(pk)
        shares = [mpc.cks_share(me, rnsfhe.BfvCiphertext.from_bytes(ctx, b), crs, sm, **how).to_bytes()
                  for b, (sm, how) in zip(blobs, smudging)]
        conn.send_bytes(pack(*shares))


class Aggregator:
    """The untrusted aggregator: relays and sums bytes, computes on ciphertexts, never decrypts alone."""

    def __init__(self, small: bool):
        self.ctx = rnsfhe.BfvContext(params(small))
        self.crs = mpc.Crs()
        spawn = mp.get_context("spawn")
        self.conns, self.procs = [], []
        for i in range(HOSPITALS):
            here, there = spawn.Pipe()
            proc = spawn.Process(target=hospital, args=(i, there), daemon=True)
            proc.start()
            self.conns.append(here)
            self.procs.append(proc)
        self.sent = {i: 0 for i in range(HOSPITALS)}
        self.timings = {}

    def recv(self, i: int) -> bytes:
        b = self.conns[i].recv_bytes()
        self.sent[i] += len(b)
        return b

    def step(self, name: str, fn):
        t = time.perf_counter()
        out = fn()
        self.timings[name] = time.perf_counter() - t
        return out

    def run(self) -> None:
        ctx, crs, all3 = self.ctx, self.crs, list(range(HOSPITALS))
        for c in self.conns:
            c.send_bytes(pack(ctx.params.to_bytes(), crs.seed))

        def shamir():
            boxes = [unpack(self.recv(i)) for i in all3]
            for j in all3:  # hospital i's share for j goes to j
                self.conns[j].send_bytes(pack(*(boxes[i][j] for i in all3)))
        self.step("process start-up and Shamir shares (t = 2)", shamir)

        def ckg():
            agg = mpc.aggregate(ctx, mpc.ckg_round(ctx, crs), all3, [self.recv(i) for i in all3])
            for c in self.conns:
                c.send_bytes(agg.to_bytes())
            return mpc.ckg_public_key(ctx, crs, agg, all3)
        pk = self.step("collective public key", ckg)

        def rkg():
            r1 = mpc.aggregate(ctx, mpc.rkg_round1(ctx, crs), all3, [self.recv(i) for i in all3])
            for c in self.conns:
                c.send_bytes(r1.to_bytes())
            r2 = mpc.aggregate(ctx, mpc.rkg_round2(r1), all3, [self.recv(i) for i in all3])
            for c in self.conns:
                c.send_bytes(r2.to_bytes())
            return mpc.rkg_relin_key(ctx, r1, r2, all3, pk)  # registered with ctx
        self.step("collective relinearisation key (2 rounds)", rkg)

        def compute():
            blobs = [unpack(self.recv(i)) for i in all3]
            cts = [rnsfhe.BfvCiphertext.from_bytes(ctx, b[0]) for b in blobs]
            weights = rnsfhe.BfvCiphertext.from_bytes(ctx, blobs[2][1])
            total = cts[0] + cts[1] + cts[2]
            return total, total * weights
        total, weighted = self.step("encrypt, send, sum and product", compute)

        expected_total = sum(counts_of(i) for i in all3)
        expected_weighted = expected_total * WEIGHTS
        # The hospitals' smudging (as they size it, lambda = 40), for the decryptions' noise bounds.
        z = ctx.encrypt(np.zeros(1, dtype=np.int64), pk)
        sigmas = [mpc.Smudging.for_ciphertext(z + z + z).sigma,
                  mpc.Smudging.for_ciphertext((z + z + z) * z).sigma]
        for pair in ([0, 1], [1, 2]):
            def decrypt(pair=pair):
                msg = pack(bytes(pair), total.to_bytes(), weighted.to_bytes())
                for i in pair:
                    self.conns[i].send_bytes(msg)
                replies = [unpack(self.recv(i)) for i in pair]
                group = mpc.Group(T, pair)
                out = []
                for k, ct in enumerate((total, weighted)):
                    smudging = mpc.Smudging.with_sigma(sigmas[k])
                    agg = mpc.aggregate(ctx, mpc.cks_round(ctx, crs, ct, group), pair,
                                        [r[k] for r in replies])
                    out.append(mpc.decrypt(ctx, crs, ct, agg, pair, smudging)[:DIAGNOSES])
                return out
            got_total, got_weighted = self.step(f"threshold decryption by {pair}", decrypt)
            assert np.array_equal(got_total, expected_total), (got_total, expected_total)
            assert np.array_equal(got_weighted, expected_weighted % ctx.plain_modulus)
            print(f"hospitals {pair} decrypt: total {got_total.tolist()}, weighted {got_weighted.tolist()}")

        # One hospital alone: its threshold secret refuses to act without t = 2 present, and an
        # aggregation with one share is missing the other.
        self.conns[0].send_bytes(pack(bytes([0]), total.to_bytes()))
        print("hospital 0 alone:", self.recv(0).decode()[:90], "...")
        agg = mpc.Aggregator(ctx, mpc.cks_round(ctx, crs, total, mpc.Group(T, [0, 1])), [0, 1])
        try:
            agg.finish()
            raise AssertionError("an aggregation without t shares finished")
        except rnsfhe.ShareRefusedError as e:
            print(f"aggregator with no shares: refused ({e.fault})")

        for c in self.conns:
            c.send_bytes(b"")
        for p in self.procs:
            p.join(timeout=30)
        print(f"\nN = {ctx.params.degree}, log2 Q = {ctx.params.log_q:.0f}, smudging sigma 2^{np.log2(sigmas[0]):.1f} (sum), "
              f"2^{np.log2(sigmas[1]):.1f} (product)")
        for i in all3:
            print(f"hospital {i} sent {self.sent[i]:>10,} bytes")
        for name, t in self.timings.items():
            print(f"{name:<45} {t * 1e3:9.1f} ms")
        print("the decrypted sum and weighted sum equal the clear computation")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="N = 2048, insecure parameters (tests)")
    args = ap.parse_args()
    Aggregator(args.small).run()


if __name__ == "__main__":
    main()
