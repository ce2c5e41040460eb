"""Error bars, bootstrap intervals, variance decomposition, test-set size, Kendall's W."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import sotalib
from sotalib.judging import (
    achieved_precision,
    bootstrap_coverage,
    bootstrap_interval,
    error_bars,
    estimate_test_size,
    kendall_w,
    paired_bootstrap,
    ranking_stability,
    variance_decomposition,
)

# private: the layout of the cross-validated bootstrap's folds and resamples is the subject of its test
from sotalib.judging._errorbars import cv_bootstrap_schema


def accuracy(y_true, y_pred, axis=-1):
    """Accuracy vectorized over ``axis``: a user's statistic for ``vectorized=True``."""
    return np.mean(np.asarray(y_true) == np.asarray(y_pred), axis=axis)


def test_error_bars_match_textbook_formulas():
    x = np.array([0.81, 0.84, 0.79, 0.86, 0.83])
    eb = error_bars(x)
    assert eb.sd == pytest.approx(math.sqrt(sum((v - x.mean()) ** 2 for v in x) / 4), rel=1e-14)
    assert eb.se == pytest.approx(stats.sem(x), rel=1e-14)
    lo, hi = stats.t.interval(0.95, 4, loc=x.mean(), scale=stats.sem(x))
    assert (eb.ci_low, eb.ci_high) == pytest.approx((lo, hi), rel=1e-12)
    with pytest.raises(ValueError, match="at least 2"):
        error_bars([1.0])


def test_rule_of_thumb_worked_values():
    # Guyon et al. (1998): n = 100 / p, the one test-set size function's rule_of_thumb
    assert estimate_test_size(0.01).rule_of_thumb == 10_000
    assert estimate_test_size(0.05).rule_of_thumb == 2_000
    assert estimate_test_size(0.2).rule_of_thumb == 500
    assert estimate_test_size(1 / 3).rule_of_thumb == 300  # 300.00000000000006 is 300 items
    with pytest.raises(ValueError, match="error must be"):
        estimate_test_size(0.0)


def _guyon(mu, sigma=None, z=1.96, nu=1.0):
    """Guyon's formula written out: n = sigma^2 / mu^2 * z^2 * 10^(2 nu), unrounded (the reference)."""
    sigma = math.sqrt(mu * (1 - mu)) if sigma is None else sigma
    return sigma**2 / mu**2 * z**2 * 10 ** (2 * nu)


def test_guyon_formula_worked_values():
    # estimate_test_size(...).guyon is Guyon's n rounded up; 0/1 errors: sigma^2 = mu (1 - mu)
    assert estimate_test_size(0.01, z=1, precision=1).guyon == 9_900  # ~ the rule of thumb 100/p
    assert estimate_test_size(0.01, z=1.96).guyon == math.ceil(0.99 / 0.01 * 1.96**2 * 100)
    assert estimate_test_size(0.1, sd=0.3, z=2).guyon == 3_600
    # "to increase the precision by one decimal, 100 times more test examples are needed"
    assert _guyon(0.05, nu=2) / _guyon(0.05, nu=1) == pytest.approx(100)
    assert estimate_test_size(0.05, z=2, precision=2).guyon == 100 * estimate_test_size(0.05, z=2).guyon
    # z squared: doubling z quadruples n
    assert estimate_test_size(0.05, z=2).guyon == 4 * estimate_test_size(0.05, z=1).guyon
    # the half-width z sigma / sqrt(n) equals mu 10^-nu
    n = _guyon(0.02, nu=1.5)
    assert 1.96 * math.sqrt(0.02 * 0.98) / math.sqrt(n) == pytest.approx(0.02 * 10**-1.5)
    assert achieved_precision(n, 0.02) == pytest.approx(1.5)
    assert achieved_precision(n, 0.02, sd=math.sqrt(0.02 * 0.98), z=1.96) == pytest.approx(1.5)
    assert achieved_precision(9_900, 0.01, z=1) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="error"):
        achieved_precision(100, 1.5)  # an error rate above 1 needs sd
    with pytest.raises(TypeError):
        achieved_precision(100, 0.1, None, 1.96)  # options are keyword-only


def test_bootstrap_percentile_interval_of_accuracy_is_near_normal_interval():
    rng = np.random.default_rng(1)
    c = (rng.random(2000) < 0.8).astype(float)
    bi = bootstrap_interval(np.mean, c, method="percentile", n_resamples=4000, rng=2, vectorized=True)
    se = math.sqrt(c.mean() * (1 - c.mean()) / c.size)
    assert bi.se == pytest.approx(se, rel=0.06)
    assert bi.ci_low == pytest.approx(c.mean() - 1.96 * se, abs=0.004)
    assert bi.ci_high == pytest.approx(c.mean() + 1.96 * se, abs=0.004)


@pytest.mark.parametrize("method", ["percentile", "BCa"])
def test_bootstrap_coverage_near_nominal(method):
    # reduced size (300 replications, seed 11); the book runs 2,000
    cov = bootstrap_coverage(0.8, 100, method=method, n_datasets=300, n_resamples=999, rng=11)
    assert abs(cov.rate - 0.95) < 4 * math.sqrt(0.95 * 0.05 / 300)


