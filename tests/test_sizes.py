"""Sizes that scale (issue 25): each front door answers at the extreme size, or refuses up front naming the size."""

import math
import time

import numpy as np
import pytest
from scipy.stats import binom

import sotalib as s

# private: the pairwise tests' block size (patched), the default bound and the tests themselves are the subject
from sotalib.judging import _wilcoxon
from sotalib.judging._compare import MAX_PAIRS
from sotalib.judging._wilcoxon import pairwise_wilcoxon

# ------------------------------------------------------------------ compare, 10,000 candidates


def test_compare_ten_thousand_candidates_bounds_the_pairwise_tests():
    A = np.random.default_rng(0).random((10_000, 5))
    t0 = time.perf_counter()
    cmp = s.compare_candidates(A)
    assert time.perf_counter() - t0 < 60
    assert cmp.average_ranks.shape == (10_000,) and cmp.friedman.k == 10_000
    assert cmp.critical_difference == pytest.approx(s.judging.nemenyi_cd(10_000, 5))
    assert cmp.pairwise.p.size == 1000 * 999 // 2 <= MAX_PAIRS  # not 49,995,000
    tested = np.union1d(cmp.pairwise.a, cmp.pairwise.b)
    assert np.array_equal(tested, np.sort(cmp.order[:1000]))  # the best 1,000 by average rank
    assert "1,000 best candidates" in cmp.note and "49,995,000 pairs" in cmp.note
    assert "note" in cmp.to_dict()


def test_bounded_pairwise_tests_are_those_of_the_best_candidates():
    A = np.random.default_rng(1).random((12, 6))
    cmp = s.compare_candidates(A, max_pairs=15)  # 6 candidates: 15 pairs
    top = np.sort(cmp.order[:6])
    direct = pairwise_wilcoxon(A[top])
    np.testing.assert_array_equal(cmp.pairwise.a, top[direct.a])
    np.testing.assert_array_equal(cmp.pairwise.b, top[direct.b])
    np.testing.assert_allclose(cmp.pairwise.p_holm, direct.p_holm)
    full = s.compare_candidates(A)
    assert full.note == "" and "note" not in full.to_dict() and full.pairwise.p.size == 66
    with pytest.raises(ValueError, match="max_pairs must be an integer >= 1"):
        s.compare_candidates(A, max_pairs=0)


def test_pairwise_tests_in_blocks_equal_one_block(monkeypatch):
    A = np.random.default_rng(2).random((30, 7))
    one = pairwise_wilcoxon(A)
    monkeypatch.setattr(_wilcoxon, "_PAIR_BLOCK", 10)  # blocks of one pair
    blocks = pairwise_wilcoxon(A)
    np.testing.assert_array_equal(blocks.p, one.p)
    np.testing.assert_array_equal(blocks.p_holm, one.p_holm)


# ------------------------------------------------------------------ the best AUC of ten million


def test_summarize_max_auc_ten_million_uses_the_normal_engine_in_seconds():
    s.summarize_max_auc(1000, 10, 0.8, 0.5, engine="normal")  # compiled before the clock starts
    t0 = time.perf_counter()
    r = s.summarize_max_auc(1000, 10**7, 0.8, 0.5)
    assert time.perf_counter() - t0 < 20
    assert r.engine == "normal" and r.m == 10**7
    smaller = s.summarize_max_auc(1000, 10**6, 0.8, 0.5)
    assert 0.8 < smaller.mean < r.mean < r.ci_high < 1.0  # more teams, a higher maximum


def test_equal_aucs_computed_once_agree_with_distinct_ones():
    """Teams of equal AUC share one factor; the grouped answer equals that of AUCs apart by 1e-13."""
    same = s.summarize_max_auc(2000, None, [0.8] * 300 + [0.85] * 200, 0.3, engine="normal", rho=0.4)
    apart = np.r_[0.8 + 1e-13 * np.arange(300), 0.85 + 1e-13 * np.arange(200)]
    distinct = s.summarize_max_auc(2000, None, apart, 0.3, engine="normal", rho=0.4)
    assert same.mean == pytest.approx(distinct.mean, abs=1e-9)
    assert same.ci_high == pytest.approx(distinct.ci_high, abs=1e-9)
    assert same.details["teams"] == distinct.details["teams"]


# ------------------------------------------------------------------ the iid maximum at any m


@pytest.mark.parametrize("m", [10**12, 10**18, 2**63 - 1])
def test_summarize_max_any_m_is_the_closed_form(m):
    n, theta = 10_000, 0.8
    r = s.summarize_max(n, m, theta)
    x = np.arange(n * 0.75, n + 1)
    with np.errstate(divide="ignore"):  # F(x) = 0 far below the maximum
        log_f = m * np.log1p(-binom.sf(x, n, theta))  # F(x) = P(X <= x)^m in log space, the upper tail exact
    mean = (x[0] + np.sum(-np.expm1(log_f))) / n  # E X = x0 + sum_x P(X > x), as an accuracy
    assert r.mean == pytest.approx(mean, abs=1e-9)
    hi = x[np.searchsorted(log_f, math.log(0.975))] / n
    assert r.ci_high == pytest.approx(hi)


# ------------------------------------------------------------------ the state of the art at large n

BOARD = [0.78, 0.80, 0.81, 0.82, 0.82, 0.83, 0.84, 0.84, 0.85, 0.86]


def test_sota_normal_engine_at_a_hundred_million_in_seconds():
    s.estimate_sota(BOARD, 10**5, engine="normal")  # compiled before the clock starts
    t0 = time.perf_counter()
    r = s.estimate_sota(BOARD, 10**8, engine="normal")
    assert time.perf_counter() - t0 < 30  # 160 s before the window grew by doubling
    assert r.details["engine"] == "normal"


@pytest.mark.parametrize("n", [10**10, 10**12])
def test_sota_beyond_memory_is_refused_up_front_naming_n(n):
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=rf"n={n} items would need .* give a smaller n"):
        s.estimate_sota(BOARD, n)
    assert time.perf_counter() - t0 < 2
