"""The exact distribution of the iid sample maximum (Eqs. 2-3): paper numbers,
mpmath at the extremes, Monte Carlo, properties and bad input."""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from sotalib.book.papers import APPENDIX_A
from sotalib.multiplicity import (
    clopper_pearson,
    iid_bias_sd,
    iid_max_distribution,
    prob_any_at_least,
    prob_at_least,
    simulate_iid_max,
    simulate_iid_max_counts,
)

# private: Eq. 3's cdf, sf and pmf as formulas, held to mpmath at counts outside the distribution's window
from sotalib.multiplicity._max_iid import max_cdf, max_pmf, max_sf

from .. import mpref

# Appendix A, Table 3 of the JMLR version; the m = 500 row is from the first version.
TABLE3 = [(m, n, theta, mean, sd) for (m, n, theta), (mean, sd, _) in APPENDIX_A.items()]


@pytest.mark.parametrize("m,n,theta,mean,sd", TABLE3)
def test_table3_at_printed_precision(m, n, theta, mean, sd):
    s = iid_max_distribution(n, m, theta).summary()
    assert round(s.mean, 4) == mean
    assert round(s.sd, 6) == sd


def test_section_3_4_numbers():
    d = iid_max_distribution(3000, 1000, 0.90)
    s = d.summary()
    assert round(s.ci_high, 4) == 0.9213  # upper bound of Table 1, row 1
    assert round(s.sd, 4) == 0.0018
    theta_better = clopper_pearson(2700, 3000)[1]
    assert round(prob_at_least(s.mean, 3000, theta_better), 4) == 0.0996
    assert round(prob_at_least(s.mean, 3000, theta_better), 2) == 0.10
    assert round(prob_at_least(s.ci_high, 3000, theta_better), 4) == 0.0190
    # the first version's 0.0161 is the strict exceedance of the same bound
    assert round(prob_at_least(s.ci_high + 1 / 3000, 3000, theta_better), 4) == 0.0161


def test_coin_flip_multiplicity_numbers():
    assert round(prob_any_at_least(0.75, 20, 100, 0.5), 4) == 0.8765
    assert round(prob_any_at_least(0.90, 20, 1000, 0.5), 4) == 0.1823


@pytest.mark.parametrize(
    "n,m,theta",
    [
        (10**7, 10**7, 0.5),
        (10**7, 10**7, 1e-6),
        (10**7, 10**7, 1 - 1e-6),
        (10**6, 10, 0.999999),
        (1000, 10**7, 0.3),
        (10**7, 1, 1e-6),
        (3000, 1000, 0.9),
    ],
)
def test_cdf_and_sf_against_mpmath_at_extremes(n, m, theta):
    d = iid_max_distribution(n, m, theta)
    xs = {d.lo - 1, d.hi - 1}
    for q in (1e-6, 0.5, 1 - 1e-9):
        xs.add(int(round(d.quantile(q) * n)))
    for x in sorted(v for v in xs if 0 <= v < n):
        ref_f = mpref.max_cdf(x, n, m, theta)
        ref_s = mpref.max_sf(x, n, m, theta)
        if ref_f > 1e-300:
            assert float(max_cdf(x, n, m, theta)) == pytest.approx(float(ref_f), rel=1e-9)
        if ref_s > 1e-300:
            assert float(max_sf(x, n, m, theta)) == pytest.approx(float(ref_s), rel=1e-9)


@pytest.mark.parametrize("n,m,theta", [(30, 5, 0.3), (200, 1000, 0.97), (50, 1, 0.5), (1000, 10**6, 0.01)])
def test_moments_against_mpmath_summation(n, m, theta):
    """Mean and sd of the maximum by summing the whole pmf at 60 digits."""
    F = [mpref.max_cdf(x, n, m, theta) for x in range(n + 1)]
    pmf = [F[0]] + [F[x] - F[x - 1] for x in range(1, n + 1)]
    mean = mp.fsum(x * p for x, p in enumerate(pmf))
    var = mp.fsum((x - mean) ** 2 * p for x, p in enumerate(pmf))
    d = iid_max_distribution(n, m, theta)
    assert d.mean() == pytest.approx(float(mean / n), rel=1e-9)
    assert d.sd() == pytest.approx(float(mp.sqrt(var) / n), rel=1e-7)


