"""The survey's pieces: the extreme-value prediction and one board's estimate."""

from __future__ import annotations

import math

import numpy as np
import pytest

import sotalib as sl
from sotalib.book.ch04b_kaggle_survey import estimate_board


def test_one_board_matches_the_front_door():
    board = sl.read_leaderboard("data/leaderboards/playground-series-s4e2__private.csv").scores
    row = estimate_board(board, 11_072, metric="accuracy", classes=7)
    direct = sl.estimate_sota(board, 11_072, classes=7, method="shrink")
    assert row["estimate"] == pytest.approx(direct.estimate, abs=1e-12)
    assert row["teams_above"] == direct.teams_above == 1088
    assert row["inflation"] == pytest.approx(board.max() - direct.estimate)


def test_a_gini_board_is_read_as_auc_and_no_answer_is_a_reason_not_an_error():
    rng = np.random.default_rng(3)
    auc = 0.80 + 0.02 * rng.random(300)
    gini = 2 * auc - 1
    a = estimate_board(auc, 20_000, metric="auc", prevalence=0.3)
    g = estimate_board(gini, 20_000, metric="gini", prevalence=0.3)
    assert a["sample_max"] == pytest.approx(g["sample_max"])
    assert a.get("estimate") == pytest.approx(g.get("estimate"))
    chance = np.full(50, 0.2)  # five classes, every team at chance: nothing to estimate
    row = estimate_board(chance, 2_000, metric="accuracy", classes=5)
    assert row.get("estimate") is None and "chance" in row["reason"]


def test_the_size_table_has_a_column_per_unknown_size():
    import pandas as pd

    from sotalib.book.ch04b_kaggle_survey import N_UNKNOWN, size_table

    survey = pd.DataFrame(
        [
            dict(slug="a", n=n, n_source="unknown", estimate=0.8 + n / 1e6, reason="", m=10, teams_above=3)
            for n in N_UNKNOWN
        ]
        + [
            dict(slug="b", n=500, n_source="stated", estimate=None, reason="... an outlier ...", m=5),
            dict(slug="c", n=900, n_source="lattice", estimate=None, reason="no team above chance", m=0),
        ]
    )
    assert list(size_table(survey).columns) == ["competition", *(f"{n:,}" for n in N_UNKNOWN)]


def test_the_lattice_pins_the_private_boards_it_can():
    from sotalib.book.ch04b_kaggle_survey import lattice_n

    def board(slug):
        return sl.read_leaderboard(f"data/kaggle/{slug}__private.csv").scores

    assert lattice_n(board("playground-series-s4e2"), 5, 7) == 11_072  # chapter 4
    assert lattice_n(board("paddy-disease-classification"), 5, 10) == 868  # 868 + 2,601 = 3,469 stated
    assert lattice_n(board("cassava-leaf-disease-classification"), 4, 5) is None  # four decimals: no n


# ------------------------------------------------------------------ real boards against plain Monte Carlo
def _plain_accuracy_max(values, n: int, rho: float, reps: int, seed: int) -> np.ndarray:
    """Best accuracy of the fitted model, drawn plainly: the estimator's model written out in NumPy.

    Accuracies ``theta_j`` drawn with replacement from the fitted values (the
    empirical P(theta)), a reference classifier right on ``K0 ~ B(n, theta0)``
    items (``theta0`` the largest value), and each classifier right on those
    with ``p1`` and on the others with ``p0``, from ``corr(Y_j, Y0) = rho``;
    values for which ``p1`` or ``p0`` is no probability are left out (Eq. 8).
    """
    rng = np.random.default_rng(seed)
    v = np.asarray(values, dtype=float)
    t0 = v.max()
    cov = rho * np.sqrt(v * (1 - v) * t0 * (1 - t0))
    p1 = (cov + v * t0) / t0
    p0 = (v * (1 - t0) - cov) / (1 - t0)
    ok = (p1 <= 1 + 1e-12) & (p0 >= -1e-12)
    p1, p0 = np.clip(p1[ok], 0, 1), np.clip(p0[ok], 0, 1)
    m = int(ok.sum())
    best = np.empty(reps)
    for r in range(reps):
        j = rng.integers(0, m, m)
        k0 = rng.binomial(n, t0)
        best[r] = (rng.binomial(k0, p1[j]) + rng.binomial(n - k0, p0[j])).max() / n
    return best


