"""Graded outcomes (a pass@1 averaged over K samples per item) in estimate_dependence, dependence_fit, estimate_sota.

The references are independent of the code under test: a simulation written here from the paper's model
(a reference outcome per item, then K answers of each model drawn independently given it) with a known
rho_0, checked in Monte Carlo within its standard error; the pair and triple averages by loops over the
models; the attenuation formula of the Pearson correlation of K-sample means derived in the module docstring.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest

from sotalib import PerItem, read_per_item
from sotalib.multiplicity import dependence_fit, estimate_dependence, estimate_sota

# private: the weighted power sums behind the bootstrap are the subject (checked by brute force on repeated rows)
from sotalib.multiplicity._dependence_measure import _moments, _powers

DATA = Path(__file__).resolve().parents[2] / "data" / "llm" / "eval-arena"


def _graded_reference_model(n, theta, rho, theta0, K, gen):
    """Items x models means of K answers: Y_0 ~ B(theta0) per item, answers ~ B(p1 or p0) given Y_0 (Eqs. 6-7).

    ``p1 - theta = rho sqrt(theta (1 - theta) (1 - theta0) / theta0)`` and ``theta - p0 = rho sqrt(theta (1 - theta)
    theta0 / (1 - theta0))``: the covariance of one answer with ``Y_0`` is ``rho sqrt(theta (1 - theta) theta0
    (1 - theta0))`` and the accuracy ``theta``.  ``K`` is an int or an items x models array of ints.
    """
    theta = np.asarray(theta, dtype=float)
    s = np.sqrt(theta * (1 - theta))
    p1 = theta + rho * s * math.sqrt((1 - theta0) / theta0)
    p0 = theta - rho * s * math.sqrt(theta0 / (1 - theta0))
    assert np.all((p0 >= 0) & (p1 <= 1))
    y0 = gen.random(n) < theta0
    p = np.where(y0[:, None], p1[None, :], p0[None, :])
    K = np.broadcast_to(np.asarray(K), p.shape)
    return gen.binomial(K, p) / K


def _direct(X):
    """Mean pairwise and triple products of Z = (X - theta) / sqrt(theta (1 - theta)), by loops over the models."""
    theta = X.mean(axis=0)
    Z = (X - theta) / np.sqrt(theta * (1 - theta))
    m = X.shape[1]
    phi = np.mean([np.mean(Z[:, j] * Z[:, k]) for j, k in itertools.combinations(range(m), 2)])
    tau = np.mean([np.mean(Z[:, j] * Z[:, k] * Z[:, l]) for j, k, l in itertools.combinations(range(m), 3)])
    return phi, tau


def test_the_pair_and_triple_averages_of_graded_cells_match_loops_over_the_models():
    gen = np.random.default_rng(11)
    X = _graded_reference_model(300, np.linspace(0.4, 0.7, 6), 0.6, 0.55, np.arange(1, 301)[:, None] % 7 + 1, gen)
    d = estimate_dependence(PerItem(X), n_resamples=0)
    phi, tau = _direct(X)
    assert d.graded and d.mean_phi == pytest.approx(phi, abs=1e-12) and d.mean_tau == pytest.approx(tau, abs=1e-12)
    assert d.theta == pytest.approx(tuple(X.mean(axis=0)), abs=1e-15)  # the accuracy: the mean of the graded cells
    # the bootstrap's weighted sums: a resample with weights w is the matrix with row i repeated w_i times
    w = gen.multinomial(300, np.full(300, 1 / 300)).astype(float)
    p, t, _ = _moments(X, w[None, :], _powers(X))
    rp, rt = _direct(np.repeat(X, w.astype(int), axis=0))
    assert p[0] == pytest.approx(rp, abs=1e-12) and t[0] == pytest.approx(rt, abs=1e-12)


def test_binary_outcomes_keep_the_binary_estimator():
    gen = np.random.default_rng(2)
    Y = _graded_reference_model(500, [0.5, 0.6, 0.7, 0.8], 0.5, 0.6, 1, gen)  # K = 1: 0/1
    d = estimate_dependence(PerItem(Y), n_resamples=0)
    assert not d.graded and d.mean_corr is None and _powers(Y) is None
    assert (d.mean_phi, d.mean_tau) == pytest.approx(_direct(Y), abs=1e-12)


@pytest.mark.parametrize("K", [1, 4, "mixed"])
def test_graded_means_of_k_answers_recover_the_simulated_rho_within_monte_carlo_error(K):
    """Mean phi estimates rho_0^2 whatever K (no correction), the graded cells' correlation does not."""
    gen = np.random.default_rng(33)
    rho, theta0, n, reps = 0.6, 0.5, 3000, 200
    theta = np.linspace(0.35, 0.65, 8)
    phis, corrs, rhos = [], [], []
    for _ in range(reps):
        k = gen.choice([1, 3, 10], size=(n, theta.size)) if K == "mixed" else K  # K per cell, as CRUXEval's
        d = estimate_dependence(PerItem(_graded_reference_model(n, theta, rho, theta0, k, gen)), n_resamples=0)
        phis.append(d.mean_phi)
        corrs.append(d.mean_corr if d.graded else d.mean_phi)
        rhos.append(d.rho0)
    phis, corrs = np.array(phis), np.array(corrs)
    se = phis.std(ddof=1) / math.sqrt(reps)
    # the sample covariance with estimated means has relative bias -1/n: far below the Monte Carlo error
    assert abs(phis.mean() - rho**2) < 4 * se + rho**2 / n
    assert abs(np.mean(rhos) - rho) < 0.01
    if K == 4:  # the Pearson correlation of 4-answer means: rho^2 / (rho^2 + (1 - rho^2) / K), not rho^2
        want = rho**2 / (rho**2 + (1 - rho**2) / 4)
        se_c = corrs.std(ddof=1) / math.sqrt(reps)
        assert abs(corrs.mean() - want) < 4 * se_c + 2 / n
        assert corrs.mean() > rho**2 + 0.2


