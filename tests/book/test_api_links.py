"""A chapter links the API reference for every public function its code uses.

Where a function of the public API first appears in a chapter, the prose links its
reference page ({py:func}`~sotalib.multiplicity.prob_at_least`), so a reader can look up
its parameters.  This test finds the public names each chapter's visible code calls and
requires a link to each in the chapter's prose, no later than the first code cell that
uses it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import sotalib

from .test_book import toc_files
from .test_visible_code import visible_cells

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("sotalib", "sotalib.multiplicity", "sotalib.consistency", "sotalib.judging")


def public_functions() -> dict[str, str]:
    """Public callable name -> its documented full name (the first package that exports it)."""
    import importlib

    out: dict[str, str] = {}
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not isinstance(obj, type) and name not in out:
                out[name] = f"{package}.{name}"
    return out


def called_names(source: str) -> set[str]:
    """Names called in ``source``: ``f(...)``, ``sl.f(...)``, ``A.f(...)`` give ``f``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name):
                names.add(f.id)
            elif isinstance(f, ast.Attribute):
                names.add(f.attr)
    return names


def chapters() -> list[str]:
    return [f for f in toc_files(ROOT) if f.startswith("notebooks/")]


@pytest.mark.parametrize("chapter", chapters())
def test_public_functions_are_linked_where_they_first_appear(chapter):
    jupytext = pytest.importorskip("jupytext")
    functions = public_functions()
    nb = jupytext.read(ROOT / f"{chapter}.md")
    shown = {id(c) for c in visible_cells(nb)}
    linked: set[str] = set()
    missing = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for target in re.findall(r"\{py:(?:func|class|meth)\}`~?([\w.]+)`", cell.source):
                linked.add(target.rsplit(".", 1)[-1])
        elif id(cell) in shown:
            for name in sorted(called_names(cell.source) & set(functions)):
                if name not in linked:
                    missing.append(f"{name} (link {{py:func}}`~{functions[name]}`)")
                    linked.add(name)  # report once
    assert not missing, f"{chapter}: public functions used before a link to their reference: " + ", ".join(missing)


def test_the_finder_finds_calls():
    assert {"estimate_sota", "possible_n", "print"} <= called_names(
        "e = sl.estimate_sota(x, 3)\nprint(possible_n(x, 5, r))"
    )
    assert "estimate_sota" in public_functions()
    assert public_functions()["estimate_sota"] == "sotalib.estimate_sota"
    assert sotalib.estimate_sota is not None
