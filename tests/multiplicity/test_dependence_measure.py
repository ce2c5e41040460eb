"""The dependence measured item by item: estimate_dependence, dependence_fit, simulate_per_item."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from sotalib import PerItem, read_per_item
from sotalib.multiplicity import (
    Dependence,
    conditional_probs,
    dependence_fit,
    estimate_dependence,
    simulate_per_item,
)

# private: the power sums behind the bootstrap and the two sides of best-of-k are the subject (checked by brute force)
from sotalib.multiplicity._dependence_measure import (
    _moments,
    _observed_best_of_k,
    _predicted_best_of_k,
    _simulated_best_of_k,
)

THETA12 = np.linspace(0.45, 0.8, 12)


def _naive_moments(Y):
    """Mean pairwise phi and mean standardised triple co-moment, by loops over the pairs and triples."""
    Z = (Y - Y.mean(0)) / Y.std(0)
    m = Y.shape[1]
    phi = np.mean([np.mean(Z[:, j] * Z[:, k]) for j, k in itertools.combinations(range(m), 2)])
    tau = np.mean([np.mean(Z[:, j] * Z[:, k] * Z[:, l]) for j, k, l in itertools.combinations(range(m), 3)])
    return phi, tau


def test_power_sums_equal_the_loops_also_with_bootstrap_weights():
    rng = np.random.default_rng(0)
    Y = simulate_per_item(300, THETA12[:7], rho=0.5, theta0=0.6, rng=rng).outcomes
    idx = rng.integers(0, 300, 300)
    W = np.stack([np.ones(300), np.bincount(idx, minlength=300)]).astype(float)
    phi, tau, mb = _moments(Y, W)
    for b, rows in enumerate([np.arange(300), idx]):
        ref_phi, ref_tau = _naive_moments(Y[rows])
        assert phi[b] == pytest.approx(ref_phi, abs=1e-12)
        assert tau[b] == pytest.approx(ref_tau, abs=1e-12)
    assert mb.tolist() == [7, 7]


def test_recovers_rho0_and_theta0_at_large_n():
    Y = simulate_per_item(40_000, np.tile(THETA12, 2), rho=0.6, theta0=0.65, rng=1).outcomes
    d = estimate_dependence(PerItem(Y), n_resamples=200, rng=2)
    assert d.rho0 == pytest.approx(0.6, abs=0.006)
    assert d.theta0 == pytest.approx(0.65, abs=0.02)
    assert d.rho0_high - d.rho0_low < 0.01  # coverage: the next test
    assert d.mean_phi == pytest.approx(d.rho0**2)


def test_bootstrap_interval_covers_at_about_its_rate():
    """50 matrices under the paper's model: the 95% intervals of rho0 and theta0 cover at 0.95 +- 3 SE."""
    cover_rho = cover_theta0 = 0
    reps = 50
    for r in range(reps):
        Y = simulate_per_item(2000, THETA12, rho=0.55, theta0=0.6, rng=100 + r).outcomes
        d = estimate_dependence(PerItem(Y), n_resamples=300, rng=1000 + r)
        cover_rho += d.rho0_low <= 0.55 <= d.rho0_high
        cover_theta0 += d.theta0_low <= 0.6 <= d.theta0_high
    se = math.sqrt(0.95 * 0.05 / reps)
    assert cover_rho / reps >= 0.95 - 3 * se
    assert cover_theta0 / reps >= 0.95 - 3 * se
    assert cover_rho < reps  # an interval that always covers would be too wide to mean anything


def test_inputs_dataframe_and_per_item_agree():
    Y = simulate_per_item(500, THETA12[:5], rho=0.5, theta0=0.6, rng=3).outcomes
    names = [f"m{j}" for j in range(5)]
    a = estimate_dependence(PerItem(Y), n_resamples=20, rng=4)
    b = estimate_dependence(pd.DataFrame(Y, columns=names), n_resamples=20, rng=4)
    c = estimate_dependence(PerItem(Y, models=names), n_resamples=20, rng=4)
    assert a.rho0 == b.rho0 == c.rho0 and a.rho0_low == b.rho0_low == c.rho0_low
    assert b.models == c.models == tuple(names)
    assert a.models[0] == "model 1"
    assert isinstance(a, Dependence) and a.to_dict()["n_models"] == 5


