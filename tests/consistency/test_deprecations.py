"""Former spellings keep working for one minor version, with a DeprecationWarning naming the new one."""

import importlib

import pytest

import sotalib.consistency as sc
from sotalib.consistency import check_multiclass, check_report, power_oversampling, power_typo

PAPER_33 = {"acc": "0.6801", "npv": "0.9401", "f1": "0.4004"}


def _deprecated():
    # the mapping given to attach(): read back from the package's closure
    closure = dict(zip(sc.__getattr__.__code__.co_freevars, (c.cell_contents for c in sc.__getattr__.__closure__)))
    return sorted(closure["deprecated"].items())


@pytest.mark.parametrize(("old", "where"), _deprecated(), ids=[old for old, _ in _deprecated()])
def test_former_public_names_warn_and_are_the_same_object(old, where):
    module, name = where
    with pytest.warns(DeprecationWarning, match=rf"sotalib\.consistency\.{old} is deprecated"):
        obj = getattr(sc, old)
    assert obj is getattr(importlib.import_module(module, "sotalib.consistency"), name)
    assert old not in sc.__all__


def test_check_report_former_order_warns_with_the_same_answer():
    new = check_report(1000, 6000, PAPER_33, eps="1e-4")
    with pytest.warns(DeprecationWarning, match=r"check_report\(p, n, scores"):
        old = check_report(PAPER_33, p=1000, n=6000, eps="1e-4")
    assert old.to_dict() == new.to_dict()
    folds = [(100, 201), (100, 200), (100, 200), (101, 200), (101, 200)]
    scores = {"acc": "0.8290", "sens": "0.7391", "spec": "0.8741"}
    with pytest.warns(DeprecationWarning, match=r"check_report\(p, n, scores"):
        old = check_report(scores, folds=folds, eps="1e-4")
    assert old.to_dict() == check_report(scores=scores, folds=folds, eps="1e-4").to_dict()


def test_check_report_needs_scores():
    with pytest.raises(TypeError, match="scores"):
        check_report(10, 20)


def test_power_reps_is_n_resamples():
    new = power_typo(30, 60, 3, n_resamples=10, rng=5)
    with pytest.warns(DeprecationWarning, match="n_resamples"):
        old = power_typo(30, 60, 3, reps=10, rng=5)
    assert old == new
    with pytest.warns(DeprecationWarning, match="n_resamples"):
        old = power_oversampling(2, reps=2, rng=3)
    assert old == power_oversampling(2, n_resamples=2, rng=3)


def test_check_multiclass_method_is_engine():
    scores = {"acc": "0.8100", "macro_recall": "0.7900"}
    new = check_multiclass([10, 12, 8], scores, decimals=2, engine="ilp")
    with pytest.warns(DeprecationWarning, match="engine"):
        old = check_multiclass([10, 12, 8], scores, decimals=2, method="ilp")
    assert old.to_dict() == new.to_dict()
