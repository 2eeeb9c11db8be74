"""An encrypted neural network classifies handwritten digits (scikit-learn's bundled `load_digits`:
8x8 images, 10 classes). The network, dense(64 -> 32), ReLU, dense(32 -> 10), argmax, is trained in
the clear; a batch of test images is encrypted in one CKKS ciphertext (one image per 64 slots), the
whole network runs on it under encryption, bootstrapping by itself whenever the levels run out, and
the result is the encrypted argmax: a one-hot mask per image, decrypted by the image's owner.

Each dense layer is one batched matrix product (`ctx.matrix(W, batch=...)`, Halevi-Shoup diagonals
by hoisted baby-step giant-step); ReLU and argmax are composite minimax polynomials for sign
(`ctx.relu`, `ctx.argmax`). The weights are scaled so that every encrypted value stays in [-1, 1]
(ReLU and argmax are unchanged by a positive scale): what the bootstrap and the comparisons take.

Run: python examples/python/digits_network.py          (128-bit, N = 2^16: the whole test split,
         360 images, in one ciphertext; minutes, about 8 GB)
     python examples/python/digits_network.py --small  (INSECURE N = 2^11 toy preset, 16 images)

Needs scikit-learn (for the data set only): pip install scikit-learn.
"""

import argparse
import resource
import time

import numpy as np

import rnsfhe

STRIDE = 64  # slots per image: the 64 pixels in, the 32 hidden values, then the 10 scores
CLASSES = 10
ARGMAX_BLOCK = 16  # the scores and 6 padding slots: 4 rounds of comparisons


def load(seed=0):
    """The digits, pixels in [0, 1], split 80/20 at random (fixed seed)."""
    from sklearn.datasets import load_digits

    x, y = load_digits(return_X_y=True)
    order = np.random.default_rng(seed).permutation(len(y))
    x, y = x[order] / 16.0, y[order]
    cut = int(0.8 * len(y))
    return (x[:cut], y[:cut]), (x[cut:], y[cut:])


def train(x, y, hidden=32, epochs=400, lr=0.05, seed=1):
    """dense(64 -> hidden), ReLU, dense(hidden -> 10), softmax cross-entropy, full-batch Adam."""
    rng = np.random.default_rng(seed)
    params = [rng.normal(0, 1 / 8, (hidden, 64)), np.zeros(hidden),
              rng.normal(0, 1 / np.sqrt(hidden), (CLASSES, hidden)), np.zeros(CLASSES)]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    onehot = np.eye(CLASSES)[y]
    for t in range(1, epochs + 1):
        w1, b1, w2, b2 = params
        h = x @ w1.T + b1
        a = np.maximum(h, 0)
        z = a @ w2.T + b2
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        dz = (p - onehot) / len(y)
        da = dz @ w2 * (h > 0)
        grads = [da.T @ x, da.sum(axis=0), dz.T @ a, dz.sum(axis=0)]
        for i, g in enumerate(grads):
            m, v = moments[i]
            m[:] = 0.9 * m + 0.1 * g
            v[:] = 0.999 * v + 0.001 * g * g
            params[i] -= lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return params


def scaled(params, x_train):
    """The weights scaled so that the hidden values and the scores of the training images lie in
    [-0.9, 0.9]: relu(h / s1) = relu(h) / s1, and argmax ignores the second scale."""
    w1, b1, w2, b2 = params
    s1 = np.abs(x_train @ w1.T + b1).max() / 0.9
    hidden = np.maximum(x_train @ w1.T + b1, 0) / s1
    s2 = np.abs(hidden @ w2.T * s1 + b2).max() / 0.9
    return w1 / s1, b1 / s1, w2 * s1 / s2, b2 / s2


def clear(params, x):
    w1, b1, w2, b2 = params
    return (np.maximum(x @ w1.T + b1, 0) @ w2.T + b2).argmax(axis=1)


