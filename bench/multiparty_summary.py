#!/usr/bin/env python3
"""Summarises the alternating multiparty campaign of bench/multiparty_campaign.sh (triples: rnsfhe on the
default backend, rnsfhe with AVX2 forced, Lattigo 20x) in the
directory given (default: this file's): medians of each, the ratios of the medians, the median and worst
of the run-by-run ratios (each run against the Lattigo run of its triple), and best vs best."""
import re, statistics, sys, glob, os
D = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
ROWS = [  # (rnsfhe row prefix, lattigo benchmark regex, label)
 ("CKG share", r"PublicKeyGen/Round1/Gen/", "public-key share"),
 ("CKG aggregation as Lattigo", r"PublicKeyGen/Round1/Agg/", "public-key aggregation as Lattigo"),
 ("CKG aggregation (1 share)", None, "public-key aggregation, running sum"),
 ("RKG round 1 share", r"RelinearizationKeyGen/GenRound1/", "relinearisation round 1 share"),
 ("RKG round 2 share", r"RelinearizationKeyGen/GenRound2/", "relinearisation round 2 share"),
 ("RKG round-1 aggregation as Lattigo", r"RelinearizationKeyGen/Agg/", "relinearisation aggregation as Lattigo"),
 ("RKG aggregation (1 round-1 share)", None, "relinearisation aggregation, running sum"),
 ("RTG share (one element)", r"RotKeyGen/Round1/Gen/", "rotation-key share (one element)"),
 ("RTG aggregation as Lattigo", r"RotKeyGen/Round1/Agg/", "rotation-key aggregation as Lattigo"),
 ("RTG aggregation (1 share)", None, "rotation-key aggregation, running sum"),
 ("Shamir polynomial, t = 17", r"Thresholdizer/GenShamirPolynomial/.*threshold=17", "Shamir polynomial, t = 17"),
 ("Shamir share for one party, t = 17", r"Thresholdizer/GenShamirSecretShare/.*threshold=17", "Shamir share, t = 17"),
 ("Shamir aggregation as Lattigo", r"Thresholdizer/AggregateShares/.*threshold=17", "Shamir aggregation as Lattigo"),
 ("Shamir aggregation (1 share)", None, "Shamir aggregation, running sum"),
 ("combination, t = 17, into", r"Combiner/GenAdditiveShare/.*threshold=17", "combination, t = 17, into a party"),
 ("CKS share", None, "decryption share (CKS)"),
 ("PCKS share", None, "PCKS share"),
]
UNIT = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}
def secs(cell):
    v, u = cell.split()
    return float(v) * UNIT[u]
def ours(path):
    out = {}
    for line in open(path):
        c = [x.strip() for x in line.split("|")]
        if len(c) > 4 and c[1] and c[2] and c[2] not in ("BFV",) and re.match(r"^[0-9.]+ (s|ms|µs|ns)$", c[2]):
            out[c[1]] = (secs(c[2]), secs(c[3]))
    return out
def theirs(path):
    out = {}
    for line in open(path):
        m = re.match(r"^BenchmarkMultiParty/(\S+)\s+\d+\s+(\d+) ns/op", line)
        if m and "NTT=true" in m.group(1):
            out[m.group(1)] = int(m.group(2)) * 1e-9
    return out
def find(d, prefix):
    for k, v in d.items():
        if k.startswith(prefix):
            return v
    return None
def lat(d, rx):
    for k, v in d.items():
        if re.search(rx, k):
            return v
    return None
runs = sorted(glob.glob(f"{D}/rnsfhe_run*.txt"))
R = [ours(p) for p in runs]
L = [theirs(p.replace("rnsfhe_run", "lattigo_run")) for p in runs]
A = [ours(p) for p in sorted(glob.glob(f"{D}/rnsfhe_avx2_run*.txt"))]
def f(t):
    return f"{t*1e3:.3f} ms" if t >= 1e-3 else f"{t*1e6:.0f} µs"
shape = "triples" if len(A) == len(R) else f"pairs, then {len(A)} AVX2 runs"
print(f"{len(R)} alternating {shape}; medians; ratio = median(ours) / median(Lattigo); run by run: median and worst of max(BFV, CKKS) / Lattigo of the same triple; best = min(ours) / min(Lattigo)\n")
print("| step | rnsfhe BFV | rnsfhe CKKS | rnsfhe AVX2 forced BFV / CKKS | Lattigo v6.2.0 | ratio of medians BFV / CKKS | run by run median (worst) | best / best | AVX2 forced: ratio of medians BFV / CKKS | AVX2 run by run median (worst) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for pre, rx, label in ROWS:
    b = [find(r, pre)[0] for r in R if find(r, pre)]
    c = [find(r, pre)[1] for r in R if find(r, pre)]
    av = [find(r, pre) for r in A if find(r, pre)]
    avs = " / ".join(f(statistics.median([x[k] for x in av])) for k in (0, 1)) if av else ""
    mb, mc = statistics.median(b), statistics.median(c)
    row = f"| {label} | {f(mb)} | {f(mc)} | {avs} |"
    if rx:
        l = [lat(x, rx) for x in L]
        ml = statistics.median(l)
        pairs = [max(bb, cc) / ll for bb, cc, ll in zip(b, c, l)]
        row += f" {f(ml)} | {mb/ml:.2f}x / {mc/ml:.2f}x | {statistics.median(pairs):.2f}x ({max(pairs):.2f}x) | {min(b)/min(l):.2f}x / {min(c)/min(l):.2f}x |"
        if len(av) == len(l):
            ab = statistics.median([x[0] for x in av]); ac = statistics.median([x[1] for x in av])
            ap = [max(x) / ll for x, ll in zip(av, l)]
            row += f" {ab/ml:.2f}x / {ac/ml:.2f}x | {statistics.median(ap):.2f}x ({max(ap):.2f}x) |"
        else:
            row += " | |"
    else:
        row += " | | | | | |"
    print(row)
print("\nLattigo per run:", {lab: [f(lat(x, rx)) for x in L] for _, rx, lab in ROWS if rx and lab.startswith(("relinearisation round 2", "combination", "Shamir share", "rotation-key share"))})
print("rnsfhe per run (BFV, CKKS):", {lab: [(f(find(r, pre)[0]), f(find(r, pre)[1])) for r in R] for pre, rx, lab in ROWS if lab.startswith(("relinearisation round 2", "combination", "Shamir share", "rotation-key share"))})
