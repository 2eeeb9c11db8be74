"""The cost of data-set integrity (row bindings and manifests, see rnsfhe.io) in
`rnsfhe.io.write_encrypted`: a fixed data set (default 2^16 records of one column, BFV n = 4096,
t = 65537, secret-key (seeded) encryption, 16 ciphertext rows per row group) is written several
times; inside each write the time spent hashing the rows' bindings and in the manifest's protocol
(``pending.json``, the manifest's atomic write, each file's size) is measured by wrapping those
functions, so that the fraction of the write they take is the cost over a write without them.
Opening the data set (which checks every file against the manifest) is timed too.

Run: PYTHONPATH=python python bench/dataset_write.py [--records 65536] [--runs 7]
"""

import argparse
import statistics
import tempfile
import time

import numpy as np

import rnsfhe
from rnsfhe import _manifest, _parquet, io


class Clock:
    """Wraps a module's (or class's) function so that its time adds up in `self.spent`."""

    def __init__(self, owner, name):
        self.owner, self.name, self.spent = owner, name, 0.0
        self.inner = inner = getattr(owner, name)

        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self.spent += time.perf_counter() - start
        setattr(owner, name, timed)

    def restore(self):
        setattr(self.owner, self.name, self.inner)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if "model name" in line)
    except (OSError, StopIteration):
        return "unknown CPU"


def main(records, runs, degree):
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=degree, plain_modulus=65537))
    sk, _ = ctx.keygen()
    x = np.random.default_rng(0).integers(0, 65537, records)
    names = ["row bindings (SHA-256)", "begin (pending.json)", "commit (manifest)",
             "file sizes"]
    totals, spent, opens = [], [], []
    with tempfile.TemporaryDirectory() as d:
        for run in range(runs + 1):  # the first run warms up
            path = f"{d}/run{run}"  # a new directory: no overwrite to count
            clocks = [Clock(_manifest, "row_binding"), Clock(_manifest, "begin"),
                      Clock(_manifest, "commit"), Clock(_parquet.FileWriter, "entry")]
            start = time.perf_counter()
            summary = io.write_encrypted(path, ctx, {"x": x}, sk, progress=False)
            total = time.perf_counter() - start
            for c in clocks:
                c.restore()
            start = time.perf_counter()
            io.open_dataset(path, ctx, key=sk)
            opened = time.perf_counter() - start
            if run:
                totals.append(total)
                spent.append([c.spent for c in clocks])
                opens.append(opened)
    t = statistics.median(totals)
    parts = [statistics.median(s[k] for s in spent) for k in range(len(names))]
    together = statistics.median(sum(s) for s in spent)
    print(f"{cpu_model()}; rnsfhe {_parquet._library_version()}; BFV n={degree}, "
          f"{records} records, {summary['ciphertexts']} ciphertexts, "
          f"{summary['bytes'] / 2**20:.1f} MiB of ciphertexts, {len(summary['files'])} files; "
          f"median of {runs} runs")
    print(f"write_encrypted              {t * 1e3:9.2f} ms")
    for name, v in zip(names, parts):
        print(f"  {name:26s} {v * 1e3:9.2f} ms  {100 * v / t:5.2f} % of the write")
    print(f"  integrity in all           {together * 1e3:9.2f} ms  {100 * together / t:5.2f} % "
          f"(the write without it: {(t - together) * 1e3:.1f} ms)")
    print(f"open_dataset (every check)   {statistics.median(opens) * 1e3:9.2f} ms")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1 << 16)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--degree", type=int, default=4096)
    args = ap.parse_args()
    main(args.records, args.runs, args.degree)
