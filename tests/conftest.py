"""Shared pytest configuration: hypothesis profiles and the repository root."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

# Deterministic property tests in CI; no per-example deadline (Numba compiles on first use).
settings.register_profile(
    "ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


def _modules_reading_the_book() -> frozenset[str]:
    """Test modules (paths as in node ids) with a test or fixture taking the built book (``built``)."""
    found = set()
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(a.arg == "built" for a in node.args.args):
                found.add(path.relative_to(ROOT).as_posix())
                break
    return frozenset(found)


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: pytest without xdist ignores it
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` (``make test``): the tests reading the built book in one group, the others one by one.

    The book group is sent first to one worker, which builds the book (about half of CI's time) while the
    other workers take the remaining tests one at a time; a second worker never waits on the build's lock.
    pytest-xdist 3.8 groups by renaming node ids, which pytest 9.2 no longer allows, so the group is made here.
    """
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    book = _modules_reading_the_book()

    class BookFirst(LoadScopeScheduling):
        # the largest group is scheduled first (--loadscope-reorder, the default): every other test is its own
        def _split_scope(self, nodeid: str) -> str:
            return "book" if nodeid.split("::", 1)[0] in book else nodeid

    return BookFirst(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The chapters' visible code (a fresh kernel each) runs last.

    Under ``make test`` the book build, on another worker, executes the same chapters from the start of the
    run; by the time the visible code runs, the build and the other tests have compiled and cached (in
    ``NUMBA_CACHE_DIR``) the Numba kernels the chapters use, instead of compiling them beside it.
    """
    items.sort(key=lambda item: item.nodeid.startswith("tests/book/test_visible_code.py"))
