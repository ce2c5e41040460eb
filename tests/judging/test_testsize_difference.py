"""``estimate_test_size(difference=...)``: items to tell two models apart, against independent computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from sotalib.judging import DifferenceTestSize, estimate_test_size


def _smallest_n(d: float, sd_diff: float, alpha: float, power: float) -> int:
    """The smallest n whose one-tail normal power reaches ``power``, found by counting up (scipy's normal)."""
    z = stats.norm.ppf(1 - alpha / 2)
    lo, hi = 1, 1
    while stats.norm.cdf(math.sqrt(hi) * d / sd_diff - z) < power:
        lo, hi = hi, hi * 2
    while lo < hi:  # bisection on a monotone power curve
        mid = (lo + hi) // 2
        if stats.norm.cdf(math.sqrt(mid) * d / sd_diff - z) >= power:
            hi = mid
        else:
            lo = mid + 1
    return lo


@pytest.mark.parametrize(
    "d,error,corr,alpha,power",
    [
        (0.02, 0.3, 0.5, 0.05, 0.8),
        (0.05, None, 0.3, 0.05, 0.9),
        (0.1, 0.1, -0.2, 0.01, 0.8),
        (0.01, 0.5, 0.9, 0.1, 0.5),
    ],
)
def test_sizes_are_the_smallest_n_of_the_normal_power(d, error, corr, alpha, power):
    r = estimate_test_size(difference=d, error=error, corr=corr, alpha=alpha, power=power)
    e = 0.5 if error is None else error
    var = e * (1 - e)
    assert r.paired == _smallest_n(d, math.sqrt(2 * var * (1 - corr)), alpha, power)
    assert r.unpaired == _smallest_n(d, math.sqrt(2 * var), alpha, power)
    assert isinstance(r, DifferenceTestSize) and r.sd == pytest.approx(math.sqrt(var))


def test_accuracy_and_error_give_the_same_size_and_half_is_the_largest():
    assert (
        estimate_test_size(difference=0.03, error=0.2).unpaired
        == estimate_test_size(difference=0.03, error=0.8).unpaired
    )
    assert estimate_test_size(difference=0.03).unpaired > estimate_test_size(difference=0.03, error=0.3).unpaired


def test_measured_sd_and_the_minimum_detectable_difference():
    r = estimate_test_size(difference=0.5, sd=2.0, corr=0.25, items=400)
    k = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert r.min_detectable_difference == pytest.approx(k * 2.0 * math.sqrt(2 * 0.75 / 400), rel=1e-12)
    assert r.min_detectable_difference_unpaired == pytest.approx(k * 2.0 * math.sqrt(2 / 400), rel=1e-12)
    # the detectable difference at the computed size is at most the difference asked for
    assert estimate_test_size(difference=0.5, sd=2.0, corr=0.25, items=r.paired).min_detectable_difference <= 0.5
    assert estimate_test_size(difference=0.5, sd=2.0, corr=0.25, items=r.paired - 1).min_detectable_difference > 0.5
    assert r.error is None and r.to_dict()["min_detectable_difference"] == r.min_detectable_difference


def test_monte_carlo_power_at_the_computed_size():
    """Correlated 0/1 outcomes at accuracies 0.6 and 0.65: the paired test's rejection rate at n is the power."""
    rng = np.random.default_rng(1)
    a, b, d, corr = 0.6, 0.65, 0.05, 0.5
    # per-item variance: the mean of the two Bernoulli variances (the formula assumes one for both models)
    sd = math.sqrt((a * (1 - a) + b * (1 - b)) / 2)
    n = estimate_test_size(difference=d, sd=sd, corr=corr).paired
    # a joint law of (x, y) with these marginals and correlation
    p11 = a * b + corr * math.sqrt(a * (1 - a) * b * (1 - b))
    probs = np.array([p11, a - p11, b - p11, 1 - a - b + p11])  # (1,1), (1,0), (0,1), (0,0)
    reps = 4000
    counts = rng.multinomial(n, probs, size=reps)
    diff = (counts[:, 2] - counts[:, 1]) / n  # mean of y - x
    var = (counts[:, 2] + counts[:, 1]) / n - diff**2
    z = diff / np.sqrt(var / n)
    rate = np.mean(np.abs(z) > stats.norm.ppf(0.975))
    assert abs(rate - 0.8) < 3 * math.sqrt(0.8 * 0.2 / reps), (n, rate)
    # unpaired: independent samples of n items each
    n_u = estimate_test_size(difference=d, sd=sd).unpaired
    x, y = rng.binomial(n_u, a, reps) / n_u, rng.binomial(n_u, b, reps) / n_u
    z_u = (y - x) / np.sqrt((x * (1 - x) + y * (1 - y)) / n_u)
    rate_u = np.mean(np.abs(z_u) > stats.norm.ppf(0.975))
    assert abs(rate_u - 0.8) < 3 * math.sqrt(0.8 * 0.2 / reps), (n_u, rate_u)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"difference": 0.1, "z": 2.0}, "z does not apply"),
        ({"difference": 0.1, "precision": 2.0}, "precision does not apply"),
        ({"difference": 0.1, "corr": 1.0}, r"corr must be in \[-1, 1\)"),
        ({"difference": 0.1, "power": 1.0}, r"power must be in \(0, 1\)"),
        ({"difference": 1.5}, "without sd"),
        ({"difference": 0.0}, "difference must be in"),
        ({"difference": 0.1, "items": 0}, "items must be an integer >= 1"),
        ({"difference": 0.1, "error": 0.1, "sd": 0.3}, "not both"),
        ({"difference": 1e-60}, r"10\^121 test items"),
        ({"error": 0.1, "corr": 0.5}, "corr applies only with difference"),
        ({"error": 0.1, "power": 0.9, "items": 3}, "power, items apply only with difference"),
        ({}, "give error"),
    ],
)
def test_refusals_name_the_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        estimate_test_size(**kwargs)


def test_huge_but_possible_sizes_are_exact_integers():
    r = estimate_test_size(difference=1e-40, corr=0.0)
    assert r.paired == r.unpaired and 10**80 < r.unpaired < 10**82
    assert estimate_test_size(difference=1.0, sd=1e-9, corr=0.99).paired == 1
    assert estimate_test_size(difference=0.1, power=0.01).unpaired == 1  # power below alpha/2: one item
