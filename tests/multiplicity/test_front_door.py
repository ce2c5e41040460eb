"""The front doors of the multiplicity subpackage: summarize_max, estimate_sota, read_leaderboard,
summarize_max_auc, and the one randomness argument ``rng``."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import sotalib
from sotalib.book.ch03_noniid import TABLE1
from sotalib.multiplicity import (
    MaxSummary,
    auc_distribution,
    estimate_sota,
    iid_max_distribution,
    max_distribution,
    read_leaderboard,
    simulate_auc,
    simulate_auc_leaderboard,
    simulate_coin_flip_leaderboard,
    simulate_iid_max_counts,
    simulate_leaderboard,
    simulate_max,
    simulate_max_auc,
    simulate_scores,
    summarize_max,
    summarize_max_auc,
    uniform_for_sota,
)

# private: the estimators estimate_sota replaced, which it must equal to the digit
from sotalib.multiplicity._sota_abc import abc
from sotalib.multiplicity._sota_crop import crop
from sotalib.multiplicity._sota_deconvolve import deconvolve
from sotalib.multiplicity._sota_shrink import cap, shrink
from sotalib.multiplicity._sota_shrink_auc import shrink_auc


def _json_safe(d: dict) -> dict:
    return json.loads(json.dumps(d, allow_nan=False))


# ---------------------------------------------------------------- summarize_max
def test_summarize_max_iid_is_the_old_path_to_the_digit():
    s = summarize_max(3000, 1000, 0.9)
    ref = {
        "mean": 0.9173130830485142,
        "sd": 0.0018171225004568253,
        "ci_low": 0.9143333333333333,
        "ci_high": 0.9213333333333333,
        "engine": "exact",
    }
    d = _json_safe(s.to_dict())
    assert set(d) == set(ref) and d["engine"] == "exact"
    for k in ("mean", "sd", "ci_low", "ci_high"):
        assert d[k] == pytest.approx(ref[k], abs=1e-12)
    old = iid_max_distribution(3000, 1000, 0.9).summary(0.1)
    new = summarize_max(3000, 1000, 0.9, alpha=0.1)
    assert (new.mean, new.sd, new.ci_low, new.ci_high) == (old.mean, old.sd, old.ci_low, old.ci_high)
    assert sotalib.summarize_max is summarize_max
    assert isinstance(new, MaxSummary) and new.engine == "exact" and new.metric == "accuracy"
    assert new.details == {"theta": 0.9, "theta0": 0.9, "y0": "random", "spread": 0.0}


# Table 1 at the four decimals the book prints (exact computation, theta0 = 0.9)
TABLE1_PRINTED = [
    (0.9173, 0.0018, 0.9213),
    (0.9130, 0.0021, 0.9177),
    (0.9140, 0.0035, 0.9207),
    (0.9140, 0.0015, 0.9173),
    (0.9101, 0.0037, 0.9173),
]


@pytest.mark.parametrize("i", range(len(TABLE1)))
def test_summarize_max_reproduces_table1_rows(i):
    row = TABLE1[i]
    s = summarize_max(3000, 1000, 0.9, rho=row.rho, spread=row.d, y0=row.y0)
    # the reference: the public call the chapter makes for the row, max_distribution(...).summary()
    dist = uniform_for_sota(0.9, row.d, 1000) if row.d > 0 else 0.9
    old = max_distribution(3000, 1000, dist, rho=row.rho, theta0=0.9, y0=row.y0).summary()
    assert s.mean == pytest.approx(old.mean, rel=1e-12) and s.sd == pytest.approx(old.sd, rel=1e-12)
    assert (s.ci_low, s.ci_high) == (old.ci_low, old.ci_high)
    assert (round(s.mean, 4), round(s.sd, 4), round(s.ci_high, 4)) == TABLE1_PRINTED[i]
    assert set(_json_safe(s.to_dict())) == {"mean", "sd", "ci_low", "ci_high", "engine"}


def test_summarize_max_monte_carlo_matches_simulate_max_and_takes_a_generator():
    kw = dict(rho=0.5, spread=0.05, engine="simulate", n_resamples=2000)
    s = summarize_max(400, 50, 0.8, **kw, rng=7)
    ref = simulate_max(400, 50, uniform_for_sota(0.8, 0.05, 50), rho=0.5, theta0=0.8, n_resamples=2000, rng=7)
    assert (s.mean, s.sd, s.ci_low, s.ci_high, s.se_mean) == (ref.mean, ref.sd, ref.ci_low, ref.ci_high, ref.se_mean)
    d = _json_safe(s.to_dict())
    assert set(d) == {"mean", "sd", "ci_low", "ci_high", "engine", "reps", "se_mean"} and d["reps"] == 2000
    g = summarize_max(400, 50, 0.8, **kw, rng=np.random.default_rng(7))
    assert g.engine == "simulate" and g.to_dict()["engine"] == "simulate" and g.seed is None and s.seed == 7
    assert abs(g.mean - s.mean) < 6 * s.se_mean


@pytest.mark.parametrize(
    "kwargs,name",
    [
        (dict(n=0), "n"),
        (dict(m=0), "m"),
        (dict(theta=1.5), "theta"),
        (dict(theta=float("nan")), "theta"),
        (dict(alpha=1.0), "alpha"),
        (dict(rho=1.5), "rho"),
        (dict(rho=0.5, theta0=1.0), "theta0"),
        (dict(y0="sometimes"), "y0"),
        (dict(spread=-0.1), "spread"),
        (dict(engine="bootstrap"), "engine"),
        (dict(n_resamples=1), "n_resamples"),
        (dict(n=2.5), "n"),
    ],
)
def test_summarize_max_bad_input_names_the_parameter(kwargs, name):
    args = dict(n=100, m=10, theta=0.8) | kwargs
    with pytest.raises(ValueError, match=rf"^{name} must"):
        summarize_max(args.pop("n"), args.pop("m"), args.pop("theta"), **args)


def test_summarize_max_auto_is_exact_within_the_time_limit_and_simulates_beyond(monkeypatch):
    kw = dict(rho=0.5, spread=0.05, n_resamples=500, rng=3)
    assert summarize_max(400, 50, 0.8, **kw).engine == "exact"
    assert summarize_max(400, 50, 0.8, **kw) == summarize_max(400, 50, 0.8, **kw, engine="exact")
    monkeypatch.setenv("SOTALIB_TIME_LIMIT", "1e-9")
    auto = summarize_max(400, 50, 0.8, **kw)
    assert auto.engine == "simulate" and auto.n_resamples == 500 and auto.seed == 3
    assert auto == summarize_max(400, 50, 0.8, **kw, engine="simulate")
    with pytest.raises(ValueError, match="SOTALIB_TIME_LIMIT"):
        summarize_max(400, 50, 0.8, **kw, engine="exact")
    # identical independent classifiers: exact at any n up to 2**53 (the time limit does not apply)
    assert summarize_max(10**6, 50, 0.8).engine == "exact"
    assert summarize_max(2**53 + 2, 3, 0.5, n_resamples=100, rng=1).engine == "simulate"


def test_summarize_max_infeasible_rho_gives_the_bound():
    with pytest.raises(ValueError, match=r"^rho=0\.9 is infeasible .*Eq\. 8"):
        summarize_max(3000, 1000, 0.9, rho=0.9, spread=0.2)


# ---------------------------------------------------------------- estimate_sota
@pytest.fixture(scope="module")
def board():
    return np.random.default_rng(3).binomial(1000, 0.8, 40) / 1000


@pytest.mark.parametrize(
    "method,target",
    [(m, t) for m in ("shrink", "crop", "cap") for t in ("expected", "upper")],
)
def test_estimate_sota_equals_the_exact_estimators(board, method, target):
    direct = {"shrink": shrink, "crop": crop, "cap": cap}[method](board, 1000, classes=2, rho=0.6, target=target)
    via = estimate_sota(board, 1000, method=method, target=target)
    assert via.to_dict() == _with_chance(direct.to_dict(), 0.5)
    _json_safe(via.to_dict())


def _with_chance(d: dict, chance: float) -> dict:
    """The estimator's result as the front door gives it: the chance level it used is in its details."""
    return {**d, "details": {**d["details"], "chance": chance}}


