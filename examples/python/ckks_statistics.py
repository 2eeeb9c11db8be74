"""CKKS in Python on the bundled birth-weight data (data/birthwt.csv): the mean and variance of
mothers' weights and a fitted polynomial, computed on one encrypted vector and compared with numpy.
The results are published, so they are decrypted with noise flooding (``flood=rnsfhe.Flooding``).

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

    # 128-bit secure: N = 2^14, 4 levels of 60-bit primes (scale 2^60), 61-bit q_0, 60-bit special
    # prime. The published results are flooded (below), which costs about 20 + log2(N) + log2(error)
    # bits of the scale: a scale of 2^60 keeps about 16 of them (2^50 would keep 6).
    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=16384, levels=4, scale_bits=60,
                                                   first_modulus_bits=61))
    n = 256                              # a power of two >= len(x); the padding slots hold zeros
    padded = np.pad(x, (0, n - len(x)))

    def statistics(sk, pk):
        """The encrypted mean, variance and a polynomial of x under the key pair (sk, pk)."""
        ctx.relin_key(sk)
        ctx.galois_keys(sk)              # every power-of-two rotation: sums, means, variances
        enc = ctx.encrypt(padded, pk)
        # The mean over n slots, then corrected for the padding (a plaintext constant).
        mean = ctx.mean(enc, n) * (n / len(x))
        second_moment = ctx.mean(enc * enc, n) * (n / len(x))
        var = second_moment - mean * mean
        poly = 0.5 + enc * 0.25 - enc ** 2  # any polynomial, written as Python arithmetic
        return mean, var, poly

    clear = [np.full(n, x.mean()), np.full(n, x.var()), 0.5 + 0.25 * padded - padded ** 2]

    # The results are published, so they are decrypted with noise flooding: a raw CKKS decryption
    # holds the ciphertext's error, from which anyone holding the ciphertext recovers the secret key
    # (Li and Micciancio, Eurocrypt 2021). The flooding is sized from the error of a rehearsal of
    # the same computation under a throwaway key pair (measured there, never on the real key), for
    # the three published decryptions at statistical security 2^-40.
    throwaway_sk, throwaway_pk = ctx.keygen()
    rehearsal = statistics(throwaway_sk, throwaway_pk)
    bound = max(ctx.error_log2(ct, throwaway_sk, want) for ct, want in zip(rehearsal, clear))
    flood = rnsfhe.Flooding(bound + 1, decryptions=3)

    sk, pk = ctx.keygen()
    mean, var, poly = statistics(sk, pk)
    got_mean = ctx.decrypt(mean, sk, flood=flood)[0] * 250.0
    got_var = ctx.decrypt(var, sk, flood=flood)[0] * 250.0 ** 2
    got_poly = ctx.decrypt(poly, sk, flood=flood)[: len(x)]
    # Flooding costs about 20 + log2(N) bits of the scale: what is left, predicted per result.
    bits = [flood.precision_bits(np.log2(ct.scale), ctx.params.degree) for ct in (mean, var, poly)]
    tol = [2.0 ** (6 - b) for b in bits]   # 6 bits above the noise's standard deviation
    assert abs(got_mean / 250.0 - x.mean()) < tol[0], (got_mean, lwt.mean())
    assert abs(got_var / 250.0 ** 2 - x.var()) < tol[1], (got_var, lwt.var())
    assert np.max(np.abs(got_poly - (0.5 + 0.25 * x - x**2))) < tol[2]

    print(f"{len(x)} mothers' weights: encrypted mean {got_mean:.4f} (numpy {lwt.mean():.4f}), "
          f"variance {got_var:.3f} (numpy {lwt.var():.3f})")
    print(f"flooded decryptions (lambda = 40, 3 decryptions, error bound 2^{bound:.1f}): "
          f"sigma 2^{np.log2(flood.sigma_for(ctx.params.degree)):.1f}, precision about "
          f"{min(bits):.1f} bits of the scale 2^{np.log2(var.scale):.0f}")
    print(f"levels left after the variance: {var.level}; ciphertext {len(var.to_bytes()) // 1024} KiB")


if __name__ == "__main__":
    main()
