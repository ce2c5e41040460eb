"""Single-classifier building blocks: paper numbers, mpmath references, properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from sotalib.multiplicity import clopper_pearson, prob_at_least

# private: the count a score rounds to and the log tails are the kernels these tests check against mpmath
from sotalib.multiplicity._binomial import count_at_least, log_cdf, log_sf

from .. import mpref


def test_coin_flip_single_classifier_numbers():
    # Section 3.2 of the second version: 15 or more of 20 fair flips, exactly 5 failures, 18 or more.
    assert round(prob_at_least(0.75, 20, 0.5), 5) == 0.02069
    assert round(float(stats.binom.pmf(5, 20, 0.5)), 5) == 0.01479
    assert round(prob_at_least(0.90, 20, 0.5), 5) == 0.00020


def test_clopper_pearson_interval_of_the_paper():
    # Section 3.4 (and v2 Section 3.3): 0.90 on n = 3,000 has the interval (0.8887, 0.9105).
    lo, hi = clopper_pearson(2700, 3000)
    assert (round(lo, 4), round(hi, 4)) == (0.8887, 0.9105)


def test_clopper_pearson_matches_scipy_binomtest():
    for x, n in [(0, 10), (10, 10), (3, 17), (2700, 3000)]:
        ci = stats.binomtest(x, n).proportion_ci(confidence_level=0.95, method="exact")
        assert clopper_pearson(x, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


@given(st.integers(1, 10**7), st.data())
def test_count_at_least_inverts_division(n, data):
    k = data.draw(st.integers(0, n))
    assert count_at_least(k / n, n) == k
    if k < n:  # a hair above k/n needs one more success
        assert count_at_least(k / n + 0.5 / n, n) == k + 1


EXTREMES = [
    (10**7, 0.5),
    (10**7, 1e-6),
    (10**7, 1 - 1e-6),
    (10**6, 0.9),
    (1000, 0.3),
    (20, 0.5),
    (10**7, 0.999),
]


@pytest.mark.parametrize("n,theta", EXTREMES)
def test_log_cdf_and_log_sf_against_mpmath(n, theta):
    mean, sd = n * theta, math.sqrt(n * theta * (1 - theta))
    xs = sorted(
        {max(0, min(n - 1, int(mean + z * sd))) for z in ((-8, 0, 6, 12) if n * theta * (1 - theta) < 1e5 else (-3, 6))}
    )
    for x in xs:
        ref_cdf = mpref.binom_cdf(x, n, theta)
        ref_sf = mpref.binom_sf(x, n, theta)
        # log P(X <= x) and log P(X > x) at 40 digits, each from the side that is small
        ref_log_cdf = mpref.mp.log(ref_cdf) if ref_cdf < 0.5 else mpref.mp.log1p(-ref_sf)
        ref_log_sf = mpref.mp.log(ref_sf) if ref_sf < 0.5 else mpref.mp.log1p(-ref_cdf)
        if ref_cdf > 1e-300:
            got = float(log_cdf(x, n, theta))
            assert got == pytest.approx(float(ref_log_cdf), rel=1e-9, abs=1e-300)
        if ref_sf > 1e-300:
            got = float(log_sf(x, n, theta))
            assert got == pytest.approx(float(ref_log_sf), rel=1e-9, abs=1e-300)
            # the digits of a tiny 1 - P_x must survive in log_cdf (relative accuracy of log1p(-sf))
            assert -float(np.expm1(log_cdf(x, n, theta))) == pytest.approx(float(ref_sf), rel=1e-9)


@pytest.mark.parametrize("bad", [dict(n=0), dict(theta=1.5), dict(theta=-0.1), dict(n=2.5)])
def test_prob_at_least_rejects_bad_input(bad):
    kwargs = dict(t=0.5, n=10, theta=0.5) | bad
    name = next(iter(bad))
    with pytest.raises(ValueError, match=rf"^{name} must"):
        prob_at_least(**kwargs)


def test_clopper_pearson_rejects_bad_alpha():
    with pytest.raises(ValueError, match=r"alpha must be in \(0, 1\)"):
        clopper_pearson(3, 10, alpha=1.0)
    with pytest.raises(ValueError, match=r"x must be an integer in \[0, 10\]"):
        clopper_pearson(11, 10)
