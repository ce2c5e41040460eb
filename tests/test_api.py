"""The public API is the documented API, and it speaks one vocabulary.

For ``sotalib`` and each subpackage: ``__all__`` equals the names its
docstring lists in ``.. autosummary::`` blocks; every public function has a
numpydoc docstring with Parameters, Returns, Raises, References and Examples,
full type hints, and examples that run; every result type a public function
returns is a frozen :class:`sotalib._result.Result` importable from where the
function is; no public signature uses a spelling the vocabulary retired.
"""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import inspect
import re
import types
import typing
import warnings

import pytest

from sotalib._result import Result  # private: the base every public result class must inherit

PACKAGES = ["sotalib", "sotalib.multiplicity", "sotalib.consistency", "sotalib.judging"]
SECTIONS = ("Parameters", "Returns", "Raises", "References", "Examples")
# Spellings the vocabulary retired (see ``help(sotalib)``, "One vocabulary"), with what replaced them.
RETIRED = {
    "show": "progress",
    "seed": "rng",
    "random_state": "rng",
    "reps": "n_resamples",
    "n_boot": "n_resamples",
    "draws": "n_resamples",
    "higher_is_better": "lower_is_better",
    "confidence": "alpha (a level) or z",
}


def listed(module: types.ModuleType) -> list[str]:
    """The names in the ``.. autosummary::`` blocks of a module's docstring."""
    names: list[str] = []
    inside = False
    for line in (module.__doc__ or "").splitlines():
        if line.strip().startswith(".. autosummary::"):
            inside = True
            continue
        if inside:
            if not line.strip() or line.strip().startswith(":"):
                continue
            if not line.startswith(" "):
                inside = False
                continue
            names.append(line.strip())
    return names


def public(package: str) -> list[tuple[str, str, object]]:
    module = importlib.import_module(package)
    out = []
    for name in module.__all__:
        obj = getattr(module, name)
        if isinstance(obj, types.ModuleType) or name.startswith("__"):
            continue
        out.append((package, name, obj))
    return out


ALL = [item for package in PACKAGES for item in public(package)]
FUNCTIONS = [item for item in ALL if inspect.isfunction(item[2])]
CLASSES = [item for item in ALL if inspect.isclass(item[2])]


def ids(items):
    return [f"{package}.{name}" for package, name, _ in items]


@pytest.mark.parametrize("package", PACKAGES)
def test_all_equals_the_documented_names(package):
    module = importlib.import_module(package)
    documented = listed(module)
    assert len(documented) == len(set(documented)), "a name is listed twice"
    exported = {name for _, name, _ in public(package)}
    assert set(documented) == exported, (
        f"listed but not exported: {sorted(set(documented) - exported)}; "
        f"exported but not listed: {sorted(exported - set(documented))}"
    )


@pytest.mark.parametrize(("package", "name", "func"), FUNCTIONS, ids=ids(FUNCTIONS))
def test_numpydoc_sections(package, name, func):
    doc = inspect.getdoc(func) or ""
    missing = [s for s in SECTIONS if not re.search(rf"^{s}\n-+$", doc, flags=re.M)]
    assert not missing, f"{package}.{name} lacks {missing}"


