"""Rankings of many candidates: the O(n log n) rank, blocked pairwise methods, Kemeny-Young in blocks, extremes."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sotalib.judging import kemeny_young, rank_candidates

# private: the O(n log n) rank (against its definition, with its tie tolerance), the pairwise preference
# table and Kemeny's objective are the kernels under test
from sotalib.judging._kemeny import _preference, kemeny_objective
from sotalib.judging._ranking_functions import TIE_RTOL, rank


def _rank_by_definition(a: np.ndarray) -> np.ndarray:
    """The chapter's rank straight from its definition: all n x n comparisons."""
    xi, xj = a[:, None], a[None, :]
    tie = np.abs(xi - xj) <= TIE_RTOL * np.maximum(1.0, np.maximum(np.abs(xi), np.abs(xj)))
    better = (xj > xi) & ~tie
    return 1.0 + better.sum(axis=1) + 0.5 * (tie.sum(axis=1) - 1)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([0.0, 1.0, 1.0 + 1e-10, 1.0 - 1e-10, 2.0, 1e9, 1e9 + 0.5, -1e-12, 1e-12]),
            st.floats(-1e6, 1e6, allow_nan=False),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_rank_equals_its_definition(values):
    a = np.array(values)
    np.testing.assert_array_equal(rank(a), _rank_by_definition(a))
    np.testing.assert_array_equal(rank(a, lower_is_better=True), _rank_by_definition(-a))


def test_rank_of_twenty_thousand_candidates_needs_no_square_table():
    rng = np.random.default_rng(0)
    a = np.round(rng.random(20_000), 3)  # many ties
    r = rank(a)
    # ties share the mean of the positions they occupy: the ranks sum to 1 + ... + n
    assert r.sum() == pytest.approx(20_000 * 20_001 / 2)
    i = int(np.argmax(a))
    assert r[i] == pytest.approx(1 + 0.5 * (np.sum(a == a[i]) - 1))
    res = rank_candidates(rng.random((20_000, 3)), "mean")
    assert res.ranks.sum() == pytest.approx(20_000 * 20_001 / 2) and res.ranks.min() == 1


def test_scores_near_the_largest_double_stay_finite_and_silent():
    M = np.array([[1.7e308, 1.6e308], [1.5e308, 1.79e308], [-1.7e308, 1e308], [0.0, 1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a RuntimeWarning fails the test
        for method in ("mean", "median", "average-rank", "copeland", "kemeny"):
            res = rank_candidates(M, method)
            assert np.all(np.isfinite(res.scores)), method
            assert None not in res.to_dict()["scores"].values()
        mean = rank_candidates(M, "mean").scores
        np.testing.assert_allclose(mean, [1.65e308, 1.645e308, -0.35e308, 0.5], rtol=1e-15)
        rd = rank_candidates(np.abs(M), "relative-difference").scores
        np.testing.assert_allclose(rd, rank_candidates(np.abs(M) / 1e300, "relative-difference").scores, rtol=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_blocked_pairwise_methods_equal_the_small_formulas(seed):
    rng = np.random.default_rng(seed)
    M = rng.integers(0, 4, size=(30, 5)).astype(float)
    W = (M[:, None, :] > M[None, :, :]).sum(axis=2)
    w = np.where(W > W.T, 1.0, np.where(W == W.T, 0.5, 0.0))
    np.fill_diagonal(w, 0.0)
    np.testing.assert_allclose(rank_candidates(M, "copeland").scores, w.sum(axis=1) / 29)
    u, v = M[:, None, :] + 1, M[None, :, :] + 1
    rd = rank_candidates(M + 1, "relative-difference").scores
    np.testing.assert_allclose(rd, ((u - v) / (u + v)).mean(axis=2).sum(axis=1) / 29)


def _consensus(rng, n, m, noise):
    """Judges who agree on a true order up to noise: many small blocks of candidates."""
    truth = np.arange(n, 0, -1, dtype=float)
    return truth[:, None] + noise * rng.standard_normal((n, m))


@settings(max_examples=20, deadline=None)
@given(st.integers(9, 13), st.integers(1, 7), st.integers(0, 2**32 - 1), st.sampled_from([0.5, 2.0, 100.0]))
def test_kemeny_in_blocks_matches_the_whole_ilp(n, m, seed, noise):
    rng = np.random.default_rng(seed)
    M = np.round(_consensus(rng, n, m, noise))
    auto = kemeny_young(M)
    whole = kemeny_young(M, engine="ilp")
    assert auto.exact
    assert auto.objective == pytest.approx(whole.objective)
    assert kemeny_objective(M, auto.order) == pytest.approx(auto.objective)


def test_kemeny_blocks_respect_a_strict_majority_split():
    # candidates 0-9 beat 10-19 for every judge: every optimal order puts them first
    rng = np.random.default_rng(1)
    M = np.vstack([10 + rng.random((10, 5)), rng.random((10, 5))])
    res = kemeny_young(M)
    assert set(res.order[:10]) == set(range(10))
    assert "blocks kept in majority order" in res.engine and res.exact


def test_kemeny_thousand_candidates_is_exact_when_the_judges_nearly_agree():
    rng = np.random.default_rng(2)
    M = _consensus(rng, 1000, 9, 1.5)
    res = rank_candidates(M, "kemeny")
    assert "proved optimal" in res.note and "not proved" not in res.note
    # the exact optimum is within the lower bound: each pair ordered as its majority says
    P = _preference(M, False)
    bound = np.minimum(P, P.T)[np.triu_indices(1000, 1)].sum()
    order = res.order
    assert kemeny_objective(M[order[:50]], range(50)) >= 0  # runs on a slice
    assert kemeny_young(M).objective >= bound - 1e-9


def test_kemeny_thousand_random_candidates_is_a_labelled_local_optimum():
    rng = np.random.default_rng(3)
    M = rng.random((1000, 5))
    res = kemeny_young(M)
    assert not res.exact and "heuristic" in res.engine
    P = _preference(M, False)
    # a local optimum: no single candidate moves to a better place
    order = list(res.order)
    for i in rng.choice(1000, 20, replace=False):
        c = order[i]
        rest = order[:i] + order[i + 1 :]
        cb, ca = P[c, rest], P[rest, c]
        gains = np.concatenate([[0.0], np.cumsum(cb)]) + (ca.sum() - np.concatenate([[0.0], np.cumsum(ca)]))
        assert gains.min() >= gains[i] - 1e-9


def test_kemeny_refuses_a_table_that_cannot_fit(monkeypatch):
    monkeypatch.setenv("SOTALIB_MEMORY_LIMIT", "1M")
    with pytest.raises(ValueError, match=r"Kemeny-Young of 1,000 candidates .* would need 11\.4 MiB"):
        kemeny_young(np.zeros((1000, 2)))


def test_brute_force_positions_are_kept_inside_blocks():
    # two separate 3-cycles: each block has three co-optimal orders, positions average within the block
    cyc = np.array([[3, 1, 2], [2, 3, 1], [1, 2, 3]], dtype=float)
    M = np.vstack([cyc + 10, cyc])
    M = np.vstack([M, M[:1] * 0 - 5, M[:1] * 0 - 6, M[:1] * 0 - 7])  # nine candidates: beyond brute force
    res = rank_candidates(M, "kemeny")
    np.testing.assert_allclose(res.scores[:6], [2, 2, 2, 5, 5, 5])
    cyclic = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    losses = {perm: kemeny_objective(M[:3], perm) for perm in itertools.permutations(range(3))}
    assert {p for p, v in losses.items() if v == min(losses.values())} == set(cyclic)
