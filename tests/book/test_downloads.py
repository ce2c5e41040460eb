"""The downloaded notebooks (each chapter's executed ``.ipynb``) read as the pages do.

Their Markdown holds no MyST syntax, and states the numbers its page states: every number of the
page's prose is in the notebook's Markdown, and the notebook's Markdown states no number the page
does not show.  Built once per test run (the ``built`` fixture of ``conftest.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .test_book import toc_files
from .test_myst_markdown import LEFTOVER

pytestmark = pytest.mark.book

# 3,556 and 0.9159 and 2025; digits inside maths too (50{,}000 gives 50 and 000 on both sides)
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
GLUE_KEY = re.compile(r"\{glue(?::\w*)?\}`([^`:]+)")


def chapters(root: Path) -> list[str]:
    return [f for f in toc_files(root) if f.startswith("notebooks/")]


def notebook(built: Path, page: str):
    import nbformat

    return nbformat.read(built / "_sources" / f"{page}.ipynb", as_version=4)


def markdown_of(nb) -> str:
    """The notebook's Markdown, images left out (their alt text and file names are not the page's text)."""
    text = "\n\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
    return re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)


def page_article(built: Path, page: str):
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((built / f"{page}.html").read_text(encoding="utf-8"), "html.parser")
    return soup.find("article") or soup


def prose_paragraphs(article) -> list[str]:
    """The text of the page's prose: paragraphs and list items outside code cells and their outputs."""
    texts = []
    for element in article.find_all(["p", "li", "dd"]):
        if element.find_parent("div", class_=lambda c: c and ("cell" in c.split() or "output" in c.split())):
            continue
        if element.find_parent(["nav", "table", "figcaption", "caption"]):
            continue
        texts.append(element.get_text(" "))
    return texts


@pytest.mark.parametrize("part", ["markdown", "outputs"])
def test_downloads_hold_no_myst_syntax(built, root, part):
    problems = []
    for page in chapters(root):
        nb = notebook(built, page)
        for i, cell in enumerate(nb.cells):
            if part == "markdown" and cell.cell_type == "markdown":
                problems += [f"{page} cell {i}: {m.group(0)!r}" for m in LEFTOVER.finditer(cell.source)]
            for output in cell.get("outputs", []) if part == "outputs" else []:
                data = output.get("data", {})
                if LEFTOVER.search(data.get("text/markdown", "")):
                    problems.append(f"{page} cell {i}: MyST in a Markdown output")
                if "<b>Table</b> (" in data.get("text/html", "") or data.get("text/plain", "").startswith("Table ("):
                    problems.append(f"{page} cell {i}: a table captioned by its label, not its number")
                if any(mime.startswith("application/papermill.record/") for mime in data):
                    problems.append(f"{page} cell {i}: a glue record JupyterLab cannot show")
    assert not problems, "\n".join(problems[:20])


def test_downloads_state_every_number_of_their_page(built, root):
    problems = []
    for page in chapters(root):
        markdown = markdown_of(notebook(built, page))
        numbers = set(NUMBER.findall(markdown))
        missing = set()
        for paragraph in prose_paragraphs(page_article(built, page)):
            missing |= set(NUMBER.findall(paragraph)) - numbers
        if missing:
            problems.append(f"{page}: the page states {sorted(missing)[:12]} that its notebook's Markdown does not")
    assert not problems, "\n".join(problems)


def test_downloads_state_no_number_their_page_does_not(built, root):
    problems = []
    for page in chapters(root):
        article = page_article(built, page)
        shown = set(NUMBER.findall(article.get_text(" ")))
        extra = set(NUMBER.findall(markdown_of(notebook(built, page)))) - shown
        if extra:
            problems.append(f"{page}: the notebook states {sorted(extra)[:12]} that the page does not show")
    assert not problems, "\n".join(problems)


def test_downloads_resolve_every_glue_key(built, root):
    """No glued value is left unresolved (shown as ``[key]``)."""
    problems = []
    for page in chapters(root):
        keys = set(GLUE_KEY.findall((root / f"{page}.md").read_text(encoding="utf-8")))
        markdown = markdown_of(notebook(built, page))
        problems += [f"{page}: [{key}]" for key in sorted(keys) if f"[{key}]" in markdown]
        assert keys, f"{page}: no glued number (the test reads the chapter's source)"
    assert not problems, "\n".join(problems)


def test_downloads_number_tables_and_fold_removed_cells(built, root):
    """Every table output says "Table N.M." in each form, and the cells the book removes are folded."""
    tables = 0
    for page in chapters(root):
        nb = notebook(built, page)
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            if "remove-cell" in cell.metadata.get("tags", []):
                assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, page
            for output in cell.get("outputs", []):
                html = output.get("data", {}).get("text/html", "")
                if 'class="sotalib-table"' in html:
                    tables += 1
                    assert re.search(r"<caption[^>]*><b>Table \d+\.\d+\.</b>", html), (page, html[:200])
                    assert re.match(r"\*\*Table \d+\.\d+\.\*\* ", output["data"]["text/markdown"]), page
                    assert re.match(r"Table \d+\.\d+\. ", output["data"]["text/plain"]), page
    assert tables > 10
