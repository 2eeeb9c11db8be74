"""The suite's worst-error helper fails on what a bare maximum would pass: NaN, infinity, an empty
result, a result of another shape."""

import numpy as np
import pytest

from worst import worst_error


def test_worst_error_is_the_largest_difference():
    assert worst_error([1.0, 2.5, -3.0], [1.0, 2.0, -1.0]) == 2.0
    assert worst_error(np.array([1 + 1j, 2.0]), np.array([1.0, 2.0])) == 1.0
    assert worst_error([0.5, 0.25], 0.5) == 0.25  # a scalar model is compared with every entry


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, complex(0.0, np.nan)])
def test_worst_error_refuses_a_non_finite_entry(bad):
    got = np.zeros(8, dtype=complex)
    got[5] = bad
    # What a plain maximum makes of it: Python's max() keeps the first entry over a later NaN.
    if np.isnan(bad):
        assert max([0.0, abs(bad)]) == 0.0
    with pytest.raises(AssertionError, match=r"result entries \[5\] are not finite"):
        worst_error(got, np.zeros(8))
    with pytest.raises(AssertionError, match="model entries"):
        worst_error(np.zeros(8), got)


def test_worst_error_refuses_an_empty_or_misshapen_result():
    with pytest.raises(AssertionError, match="empty"):
        worst_error([], [])
    with pytest.raises(AssertionError, match="shape"):
        worst_error(np.zeros(4), np.zeros(8))
