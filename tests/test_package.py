"""The house: the layout of the package, its front door, lazy loading and its caches."""

from __future__ import annotations

import ast
import importlib
import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import sotalib

PKG = Path(sotalib.__file__).resolve().parent
LIBRARY = ("multiplicity", "consistency", "judging", "cli")
SUBPACKAGES = ("multiplicity", "consistency", "judging")


def _imports(path: Path) -> list[str]:
    """Absolute names of the sotalib modules a file imports (relative imports resolved)."""
    mod = ".".join(path.relative_to(PKG.parent).with_suffix("").parts)
    package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
    package = package.removesuffix(".__init__")
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append(name)
            out += [f"{name}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return out


def _library_files():
    files = [p for p in PKG.glob("*.py")]
    for sub in LIBRARY:
        files += sorted((PKG / sub).rglob("*.py"))
    return files


def test_the_library_never_imports_the_book():
    offenders = [
        f"{p.relative_to(PKG)}: {name}"
        for p in _library_files()
        for name in _imports(p)
        if name == "sotalib.book" or name.startswith("sotalib.book.")
    ]
    assert not offenders


def test_every_public_name_resolves_and_private_modules_are_re_exported():
    for name in sotalib.__all__:
        assert getattr(sotalib, name) is not None
    for sub in SUBPACKAGES:
        pkg = importlib.import_module(f"sotalib.{sub}")
        exported = set(pkg.__all__)
        for name in exported:
            assert getattr(pkg, name) is not None, (sub, name)
        for path in sorted((PKG / sub).glob("_*.py")):
            if path.name == "__init__.py":
                continue
            module = importlib.import_module(f"sotalib.{sub}.{path.stem}")
            retired = getattr(pkg.__getattr__, "deprecated", frozenset())
            missing = set(getattr(module, "__all__", ())) - exported - retired
            assert not missing, f"sotalib.{sub}.{path.stem} defines public names not exported: {missing}"


FRONT_DOOR = (
    "summarize_max",
    "summarize_max_auc",
    "estimate_sota",
    "read_leaderboard",
    "check_report",
    "check_batch",
    "check_multiclass",
    "check_regression",
    "estimate_test_size",
    "rank_candidates",
    "compare_candidates",
    "estimate_rank_uncertainty",
)


def test_front_door_names():
    for name in FRONT_DOOR:
        assert callable(getattr(sotalib, name)), name
    assert "book" not in sotalib.__all__


def test_names_deprecated_for_0_5_0_are_gone():
    """0.5.0 removed the former names (one minor version after their renaming); none answers any more."""
    for name in ("max_summary", "expected_max_auc", "test_size", "compare", "rank_uncertainty", "prob_at_least"):
        assert not hasattr(sotalib, name), name
    for name in ("max_summary", "expected_max_auc", "normal_max_auc", "MaxAUCSummary", "shrink", "max_cdf", "RHO0"):
        assert not hasattr(sotalib.multiplicity, name), name


def test_a_level_is_never_read_as_a_z_value():
    """The trap of 0.3: test_size(0.1, confidence=0.95) answered 813 items, reading 0.95 as z."""
    assert sotalib.estimate_test_size(0.1, alpha=0.05).guyon == 3458
    assert not hasattr(sotalib, "test_size")  # removed in 0.6.0


def test_no_name_is_defined_twice_in_a_subpackage():
    for sub in SUBPACKAGES:
        pkg = importlib.import_module(f"sotalib.{sub}")
        assert len(pkg.__all__) == len(set(pkg.__all__))


def _modules_after(code: str) -> list[str]:
    probe = "; ".join(
        [
            code,
            "import sys",
            "print(sorted(m for m in ('numpy', 'scipy', 'numba', 'pandas', 'matplotlib') if m in sys.modules))",
        ]
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1].replace("'", '"'))


def test_import_sotalib_loads_nothing_heavy():
    assert _modules_after("import sotalib") == []


def test_version_is_printed_on_stdout(capsys):
    from sotalib.cli import main

    assert main(["--version"]) == 0
    out, err = capsys.readouterr()
    assert (out, err) == (f"sotalib {sotalib.__version__}\n", "")


def test_help_and_version_load_neither_numpy_scipy_numba_nor_pandas():
    from sotalib.cli import COMMANDS

    calls = [["--help"], ["--version"]] + [[c, "--help"] for c in COMMANDS]
    code = (
        "import contextlib, io\nfrom sotalib.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n"
        + "".join(f"    assert main({c!r}) == 0\n" for c in calls)
    )
    assert _modules_after(f"exec({code!r})") == []


def test_the_front_door_does_not_load_plotting():
    assert "matplotlib" not in _modules_after("import sotalib; sotalib.check_report; sotalib.estimate_sota")


def test_version_has_one_source():
    version = metadata.version("sotalib")
    assert sotalib.__version__ == version
    root = PKG.parent
    if (root / "CITATION.cff").exists():
        cff = (root / "CITATION.cff").read_text()
        assert re.search(rf"^version: {re.escape(version)}$", cff, re.M), "CITATION.cff names another version"
        assert f"## {version}" in (root / "CHANGELOG.md").read_text()


def test_numba_caches_outside_the_package(tmp_path):
    before = {p for p in PKG.rglob("*") if p.is_file()}
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    # one small kernel compiled from cold (every kernel goes through sotalib._numba.njit; check_single's took 80 s)
    code = (
        'from sotalib.judging import rank_candidates; rank_candidates([[1.0, 2.0], [3.0, 4.0]], "relative-difference")'
    )
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    after = {p for p in PKG.rglob("*") if p.is_file()}
    assert not {p for p in after - before if p.suffix in (".nbi", ".nbc")}
    assert list((tmp_path / "sotalib" / "numba").rglob("*.nbi"))


def test_numba_without_any_writable_cache_compiles_and_runs(monkeypatch):
    from sotalib import _numba  # private: the Numba cache's fallback is the subject

    monkeypatch.setattr(_numba, "_writable", lambda _path: False)
    monkeypatch.setattr(_numba.numba.config, "CACHE_DIR", "")
    _numba.cache_dir.cache_clear()
    try:
        assert _numba.cache_dir() is None

        @_numba.njit(cache=True)
        def twice(x):
            return 2 * x

        assert twice(21) == 42
    finally:
        _numba.cache_dir.cache_clear()


def test_rng_accepts_seeds_and_generators_only():
    import numpy as np

    from sotalib._rng import as_generator  # private: the one rng policy every function uses

    assert as_generator(3).integers(1 << 30) == np.random.default_rng(3).integers(1 << 30)
    g = np.random.default_rng(1)
    assert as_generator(g) is g
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ValueError, match="rng"):
            as_generator(bad)
