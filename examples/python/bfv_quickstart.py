"""BFV in Python: encrypt two integer vectors, compute (a + b) * a - 3 and a rotation, decrypt, compare.

Run: python examples/python/bfv_quickstart.py   (after `pip install .` at the repository root)
"""

import numpy as np

import rnsfhe


def main():
    # 128-bit secure defaults: n = 8192, t = 65537 (a prime = 1 mod 2n, so 8192 batching slots).
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=8192, plain_modulus=65537))
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)                    # registered with the context: enables a * b and a ** k
    ctx.galois_keys(sk, steps=[1])       # registered: enables a.rotate_rows(1)

    rng = np.random.default_rng(1)
    x = rng.integers(-100, 100, ctx.slots)
    y = rng.integers(-100, 100, ctx.slots)
    a, b = ctx.encrypt(x, pk), ctx.encrypt(y, pk)

    c = (a + b) * a - 3
    got = ctx.decrypt(c, sk, signed=True)          # signed: values centred in (-t/2, t/2]
    want = (x + y) * x - 3
    assert np.array_equal(got, want), "BFV result differs from the plaintext computation"

    # The slots form a 2 x 4096 matrix; rotate_rows shifts both rows left.
    r = ctx.decrypt(a.rotate_rows(1), sk, signed=True).reshape(2, -1)
    assert np.array_equal(r, np.roll(x.reshape(2, -1), -1, axis=1))

    print("first slots of (a + b) * a - 3:", got[:5], "expected", want[:5])
    print("noise budget left:", ctx.noise_budget(c, sk), "bits")
    print("ciphertext size:", len(c.to_bytes()) // 1024, "KiB")


if __name__ == "__main__":
    main()
