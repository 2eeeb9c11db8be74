"""Encrypted logistic regression through Python matches Cheon et al. (SAC 2018)'s algorithm written again in numpy
(logistic_reference.py), and so does the library's own floating-point training."""

import numpy as np
import pytest

import rnsfhe
from rnsfhe import logistic

from logistic_reference import sigmoid_cubic, train_reference
from worst import worst_error


def test_training_matches_plain():
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, (60, 2))
    y = (x[:, 0] - 0.5 * x[:, 1] + 0.1 * rng.normal(size=60) > 0).astype(int)
    z, samples, features = logistic.pack(x, y)
    assert (samples, features, len(z)) == (60, 3, 64 * 4)
    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=1024, levels=logistic.levels_needed(1),
                                                   security="insecure"))
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    ctx.galois_keys(sk, steps=logistic.rotation_steps(samples, features))
    w = ctx.decrypt(ctx.train_logistic(ctx.encrypt(z, pk), samples, features, 1), sk)[:features]
    assert worst_error(w, train_reference(x, y, 1)) < 1e-4
    acc = np.mean((logistic.predict_proba(w, x) > 0.5) == y)
    assert acc > 0.8
    with pytest.raises(rnsfhe.ParameterError, match="levels"):
        ctx.train_logistic(ctx.encrypt(z, pk), samples, features, 2)


def test_plain_training_matches_the_numpy_reference():
    """``logistic.train_plain`` (the library's f64 training) against the numpy re-derivation, for
    several iterations (the schedule's later learning rates and momenta included)."""
    c0, c1, c3 = sigmoid_cubic()
    assert abs(c0 - 0.5) < 1e-12 and abs(c1 - 0.15012) < 1e-4 and abs(c3 + 0.0015930) < 1e-5  # [28]
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, (40, 3))
    y = (x[:, 0] + x[:, 1] - x[:, 2] > 0).astype(int)
    for iterations in (1, 2, 5, 9):
        assert worst_error(logistic.train_plain(x, y, iterations), train_reference(x, y, iterations)) < 1e-12


def test_bad_data():
    with pytest.raises(ValueError, match="0 and 1"):
        logistic.pack([[1.0]], [2])
    with pytest.raises(ValueError, match="shape|must be"):
        logistic.pack([1.0, 2.0], [0, 1])
    with pytest.raises(ValueError, match="finite"):
        logistic.pack([[np.nan]], [1])