def test_estimate_sota_equals_the_monte_carlo_estimators(board):
    assert estimate_sota(board, 1000, method="deconvolve", rng=5).to_dict() == _with_chance(
        deconvolve(board, 1000, rng=5).to_dict(), 0.5
    )
    assert estimate_sota(board, 1000, method="abc", rho=0.0, rng=5).to_dict() == _with_chance(
        abc(board, 1000, rho=0.0, rng=5).to_dict(), 0.5
    )
    d = estimate_sota(board, 1000, method="abc", rho=0.0, rng=5).to_dict()
    assert d["details"]["seed"] == 5
    _json_safe(d)


def test_estimate_sota_auc_equals_shrink_auc():
    aucs = np.random.default_rng(2).uniform(0.7, 0.85, 30)
    via = estimate_sota(aucs, 2000, metric="auc", prevalence=0.1, rho=0.0, rng=9)
    assert via.to_dict() == shrink_auc(aucs, 2000, 0.1, rho=0.0, rng=9).to_dict()
    assert via.details["seed"] == 9


@pytest.mark.parametrize(
    "kwargs,needle",
    [
        (dict(metric="auc"), "prevalence must be given"),
        (dict(metric="auc", prevalence=0.1, method="crop"), "method 'crop' is not available for metric='auc'"),
        (dict(method="deconvolve", target="upper"), "target 'upper' is not supported by method 'deconvolve'"),
        (dict(method="abc", target="upper"), "target 'upper' is not supported by method 'abc'"),
        (dict(metric="f1"), "^metric must"),
        (dict(method="bayes"), "^method must"),
        (dict(target="lower"), "^target must"),
        (dict(classes=1), "^classes must"),
        (dict(rho=1.5), "^rho must"),
        (dict(metric="auc", prevalence=1.0), "^prevalence must"),
    ],
)
def test_estimate_sota_bad_input(board, kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        estimate_sota(board, 1000, **kwargs)


def test_read_leaderboard_rejects_scores_outside_the_unit_interval(tmp_path):
    p = tmp_path / "lb.csv"
    p.write_text("TeamId,TeamName,Score\n1,a,0.9\n2,b,\n3,c,0.7\n")
    lb = read_leaderboard(p)
    assert lb.scores.tolist() == [0.9, 0.7] and lb.dropped == 1
    p.write_text("TeamId,TeamName,Score\n1,a,0.9\n2,b,87.5\n")
    with pytest.raises(ValueError, match=r"mix two scales \(0\.9 and 87\.5\)"):
        read_leaderboard(p)


# ------------------------------------------------------------ summarize_max_auc
def test_summarize_max_auc_scalar_with_m_equals_the_array_form():
    a = summarize_max_auc(1000, 20, 0.85, 0.05, engine="simulate", n_resamples=100, rng=3)
    b = summarize_max_auc(1000, None, np.full(20, 0.85), 0.05, engine="simulate", n_resamples=100, rng=3)
    assert a == b and (a.details["n_pos"], a.details["n_neg"], a.m, a.seed) == (50, 950, 20, 3)
    d = _json_safe(a.to_dict())
    assert set(d) == {"mean", "sd", "ci_low", "ci_high", "engine", "reps", "se_mean", "n_pos", "n_neg", "seed"}
    assert a.se_mean == pytest.approx(a.sd / math.sqrt(100))
    assert (a.engine, a.metric, a.n_resamples) == ("simulate", "auc", 100)


def test_summarize_max_auc_normal_engine_and_auto():
    s = summarize_max_auc(3000, 1000, 0.9, 0.017, engine="normal")
    d = _json_safe(s.to_dict())
    assert set(d) == {"mean", "sd", "ci_low", "ci_high", "n_pos", "n_neg", "m", "teams", "engine"}
    assert d["engine"] == "normal" and s.n_resamples is None and s.seed is None
    # auto: up to 1e8 simulated scores (teams x challenges x positives) are simulated, more are not
    assert summarize_max_auc(600, 10, 0.9, 0.1, n_resamples=50, rng=0).engine == "simulate"
    assert summarize_max_auc(600, 2000, 0.9, 0.1, n_resamples=1000).engine == "normal"


@pytest.mark.parametrize(
    "kwargs,name",
    [
        (dict(auc=0.9), "m"),
        (dict(auc=0.9, m=0), "m"),
        (dict(auc=1.0, m=3), "auc"),
        (dict(auc=[0.8, 0.9], m=3), "m"),
        (dict(auc=0.9, m=3, n=1), "n"),
        (dict(auc=0.9, m=3, prevalence=0.0), "prevalence"),
        (dict(auc=0.9, m=3, rho=-0.1), "rho"),
        (dict(auc=0.9, m=3, n_resamples=1), "n_resamples"),
        (dict(auc=0.9, m=3, engine="exact"), "engine"),
        (dict(auc=0.9, m=3, alpha=0.0), "alpha"),
        (dict(auc=0.9, m=3, n=20, prevalence=0.01), "prevalence"),
    ],
)
def test_summarize_max_auc_bad_input(kwargs, name):
    args = dict(n=1000, prevalence=0.05, n_resamples=10, m=None, engine="simulate") | kwargs
    with pytest.raises(ValueError, match=rf"^{name} "):
        summarize_max_auc(args.pop("n"), args.pop("m"), args.pop("auc"), args.pop("prevalence"), **args)


# ------------------------------------------------------------------------- rng
def _same(a, b):
    if isinstance(a, tuple):
        return all(_same(x, y) for x, y in zip(a, b))
    if hasattr(a, "to_dict"):
        return a.to_dict() == b.to_dict()
    if hasattr(a, "pmf"):
        return np.array_equal(a.pmf, b.pmf)
    return np.array_equal(np.asarray(a), np.asarray(b))


RNG_CALLS = {
    "simulate_iid_max_counts": lambda rng: simulate_iid_max_counts(300, 20, 0.7, n_resamples=50, rng=rng),
    "simulate_coin_flip_leaderboard": lambda rng: simulate_coin_flip_leaderboard(20, 30, rng=rng),
    "simulate_auc": lambda rng: simulate_auc(0.8, 500, 0.1, n_resamples=30, rng=rng),
    "simulate_max_auc": lambda rng: simulate_max_auc(0.8, 500, 5, 0.1, n_resamples=20, rng=rng),
    "simulate_scores": lambda rng: simulate_scores(0.8, 5, 20, 3, rng=rng),
    "simulate_auc_leaderboard": lambda rng: simulate_auc_leaderboard([0.7, 0.8], 500, 0.1, rng=rng),
    "auc_distribution": lambda rng: auc_distribution(0.8, 100, 0.1, n_resamples=20, rng=rng, batches=2),
    "simulate_leaderboard": lambda rng: simulate_leaderboard(np.linspace(0.7, 0.8, 20), 500, rng=rng),
    "summarize_max_auc": lambda rng: summarize_max_auc(500, 4, 0.8, 0.1, engine="simulate", n_resamples=20, rng=rng),
    "deconvolve": lambda rng: deconvolve(np.linspace(0.6, 0.8, 20), 500, n_resamples=3, rng=rng),
    "abc": lambda rng: abc(np.linspace(0.6, 0.8, 20), 500, n_resamples=200, accept=0.1, rng=rng),
}


@pytest.mark.parametrize("name", sorted(RNG_CALLS))
def test_int_seed_and_generator_give_the_same_draws(name):
    call = RNG_CALLS[name]
    a, b = call(11), call(11)
    assert _same(a, b)
    if name in ("summarize_max_auc", "deconvolve", "abc", "auc_distribution"):
        # the result records the int seed; the draws are those of default_rng(11)
        g = call(np.random.default_rng(11))

        def strip(d):
            return {k: v for k, v in d.items() if k not in ("seed", "details")}

        if hasattr(a, "to_dict"):
            assert strip(a.to_dict()) == strip(g.to_dict())
        else:
            assert np.array_equal(a.pmf, g.pmf)
    else:
        assert _same(a, call(np.random.default_rng(11)))
    call(None)  # fresh entropy works
    with pytest.raises(ValueError, match="rng"):
        call(-1)


def test_spawned_chunks_keep_the_streams_of_an_int_seed():
    # simulate_max runs in chunks with SeedSequence(seed).spawn(8): an int keeps exactly those streams
    from sotalib.multiplicity._simulate import simulate_max_counts  # private: the chunked simulation's streams

    a = simulate_max_counts(200, 10, 0.7, n_resamples=100, rng=4)
    b = simulate_max_counts(200, 10, 0.7, n_resamples=100, rng=4)
    assert np.array_equal(a, b)
    g1 = simulate_max_counts(200, 10, 0.7, n_resamples=100, rng=np.random.default_rng(4))
    g2 = simulate_max_counts(200, 10, 0.7, n_resamples=100, rng=np.random.default_rng(4))
    assert np.array_equal(g1, g2)


def test_shrink_auc_with_a_generator_uses_one_seed_for_every_evaluation():
    aucs = np.random.default_rng(2).uniform(0.7, 0.85, 30)
    est = shrink_auc(aucs, 2000, 0.1, n_resamples=50, rng=np.random.default_rng(1))
    seed = est.details["seed"]
    assert isinstance(seed, int)
    assert est.to_dict() == shrink_auc(aucs, 2000, 0.1, n_resamples=50, rng=seed).to_dict()


# ---------------------------------------------------- former spellings kept until 0.7.0, with a warning
@pytest.mark.parametrize(
    "old,new",
    [
        (lambda: simulate_iid_max_counts(100, 5, 0.7, 20, 1), lambda: simulate_iid_max_counts(100, 5, 0.7, n_resamples=20, rng=1)),
        (lambda: simulate_auc(0.8, 500, 0.1, 20, 1), lambda: simulate_auc(0.8, 500, 0.1, n_resamples=20, rng=1)),
        (lambda: simulate_max_auc(0.8, 500, 3, 0.1, 20, 1), lambda: simulate_max_auc(0.8, 500, 3, 0.1, n_resamples=20, rng=1)),
        (lambda: simulate_scores(0.8, 5, 20, 3, 1), lambda: simulate_scores(0.8, 5, 20, 3, rng=1)),
        (lambda: simulate_coin_flip_leaderboard(20, 30, 1), lambda: simulate_coin_flip_leaderboard(20, 30, rng=1)),
        (lambda: simulate_auc_leaderboard([0.7, 0.8], 500, 0.1, 1), lambda: simulate_auc_leaderboard([0.7, 0.8], 500, 0.1, rng=1)),
    ],
)  # fmt: skip
def test_options_given_by_position_still_work_with_a_warning(old, new):
    with pytest.warns(DeprecationWarning, match=r"given by position.*0\.7\.0.*keywords: (n_resamples|rng)="):
        a = old()
    assert _same(a, new())


def test_keyword_only_refuses_an_option_given_twice_or_too_many_positions():
    from sotalib.multiplicity import clopper_pearson

    with pytest.warns(DeprecationWarning, match="alpha"):
        assert clopper_pearson(27, 30, 0.1) == clopper_pearson(27, 30, alpha=0.1)
    with pytest.raises(TypeError, match="multiple values for argument .alpha."):
        clopper_pearson(27, 30, 0.1, alpha=0.2)
    with pytest.raises(TypeError, match="positional arguments"):
        clopper_pearson(27, 30, 0.1, 0.2)


def test_result_fields_renamed_to_engine_and_n_resamples_keep_their_former_names():
    from sotalib.multiplicity import summarize_max_difference

    s = simulate_max(100, 5, 0.7, n_resamples=30, rng=1)
    with pytest.warns(DeprecationWarning, match=r"Summary\.method .*Summary\.engine"):
        assert s.method == "mc"
    with pytest.warns(DeprecationWarning, match=r"Summary\.reps .*Summary\.n_resamples"):
        assert s.reps == s.n_resamples == 30
    d = summarize_max_difference(300, 900, [0.7, 0.72], engine="exact")
    with pytest.warns(DeprecationWarning, match="MaxDifference.engine"):
        assert d.method == "exact"
    dist = iid_max_distribution(100, 5, 0.7)
    with pytest.warns(DeprecationWarning, match="MaxDistribution.engine"):
        assert dist.method == dist.engine == "exact"
    assert "method" not in s.to_dict() and "reps" not in s.to_dict()
