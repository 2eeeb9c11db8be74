"""Three hospitals on a Dask cluster, one worker each: keys held 2-out-of-3, data kept on its worker.

Each hospital's party (its secret) and encrypted counts are created on its own worker (tasks
restricted with ``workers=``) and never gathered: the client, the untrusted aggregator, gathers
only shares as bytes. The encrypted sum is computed on a worker (ciphertexts move between
workers, never to the client); hospitals 0 and 2 decrypt it with their threshold shares.

    python examples/python/multiparty_dask.py            # N = 8192, 128-bit security
    python examples/python/multiparty_dask.py --small    # N = 2048, insecure (tests)
"""

import argparse
import time

import numpy as np
from distributed import Client, LocalCluster

import rnsfhe
from rnsfhe import multiparty as mpc

HOSPITALS, T, DIAGNOSES = 3, 2, 8


def params(small: bool) -> rnsfhe.BfvParameters:
    if small:
        return rnsfhe.BfvParameters(2048, 65537, moduli_bits=[60, 60, 60], special_moduli_bits=[60],
                                    security="insecure")
    return rnsfhe.BfvParameters(8192, 65537, moduli_bits=[50, 50, 50], special_moduli_bits=[60])


def counts_of(i: int) -> np.ndarray:
    return np.random.default_rng(100 + i).integers(0, 200, DIAGNOSES)


class Hospital:
    """What stays on hospital i's worker: its context, party, threshold secret, public key."""

    def __init__(self, params_bytes: bytes, seed: bytes, i: int):
        self.ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters.from_bytes(params_bytes))
        self.crs, self.i = mpc.Crs(seed), i
        self.party = mpc.Party(self.ctx, i)
        self.group = mpc.Group(T, list(range(HOSPITALS)))
        self.secret = None
        self.pk = None

    def __reduce__(self):
        raise TypeError("a hospital's state stays on its worker")


# Tasks, each run on one hospital's worker; what they return to the client is bytes.
def start(params_bytes, seed, i):
    return Hospital(params_bytes, seed, i)


def shamir_shares(h):
    poly = mpc.shamir_polynomial(h.party, T)
    return [poly.share_for(h.crs, h.group, j).to_bytes(allow_secret=True) for j in range(HOSPITALS)]


def take_shamir(h, received):
    h.secret = mpc.threshold_secret(h.ctx, h.crs, h.group, h.i, received)
    return b"ok"


def ckg_share(h):
    return mpc.ckg_share(h.party, h.crs).to_bytes()


def join_and_encrypt(h, pk_bytes):
    h.pk = rnsfhe.PublicKey.from_bytes(h.ctx, pk_bytes)
    h.party.join(h.pk)
    return h.ctx.encrypt(counts_of(h.i), h.pk)  # stays on this worker (a Dask future)


def add(a, b):
    return a + b


def decryption_share(h, ct, present):
    """The hospital sizes its smudging itself: the noise bound of the ciphertext it is given is what
    the worker that computed it wrote, so it takes that of a twin of the circuit (the sum of three
    fresh encryptions) on its own encryptions of zero, and states it (lambda = 40)."""
    me = h.secret.combine(present)
    me.join(h.pk)
    z = h.ctx.encrypt(np.zeros(1, dtype=np.int64), h.pk)
    twin = z + z + z
    sm = mpc.Smudging.for_ciphertext(twin)
    return mpc.cks_share(me, ct, h.crs, sm, noise_log2=mpc.noise_bound_log2(twin)).to_bytes()


def run(client: Client, small: bool) -> np.ndarray:
    workers = sorted(client.scheduler_info()["workers"])[:HOSPITALS]
    assert len(workers) == HOSPITALS, "one worker per hospital"
    ctx, crs, all3 = rnsfhe.BfvContext(params(small)), mpc.Crs(), list(range(HOSPITALS))
    on = [dict(workers=[w], allow_other_workers=False, pure=False) for w in workers]
    timings, t0 = {}, time.perf_counter()

    hs = [client.submit(start, ctx.params.to_bytes(), crs.seed, i, **on[i]) for i in all3]
    boxes = client.gather([client.submit(shamir_shares, hs[i], **on[i]) for i in all3])
    client.gather([client.submit(take_shamir, hs[j], [boxes[i][j] for i in all3], **on[j])
                   for j in all3])
    shares = client.gather([client.submit(ckg_share, hs[i], **on[i]) for i in all3])
    pk = mpc.ckg_public_key(ctx, crs, mpc.aggregate(ctx, mpc.ckg_round(ctx, crs), all3, shares),
                            all3)
    timings["keys (Shamir, CKG)"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    cts = [client.submit(join_and_encrypt, hs[i], pk.to_bytes(), **on[i]) for i in all3]
    total = client.submit(add, client.submit(add, cts[0], cts[1], **on[1]), cts[2], **on[2])
    present = [0, 2]
    dec = client.gather([client.submit(decryption_share, hs[i], total, present, **on[i])
                         for i in present])
    timings["encrypt, sum on workers, decryption shares"] = time.perf_counter() - t0

    # Decrypting needs the ciphertext: only the sum (never a hospital's own counts) comes here.
    ct = total.result()
    group = mpc.Group(T, present)
    agg = mpc.aggregate(ctx, mpc.cks_round(ctx, crs, ct, group), present, dec)
    # The hospitals' smudging (a twin's bound, as they size it), for the decryption's noise bound.
    z = ctx.encrypt(np.zeros(1, dtype=np.int64), pk)
    got = mpc.decrypt(ctx, crs, ct, agg, present, mpc.Smudging.for_ciphertext(z + z + z))
    got = got[:DIAGNOSES]
    expected = sum(counts_of(i) for i in all3)
    assert np.array_equal(got, expected), (got, expected)
    print(f"hospitals {present} decrypt the total: {got.tolist()}")
    print(f"bytes gathered: Shamir {sum(map(len, sum(boxes, [])))}, CKG {sum(map(len, shares))}, "
          f"decryption {sum(map(len, dec))}")
    for name, t in timings.items():
        print(f"{name:<45} {t * 1e3:9.1f} ms")
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="N = 2048, insecure parameters (tests)")
    ap.add_argument("--threads", action="store_true", help="workers as threads of this process")
    args = ap.parse_args()
    with LocalCluster(n_workers=HOSPITALS, threads_per_worker=1, processes=not args.threads,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        run(client, args.small)


if __name__ == "__main__":
    main()
