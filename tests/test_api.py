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


# ----------------------------------------------------------------------------------------------------------------
# The vocabulary, rule by rule (the "One vocabulary" section of ``help(sotalib)``).
#
# Each rule is a function ``(qualified name, object) -> list of violations`` in FUNCTION_RULES (for public
# functions) or CLASS_RULES (for public result classes); the tests below run every rule on every public name of
# the packages in VOCABULARY_SCOPE.  To hold another subpackage to the vocabulary, add it to VOCABULARY_SCOPE;
# to add a rule, write its function and list it.  A known gap that another change closes is listed in
# KNOWN_GAPS with the change that closes it, never silently.
# ----------------------------------------------------------------------------------------------------------------
from sotalib._distribution import ENGINES, DistributionSummary  # noqa: E402  # private: the shared base and values

#: The packages whose public names follow every rule ("sotalib" is the front door, whatever subpackage defines it).
VOCABULARY_SCOPE = ["sotalib", "sotalib.multiplicity"]

#: Names that are options wherever they appear, hence keyword-only (a model's quantities, ``rho`` or
#: ``prevalence``, are data where a formula takes them in the notation's order).
OPTION_NAMES = {
    "alpha", "engine", "method", "n_resamples", "rng", "progress", "lower_is_better", "z", "metric", "target",
    "scale", "score_column",
}  # fmt: skip

#: Parameters with a default that are data, not options, and so may stay positional: ``(function, parameter)``.
DATA_WITH_DEFAULT = {
    ("rank_candidates", "method"): "the rule is part of the question: rank_candidates(M, 'copeland')",
    ("estimate_sota", "n"): "the test-set size, None when the scores carry it (a Leaderboard or per-item results)",
    ("estimate_test_size", "error"): "the error rate; None when difference asks for the items of two models",
    ("check_report", "p"): "the experiment (p, n) or scores, any of which a dataset name may give instead",
    ("check_report", "n"): "the experiment (p, n) or scores, any of which a dataset name may give instead",
    ("check_report", "scores"): "the experiment (p, n) or scores, any of which a dataset name may give instead",
    # the parameters of a formula, positional as those of scipy.special and scipy.stats distributions
    ("binormal_auc", "mu_neg"): "a formula's parameter",
    ("binormal_auc", "sigma_pos"): "a formula's parameter",
    ("binormal_auc", "sigma_neg"): "a formula's parameter",
    ("binormal_mu_pos", "mu_neg"): "a formula's parameter",
    ("binormal_mu_pos", "sigma_pos"): "a formula's parameter",
    ("binormal_mu_pos", "sigma_neg"): "a formula's parameter",
    ("binormal_roc", "sigma_pos"): "a formula's parameter",
    ("binormal_roc", "sigma_neg"): "a formula's parameter",
    ("auc_variance", "sigma_pos"): "a formula's parameter",
    ("auc_variance", "sigma_neg"): "a formula's parameter",
}

#: Parameter and field names the vocabulary retired, with their replacement.
RETIRED_NAMES = {
    **RETIRED,
    "n_simulations": "n_resamples",
    "n_sim": "n_resamples",
    "trials": "n_resamples",
    "proposals": "n_resamples",
    "n_bootstrap": "n_resamples",
    "sem": "se",
    "std": "sd",
    "n_classifiers": "m",
    "n_candidates": "m",
    "n_teams": "m",
}
#: Field names a result keeps although a parameter of that name is retired: the int seed a result records.
RETIRED_FIELDS_ALLOWED = {"seed"}

#: Values that say how a number was computed: the engine's, never a method's (``"mc"`` is the retired spelling
#: of ``"simulate"``).
ENGINE_WORDS = set(ENGINES) | {"mc"}
#: Exact engines named by their solver, where the library has several (the vocabulary says so).
EXACT_SOLVERS = {"exhaustive", "search", "ilp"}

#: The defaults of ``n_resamples`` by kind, as the vocabulary states them; "estimator" means None, the
#: estimator's own default, stated where the estimator is chosen.
N_RESAMPLES_DEFAULTS = {"distribution": 10_000, "auc": 1_000, "bootstrap": 1_000, "estimator": None}
#: The kind of each function's resamples (a new function with ``n_resamples`` must say which kind it draws).
N_RESAMPLES_KIND = {
    "summarize_max": "distribution",
    "simulate_max": "distribution",
    "simulate_iid_max": "distribution",
    "simulate_iid_max_counts": "distribution",
    "summarize_max_difference": "distribution",
    "summarize_max_auc": "auc",
    "simulate_auc": "auc",
    "simulate_max_auc": "auc",
    "auc_distribution": "auc",
    "estimate_dependence": "bootstrap",
    "estimate_rank_uncertainty": "bootstrap",
    "estimate_sota": "estimator",
}

#: Known gaps, each closed by another change of issue 32: ``(qualified name, rule) -> the change``.
KNOWN_GAPS: dict[tuple[str, str], str] = {}


