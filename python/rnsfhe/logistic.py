"""Encrypted logistic regression (Cheon et al. (SAC 2018), section 5.3): pack a data set into one CKKS ciphertext,
train with ``CkksContext.train_logistic``, and predict with the decrypted weights.

Example::

    z, samples, features = rnsfhe.logistic.pack(x, y)       # y in {0, 1}; a bias column is added
    levels = rnsfhe.logistic.levels_needed(iterations=2)
    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=65536, levels=levels, ...))
    sk, pk = ctx.keygen(); ctx.relin_key(sk)
    ctx.galois_keys(sk, steps=rnsfhe.logistic.rotation_steps(samples, features))
    w = ctx.decrypt(ctx.train_logistic(ctx.encrypt(z, pk), samples, features, 2), sk)[:features]
    p = rnsfhe.logistic.predict_proba(w, x)

Past the levels: bootstrappable parameters, ``ctx.bootstrapping_keys(sk)``, the conjugation key
(``galois_keys(..., conjugation=True)``), the data encoded at ``ctx.bootstrap_level``, then
``ctx.train_logistic(z, samples, features, 40, bootstrap=True)``: the weights (|w| <= ``WEIGHT_BOUND``) are
bootstrapped, one bootstrap per refresh, when their levels run out (examples/python/logistic_regression.py).
"""

import numpy as np

from ._rnsfhe import (
    LOGISTIC_LEVELS_PER_ITERATION,
    LOGISTIC_WEIGHT_BOUND,
    logistic_rotation_steps,
    logistic_train_plain,
)

WEIGHT_BOUND = LOGISTIC_WEIGHT_BOUND

__all__ = ["WEIGHT_BOUND", "pack", "rows", "rotation_steps", "levels_needed", "train_plain", "predict_proba"]


def rows(x, y):
    """The rows z_i = y_i' (1, x_i) with y_i' = 2 y_i - 1 in {-1, 1}: an (n, f) float array."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y)
    if x.ndim != 2 or y.ndim != 1 or len(x) != len(y) or len(x) == 0:
        raise ValueError(f"x must be (n, d) and y of length n; got {x.shape} and {y.shape}")
    if not np.all(np.isin(y, [0, 1])):
        raise ValueError("y must hold only 0 and 1")
    if not np.all(np.isfinite(x)):
        raise ValueError("x must be finite")
    sign = 2.0 * y - 1.0
    return sign[:, None] * np.hstack([np.ones((len(x), 1)), x])


def pack(x, y):
    """The packed vector for encryption (rows padded to R x F powers of two, row-major), the number of
    samples and the number of features (bias included)."""
    z = rows(x, y)
    n, f = z.shape
    r, fp = 1 << (n - 1).bit_length(), 1 << (f - 1).bit_length()
    out = np.zeros((r, fp))
    out[:n, :f] = z
    return out.ravel(), n, f


def rotation_steps(samples, features):
    """The rotation steps to pass to ``CkksContext.galois_keys`` for training."""
    return logistic_rotation_steps(samples, features)


def levels_needed(iterations):
    """The CKKS levels ``iterations`` training iterations consume (plus one to spare)."""
    return LOGISTIC_LEVELS_PER_ITERATION * iterations + 1


def train_plain(x, y, iterations):
    """The same algorithm in floating point (same sigmoid approximation and schedule): the weights."""
    return np.array(logistic_train_plain(rows(x, y).tolist(), iterations))


def predict_proba(weights, x):
    """P(y = 1 | x) for the weights (bias first)."""
    x = np.asarray(x, dtype=np.float64)
    return 1.0 / (1.0 + np.exp(-(weights[0] + x @ np.asarray(weights[1:]))))