def test_a_model_scoring_every_item_is_left_out_and_reported():
    Y = simulate_per_item(800, THETA12[:6], rho=0.5, theta0=0.6, rng=5).outcomes
    full = np.column_stack([Y, np.ones(800), np.zeros(800)])
    d = estimate_dependence(pd.DataFrame(full, columns=[*"abcdef", "oracle", "mute"]), n_resamples=0)
    ref = estimate_dependence(PerItem(Y), n_resamples=0)
    assert d.constant == ("oracle", "mute")
    assert d.n_models == 6 and d.rho0 == pytest.approx(ref.rho0, abs=1e-12)
    assert d.rho0_low is None and d.theta0 is not None


def test_missing_answers_are_counted_and_their_items_dropped():
    Y = simulate_per_item(1000, THETA12[:4], rho=0.5, theta0=0.6, rng=6).outcomes
    Ym = Y.copy()
    Ym[:30, 0] = np.nan
    Ym[25:40, 2] = np.nan
    d = estimate_dependence(PerItem(Ym), n_resamples=0)
    assert d.missing == {"model 1": 30, "model 3": 15}
    assert d.items_dropped == 40 and d.n_items == 960
    assert d.rho0 == pytest.approx(estimate_dependence(PerItem(Y[40:]), n_resamples=0).rho0, abs=1e-12)


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        (PerItem(np.ones((10, 1))), "correct must have at least 2 models"),
        (np.ones(10), "correct must be per-item results"),
        (
            np.ones((10, 3)),
            r"correct: a bare array does not say which axis holds the models; wrap it as sotalib\.PerItem",
        ),
        (
            PerItem(np.full((10, 3), 1.5)),
            r"correct: row 1 \(item 'item 1'\), column 1 \(model 'model 1'\) is 1.5, not in \[0, 1\]",
        ),
        (
            PerItem(np.column_stack([np.ones(10), np.zeros(10), np.r_[np.ones(5), np.zeros(5)]])),
            "at least 2 are needed",
        ),
    ],
)
def test_bad_input_names_the_argument(bad, match):
    with pytest.raises(ValueError, match=match):
        estimate_dependence(bad)


def test_bad_settings_name_the_argument():
    Y = simulate_per_item(100, THETA12[:3], rho=0.5, theta0=0.6, rng=7).outcomes
    with pytest.raises(ValueError, match="n_resamples"):
        estimate_dependence(PerItem(Y), n_resamples=-1)
    with pytest.raises(ValueError, match="alpha"):
        estimate_dependence(PerItem(Y), alpha=1.5)
    with pytest.raises(ValueError, match="ms"):
        dependence_fit(PerItem(Y), ms=[4], n_null=5)
    with pytest.raises(ValueError, match="model"):
        simulate_per_item(10, [0.5], rho=0.5, model="other")


def test_input_that_is_not_numbers_or_not_the_fitted_matrix_names_the_argument():
    Y = simulate_per_item(200, THETA12[:4], rho=0.5, theta0=0.6, rng=19).outcomes
    df = pd.DataFrame(Y, columns=list("abcd")).assign(item=[f"q{i}" for i in range(200)])
    with pytest.raises(ValueError, match="column 'item' is not numbers"):
        estimate_dependence(df)
    other = estimate_dependence(PerItem(Y[:, :3]), n_resamples=0)
    with pytest.raises(ValueError, match="dependence was not estimated"):
        dependence_fit(PerItem(Y), dependence=other, n_null=5)


def test_difficulty_alternative_has_the_stated_mean_phi():
    Y = simulate_per_item(60_000, THETA12, rho=0.6, model="difficulty", rng=8).outcomes
    d = estimate_dependence(PerItem(Y), n_resamples=0)
    assert d.mean_phi == pytest.approx(0.36, abs=0.01)
    assert np.allclose(d.theta, THETA12, atol=0.01)


def test_fit_test_rejects_latent_difficulty_and_keeps_the_paper_model():
    theta = np.random.default_rng(9).uniform(0.4, 0.8, 30)
    alt = simulate_per_item(6000, theta, rho=0.6, model="difficulty", rng=10).outcomes
    null = simulate_per_item(6000, theta, rho=0.6, theta0=0.6, rng=11).outcomes
    fa = dependence_fit(PerItem(alt), ms=[2], n_null=99, rng=12)
    fn = dependence_fit(PerItem(null), ms=[2], n_null=99, rng=13)
    assert fa.rejected and fa.p_value == pytest.approx(0.01)
    assert not fn.rejected
    assert fa.dependence.rho0 == pytest.approx(0.6, abs=0.02)  # same mean correlation: only the fit tells them apart
    assert fn.agreement_mae < 0.01
    iu = np.triu_indices(30, 1)
    assert np.allclose(fn.agreement_observed[iu], fn.agreement_predicted[iu], atol=0.03)


