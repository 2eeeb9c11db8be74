"""Encrypted logistic regression on the bundled low-birth-weight data (data/birthwt.csv, paper 004's
lbw): the data set is encrypted in one CKKS ciphertext, trained on by Nesterov's accelerated gradient
descent under encryption, and the decrypted weights are compared with the same training in the clear.

Run: python examples/python/logistic_regression.py
"""

import csv
import time
from pathlib import Path

import numpy as np

import rnsfhe
from rnsfhe import logistic

DATA = Path(__file__).resolve().parents[2] / "data" / "birthwt.csv"
ITERATIONS = 2


def load():
    with DATA.open() as f:
        rows = list(csv.DictReader(f))
    col = lambda name: np.array([float(r[name]) for r in rows])
    race = col("race")
    x = np.column_stack([col("age"), col("lwt"), race == 2, race == 3, col("smoke"), col("ptl"),
                         col("ht"), col("ui"), col("ftv")]).astype(float)
    return x / np.abs(x).max(axis=0), col("low").astype(int)   # features scaled into [0, 1]


def main():
    x, y = load()
    z, samples, features = logistic.pack(x, y)
    # 13 levels of 40 bits at N = 2^15 (128-bit secure); hybrid key switching keeps the keys small.
    params = rnsfhe.CkksParameters(degree=1 << 15, levels=logistic.levels_needed(ITERATIONS),
                                   scale_bits=40, special_moduli_bits=[60, 60, 60], digit_primes=4)
    ctx = rnsfhe.CkksContext(params)
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    ctx.galois_keys(sk, steps=logistic.rotation_steps(samples, features))

    start = time.perf_counter()
    enc = ctx.encrypt(z, pk)
    w_enc = ctx.train_logistic(enc, samples, features, ITERATIONS)
    w = ctx.decrypt(w_enc, sk)[:features]
    seconds = time.perf_counter() - start

    clear = logistic.train_plain(x, y, ITERATIONS)
    assert np.max(np.abs(w - clear)) < 1e-4, (w, clear)
    acc = np.mean((logistic.predict_proba(w, x) > 0.5) == y)
    acc_clear = np.mean((logistic.predict_proba(clear, x) > 0.5) == y)
    assert acc == acc_clear
    print(f"{samples} mothers, {features - 1} features, {ITERATIONS} iterations under encryption in "
          f"{seconds:.1f} s: accuracy {100 * acc:.1f}% (clear training {100 * acc_clear:.1f}%), "
          f"weights within {np.max(np.abs(w - clear)):.0e} of the clear training")


if __name__ == "__main__":
    main()
