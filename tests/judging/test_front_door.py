"""The front door of the judging subpackage: rank_candidates, compare_candidates, estimate_test_size, ...; one rng argument."""

import json
import math

import numpy as np
import pytest

import sotalib
from sotalib.cli import main
from sotalib.judging import (
    bootstrap_interval,
    compare_candidates,
    estimate_rank_uncertainty,
    estimate_test_size,
    property_table,
    rank_candidates,
    read_scores,
    search_counterexample,
    simulate_final_phase,
    simulate_public_private,
)

TABLE3 = np.array([[0.8, 0.5, 0.7, 0.5], [0.6, 0.9, 0.4, 0.5], [0.4, 0.7, 0.8, 0.5]])
CSV = "candidate,judge 1,judge 2,judge 3,judge 4\nC1,0.8,0.5,0.7,0.5\nC2,0.6,0.9,0.4,0.5\nC3,0.4,0.7,0.8,0.5\n"
CLI_METHODS = ("mean", "median", "average-rank", "copeland", "relative-difference", "kemeny", "random-dictator")


def test_front_door_names():
    assert sotalib.rank_candidates is rank_candidates and sotalib.estimate_test_size is estimate_test_size
    assert sotalib.compare_candidates is compare_candidates
    assert sotalib.estimate_rank_uncertainty is estimate_rank_uncertainty


@pytest.fixture
def table3(tmp_path):
    p = tmp_path / "table3.csv"
    p.write_text(CSV)
    return str(p)


# ------------------------------------------------------------------ rank_candidates
@pytest.mark.parametrize("method", CLI_METHODS)
def test_rank_to_dict_equals_cli_json(table3, capsys, method):
    seed = ["--seed", "3"] if method == "random-dictator" else []  # elsewhere nothing is drawn: --seed is refused
    assert main(["rank", "--scores", table3, "--method", method, *seed, "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    t = read_scores(table3)
    res = rank_candidates(t, method, rng=3)
    d = res.to_dict()
    assert json.loads(json.dumps(d, allow_nan=False)) == d == cli
    assert list(d) == ["ranking", "scores", "ranks", "method", "lower_is_better", "note", "candidates_axis"]
    assert d["candidates_axis"] == "rows"


def test_rank_dataframe_names_candidates_and_judges():
    import pandas as pd

    df = pd.DataFrame(TABLE3, index=["a", "b", "c"], columns=["j1", "j2", "j3", "j4"])
    res = rank_candidates(df, "mean")
    assert (
        res.ranking == ["a", "b", "c"] and res.candidates == ("a", "b", "c") and res.judges == ("j1", "j2", "j3", "j4")
    )
    assert res.to_dict()["scores"] == pytest.approx({"a": 0.625, "b": 0.6, "c": 0.6})
    rd = rank_candidates(df, "random-dictator", rng=0)
    assert rd.note == f"judge {rd.judges[rd.judge]!r} drawn"
    # an array without names: C1, C2, ... and the judge by number, as before
    plain = rank_candidates(TABLE3, "random-dictator", rng=0)
    assert plain.ranking[0].startswith("C") and plain.note.endswith(f"of {TABLE3.shape[1]} drawn")
    with pytest.raises(AttributeError):
        plain.method = "mean"  # frozen


def test_rank_rng_int_equals_generator():
    for seed in range(5):
        a = rank_candidates(TABLE3, "random-dictator", rng=seed)
        b = rank_candidates(TABLE3, "random-dictator", rng=np.random.default_rng(seed))
        assert a.judge == b.judge and a.to_dict() == b.to_dict()


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(method="borda"), "method"),
        (dict(method="mean", judges=["x"]), "judges"),
        (dict(method="weighted-average-rank"), "weights"),
        (dict(method="random-dictator", rng=-1), "rng"),
    ],
)
def test_rank_bad_input_names_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        rank_candidates(TABLE3, **kwargs)


def test_rank_bad_matrix():
    with pytest.raises(ValueError, match="scores must hold finite scores: row 1, column 2 is nan"):
        rank_candidates([[1.0, np.nan]], "mean")


def test_read_scores(table3, tmp_path):
    t = read_scores(table3)
    assert t.candidates == ["C1", "C2", "C3"] and t.judges == ["judge 1", "judge 2", "judge 3", "judge 4"]
    np.testing.assert_array_equal(t.scores, TABLE3)
    names, judges, M = t  # unpacks like the command line's former reader
    bad = tmp_path / "bad.csv"
    bad.write_text("n,j\nA,x\n")
    with pytest.raises(ValueError, match="line 2"):
        read_scores(bad)


