"""The judging chapter's numbers against independent computations.

The chapter computes its tables in visible code with the public API (clopper_pearson,
variance_decomposition, rank_candidates, simulate_final_phase, the cached property_table);
these tests check those public functions the way the chapter calls them.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import sotalib as sl
from sotalib.book.ch07_judging import (
    counterexample_summary,
    counterexample_text,
    load_property_table,
)
from sotalib.book.papers import PAPER_TABLE4
from sotalib.judging import simulate_final_phase, variance_decomposition, winner_distribution_exact
from sotalib.multiplicity import clopper_pearson


@pytest.mark.parametrize("n", [25, 30, 100])
def test_clopper_pearson_coverage_by_enumeration_is_conservative(n):
    # brute force: the coverage is the probability of the x whose interval holds theta; never below 95%
    for theta in (0.5, 0.8, 0.9, 0.95, 0.99):
        cov = sum(
            stats.binom.pmf(x, n, theta)
            for x in range(n + 1)
            if clopper_pearson(x, n, alpha=0.05)[0] <= theta <= clopper_pearson(x, n, alpha=0.05)[1]
        )
        assert 0.95 <= cov <= 1, (n, theta)


def test_variance_decomposition_parts_add_up_and_match_a_direct_computation():
    rng = np.random.default_rng(0)
    correct = (rng.random((3, 2, 500)) < np.array([0.7, 0.8, 0.9])[:, None, None]).astype(np.uint8)
    # the chapter's loop: bootstrap test sets per task, one decomposition per classifier
    g = np.random.default_rng(1)
    boot = np.empty((3, 30, 2))
    for t in range(3):
        boot[t] = correct[t][:, g.integers(500, size=(30, 100))].mean(axis=2).T
    task = np.repeat(np.arange(3), 30)
    parts = [variance_decomposition(boot[:, :, j].ravel(), task) for j in range(2)]
    for vd in parts:
        assert vd.within + vd.between == pytest.approx(vd.total, rel=1e-12)
    # recompute classifier 0's parts from the same bootstrap draws
    g = np.random.default_rng(1)
    scores = [correct[t][:, g.integers(500, size=(30, 100))].mean(axis=2)[0] for t in range(3)]
    assert parts[0].total == pytest.approx(np.concatenate(scores).var(), rel=1e-12)
    assert parts[0].within == pytest.approx(np.mean([s.var() for s in scores]), rel=1e-12)
    assert parts[0].between == pytest.approx(np.var([s.mean() for s in scores]), rel=1e-12)


def test_rank_candidates_on_the_papers_table3():
    T3 = np.array([[0.8, 0.5, 0.7, 0.5], [0.6, 0.9, 0.4, 0.5], [0.4, 0.7, 0.8, 0.5]])
    mean = sl.rank_candidates(T3, "mean", weights=[1, 2, 1, 1])
    np.testing.assert_allclose(mean.scores, T3.mean(axis=1))
    assert list(mean.ranks) == [1, 2.5, 2.5]
    # a Condorcet cycle: Copeland ties all three
    assert set(sl.rank_candidates(T3, "copeland", weights=[1, 2, 1, 1]).ranks) == {2.0}


def test_final_phase_everyone_matches_the_exact_winner_distribution():
    thetas = np.r_[np.full(20, 0.8), [0.85, 0.9]]
    everyone = simulate_final_phase(thetas, 300, 300, rule="all", n_resamples=2000, rng=3)
    p = winner_distribution_exact(thetas, 300)
    assert abs(everyone.winner_theta - p @ thetas) < 4 * everyone.se
    assert everyone.finalists == thetas.size
    top = simulate_final_phase(thetas, 300, 300, rule="top-k", n_finalists=3, n_resamples=2000, rng=3)
    assert top.finalists == 3


def test_the_cached_search_differs_from_the_papers_table4_only_for_kemeny_consistency():
    props, trials, _ = load_property_table()
    # the cells where the paper's ✓/✗ and the search's (no counterexample / counterexample) disagree
    differ = [(f, p) for (f, p), r in props.items() if f in PAPER_TABLE4 and r.holds != (p in PAPER_TABLE4[f])]
    assert differ == [("kemeny", "consistency")]
    summary = counterexample_summary(props)
    assert len(summary) == sum(not r.holds for r in props.values())
    text = counterexample_text(props, width=70)
    assert text.count("violates") == len(summary)
    # the wrapped explanations hold the same words as the originals
    for r in props.values():
        if r.counterexample is not None:
            assert " ".join(r.counterexample.explanation.split()) in " ".join(text.split())
