"""evaluation_noise, benchmark_noise_table, minimum_detectable_difference against independent references.

References: scipy.stats.binomtest (the exact test), plain loops (Holm, BH, pairs
one at a time, clustered sums), the bootstrap (paired se), simulation with a
known data and prediction noise, and eval-arena's published summary row
(data/llm/eval-arena/published_summary.csv) from the vendored per-item files.
"""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import sotalib
from sotalib.judging import benchmark_noise_table, evaluation_noise, minimum_detectable_difference

DATA = Path(__file__).resolve().parents[2] / "data" / "llm" / "eval-arena"


# ----------------------------------------------------------------------------- references written plainly


def holm_plain(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def bh_plain(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 1.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, p[i] * m / (rank + 1))
        out[i] = min(1.0, running)
    return out


def pair_plain(a, b, ka=1, kb=1, sa=None, sb=None):
    """One pair as the paper's Table 2 writes it (cells a, b; mean squares sa, sb; K samples)."""
    sa = a * a if sa is None else sa
    sb = b * b if sb is None else sb
    n = len(a)
    cov = np.mean((a - a.mean()) * (b - b.mean()))
    total = (sa.mean() - a.mean() ** 2) + (sb.mean() - b.mean() ** 2) - 2 * cov
    out = {"difference": a.mean() - b.mean(), "se": math.sqrt(max(total, 0) / n)}
    if ka > 1 and kb > 1:
        wa, wb = sa - a * a, sb - b * b
        bias = wa.mean() / (ka - 1) + wb.mean() / (kb - 1)
        out["se_data"] = math.sqrt(max(np.var(a - b) - bias, 0) / n)
        out["se_pred"] = math.sqrt((wa.mean() + wb.mean() + bias) / n)
    return out


def binary_table(rng, n=60, m=5):
    skill = rng.uniform(0.2, 0.8, m)
    ease = rng.normal(0, 1, n)
    p = 1 / (1 + np.exp(-(ease[:, None] + 2 * (skill[None, :] - 0.5))))
    return (rng.random((n, m)) < p).astype(float)


# ----------------------------------------------------------------------------- per model


def test_binary_model_se_is_bernoulli_and_split_is_none():
    rng = np.random.default_rng(1)
    y = binary_table(rng, 200, 4)
    r = evaluation_noise(sotalib.PerItem(y), pairs=False)
    p = y.mean(axis=0)
    np.testing.assert_allclose(r.models.accuracy, p)
    np.testing.assert_allclose(r.models.se, np.sqrt(p * (1 - p) / 200))
    assert np.all(np.isnan(r.models.se_data)) and np.all(np.isnan(r.models.se_pred))
    rec = r.to_dict()["models"][0]
    assert rec["se_data"] is None and rec["se_pred"] is None
    assert r.models.interval == ("normal",) * 4


def test_variance_split_against_simulation_with_known_noise():
    """Items with true solve rates q_i; K samples each: data variance var(q), prediction variance mean(q(1-q))."""
    rng = np.random.default_rng(7)
    n, K, reps = 400, 4, 300
    q = rng.beta(0.7, 0.7, n)  # the population of items is these n items (fixed), only the samples vary
    true_data = np.var(q)
    true_pred = np.mean(q * (1 - q))
    data, pred = [], []
    for _ in range(reps):
        s = (rng.random((n, K)) < q[:, None]).mean(axis=1)
        t = sotalib.PerItem(s[:, None], samples=np.full((n, 1), K), squares=s[:, None])
        r = evaluation_noise(t, pairs=False)
        data.append(r.models.se_data[0] ** 2 * n)
        pred.append(r.models.se_pred[0] ** 2 * n)
    # unbiased with the small-K correction: the mean over replications within 4 of its standard errors
    for est, truth in ((np.array(data), true_data), (np.array(pred), true_pred)):
        assert abs(est.mean() - truth) < 4 * est.std(ddof=1) / math.sqrt(reps)
    # without the correction (var of the cells) the data variance is off by mean(q(1-q))/K: far outside
    assert abs(np.mean(data) + true_pred / K - true_data) > 10 * np.std(data) / math.sqrt(reps)


def test_clustered_se_against_direct_sum():
    rng = np.random.default_rng(3)
    n, m = 90, 3
    clusters = np.repeat(np.arange(15), 6)
    shift = rng.normal(0, 1.0, 15)[clusters]
    y = (rng.random((n, m)) < 1 / (1 + np.exp(-shift[:, None]))).astype(float)
    t = sotalib.PerItem(y, item_info={"cluster": clusters.astype(str)})
    r = evaluation_noise(t, clusters="cluster")
    for j in range(m):
        x = y[:, j]
        direct = math.sqrt(sum((x[clusters == c] - x.mean()).sum() ** 2 for c in range(15))) / n
        assert r.models.se[j] == pytest.approx(direct, rel=1e-12)
        assert r.models.se_mean[j] == pytest.approx(direct, rel=1e-12)
    k = 0
    for a in range(m):
        for b in range(a + 1, m):
            d = y[:, a] - y[:, b]
            direct = math.sqrt(sum((d[clusters == c] - d.mean()).sum() ** 2 for c in range(15))) / n
            assert r.pairs.se[k] == pytest.approx(direct, rel=1e-12)
            k += 1
    # each item its own cluster is the unclustered answer
    r1 = evaluation_noise(t, clusters=np.arange(n))
    r0 = evaluation_noise(t)
    np.testing.assert_allclose(r1.models.se, r0.models.se, rtol=1e-12)
    np.testing.assert_allclose(r1.pairs.se, r0.pairs.se, rtol=1e-12)
    assert r1.clustered and not r0.clustered


def test_small_n_interval_is_clopper_pearson():
    y = np.zeros((30, 2))
    y[:4, 0] = 1
    y[:29, 1] = 1
    r = evaluation_noise(sotalib.PerItem(y), pairs=False)
    assert r.models.interval == ("clopper-pearson", "clopper-pearson")
    lo, hi = stats.binomtest(4, 30).proportion_ci(0.95, method="exact")
    assert r.models.ci_low[0] == pytest.approx(lo) and r.models.ci_high[0] == pytest.approx(hi)
    assert evaluation_noise(sotalib.PerItem(y), interval="normal").models.interval == ("normal", "normal")


def test_bad_arguments_are_refused():
    t = sotalib.PerItem(np.array([[1.0, 0.0], [0.0, 2.0]]))
    with pytest.raises(ValueError, match="outcomes must lie in"):
        evaluation_noise(t)
    t = sotalib.PerItem(np.array([[1.0, 0.0], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="alpha"):
        evaluation_noise(t, alpha=1.5)
    with pytest.raises(ValueError, match="interval"):
        evaluation_noise(t, interval="wald")
    with pytest.raises(ValueError, match="clusters"):
        evaluation_noise(t, clusters="topic")
    with pytest.raises(ValueError, match="clusters"):
        evaluation_noise(t, clusters=[1, 2, 3])


# ----------------------------------------------------------------------------- pairs


def test_pairs_against_plain_pair_by_pair_with_missing_items():
    rng = np.random.default_rng(11)
    y = binary_table(rng, 80, 6)
    y[rng.random(y.shape) < 0.1] = np.nan
    r = evaluation_noise(sotalib.PerItem(y))
    k = 0
    for a in range(6):
        for b in range(a + 1, 6):
            both = ~np.isnan(y[:, a]) & ~np.isnan(y[:, b])
            xa, xb = y[both, a], y[both, b]
            ref = pair_plain(xa, xb)
            assert (r.pairs.ia[k], r.pairs.ib[k]) == (a, b)
            assert r.pairs.n_items[k] == both.sum()
            assert r.pairs.difference[k] == pytest.approx(ref["difference"], abs=1e-12)
            assert r.pairs.se[k] == pytest.approx(ref["se"], rel=1e-10)
            assert r.pairs.corr[k] == pytest.approx(np.corrcoef(xa, xb)[0, 1], rel=1e-10)
            n10, n01 = int(np.sum(xa > xb)), int(np.sum(xa < xb))
            p = stats.binomtest(n10, n10 + n01, 0.5).pvalue if n10 + n01 else 1.0
            assert r.pairs.p_value[k] == pytest.approx(p, rel=1e-9)
            k += 1
    p = list(r.pairs.p_value)
    np.testing.assert_allclose(r.pairs.p_adjusted, holm_plain(p), rtol=1e-12)
    np.testing.assert_allclose(r.pairs.q_value, bh_plain(p), rtol=1e-12)
    np.testing.assert_array_equal(r.pairs.significant, np.array(holm_plain(p)) <= 0.05)


def test_graded_pairs_split_against_paper_table():
    rng = np.random.default_rng(5)
    n, m = 120, 4
    Ks = [5, 8, 3, 10]
    q = rng.beta(1, 1, (n, 1)) * rng.uniform(0.5, 1, m)
    cells = np.column_stack([(rng.random((n, k)) < q[:, [j]]).mean(axis=1) for j, k in enumerate(Ks)])
    t = sotalib.PerItem(cells, samples=np.broadcast_to(Ks, (n, m)), squares=cells)
    r = evaluation_noise(t)
    k = 0
    for a in range(m):
        for b in range(a + 1, m):
            ref = pair_plain(cells[:, a], cells[:, b], Ks[a], Ks[b], cells[:, a], cells[:, b])
            for key in ("difference", "se", "se_data", "se_pred"):
                assert getattr(r.pairs, key)[k] == pytest.approx(ref[key], rel=1e-10, abs=1e-14), key
            wa = np.sum(cells[:, a] * (1 - cells[:, b]))
            wb = np.sum((1 - cells[:, a]) * cells[:, b])
            p = stats.binomtest(int(wa), int(wa + wb), 0.5).pvalue
            assert r.pairs.p_value[k] == pytest.approx(p, rel=1e-9)
            k += 1


def test_paired_se_against_bootstrap():
    rng = np.random.default_rng(2)
    y = binary_table(rng, 150, 3)
    r = evaluation_noise(sotalib.PerItem(y))
    B = 4000
    idx = rng.integers(0, 150, (B, 150))
    k = 0
    for a in range(3):
        for b in range(a + 1, 3):
            d = (y[:, a] - y[:, b])[idx].mean(axis=1)
            boot = d.std(ddof=1)
            # the bootstrap's own error on an sd from B draws is about sd / sqrt(2 B); allow 4 of them
            assert abs(r.pairs.se[k] - boot) < 4 * boot / math.sqrt(2 * B)
            k += 1


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(5, 40))
def test_se_diff_is_se_a_se_b_minus_covariance(seed, n):
    rng = np.random.default_rng(seed)
    y = rng.random((n, 3))
    r = evaluation_noise(sotalib.PerItem(y))
    se = r.models.se
    k = 0
    for a in range(3):
        for b in range(a + 1, 3):
            cov = np.mean((y[:, a] - y[:, a].mean()) * (y[:, b] - y[:, b].mean())) / n
            assert r.pairs.se[k] ** 2 == pytest.approx(se[a] ** 2 + se[b] ** 2 - 2 * cov, abs=1e-12)
            k += 1


def test_to_dict_is_json_with_the_contract_keys():
    rng = np.random.default_rng(4)
    y = binary_table(rng, 40, 3)
    r = evaluation_noise(sotalib.PerItem(y, models=["x", "y", "z"]))
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    for key in ("model", "accuracy", "se", "se_data", "se_pred", "ci_low", "ci_high", "n_items", "samples"):
        assert key in d["models"][0]
    for key in ("a", "b", "difference", "se", "se_data", "se_pred", "corr", "p_value", "p_adjusted", "significant"):
        assert key in d["pairs"][0]
    assert set(d["summary"]) == {
        "n_items",
        "n_models",
        "n_pairs",
        "close_pairs",
        "no_solve",
        "tau_minus",
        "se",
        "se_data",
        "se_pred",
        "se_diff",
        "se_diff_data",
        "se_diff_pred",
        "corr",
        "min_detectable_difference",
    }
    assert "pairs" not in r.to_dict(max_pairs=2) and "note" in r.to_dict(max_pairs=2)
    assert evaluation_noise(sotalib.PerItem(y), pairs=False).pairs is None


def test_minimum_detectable_difference():
    assert minimum_detectable_difference(1.0) == pytest.approx(stats.norm.ppf(0.975) + stats.norm.ppf(0.8))
    with pytest.raises(ValueError, match="power"):
        minimum_detectable_difference(0.1, power=1.0)
    with pytest.raises(ValueError, match="se_diff"):
        minimum_detectable_difference(-0.1)


# ----------------------------------------------------------------------------- eval-arena's published table


def cruxeval_k(model: str, *, input_file: bool) -> int:
    """K inferred from the pass1 denominators (data/README.md)."""
    if model.startswith("claude-3-opus-20240229"):
        return 1
    if input_file and model == "gpt-4-turbo-2024-04-09+cot":
        return 2
    if model.startswith(("gpt-4-turbo-2024-04-09", "gpt-4o")):
        return 3
    return 10


def read_arena(name: str) -> sotalib.PerItem:
    df = pd.read_json(DATA / f"{name}.jsonl.gz", lines=True)
    wide = df.pivot(index="example_id", columns="model", values="pass1")
    y = wide.to_numpy(dtype=float)
    if name.startswith("cruxeval"):
        k = [cruxeval_k(m, input_file=name == "cruxeval_input") for m in wide.columns]
    else:
        k = [1] * y.shape[1]
    # 0/1 samples: the mean square of each cell is its mean
    return sotalib.PerItem(
        y, items=list(wide.index), models=list(wide.columns), samples=np.broadcast_to(k, y.shape), squares=y
    )


ROWS = [
    ("humaneval+", "humaneval+"),
    ("mbpp+", "mbpp+"),
    ("mbpp", "mbpp"),
    ("cruxeval_input", "CRUXEval-input-T0.2"),
    ("cruxeval_output", "CRUXEval-output-T0.2"),
]


def sig4(x: float | None) -> str | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4g}"


@pytest.mark.parametrize(("file", "row"), ROWS)
def test_published_summary_row_is_reproduced(file, row):
    published = pd.read_csv(DATA / "published_summary.csv").set_index("benchmark_id").loc[row]
    got = benchmark_noise_table(read_arena(file), size_pairs=row)
    counts = {
        "size": got.size,
        "models": got.models,
        "total_pairs": got.total_pairs,
        "close_pairs": got.close_pairs,
        "no_solve": got.no_solve,
        "tau-": got.tau_minus,
    }
    assert counts == {k: int(published[k]) for k in counts}
    for column, mine in got.columns.items():
        theirs = ast.literal_eval(published[column])
        assert mine["count"] == int(theirs["count"]), column
        for stat in ("mean", "50%"):
            assert sig4(mine[stat]) == sig4(theirs[stat]), (column, stat)
    assert sig4(got.sig_noise) == sig4(float(published["sig_noise"]))


def test_library_summary_agrees_with_the_table_on_binary_rows():
    t = read_arena("humaneval+")
    table = benchmark_noise_table(t)
    s = evaluation_noise(t, pairs=False).summary
    assert s.close_pairs * 2 == table.close_pairs
    assert s.no_solve == table.no_solve and s.tau_minus == table.tau_minus
    assert s.se == pytest.approx(table.columns["SE(A)"]["mean"], rel=1e-12)
    assert s.se_diff == pytest.approx(table.columns["SE(A-B)"]["mean"], rel=1e-12)
    assert s.se_pred is None and s.se_diff_pred is None  # the published table prints 0 there
    assert table.columns["SE_pred(A)"]["mean"] == 0.0


def test_summary_without_pairs_is_the_summary_with_them():
    rng = np.random.default_rng(9)
    for y in (binary_table(rng, 300, 12), rng.beta(2, 2, (300, 12))):
        with_pairs = evaluation_noise(sotalib.PerItem(y)).summary
        without = evaluation_noise(sotalib.PerItem(y), pairs=False).summary
        assert with_pairs.to_dict() == without.to_dict()
        assert with_pairs.close_pairs > 0


def test_critical_counts_match_the_exact_test():
    # private: the table of critical counts behind the summary's close pairs is the subject
    from sotalib.judging._eval_noise import _critical_counts

    threshold = 2 * stats.norm.sf(3.0)
    crit = _critical_counts(60, threshold)
    for t in range(61):
        for k in range(t + 1):
            p = stats.binomtest(k, t, 0.5).pvalue if t else 1.0
            assert (p > threshold) == (min(k, t - k) > crit[t]), (k, t)


def test_graded_samples_split_against_the_paper_table_one():
    """Samples in [0, 1] (not 0/1), K per item: var(A), var(mean(A,1)) - b, mean(var(A,1)) + b (Table 1)."""
    rng = np.random.default_rng(12)
    n, K = 70, 6
    A = np.clip(rng.beta(2, 3, (n, 1)) + rng.normal(0, 0.15, (n, K)), 0, 1)
    cells, squares = A.mean(axis=1), (A * A).mean(axis=1)
    t = sotalib.PerItem(cells[:, None], samples=np.full((n, 1), K), squares=squares[:, None])
    r = evaluation_noise(t, pairs=False, interval="normal")
    b = np.mean(np.var(A, axis=1)) / (K - 1)
    assert r.models.se[0] ** 2 * n == pytest.approx(np.var(A), rel=1e-12)
    assert r.models.se_data[0] ** 2 * n == pytest.approx(np.var(A.mean(axis=1)) - b, rel=1e-12)
    assert r.models.se_pred[0] ** 2 * n == pytest.approx(np.mean(np.var(A, axis=1)) + b, rel=1e-12)
    assert r.models.se_mean[0] ** 2 * n == pytest.approx(np.var(cells), rel=1e-12)
    assert r.models.ci_high[0] - r.models.accuracy[0] == pytest.approx(1.959963984540054 * r.models.se_mean[0])


def test_se_relates_to_error_bars():
    x = np.array([1, 0, 1, 1, 0, 1, 1, 1, 0, 1.0])
    r = evaluation_noise(sotalib.PerItem(x[:, None]), pairs=False)
    eb = sotalib.judging.error_bars(x)
    assert r.models.se[0] == pytest.approx(eb.se * math.sqrt(9 / 10), rel=1e-12)


def test_graded_small_n_gets_a_jeffreys_interval_inside_zero_one():
    rng = np.random.default_rng(8)
    y = rng.beta(0.3, 3, (30, 2))
    r = evaluation_noise(sotalib.PerItem(y), pairs=False)
    assert r.models.interval == ("jeffreys", "jeffreys")
    assert np.all(r.models.ci_low >= 0) and np.all(r.models.ci_low < r.models.accuracy)
    assert np.all(r.models.ci_high > r.models.accuracy) and np.all(r.models.ci_high <= 1)


def test_clustered_pairs_with_missing_items_against_direct_sum():
    rng = np.random.default_rng(13)
    n, m = 48, 4
    clusters = np.repeat(np.arange(8), 6)
    y = binary_table(rng, n, m)
    y[rng.random(y.shape) < 0.15] = np.nan
    r = evaluation_noise(sotalib.PerItem(y), clusters=clusters)
    k = 0
    for a in range(m):
        for b in range(a + 1, m):
            both = ~np.isnan(y[:, a]) & ~np.isnan(y[:, b])
            d = y[both, a] - y[both, b]
            cl = clusters[both]
            direct = math.sqrt(sum((d[cl == c] - d.mean()).sum() ** 2 for c in range(8))) / both.sum()
            assert r.pairs.se[k] == pytest.approx(direct, rel=1e-12)
            k += 1
    for j in range(m):
        ok = ~np.isnan(y[:, j])
        x, cl = y[ok, j], clusters[ok]
        direct = math.sqrt(sum((x[cl == c] - x.mean()).sum() ** 2 for c in range(8))) / ok.sum()
        assert r.models.se[j] == pytest.approx(direct, rel=1e-12)


def test_clustered_split_with_samples_against_direct_formula():
    rng = np.random.default_rng(14)
    n, K = 60, 5
    clusters = np.repeat(np.arange(12), 5)
    q = np.clip(rng.beta(1, 1, 12)[clusters] + rng.normal(0, 0.1, n), 0, 1)
    cells = (rng.random((n, K)) < q[:, None]).mean(axis=1)
    t = sotalib.PerItem(cells[:, None], samples=np.full((n, 1), K), squares=cells[:, None])
    r = evaluation_noise(t, clusters=clusters, pairs=False)
    u = cells * (1 - cells) * K / (K - 1)  # unbiased within-item variance of one 0/1 sample
    e = cells - cells.mean()
    crse = sum(e[clusters == c].sum() ** 2 for c in range(12)) / n**2
    assert r.models.se_mean[0] ** 2 == pytest.approx(crse, rel=1e-12)
    assert r.models.se_data[0] ** 2 == pytest.approx(crse - np.sum(u / K) / n**2, rel=1e-12)
    assert r.models.se_pred[0] ** 2 == pytest.approx(np.mean(u) / n, rel=1e-12)


def test_no_solve_and_tau_minus_against_scipy():
    rng = np.random.default_rng(15)
    y = np.round(rng.random((40, 7)) * rng.random((40, 1)) * 2) / 2  # ties, graded, some all-zero items
    y[rng.random(y.shape) < 0.1] = np.nan
    r = evaluation_noise(sotalib.PerItem(y), pairs=False)
    acc = np.nanmean(y, axis=0)
    tau_minus = no_solve = 0
    for i in range(40):
        ok = ~np.isnan(y[i])
        no_solve += int(np.nansum(y[i]) == 0)
        if ok.sum() >= 2:
            tau = stats.kendalltau(y[i, ok], acc[ok]).statistic
            tau_minus += int(tau < 0)
    assert (r.summary.no_solve, r.summary.tau_minus) == (no_solve, tau_minus)
    assert tau_minus > 0 and no_solve > 0
    assert "models on 40 items" in r.to_text()


def test_a_pair_without_shared_items_is_not_tested():
    y = np.array([[np.nan, 1.0, 1.0], [0.0, np.nan, 0.0], [1.0, np.nan, 1.0]])
    r = evaluation_noise(sotalib.PerItem(y))
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    first = d["pairs"][0]
    assert (first["a"], first["b"], first["n_items"]) == ("model 1", "model 2", 0)
    assert first["p_value"] is None and first["p_adjusted"] is None and first["significant"] is False
    assert d["summary"]["n_pairs"] == 2
    assert r.pairs.p_adjusted[1] == pytest.approx(min(1.0, 2 * r.pairs.p_value[1]))  # Holm counts 2 tests
    assert "model 2" in r.to_text()


@pytest.mark.parametrize(("k", "n"), [(0, 1), (3, 7), (50, 100), (512, 1100), (4_850, 10_000), (5_900, 12_000)])
def test_sign_test_matches_binomtest_on_large_counts(k, n):
    # private: the vectorised sign test is the subject, checked against scipy's binomtest
    from sotalib.judging._eval_noise import _sign_test

    for a, b in ((k, n - k), (n - k, k), (k + 0.7, n - k + 0.2)):
        p = _sign_test(np.array([a], dtype=float), np.array([b], dtype=float))[0]
        ref = stats.binomtest(int(a), int(a + b), 0.5).pvalue
        assert p == pytest.approx(ref, rel=1e-9, abs=1e-300)


def test_mixed_k_lends_the_known_within_variance_to_one_sample_cells():
    rng = np.random.default_rng(16)
    n = 80
    K = np.where(np.arange(n) < 40, 4, 1)
    q = rng.beta(1, 1, n)
    cells = np.array([(rng.random(k) < qi).mean() for k, qi in zip(K, q, strict=True)])
    t = sotalib.PerItem(cells[:, None], samples=K[:, None], squares=cells[:, None])
    r = evaluation_noise(t, pairs=False)
    u_known = (cells * (1 - cells) * K / np.maximum(K - 1, 1))[K > 1]
    u = np.where(K > 1, cells * (1 - cells) * K / np.maximum(K - 1, 1), u_known.mean())
    assert r.models.se_pred[0] ** 2 * n == pytest.approx(u_known.mean(), rel=1e-12)
    data = np.var(cells) - np.mean(u / K)
    assert data > 0
    assert r.models.se_data[0] ** 2 * n == pytest.approx(max(data, 0.0), rel=1e-12)
    assert r.models.samples[0] == pytest.approx(K.mean())
