"""The extreme-value approximation of the expected maximum against the exact mean (summarize_max)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import sotalib as sl
from sotalib.multiplicity import expected_max_extreme_value


def _error_sd(n: int, m: int, theta: float) -> float:
    """(approximation - exact mean) in binomial standard deviations."""
    exact = sl.summarize_max(n, m, theta).mean
    return (expected_max_extreme_value(n, m, theta) - exact) / math.sqrt(theta * (1 - theta) / n)


def test_the_error_falls_with_m_where_the_binomial_is_symmetric():
    # theta = 0.5, n = 100,000: a nearly normal score; the expansion's own error falls like 1 / ln m
    errors = [_error_sd(100_000, m, 0.5) for m in (100, 10_000, 1_000_000)]
    assert 0 < errors[2] < errors[1] < errors[0] < 0.05
    assert errors[2] < 0.015


@pytest.mark.parametrize("m", [1_000, 100_000, 1_000_000])
@pytest.mark.parametrize("n, theta", [(10_000, 0.8), (1_000_000, 0.7)])
def test_within_a_tenth_of_a_binomial_sd_at_large_m(n, m, theta):
    # asymptotic in m and n: measured 0.016 to 0.071 sd at these settings
    assert abs(_error_sd(n, m, theta)) < 0.1


def test_a_skewed_binomial_is_where_it_fails_and_one_team_is_theta():
    # n theta (1 - theta) = 90: the normal tail misses the binomial's; the error grows with m
    assert 0.25 < _error_sd(1_000, 1_000_000, 0.9) < 0.5
    assert expected_max_extreme_value(1_000, 1, 0.9) == 0.9


def test_broadcasts_and_names_bad_arguments():
    out = expected_max_extreme_value(10_000, np.array([10, 100, 1000]), 0.8)
    assert out.shape == (3,) and np.all(np.diff(out) > 0)
    for kwargs, name in ((dict(n=0), "n"), (dict(m=0.5), "m"), (dict(theta=1.5), "theta")):
        args = dict(n=100, m=10, theta=0.5) | kwargs
        with pytest.raises(ValueError, match=name):
            expected_max_extreme_value(**args)