def _entry(doc: str, name: str) -> str:
    """The numpydoc entry of ``name`` (its ``name : type`` line and description), or ""."""
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        head, sep, _ = line.partition(" : ")
        if sep and name in [h.strip() for h in head.split(",")] and not line.startswith(" "):
            body = [line]
            for more in lines[i + 1 :]:
                if more and not more.startswith(" "):
                    break
                body.append(more)
            return "\n".join(body)
    return ""


def _quoted(text: str) -> set[str]:
    return set(re.findall(r"[\"']([A-Za-z_-]+)[\"']", text))


def options_keyword_only(qualname: str, func) -> list[str]:
    short = qualname.rsplit(".", 1)[-1]
    out = []
    for p in inspect.signature(func).parameters.values():
        if p.kind in (p.KEYWORD_ONLY, p.VAR_POSITIONAL, p.VAR_KEYWORD) or (short, p.name) in DATA_WITH_DEFAULT:
            continue
        if p.default is not p.empty or p.name in OPTION_NAMES:
            out.append(f"{p.name} is an option and must be keyword-only (after the data and a bare *)")
    return out


def retired_parameter_names(_qualname: str, func) -> list[str]:
    params = inspect.signature(func).parameters
    return [f"parameter {p} is a retired spelling of {RETIRED_NAMES[p]}" for p in params if p in RETIRED_NAMES] + [
        f"parameter {p}: k is for folds only (m for candidates, z for a z value)" for p in params if p in ("ks",)
    ]


def engine_values(_qualname: str, func) -> list[str]:
    params = inspect.signature(func).parameters
    if "engine" not in params:
        return []
    out = []
    default = params["engine"].default
    if default != "auto":
        out.append(f'engine defaults to {default!r}, not "auto"')
    entry = _entry(inspect.getdoc(func) or "", "engine")
    documented = _quoted(entry.splitlines()[0]) if entry else set()
    if not documented:
        out.append("engine's values are not documented as {...} in its Parameters entry")
    elif not documented <= set(ENGINES) | EXACT_SOLVERS or default not in documented:
        out.append(f"engine's documented values {sorted(documented)} are not among {ENGINES} with the default")
    return out


def method_is_not_an_engine(_qualname: str, func) -> list[str]:
    if "method" not in inspect.signature(func).parameters:
        return []
    words = _quoted(_entry(inspect.getdoc(func) or "", "method")) & ENGINE_WORDS
    return [f"method= takes engine values {sorted(words)}: call it engine="] if words else []


def n_resamples_default(qualname: str, func) -> list[str]:
    params = inspect.signature(func).parameters
    if "n_resamples" not in params:
        return []
    short = qualname.rsplit(".", 1)[-1]
    if short not in N_RESAMPLES_KIND:
        return [f"n_resamples: say which kind {sorted(N_RESAMPLES_DEFAULTS)} in N_RESAMPLES_KIND"]
    kind = N_RESAMPLES_KIND[short]
    default = params["n_resamples"].default
    want = N_RESAMPLES_DEFAULTS[kind]
    if default is params["n_resamples"].empty or default != want:
        return [f"n_resamples defaults to {default!r}; the vocabulary's default for {kind} is {want!r}"]
    return []


def retired_field_names(_qualname: str, cls) -> list[str]:
    names = [f.name for f in dataclasses.fields(cls)]
    return [
        f"field {f} is a retired spelling of {RETIRED_NAMES[f]}"
        for f in names
        if f in RETIRED_NAMES and f not in RETIRED_FIELDS_ALLOWED
    ]


def method_field_is_not_an_engine(_qualname: str, cls) -> list[str]:
    if "method" not in {f.name for f in dataclasses.fields(cls)}:
        return []
    words = _quoted(_entry(inspect.getdoc(cls) or "", "method")) & ENGINE_WORDS
    return [f"field method holds engine values {sorted(words)}: call it engine"] if words else []


def engine_field_values(_qualname: str, cls) -> list[str]:
    if "engine" not in {f.name for f in dataclasses.fields(cls)}:
        return []
    words = _quoted(_entry(inspect.getdoc(cls) or "", "engine"))
    if not words or not words <= set(ENGINES) | EXACT_SOLVERS:
        return [f"field engine documents {sorted(words)}, not values among {ENGINES}"]
    return []


def distribution_summaries_share_the_base(_qualname: str, cls) -> list[str]:
    names = {f.name for f in dataclasses.fields(cls)}
    if {"mean", "sd"} <= names and ({"ci_low", "ci_high"} <= names or "interval" in names):
        if not issubclass(cls, DistributionSummary):
            return ["a summary of a distribution: inherit sotalib._distribution.DistributionSummary"]
    return []


FUNCTION_RULES = [options_keyword_only, retired_parameter_names, engine_values, method_is_not_an_engine]
FUNCTION_RULES += [n_resamples_default]
CLASS_RULES = [retired_field_names, method_field_is_not_an_engine, engine_field_values]
CLASS_RULES += [distribution_summaries_share_the_base]