# ------------------------------------------------------------------ estimate_test_size
@pytest.mark.parametrize("error", [0.01, 0.05, 0.1, 0.3])
def test_test_size_by_hand(error):
    r = estimate_test_size(error, z=1.96)  # the paper's z = 1.96
    sd = math.sqrt(error * (1 - error))
    assert r.sd == sd and r.z == 1.96 and r.precision == 1.0
    assert r.rule_of_thumb == math.ceil(100 / error - 1e-9)  # whole items: 100/p rounded up
    guyon = (sd / error) ** 2 * 1.96**2 * 10.0**2
    assert r.guyon == math.ceil(guyon - 1e-9)
    assert r.guyon == math.ceil((1 - error) / error * 1.96**2 * 100 - 1e-9)  # (1 - p)/p k^2 10^(2 nu)


def test_test_size_worked_values_and_cli(capsys):
    r = estimate_test_size(0.01, z=1, precision=1)
    assert (r.rule_of_thumb, r.guyon) == (10_000, 9_900)
    assert estimate_test_size(0.01, z=1, precision=2).guyon == 990_000
    r = estimate_test_size(0.1, sd=0.3, z=2)
    assert r.guyon == 3_600 and r.sd == 0.3
    r = estimate_test_size(2.5, sd=5, z=1.96)
    assert r.rule_of_thumb is None and r.guyon == math.ceil(4 * 1.96**2 * 100)
    r = estimate_test_size(2.5, sd=5)  # alpha = 0.05 by default: z = 1.959964, the same whole items
    assert r.guyon == 1537 and r.alpha == 0.05 and r.z == pytest.approx(1.959963984540054, abs=1e-15)
    d = r.to_dict()
    assert list(d) == ["error", "sd", "confidence", "alpha", "z", "precision", "rule_of_thumb", "guyon"]
    assert d["confidence"] == 0.95
    assert json.loads(json.dumps(d, allow_nan=False)) == d
    assert main(["testsize", "--error", "2.5", "--sd", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == d
    with pytest.raises(AttributeError):
        r.guyon = 1  # frozen


def test_test_size_trap_a_level_is_a_level():
    """95% is alpha = 0.05 (z = 1.96): 3,458 items, not the 813 of reading 0.95 as a z value."""
    assert estimate_test_size(0.1, sd=0.3, alpha=0.05).guyon == 3_458
    assert estimate_test_size(0.1, sd=0.3, z=0.95).guyon == 813  # a z of 0.95 is a 66% level
    assert estimate_test_size(0.1, sd=0.3, z=1.96).guyon == 3_458
    assert estimate_test_size(0.1, sd=0.3, alpha=0.01).guyon == math.ceil(9 * 2.5758293035489004**2 * 100)
    with pytest.raises(ValueError, match="not both"):
        estimate_test_size(0.1, alpha=0.05, z=1.96)
    for bad in (0.0, 1.0, 1.96, -0.1):
        with pytest.raises(ValueError, match="alpha"):
            estimate_test_size(0.1, alpha=bad)
    for bad in (0.0, -1.0, math.inf):
        with pytest.raises(ValueError, match="z"):
            estimate_test_size(0.1, z=bad)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(error=0), "error"),
        (dict(error=1.5), "error"),
        (dict(error=float("nan")), "error"),
        (dict(error=0.1, sd=-1), "sd"),
        (dict(error=0.1, z=0), "z"),
        (dict(error=0.1, alpha=1.5), "alpha"),
        (dict(error=0.1, precision=11), "precision"),
    ],
)
def test_test_size_bad_input_names_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        estimate_test_size(**kwargs)


@pytest.mark.parametrize(
    "old",
    [
        "test_size",
        "compare",
        "rank_uncertainty",
        "mean_score",
        "copeland",
        "friedman_test",
        "holm",
        "ladder",
        "TIE_RTOL",
    ],
)
def test_names_deprecated_for_0_5_are_gone(old):
    # removed in 0.6.0 (deprecated in 0.4 for removal in 0.5): no silent alias remains
    assert old not in dir(sotalib.judging)
    with pytest.raises(AttributeError, match=old):
        getattr(sotalib.judging, old)
    assert not hasattr(sotalib, old)


def test_every_judging_result_is_a_frozen_result_with_json_safe_to_dict():
    import dataclasses

    from sotalib._result import Result  # private: the base every result class must inherit is the subject

    for name in sotalib.judging.__all__:
        obj = getattr(sotalib.judging, name)
        if isinstance(obj, type):
            assert issubclass(obj, Result) and dataclasses.is_dataclass(obj), name
            assert obj.__dataclass_params__.frozen and "__repr__" not in vars(obj), name
    cmp = compare_candidates(np.array([[1.0, 2.0, 3.0], [0.0, 1.0, 2.0]]))  # every judge ranks alike: F is infinite
    assert cmp.friedman.iman_davenport_F == math.inf
    d = cmp.to_dict()
    assert d["friedman"]["iman_davenport_F"] is None
    assert json.loads(json.dumps(d, allow_nan=False)) == d


