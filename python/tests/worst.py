"""The worst error of a check, refusing what a bare maximum can let through: a result that is empty,
of another shape than the model, or holding NaN or infinity (Python's max() drops a NaN that is not
first; np.nanmax drops them all). Every worst-error check of the suite goes through it."""

import numpy as np


def worst_error(got, want=0.0):
    """The largest |got - want|, entry by entry, as a float.

    Fails (AssertionError naming the entries) when got is empty, when its shape differs from want's
    (a scalar want is compared with every entry), or when got or want holds NaN or infinity."""
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.size > 0, "the result is empty"
    assert want.ndim == 0 or got.shape == want.shape, f"result shape {got.shape}, model shape {want.shape}"
    for name, v in (("result", got), ("model", want)):
        bad = np.flatnonzero(~np.isfinite(v))
        assert bad.size == 0, f"{name} entries {bad[:8].tolist()} are not finite: {v.flat[bad[0]]}"
    return float(np.max(np.abs(got - want)))