_SCOPED = [item for package in VOCABULARY_SCOPE for item in public(package)]
SCOPED_FUNCTIONS = [(f"{p}.{n}", obj) for p, n, obj in _SCOPED if inspect.isfunction(obj)]
SCOPED_CLASSES = [(f"{p}.{n}", obj) for p, n, obj in _SCOPED if inspect.isclass(obj) and dataclasses.is_dataclass(obj)]


def _check(rules, qualname, obj):
    found = []
    for rule in rules:
        if (qualname, rule.__name__) in KNOWN_GAPS:
            continue
        found += [f"{qualname}: {v} [{rule.__name__}]" for v in rule(qualname, obj)]
    return found


@pytest.mark.parametrize(("qualname", "rule"), sorted(KNOWN_GAPS), ids=[f"{q}-{r}" for q, r in sorted(KNOWN_GAPS)])
def test_every_known_gap_is_still_a_gap(qualname, rule):
    """A gap that a change closed leaves KNOWN_GAPS with it: the list never hides a rule that now holds."""
    obj = dict(SCOPED_FUNCTIONS + SCOPED_CLASSES)[qualname]
    check = {r.__name__: r for r in FUNCTION_RULES + CLASS_RULES}[rule]
    assert check(qualname, obj), f"{qualname} now follows {rule}: take it off KNOWN_GAPS"


@pytest.mark.parametrize(("qualname", "func"), SCOPED_FUNCTIONS, ids=[q for q, _ in SCOPED_FUNCTIONS])
def test_function_follows_the_vocabulary(qualname, func):
    found = _check(FUNCTION_RULES, qualname, func)
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("qualname", "cls"), SCOPED_CLASSES, ids=[q for q, _ in SCOPED_CLASSES])
def test_result_fields_follow_the_vocabulary(qualname, cls):
    found = _check(CLASS_RULES, qualname, cls)
    assert not found, "\n".join(found)


def test_the_distribution_summaries_share_one_set_of_fields():
    import sotalib.multiplicity as mult
    from sotalib.multiplicity._auc_normal import NormalMaxAUC  # private: the normal engine's result
    from sotalib.multiplicity._auc_simulate import MaxAUCSummary  # private: the simulation's result

    base = [f.name for f in dataclasses.fields(DistributionSummary)]
    assert base == ["mean", "sd", "ci_low", "ci_high", "alpha", "engine", "n_resamples", "se_mean", "seed"]
    for cls in (mult.MaxSummary, mult.MaxDifference, mult.Summary, MaxAUCSummary, NormalMaxAUC):
        assert issubclass(cls, DistributionSummary), cls
        assert [f.name for f in dataclasses.fields(cls)][: len(base)] == base, cls
        assert "method" not in {f.name for f in dataclasses.fields(cls)} and "reps" not in {
            f.name for f in dataclasses.fields(cls)
        }, cls


def test_the_vocabulary_states_the_defaults_of_n_resamples():
    import sotalib

    entry = sotalib.__doc__.split("``n_resamples=``", 1)[1].split("\n``", 1)[0]
    for kind, default in N_RESAMPLES_DEFAULTS.items():
        if default is not None:
            assert f"``{default:_}``" in entry, f"the vocabulary does not state {default:_} ({kind})"
    assert "None" in entry  # the estimators' own


def test_the_rules_catch_what_they_are_for():
    """Each rule fails on a function or class made to break it (a rule that cannot fail checks nothing)."""

    def bad(data, n_resamples: int = 5, *, engine: str = "exact", reps: int = 1, method: str = "mc"):
        """Bad.

        Parameters
        ----------
        engine : {"exact", "fast"}
            How.
        method : {"exact", "mc"}
            Which.
        """

    assert options_keyword_only("x.bad", bad)
    assert retired_parameter_names("x.bad", bad)
    assert len(engine_values("x.bad", bad)) == 2
    assert method_is_not_an_engine("x.bad", bad)
    assert n_resamples_default("x.bad", bad)

    @dataclasses.dataclass(frozen=True)
    class Bad(Result):
        """Bad.

        Attributes
        ----------
        method : str
            ``"exact"`` or ``"mc"``.
        """

        mean: float
        sd: float
        ci_low: float
        ci_high: float
        method: str
        sem: float

    assert retired_field_names("x.Bad", Bad)
    assert method_field_is_not_an_engine("x.Bad", Bad)
    assert distribution_summaries_share_the_base("x.Bad", Bad)


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
CJ_N_RESAMPLES_DEFAULTS = (1_000, 10_000)
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
        assert default in CJ_N_RESAMPLES_DEFAULTS or N_RESAMPLES_OTHER.get(name) == default, (
            f"{package}.{name}: n_resamples={default}; the defaults are {CJ_N_RESAMPLES_DEFAULTS} or stated"
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
