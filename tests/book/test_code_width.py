"""Every line of the chapters' code fits the book's text column: at most 79 characters (PEP 8).

The book shows each code cell in a column about 77 characters wide on a desktop; a longer line
makes the reader scroll sideways.  The chapters' code is formatted with
``ruff format --line-length 79`` and long strings and comments are wrapped by hand.  This test
only reads the ``.md`` sources: it does not build the book.
"""

from __future__ import annotations

from pathlib import Path

import pytest

MAX_LINE = 79
ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted((ROOT / "notebooks").glob("*.md"))


def code_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every line of code in a MyST notebook's ``{code-cell}`` blocks.

    A cell's options (``:tags: [...]`` lines, or a YAML block between ``---`` lines) are not code.
    """
    lines = text.splitlines()
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```{code-cell}"):
            i += 1
            continue
        i += 1
        if i < len(lines) and lines[i] == "---":
            i += 1
            while i < len(lines) and lines[i] != "---":
                i += 1
            i += 1
        else:
            while i < len(lines) and lines[i].startswith(":"):
                i += 1
        while i < len(lines) and lines[i] != "```":
            out.append((i + 1, lines[i]))
            i += 1
        i += 1
    return out


def test_parser_finds_code_and_skips_cell_options():
    text = "\n".join(
        [
            "# Title",
            "a line of prose " + "x" * 100,
            "```{code-cell} ipython3",
            ":tags: [remove-cell]",
            "x = 1",
            "```",
            "```{code-cell} ipython3",
            "---",
            "mystnb:",
            "  figure:",
            "    caption: " + "y" * 100,
            "---",
            "y = 2",
            "",
            "z = 3",
            "```",
            "```python",
            "not_a_cell = 4",
            "```",
        ]
    )
    assert code_lines(text) == [(5, "x = 1"), (13, "y = 2"), (14, ""), (15, "z = 3")]


def test_every_chapter_has_code():
    assert len(CHAPTERS) >= 10
    for path in CHAPTERS:
        assert code_lines(path.read_text(encoding="utf-8")), path.name


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_code_lines_fit_the_text_column(path):
    too_long = [
        f"notebooks/{path.name}:{n}: {len(line)} characters"
        for n, line in code_lines(path.read_text(encoding="utf-8"))
        if len(line) > MAX_LINE
    ]
    assert not too_long, f"code lines longer than {MAX_LINE} characters:\n" + "\n".join(too_long)


def cell_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every line inside a ``{code-cell}`` block, its options included.

    A figure's caption and alt text live in the cell's YAML options: in the ``.md`` a reader
    opens, and in JupyterLab's cell metadata, they are read at the same width as the code.
    """
    out: list[tuple[int, str]] = []
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```{code-cell}"):
            inside = True
        elif inside and line.startswith("```"):
            inside = False
        elif inside:
            out.append((number, line))
    return out


def test_cell_options_fit_the_column_too():
    long = [
        f"notebooks/{path.name}:{number}: {len(line)} characters"
        for path in CHAPTERS
        for number, line in cell_lines(path.read_text(encoding="utf-8"))
        if len(line) > MAX_LINE
    ]
    assert not long, "\n".join(long)
    assert cell_lines("```{code-cell} ipython3\n---\nalt: x\n---\ny = 1\n```\n") == [
        (2, "---"),
        (3, "alt: x"),
        (4, "---"),
        (5, "y = 1"),
    ]


def test_the_book_helpers_are_formatted_for_the_column_too():
    """sotalib/book is formatted at 79 characters: its own ruff.toml, checked by make lint."""
    import tomllib

    config = tomllib.loads((ROOT / "sotalib" / "book" / "ruff.toml").read_text())
    assert config["line-length"] == MAX_LINE == 79
    assert config["extend"] == "../../pyproject.toml"  # everything else as the project's settings