def per_image(values, batch, slots):
    """A vector of `slots` slots holding `values` at the start of each image's stride."""
    out = np.zeros(slots)
    for j in range(batch):
        out[j * STRIDE:j * STRIDE + len(values)] = values
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", action="store_true", help="INSECURE toy preset, 16 images")
    args = parser.parse_args()

    (x_train, y_train), (x_test, y_test) = load()
    params = train(x_train, y_train)
    w1, b1, w2, b2 = scaled(params, x_train)
    clear_pred = clear(params, x_test)
    clear_acc = (clear_pred == y_test).mean()

    t0 = time.perf_counter()
    if args.small:
        cp = rnsfhe.CkksParameters.bootstrappable(logn=11, residual_levels=8, security="insecure")
    else:
        cp = rnsfhe.CkksParameters.bootstrappable(secret=192)  # 128-bit, N = 2^16, 2^15 slots
    ctx = rnsfhe.CkksContext(cp)
    slots = ctx.slots
    batch = min(slots // STRIDE, len(y_test))
    x_batch, y_batch = x_test[:batch], y_test[:batch]
    start = ctx.bootstrap_level  # the levels between bootstraps
    layer1 = ctx.matrix(w1, batch=batch, stride=STRIDE, slots=slots, level=start)
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    ctx.bootstrapping_keys(sk)
    steps = set(layer1.rotation_steps) | set(ctx.comparison_steps(ARGMAX_BLOCK))
    # The second layer's steps: the same matrix shape at any level.
    steps |= set(ctx.matrix(w2, batch=batch, stride=STRIDE, slots=slots, level=1).rotation_steps)
    ctx.galois_keys(sk, steps=sorted(steps), level=start)
    keys_s = time.perf_counter() - t0

    # The client: one ciphertext for the batch, at the residual top level.
    ct = ctx.encrypt(ctx.encode(layer1.pack(x_batch), level=start), pk)

    # The server: the network, bootstrapping when the levels run out.
    t1, boots = time.perf_counter(), ctx.bootstraps
    h = ctx.matmul(ct, layer1) + per_image(b1, batch, slots)
    h = ctx.relu(h, alpha=8)
    # The product spends a level; the SlotsToCoeffs-first bootstrap needs bootstrap_min_level after it.
    if h.level - 1 < ctx.bootstrap_min_level:
        h = ctx.bootstrap(h)
    layer2 = ctx.matrix(w2, batch=batch, stride=STRIDE, slots=slots, level=h.level)
    # The 6 padding slots of each argmax block at -1, below every score.
    pad = per_image(np.concatenate([b2, -np.ones(ARGMAX_BLOCK - CLASSES)]), batch, slots)
    scores = ctx.matmul(h, layer2) + pad
    mask = ctx.argmax(scores, ARGMAX_BLOCK, gap=2.0**-8, alpha=12)
    server_s = time.perf_counter() - t1
    boots = ctx.bootstraps - boots

    # The client decrypts the one-hot masks.
    got = ctx.decrypt(mask, sk)[:batch * STRIDE].reshape(batch, STRIDE)[:, :CLASSES]
    pred = got.argmax(axis=1)
    enc_acc = (pred == y_batch).mean()
    agree = (pred == clear_pred[:batch]).mean()
    clear_batch = (clear_pred[:batch] == y_batch).mean()
    memory_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20

    print(f"digits: {len(y_train)} training images, {len(y_test)} test images; "
          f"clear network accuracy on the test split {clear_acc:.4f}")
    print(f"encrypted: {batch} images in one ciphertext (N = {2 * slots}), accuracy {enc_acc:.4f} "
          f"(clear on the same images {clear_batch:.4f}), agreement with the clear network {agree:.4f}")
    print(f"server time {server_s:.1f} s for the batch ({batch / server_s:.2f} images/s), "
          f"{boots} bootstraps, set-up and keys {keys_s:.1f} s, peak memory {memory_gb:.1f} GB")
    # The encrypted network is the clear one up to near ties of the two best scores.
    assert abs(enc_acc - clear_batch) <= max(0.01, 1.0 / batch) + 1e-12, (enc_acc, clear_batch)


if __name__ == "__main__":
    main()
