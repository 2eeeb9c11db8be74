"""Encrypted statistics over a million records on a Dask cluster (needs ``pip install ".[dask]"``).

The client draws 10^6 records from the bundled birth-weight data (data/birthwt.csv: mother's weight
`lwt` in pounds and `race` in 3 groups, resampled with replacement), encrypts them (BFV, exact
integers, 128-bit secure) and keeps the secret key. A LocalCluster of worker processes computes, with
only the relinearisation key shipped to each worker once: the count, sum and sum of squares of the
weights, and per group the count and the sum of weights (comparison-free binning: the client encrypts
one-hot group indicators, the cluster multiplies them with the weights). The client decrypts the
per-slot totals and derives mean and variance; every figure is checked against numpy, exactly.

Run: python examples/python/dask_statistics.py [--records 1000000] [--workers 2]
"""

import argparse
import csv
import operator
import time
from pathlib import Path

import numpy as np
from distributed import Client, LocalCluster

import rnsfhe
from rnsfhe.dask import encrypt_partitions, map_ciphertexts, publish_keys, tree_sum

DATA = Path(__file__).resolve().parents[2] / "data" / "birthwt.csv"
# A prime t = 1 (mod 2n) for n = 8192 slots, large enough that a slot's sum of squares over
# 10^6 / 8192 records (< 2^24) never wraps around.
PLAIN_MODULUS = 1_073_692_673
GROUPS = ["white", "black", "other"]


def records(n, rng):
    with DATA.open() as f:
        rows = [(int(r["lwt"]), int(r["race"]) - 1) for r in csv.DictReader(f)]
    picked = np.array(rows, dtype=np.int64)[rng.integers(0, len(rows), n)]
    return picked[:, 0], picked[:, 1]


def main(n=1_000_000, workers=2):
    weight, group = records(n, np.random.default_rng(2026))
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=8192, plain_modulus=PLAIN_MODULUS))
    sk, _pk = ctx.keygen()
    rlk = ctx.relin_key(sk)

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        publish_keys(client, ctx, relin_key=rlk)          # once per worker; sk stays here
        start = time.perf_counter()
        w = encrypt_partitions(client, ctx, weight, sk)   # seeded: half-size uploads
        ind = [encrypt_partitions(client, ctx, (group == g).astype(np.int64), sk)
               for g in range(len(GROUPS))]
        jobs = [tree_sum(client, w), tree_sum(client, map_ciphertexts(client, operator.mul, w, w))]
        jobs += [tree_sum(client, i) for i in ind]
        jobs += [tree_sum(client, map_ciphertexts(client, operator.mul, i, w)) for i in ind]
        results = client.gather(jobs)
        elapsed = time.perf_counter() - start
    # Each result holds per-slot totals; the client adds up the slots of what it decrypts.
    s, s2, *rest = [int(ctx.decrypt(r, sk).sum()) for r in results]
    counts, sums = rest[:len(GROUPS)], rest[len(GROUPS):]
    count = sum(counts)
    mean, var = s / count, s2 / count - (s / count) ** 2

    assert count == n and s == int(weight.sum()) and s2 == int((weight * weight).sum())
    for g in range(len(GROUPS)):
        assert counts[g] == int((group == g).sum()) and sums[g] == int(weight[group == g].sum())
    assert abs(mean - weight.mean()) < 1e-9 and abs(var - weight.var()) < 1e-6

    n_ct = len(w) * (1 + len(GROUPS))
    print(f"{n} records, {n_ct} ciphertexts, {workers} workers: {elapsed:.1f} s "
          f"(encrypting on the client included)")
    print(f"mother's weight: count {count}, sum {s}, mean {mean:.3f} lb, variance {var:.2f}")
    for g, name in enumerate(GROUPS):
        print(f"  {name:5}: {counts[g]:7} mothers, mean weight {sums[g] / counts[g]:.3f} lb")
    print("every figure equals numpy's on the plaintext records")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    main(args.records, args.workers)
