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
