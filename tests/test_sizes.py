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
    assert cmp.average_ranks.shape == (10_000,) and cmp.friedman.m == 10_000
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


# ------------------------------------------------------------------ the iid maximum at any n (issue 25)

# private: the quadrature's threshold (patched to run it where the tabulated window is cheap), the
# estimates behind the time limit, and the progress flag the engines read
from sotalib._progress import showing  # noqa: E402
from sotalib.multiplicity import _max_dependent, _max_iid  # noqa: E402
from sotalib.multiplicity._max_dependent_normal import EXACT_SECONDS_PER_ITEM, FITS_PER_SOLVE  # noqa: E402


@pytest.mark.parametrize(
    "n,m,theta",
    [(10**8, 1, 0.5), (10**8, 1000, 0.9), (10**8, 2**63 - 1, 0.3), (10**9, 7, 0.99), (10**7, 10**12, 0.5)],
)
def test_iid_quadrature_equals_the_tabulated_window(n, m, theta, monkeypatch):
    """The quadrature of the incomplete beta gives the tabulated window's summary, to its digits."""
    table = _max_iid.iid_max_distribution(n, m, theta).summary()
    monkeypatch.setattr(_max_iid, "_QUADRATURE_VAR", 0.0)
    quad = _max_iid.iid_max_summary(n, m, theta)
    assert quad.mean == pytest.approx(table.mean, abs=1e-10 * table.sd)
    assert quad.sd == pytest.approx(table.sd, rel=1e-12)
    assert (quad.ci_low, quad.ci_high) == (table.ci_low, table.ci_high)  # the same integer counts


@pytest.mark.parametrize("n", [10**12, 10**15, 2**53])
def test_iid_maximum_of_one_classifier_at_huge_n_is_the_binomial(n):
    """m = 1: the maximum is one count, X ~ B(n, theta): mean theta, sd sqrt(theta (1 - theta) / n)."""
    theta = 0.9
    r = s.summarize_max(n, 1, theta)
    sd = math.sqrt(theta * (1 - theta) / n)
    assert r.mean == pytest.approx(theta, abs=1e-6 * sd) and r.sd == pytest.approx(sd, rel=1e-9)
    # the 2.5% quantile: the normal one, within a count and the skewness (1 - 2 theta) / (6 sd n) z^2
    z = 1.959963984540054
    assert abs(r.ci_low - (theta - z * sd)) < 2 / n + abs(1 - 2 * theta) / 6 * z**2 / n


def test_iid_maximum_at_a_billion_items_against_mpmath():
    """n = 10^9, theta = 1/2 (summed by quadrature), m = 1000: F at the upper quantile from a 30-digit sum."""
    mpmath = pytest.importorskip("mpmath")
    n, m, theta = 10**9, 1000, 0.5
    r = s.summarize_max(n, m, theta)
    k = round(r.ci_high * n)  # the 97.5% quantile: F(k) >= 0.975 > F(k - 1)
    mpmath.mp.dps = 30

    def sf(x):  # P(X > x), the pmf from x + 1 on by its ratio recurrence
        j = mpmath.mpf(x + 1)
        f = mpmath.exp(
            mpmath.loggamma(n + 1)
            - mpmath.loggamma(j + 1)
            - mpmath.loggamma(n - j + 1)
            + j * mpmath.log(theta)
            + (n - j) * mpmath.log(1 - mpmath.mpf(theta))
        )
        total, ratio = f, mpmath.mpf(theta) / (1 - mpmath.mpf(theta))
        while f > total * mpmath.mpf(10) ** -18:
            f *= (n - j) / (j + 1) * ratio
            j += 1
            total += f
        return total

    assert (1 - sf(k)) ** m >= 0.975 > (1 - sf(k - 1)) ** m


def test_iid_exact_beyond_two_to_the_53_is_refused_naming_n():
    with pytest.raises(ValueError, match=r"^n=\d+ items is more than .* n <= 2\*\*53 .* give a smaller n$"):
        s.summarize_max(2**53 + 1, 10, 0.8, engine="exact")


# ------------------------------------------------------------------ exact runs beyond the time limit


