"""pickle.loads of 2000 objects of a live bootstrappable toy context (logn=11, insecure), best of 3:
what a Dask worker pays per object received (`python bench/unpickle.py` in the venv of `make python`)."""
import pickle, time
import numpy as np
import rnsfhe

N = 2000
p = rnsfhe.CkksParameters.bootstrappable(logn=11, security="insecure")
ctx = rnsfhe.CkksContext(p, seed=bytes(32))
sk, pk = ctx.keygen()
ct = ctx.encrypt(np.ones(ctx.slots), pk)
ct0 = ctx.drop_to_level(ct, 0)


def best(f):
    ts = []
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(N):
            f()
        ts.append(time.perf_counter() - t0)
    return min(ts)


for name, obj in [("ciphertext (top level)", ct), ("ciphertext (level 0)", ct0),
                  ("parameters", p), ("context", ctx)]:
    blob = pickle.dumps(obj, protocol=5)
    t = best(lambda: pickle.loads(blob))
    print(f"pickle.loads {name:24s} x{N}: {t*1e3:7.1f} ms ({t/N*1e6:6.1f} us each, {len(blob)} B)")
b = p.to_bytes()
t = best(lambda: rnsfhe.CkksParameters.from_bytes(b))
print(f"CkksParameters.from_bytes {'':11s} x{N}: {t*1e3:7.1f} ms ({t/N*1e6:6.1f} us each)")
