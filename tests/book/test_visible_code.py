"""Code copied from a page runs: each chapter's visible cells, alone, in a fresh kernel.

A reader copies the code a page shows into a new notebook.  This test keeps only the cells
the page shows (every code cell without the ``remove-cell`` or ``remove-input`` tag: the
hidden cells hold only presentation -- glue for the prose, captions, figure drawing), runs
them in order in a fresh ``python3`` kernel started in ``notebooks/`` (as JupyterLab starts
it), and requires that none raises or writes to standard error, that every cell ending in an
expression shows its value and that every cell that prints shows what it printed.  The book
build executes each chapter whole; with this test CI executes each chapter at most twice.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from .test_book import toc_files

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parents[2]
HIDDEN = {"remove-cell", "remove-input"}


def chapters() -> list[str]:
    return [f for f in toc_files(ROOT) if f.startswith("notebooks/")]


def visible_cells(nb) -> list:
    """The code cells a page shows, in order (a hidden input is not shown, so not copied)."""
    return [c for c in nb.cells if c.cell_type == "code" and not set(c.metadata.get("tags", [])) & HIDDEN]


def _ends_with_expression(source: str) -> bool:
    lines = [ln for ln in source.rstrip().splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines or lines[-1].rstrip().endswith(";"):
        return False
    try:
        body = ast.parse(source).body
    except SyntaxError:  # IPython syntax (magics): not ours to judge
        return False
    return bool(body) and isinstance(body[-1], ast.Expr) and not _is_print(body[-1].value)


def _is_print(node) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"


def _prints(source: str) -> bool:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    return any(_is_print(node) for node in ast.walk(tree))


def test_the_first_visible_cell_holds_the_imports():
    jupytext = pytest.importorskip("jupytext")
    for chapter in chapters():
        cells = visible_cells(jupytext.read(ROOT / f"{chapter}.md"))
        assert cells, f"{chapter}: no visible code"
        body = ast.parse(cells[0].source).body
        assert body and all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in body), (
            f"{chapter}: the first visible cell should hold only the imports the page's code uses"
        )


@pytest.mark.parametrize("chapter", chapters())
def test_visible_cells_run_alone_in_a_fresh_kernel(chapter, monkeypatch):
    jupytext = pytest.importorskip("jupytext")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the inline backend, as in JupyterLab
    monkeypatch.setenv("NUMBA_CACHE_DIR", os.environ.get("NUMBA_CACHE_DIR", str(ROOT / "_build" / "numba-cache")))
    nb = jupytext.read(ROOT / f"{chapter}.md")
    nb.cells = visible_cells(nb)
    client = nbclient.NotebookClient(
        nb,
        timeout=1800,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(ROOT / "notebooks")}},
    )
    client.execute()

    problems = []
    for i, cell in enumerate(nb.cells):
        first = cell.source.strip().splitlines()[0][:60] if cell.source.strip() else ""
        where = f"{chapter} visible cell {i + 1} ({first!r})"
        outputs = cell.get("outputs", [])
        for out in outputs:
            if out.output_type == "error":
                problems.append(f"{where}: raised {out.ename}: {out.evalue[:200]}")
            if out.output_type == "stream" and out.name == "stderr" and out.text.strip():
                problems.append(f"{where}: wrote to stderr: {out.text.strip()[:200]}")
        if "remove-output" in cell.metadata.get("tags", []):
            continue
        streams = "".join(out.text for out in outputs if out.output_type == "stream")
        if _ends_with_expression(cell.source) and not any(
            out.output_type in ("execute_result", "display_data") for out in outputs
        ):
            problems.append(f"{where}: ends with an expression but shows nothing")
        if _prints(cell.source) and not streams.strip():
            problems.append(f"{where}: prints nothing")
    assert not problems, "\n".join(problems)
