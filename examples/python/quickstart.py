import numpy as np
import rnsfhe

# CKKS: approximate arithmetic on real vectors (128-bit secure, N = 2^14, 5 levels of 40 bits).
ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=16384, levels=5, scale_bits=40))
sk, pk = ctx.keygen()
ctx.relin_key(sk)                  # registered with the context: enables ``*`` and ``**``
ctx.galois_keys(sk)                # power-of-two rotations: ``.rotate``, sums, means, variances
x = ctx.encrypt(np.array([0.5, -1.25, 2.0, 0.1]), pk)
y = x * x + 0.5 * x - 1.0          # each product is relinearised and rescaled
print(ctx.decrypt(y, sk)[:4])      # ~ [-0.5, -0.0625, 4.0, -0.94]
print(ctx.decrypt(ctx.mean(x), sk)[0], ctx.decrypt(ctx.sigmoid(x), sk)[:2])

# BFV: exact arithmetic on integer vectors modulo t = 65537 (8192 slots).
bfv = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=8192, plain_modulus=65537))
bsk, bpk = bfv.keygen()
bfv.relin_key(bsk)
a = bfv.encrypt([1, 2, 3], bpk)
print(bfv.decrypt(a * a - 5, bsk, signed=True)[:3], bfv.noise_budget(a * a, bsk))  # [-4 -1  4] ...

# Bytes and pickles for the trip between client and server.
blob = y.to_bytes()
assert np.allclose(ctx.decrypt(ctx.ciphertext_from_bytes(blob), sk), ctx.decrypt(y, sk))
