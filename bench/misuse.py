"""What rnsfhe does when it is misused as storage, a careless peer or a curious server would misuse it:
each experiment prints REFUSED (an exception naming what is wrong), RIGHT (a correct result),
BROKEN (the documented call fails with a TypeError) or SILENTLY WRONG (a wrong result and no word), so that a run on an older package and one on this
tree can be put side by side.

    python bench/misuse.py            # every experiment
    python bench/misuse.py keys io    # some groups: keys, params, io, multiparty
"""

from __future__ import annotations

import os
import pickle
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

import rnsfhe

RESULTS = []


def report(group, name, outcome, detail=""):
    RESULTS.append((group, name, outcome, detail))
    print(f"{group:<11} {name:<58} {outcome:<15} {detail[:110]}", flush=True)


def attempt(group, name, run, right):
    """Runs `run()`; `right(result)` says whether its result is correct."""
    try:
        out = run()
    except (TypeError, AttributeError) as e:  # the documented call does not even run
        report(group, name, "BROKEN", f"{type(e).__name__}: {e}")
        return
    except Exception as e:  # noqa: BLE001 - any refusal counts, with its message
        report(group, name, "REFUSED", f"{type(e).__name__}: {e}")
        return
    ok, detail = right(out)
    report(group, name, "RIGHT" if ok else "SILENTLY WRONG", detail)


# --- keys of another key-switching layout -------------------------------------------------------

def keys():
    def ckks(d):
        return rnsfhe.CkksContext(rnsfhe.CkksParameters(
            degree=4096, levels=5, scale_bits=30, first_modulus_bits=40,
            special_moduli_bits=[60, 60], digit_primes=d, security="insecure"))

    four, five = ckks(4), ckks(5)
    sk, pk = four.keygen()
    rlk = four.relin_key(sk)
    sk5 = five.secret_key_from_bytes(sk.to_bytes(allow_secret=True))
    x = five.encrypt(np.array([0.5, -1.0, 2.0]), five.public_key_from_bytes(pk.to_bytes()))

    def square():
        five.register_keys(relin_key=five.relin_key_from_bytes(rlk.to_bytes()))
        return five.decrypt(five.multiply(x, x), sk5)[:3]

    attempt("keys", "relin key of digit_primes=4 used with digit_primes=5", square,
            lambda v: (np.allclose(v, [0.25, 1, 4], atol=1e-3), f"x*x = {v}"))


def params():
    p = rnsfhe.CkksParameters(degree=1024, levels=2, scale_bits=30, security="insecure")
    os.environ.pop("RNSFHE_ALLOW_INSECURE", None)
    attempt("params", "insecure parameters from bytes, no opt-in",
            lambda: rnsfhe.CkksParameters.from_bytes(p.to_bytes()),
            lambda q: (False, f"loaded: security {q.security}"))
    attempt("params", "insecure parameters from a pickle, no opt-in",
            lambda: pickle.loads(pickle.dumps(p)),
            lambda q: (False, f"loaded: security {q.security}"))


# --- encrypted data sets --------------------------------------------------------------------------

def io():
    from rnsfhe import io as rio
    import pyarrow.parquet as pq

    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(
        degree=1024, plain_modulus=12289, moduli_bits=[50, 50, 50], special_moduli_bits=[50],
        security="insecure"))
    sk, pk = ctx.keygen()
    n, rows = 1024, 12
    x = np.random.default_rng(1).integers(0, 100, n * rows)
    t = ctx.params.plain_modulus
    root = Path(tempfile.mkdtemp())

    def write(path, data):
        rio.write_encrypted(str(path), ctx, {"x": data}, sk, records_per_ciphertext=n,
                            row_group_size=2, file_size=4, progress=False)

    def total(path):
        recs, s, idx = 0, 0, []
        for row in rio.open_dataset(str(path), ctx, key=sk).rows():
            recs += row["records"]
            s += int(ctx.decrypt(row["x"], sk)[:row["records"]].sum())
            idx.append(row["ciphertext"])
        return recs, s % t, idx

    want = (n * rows, int(x.sum()) % t)

    def right(out):
        recs, s, _ = out
        return (recs, s) == want, f"{recs} of {want[0]} records, sum {'right' if s == want[1] else 'wrong'}"

    def fresh(name):
        path = root / name
        write(path, x)
        return path

    def part(path, k):
        return path / f"part-{k:05d}.parquet"

    path = fresh("delete")
    part(path, 1).unlink()
    attempt("io", "delete one part file", lambda: total(path), right)

    path, other = fresh("copy"), root / "other"
    write(other, x[: n * 4])
    shutil.copy(part(other, 0), path / "part-00003.parquet")
    attempt("io", "copy in a part file of another data set (same key pair)",
            lambda: total(path), right)

    def rewrite(path, k, edit):
        f = part(path, k)
        table = pq.read_table(f)
        table = edit(table)
        pq.write_table(table, f, row_group_size=2)

    path = fresh("drop")
    rewrite(path, 0, lambda tb: tb.slice(1))
    attempt("io", "rewrite a file without one of its rows", lambda: total(path), right)

    path = fresh("records")

    def edit_records(tb):
        import pyarrow as pa
        rec = tb.column("records").to_pylist()
        rec[0] -= 1
        i = tb.schema.get_field_index("records")
        return tb.set_column(i, tb.schema.field(i), pa.array(rec, tb.schema.field(i).type))

    rewrite(path, 0, edit_records)
    attempt("io", "edit a row's records count", lambda: total(path), right)

    path = fresh("swap")

    def swap(tb):
        import pyarrow as pa
        i = tb.schema.get_field_index("x")
        cells = tb.column("x").to_pylist()
        cells[0], cells[1] = cells[1], cells[0]
        return tb.set_column(i, tb.schema.field(i), pa.array(cells, tb.schema.field(i).type))

    rewrite(path, 0, swap)

    def swapped_right(out):
        recs, s, idx = out
        rows_now = [int(ctx.decrypt(r["x"], sk)[0])
                    for r in rio.open_dataset(str(path), ctx, key=sk).rows()][:2]
        ok = rows_now == [int(x[0]), int(x[n])]
        return ok, f"every record read; row 0 holds {'its own' if ok else 'row 1'} records"

    attempt("io", "swap two rows' ciphertexts", lambda: total(path), swapped_right)
    shutil.rmtree(root)


