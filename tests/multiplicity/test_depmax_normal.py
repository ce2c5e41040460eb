"""The large-n engine of the accuracy estimators: a normal (Edgeworth) approximation of the exact model.

Held to independent computations: the exact engine where it runs (n = 10^4 to
10^5), the binomial itself (one classifier, rho = 0), a Monte Carlo of the
dependent model at n = 10^7, and finer settings of its own grids (the stated
accuracy must not come from the grids).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom

# private: the normal engine (its grids patched finer), its choice of engine and the exact swap engine it is
# held to are the subject
from sotalib.multiplicity import _max_dependent_normal, estimate_sota, feasible, simulate_leaderboard
from sotalib.multiplicity._max_dependent_normal import choose_engine, exact_work, normal_max_distribution
from sotalib.multiplicity._max_dependent_swap import dependent_max_distribution


def _board(n, teams, spread, seed=0, rho=0.6):
    rng = np.random.default_rng(seed)
    s = rng.binomial(n, 0.9 - np.abs(rng.normal(0, spread, teams))) / n
    theta0 = float(s.max())
    return s[feasible(s, theta0, rho)], theta0


@pytest.mark.parametrize(
    ("n", "teams", "spread", "rho"),
    [
        (10_000, 300, 0.01, 0.6),
        (10_000, 300, 0.01, 0.0),
        (30_000, 200, 0.004, 0.6),
        (30_000, 200, 0.004, 0.95),  # sharp conditional cdfs: the grid follows the mixture's smoothness
        (100_000, 60, 0.002, 0.6),
    ],
)
def test_agrees_with_the_exact_engine(n, teams, spread, rho):
    v, theta0 = _board(n, teams, spread, rho=rho)
    exact = dependent_max_distribution(n, v.size, v, rho=rho, theta0=theta0)
    approx = normal_max_distribution(n, v.size, v, rho=rho, theta0=theta0)
    assert approx.engine == "normal"
    # E max within a tenth of a count, the 95% interval and the quartiles to the count
    assert abs(approx.mean() - exact.mean()) * n < 0.1
    for q in (0.025, 0.25, 0.5, 0.75, 0.975):
        assert abs(approx.quantile(q) - exact.quantile(q)) * n <= 1.0
    # the cdfs on the common window
    lo, hi = max(approx.lo, exact.lo), min(approx.hi, exact.hi)
    fa = approx.cdf[lo - approx.lo : hi - approx.lo + 1]
    fe = exact.cdf[lo - exact.lo : hi - exact.lo + 1]
    assert np.max(np.abs(fa - fe)) < 2e-3


def test_one_classifier_is_the_binomial():
    """m = 1, rho = 0: F is the binomial cdf; the Edgeworth tail holds it to 1e-6 at n = 10^6."""
    n, theta = 1_000_000, 0.9
    d = normal_max_distribution(n, 1, [theta])
    exact = binom.cdf(d.x, n, theta)
    assert np.max(np.abs(d.cdf - exact)) < 1e-6
    assert abs(d.mean() * n - n * theta) < 0.01  # E X = n theta
    assert d.interval() == (binom.ppf(0.025, n, theta) / n, binom.ppf(0.975, n, theta) / n)


def test_monte_carlo_of_the_dependent_model_at_n_1e7():
    """2,000 simulated boards (seed 5) of 200 classifiers drawn from a board at n = 10^7: E max within 4 s.e."""
    n, m = 10_000_000, 200
    v, theta0 = _board(n, 400, 0.0004, seed=3)
    d = normal_max_distribution(n, m, v, rho=0.6, theta0=theta0)
    rng = np.random.default_rng(5)
    reps = 2000
    maxima = np.empty(reps)
    for r in range(reps):
        thetas = rng.choice(v, m)
        acc, excluded = simulate_leaderboard(thetas, n, rho=0.6, theta0=theta0, rng=rng)
        assert excluded == 0
        maxima[r] = acc.max()
    se = maxima.std(ddof=1) / np.sqrt(reps)
    assert abs(maxima.mean() - d.mean()) < 4 * se
    # and the simulated maxima fall inside the 95% interval about 95% of the time (binomial 4-sigma band)
    lo, hi = d.interval()
    inside = np.mean((maxima >= lo) & (maxima <= hi))
    assert abs(inside - 0.95) < 4 * np.sqrt(0.95 * 0.05 / reps)


def test_its_grids_are_not_where_the_error_comes_from(monkeypatch):
    """Three times finer grids in K and x and no merging of close values move E max by < 0.05 of a count."""
    n = 10_000_000
    v, theta0 = _board(n, 400, 0.0002, seed=2)
    d = normal_max_distribution(n, v.size, v, rho=0.6, theta0=theta0)
    assert _max_dependent_normal._binned(np.unique(v)[::-1], np.ones(np.unique(v).size), n, 0.6)[0].size < 0.8 * v.size
    monkeypatch.setattr(_max_dependent_normal, "_K_NODES_PER_SCALE", 3 * _max_dependent_normal._K_NODES_PER_SCALE)
    monkeypatch.setattr(_max_dependent_normal, "_X_POINTS_PER_SD", 3 * _max_dependent_normal._X_POINTS_PER_SD)
    monkeypatch.setattr(_max_dependent_normal, "_BIN_SD", 0.0)
    fine = normal_max_distribution(n, v.size, v, rho=0.6, theta0=theta0)
    assert abs(d.mean() - fine.mean()) * n < 0.05
    assert d.interval() == fine.interval()


def test_shrink_estimates_agree_with_the_exact_engine():
    """The whole estimator (Eq. 9) at n = 30,000: estimate and E max within 0.1/n, the interval to the count."""
    n = 30_000
    rng = np.random.default_rng(1)
    s = rng.binomial(n, 0.9 - np.abs(rng.normal(0, 0.006, 120))) / n
    for target in ("expected", "upper"):
        a = estimate_sota(s, n, engine="exact", target=target)
        b = estimate_sota(s, n, engine="normal", target=target)
        assert a.details["engine"] == "exact" and b.details["engine"] == "normal"
        assert "accuracy" in b.details and "0.1/n" in b.details["accuracy"]
        assert abs(a.estimate - b.estimate) * n < 0.1
        assert abs(a.expected_max - b.expected_max) * n < 0.1
        assert abs(a.ci_low - b.ci_low) * n <= 1.0 and abs(a.ci_high - b.ci_high) * n <= 1.0
        assert a.teams_above == b.teams_above


def test_auto_keeps_the_exact_engine_where_it_is_fast_and_approximates_where_it_is_not():
    from pathlib import Path

    from sotalib.multiplicity import read_leaderboard

    root = Path(__file__).resolve().parents[2]
    obesity = read_leaderboard(
        root / "data" / "leaderboards" / "playground-series-s4e2__private.csv", score_column="score"
    )
    assert choose_engine("auto", 13_840, obesity.scores[obesity.scores > 1 / 7], 0.6) == "exact"
    v, _ = _board(10_000_000, 3000, 0.002)
    assert exact_work(10_000_000, v, 0.6) > 1e11
    assert choose_engine("auto", 10_000_000, v, 0.6) == "normal"
    assert choose_engine("exact", 10_000_000, v, 0.6) == "exact"
    assert choose_engine("auto", 5_000, v, 0.6) == "exact"  # small n: always exact


def test_engine_errors_name_the_parameter():
    s = np.array([0.9, 0.89, 0.88])
    with pytest.raises(ValueError, match="engine"):
        estimate_sota(s, 1000, engine="fast")
    with pytest.raises(ValueError, match="engine 'simulate' is for metric='auc'"):
        estimate_sota(s, 1000, engine="simulate")
    with pytest.raises(ValueError, match="engine 'exact' is for metric='accuracy'"):
        estimate_sota(s, 1000, metric="auc", prevalence=0.3, engine="exact")