@pytest.mark.parametrize(
    "kwargs,named",
    [
        (dict(rho=0.6, theta0=0.85), "rho=0.6 (random reference classifier)"),
        (dict(rho=0.6, theta0=0.85, y0="fixed"), "rho=0.6 (fixed reference classifier)"),
        (dict(spread=0.01), "spread=0.01"),
    ],
)
def test_dependent_or_spread_exact_at_a_billion_is_refused_naming_n(kwargs, named):
    with pytest.raises(ValueError, match=r"SOTALIB_TIME_LIMIT") as info:
        s.summarize_max(10**12 if kwargs.get("y0") == "fixed" else 10**9, 1000, 0.9, engine="exact", **kwargs)
    message = str(info.value)
    assert message.startswith("the exact distribution at n=") and named in message
    assert "engine='simulate'" in message and "give a smaller n" in message


def test_time_limit_is_the_users_to_raise(monkeypatch):
    monkeypatch.setenv("SOTALIB_TIME_LIMIT", "2h")
    from sotalib._validate import time_limit  # private: the limit's reader is the subject

    assert time_limit() == 7200.0
    monkeypatch.setenv("SOTALIB_TIME_LIMIT", "soon")
    with pytest.raises(ValueError, match="SOTALIB_TIME_LIMIT must be a positive number of seconds"):
        time_limit()


def test_sota_exact_at_ten_million_is_refused_and_auto_takes_the_normal_engine():
    n = 10**7
    assert EXACT_SECONDS_PER_ITEM * n * FITS_PER_SOLVE > 60  # the estimate: about ten minutes
    with pytest.raises(ValueError, match=rf"^engine='exact' at n={n} items is expected to take about 10 minutes"):
        s.estimate_sota(BOARD, n, engine="exact")
    with pytest.raises(ValueError, match="engine='auto' or engine='normal'"):
        s.estimate_sota(BOARD, n, engine="exact", method="crop")


def test_chunks_of_k0_with_a_bar_equal_one_pass(monkeypatch):
    """A long exact run on a terminal goes in chunks of K_0 (a bar over them): the same distribution."""
    monkeypatch.setattr(_max_dependent, "_CHUNK_K0", 20)
    for engine in ("numba", "swap"):
        monkeypatch.setattr(_max_dependent, "_ENGINE", engine)
        one = _max_dependent.max_distribution(5000, 1000, 0.9, rho=0.6, theta0=0.85)
        with showing(False):  # the chunks are drawn only with a bar: forced on, to stderr
            assert not _max_dependent.wants_progress()
        with showing(True):
            chunked = _max_dependent.max_distribution(5000, 1000, 0.9, rho=0.6, theta0=0.85)
        assert chunked.lo == one.lo and chunked.cdf.size == one.cdf.size
        np.testing.assert_allclose(chunked.cdf, one.cdf, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(chunked.sf, one.sf, rtol=1e-11, atol=1e-300)


def test_normal_engine_locates_a_wide_window_on_few_points(monkeypatch):
    """A board whose values span many sd: the window found on few coarse points, the same distribution."""
    from scipy.stats import norm

    from sotalib.multiplicity import _max_dependent_normal  # private: the locator's size is patched

    values = np.round(0.8 + 0.03 * norm.ppf((np.arange(300) + 0.5) / 300), 5)
    one = _max_dependent_normal.normal_max_distribution(10**6, 300, values, rho=0.6)
    monkeypatch.setattr(_max_dependent_normal, "_LOCATOR_POINTS", 16)
    few = _max_dependent_normal.normal_max_distribution(10**6, 300, values, rho=0.6)
    assert (few.lo, few.cdf.size) == (one.lo, one.cdf.size)
    # the fine grid starts elsewhere: the interpolated probabilities agree to 1e-8 of themselves
    np.testing.assert_allclose(few.cdf, one.cdf, rtol=1e-8, atol=1e-300)
    np.testing.assert_allclose(few.sf, one.sf, rtol=1e-8, atol=1e-300)
    a, b = one.summary(), few.summary()
    assert b.mean == pytest.approx(a.mean, abs=1e-9 * a.sd) and (b.ci_low, b.ci_high) == (a.ci_low, a.ci_high)
