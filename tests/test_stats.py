"""The interval helpers of simcards/stats.py that are not covered through a report."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simcards.stats import median_interval


def _coverage(n: int, j: int) -> float:
    """P(x(j) <= true median <= x(n-1-j)) for n draws of a continuous distribution: the count
    of draws below the median is binomial (n, 1/2) and must lie in j+1 .. n-1-j."""
    return sum(math.comb(n, k) for k in range(j + 1, n - j)) / 2 ** n


@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=300))
@settings(max_examples=200, deadline=None)
def test_median_interval_holds_the_median_and_is_made_of_the_values(values):
    median, lo, hi = median_interval(values)
    assert median == pytest.approx(float(np.median(values)))
    assert lo in values and hi in values
    assert lo <= median <= hi


@pytest.mark.parametrize("n", [8, 9, 20, 60, 61, 400])
def test_median_interval_is_the_narrowest_of_at_least_95_percent(n):
    """The interval's ranks reach 95% coverage exactly by the binomial count, and one rank
    narrower would not."""
    values = list(range(n))  # the value at rank j is j
    _, lo, hi = median_interval(values)
    j = int(lo)
    assert hi == n - 1 - j
    assert _coverage(n, j) >= 0.95
    assert _coverage(n, j + 1) < 0.95


def test_median_interval_of_few_values_is_their_range():
    # below 8 values even the whole range holds the median with less than 95%
    assert median_interval([3.0, 1.0, 2.0]) == (2.0, 1.0, 3.0)
    assert median_interval([5.0]) == (5.0, 5.0, 5.0)
    with pytest.raises(ValueError):
        median_interval([])
