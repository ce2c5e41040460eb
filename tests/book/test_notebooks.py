"""Every chapter runs top to bottom in a plain Jupyter kernel, as JupyterLab runs it, and shows its results.

The book executes the chapters through MyST-NB; a reader runs them in JupyterLab.  This test runs
each chapter's ``.md`` (read by Jupytext, as JupyterLab's Jupytext does) with nbclient in a
``python3`` kernel started in ``notebooks/``, then checks the cells a reader sees:

* a cell that draws a figure (``mystnb: figure`` metadata) shows an image;
* a cell that ends with an expression (a table, a summary) shows its value;
* a cell that prints shows what it printed;
* no cell raises or writes to stderr;
* every chapter shows at least one result.
"""

from __future__ import annotations

import ast
import os

import pytest

from .test_book import toc_files

pytestmark = pytest.mark.book


def chapters(root) -> list[str]:
    return [f for f in toc_files(root) if f.startswith("notebooks/")]


def _root():
    from pathlib import Path

    return Path(__file__).resolve().parents[2]


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


@pytest.fixture(scope="module")
def kernel_env():
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # the inline backend, as in JupyterLab
    env.setdefault("NUMBA_CACHE_DIR", str(_root() / "_build" / "numba-cache"))
    return env


@pytest.mark.parametrize("chapter", chapters(_root()))
def test_chapter_runs_in_a_plain_kernel_and_shows_its_results(chapter, root, kernel_env, monkeypatch):
    jupytext = pytest.importorskip("jupytext")
    nbclient = pytest.importorskip("nbclient")
    for key, value in kernel_env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("MPLBACKEND", raising=False)
    nb = jupytext.read(root / f"{chapter}.md")
    client = nbclient.NotebookClient(
        nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(root / "notebooks")}}
    )
    client.execute()

    problems = []
    shown = 0
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        tags = set(cell.metadata.get("tags", []))
        outputs = cell.get("outputs", [])
        where = f"{chapter} cell {i} ({cell.source.strip().splitlines()[0][:60] if cell.source.strip() else ''!r})"
        for out in outputs:
            if out.output_type == "error":
                problems.append(f"{where}: raised {out.ename}")
            if out.output_type == "stream" and out.name == "stderr" and out.text.strip():
                problems.append(f"{where}: wrote to stderr: {out.text.strip()[:200]}")
        if tags & {"remove-cell", "remove-output"}:
            continue
        kinds = {k for out in outputs for k in out.get("data", {})}
        streams = "".join(out.text for out in outputs if out.output_type == "stream")
        figure = (cell.metadata.get("mystnb") or {}).get("figure")
        if figure is not None and not kinds & {"image/png", "image/svg+xml"}:
            problems.append(f"{where}: the figure {figure.get('name')} shows no image")
        if _ends_with_expression(cell.source) and not any(
            out.output_type in ("execute_result", "display_data") for out in outputs
        ):
            problems.append(f"{where}: ends with an expression but shows nothing")
        if _prints(cell.source) and not streams.strip():
            problems.append(f"{where}: prints nothing")
        if outputs and (kinds - {"text/plain"} or streams.strip()):
            shown += 1
    assert not problems, "\n".join(problems)
    assert shown > 0, f"{chapter}: no visible cell shows a result"
