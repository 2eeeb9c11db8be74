"""Encrypted statistics over a million records on a Dask cluster (needs ``pip install ".[dask]"``).

The client draws 10^6 records from the bundled birth-weight data (data/birthwt.csv: mother's weight
`lwt` in pounds and `race` in 3 groups, resampled with replacement), encrypts them (BFV, exact
integers, 128-bit secure) and keeps the secret key. A LocalCluster of worker processes computes, with
only the relinearisation key shipped to each worker once: the count, sum and sum of squares of the
weights, and per group the count and the sum of weights (comparison-free binning: the client encrypts
one-hot group indicators, the cluster multiplies them with the weights). The client decrypts the
per-slot totals and derives mean and variance; every figure is checked against numpy, exactly.

Run: python examples/python/dask_statistics.py [--records 1000000] [--workers 2]

From files: ``--files DIR`` encrypts the records into Parquet files in DIR (the client,
seeded ciphertexts, bounded memory), then computes the same statistics from the files on a cluster
of 1, then 2 worker processes whose scheduler runs in a process of its own: each worker reads its
own row groups, no ciphertext passes through the client or the scheduler. It prints the throughput,
the bytes on disk per record and the peak memory (RSS) of the scheduler and of each worker.

    python examples/python/dask_statistics.py --files /tmp/rnsfhe-births --records 1000000
"""

import argparse
import csv
import operator
import os
import resource
import time
from pathlib import Path

import numpy as np
from distributed import Client, LocalCluster

import rnsfhe
import rnsfhe.io
from rnsfhe.dask import (encrypt_partitions, gather, group_sums, map_ciphertexts, publish_keys,
                         read_encrypted, tree_sum)

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


def setup(n):
    weight, group = records(n, np.random.default_rng(2026))
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=8192, plain_modulus=PLAIN_MODULUS))
    sk, _pk = ctx.keygen()
    return weight, group, ctx, sk, ctx.relin_key(sk)


def report(ctx, sk, weight, group, s, s2, counts, sums):
    """Decrypts the per-slot totals, adds up their slots, checks every figure against numpy."""
    s, s2, *rest = [int(ctx.decrypt(r, sk).sum()) for r in [s, s2, *counts, *sums]]
    counts, sums = rest[:len(GROUPS)], rest[len(GROUPS):]
    count = sum(counts)
    mean, var = s / count, s2 / count - (s / count) ** 2
    assert count == len(weight) and s == int(weight.sum()) and s2 == int((weight * weight).sum())
    for g in range(len(GROUPS)):
        assert counts[g] == int((group == g).sum()) and sums[g] == int(weight[group == g].sum())
    assert abs(mean - weight.mean()) < 1e-9 and abs(var - weight.var()) < 1e-6
    print(f"mother's weight: count {count}, sum {s}, mean {mean:.3f} lb, variance {var:.2f}")
    for g, name in enumerate(GROUPS):
        print(f"  {name:5}: {counts[g]:7} mothers, mean weight {sums[g] / counts[g]:.3f} lb")
    print("every figure equals numpy's on the plaintext records")


def main(n=1_000_000, workers=2):
    weight, group, ctx, sk, rlk = setup(n)

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
    n_ct = len(w) * (1 + len(GROUPS))
    print(f"{n} records, {n_ct} ciphertexts, {workers} workers: {elapsed:.1f} s "
          f"(encrypting on the client included)")
    # Each result holds per-slot totals; the client adds up the slots of what it decrypts.
    report(ctx, sk, weight, group, results[0], results[1], results[2:2 + len(GROUPS)],
           results[2 + len(GROUPS):])


def _peak_rss_mb():
    """This process's peak RSS: VmHWM (Linux), which starts afresh at exec, unlike ru_maxrss, which
    a child started by fork + exec inherits from its parent."""
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _stats(row):
    return {"s": row["w"], "s2": row["w"] * row["w"]}


def from_files(directory, n=1_000_000, worker_counts=(1, 2)):
    """Writes the records encrypted to Parquet files, then computes from the files."""
    from distributed import Client
    from distributed.deploy.subprocess import SubprocessCluster

    weight, group, ctx, sk, rlk = setup(n)
    columns = {"w": weight, **{f"g{g}": (group == g).astype(np.int64) for g in range(len(GROUPS))}}
    start = time.perf_counter()
    # overwrite: replaces the Parquet files of an earlier run in `directory`.
    summary = rnsfhe.io.write_encrypted(directory, ctx, columns, sk, progress=False, overwrite=True)
    written = time.perf_counter() - start
    on_disk = sum(os.path.getsize(f) for f in summary["files"])
    print(f"wrote {n} records ({len(columns)} columns, {summary['ciphertexts']} rows of "
          f"ciphertexts) to {len(summary['files'])} files in {written:.1f} s: "
          f"{n / written:,.0f} records/s, {on_disk / n:.1f} bytes on disk per record, "
          f"client peak RSS {_peak_rss_mb():.0f} MB")
    for k in worker_counts:
        cluster = SubprocessCluster(n_workers=k, threads_per_worker=1, dashboard_address=":0")
        with cluster, Client(cluster) as client:
            client.wait_for_workers(k)
            publish_keys(client, ctx, relin_key=rlk)        # once per worker; sk stays here
            start = time.perf_counter()
            rows = read_encrypted(directory, ctx, key=sk)   # the footers only, on the client
            stats, groups = gather(client, [
                tree_sum(None, rows.map(_stats)),
                group_sums(rows, "w", {name: f"g{g}" for g, name in enumerate(GROUPS)})])
            elapsed = time.perf_counter() - start
            scheduler = client.run_on_scheduler(_peak_rss_mb)
            per_worker = sorted(client.run(_peak_rss_mb).values())
        print(f"{k} worker process(es), {rows.npartitions} partitions: {elapsed:.1f} s, "
              f"{n / elapsed:,.0f} records/s; peak RSS scheduler {scheduler:.0f} MB, workers "
              + ", ".join(f"{m:.0f}" for m in per_worker) + " MB")
        report(ctx, sk, weight, group, stats["s"], stats["s2"],
               [groups[g][0] for g in GROUPS], [groups[g][1] for g in GROUPS])


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--files", metavar="DIR", help="encrypt to Parquet files in DIR, then compute "
                    "from the files with 1 and 2 worker processes")
    args = ap.parse_args()
    if args.files:
        from_files(args.files, args.records)
    else:
        main(args.records, args.workers)
