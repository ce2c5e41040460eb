"""Demšar's procedure: the paper's worked example, SciPy's tests, and properties of ranks, Holm and groups."""

import itertools

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from sotalib.judging import compare_candidates, nemenyi_cd

# private: the parts of compare_candidates (ranks, Friedman, Nemenyi's q and groups, Wilcoxon, Holm) are
# checked one by one against Demšar's tables and SciPy
from sotalib.judging._compare import average_ranks, friedman_test, nemenyi_groups, q_alpha
from sotalib.judging._wilcoxon import holm, pairwise_wilcoxon, wilcoxon_signed_rank

NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
#: Demšar (2006), Table 6: AUC of four variants of C4.5 on 14 data sets (data sets as rows here).
TABLE6 = np.array(
    [
        [0.763, 0.768, 0.771, 0.798],  # adult (sample)
        [0.599, 0.591, 0.590, 0.569],  # breast cancer
        [0.954, 0.971, 0.968, 0.967],  # breast cancer wisconsin
        [0.628, 0.661, 0.654, 0.657],  # cmc
        [0.882, 0.888, 0.886, 0.898],  # ionosphere
        [0.936, 0.931, 0.916, 0.931],  # iris
        [0.661, 0.668, 0.609, 0.685],  # liver disorders
        [0.583, 0.583, 0.563, 0.625],  # lung cancer
        [0.775, 0.838, 0.866, 0.875],  # lymphography
        [1.000, 1.000, 1.000, 1.000],  # mushroom
        [0.940, 0.962, 0.965, 0.962],  # primary tumor
        [0.619, 0.666, 0.614, 0.669],  # rheum
        [0.972, 0.981, 0.975, 0.975],  # voting
        [0.957, 0.978, 0.946, 0.970],  # wine
    ]
).T


def paper_ranks_table():
    """Table 6 as the paper ranks it: on 'voting' its ranks put C4.5+cf (2) ahead of C4.5+m+cf (3).

    The printed AUCs are rounded (0.975 and 0.975); the paper's ranks, from which it computes its
    average ranks and statistics, separate them.  We break that one tie the same way.
    """
    M = TABLE6.copy()
    M[2, 12] += 1e-6
    return M


def test_demsar_worked_example_as_printed():
    M = paper_ranks_table()
    R, r = average_ranks(M)
    # "average ranks 3.143, 2.000, 2.893, 1.964"
    assert np.round(R, 3) == pytest.approx([3.143, 2.000, 2.893, 1.964], abs=0)
    # the paper's statistics are uncorrected for ties: chi2_F = 9.28, F_F = 3.69
    fr = friedman_test(M, tie_correction=False)
    assert round(fr.statistic, 2) == 9.28
    assert round(fr.iman_davenport_F, 2) == 3.69
    # "the critical value of F(3, 39) for alpha = 0.05 is 2.85, so we reject the null hypothesis"
    assert round(stats.f.ppf(0.95, 3, 39), 2) == 2.85 and fr.iman_davenport_p < 0.05
    # CD = 2.569 sqrt(4 * 5 / (6 * 14)) = 1.25 at alpha = 0.05, 1.12 at alpha = 0.10 (q = 2.291)
    assert round(nemenyi_cd(4, 14, alpha=0.05), 2) == 1.25
    assert round(nemenyi_cd(4, 14, alpha=0.10), 2) == 1.12


def test_demsar_groups_of_figure_1():
    M = paper_ranks_table()
    # at 0.05 "even the difference between the best and the worst is smaller than CD": one group
    c = compare_candidates(dict(zip(NAMES, M)), alpha=0.05)
    assert c.to_dict()["groups"] == [["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]]
    # at 0.10, C4.5 is worse than C4.5+m and C4.5+m+cf; C4.5+cf belongs to both groups (Figure 1)
    c = compare_candidates(dict(zip(NAMES, M)), alpha=0.10)
    assert c.to_dict()["groups"] == [["C4.5+m+cf", "C4.5+m", "C4.5+cf"], ["C4.5+cf", "C4.5"]]


@pytest.mark.parametrize(
    "alpha, table",
    [
        (0.05, [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]),
        (0.10, [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]),
    ],
)
def test_q_alpha_table_5a(alpha, table):
    """Demšar's Table 5(a), k = 2..10 (three decimals as printed)."""
    ours = [q_alpha(k, alpha) for k in range(2, 11)]
    assert ours == pytest.approx(table, abs=1e-3)
    for k in (2, 5, 13, 100):
        assert q_alpha(k, alpha) == pytest.approx(
            stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2), rel=1e-9
        )
    # k = 2: the two-sided normal quantile
    assert q_alpha(2, alpha) == pytest.approx(stats.norm.ppf(1 - alpha / 2), abs=1e-6)


def test_friedman_against_scipy_with_and_without_ties():
    rng = np.random.default_rng(1)
    for k, N, decimals in [(3, 5, 1), (4, 14, 3), (13, 5, 8), (10, 30, 0), (100, 50, 1)]:
        M = np.round(rng.normal(size=(k, N)), decimals)
        ours = friedman_test(M)
        ref = stats.friedmanchisquare(*M)
        assert ours.statistic == pytest.approx(ref.statistic, rel=1e-9, abs=1e-12)
        assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)
        F = (N - 1) * ref.statistic / (N * (k - 1) - ref.statistic)
        assert ours.iman_davenport_F == pytest.approx(F, rel=1e-9)
        assert ours.iman_davenport_p == pytest.approx(stats.f.sf(F, k - 1, (k - 1) * (N - 1)), rel=1e-9)
    # lower is better is the same test of the negated scores
    M = rng.normal(size=(5, 8))
    assert friedman_test(M, lower_is_better=True).statistic == pytest.approx(friedman_test(-M).statistic, rel=1e-12)