@pytest.mark.parametrize(("package", "name", "func"), FUNCTIONS, ids=ids(FUNCTIONS))
def test_type_hints(package, name, func):
    sig = inspect.signature(func)
    bare = [
        p.name
        for p in sig.parameters.values()
        if p.annotation is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    assert not bare, f"{package}.{name}: parameters without a type hint: {bare}"
    assert sig.return_annotation is not inspect.Signature.empty, f"{package}.{name}: no return type"


@pytest.mark.parametrize(("package", "name", "func"), FUNCTIONS, ids=ids(FUNCTIONS))
def test_vocabulary(package, name, func):
    params = inspect.signature(func).parameters
    old = {p: RETIRED[p] for p in params if p in RETIRED}
    assert not old, f"{package}.{name} uses retired spellings: {old}"


def _classes_in(hint) -> list[type]:
    if inspect.isclass(hint) and getattr(hint, "__module__", "").startswith("sotalib"):
        return [hint]
    return [c for arg in typing.get_args(hint) for c in _classes_in(arg)]


@pytest.mark.parametrize(("package", "name", "func"), FUNCTIONS, ids=ids(FUNCTIONS))
def test_returned_types_are_public_results(package, name, func):
    hints = typing.get_type_hints(func)
    module = importlib.import_module(package)
    for cls in _classes_in(hints.get("return")):
        assert cls.__name__ in module.__all__, f"{package}.{name} returns {cls.__name__}, not importable from {package}"
        assert issubclass(cls, Result), f"{cls.__name__} does not inherit sotalib._result.Result"


@pytest.mark.parametrize(("package", "name", "cls"), CLASSES, ids=ids(CLASSES))
def test_public_classes_are_frozen_dataclasses(package, name, cls):
    assert dataclasses.is_dataclass(cls), f"{package}.{name} is not a dataclass"
    assert cls.__dataclass_params__.frozen, f"{package}.{name} is not frozen"
    doc = inspect.getdoc(cls) or ""
    assert re.search(r"^Attributes\n-+$", doc, flags=re.M), f"{package}.{name} has no Attributes section"
    if issubclass(cls, Result):
        assert "__repr__" not in vars(cls), f"{package}.{name}: declare with repr=False to use Result's repr"


def _doctests():
    seen = set()
    for package, name, obj in FUNCTIONS:
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield pytest.param(package, name, obj, id=f"{package}.{name}")


@pytest.mark.parametrize(("package", "name", "obj"), list(_doctests()))
def test_examples_run(package, name, obj):
    finder = doctest.DocTestFinder(recurse=False)
    tests = [t for t in finder.find(obj, f"{package}.{name}", globs={}) if t.examples]
    assert tests, f"{package}.{name} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for t in tests:
            runner.run(t)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{package}.{name}: {result.failed} example(s) failed (run pytest -s to see them)"


def test_py_typed_ships():
    from importlib.resources import files

    assert files("sotalib").joinpath("py.typed").is_file()


# ---------------------------------------------------------------------------------------------------------------
# consistency and judging: the vocabulary of "help(sotalib)" kept parameter by parameter and field by field

CJ_PACKAGES = ("sotalib.consistency", "sotalib.judging")
CJ_FUNCTIONS = [item for item in FUNCTIONS if item[0] in CJ_PACKAGES]
CJ_CLASSES = [item for item in CLASSES if item[0] in CJ_PACKAGES]

#: The data of the functions whose data is more than their first parameter (the experiment, in the
#: notation's order, then the scores): these may be positional, every other parameter is keyword-only.
#: A function not listed takes one positional argument, its data.
POSITIONAL = {
    "aggregate_scores": ("folds", "counts"),
    "all_scores": ("tp", "tn", "p", "n"),
    "check_mos": ("folds", "scores"),
    "check_mos_kfold": ("p", "n", "k", "scores"),
    "check_multiclass": ("classes", "scores"),
    "check_n_datasets": ("datasets", "scores"),
    "check_regression": ("n", "scores"),
    "check_report": ("p", "n", "scores"),
    "check_single": ("p", "n", "scores"),
    "check_som": ("folds", "scores"),
    "count_configurations": ("p", "n", "k"),
    "diagnose": ("p", "n", "scores"),
    "diagnose_mos": ("folds", "scores"),
    "diagnose_multiclass": ("classes", "scores"),
    "kfold_configurations": ("p", "n", "k"),
    "power_typo": ("p", "n", "decimals"),
    "regression_scores": ("y_true", "y_pred"),
    "search_configurations": ("configurations", "scores"),
    "stratified_class_folds": ("classes", "k"),
    "stratified_folds": ("p", "n", "k"),
    "achieved_precision": ("n", "error"),
    "bayesian_signed_rank": ("a", "b"),
    "boosting_attack": ("n_public", "n_private"),
    "bootstrap_coverage": ("theta", "n"),
    "bootstrap_interval": ("metric", "arrays"),
    "bradley_terry": ("a", "b", "winner"),
    "nemenyi_cd": ("m", "N"),
    "paired_bootstrap": ("metric", "y_true", "pred_a", "pred_b"),
    "property_table": (),
    "rank_candidates": ("scores", "method"),  # the rule is part of the question: rank_candidates(M, "copeland")
    "ranking_stability": ("correct", "sizes"),
    "search_counterexample": ("function", "prop"),
    "simulate_final_phase": ("thetas", "n_dev", "n_final"),
    "simulate_public_private": ("m", "n_public", "n_private"),
    "variance_decomposition": ("values", "groups"),
    "winner_distribution_exact": ("thetas", "n"),
}
#: ``k`` is the number of folds, and only that (``m`` candidates, ``n_submissions`` submissions, ``z`` a z value).
K_IS_FOLDS = {
    "check_mos_kfold",
    "check_multiclass",
    "check_report",
    "count_configurations",
    "kfold_configurations",
    "power_oversampling",
    "stratified_class_folds",
    "stratified_folds",
}
#: Names the vocabulary retired in consistency and judging, with what replaced them.
CJ_RETIRED = {
    **RETIRED,
    "n_simulations": "n_resamples (or n_datasets: simulated test sets, each resampled)",
    "n_null": "n_resamples",
    "trials": "n_resamples",
    "n_samples": "n_resamples",
    "samples": "n_resamples",
    "n_reps": "n_resamples",
    "sem": "se",
    "teams": "m",
    "mu": "error",
    "sigma": "sd",
}
#: One default number of resamples per kind: 1,000 bootstrap resamples, 10,000 Monte Carlo replications;
#: these functions state another, each replication being expensive (an exact test, an integer program) or
#: the number being a search budget rather than a resample count.
N_RESAMPLES_DEFAULTS = (1_000, 10_000)
N_RESAMPLES_OTHER = {
    "power_oversampling": 200,  # an integer program per replication
    "search_counterexample": 2_000,  # random instances: a search budget
    "property_table": 2_000,
    "rank_sd_by_granularity": 200,
    "ranking_stability": 500,
}
#: Field names the vocabulary retired in result classes.
CJ_RETIRED_FIELDS = {
    "sem": "se",
    "solutions": "evidence",
    "solution": "evidence",
    "trials": "n_resamples",
    "n_simulations": "n_datasets",
    "reps": "n_resamples",
    "k": "m (candidates) -- k is the folds",
    "method": "engine (how a verdict was computed)",
    "methods": "engines",
}
#: Fields that keep a retired spelling because they mean something else there.
CJ_FIELD_EXCEPTIONS = {
    ("Aggregation", "method"),  # the ranking rule, as rank_candidates(method=...)
    ("BootstrapInterval", "method"),  # the interval: percentile or BCa (scipy.stats.bootstrap's method)
    ("PairedComparison", "method"),
    ("Coverage", "method"),
}
#: The verdicts of the consistency tests: each exposes ``evidence`` (and no other name for it).
VERDICTS = (
    "ReportVerdict",
    "SingleResult",
    "MosResult",
    "KFoldMosResult",
    "MulticlassResult",
    "RegressionResult",
    "TwoLevelResult",
)


@pytest.mark.parametrize(("package", "name", "func"), CJ_FUNCTIONS, ids=ids(CJ_FUNCTIONS))
def test_options_after_the_data_are_keyword_only(package, name, func):
    params = inspect.signature(func).parameters.values()
    positional = tuple(p.name for p in params if p.kind is not p.KEYWORD_ONLY and p.kind is not p.VAR_KEYWORD)
    want = POSITIONAL.get(name, positional[:1])
    assert positional == want, f"{package}.{name}: positional {positional}, the data is {want}"


@pytest.mark.parametrize(("package", "name", "func"), CJ_FUNCTIONS, ids=ids(CJ_FUNCTIONS))
def test_consistency_and_judging_speak_the_vocabulary(package, name, func):
    params = inspect.signature(func).parameters
    old = {p: CJ_RETIRED[p] for p in params if p in CJ_RETIRED}
    assert not old, f"{package}.{name} uses retired spellings: {old}"
    assert "k" not in params or name in K_IS_FOLDS, f"{package}.{name}: k is the number of folds only"
    assert "confidence" not in params and not any(p.startswith("n_sim") for p in params)
    if "n_resamples" in params:
        default = params["n_resamples"].default
        assert default in N_RESAMPLES_DEFAULTS or N_RESAMPLES_OTHER.get(name) == default, (
            f"{package}.{name}: n_resamples={default}; the defaults are {N_RESAMPLES_DEFAULTS} or stated"
        )
    if name in ("kemeny_young", "check_multiclass"):  # how a number is computed is the engine
        assert "engine" in params and "method" not in params


@pytest.mark.parametrize(("package", "name", "cls"), CJ_CLASSES, ids=ids(CJ_CLASSES))
def test_result_fields_speak_the_vocabulary(package, name, cls):
    fields = {f.name for f in dataclasses.fields(cls)} | {n for n, v in vars(cls).items() if isinstance(v, property)}
    old = {f: CJ_RETIRED_FIELDS[f] for f in fields if f in CJ_RETIRED_FIELDS and (name, f) not in CJ_FIELD_EXCEPTIONS}
    assert not old, f"{package}.{name} has retired field names: {old}"
    if name in VERDICTS:
        assert "evidence" in fields, f"{package}.{name}: a consistency verdict exposes evidence"


def test_the_one_test_set_size_and_the_own_result_classes():
    import sotalib.judging as j

    assert not hasattr(j, "guyon_size") and not hasattr(j, "rule_of_thumb_size")  # estimate_test_size is the one
    hints = {name: typing.get_type_hints(getattr(j, name))["return"] for name in ("bradley_terry", "boosting_attack")}
    assert hints == {"bradley_terry": j.BradleyTerry, "boosting_attack": j.BoostingAttack}
    assert "se" in {f.name for f in dataclasses.fields(j.ErrorBars)}