# ------------------------------------------------------------------ one rng argument
def test_rng_int_equals_generator_across_judging():
    a = search_counterexample("median", "majority", n_resamples=50, rng=3)
    b = search_counterexample("median", "majority", n_resamples=50, rng=np.random.default_rng(3))
    assert a.tested == b.tested and (a.counterexample is None) == (b.counterexample is None)
    if a.counterexample is not None:
        np.testing.assert_array_equal(a.counterexample.M, b.counterexample.M)
    t1 = property_table(n_resamples=20, rng=7, functions=("mean",), properties=("majority", "iia"))
    t2 = property_table(n_resamples=20, rng=7, functions=("mean",), properties=("majority", "iia"))
    assert {k: v.tested for k, v in t1.items()} == {k: v.tested for k, v in t2.items()}
    # cell (i, j) of the table uses default_rng([seed, i, j]), as the cached table did
    c = search_counterexample("mean", "iia", n_resamples=20, rng=np.random.default_rng([7, 0, 1]))
    assert c.tested == t1["mean", "iia"].tested
    x = simulate_public_private(m=30, rng=4)
    y = simulate_public_private(m=30, rng=np.random.default_rng(4))
    np.testing.assert_array_equal(x.public, y.public)
    f1 = simulate_final_phase([0.7, 0.72], 100, 100, n_resamples=50, rng=2)
    f2 = simulate_final_phase([0.7, 0.72], 100, 100, n_resamples=50, rng=np.random.default_rng(2))
    assert f1 == f2
    data = np.arange(20.0)
    i1 = bootstrap_interval(np.mean, data, n_resamples=200, rng=1)
    i2 = bootstrap_interval(np.mean, data, n_resamples=200, rng=np.random.default_rng(1))
    assert (i1.ci_low, i1.ci_high, i1.se) == (i2.ci_low, i2.ci_high, i2.se)


@pytest.mark.parametrize("rng", [-1, True, "seed", [1, 2]])
def test_bad_rng_names_the_parameter(rng):
    with pytest.raises(ValueError, match="rng"):
        simulate_public_private(m=5, rng=rng)


def test_every_kind_of_judging_result_dumps_to_json():
    from sotalib import judging as j

    X = (np.arange(60).reshape(3, 20) % 4 > 0).astype(float)
    results = [
        j.estimate_test_size(0.1),
        j.rank_candidates(TABLE3, "kemeny"),
        j.compare_candidates(TABLE3),
        j.estimate_rank_uncertainty(j.PerItem(X.T), n_resamples=20, rng=1),
        j.error_bars([1.0, 2.0, 4.0]),
        j.bootstrap_interval(np.mean, np.arange(10.0), n_resamples=50, rng=1, vectorized=True),
        j.bootstrap_coverage(0.8, 20, method="percentile", n_datasets=3, n_resamples=50, rng=1),
        j.variance_decomposition([1.0, 2.0, 3.0], [0, 0, 1]),
        j.rank_sd_by_granularity(np.ones((2, 2, 5)), n_resamples=3, rng=1),
        j.simulate_public_private(m=3, rng=1),
        j.simulate_final_phase([0.7, 0.8], 50, 50, n_resamples=5, rng=1),
        j.kemeny_young(TABLE3),
        j.search_counterexample("mean", "majority", n_resamples=200, rng=1),
        j.bayesian_signed_rank([0.8, 0.9, 0.7], [0.7, 0.9, 0.6], n_resamples=100, rng=1),
        j.compare_candidates(TABLE3).friedman,
        j.compare_candidates(TABLE3).pairwise,
        j.ranking_stability(j.PerItem(X.T), [5, 10], n_resamples=3, rng=1),
        j.PerItem(X.T),
        j.boosting_attack(50, 50, n_submissions=5, rng=1),
        j.bradley_terry(["a", "b", "c"] * 4, ["b", "c", "a"] * 4, ["a", "b", "tie"] * 4, n_resamples=20, rng=1),
    ]
    for r in results:
        d = r.to_dict()
        assert json.loads(json.dumps(d, allow_nan=False)) == d, type(r).__name__
    assert results[12].to_dict()["counterexample"]["property"] == "majority"
    assert results[12].to_dict()["n_resamples"] == 200 and "trials" not in results[12].to_dict()
    assert [type(r).__name__ for r in results[-2:]] == ["BoostingAttack", "BradleyTerry"]
