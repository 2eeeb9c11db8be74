"""CKKS in Python on the bundled birth-weight data (data/birthwt.csv): the mean and variance of
mothers' weights and a fitted polynomial, computed on one encrypted vector and compared with numpy.

Run: python examples/python/ckks_statistics.py
"""

import csv
from pathlib import Path

import numpy as np

import rnsfhe

DATA = Path(__file__).resolve().parents[2] / "data" / "birthwt.csv"


def main():
    with DATA.open() as f:
        lwt = np.array([float(row["lwt"]) for row in csv.DictReader(f)])  # weight in pounds
    x = lwt / 250.0                      # scale into [0, 1] so that powers stay small

    # 128-bit secure: N = 2^14, 6 levels of 50-bit primes (scale 2^50), 60-bit q_0 and special prime.
    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=16384, levels=6, scale_bits=50))
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    ctx.galois_keys(sk)                  # every power-of-two rotation: sums, means, variances

    n = 256                              # a power of two >= len(x); the padding slots hold zeros
    enc = ctx.encrypt(np.pad(x, (0, n - len(x))), pk)

    # The mean over n slots, then corrected for the padding (a plaintext constant).
    mean = ctx.mean(enc, n) * (n / len(x))
    second_moment = ctx.mean(enc * enc, n) * (n / len(x))
    var = second_moment - mean * mean
    poly = 0.5 + enc * 0.25 - enc ** 2  # any polynomial, written as Python arithmetic

    got_mean = ctx.decrypt(mean, sk)[0] * 250.0
    got_var = ctx.decrypt(var, sk)[0] * 250.0 ** 2
    got_poly = ctx.decrypt(poly, sk)[: len(x)]
    assert abs(got_mean / lwt.mean() - 1) < 1e-6, (got_mean, lwt.mean())
    assert abs(got_var / lwt.var() - 1) < 1e-6, (got_var, lwt.var())
    assert np.max(np.abs(got_poly - (0.5 + 0.25 * x - x**2))) < 1e-6

    print(f"{len(x)} mothers' weights: encrypted mean {got_mean:.4f} (numpy {lwt.mean():.4f}), "
          f"variance {got_var:.3f} (numpy {lwt.var():.3f})")
    print(f"levels left after the variance: {var.level}; ciphertext {len(var.to_bytes()) // 1024} KiB")


if __name__ == "__main__":
    main()
