"""Tests of sotalib.auc: the binormal model, the empirical AUC and the maximum AUC (Section 5.2)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import roc_auc_score

import sotalib.multiplicity as A

# private: the split of a test set into positives and negatives, and the simulation's block size (patched)
from sotalib.multiplicity import _auc_simulate, summarize_max_auc
from sotalib.multiplicity._auc_model import n_positives

# --------------------------------------------------------------------------- binormal model


@given(st.floats(0.01, 0.99), st.floats(-3, 3), st.floats(0.2, 5), st.floats(0.2, 5))
@settings(max_examples=50, deadline=None)
def test_mu_pos_inverts_eq10(a, mu_neg, sp, sn):
    mu = A.binormal_mu_pos(a, mu_neg, sp, sn)
    assert A.binormal_auc(mu, mu_neg, sp, sn) == pytest.approx(a, abs=1e-12)


def test_mu_pos_paper_setting():
    # AUC = 0.9, sigma = 1: mu+ = sqrt(2) * Phi^{-1}(0.9)
    assert A.binormal_mu_pos(0.9) == pytest.approx(math.sqrt(2) * stats.norm.ppf(0.9), rel=1e-14)


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.1, 1.5, float("nan")])
def test_mu_pos_rejects_bad_auc(bad):
    with pytest.raises(ValueError, match="auc"):
        A.binormal_mu_pos(bad)


def test_n_positives():
    assert n_positives(3000, 0.017) == (51, 2949)
    assert n_positives(7687, 0.017) == (131, 7556)
    with pytest.raises(ValueError, match="prevalence"):
        n_positives(10, 0.01)
    with pytest.raises(ValueError, match="prevalence"):
        n_positives(10, 0.0)


# --------------------------------------------------------------------------- empirical AUC


@given(st.integers(2, 300), st.integers(1, 12), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_empirical_auc_matches_sklearn_with_ties(n, levels, seed):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    y[0], y[1] = True, False
    scores = rng.integers(0, levels, n).astype(float)  # few levels: many ties
    assert A.empirical_auc(scores, y) == pytest.approx(roc_auc_score(y, scores), abs=1e-12)


def test_empirical_auc_continuous_large():
    rng = np.random.default_rng(3)
    y = rng.random(20000) < 0.02
    s = rng.standard_normal(20000) + 1.5 * y
    assert A.empirical_auc(s, y) == pytest.approx(roc_auc_score(y, s), abs=1e-12)


def test_empirical_auc_bad_input():
    with pytest.raises(ValueError, match="positive"):
        A.empirical_auc([1.0, 2.0], [0, 0])
    with pytest.raises(ValueError, match="labels"):
        A.empirical_auc([1.0, 2.0], [0, 2])


# --------------------------------------------------------------------------- single classifier


def test_binomial_inversion_is_exact():
    # the modal-order inversion draws exactly Bin(n, p): chi-square against the pmf
    # private: the Numba kernel's binomial inversion and its log-factorial table are the subject
    from sotalib.multiplicity._auc_kernels import _binom_inv
    from sotalib.multiplicity._auc_simulate import _logfact

    rng = np.random.default_rng(5)
    for n, p in [(2949, 0.013), (2949, 0.31), (40, 0.97), (7556, 0.5)]:
        lf = _logfact(n)
        x = np.array([_binom_inv(u, n, p, lf) for u in rng.random(20000)])
        k = np.arange(n + 1)
        pmf = stats.binom.pmf(k, n, p)
        keep = pmf * x.size > 5
        obs = np.bincount(x, minlength=n + 1)
        exp = pmf * x.size
        obs_b = np.r_[obs[keep], obs[~keep].sum()]
        exp_b = np.r_[exp[keep], exp[~keep].sum()]
        chi2 = ((obs_b - exp_b) ** 2 / np.maximum(exp_b, 1e-300)).sum()
        assert stats.chi2.sf(chi2, keep.sum()) > 1e-4


def test_single_auc_mean_and_variance():
    # mean equals the true AUC; variance equals the exact binormal U-statistic variance
    reps = 40000
    x = A.simulate_auc(0.9, 3000, 0.017, n_resamples=reps, rng=11)
    var = A.auc_variance(0.9, 51, 2949)
    assert abs(x.mean() - 0.9) < 4 * math.sqrt(var / reps)
    # sd of the sample variance ~ var * sqrt(2 / reps) (near-normal)
    assert abs(x.var(ddof=1) - var) < 4 * var * math.sqrt(2.5 / reps)


def test_multinomial_method_matches_full_simulation():
    # the exact-in-distribution shortcut against brute force (all n scores, sklearn)
    n, pi, auc, reps = 400, 0.05, 0.8, 3000
    fast = A.simulate_auc(auc, n, pi, n_resamples=reps, rng=1)
    rng = np.random.default_rng(2)
    k, mu = 20, A.binormal_mu_pos(auc)
    y = np.r_[np.ones(k, bool), np.zeros(n - k, bool)]
    slow = np.array(
        [A.empirical_auc(np.r_[mu + rng.standard_normal(k), rng.standard_normal(n - k)], y) for _ in range(reps)]
    )
    assert stats.ks_2samp(fast, slow).pvalue > 1e-3
    assert stats.ttest_ind(fast, slow).pvalue > 1e-4


def test_max_of_one_equals_single_classifier():
    # m = 1: the maximum is the single classifier's AUC (same draws give the same numbers)
    one = A.simulate_max_auc(0.85, 1000, 1, 0.05, n_resamples=3000, rng=4)
    single = A.simulate_auc(0.85, 1000, 0.05, n_resamples=3000, rng=5)
    assert stats.ks_2samp(one, single).pvalue > 1e-3


def _quantile_se(x, q):
    """Standard error of a sample quantile from the order statistics +-2 binomial sd around it."""
    x = np.sort(x)
    k = x.size
    s = math.sqrt(k * q * (1 - q))
    return (x[min(int(k * q + 2 * s), k - 1)] - x[max(int(k * q - 2 * s), 0)]) / 4


def test_paper_numbers_within_four_standard_errors():
    # Section 5.2.2: E max = 0.9562, sd 0.004459, 95% CI (0.9486, 0.9662) from 10,000 repetitions;
    # here 1,000 repetitions, tolerance 4 combined standard errors plus the paper's rounding
    reps = 1000
    x = A.simulate_max_auc(0.9, 3000, 1000, 0.017, n_resamples=reps, rng=2024)
    s = A.Summary.from_samples(x)
    paper_se_mean = 0.004459 / 100
    assert abs(s.mean - 0.9562) < 4 * math.hypot(s.se_mean, paper_se_mean) + 5e-5
    se_sd = s.sd / math.sqrt(2 * (reps - 1))
    assert abs(s.sd - 0.004459) < 4 * math.hypot(se_sd, 0.004459 / math.sqrt(2 * 9999)) + 5e-7
    for q, paper, est in ((0.025, 0.9486, s.ci_low), (0.975, 0.9662, s.ci_high)):
        se = _quantile_se(x, q)
        assert abs(est - paper) < 4 * math.hypot(se, se / math.sqrt(10)) + 5e-5
    # the library's summary of the same engine
    e = summarize_max_auc(3000, None, np.full(1000, 0.9), 0.017, engine="simulate", n_resamples=200, rng=5)
    assert e.n_resamples == 200 and abs(e.mean - s.mean) < 4 * math.hypot(e.se_mean, s.se_mean)


def _max_auc(aucs, n, prevalence, **kwargs):
    return summarize_max_auc(n, None, aucs, prevalence, engine="simulate", **kwargs)


def test_summarize_max_auc_common_random_numbers():
    a = np.linspace(0.6, 0.9, 300)
    f = [_max_auc(0.5 + w * (a - 0.5), 2000, 0.02, n_resamples=50, rng=7).mean for w in (0.9, 0.9005, 0.901)]
    assert f[0] <= f[1] <= f[2]
    assert f[2] - f[0] < 0.002
    g = _max_auc(a, 2000, 0.02, n_resamples=50, rng=7)
    assert g == _max_auc(a, 2000, 0.02, n_resamples=50, rng=7)


def test_screening_does_not_change_maxima():
    # Bernstein screening skips classifiers; the maxima equal those of the unscreened kernel
    # private: the Numba kernel, screened and unscreened, is the subject
    from sotalib.multiplicity._auc_kernels import _max_u_batch
    from sotalib.multiplicity._auc_simulate import _logfact

    rng = np.random.default_rng(8)
    mus = A.binormal_mu_pos(rng.uniform(0.7, 0.9, 400))
    z, uu = rng.standard_normal((20, 400, 51)), rng.random((20, 400, 51))
    lf = _logfact(2949)
    assert np.array_equal(_max_u_batch(z, uu, mus, 1.0, 2949, lf, 46.0), _max_u_batch(z, uu, mus, 1.0, 2949, lf, 1e9))


def test_summarize_max_auc_bad_input():
    with pytest.raises(ValueError, match="auc"):
        _max_auc([0.9, 1.0], 3000, 0.017, n_resamples=10, rng=0)
    with pytest.raises(ValueError, match="prevalence"):
        _max_auc([0.9], 3000, 1.2, n_resamples=10, rng=0)
    with pytest.raises(ValueError, match="rho"):
        _max_auc([0.9], 3000, 0.017, n_resamples=10, rng=0, rho=1.5)


# --------------------------------------------------------------------------- conditional Monte Carlo


def test_auc_distribution_moments_exact():
    # conditional MC: the pmf's mean and variance agree with the exact ones
    d = A.auc_distribution(0.8, 1000, 0.03, n_resamples=200, rng=3)
    assert abs(d.pmf.sum() - 1) < 1e-12
    var = A.auc_variance(0.8, 30, 970)
    # the mean's error comes only from the negatives: Var(E[AUC | negatives]) <= var / 5 here
    assert abs(d.mean() - 0.8) < 4 * math.sqrt(var / 200)
    assert d.var() == pytest.approx(var, rel=0.05)


def test_auc_distribution_against_plain_simulation_small():
    # tiny test set: the cmc pmf against a long plain simulation, cell by cell,
    # with both Monte Carlo errors (multinomial noise and the batches' spread)
    d = A.auc_distribution(0.75, 12, 0.25, n_resamples=20000, rng=1, batches=20)  # 3 positives, 9 negatives
    reps = 200000
    x = A.simulate_auc(0.75, 12, 0.25, n_resamples=reps, rng=2)
    obs = np.bincount(np.rint(x * 27).astype(int), minlength=28) / reps
    var = d.pmf * (1 - d.pmf) / reps + d.batch_pmfs.var(axis=0, ddof=1) / d.batch_pmfs.shape[0]
    z = (obs - d.pmf) / np.sqrt(var)
    assert stats.chi2.sf((z**2).sum(), z.size) > 1e-4


def test_cmc_max_agrees_with_direct_simulation():
    d = A.auc_distribution(0.9, 3000, 0.017, n_resamples=200, rng=5)
    s = d.max_summary(1000)
    x = A.simulate_max_auc(0.9, 3000, 1000, 0.017, n_resamples=600, rng=6)
    se = math.hypot(s.se_mean, x.std(ddof=1) / math.sqrt(x.size))
    assert abs(s.mean - x.mean()) < 4 * se
    one = d.max_summary(1)
    assert one.mean == pytest.approx(0.9, abs=1e-12)  # the control variate is exact for m = 1


def test_roc_staircase_area_is_the_auc():
    pos, neg = A.simulate_scores(0.8, 20, 300, 3, rng=1)
    fpr, tpr = A.roc_curve_points(pos, neg)
    for j in range(3):
        area = np.sum(np.diff(fpr[j]) * tpr[j, 1:])
        y = np.r_[np.ones(20), np.zeros(300)]
        assert area == pytest.approx(A.empirical_auc(np.r_[pos[j], neg[j]], y), abs=1e-12)


def test_binormal_roc_area():
    f = np.linspace(0, 1, 200001)
    for sp, sn in [(1, 1), (0.5, 1), (2, 0.7)]:
        t = A.binormal_roc(f, 0.95, sp, sn)
        assert np.trapezoid(t, f) == pytest.approx(0.95, abs=1e-5)


def test_bvn_orthant_against_mpmath():
    import mpmath as mp

    from sotalib.multiplicity._auc_model import _bvn_orthant  # private: the bivariate normal orthant kernel

    mp.mp.dps = 30
    for r, h in [(0.5, 1.2815515655446004), (0.2, -0.3), (0.8, 2.5), (0.94, 0.1)]:
        # P(Z1 < h, Z2 < h) = int phi(x) Phi((h - r x) / sqrt(1 - r^2)) dx over x < h
        f = lambda x: mp.npdf(x) * mp.ncdf((h - r * x) / mp.sqrt(1 - r * r))
        exact = mp.quad(f, [-mp.inf, h])
        assert _bvn_orthant(r, h) == pytest.approx(float(exact), abs=1e-14)


@given(st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=2, max_size=80))
@settings(max_examples=80, deadline=None)
def test_empirical_auc_properties(pairs):
    s = np.array([p[0] for p in pairs], dtype=float)
    y = np.array([p[1] for p in pairs])
    if y.all() or not y.any():
        return
    a = A.empirical_auc(s, y)
    # swapping the classes gives 1 - AUC; a strictly increasing transform changes nothing
    assert A.empirical_auc(s, ~y) == pytest.approx(1 - a, abs=1e-15)
    assert A.empirical_auc(np.exp(s) * 3 - 1, y) == a
    # brute force over all pairs
    pos, neg = s[y], s[~y]
    brute = ((pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()) / (pos.size * neg.size)
    assert a == pytest.approx(brute, abs=1e-15)


def test_many_positives_and_blocks():
    # > 64 positives (NumPy sort path) and correlated classifiers split into blocks agree with theory
    x = A.simulate_auc(0.7, 2000, 0.3, n_resamples=4000, rng=3)
    var = A.auc_variance(0.7, 600, 1400)
    assert abs(x.mean() - 0.7) < 4 * math.sqrt(var / 4000)
    assert x.var(ddof=1) == pytest.approx(var, rel=0.1)
    old = _auc_simulate._CHUNK
    try:
        _auc_simulate._CHUNK = 3 * 500  # three classifiers per block
        small = A.simulate_max_auc(0.8, 500, 7, 0.1, n_resamples=40, rng=2, rho=0.5)
    finally:
        _auc_simulate._CHUNK = old
    assert np.all((small > 0.6) & (small <= 1.0))
    with pytest.raises(ValueError, match="n_pos"):
        A.auc_distribution(0.9, 10**6, 0.5)


def test_simulate_leaderboard():
    a = np.r_[np.full(3000, 0.8), np.full(3000, 0.6)]
    x = A.simulate_auc_leaderboard(a, 1000, 0.05, rng=4)
    for lo, hi, auc in ((0, 3000, 0.8), (3000, 6000, 0.6)):
        se = math.sqrt(A.auc_variance(auc, 50, 950) / 3000)
        assert abs(x[lo:hi].mean() - auc) < 4 * se
    with pytest.raises(ValueError, match="aucs"):
        A.simulate_auc_leaderboard([], 1000, 0.05)


@pytest.mark.parametrize("seed", range(5))
def test_delong_variance_is_the_placement_formula_by_brute_force(seed):
    # DeLong et al.: psi(x, y) = [x > y] + [x = y] / 2 over all (positive, negative) pairs;
    # V10 and V01 are its row and column means, the variance S10 / n+ + S01 / n-
    g = np.random.default_rng(seed)
    k = int(g.integers(10, 300))
    y = g.random(k) < 0.3
    y[:4] = True, True, False, False
    s = g.integers(0, int(g.integers(2, 20)), k) + 0.5 * y  # heavy ties
    x, z = s[y], s[~y]
    psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    brute = v10.var(ddof=1) / x.size + v01.var(ddof=1) / z.size
    assert A.delong_variance(s, y) == pytest.approx(brute, rel=1e-12)


def test_delong_variance_is_right_on_average_and_the_exact_variance_is_the_simulated_one():
    # binormal test sets with 30 positives: DeLong's estimates average to the exact variance
    # (within four standard errors of their mean and a 5% allowance for its O(1/n) bias)
    n_pos, n_neg = 30, 570
    exact = A.auc_variance(0.85, n_pos, n_neg)
    pos, neg = A.simulate_scores(0.85, n_pos, n_neg, 1000, rng=12)
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    v = np.array([A.delong_variance(np.r_[p, q], y) for p, q in zip(pos, neg)])
    assert abs(v.mean() - exact) < 4 * v.std(ddof=1) / math.sqrt(v.size) + 0.05 * exact
    aucs = np.array([A.empirical_auc(np.r_[p, q], y) for p, q in zip(pos, neg)])
    assert aucs.var(ddof=1) == pytest.approx(exact, rel=4 * math.sqrt(2 / 999))


def test_the_maximum_of_one_from_an_empirical_pmf_is_the_sample_itself():
    # F^m with m = 1 and F the empirical pmf of simulated AUCs: the sample's own mean and sd
    dist = A.auc_distribution(0.85, 400, 0.1, n_resamples=20, rng=1, batches=4)
    single = A.simulate_auc(0.85, 400, 0.1, n_resamples=5_000, rng=2)
    u = np.rint(single * dist.n_pos * dist.n_neg).astype(np.int64)
    pmf = np.bincount(u, minlength=dist.n_pos * dist.n_neg + 1) / u.size
    with np.errstate(invalid="ignore"):  # MaxDistribution's log1p(-sf) where sf rounds above 1 (unused branch)
        s = dist.max_distribution(1, pmf=pmf).summary(0.05)
    assert s.mean == pytest.approx(single.mean(), abs=1e-12)
    assert s.sd == pytest.approx(single.std(), abs=1e-9)
    lo, hi = np.quantile(single, [0.025, 0.975], method="inverted_cdf")
    assert (s.ci_low, s.ci_high) == pytest.approx((lo, hi), abs=1e-12)
