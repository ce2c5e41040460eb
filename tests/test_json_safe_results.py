"""Every result's ``to_dict()`` is JSON without NaN or infinity: a missing number is None, as ``--json`` prints it.

The README promises that ``to_dict()`` and ``sotalib COMMAND --json`` are the
same; the command line prints null for a missing number, so ``to_dict()`` must
never carry ``inf`` or ``nan`` (``json.dumps(..., allow_nan=False)`` refuses them).
"""

import dataclasses
import importlib
import json
import pkgutil

import numpy as np
import pytest

import sotalib

# private: the base class of every result is the subject (all its subclasses are checked)
from sotalib._result import Result


def _all_result_types() -> list[type]:
    for pkg in ("multiplicity", "consistency", "judging"):
        mod = importlib.import_module(f"sotalib.{pkg}")
        for info in pkgutil.iter_modules(mod.__path__):
            importlib.import_module(f"sotalib.{pkg}.{info.name}")
    seen, todo = [], list(Result.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.append(cls)
            todo.extend(cls.__subclasses__())
    return sorted((c for c in seen if dataclasses.is_dataclass(c)), key=lambda c: c.__qualname__)


def _poisoned(field: dataclasses.Field) -> object:
    """A value of the field's type holding NaN and infinities wherever numbers go."""
    t = str(field.type)
    if "ndarray" in t or "ArrayLike" in t:
        return np.array([np.nan, np.inf, -np.inf])
    if t.startswith("float") or t == "float | None":
        return np.inf
    if t.startswith("int") or "int |" in t:
        return 1
    if t.startswith("bool"):
        return True
    if t.startswith("str"):
        return "x"
    if t.startswith("dict") or t.startswith("Mapping"):
        return {"a": np.nan, "b": [np.inf], "c": np.float64(-np.inf)}
    if t.startswith(("tuple", "list", "Sequence")):
        return (np.nan, np.inf)
    return None


RESULT_TYPES = _all_result_types()


def test_every_public_result_type_is_covered():
    names = {c.__name__ for c in RESULT_TYPES}
    public = {n for n in sotalib.__all__ if isinstance(getattr(sotalib, n), type)}
    assert public <= names, public - names
    assert len(RESULT_TYPES) >= 25


@pytest.mark.parametrize("cls", RESULT_TYPES, ids=lambda c: c.__qualname__)
def test_to_dict_of_poisoned_result_is_strict_json(cls):
    """Fill every numeric field with NaN or infinity; to_dict() must still dump with allow_nan=False."""
    values = {f.name: _poisoned(f) for f in dataclasses.fields(cls)}
    obj = object.__new__(cls)
    for k, v in values.items():
        object.__setattr__(obj, k, v)
    try:
        d = obj.to_dict()
    except (TypeError, AttributeError, IndexError, KeyError, ValueError) as exc:
        pytest.skip(f"to_dict() needs structured fields ({type(exc).__name__}); covered by the real results below")
    json.dumps(d, allow_nan=False)


def _real_results():
    flat = np.array([[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]])  # every judge ties every candidate
    same = np.array([[0.9, 0.8, 0.7, 0.6], [0.8, 0.7, 0.6, 0.5], [0.7, 0.6, 0.5, 0.4]])  # every judge agrees
    yield "compare-unanimous", sotalib.compare_candidates(same)
    yield "compare-all-tied", sotalib.compare_candidates(flat)
    yield "rank", sotalib.rank_candidates(flat, "copeland")
    X = np.ones((30, 3))
    yield "rank-uncertainty", sotalib.estimate_rank_uncertainty(sotalib.PerItem(X), n_resamples=20, rng=0)
    yield "per-item", sotalib.PerItem([[1.0, np.nan], [0.0, 1.0]])
    yield "sota", sotalib.estimate_sota([0.7, 0.7, 0.7], 100)
    yield "sota-naive", sotalib.estimate_sota([0.7], 100, method="naive")
    yield "maxdist", sotalib.summarize_max(100, 5, 0.999)
    yield "auc-max", sotalib.summarize_max_auc(200, 3, 0.9, 0.5, engine="normal")
    yield "testsize", sotalib.estimate_test_size(0.1)
    yield "regression", sotalib.check_regression(10, {"mae": "0.0", "rmse": "0.0"}, decimals=1)
    yield "report", sotalib.check_report(10, 10, {"acc": "1.0", "sens": "1.0"}, decimals=1)
    yield "multiclass", sotalib.check_multiclass([3, 3], {"acc": "1.0"}, decimals=1)


def test_real_degenerate_results_are_strict_json():
    # computed here, not in a parametrize list: that would compile Numba kernels while collecting (each xdist worker)
    for label, result in _real_results():
        d = result.to_dict()
        assert json.loads(json.dumps(d, allow_nan=False)) == d, label


def test_unanimous_comparison_says_null_for_the_infinite_statistic():
    same = np.array([[0.9, 0.8, 0.7, 0.6], [0.8, 0.7, 0.6, 0.5], [0.7, 0.6, 0.5, 0.4]])
    cmp = sotalib.compare_candidates(same)
    assert np.isinf(cmp.friedman.iman_davenport_F)  # the attribute keeps the number
    assert cmp.to_dict()["friedman"]["iman_davenport_F"] is None  # the JSON says null, as --json does


def test_a_result_inside_a_result_is_json_too():
    """The base to_dict() of a result holding another result (a field typed by a result class) stays strict JSON."""
    from sotalib.judging._compare import FriedmanTest  # private: the nested result type is the subject

    @dataclasses.dataclass(frozen=True, repr=False)
    class Outer(Result):
        inner: FriedmanTest
        value: float

    d = Outer(FriedmanTest(np.inf, 0.0, np.nan, 1.0, 3, 4, 1.0), -np.inf).to_dict()
    assert d == {
        "inner": {"statistic": None, "p_value": 0.0, "iman_davenport_F": None, "iman_davenport_p": 1.0},
        "value": None,
    }
    json.dumps(d, allow_nan=False)
