"""Throughput of rnsfhe.dask on a LocalCluster with 1 and 2 worker processes, and the bytes each
ciphertext and key costs on the wire (protocol-5 pickles: in-band part + out-of-band buffers).

The job per ciphertext is a multiply (relinearised) and a rotation, then a tree sum of the results
(BFV, n = 8192, 128-bit secure defaults). Ciphertexts are encrypted on the client before the clock
starts; the timed part is submitting them, the cluster's work and fetching the one result.

Run: target/pyvenv/bin/python bench/dask_throughput.py [--ciphertexts 96] [--workers 1 2]
"""

import argparse
import functools
import operator
import os
import pickle
import time

import numpy as np
from distributed import Client, LocalCluster, get_task_stream
from distributed.protocol import serialize

import rnsfhe
from rnsfhe.dask import map_ciphertexts, publish_keys, tree_sum


def wire_bytes(obj):
    """Bytes of a protocol-5 pickle of `obj`: (in-band, out-of-band buffers)."""
    buffers = []
    data = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
    return len(data), sum(b.raw().nbytes for b in buffers)


SQUARINGS = 1


def job(c):
    for _ in range(SQUARINGS):
        c = c * c
    return c.rotate_rows(1)


def run(workers, ctx, rlk, gk, cts, repeats):
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        publish_keys(client, ctx, relin_key=rlk, galois_keys=gk)
        warm = client.scatter(cts[:workers * 2])  # every worker builds the context once
        tree_sum(client, map_ciphertexts(client, job, warm)).result()
        best, stats = float("inf"), None
        for r in range(repeats):
            cpu0 = sum(client.run(cpu_seconds).values())
            with get_task_stream(client) as ts:
                start = time.perf_counter()
                futures = [client.submit(lambda c: c, c, key=f"ct-{r}-{i}")
                           for i, c in enumerate(cts)]
                total = tree_sum(client, map_ciphertexts(client, job, futures)).result()
                wall = time.perf_counter() - start
            cpu = sum(client.run(cpu_seconds).values()) - cpu0
            if wall < best:
                best, stats = wall, (*task_stats(ts.data), cpu)
            del futures
        return best, total, stats


def cpu_seconds():
    """User + system CPU seconds of this process so far."""
    t = os.times()
    return t.user + t.system


def task_stats(records):
    """Seconds of compute per task prefix, and seconds and number of worker-to-worker transfers."""
    compute, transfer = {}, [0.0, 0]
    for rec in records:
        prefix = rec["key"].split("-")[0] if isinstance(rec["key"], str) else str(rec["key"][0])
        for ss in rec["startstops"]:
            if ss["action"] == "compute":
                n, t = compute.get(prefix, (0, 0.0))
                compute[prefix] = (n + 1, t + ss["stop"] - ss["start"])
            elif ss["action"] == "transfer":
                transfer[0] += ss["stop"] - ss["start"]
                transfer[1] += 1
    return compute, transfer


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ciphertexts", type=int, default=96)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--degree", type=int, default=8192, help="BFV ring degree (t = 65537)")
    ap.add_argument("--squarings", type=int, default=1,
                    help="squarings per task before the rotation (a heavier job per ciphertext)")
    args = ap.parse_args()
    global SQUARINGS
    SQUARINGS = args.squarings

    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=args.degree, plain_modulus=65537))
    sk, pk = ctx.keygen()
    rlk, gk = ctx.relin_key(sk), ctx.galois_keys(sk, steps=[1], columns=False)
    rng = np.random.default_rng(1)
    cts = [ctx.encrypt(rng.integers(0, 200, ctx.slots), sk) for _ in range(args.ciphertexts)]

    fresh_pk = ctx.encrypt([1], pk)
    print(f"machine: {os.cpu_count()} logical CPUs (shared with other jobs while measured)")
    print("bytes on the wire (protocol-5 pickle: in-band + out-of-band):")
    for name, obj in [("ciphertext, secret-key (seeded)", cts[0]),
                      ("ciphertext, public-key", fresh_pk),
                      ("ciphertext after multiply+rotate", job(cts[0])),
                      ("relinearisation key", rlk), ("Galois keys (1 step)", gk)]:
        inband, oob = wire_bytes(obj)
        _header, frames = serialize(obj)  # what Dask sends: the payload is a frame of its own
        sizes = "+".join(str(memoryview(f).nbytes) for f in frames)
        print(f"  {name:34} {inband:6} + {oob:9} bytes (Dask frames {sizes})")

    start, cpu0 = time.perf_counter(), time.process_time()
    expected = functools.reduce(operator.add, [job(c) for c in cts])
    single, cpu = time.perf_counter() - start, time.process_time() - cpu0
    print(f"single process, no Dask: {single:.2f} s, {args.ciphertexts / single:.1f} ciphertexts/s, "
          f"{1000 * single / args.ciphertexts:.1f} ms per ciphertext "
          f"({1000 * cpu / args.ciphertexts:.1f} ms of CPU)")

    base = None
    for w in args.workers:
        t, total, (compute, transfer, cpu) = run(w, ctx, rlk, gk, cts, args.repeats)
        assert np.array_equal(ctx.decrypt(total, sk), ctx.decrypt(expected, sk))
        base = base or t
        busy = sum(s for _, s in compute.values())
        print(f"{w} worker process(es): {t:.2f} s, {args.ciphertexts / t:.1f} ciphertexts/s, "
              f"speed-up {base / t:.2f}x (best of {args.repeats}); workers busy {busy:.2f} s "
              f"({100 * busy / (w * t):.0f}% of {w} x wall), transfers between workers "
              f"{transfer[1]} in {transfer[0]:.2f} s; worker processes used {cpu:.2f} CPU-s, "
              f"{1000 * cpu / args.ciphertexts:.1f} ms per ciphertext, i.e. {cpu / t:.2f} cores")
        for prefix, (n, s) in sorted(compute.items()):
            print(f"    {prefix:10} {n:4} tasks, {1000 * s / n:7.1f} ms each")


if __name__ == "__main__":
    main()