# --- multiparty ----------------------------------------------------------------------------------

def _call(fn, *args, parties=None):
    """`fn(*args, parties)` where the last steps take the expected parties, else `fn(*args)`."""
    try:
        return fn(*args, parties)
    except TypeError:
        return fn(*args)


def multiparty():
    from rnsfhe import multiparty as mpc

    ckks = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=4096, levels=2, scale_bits=40,
                                                    security="insecure"))
    sk, pk = ckks.keygen()
    ct = ckks.encrypt(np.array([1.0]), pk)
    attempt("multiparty", "smudging_for(ckks ciphertext, noise_log2=10)",
            lambda: mpc.smudging_for(ct, noise_log2=10),
            lambda sm: (True, f"sigma 2^{np.log2(sm.sigma):.1f}"))

    bfv = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=4096, plain_modulus=65537,
                                                 moduli_bits=[55, 55, 55], security="insecure"))
    sk, pk = bfv.keygen()
    bfv.relin_key(sk)
    x = bfv.encrypt(np.array([3]), pk)
    prod = x * x
    attempt("multiparty", "smudging at lambda = 40 for a BFV product (N = 4096, 3 x 55 bits)",
            lambda: mpc.Smudging.for_ciphertext(prod),
            lambda sm: (True, f"sigma 2^{np.log2(sm.sigma):.1f}"))

    crs = mpc.Crs()
    parties = [mpc.Party(bfv, i) for i in range(3)]
    shares = [mpc.ckg_share(p, crs) for p in parties]
    kept = shares[:2]  # the aggregator drops party 2's share
    agg = mpc.aggregate(bfv, mpc.ckg_round(bfv, crs), [0, 1], kept)
    attempt("multiparty", "collective key from an aggregate that dropped party 2",
            lambda: _call(mpc.ckg_public_key, bfv, crs, agg, parties=[0, 1, 2]),
            lambda k: (False, "a 'collective' key that parties 0 and 1 hold alone"))

    full = mpc.aggregate(bfv, mpc.ckg_round(bfv, crs), [0, 1, 2], shares)
    cpk = _call(mpc.ckg_public_key, bfv, crs, full, parties=[0, 1, 2])
    for p in parties:
        p.join(cpk)
    y = bfv.encrypt(np.array([5]), cpk)
    attempt("multiparty", "decryption share with smudging sigma = 1",
            lambda: mpc.cks_share(parties[0], y, crs, mpc.Smudging.with_sigma(1.0)),
            lambda sh: (False, "accepted: the share hides nothing of the error"))


GROUPS = {"keys": keys, "params": params, "io": io, "multiparty": multiparty}


def main(argv):
    groups = argv or list(GROUPS)
    print(f"rnsfhe {getattr(rnsfhe, '__version__', '')} from {Path(rnsfhe.__file__).parent}")
    for g in groups:
        try:
            GROUPS[g]()
        except Exception as e:  # noqa: BLE001 - an experiment the package cannot even set up
            report(g, "(setup)", "NOT AVAILABLE", f"{type(e).__name__}: {e}")
    silent = [r for r in RESULTS if r[2] == "SILENTLY WRONG"]
    print(f"{len(RESULTS)} experiments, {len(silent)} silently wrong")


if __name__ == "__main__":
    main(sys.argv[1:])
