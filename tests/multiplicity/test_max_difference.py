"""The best public score minus the best private score: exact against brute force and Monte Carlo."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from sotalib.multiplicity import MaxDifference, summarize_max_difference


def _board_max_pmf(n: int, thetas, rho: float) -> dict:
    """P(max count = x) by enumerating every outcome of every classifier (tiny n, m only).

    The dependent model written out: K0 ~ B(n, theta0), then given K0 each
    classifier is right on a reference-right item with p1 and on a
    reference-wrong item with p0 (Eqs. 6-7, from the correlation's
    definition), independently.
    """
    thetas = np.asarray(thetas, dtype=float)
    theta0 = float(thetas.max())
    if rho == 0.0:
        p1 = p0 = thetas
        k0_pmf = {n: 1.0}
    else:
        # P(Y=1 | Y0=1) and P(Y=1 | Y0=0) from corr(Y, Y0) = rho
        cov = rho * np.sqrt(thetas * (1 - thetas) * theta0 * (1 - theta0))
        p1 = (cov + thetas * theta0) / theta0
        p0 = (thetas - theta0 * p1) / (1 - theta0)
        k0_pmf = {k: stats.binom.pmf(k, n, theta0) for k in range(n + 1)}
    out: dict = {}
    for k0, pk in k0_pmf.items():
        counts = [
            np.convolve(stats.binom.pmf(np.arange(k0 + 1), k0, a), stats.binom.pmf(np.arange(n - k0 + 1), n - k0, b))
            for a, b in zip(p1, p0, strict=True)
        ]
        for xs in itertools.product(range(n + 1), repeat=len(thetas)):
            p = pk * math.prod(c[x] for c, x in zip(counts, xs, strict=True))
            out[max(xs)] = out.get(max(xs), 0.0) + p
    return out


def _brute_difference(n1: int, n2: int, thetas, rho: float) -> tuple[np.ndarray, np.ndarray]:
    """Values of D = X1/n1 - X2/n2 (sorted, merged) and their probabilities."""
    f1, f2 = _board_max_pmf(n1, thetas, rho), _board_max_pmf(n2, thetas, rho)
    d: dict = {}
    for (x1, p1), (x2, p2) in itertools.product(f1.items(), f2.items()):
        key = round(x1 / n1 - x2 / n2, 12)
        d[key] = d.get(key, 0.0) + p1 * p2
    values = np.array(sorted(d))
    return values, np.array([d[v] for v in values])


def _quantile(values, probs, q):
    return float(values[np.searchsorted(np.cumsum(probs), q - 1e-12)])


@pytest.mark.parametrize("rho", [0.0, 0.6])
def test_exact_difference_matches_brute_force(rho):
    thetas = [0.55, 0.7, 0.75]
    values, probs = _brute_difference(5, 7, thetas, rho)
    mean = float(np.dot(values, probs))
    sd = math.sqrt(float(np.dot((values - mean) ** 2, probs)))
    obs = float(values[np.searchsorted(np.cumsum(probs), 0.8)])  # a value of D, to test ties
    d = summarize_max_difference(5, 7, thetas, rho=rho, observed=obs, alpha=0.1)
    assert d.mean == pytest.approx(mean, abs=1e-12)
    assert d.sd == pytest.approx(sd, abs=1e-12)
    assert d.ci_low == pytest.approx(_quantile(values, probs, 0.05), abs=1e-12)
    assert d.ci_high == pytest.approx(_quantile(values, probs, 0.95), abs=1e-12)
    below = probs[values < obs - 1e-12].sum()
    at = probs[np.abs(values - obs) <= 1e-12].sum()
    assert d.position == pytest.approx(below + at / 2, abs=1e-12)
    assert d.p_value == pytest.approx(min(1.0, 2 * min(below + at, 1 - below)), abs=1e-12)
    # an observed value between two values of D: no tie
    gap = obs + 1e-4
    e = summarize_max_difference(5, 7, thetas, rho=rho, observed=gap)
    assert e.position == pytest.approx(probs[values < gap].sum(), abs=1e-12)


def test_monte_carlo_agrees_with_the_exact_distribution_within_its_standard_error():
    # 100 teams, 1,000 public and 4,000 private items, 20,000 replications (rng 11)
    rng = np.random.default_rng(7)
    thetas = np.sort(0.78 + 0.06 * rng.random(100))
    exact = summarize_max_difference(1_000, 4_000, thetas, observed=0.012, engine="exact")
    reps = 20_000
    mc = summarize_max_difference(1_000, 4_000, thetas, observed=0.012, engine="simulate", n_resamples=reps, rng=11)
    assert mc.engine == "simulate" and mc.n_resamples == reps and mc.seed == 11
    assert abs(mc.mean - exact.mean) < 4 * mc.se_mean
    assert abs(mc.sd - exact.sd) < 4 * exact.sd / math.sqrt(2 * reps)  # sd of a sample sd, near normal
    se_pos = math.sqrt(exact.position * (1 - exact.position) / reps)
    assert abs(mc.position - exact.position) < 4 * se_pos
    assert abs(mc.public_mean - exact.public_mean) < 4 * mc.se_mean
    # the smaller board has the higher expected maximum
    assert exact.mean > 0 and exact.public_mean > exact.private_mean


def test_equal_boards_give_a_symmetric_difference_and_swapping_negates_it():
    thetas = np.linspace(0.70, 0.74, 20)
    same = summarize_max_difference(1_000, 1_000, thetas, observed=0.0)
    assert same.mean == pytest.approx(0.0, abs=1e-14)
    assert same.position == pytest.approx(0.5, abs=1e-12)
    assert same.ci_low == pytest.approx(-same.ci_high, abs=1e-12)
    a = summarize_max_difference(500, 2_000, thetas)
    b = summarize_max_difference(2_000, 500, thetas)
    assert a.mean == pytest.approx(-b.mean, abs=1e-14) and a.sd == pytest.approx(b.sd, abs=1e-14)


def test_result_is_frozen_and_serialisable():
    d = summarize_max_difference(500, 1_500, [0.8, 0.82, 0.85], observed=0.01)
    assert isinstance(d, MaxDifference)
    out = d.to_dict()
    assert out["n_public"] == 500 and out["engine"] == "exact" and out["n_resamples"] is None
    with pytest.raises(AttributeError):
        d.mean = 0.0  # type: ignore[misc]


def test_thetas_that_violate_eq8_are_left_out_and_counted():
    # with rho = 0.9 and theta0 = 0.95, a classifier at 0.3 cannot be that correlated
    d = summarize_max_difference(500, 1_500, [0.3, 0.94, 0.95], rho=0.9)
    assert d.excluded == 1 and d.m == 2


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(n_public=0), "n_public"),
        (dict(n_private=1.5), "n_private"),
        (dict(thetas=[0.5, 1.2]), "thetas"),
        (dict(thetas=[]), "thetas"),
        (dict(observed=2.0), "observed"),
        (dict(rho=-0.1), "rho"),
        (dict(alpha=1.0), "alpha"),
        (dict(engine="normal"), "engine"),
        (dict(engine="simulate", n_resamples=1), "n_resamples"),
        (dict(engine="simulate", rng=-1), "rng"),
    ],
)
def test_bad_input_names_the_argument(kwargs, name):
    args = dict(n_public=100, n_private=300, thetas=[0.7, 0.8])
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        summarize_max_difference(args.pop("n_public"), args.pop("n_private"), args.pop("thetas"), **args)