def test_paired_bootstrap():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 400)
    a = np.where(rng.random(400) < 0.85, y, 1 - y)
    same = paired_bootstrap(accuracy, y, a, a.copy(), n_resamples=500, rng=1, vectorized=True)
    assert same.prob_a_ahead == 0.5 and same.diff == 0
    # b is a wrong on 20 more items: a is ahead on every bootstrap test set
    b = a.copy()
    right = np.flatnonzero(a == y)[:20]
    b[right] = 1 - b[right]
    cmp = paired_bootstrap(accuracy, y, a, b, n_resamples=500, rng=1, vectorized=True, method="percentile")
    assert cmp.diff == pytest.approx(20 / 400) and cmp.prob_a_ahead == 1.0 and cmp.ci_low > 0
    # non-vectorized metric gives the same distribution with the same seed
    slow = paired_bootstrap(lambda t, p: np.mean(t == p), y, a, b, n_resamples=200, rng=4, method="percentile")
    fast = paired_bootstrap(accuracy, y, a, b, n_resamples=200, rng=4, method="percentile", vectorized=True)
    assert slow.ci_low == pytest.approx(fast.ci_low) and slow.ci_high == pytest.approx(fast.ci_high)
    loss = paired_bootstrap(accuracy, y, b, a, n_resamples=200, rng=1, vectorized=True, lower_is_better=True)
    assert loss.prob_a_ahead == 1.0


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(-100, 100), st.integers(0, 4)), min_size=1, max_size=40))
def test_law_of_total_variance(pairs):
    x = np.array([p[0] for p in pairs])
    g = np.array([p[1] for p in pairs])
    vd = variance_decomposition(x, g)
    assert vd.total == pytest.approx(np.var(x), rel=1e-9, abs=1e-9)
    assert vd.within + vd.between == pytest.approx(vd.total, rel=1e-9, abs=1e-9)


def test_variance_decomposition_worked_example():
    vd = variance_decomposition([1, 2, 3, 4, 10, 12], ["a", "a", "a", "b", "b", "b"])
    # groups: means 2 and 26/3; within variances 2/3 and 104/9; overall mean 16/3
    assert vd.within == pytest.approx((2 / 3 + 104 / 9) / 2)
    assert vd.between == pytest.approx(((2 - 16 / 3) ** 2 + (26 / 3 - 16 / 3) ** 2) / 2)


def test_kendall_w_equals_friedman_statistic_scaled():
    # W = chi2_Friedman / (m (n - 1)), scipy's Friedman statistic including its tie correction
    rng = np.random.default_rng(2)
    for ties in (False, True):
        S = rng.integers(0, 3, (12, 6)).astype(float) if ties else rng.random((12, 6))
        chi2 = stats.friedmanchisquare(*S.T).statistic  # S: 12 blocks (trials) x 6 treatments (candidates)
        assert kendall_w(S.T) == pytest.approx(chi2 / (12 * 5), rel=1e-12)  # candidates as rows, as rank_candidates
    assert kendall_w(np.tile([3.0, 1.0, 2.0], (5, 1)).T) == pytest.approx(1.0)
    assert kendall_w([[1.0, 2.0], [2.0, 1.0]]) == pytest.approx(0.0)
    with pytest.raises(ValueError, match=r"candidates x trials.*>= 2 candidates \(rows\)"):
        kendall_w([[1.0, 2.0, 3.0]])  # one candidate judged three times: nothing to rank


def test_ranking_stability_grows_with_test_set_size():
    rng = np.random.default_rng(0)
    correct = rng.random((5000, 6)) < np.linspace(0.70, 0.80, 6)  # items x models
    stab = ranking_stability(sotalib.PerItem(correct), [20, 200, 5000], n_resamples=200, rng=1)
    w = stab.w
    assert w[0] < w[1] < w[2] and w[2] > 0.95
    assert stab.sizes.tolist() == [20, 200, 5000] and stab.n_items == 5000 and len(stab.candidates) == 6
    assert stab.seed == 1
    # the same bootstrap written plainly: the counts of each test set times the table, Kendall's W of its rankings
    gen = np.random.default_rng(1)
    Y = correct.astype(float)
    for s, got in zip([20, 200, 5000], w, strict=True):
        counts = np.stack([np.bincount(gen.integers(5000, size=s), minlength=5000) for _ in range(200)])
        assert got == pytest.approx(kendall_w((counts @ Y).T), rel=1e-12)
    with pytest.raises(ValueError, match=r"before 0.6.0 ranking_stability took candidates x items"):
        ranking_stability(correct.T, [20])


def test_cv_bootstrap_schema():
    folds, counts = cv_bootstrap_schema(20, 5, 3, rng=0)
    assert folds.shape == (5, 20) and np.all(folds.sum(axis=0) == 1) and np.all(folds.sum(axis=1) == 4)
    assert counts.shape == (3, 20) and np.all(counts.sum(axis=1) == 20)
