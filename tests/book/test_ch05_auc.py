"""Chapter 5's table builders (sotalib.book.ch05_auc) against independent computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import sotalib.multiplicity as A
from sotalib.book import ch05_auc as ac
from sotalib.book.ch05_auc import RHOS, load_rho
from sotalib.multiplicity import iid_max_distribution


def test_empirical_auc_agrees_with_scikit_learn():
    assert ac.sklearn_agreement(datasets=30, rng=1) < 1e-12


def test_quantile_se_matches_the_asymptotic_formula():
    # sd of the sample q-quantile of k normal draws: sqrt(q (1 - q) / k) / pdf(z_q)
    x = np.random.default_rng(3).standard_normal(40_000)
    q = 0.025
    expected = math.sqrt(q * (1 - q) / x.size) / stats.norm.pdf(stats.norm.ppf(q))
    assert ac.quantile_se(x, q) == pytest.approx(expected, rel=0.25)


def test_variance_table_exact_row_and_simulation():
    n, prev = 600, 0.1
    df = ac.variance_table(0.8, n, prev, reps=20_000, rng=1, delong_samples=50, delong_rng=2)
    kp = round(n * prev)  # positives round(n * prevalence), the rest negatives
    kn = n - kp
    exact = A.auc_variance(0.8, kp, kn)
    assert df["variance"].iloc[0] == exact
    assert df["sd"].iloc[0] == pytest.approx(math.sqrt(exact), rel=1e-15)
    # the simulated variance within four standard errors of the exact one
    assert abs(df["variance"].iloc[1] - exact) < 4 * exact * math.sqrt(2 / 19_999)
    assert abs(df.attrs["sim_mean"] - 0.8) < 4 * df.attrs["sim_mean_se"]
    assert df["variance"].iloc[2] == A.hanley_mcneil_variance(0.8, kp, kn)


def test_plain_f_to_the_m_with_m_one_is_the_sample_itself():
    dist = A.auc_distribution(0.85, 400, 0.1, n_resamples=20, rng=1, batches=4)
    single = A.simulate_auc(0.85, 400, 0.1, n_resamples=5_000, rng=2)
    with np.errstate(invalid="ignore"):  # MaxDistribution's log1p(-sf) where sf rounds above 1 (unused branch)
        s, se = ac.plain_max_summary(dist, 1, single)
    assert s.mean == pytest.approx(single.mean(), abs=1e-12)
    assert s.sd == pytest.approx(single.std(), abs=1e-9)
    assert set(se) == {"mean", "sd", "ci_low", "ci_high"} and all(v > 0 for v in se.values())


def test_imbalance_table_reuses_a_known_distribution_and_the_exact_accuracy_row():
    dist = A.auc_distribution(0.9, 500, 0.2, n_resamples=20, rng=1, batches=4)
    df = ac.imbalance_table(0.9, 500, 50, (0.2,), known={0.2: dist})
    assert df["bias of the max"].iloc[0] == pytest.approx(dist.max_summary(50).mean - 0.9, abs=1e-15)
    acc = iid_max_distribution(500, 50, 0.9).summary(0.05)
    assert df["bias of the max"].iloc[-1] == pytest.approx(acc.mean - 0.9, abs=1e-15)
    assert df["n_eff"].iloc[-1] == 500


def test_melanoma_interval_solves_for_the_winner():
    r = ac.melanoma_v2_interval()
    n, prev = 7687, 584 / 33126
    kp = round(n * prev)  # positives round(n * prevalence), the rest negatives
    kn = n - kp
    upper = 0.9352 + 1.959963984540054 * math.sqrt(A.auc_variance(0.9352, kp, kn, r["sigma_ratio"], 1.0))
    assert upper == pytest.approx(0.9490, abs=1e-9)
    # the exact equal-variance sd is below Hanley-McNeil's, so its interval ends lower
    assert r["positives"] == kp and r["upper_equal"] < r["upper_hanley_mcneil"]


def test_the_rho_cache_reads_as_one_row_per_rho():
    df = load_rho()
    assert tuple(df["rho"]) == RHOS and df.attrs["reps"] == 400
    assert (df["ci_low"] <= df["mean"]).all() and (df["mean"] <= df["ci_high"]).all()


def test_the_direct_maxima_are_the_papers_setting():
    maxima, p = ac.load_direct_maxima()
    assert maxima.size == p["reps"] == 10_000 and p["m"] == 1000 and p["n"] == 3000
    # every maximum is an exact multiple of 1 / (51 * 2949)
    u = maxima * 51 * 2949
    assert np.allclose(u, np.rint(u), atol=1e-6)