def test_a_graded_board_measures_theta0_too():
    gen = np.random.default_rng(5)
    X = _graded_reference_model(40_000, np.linspace(0.3, 0.5, 10), 0.6, 0.35, 5, gen)
    d = estimate_dependence(PerItem(X), n_resamples=0)
    assert d.rho0 == pytest.approx(0.6, abs=0.02) and d.theta0 == pytest.approx(0.35, abs=0.03)


def test_dependence_fit_takes_graded_outcomes_and_their_agreement_is_that_of_one_answer_each():
    gen = np.random.default_rng(8)
    X = _graded_reference_model(2000, np.linspace(0.4, 0.7, 5), 0.5, 0.55, 3, gen)
    fit = dependence_fit(PerItem(X), ms=[2], n_null=19, rng=1)
    j, k = 0, 3
    agree = np.mean(X[:, j] * X[:, k] + (1 - X[:, j]) * (1 - X[:, k]))
    assert fit.agreement_observed[j, k] == pytest.approx(agree, abs=1e-12)
    assert fit.dependence.graded and 0 < fit.p_value <= 1


def test_estimate_sota_on_graded_cells_scores_each_model_by_the_mean_of_its_cells():
    gen = np.random.default_rng(9)
    X = _graded_reference_model(1000, np.linspace(0.4, 0.7, 6), 0.5, 0.55, 10, gen)
    table = PerItem(X, models=[f"m{j}" for j in range(6)])
    est = estimate_sota(table, chance=0)
    assert est.sample_max == pytest.approx(X.mean(axis=0).max(), abs=1e-9) and est.n == 1000
    assert est.details["graded"] is True and est.details["best_model"] == f"m{int(np.argmax(X.mean(axis=0)))}"
    assert est.details["rho"] == pytest.approx(estimate_dependence(table, n_resamples=0).rho0, abs=1e-12)
    assert any("graded outcomes" in note for note in est.notes)
    assert "graded" not in estimate_sota(PerItem((X > 0.5).astype(float)), chance=0).details


@pytest.mark.parametrize("name", ["cruxeval_input", "cruxeval_output"])
def test_cruxeval_is_measured(name):
    table = read_per_item(f"{DATA}/{name}.jsonl.gz")
    d = estimate_dependence(table, n_resamples=0)
    assert d.graded and d.n_items == 800 and 0 < d.rho0 < 1
    assert d.mean_phi == pytest.approx(_direct(d._Y)[0], abs=1e-12)
    est = estimate_sota(table, chance=0)
    assert est.sample_max == pytest.approx(np.nanmax(np.nanmean(table.shared().outcomes, axis=0)), abs=1e-9)


def test_the_fit_simulates_means_of_the_recorded_samples_so_its_p_value_is_uniform_under_the_model():
    """With K recorded, p under the model is uniform (mean 1/2); with K unknown, one answer per cell: conservative."""
    gen = np.random.default_rng(21)
    theta, reps, n_null = np.linspace(0.4, 0.7, 6), 25, 39
    known, unknown = [], []
    for r in range(reps):
        K = gen.choice([3, 10], size=(500, theta.size))
        X = _graded_reference_model(500, theta, 0.6, 0.55, K, gen)
        known.append(dependence_fit(PerItem(X, samples=K), ms=[2], n_null=n_null, rng=r).p_value)
        unknown.append(dependence_fit(PerItem(X), ms=[2], n_null=n_null, rng=r).p_value)
    known, unknown = np.array(known), np.array(unknown)
    # p = (1 + #{D* >= D}) / (1 + n_null) is uniform on {1, ..., 40} / 40 under the model: mean 41/80, sd 0.29
    # (seen: 0.513 with K recorded, 0.997 with one answer per cell in the null)
    assert abs(known.mean() - 41 / 80) < 4 * 0.29 / math.sqrt(reps)
    assert unknown.mean() > known.mean() + 0.2
