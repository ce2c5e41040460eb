"""Regression reports: true reports are consistent, each violated relation is named, against a direct scan."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sotalib.consistency import check_regression, regression_scores


def _fmt(x, d, mode="round"):
    q = Fraction(x) * 10**d
    r = {"round": round(q), "floor": math.floor(q), "ceil": math.ceil(q)}[mode]
    return f"{r / 10**d:.{d}f}"


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 400),
    st.integers(0, 2**32 - 1),
    st.integers(2, 6),
    st.sampled_from(["round", "floor", "ceil"]),
    st.sampled_from([0.01, 1.0, 100.0]),
)
def test_true_reports_are_consistent_and_the_witness_reproduces_them(n, seed, d, mode, scale):
    rng = np.random.default_rng(seed)
    y = rng.normal(0, scale, n)
    pred = y + rng.standard_t(3, n) * scale * rng.uniform(0.01, 2)
    sc = regression_scores(y, pred)
    names = ["mae", "mse", "rmse"] + (["r2"] if sc["var"] > 0 and n > 1 else [])
    rep = {k: _fmt(sc[k], d, mode) for k in names}
    var = _fmt(sc["var"], d, mode) if "r2" in rep else None  # read with the scores' rounding
    if var is not None and float(var) == 0:
        rep.pop("r2")
        var = None
    r = check_regression(n, rep, target_var=var, decimals=d, rounding=mode)
    assert r.consistent, (rep, r.violated)
    w = r.evidence[0]
    e = np.array([w["residuals"]["value"]] * w["residuals"]["count"] + [w["residuals"]["last"]], float)
    e = np.concatenate([e, np.zeros(max(n - len(e), 0))])[:n]
    assert np.mean(np.abs(e)) == pytest.approx(w["mae"], rel=1e-6, abs=1e-12)
    assert np.mean(e**2) == pytest.approx(w["mse"], rel=1e-6, abs=1e-12)


@pytest.mark.parametrize(
    "n,scores,var,violated",
    [
        (100, {"mae": "0.03", "rmse": "0.5"}, None, "RMSE <= sqrt(n) MAE"),
        (100, {"mae": "0.30", "rmse": "0.20"}, None, "MAE <= RMSE"),
        (100, {"mse": "0.05", "rmse": "0.2"}, None, "MSE = RMSE^2"),
        (100, {"mse": "0.05", "r2": "0.9"}, "0.1", "R^2"),
        (100, {"mae": "0.4", "r2": "0.9"}, "0.1", "MAE <= RMSE"),
    ],
)
def test_each_violated_relation_is_named(n, scores, var, violated):
    r = check_regression(n, scores, target_var=var, decimals=len(next(iter(scores.values()))) - 2)
    assert not r.consistent and r.evidence == []
    assert any(violated in v for v in r.violated), r.violated


def test_bounds_are_sharp():
    # n = 4: RMSE = 2 MAE is reachable (one non-zero residual), a hair above is not
    assert check_regression(4, {"mae": "0.25", "rmse": "0.50"}, eps=0).consistent
    assert not check_regression(4, {"mae": "0.25", "rmse": "0.5000001"}, eps=0).consistent
    assert check_regression(4, {"mae": "0.25", "rmse": "0.25"}, eps=0).consistent
    assert not check_regression(4, {"mae": "0.25", "rmse": "0.2499999"}, eps=0).consistent


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 50), st.floats(0, 2), st.floats(0, 2), st.integers(1, 3))
def test_verdict_equals_a_scan_of_the_mae_interval(n, mae, rmse, d):
    rep = {"mae": _fmt(mae, d), "rmse": _fmt(rmse, d)}
    r = check_regression(n, rep, decimals=d)
    u = 0.5 * 10**-d
    a_lo, a_hi = max(float(rep["mae"]) - u, 0), float(rep["mae"]) + u
    m_lo, m_hi = max(float(rep["rmse"]) - u, 0) ** 2, (float(rep["rmse"]) + u) ** 2
    a = np.linspace(a_lo, a_hi, 2001)
    ok = np.any((a**2 <= m_hi + 1e-9) & (n * a**2 >= m_lo - 1e-9))
    strict = np.any((a**2 <= m_hi - 1e-9) & (n * a**2 >= m_lo + 1e-9))
    if strict:
        assert r.consistent
    if not ok:
        assert not r.consistent


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(n=0, scores={"mae": 0.1}, decimals=2), "n must be an integer >= 1"),
        (dict(n=5, scores={"mape": 0.1}, decimals=2), "score must be one of mae, mse, rmse, r2"),
        (dict(n=5, scores={"r2": 0.5}, decimals=2), "target_var"),
        (dict(n=5, scores={"mae": -0.1}, decimals=2), "must be >= 0"),
        (dict(n=5, scores={"mae": 0.1}), "exactly one of eps"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_regression(**kwargs)
