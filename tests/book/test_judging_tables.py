"""The judging chapter's table builders against independent computations."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sotalib.book import ch07_judging as jt
from sotalib.book.ch07_judging import (
    counterexample_summary,
    counterexample_text,
    load_property_table,
    property_comparison,
)
from sotalib.book.papers import PAPER_TABLE4
from sotalib.judging import winner_distribution_exact
from sotalib.multiplicity import clopper_pearson


def test_clopper_pearson_coverage_by_enumeration():
    # brute force: the coverage is the probability of the x whose interval holds theta
    n, theta = 30, 0.8
    cov = sum(
        stats.binom.pmf(x, n, theta)
        for x in range(n + 1)
        if clopper_pearson(x, n, alpha=0.05)[0] <= theta <= clopper_pearson(x, n, alpha=0.05)[1]
    )
    assert jt.clopper_pearson_coverage(theta, n) == pytest.approx(cov, abs=1e-15)
    # Clopper-Pearson is conservative
    assert jt.clopper_pearson_coverage(0.9, 100) >= 0.95


def test_variance_table_parts_add_up_and_match_a_direct_computation():
    rng = np.random.default_rng(0)
    correct = (rng.random((3, 2, 500)) < np.array([0.7, 0.8, 0.9])[:, None, None]).astype(np.uint8)
    df = jt.variance_table(correct, ["a", "b"], reps=30, n=100, rng=1)
    np.testing.assert_allclose(df["within tasks"] + df["between tasks"], df["total"], rtol=1e-12)
    # recompute classifier a's total variance from the same bootstrap draws
    g = np.random.default_rng(1)
    scores = np.concatenate([correct[t][:, g.integers(500, size=(30, 100))].mean(axis=2)[0] for t in range(3)])
    assert df["total"].iloc[0] == pytest.approx(scores.var(), rel=1e-12)


def test_ranking_function_table_on_the_papers_table3():
    T3 = np.array([[0.8, 0.5, 0.7, 0.5], [0.6, 0.9, 0.4, 0.5], [0.4, 0.7, 0.8, 0.5]])
    df = jt.ranking_function_table(T3).set_index("function")
    np.testing.assert_allclose(df.loc["mean", ["f, candidate 1", "f, candidate 2", "f, candidate 3"]], T3.mean(axis=1))
    assert list(df.loc["mean", ["r, candidate 1", "r, candidate 2", "r, candidate 3"]]) == [1, 2.5, 2.5]
    # a Condorcet cycle: Copeland ties all three
    assert set(df.loc["Copeland", ["r, candidate 1", "r, candidate 2", "r, candidate 3"]]) == {2.0}


def test_final_phase_table_everyone_matches_the_exact_winner_distribution():
    thetas = np.r_[np.full(20, 0.8), [0.85, 0.9]]
    df = jt.final_phase_table(thetas, 300, 300, baseline=0.8, k=3, reps=2000, rng=3)
    p = winner_distribution_exact(thetas, 300)
    row = df.iloc[0]
    assert abs(row["winner's true accuracy"] - p @ thetas) < 4 * row["± se"]
    assert row["finalists (mean)"] == thetas.size and df.iloc[2]["finalists (mean)"] == 3


def test_property_comparison_and_counterexamples_from_the_cached_search():
    props, trials, _ = load_property_table()
    cmp = property_comparison(props, PAPER_TABLE4)
    assert cmp.attrs["differ"] == [("kemeny", "consistency")]
    summary = counterexample_summary(props)
    assert len(summary) == sum(not r.holds for r in props.values())
    text = counterexample_text(props, width=70)
    assert text.count("violates") == len(summary)
    # the wrapped explanations hold the same words as the originals
    for r in props.values():
        if r.counterexample is not None:
            assert " ".join(r.counterexample.explanation.split()) in " ".join(text.split())