def test_pmf_function_agrees_with_distribution_object():
    d = iid_max_distribution(3000, 1000, 0.9)
    np.testing.assert_allclose(max_pmf(d.x[1:], 3000, 1000, 0.9), d.pmf[1:], rtol=1e-12, atol=1e-300)


def test_monte_carlo_agrees_within_four_standard_errors():
    n, m, theta = 3000, 1000, 0.9
    exact = iid_max_distribution(n, m, theta)
    mc = simulate_iid_max(n, m, theta, n_resamples=4000, rng=11)
    assert abs(mc.mean - exact.mean()) < 4 * mc.se_mean
    # the cdf at a few points, as binomial proportions
    counts = simulate_iid_max_counts(n, m, theta, n_resamples=4000, rng=12)
    for x in (2745, 2752, 2760):
        p = float(exact.cdf_at(x))
        se = math.sqrt(p * (1 - p) / counts.size)
        assert abs(np.mean(counts <= x) - p) < 4 * se + 1e-12


@given(n=st.integers(1, 5000), m=st.integers(1, 10**6), theta=st.floats(0, 1))
def test_distribution_properties(n, m, theta):
    d = iid_max_distribution(n, m, theta)
    pmf = d.pmf
    assert np.all(pmf >= 0)
    assert abs(pmf.sum() - 1) < 1e-12
    assert np.all(np.diff(d.cdf) >= -1e-15)
    np.testing.assert_allclose(d.cdf + d.sf, 1.0, atol=1e-15)
    # the maximum of m >= 1 classifiers is at least one classifier's mean count - not below its expected value
    assert d.mean() >= theta - 1e-12
    # quantile convention: smallest x with F(x) >= q
    for q in (0.025, 0.5, 0.975):
        x = round(d.quantile(q) * n)
        assert float(d.cdf_at(x)) >= q - 1e-12
        if x > d.lo:
            assert float(d.cdf_at(x - 1)) < q


@given(n=st.integers(1, 3000), theta=st.floats(0.001, 0.999))
def test_m_equal_one_is_the_binomial(n, theta):
    d = iid_max_distribution(n, 1, theta)
    assert d.mean() == pytest.approx(theta, rel=1e-9, abs=1e-12)
    assert d.sd() == pytest.approx(math.sqrt(theta * (1 - theta) / n), rel=1e-7)
    for q in (0.025, 0.975):
        assert round(d.quantile(q) * n) == stats.binom.ppf(q, n, theta)


@given(n=st.integers(10, 3000), theta=st.floats(0.05, 0.95), m=st.integers(1, 500))
def test_more_classifiers_more_bias(n, theta, m):
    a = iid_max_distribution(n, m, theta).mean()
    b = iid_max_distribution(n, m + 1, theta).mean()
    assert b >= a - 1e-12


def test_two_classifier_problem():
    # E max of two is theta + sd/sqrt(pi) to first order: already a large share of the bias of 1,000.
    bias2, _ = iid_bias_sd(3000, 2, 0.9)
    sd1 = math.sqrt(0.9 * 0.1 / 3000)
    assert float(bias2) == pytest.approx(sd1 / math.sqrt(math.pi), rel=0.05)


@pytest.mark.parametrize(
    "kwargs,name",
    [
        (dict(n=0, m=10, theta=0.5), "n"),
        (dict(n=10, m=0, theta=0.5), "m"),
        (dict(n=10, m=10, theta=1.01), "theta"),
        (dict(n=10, m=10, theta=float("nan")), "theta"),
        (dict(n=10.5, m=10, theta=0.5), "n"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        iid_max_distribution(**kwargs)


def test_bad_alpha_and_quantile():
    d = iid_max_distribution(100, 10, 0.5)
    with pytest.raises(ValueError, match=r"^alpha must be in \[1e-10, 1\)"):
        d.summary(alpha=0)
    with pytest.raises(ValueError, match=r"^q must be in \(0, 1\)"):
        d.quantile(1.0)
