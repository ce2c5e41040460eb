"""Rank aggregation: Table 3 of Pavão, the rank definition, Kemeny-Young against brute force."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from sotalib.judging import kemeny_young, rank_candidates

# private: the rank definition, the Condorcet winner and Kemeny's objective are the references the public
# rankings are checked against
from sotalib.judging._kemeny import kemeny_objective, kendall_tau_distance
from sotalib.judging._ranking_functions import condorcet_winner, rank

#: The ranking functions of rank_candidates (its documented method names).
METHODS = (
    "random-dictator",
    "mean",
    "median",
    "average-rank",
    "weighted-average-rank",
    "copeland",
    "relative-difference",
    "kemeny",
)

#: Table 3 of the paper: 3 candidates x 4 judges.
TABLE3 = np.array([[0.8, 0.5, 0.7, 0.5], [0.6, 0.9, 0.4, 0.5], [0.4, 0.7, 0.8, 0.5]])


def test_rank_definition_ties_count_one_half():
    assert rank([0.5, 0.9, 0.5, 0.1]).tolist() == [2.5, 1.0, 2.5, 4.0]
    assert rank([0.5, 0.9, 0.5, 0.1], lower_is_better=True).tolist() == [2.5, 4.0, 2.5, 1.0]
    assert rank([3, 3, 3]).tolist() == [2, 2, 2]


@given(arrays(np.int64, st.integers(1, 9), elements=st.integers(-3, 3)))
def test_rank_matches_scipy_average_ranks(v):
    assert np.array_equal(rank(v), stats.rankdata(-v, method="average"))
    assert np.array_equal(rank(v, lower_is_better=True), stats.rankdata(v, method="average"))


def test_table3_every_function():
    agg = {m: rank_candidates(TABLE3, m, weights=[1, 2, 1, 1], rng=0) for m in METHODS}
    # mean: 0.625, 0.6, 0.6 -- candidates 2 and 3 tie although their float sums differ in the last bit
    assert agg["mean"].scores == pytest.approx([0.625, 0.6, 0.6])
    assert agg["mean"].ranks.tolist() == [1, 2.5, 2.5]
    assert agg["median"].scores == pytest.approx([0.6, 0.55, 0.6])
    assert agg["median"].ranks.tolist() == [1.5, 3, 1.5]
    # average rank: every candidate has rank sum 8 -- a three-way tie
    assert agg["average-rank"].scores.tolist() == [2, 2, 2]
    assert agg["average-rank"].ranks.tolist() == [2, 2, 2]
    # weighted average rank, weights (1, 2, 1, 1): 11/4, 9/4, 10/4
    assert agg["weighted-average-rank"].scores == pytest.approx([2.75, 2.25, 2.5])
    assert agg["weighted-average-rank"].ranks.tolist() == [3, 1, 2]
    # Copeland: a Condorcet cycle 1 > 2 > 3 > 1, each 2 judges to 1
    assert agg["copeland"].scores.tolist() == [0.5, 0.5, 0.5]
    assert condorcet_winner(TABLE3) is None
    # Kemeny-Young: the three cyclic orders are co-optimal; positions average to 2
    assert agg["kemeny"].ranks.tolist() == [2, 2, 2]
    res = kemeny_young(TABLE3, engine="brute-force")
    assert set(res.optimal_orders) == {(0, 1, 2), (1, 2, 0), (2, 0, 1)}
    assert res.objective == 5.5
    assert agg["relative-difference"].ranks.tolist() == [1, 3, 2]
    # random dictator: the drawn judge's ranking
    k = agg["random-dictator"].judge
    assert np.array_equal(agg["random-dictator"].ranks, rank(TABLE3[:, k]))


def test_relative_difference_exact_fractions():
    M = [[Fraction(x).limit_denominator(10) for x in row] for row in TABLE3]
    n, m = 3, 4
    expect = []
    for i in range(n):
        tot = Fraction(0)
        for j in range(n):
            if j != i:
                tot += sum((M[i][k] - M[j][k]) / (M[i][k] + M[j][k]) for k in range(m)) / m
        expect.append(tot / (n - 1))
    rd = rank_candidates(TABLE3, "relative-difference")
    rd_lower = rank_candidates(TABLE3, "relative-difference", lower_is_better=True)
    assert rd.scores == pytest.approx([float(e) for e in expect], abs=1e-15)
    assert rd_lower.scores == pytest.approx([-float(e) for e in expect], abs=1e-15)


def test_lower_is_better_reverses_everything():
    rng = np.random.default_rng(5)
    M = rng.integers(1, 9, size=(5, 6)).astype(float)
    for method in ("mean", "median", "average-rank", "copeland", "kemeny"):
        a = rank_candidates(M, method)
        b = rank_candidates(-M, method, lower_is_better=True)
        assert np.array_equal(a.ranks, b.ranks), method


def _brute(M):
    n = M.shape[0]
    best = min(
        sum(kendall_tau_distance(p, M[:, k]) for k in range(M.shape[1])) for p in itertools.permutations(range(n))
    )
    return best


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 7), st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_kemeny_ilp_matches_brute_force(n, m, seed):
    M = np.random.default_rng(seed).integers(0, 4, size=(n, m)).astype(float)
    ilp = kemeny_young(M, engine="ilp")
    brute = kemeny_young(M, engine="brute-force")
    assert ilp.exact and brute.exact
    assert ilp.objective == pytest.approx(brute.objective)
    assert ilp.order in brute.optimal_orders
    assert kemeny_objective(M, ilp.order) == pytest.approx(ilp.objective)
    heur = kemeny_young(M, engine="heuristic")
    assert heur.objective >= brute.objective - 1e-9
    if heur.exact:  # proved by the lower bound: then it is optimal
        assert heur.objective == pytest.approx(brute.objective)


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 5), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_brute_force_objective_is_sum_of_kendall_distances(n, m, seed):
    M = np.random.default_rng(seed).integers(0, 3, size=(n, m)).astype(float)
    assert kemeny_young(M, engine="brute-force").objective == pytest.approx(_brute(M))


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 6), st.integers(1, 9), st.integers(0, 2**32 - 1), st.data())
def test_copeland_ranks_a_condorcet_winner_first(n, m, seed, data):
    rng = np.random.default_rng(seed)
    M = rng.integers(0, 5, size=(n, m)).astype(float)
    if data.draw(st.booleans()):  # plant a Condorcet winner: best for a strict majority of judges
        c = int(rng.integers(n))
        for k in rng.choice(m, size=m // 2 + 1, replace=False):
            M[c, k] = M[:, k].max() + 1
    c = condorcet_winner(M)
    if c is not None:
        cop = rank_candidates(M, "copeland")
        assert cop.ranks[c] == 1
        assert cop.scores[c] == 1.0
        assert rank_candidates(M, "kemeny").ranks[c] == 1


@pytest.mark.parametrize("seed", range(4))
def test_average_rank_is_optimal_aggregation_for_spearman_distance(seed):
    # Kendall and Gibbons: average rank minimises the summed squared rank differences to the judges.
    # The mean position over all optimal orderings equals the chapter's rank with ties one half.
    rng = np.random.default_rng(seed)
    M = rng.random((5, 7))
    R = rank(M)
    perms = np.array(list(itertools.permutations(range(1, 6))), dtype=float)
    loss = ((R[None, :, :] - perms[:, :, None]) ** 2).sum(axis=(1, 2))
    optimal = perms[np.isclose(loss, loss.min())]
    assert np.array_equal(optimal.mean(axis=0), rank(rank_candidates(M, "average-rank").scores, lower_is_better=True))


def test_kemeny_heuristic_beyond_exact_limit_is_labelled():
    M = np.random.default_rng(0).random((17, 5))
    res = kemeny_young(M)
    a = rank_candidates(M, "kemeny")
    assert "heuristic" in res.engine and not res.exact
    assert "heuristic" in a.note and "not proved optimal" in a.note


def test_bad_input():
    with pytest.raises(ValueError, match="method"):
        rank_candidates(TABLE3, "borda")
    with pytest.raises(ValueError, match="finite"):
        rank_candidates([[1, np.nan], [2, 3]], "mean")
    with pytest.raises(ValueError, match="non-negative"):
        rank_candidates([[1, -1], [2, 3]], "relative-difference")
    with pytest.raises(ValueError, match="weights"):
        rank_candidates(TABLE3, "weighted-average-rank", weights=[1, 2])
