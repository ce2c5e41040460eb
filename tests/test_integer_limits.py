"""Integers beyond 64 bits: every integer parameter is refused by name, never an OverflowError or a hang.

The library's integer parameters lie in the signed 64-bit range (the arrays
and compiled loops behind them count in 64 bits); ``check_int`` refuses
anything beyond it with the parameter's name and range, showing a number of
hundreds of digits by its ends and its length.  A size inside the range but
too large for memory is refused up front with the memory it would need.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import sotalib
from sotalib import consistency, judging, multiplicity

# private: the shared integer and number checks every public function uses are the subject
from sotalib._validate import INT64_MAX, check_int, check_real

HUGE = 10**400
HUGE_TEXT = "100000...000 (401 digits)"
TWO_63 = 2**63
TWO_63_TEXT = "9223372036854775808"


# ------------------------------------------------------------------ check_int itself
def test_check_int_refuses_beyond_64_bits_naming_the_parameter_and_the_range():
    assert check_int("n", INT64_MAX, low=1) == 2**63 - 1
    assert check_int("k", -(2**63)) == -(2**63)
    cases = [
        (dict(name="m", value=HUGE, low=1), f"m must be an integer in [1, 2**63 - 1], got {HUGE_TEXT}"),
        (dict(name="m", value=TWO_63, low=1), f"m must be an integer in [1, 2**63 - 1], got {TWO_63_TEXT}"),
        (dict(name="x", value=TWO_63), f"x must be an integer in [-2**63, 2**63 - 1], got {TWO_63_TEXT}"),
        (dict(name="x", value=-(2**63) - 1), "x must be an integer in [-2**63, 2**63 - 1], got -9223372036854775809"),
        (dict(name="x", value=-HUGE, high=5), f"x must be an integer in [-2**63, 5], got -{HUGE_TEXT}"),
        # the parameter's own range comes first, in the format it always had
        (dict(name="n", value=-HUGE, low=1), f"n must be an integer >= 1, got -{HUGE_TEXT}"),
        (dict(name="d", value=HUGE, low=0, high=15), f"d must be an integer in [0, 15], got {HUGE_TEXT}"),
        (dict(name="d", value=16, low=0, high=15), "d must be an integer in [0, 15], got 16"),
        (dict(name="n", value=0, low=1), "n must be an integer >= 1, got 0"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError) as info:
            check_int(**kwargs)
        assert str(info.value) == message


def test_check_int_shows_up_to_thirty_digits_in_full():
    with pytest.raises(ValueError, match=r"got 100000000000000000000000000000$"):
        check_int("n", 10**29, low=1)  # 30 digits: still in full
    with pytest.raises(ValueError, match=r"got 100000\.\.\.000 \(31 digits\)$"):
        check_int("n", 10**30, low=1)
    with pytest.raises(ValueError, match=r"got 123456\.\.\.789 \(45 digits\)$"):
        check_int("n", int("123456" + "0" * 36 + "789"), low=1)


def test_check_int_takes_numpy_and_float_integers_within_64_bits():
    assert check_int("n", np.int64(2**62), low=1) == 2**62 and check_int("n", np.uint64(2**63 - 1)) == INT64_MAX
    with pytest.raises(ValueError, match=r"^n must be an integer in \[1, 2\*\*63 - 1\], got 18446744073709551615$"):
        check_int("n", np.uint64(2**64 - 1), low=1)
    with pytest.raises(ValueError, match=r"^n must be an integer in \[1, 2\*\*63 - 1\], got 1000000000000000000000$"):
        check_int("n", 1e21, low=1)


def test_check_real_refuses_an_integer_beyond_the_doubles_by_name():
    with pytest.raises(ValueError, match=rf"^error must be a finite number in \(0, 1\], got {re.escape(HUGE_TEXT)}$"):
        check_real("error", HUGE, low=0.0, high=1.0, low_open=True)
    with pytest.raises(ValueError, match=rf"^x must be a finite number, got -{re.escape(HUGE_TEXT)}$"):
        check_real("x", -HUGE)
    assert check_real("x", 2**1000) == 2.0**1000


# ------------------------------------------------------------------ the public functions
LB = np.linspace(0.8, 0.9, 30)
X = np.random.default_rng(0).integers(0, 2, size=(20, 3)).astype(float)

#: (call with the value V, the parameter named, its lower end): each takes V for one integer parameter.
CALLS = [
    pytest.param(lambda v: sotalib.summarize_max(v, 10, 0.8), "n", 1, id="summarize_max n"),
    pytest.param(lambda v: sotalib.summarize_max(100, v, 0.8), "m", 1, id="summarize_max m"),
    pytest.param(lambda v: sotalib.summarize_max(100, v, 0.8, rho=0.3), "m", 1, id="summarize_max m rho"),
    pytest.param(
        lambda v: sotalib.summarize_max(100, 10, 0.8, engine="simulate", n_resamples=v),
        "n_resamples",
        2,
        id="summarize_max n_resamples",
    ),
    pytest.param(lambda v: sotalib.summarize_max_auc(v, 10, 0.8, 0.3), "n", 2, id="summarize_max_auc n"),
    pytest.param(lambda v: sotalib.summarize_max_auc(100, v, 0.8, 0.3), "m", 1, id="summarize_max_auc m"),
    pytest.param(
        lambda v: sotalib.summarize_max_auc(100, 10, 0.8, 0.3, n_resamples=v),
        "n_resamples",
        2,
        id="summarize_max_auc n_resamples",
    ),
    pytest.param(lambda v: sotalib.estimate_sota(LB, v), "n", 1, id="estimate_sota n"),
    pytest.param(lambda v: sotalib.estimate_sota(LB, 1000, classes=v), "classes", 2, id="estimate_sota classes"),
    pytest.param(
        lambda v: sotalib.estimate_sota(LB, 1000, method="abc", n_resamples=v),
        "n_resamples",
        100,
        id="estimate_sota n_resamples",
    ),
    pytest.param(lambda v: sotalib.check_report(v, 100, {"acc": 0.9}, decimals=2), "p", 1, id="check_report p"),
    pytest.param(lambda v: sotalib.check_report(100, v, {"acc": 0.9}, decimals=2), "n", 1, id="check_report n"),
    pytest.param(lambda v: sotalib.check_report(100, 100, {"acc": 0.9}, decimals=2, k=v), "k", 2, id="check_report k"),
    pytest.param(lambda v: sotalib.check_regression(v, {"mae": 0.1}, decimals=2), "n", 1, id="check_regression n"),
    pytest.param(
        lambda v: sotalib.estimate_rank_uncertainty(sotalib.PerItem(X), n_resamples=v),
        "n_resamples",
        1,
        id="estimate_rank_uncertainty n_resamples",
    ),
    pytest.param(
        lambda v: judging.bradley_terry(["a", "a"], ["b", "b"], ["a", "b"], n_resamples=v),
        "n_resamples",
        1,
        id="bradley_terry n_resamples",
    ),
    pytest.param(
        lambda v: judging.bootstrap_coverage(0.8, 100, n_datasets=2, n_resamples=v),
        "n_resamples",
        10,
        id="bootstrap_coverage n_resamples",
    ),
    pytest.param(
        lambda v: judging.simulate_final_phase([0.8, 0.7], v, 100), "n_dev", 1, id="simulate_final_phase n_dev"
    ),
    pytest.param(lambda v: multiplicity.iid_max_distribution(v, 10, 0.8), "n", 1, id="iid_max_distribution n"),
    pytest.param(lambda v: multiplicity.max_distribution(100, v, 0.8), "m", 1, id="max_distribution m"),
    pytest.param(
        lambda v: multiplicity.simulate_max(100, 10, 0.8, n_resamples=v),
        "n_resamples",
        1,
        id="simulate_max n_resamples",
    ),
    pytest.param(lambda v: multiplicity.clopper_pearson(3, v), "n", 1, id="clopper_pearson n"),
    pytest.param(lambda v: consistency.count_configurations(10, 10, v), "k", 2, id="count_configurations k"),
    pytest.param(lambda v: consistency.stratified_folds(v, 10, 3), "p", 0, id="stratified_folds p"),
]


@pytest.mark.parametrize("value,shown", [(HUGE, HUGE_TEXT), (TWO_63, TWO_63_TEXT)], ids=["10**400", "2**63"])
@pytest.mark.parametrize("call,name,low", CALLS)
def test_public_functions_refuse_integers_beyond_64_bits_by_name(call, name, low, value, shown):
    with pytest.raises(ValueError) as info:
        call(value)
    assert str(info.value) == f"{name} must be an integer in [{low}, 2**63 - 1], got {shown}"


def test_an_error_rate_beyond_the_doubles_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^error must be a finite number in \(0, inf\), got 100000\.\.\.000"):
        sotalib.estimate_test_size(HUGE)


# ------------------------------------------------------------------ within 64 bits, beyond memory: refused up front
MEMORY_CALLS = [
    (
        lambda v: sotalib.summarize_max(v, 10, 0.8, rho=0.3, engine="exact"),
        r"n=\d+ items would need .* give a smaller n",
    ),
    (lambda v: sotalib.summarize_max_auc(100, v, 0.8, 0.3), r"m=\d+ classifiers would need .* use fewer classifiers"),
    (lambda v: sotalib.estimate_sota(LB, v), r"n=\d+ items would need .* give a smaller n"),
    (
        lambda v: sotalib.estimate_sota(LB, 1000, method="abc", n_resamples=v),
        r"n_resamples=\d+ proposals would need .* use fewer proposals",
    ),
    (lambda v: multiplicity.iid_max_distribution(v, 10, 0.8), r"n=\d+ items would need .* give a smaller n"),
    (lambda v: multiplicity.prob_at_least(0.5, v, 0.8), r"n=\d+ items would need .* give a smaller n"),
    (lambda v: multiplicity.fixed_max_distribution(v, [0.8, 0.7]), r"n=\d+ items would need .* give a smaller n"),
    (
        lambda v: multiplicity.max_distribution(100, 10, multiplicity.Uniform(0.7, 0.8), nodes=v),
        r"nodes=\d+ quadrature nodes would need .* use fewer nodes",
    ),
]


@pytest.mark.parametrize(
    "call,message",
    MEMORY_CALLS,
    ids=[
        "summarize_max n",
        "summarize_max_auc m",
        "estimate_sota n",
        "estimate_sota abc n_resamples",
        "iid_max_distribution n",
        "prob_at_least n",
        "fixed_max_distribution n",
        "max_distribution nodes",
    ],
)
def test_the_largest_64_bit_size_is_refused_for_memory_before_any_work(call, message, monkeypatch):
    monkeypatch.setenv("SOTALIB_MEMORY_LIMIT", "4G")
    with pytest.raises(ValueError, match=rf"^{message}$") as info:
        call(INT64_MAX)
    assert str(INT64_MAX) in str(info.value) and "more than the 4 GiB sotalib allows itself" in str(info.value)


def test_a_size_beyond_the_old_command_line_limit_is_answered():
    # 10^8 items and 10^9 classifiers: the exact distribution of the maximum in a second
    s = sotalib.summarize_max(10**8, 10**9, 0.8)
    assert s.n == 10**8 and s.m == 10**9 and 0.8 < s.ci_low < s.mean < s.ci_high < 0.8003