@pytest.mark.slow
def test_power_of_the_fit_test_against_latent_difficulty():
    """Power at 30 models x 6,000 items, level 0.05, 40 replications.

    Measured with 100 replications (seeds 200-299, ``n_null=99``): power 1.00 against the latent difficulty,
    and 2 of 100 rejections of matrices simulated under the paper's model itself (seeds 500-599): the size.
    """
    theta = np.random.default_rng(14).uniform(0.4, 0.8, 30)
    rejected = sum(
        dependence_fit(
            simulate_per_item(6000, theta, rho=0.6, model="difficulty", rng=200 + r), ms=[2], n_null=99, rng=r
        ).rejected
        for r in range(40)
    )
    assert rejected >= 36


def test_observed_best_of_k_enumerates_every_subset():
    rng = np.random.default_rng(15)
    Y = (rng.random((50, 6)) < np.linspace(0.3, 0.8, 6)).astype(float)
    for k in (1, 2, 3, 6):
        best, exhaustive = _observed_best_of_k(Y, k, 1000, rng)
        brute = sorted(max(Y[:, list(c)].sum(0)) for c in itertools.combinations(range(6), k))
        assert exhaustive and sorted(best) == brute
    best, exhaustive = _observed_best_of_k(Y, 3, 10, rng)
    assert not exhaustive and best.size == 10 and set(best) <= set(brute) | set(Y.sum(0))


def _brute_force_best_of_k(n, k, atoms, rho, theta0):
    """P(max count <= x), x = 0..n, by enumerating Y_0, the k accuracies and every answer of every model."""
    p1, p0 = conditional_probs(np.asarray(atoms), theta0, rho)
    cdf = np.zeros(n + 1)
    for y0 in itertools.product([0, 1], repeat=n):
        py0 = math.prod(theta0 if y else 1 - theta0 for y in y0)
        for picks in itertools.product(range(len(atoms)), repeat=k):
            pp = len(atoms) ** -k
            for answers in itertools.product([0, 1], repeat=n * k):
                pa = 1.0
                counts = []
                for j, a in enumerate(picks):
                    row = answers[j * n : (j + 1) * n]
                    for y, r in zip(y0, row, strict=True):
                        p = p1[a] if y else p0[a]
                        pa *= p if r else 1 - p
                    counts.append(sum(row))
                cdf[max(counts) :] += py0 * pp * pa
    return cdf


def test_predicted_best_of_k_against_brute_force_enumeration():
    atoms, rho, theta0 = [0.5, 0.6, 0.7], 0.3, 0.6
    brute = _brute_force_best_of_k(3, 2, atoms, rho, theta0)
    dist = _predicted_best_of_k(3, 2, np.array(atoms), rho, theta0)
    assert np.allclose(dist.cdf_at(np.arange(4)), brute, atol=1e-12)
    sim = _simulated_best_of_k(3, 2, np.array(atoms), rho, theta0, 200_000, np.random.default_rng(16))
    emp = np.array([(sim <= x).mean() for x in range(4)])
    assert np.allclose(emp, brute, atol=0.005)


def test_fit_reports_best_of_k_exactly_on_small_boards():
    Y = simulate_per_item(400, THETA12[:6], rho=0.5, theta0=0.65, rng=17).outcomes
    fit = dependence_fit(PerItem(Y), ms=[2, 6], n_null=19, rng=18)
    rows = {r["m"]: r for r in fit.best_of_m}
    assert rows[2]["prediction"] == "exact" and rows[2]["exhaustive"] and rows[2]["n_subsets"] == 15
    assert rows[6]["observed_mean"] == pytest.approx(Y.mean(0).max())
    assert abs(rows[2]["observed_mean"] - rows[2]["predicted_mean"]) < 0.02
    assert 0 <= rows[2]["ks"] <= 1
    d = fit.to_dict()
    assert d["level"] == 0.05 and d["dependence"]["n_models"] == 6
    assert [r["m"] for r in d["best_of_m"]] == [2, 6] and "best_of_k" not in d


