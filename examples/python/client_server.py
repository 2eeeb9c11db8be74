"""A client/server round trip through bytes: the client keeps the secret key and sends parameters,
evaluation keys and ciphertexts; the server computes without seeing any value; the client decrypts.

Run: python examples/python/client_server.py
"""

import pickle

import numpy as np

import rnsfhe


def client_setup():
    params = rnsfhe.CkksParameters(degree=8192, levels=2, scale_bits=40)  # 200 bits: 128-bit secure
    ctx = rnsfhe.CkksContext(params)
    sk, pk = ctx.keygen()
    rlk = ctx.relin_key(sk)
    gk = ctx.galois_keys(sk, steps=[1, 2, 4])
    x = np.array([1.0, 2.0, 3.0, 4.0])
    upload = {
        "params": params.to_bytes(),
        "relin_key": rlk.to_bytes(),
        "galois_keys": gk.to_bytes(),
        "x": ctx.encrypt(x, sk).to_bytes(),   # secret-key encryption: stored at half size
    }
    return ctx, sk, x, upload


def server(upload):
    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters.from_bytes(upload["params"]))
    ctx.register_keys(relin_key=ctx.relin_key_from_bytes(upload["relin_key"]),
                      galois_keys=ctx.galois_keys_from_bytes(upload["galois_keys"]))
    x = ctx.ciphertext_from_bytes(upload["x"])
    y = x * x + x.rotate(1)              # x_i^2 + x_(i+1)
    return pickle.dumps(y)               # pickling works too (it carries the parameters)


def main():
    ctx, sk, x, upload = client_setup()
    print("upload sizes (bytes):", {k: len(v) for k, v in upload.items()})
    y = pickle.loads(server(upload))
    # A raw decryption: the result stays with the client. Were it sent back to the server (or
    # published), decrypt with flood=rnsfhe.Flooding(...): see examples/python/ckks_statistics.py.
    got = ctx.decrypt(y, sk)[: len(x)]
    want = x * x + np.roll(x, -1)
    assert np.max(np.abs(got - want)) < 1e-5, (got, want)  # scale 2^40: ~20 bits after the point
    print("decrypted:", np.round(got, 6), "expected:", want)

    # Damaged bytes are refused with an error that says why.
    try:
        ctx.ciphertext_from_bytes(upload["x"][:-1])
    except rnsfhe.RnsfheError as e:
        print("truncated upload refused:", e)


if __name__ == "__main__":
    main()