def test_friedman_degenerate_and_bad_input():
    fr = friedman_test(np.ones((3, 4)))
    assert (fr.statistic, fr.p_value) == (0.0, 1.0)
    # every judge ranks alike: chi2 = N (k - 1), F infinite, p of F zero
    M = np.repeat(np.arange(4.0)[:, None], 6, axis=1)
    fr = friedman_test(M)
    assert fr.statistic == pytest.approx(6 * 3) and fr.iman_davenport_F == np.inf and fr.iman_davenport_p == 0.0
    with pytest.raises(ValueError, match="at least 2 candidates and 2 judges"):
        friedman_test(np.ones((1, 5)))
    with pytest.raises(ValueError, match="finite"):
        friedman_test([[1.0, np.nan], [2.0, 3.0]])
    with pytest.raises(ValueError, match="alpha"):
        compare_candidates(np.ones((3, 3)), alpha=1.0)
    with pytest.raises(ValueError, match="k must be"):
        q_alpha(1)


def _scipy_wilcoxon(d):
    nz = d[d != 0]
    if nz.size == 0:
        return 1.0
    exact = nz.size == d.size and np.unique(np.abs(nz)).size == nz.size and nz.size <= 50
    return stats.wilcoxon(d, method="exact" if exact else "asymptotic", correction=False).pvalue


def test_wilcoxon_against_scipy():
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(300):
        n = int(rng.integers(1, 80))
        d = np.round(rng.normal(rng.normal(0, 0.5), 1, size=n), int(rng.integers(0, 4)))
        if rng.random() < 0.3:
            d[: int(rng.integers(1, n + 1))] = 0.0
        rows.append(d)
    for d in rows:
        _, p = wilcoxon_signed_rank(d[None, :])
        assert p[0] == pytest.approx(_scipy_wilcoxon(d), rel=1e-9, abs=1e-15), d
    # many rows at once give the same as one by one
    same = [r for r in rows if r.size == 20]
    if same:
        _, p = wilcoxon_signed_rank(np.array(same))
        assert p == pytest.approx([_scipy_wilcoxon(r) for r in same], rel=1e-9, abs=1e-15)
    # scipy's default (method="auto") where it is exact
    d = rng.normal(size=30)
    assert wilcoxon_signed_rank(d)[1][0] == pytest.approx(stats.wilcoxon(d).pvalue, rel=1e-9)
    assert wilcoxon_signed_rank(d)[0][0] == pytest.approx(np.sum(stats.rankdata(np.abs(d))[d > 0]))


def test_pairwise_wilcoxon_is_every_pair():
    rng = np.random.default_rng(3)
    M = rng.normal(size=(5, 12))
    pw = pairwise_wilcoxon(M)
    assert list(zip(pw.a, pw.b)) == list(itertools.combinations(range(5), 2))
    for a, b, p in zip(pw.a, pw.b, pw.p):
        assert p == pytest.approx(stats.wilcoxon(M[a], M[b]).pvalue, rel=1e-9)
    assert pw.p_holm == pytest.approx(holm(pw.p))
    assert np.array_equal(pw.significant, pw.p_holm < 0.05)


def _holm_by_definition(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out, running = [0.0] * m, 0.0
    for step, i in enumerate(order):
        running = max(running, min(1.0, (m - step) * p[i]))
        out[i] = running
    return out


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_properties(p):
    q = holm(p)
    p = np.array(p)
    assert np.all(q >= p - 1e-15) and np.all(q <= 1)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(q[order]) >= 0)  # monotone in the order of the p-values
    assert q == pytest.approx(_holm_by_definition(list(p)), abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.float64, st.tuples(st.integers(2, 9), st.integers(1, 8)), elements=st.integers(0, 4).map(float)),
    st.booleans(),
)
def test_ranks_sum_per_judge(M, lower):
    R, r = average_ranks(M, lower)
    k = M.shape[0]
    assert r.sum(axis=0) == pytest.approx(np.full(M.shape[1], k * (k + 1) / 2))
    assert R == pytest.approx(r.mean(axis=1))
    # ties share the mean position: scipy's rankdata of each column
    ref = np.column_stack([stats.rankdata(-c if not lower else c) for c in M.T])
    assert r == pytest.approx(ref)


@given(st.lists(st.floats(1, 20), min_size=1, max_size=15), st.floats(0.01, 10))
@example(R=[2.0, 1.0000000000000002], cd=1.0)  # R[1] + cd rounds up to R[0], though R[0] - R[1] < cd
def test_groups_are_the_maximal_cliques(R, cd):
    R = np.array(R)
    groups = [frozenset(g) for g in nemenyi_groups(R, cd)]
    k = len(R)
    close = lambda i, j: abs(R[i] - R[j]) < cd  # noqa: E731
    # brute force: the maximal sets of pairwise-close candidates
    cliques = set()
    for size in range(k, 0, -1):
        for c in itertools.combinations(range(k), size):
            if all(close(i, j) for i, j in itertools.combinations(c, 2)) and not any(set(c) < q for q in cliques):
                cliques.add(frozenset(c))
    assert set(groups) == cliques and len(groups) == len(cliques)


def test_compare_json_keys():
    d = compare_candidates(dict(zip(NAMES, paper_ranks_table()))).to_dict()
    assert set(d) == {"average_ranks", "friedman", "critical_difference", "groups", "pairwise", "candidates_axis"}
    assert set(d["friedman"]) == {"statistic", "p_value", "iman_davenport_F", "iman_davenport_p"}
    assert set(d["pairwise"][0]) == {"a", "b", "p_value", "p_holm", "significant"}
    assert list(d["average_ranks"]) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
