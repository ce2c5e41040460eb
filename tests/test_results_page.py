"""``sotalib.results`` lists every result the library returns, and every public function returns one.

The results page (``sotalib/results.py``, the book's page ``book/api/results``)
is the one place where a user finds what the functions give back.  Here: its
``__all__`` is the list its docstring shows; each entry is a frozen
:class:`sotalib._result.Result` exported by the package whose functions return
it; every class a public function of ``sotalib``, ``sotalib.multiplicity``,
``sotalib.consistency`` or ``sotalib.judging`` returns (read from its return
annotation) is on the page; and a function that returns no result class is one
of the few listed below, which return plain numbers, arrays or plots by design.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import subprocess
import sys
import typing

import pytest

import sotalib
import sotalib.results
from sotalib._result import Result  # private: the base every listed result must inherit

from .test_api import listed

PACKAGES = ("sotalib", "sotalib.multiplicity", "sotalib.consistency", "sotalib.judging")

#: Public functions that return no result class, by design, and why.  A function returning a number
#: that is the value of a formula is named by its quantity, as scipy.special's are (the vocabulary's rule).
NOT_RESULTS: dict[str, str] = {
    # a formula's value: a number, an array of numbers over its arguments, or a pair of bounds
    "sotalib.multiplicity.auc_variance": "formula",
    "sotalib.multiplicity.binormal_auc": "formula",
    "sotalib.multiplicity.binormal_mu_pos": "formula",
    "sotalib.multiplicity.binormal_roc": "formula",
    "sotalib.multiplicity.clopper_pearson": "formula",
    "sotalib.multiplicity.conditional_probs": "formula",
    "sotalib.multiplicity.delong_variance": "formula",
    "sotalib.multiplicity.empirical_auc": "formula",
    "sotalib.multiplicity.expected_max_extreme_value": "formula",
    "sotalib.multiplicity.feasible": "formula",
    "sotalib.multiplicity.feasible_interval": "formula",
    "sotalib.multiplicity.hanley_mcneil_variance": "formula",
    "sotalib.multiplicity.iid_bias_sd": "formula",
    "sotalib.multiplicity.possible_n": "formula",
    "sotalib.multiplicity.prob_any_at_least": "formula",
    "sotalib.multiplicity.prob_at_least": "formula",
    "sotalib.multiplicity.rho_from_similarity": "formula",
    "sotalib.multiplicity.roc_curve_points": "formula",
    "sotalib.multiplicity.similarity": "formula",
    "sotalib.consistency.count_configurations": "formula",
    "sotalib.judging.achieved_precision": "formula",
    "sotalib.judging.guyon_size": "formula",
    "sotalib.judging.kendall_w": "formula",
    "sotalib.judging.nemenyi_cd": "formula",
    "sotalib.judging.rule_of_thumb_size": "formula",
    "sotalib.judging.winner_distribution_exact": "formula",
    "sotalib.minimum_detectable_difference": "formula",
    "sotalib.judging.minimum_detectable_difference": "formula",
    # scores computed from counts: a mapping from score name to value, as a report lists them
    "sotalib.consistency.aggregate_scores": "scores",
    "sotalib.consistency.all_scores": "scores",
    "sotalib.consistency.multiclass_scores": "scores",
    "sotalib.consistency.regression_scores": "scores",
    # simulated data: the raw draws that other functions summarize
    "sotalib.multiplicity.simulate_auc": "draws",
    "sotalib.multiplicity.simulate_auc_leaderboard": "draws",
    "sotalib.multiplicity.simulate_coin_flip_leaderboard": "draws",
    "sotalib.multiplicity.simulate_iid_max_counts": "draws",
    "sotalib.multiplicity.simulate_leaderboard": "draws",
    "sotalib.multiplicity.simulate_max_auc": "draws",
    "sotalib.multiplicity.simulate_scores": "draws",
    # the folds of an experiment: the input of the consistency tests
    "sotalib.consistency.kfold_configurations": "folds",
    "sotalib.consistency.read_folds": "folds",
    "sotalib.consistency.stratified_class_folds": "folds",
    "sotalib.consistency.stratified_folds": "folds",
    # a figure
    "sotalib.judging.plot_cd_diagram": "plot",
    "sotalib.judging.plot_rank_intervals": "plot",
    # not yet a result: issue 32 asks for one ("boosting_attack returns a tuple, ranking_stability an ndarray")
}
REASONS = {"formula", "scores", "draws", "folds", "plot", "pending"}

#: Public Result classes that are a model's settings, made by the user (and by ``uniform_for_sota``), not results.
SETTINGS = {"Uniform", "PointMass", "Empirical"}


def _functions():
    seen = set()
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) and id(obj) not in seen:
                seen.add(id(obj))
                yield pytest.param(package, name, obj, id=f"{package}.{name}")


def _classes_in(hint) -> list[type]:
    """The sotalib classes a return annotation names (inside unions, lists, tuples and dicts too)."""
    if inspect.isclass(hint) and getattr(hint, "__module__", "").startswith("sotalib"):
        return [hint]
    return [c for arg in typing.get_args(hint) for c in _classes_in(arg)]


def test_all_is_the_documented_list():
    documented = listed(sotalib.results)
    assert len(documented) == len(set(documented)), "a name is listed twice"
    assert sorted(documented) == sorted(sotalib.results.__all__)


@pytest.mark.parametrize("name", sotalib.results.__all__)
def test_every_entry_is_a_frozen_result_exported_by_its_package(name):
    cls = getattr(sotalib.results, name)
    assert inspect.isclass(cls) and issubclass(cls, Result), f"{name} does not inherit sotalib._result.Result"
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, f"{name} is not a frozen dataclass"
    package = importlib.import_module(".".join(cls.__module__.split(".")[:2]))
    assert getattr(package, name, None) is cls, f"{name} is not exported by {package.__name__}"


@pytest.mark.parametrize(("package", "name", "func"), list(_functions()))
def test_every_public_function_returns_a_listed_result(package, name, func):
    full = f"{package}.{name}"
    returned = _classes_in(typing.get_type_hints(func).get("return"))
    if full in NOT_RESULTS:
        assert NOT_RESULTS[full] in REASONS
        results = [c.__name__ for c in returned if issubclass(c, Result) and c.__name__ not in SETTINGS]
        assert not results, f"{full} returns {results}: take it off NOT_RESULTS"
        return
    assert returned, f"{full} returns no result class: return one listed in sotalib.results, or list it in NOT_RESULTS"
    for cls in returned:
        if cls.__name__ in SETTINGS:
            continue
        assert getattr(sotalib.results, cls.__name__, None) is cls, f"{full} returns {cls.__name__}, not listed"


def test_every_public_result_class_is_listed():
    """A public class inheriting Result is on the page, unless it is a model's settings."""
    missing = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) and issubclass(obj, Result) and name not in SETTINGS:
                if getattr(sotalib.results, name, None) is not obj:
                    missing.append(f"{package}.{name}")
    assert not missing, f"public results not on the results page: {missing}"


def test_the_base_gives_a_text_of_the_scalar_fields():
    r = sotalib.estimate_test_size(0.1)
    text = Result.to_text(r)  # the base's text, whatever the class overrides
    lines = text.splitlines()
    assert lines[0] == "TestSize"
    fields = dict(line.split(None, 1) for line in lines[1:])
    assert fields["guyon"] == str(r.guyon) == "3458"
    assert float(fields["z"]) == pytest.approx(1.959964, abs=1e-5)
    assert set(fields) == set(json.loads(json.dumps(r.to_dict())))


def test_the_page_loads_lazily():
    """``import sotalib.results`` imports no package's modules until a name is used."""
    code = (
        "import sys, sotalib.results; "
        "print(sorted(m for m in sys.modules if m.startswith(('sotalib.multiplicity', 'sotalib.judging', "
        "'sotalib.consistency', 'numpy'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