def test_ks_and_best_of_k_are_deprecated_spellings_of_ms_and_best_of_m():
    """Issue 32's vocabulary: k is for folds only; the numbers of models are ms, one for a version with a warning."""
    Y = PerItem(simulate_per_item(200, THETA12[:4], rho=0.5, theta0=0.65, rng=21).outcomes)
    new = dependence_fit(Y, ms=[2], n_null=5, rng=22)
    with pytest.warns(DeprecationWarning, match=r"dependence_fit\(ks=...\) is deprecated.*use ms="):
        old = dependence_fit(Y, ks=[2], n_null=5, rng=22)
    assert old.best_of_m == new.best_of_m
    with pytest.warns(DeprecationWarning, match="best_of_k is deprecated.*best_of_m"):
        rows = new.best_of_k
    assert rows[0]["k"] == rows[0]["m"] == 2
    with pytest.raises(ValueError, match="give ms only"):
        dependence_fit(Y, ks=[2], ms=[2], n_null=5)


def test_the_same_results_as_file_dataframe_and_per_item_give_the_same_estimate(tmp_path):
    Y = simulate_per_item(300, THETA12[:5], rho=0.5, theta0=0.6, rng=20).outcomes
    names = [f"m{j}" for j in range(5)]
    ids = [f"q{i}" for i in range(300)]
    frame = pd.DataFrame(Y.astype(int), columns=names).assign(question_id=ids)[["question_id", *names]]
    path = tmp_path / "items.csv"
    frame.to_csv(path, index=False)
    results = [
        estimate_dependence(x, n_resamples=50, rng=21).to_dict()
        for x in (PerItem(Y, items=ids, models=names), frame, pd.read_csv(path), read_per_item(path))
    ]
    assert all(r == results[0] for r in results[1:])
    assert results[0]["models"] == names


def test_an_item_listed_twice_is_refused_not_counted_twice(tmp_path):
    path = tmp_path / "twice.csv"
    path.write_text("question_id,A,B,C\nq1,1,0,1\nq2,0,1,1\nq3,1,1,0\nq1,1,0,1\n")
    with pytest.raises(
        ValueError, match=r"line 5, column \"question_id\": item ids must be unique: 'q1' is listed on lines 2 and 5"
    ):
        estimate_dependence(read_per_item(path))
    frame = pd.DataFrame({"item": ["q1", "q2", "q3", "q1"], "A": [1, 0, 1, 1], "B": [0, 1, 1, 0], "C": [1, 1, 0, 1]})
    with pytest.raises(ValueError, match="items must be unique: 'q1' names rows 1 and 4"):
        estimate_dependence(frame)


def test_a_graded_cell_is_taken_and_one_outside_0_1_refused_by_its_line_and_column(tmp_path):
    path = tmp_path / "graded.csv"
    path.write_text("item,A,B,C\nq1,1,0,1\nq2,0,1,1\nq3,1,0.3,0\nq4,0,1,0\n")
    table = read_per_item(path)  # graded results are per-item results: read, and measured (issue 33)
    assert table.outcomes[2, 1] == 0.3 and not table.binary
    d = estimate_dependence(table, n_resamples=0)
    assert d.graded and d.theta[1] == pytest.approx(2.3 / 4)
    path.write_text("item,A,B,C\nq1,1,0,1\nq2,0,1,1\nq3,1,1.5,0\nq4,0,1,0\n")  # a loss, not a share
    with pytest.raises(ValueError, match=r"graded.csv, line 4, column \"B\": the cell is 1.5, not in \[0, 1\]"):
        estimate_dependence(read_per_item(path))
    with pytest.raises(ValueError, match=r"line 4, column \"B\""):
        dependence_fit(read_per_item(path))


def test_resamples_beyond_the_time_limit_are_refused_up_front_with_the_range(monkeypatch):
    monkeypatch.setenv("SOTALIB_TIME_LIMIT", "60")
    table = simulate_per_item(1000, THETA12[:10], rho=0.5, theta0=0.6, rng=22)
    with pytest.raises(
        ValueError, match=r"n_resamples must be an integer in \[0, [0-9,]+\] for 1,000 items x 10 models"
    ):
        estimate_dependence(table, n_resamples=10**9)
    import time

    start = time.perf_counter()
    with pytest.raises(ValueError):
        estimate_dependence(table, n_resamples=10**12)
    assert time.perf_counter() - start < 1.0  # refused before any resample is drawn
