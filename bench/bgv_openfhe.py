#!/usr/bin/env python3
"""OpenFHE's BGV beside rnsfhe's `rnsfhe bench bgv`, in one run (one thread each).

The PyPI wheel `openfhe` ships a CPython 3.10 extension: run this script with a Python 3.10 that has
it (the peers' venv: ../shared/peers/setup.sh makes $PEERS/venv310), e.g.

    OMP_NUM_THREADS=1 /tmp/peers/venv310/bin/python bench/bgv_openfhe.py --rnsfhe target/release/rnsfhe

It first runs `rnsfhe bench bgv` (unless --no-rnsfhe), then times OpenFHE's BGVRNS at n = 2^13 and
2^14, t = 65537, FIXEDMANUAL scaling (no automatic modulus switching inside EvalMult), HYBRID key
switching, the largest depth OpenFHE accepts at 128-bit security at that n (so log Q is about
rnsfhe's default). Timing as in ../shared/peers/bench_openfhe.py: median of >= 20 runs after 2
warm-ups, ms. Prints markdown.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

DEPTH = {8192: 4, 16384: 10}  # first try; lowered until OpenFHE accepts it at 128-bit security


def bench(fn, min_reps=20, budget_s=1.0, max_reps=2000):
    fn()
    t0 = time.perf_counter()
    fn()
    est = time.perf_counter() - t0
    reps = max(min_reps, min(max_reps, int(budget_s / max(est, 1e-9))))
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def bgv_context(o, n, depth):
    p = o.CCParamsBGVRNS()
    p.SetPlaintextModulus(65537)
    p.SetMultiplicativeDepth(depth)
    p.SetRingDim(n)
    p.SetSecurityLevel(o.SecurityLevel.HEStd_128_classic)
    p.SetScalingTechnique(o.ScalingTechnique.FIXEDMANUAL)
    cc = o.GenCryptoContext(p)
    for f in (o.PKESchemeFeature.PKE, o.PKESchemeFeature.KEYSWITCH, o.PKESchemeFeature.LEVELEDSHE):
        cc.Enable(f)
    return p, cc


def q_moduli(o, cc):
    """The ciphertext moduli, read back from the JSON serialisation (as the peers' script does)."""
    import json
    d = json.loads(o.Serialize(cc, o.JSON))
    cp = d["value0"]["ptr_wrapper"]["data"]["cc"]["ptr_wrapper"]["data"]
    elp = cp["value0"]["value0"]["value0"]["elp"]["ptr_wrapper"]["data"]
    return [int(x["ptr_wrapper"]["data"]["value0"]["cm"]["v"]) for x in elp["p"]]


def openfhe_rows(sizes):
    import openfhe as o

    rows = []
    for n in sizes:
        depth = DEPTH.get(n, 4)
        while True:
            try:
                p, cc = bgv_context(o, n, depth)
                if cc.GetRingDimension() != n:
                    raise ValueError(f"ring dimension {cc.GetRingDimension()}")
                break
            except Exception as e:  # depends on OpenFHE's security table
                print(f"# BGV n={n} depth {depth} rejected: {str(e)[:100]}", file=sys.stderr)
                depth -= 1
        o.ClearEvalMultKeys()
        cc.ClearEvalAutomorphismKeys()
        kp = cc.KeyGen()
        cc.EvalMultKeyGen(kp.secretKey)
        cc.EvalRotateKeyGen(kp.secretKey, [1])
        v1 = [(i * 7 + 3) % 65537 for i in range(n)]
        v2 = [(i * 11 + 5) % 65537 for i in range(n)]
        p1, p2 = cc.MakePackedPlaintext(v1), cc.MakePackedPlaintext(v2)
        c1, c2 = cc.Encrypt(kp.publicKey, p1), cc.Encrypt(kp.publicKey, p2)
        out = cc.Decrypt(kp.secretKey, cc.ModReduce(cc.EvalMult(c1, c2)))
        out.SetLength(n)
        got = out.GetPackedValue()
        ok = all(int(got[i]) % 65537 == v1[i] * v2[i] % 65537 for i in range(n))
        prod = cc.EvalMult(c1, c2)
        qs = q_moduli(o, cc)
        shape = f"{len(qs)} primes, {'+'.join(str(q.bit_length()) for q in qs)} bits"
        rows.append((
            n, f"{depth} ({shape})",
            bench(lambda: cc.Encrypt(kp.publicKey, p1)),
            bench(lambda: cc.Decrypt(kp.secretKey, c1)),
            bench(lambda: cc.EvalMult(c1, c2)),
            bench(lambda: cc.ModReduce(prod)),
            bench(lambda: cc.EvalRotate(c1, 1)),
            ok,
        ))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rnsfhe", default="target/release/rnsfhe")
    ap.add_argument("--no-rnsfhe", action="store_true")
    ap.add_argument("--sizes", default="8192,16384")
    a = ap.parse_args()
    print(f"CPU: {cpu_model()}; OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}\n")
    if not a.no_rnsfhe:
        r = subprocess.run([a.rnsfhe, "bench", "bgv", "--out", "target/bench-bgv"],
                           capture_output=True, text=True, check=True)
        print(r.stdout)
    try:
        from importlib.metadata import version
        ver = version("openfhe")
    except Exception:
        ver = "?"
    rows = openfhe_rows([int(x) for x in a.sizes.split(",") if x])
    print(f"### OpenFHE BGVRNS (pip openfhe {ver}), t = 65537, FIXEDMANUAL, HYBRID key switching\n")
    print("| n | depth (Q) | encrypt | decrypt+decode | mul+relin (EvalMult) | mod switch (ModReduce) "
          "| rotate | product correct |")
    print("|---|---|---|---|---|---|---|---|")
    for n, d, enc, dec, mul, ms, rot, ok in rows:
        print(f"| {n} | {d} | {enc:.3f} ms | {dec:.3f} ms | {mul:.3f} ms | {ms:.3f} ms | {rot:.3f} ms "
              f"| {ok} |")


if __name__ == "__main__":
    main()