@pytest.mark.parametrize(
    "slug, n, classes, reps",
    [("paddy-disease-classification", 868, 10, 20_000), ("playground-series-s4e2", 11_072, 7, 3_000)],
)
def test_an_accuracy_boards_fit_reproduces_its_best_score_by_plain_monte_carlo(slug, n, classes, reps):
    # the survey's estimate solves E max(fitted model) = best score; drawing the fitted model
    # plainly must give that mean within its standard error
    scores = sl.read_leaderboard(f"data/kaggle/{slug}__private.csv").scores
    row = estimate_board(scores, n, metric="accuracy", classes=classes)
    assert row["estimate"] is not None
    s = scores[scores > 1 / classes]
    values = row["weight"] * s + (1 - row["weight"]) / classes
    best = _plain_accuracy_max(values, n, 0.6, reps, seed=2024)
    se = best.std(ddof=1) / math.sqrt(reps)
    assert abs(best.mean() - row["sample_max"]) < 4 * se
    assert abs(best.mean() - row["expected_max"]) < 4 * se
    assert row["estimate"] == pytest.approx(row["weight"] * scores.max() + (1 - row["weight"]) / classes)


def test_an_auc_boards_fit_reproduces_its_best_score_by_plain_monte_carlo():
    # unimelb: 2,176 test items, 22.5% positives (stated); the fitted true AUCs
    # w AUC + (1 - w) / 2, binormal scores of equal variance correlated 0.6 with a
    # hidden reference within each class, and each empirical AUC from ranks
    from scipy.special import ndtri

    scores = sl.read_leaderboard("data/kaggle/unimelb__private.csv").scores
    n, prevalence, rho, reps = 2_176, 0.225, 0.6, 100
    row = estimate_board(scores, n, metric="auc", prevalence=prevalence)
    s = scores[scores > 0.5]
    mus = np.sqrt(2) * ndtri(row["weight"] * s + (1 - row["weight"]) / 2)
    n_pos = round(n * prevalence)
    n_neg = n - n_pos
    rng = np.random.default_rng(99)
    c = math.sqrt(1 - rho**2)
    best = np.empty(reps)
    for r in range(reps):
        pos = mus[:, None] + rho * rng.standard_normal(n_pos) + c * rng.standard_normal((s.size, n_pos))
        neg = rho * rng.standard_normal(n_neg) + c * rng.standard_normal((s.size, n_neg))
        both = np.hstack([pos, neg])  # continuous scores: no ties
        ranks = np.argsort(np.argsort(both, axis=1), axis=1)[:, :n_pos] + 1
        u = ranks.sum(axis=1) - n_pos * (n_pos + 1) / 2
        best[r] = u.max() / (n_pos * n_neg)
    # the estimator's own E max is simulated too (200 replications, common random numbers)
    se = best.std(ddof=1) * math.sqrt(1 / reps + 1 / 200)
    assert abs(best.mean() - row["sample_max"]) < 4 * se


def test_the_split_rule_recovers_a_stated_split_and_leaves_out_what_it_cannot_tell():
    from sotalib.book.ch04b_kaggle_survey import (  # private: the split rule is the subject
        _accepted,
        board_split,
        load_manifest,
    )

    manifest = load_manifest().set_index("slug", drop=False)

    def record(slug):
        return manifest.loc[slug].to_dict()

    # Paddy: the description states 3,469 test items; the two lattices give 2,601 + 868
    paddy = board_split(record("paddy-disease-classification"))
    assert (paddy["n_public"], paddy["n_private"]) == (2_601, 868)
    assert "stated" in paddy["source"]
    # Titanic: both boards fit the whole stated test set, so they are no disjoint parts
    assert "not disjoint" in board_split(record("titanic"))["reason"]
    assert "same board" in board_split(record("poker-rule-induction"))["reason"]
    assert board_split(record("unimelb"))["reason"].startswith("AUC")
    # one board's size and the other's first fit: believed only with a reason
    assert _accepted(24_774, 75_226, 100_000.0) == "adds up to the stated test set"
    assert "round 100,000" in _accepted(19_921, 80_079, None)
    assert "20%" in _accepted(10_202, 40_810, None)
    assert _accepted(10_202, 40_333, None) is None
