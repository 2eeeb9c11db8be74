#!/usr/bin/env python3
"""The summary of bench/compare.sh: one table per scheme and size, rows = operations, columns = the
peers' and rnsfhe's medians (ms), then rnsfhe's time over the best peer's for each rnsfhe backend.
Reads every *.md in the directory given (rows: library | scheme | n | modulus | op | median ms | ...)."""
import glob
import os
import re
import sys
from collections import defaultdict

OPS = [  # (regex on the op text, canonical name); the first match wins, None drops the row
    (r"^decrypt \+ decode \+ to python", None),
    (r"^decrypt \+ decode|^decrypt \(incl\. decode", "decrypt + decode"),
    (r"^encode", "encode"),
    (r"^encrypt", "encrypt (pk)"),
    (r"^decrypt", None),  # alone it is not one operation across libraries (Lattigo leaves t/q to decode)
    (r"^add", "add"),
    (r"^mul \(no relin", "mul (no relin)"),
    (r"^relinearize", "relinearize"),
    (r"^rescale", "rescale"),
    (r"^mul \+ relin \+ rescale", "mul + relin + rescale"),
    (r"^mul \+ relin \(separate", None),
    (r"^mul \+ relin", "mul + relin"),
    (r"^rotate rows by 1|^rotate by 1", "rotate 1 step"),
    (r"^rotate columns|^row swap", "row swap"),
    (r"^forward NTT lazy", None),
    (r"^forward NTT|=> per forward NTT", "forward NTT"),
    (r"^inverse NTT", "inverse NTT"),
]


def canon(op):
    for rx, name in OPS:
        if re.search(rx, op.strip()):
            return name
    return None


def library(lib, threads):
    lib = lib.strip()
    if lib.startswith("seal-python"):
        return "SEAL"
    if lib.startswith("OpenFHE"):
        return "OpenFHE"
    if lib.startswith("fhe.rs"):
        return "fhe.rs"
    if lib.startswith("lattigo"):
        return "Lattigo"
    m = re.match(r"rnsfhe \S+ \[(\w+)\]( narrow)?", lib)
    if m:
        t = threads.strip()
        return (f"rnsfhe {m.group(1).lower()}" + (m.group(2) or "")
                + ("" if t == "1" else f" x{t}"))
    return lib


def main():
    d = sys.argv[1]
    table = defaultdict(lambda: defaultdict(dict))  # (scheme, n) -> op -> library -> ms
    moduli = defaultdict(dict)
    for f in sorted(glob.glob(os.path.join(d, "*.md"))):
        if os.path.basename(f) == "README.md":
            continue
        for line in open(f):
            c = line.rstrip("\n").split("|")[1:-1]
            if len(c) < 8 or c[0].strip() in ("library", "---") or "REJECTED" in line:
                continue
            lib, scheme, n, mod, op, ms, _reps, threads = c[:8]
            name = canon(op)
            if name is None or not n.strip().isdigit():
                continue
            try:
                value = float(ms)
            except ValueError:
                continue
            key = (scheme.strip(), int(n))
            L = library(lib, threads)
            table[key][name].setdefault(L, value)
            moduli[key][L] = mod.strip()
    peers = ["SEAL", "OpenFHE", "Lattigo", "fhe.rs"]
    for key in sorted(table):
        libs = sorted({L for row in table[key].values() for L in row})
        mine = [L for L in libs if L.startswith("rnsfhe")]
        cols = [L for L in peers if L in libs] + mine
        ones = [L for L in mine if " x" not in L]
        print(f"\n### {key[0]} n = {key[1]}\n")
        print("| op | " + " | ".join(cols) + " | " + " | ".join(f"{L} / best peer" for L in ones) + " |")
        print("|---|" + "---|" * (len(cols) + len(ones)))
        for op, vals in table[key].items():
            best = min((vals[L] for L in peers if L in vals), default=None)
            cells = [f"{vals[L]:.3f}" if L in vals else "" for L in cols]
            ratios = [f"{vals[L] / best:.2f}" if best and L in vals else "" for L in ones]
            print(f"| {op} | " + " | ".join(cells + ratios) + " |")
        print()
        for L in cols:
            print(f"- {L}: {moduli[key].get(L, '')}")


if __name__ == "__main__":
    main()
