"""Tests use the public API, except where a private piece is itself the subject, and then they say so.

Every import of a private sotalib module or name (a dotted component starting with ``_``, dunders
such as ``__main__`` aside) in a file under ``tests/`` carries a ``# private: <why>`` comment: on
one of the import statement's lines, or directly above it (above the first line of a parenthesised
import, or above the contiguous block of import statements it belongs to).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


_JUSTIFIED = re.compile(r"#\s*private:\s*\S")


def _is_private(dotted: str) -> bool:
    return any(
        part.startswith("_") and not (part.startswith("__") and part.endswith("__")) for part in dotted.split(".")
    )


def _private_imports(tree: ast.AST):
    """``(node, dotted names)`` for every import statement that brings in a private sotalib module or name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.split(".")[0] == "sotalib" and _is_private(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "sotalib":
            names = [f"{node.module}.{a.name}" for a in node.names if _is_private(f"{node.module}.{a.name}")]
        else:
            continue
        if names:
            yield node, names


def _import_lines(tree: ast.AST) -> set[int]:
    """Every line that belongs to an import statement (1-based)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def _justified(node: ast.stmt, lines: list[str], import_lines: set[int]) -> bool:
    last = node.end_lineno or node.lineno
    if any(_JUSTIFIED.search(lines[i - 1]) for i in range(node.lineno, last + 1)):
        return True  # on the statement itself
    above = node.lineno - 1
    while above in import_lines:  # the block of imports this statement belongs to
        above -= 1
    while above >= 1 and lines[above - 1].lstrip().startswith("#"):  # the comment lines directly above it
        if _JUSTIFIED.search(lines[above - 1]):
            return True
        above -= 1
    return False


def unjustified_private_imports(path: Path, rel: str) -> list[str]:
    """``file:line: names`` for each import of a private sotalib piece in ``path`` without a ``# private:`` reason."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text, filename=str(path))
    lines = text.splitlines()
    import_lines = _import_lines(tree)
    found = []
    for node, names in _private_imports(tree):
        if names and not _justified(node, lines, import_lines):
            found.append(f"tests/{rel}:{node.lineno}: {', '.join(names)}")
    return found


def test_every_private_import_in_the_tests_says_why():
    found, private = [], 0
    for path in sorted(TESTS.rglob("*.py")):
        private += sum(1 for _ in _private_imports(ast.parse(path.read_text(encoding="utf-8"))))
        found += unjustified_private_imports(path, path.relative_to(TESTS).as_posix())
    assert private > 20  # the scan sees the tests (the kernels' tests import private pieces)
    assert not found, (
        "tests import private sotalib pieces without a '# private: <why>' comment "
        "(use the public name, or say why the private piece is the subject):\n" + "\n".join(found)
    )


@pytest.mark.parametrize(
    "source, flagged",
    [
        ("from sotalib.multiplicity._sota_shrink import shrink\n", [1]),
        ("import sotalib._io\n", [1]),
        ("from sotalib.consistency import _mos\n", [1]),
        ("def f():\n    from sotalib._validate import format_count\n", [2]),
        ("from sotalib.judging import (\n    _kemeny,\n    rank_candidates,\n)\n", [1]),
        ("# a comment, but no reason\nfrom sotalib._io import read_table\n", [2]),
        ("# private: the reader\n\nfrom sotalib._io import read_table\n", [3]),  # a blank line breaks the link
        ("from sotalib.cli._types import real\n", [1]),
        # justified, or not private at all
        ("from sotalib._io import read_table  # private: the reader itself\n", []),
        ("# private: the reader itself\nfrom sotalib._io import read_table\n", []),
        ("# private: the kernels\nfrom sotalib import _numba\nfrom sotalib._rng import spawn\n", []),
        ("# private: the kernel\nfrom sotalib.multiplicity import (\n    _auc_kernels,\n)\n", []),
        ("from sotalib.multiplicity import estimate_sota\nimport sotalib.__main__\nimport _pytest\n", []),
    ],
)
def test_the_check_flags_exactly_the_unjustified_private_imports(tmp_path, source, flagged):
    path = tmp_path / "test_x.py"
    path.write_text(source)
    assert [int(s.split(":")[1]) for s in unjustified_private_imports(path, "test_x.py")] == flagged


# ------------------------------------------------------------------ the command line uses the public API

CLI = TESTS.parent / "sotalib" / "cli"
#: The subpackages whose private modules the command line must not import (the shared layer sotalib/_*.py,
#: the command line's own sotalib/cli/_*.py and the standard library are fine).
SUBPACKAGES = ("multiplicity", "consistency", "judging")


def private_subpackage_imports(source: str, module: str) -> list[str]:
    """``line: name`` for each import in ``source`` (the module ``module``) of a subpackage's private piece.

    Relative imports are resolved against ``module``; ``from ..judging import _readers`` counts as well
    as ``from ..judging._readers import read_per_item``.
    """
    package = module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                where = ".".join(base + ([node.module] if node.module else []))
            else:
                where = node.module or ""
            names = [f"{where}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if (
                len(parts) >= 3
                and parts[0] == "sotalib"
                and parts[1] in SUBPACKAGES
                and _is_private(".".join(parts[2:]))
            ):
                found.append(f"{node.lineno}: {name}")
    return found


def test_the_command_line_imports_no_private_module_of_the_subpackages():
    """Each command is parse, one public call, print: it reaches the library through its public names."""
    found = []
    for path in sorted(CLI.glob("*.py")):
        module = f"sotalib.cli.{path.stem}"  # __init__ too: its package is sotalib.cli
        found += [f"sotalib/cli/{path.name}:{hit}" for hit in private_subpackage_imports(path.read_text(), module)]
    assert not found, "the command line imports private modules of the subpackages:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source, flagged",
    [
        (
            "from ..multiplicity._sota_estimate import estimate_sota\n",
            ["sotalib.multiplicity._sota_estimate.estimate_sota"],
        ),
        ("def run():\n    from ..judging import _readers\n", ["sotalib.judging._readers"]),
        ("import sotalib.consistency._report\n", ["sotalib.consistency._report"]),
        (
            "from sotalib.multiplicity._max_summary import _summarize_max_auc\n",
            ["sotalib.multiplicity._max_summary._summarize_max_auc"],
        ),
        ("from ..multiplicity import estimate_sota, _sota_model\n", ["sotalib.multiplicity._sota_model"]),
        # the public names, the shared layer and the command line's own modules are fine
        ("from ..multiplicity import estimate_sota\nfrom .. import consistency\n", []),
        ("from .._progress import announcing\nfrom .._validate import time_limit\n", []),
        ("from ._types import integer\nfrom . import call\nimport argparse\n", []),
    ],
)
def test_the_cli_check_flags_exactly_the_private_subpackage_imports(source, flagged):
    assert [hit.split(": ", 1)[1] for hit in private_subpackage_imports(source, "sotalib.cli.sota")] == flagged
