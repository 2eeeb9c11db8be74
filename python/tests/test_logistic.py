"""Encrypted logistic regression through Python matches the same algorithm in floating point."""

import numpy as np
import pytest

import rnsfhe
from rnsfhe import logistic


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
    clear = logistic.train_plain(x, y, 1)
    assert np.max(np.abs(w - clear)) < 1e-4
    acc = np.mean((logistic.predict_proba(w, x) > 0.5) == y)
    assert acc > 0.8
    with pytest.raises(rnsfhe.ParameterError, match="levels"):
        ctx.train_logistic(ctx.encrypt(z, pk), samples, features, 2)


def test_bad_data():
    with pytest.raises(ValueError, match="0 and 1"):
        logistic.pack([[1.0]], [2])
    with pytest.raises(ValueError, match="shape|must be"):
        logistic.pack([1.0, 2.0], [0, 1])
    with pytest.raises(ValueError, match="finite"):
        logistic.pack([[np.nan]], [1])
