"""Encrypted logistic regression on the bundled low-birth-weight data (data/birthwt.csv, Cheon et al. (SAC 2018)'s
lbw): the data set is encrypted in one CKKS ciphertext, trained on by Nesterov's accelerated gradient
descent under encryption, and the decrypted weights are compared with the same training in the clear.

Run: python examples/python/logistic_regression.py              (2 iterations, leveled)
     python examples/python/logistic_regression.py --bootstrap  (40 iterations, the weights
         bootstrapped when their levels run out: N = 2^16, 128-bit, 2^12 sparse slots)
     python examples/python/logistic_regression.py --bootstrap --toy  (the same at an INSECURE
         N = 2^13 preset, for a quick look)
"""

import argparse
import csv
import time
from pathlib import Path

import numpy as np

import rnsfhe
from rnsfhe import logistic

DATA = Path(__file__).resolve().parents[2] / "data" / "birthwt.csv"
ITERATIONS = 2
# The clear training's accuracy is stable from 40 iterations on (and its AUC within 0.005).
BOOTSTRAP_ITERATIONS = 40


def load():
    with DATA.open() as f:
        rows = list(csv.DictReader(f))
    col = lambda name: np.array([float(r[name]) for r in rows])
    race = col("race")
    x = np.column_stack([col("age"), col("lwt"), race == 2, race == 3, col("smoke"), col("ptl"),
                         col("ht"), col("ui"), col("ftv")]).astype(float)
    return x / np.abs(x).max(axis=0), col("low").astype(int)   # features scaled into [0, 1]


def auc(p, y):
    """The area under the ROC curve: P(p of a positive > p of a negative), ties counting half."""
    pos, neg = p[y == 1][:, None], p[y == 0][None, :]
    return float(np.mean((pos > neg) + 0.5 * (pos == neg)))


def leveled(x, y, z, samples, features):
    # 13 levels of 40 bits at N = 2^15 (128-bit secure); hybrid key switching keeps the keys small.
    params = rnsfhe.CkksParameters(degree=1 << 15, levels=logistic.levels_needed(ITERATIONS),
                                   scale_bits=40, special_moduli_bits=[60, 60, 60], digit_primes=4)
    ctx = rnsfhe.CkksContext(params)
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    ctx.galois_keys(sk, steps=logistic.rotation_steps(samples, features))
    start = time.perf_counter()
    w = ctx.decrypt(ctx.train_logistic(ctx.encrypt(z, pk), samples, features, ITERATIONS), sk)
    return w[:features], ITERATIONS, time.perf_counter() - start


def bootstrapped(x, y, z, samples, features, toy, iterations):
    slots = len(z)  # R x F = 256 x 16: sparse packing at N = 2^16, full at the toy N = 2^13
    if toy:
        params = rnsfhe.CkksParameters.bootstrappable(logn=13, residual_levels=7,
                                                      security="insecure")
    else:
        params = rnsfhe.CkksParameters.bootstrappable(slots=slots)
    ctx = rnsfhe.CkksContext(params)
    sk, pk = ctx.keygen()
    start = time.perf_counter()
    ctx.relin_key(sk)
    # The training runs between bootstraps: its rotation keys only up to the bootstrap's level.
    ctx.galois_keys(sk, steps=logistic.rotation_steps(samples, features), conjugation=True,
                    level=ctx.bootstrap_level)
    keys = ctx.bootstrapping_keys(sk)  # a progress bar
    keygen = time.perf_counter() - start
    print(f"{params!r}: keys in {keygen:.1f} s, bootstrapping keys {keys.nbytes / 2**20:.0f} MiB")
    start = time.perf_counter()
    # The data at the residual top level (where the training runs between bootstraps).
    data = ctx.encrypt(ctx.encode(z, level=ctx.bootstrap_level), pk)
    enc = ctx.train_logistic(data, samples, features, iterations, bootstrap=True, progress=True)
    w = ctx.decrypt(enc, sk)[:features]
    return w, iterations, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap", action="store_true",
                        help=f"train {BOOTSTRAP_ITERATIONS} iterations, bootstrapping the weights")
    parser.add_argument("--toy", action="store_true", help="with --bootstrap: an INSECURE N = 2^13")
    parser.add_argument("--iterations", type=int, default=BOOTSTRAP_ITERATIONS,
                        help="with --bootstrap: the number of iterations")
    args = parser.parse_args()
    x, y = load()
    z, samples, features = logistic.pack(x, y)
    if args.bootstrap:
        w, iterations, seconds = bootstrapped(x, y, z, samples, features, args.toy, args.iterations)
    else:
        w, iterations, seconds = leveled(x, y, z, samples, features)

    clear = logistic.train_plain(x, y, iterations)
    p, p_clear = logistic.predict_proba(w, x), logistic.predict_proba(clear, x)
    acc, acc_clear = np.mean((p > 0.5) == y), np.mean((p_clear > 0.5) == y)
    area, area_clear = auc(p, y), auc(p_clear, y)
    print(f"{samples} mothers, {features - 1} features, {iterations} iterations under encryption in "
          f"{seconds:.1f} s: accuracy {100 * acc:.1f}% (clear training {100 * acc_clear:.1f}%), "
          f"AUC {area:.4f} (clear {area_clear:.4f}), weights within "
          f"{np.max(np.abs(w - clear)):.0e} of the clear training")
    # Each refresh adds the bootstrap's error (about 2^-20 at N = 2^16, times 4 in the unpacking).
    assert np.max(np.abs(w - clear)) < (1e-2 if args.bootstrap else 1e-4), (w, clear)
    assert acc == acc_clear and area == area_clear


if __name__ == "__main__":
    main()
