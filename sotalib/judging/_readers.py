"""The judging commands' input files: a score matrix and pairwise battles (CSV); per-item results: ``sotalib._per_item``.

Each reader returns a small frozen result that unpacks like a tuple, as the
command line's former readers did (``names, judges, M = read_scores(path)``).
The files are read by sotalib's one reader of users' tables
(:func:`sotalib._io.read_table`: UTF-8 with or without a byte-order mark,
comma, semicolon or tab delimiters, decimal commas, CRLF line ends), so every
refusal is an :class:`~sotalib._io.InputError` naming the file, the line and
the column.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .._io import Table, parse_number, read_table
from .._result import Result

__all__ = ["BattleFile", "ScoreFile", "read_battles", "read_scores"]


class _Unpacks:
    """Iterating a file result yields its fields in order (``a, b, c = result``)."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]  # every subclass is a dataclass (for dataclasses.fields)

    def __iter__(self) -> Iterator:
        return iter(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))


def _refuse_numbers_as_names(t: Table, columns: range, what: str, example: str) -> None:
    """Refuse a header row whose name cells are all numbers, one with a fraction: a file without its header.

    Whole numbers alone (``1,2,3``, years) may well be names and are kept.
    """
    assert t.header is not None  # read with header=True
    values = [parse_number(t.header[j], decimal_comma=t.decimal_comma) for j in columns]
    if values and all(v is not None for v in values) and any(v != round(v) for v in values if v is not None):
        raise t.error(
            f"the first line holds numbers, not {what}: the file needs a header line such as {example!r}",
            line=t.header_line,
        )


@dataclass(frozen=True, repr=False)
class ScoreFile(_Unpacks, Result):
    """A score matrix read by :func:`read_scores` (unpacks as ``candidates, judges, scores``).

    Attributes
    ----------
    candidates : list of str
        The row names (first column).
    judges : list of str
        The column names (header).
    scores : ndarray, shape (candidates, judges)
        The scores.
    """

    candidates: list
    judges: list
    scores: np.ndarray


def read_scores(path: str | os.PathLike) -> ScoreFile:
    r"""Read a score matrix from a CSV file: ``(candidates, judges, scores)``.

    The first row is a header (its first cell is ignored, the others name the
    judges, each once); each further row is a candidate: its name, then one
    finite number per judge.  Blank lines are skipped.  A first row of numbers
    with fractions (a file without its header) is refused; whole numbers such
    as ``1,2,3`` are judge names.

    Parameters
    ----------
    path : str or path-like
        The CSV file: UTF-8 (a byte-order mark is fine), separated by commas,
        semicolons (decimal commas allowed) or tabs; ``"-"`` reads standard input.

    Returns
    -------
    ScoreFile
        Candidate names, judge names and the ``candidates x judges`` matrix.

    Raises
    ------
    ValueError
        An ``InputError`` (a ``ValueError``) when the file cannot be read, is
        not UTF-8 text, has no header row or no judge column, a blank or
        repeated candidate or judge name, or a cell that is not a finite
        number; the message names the file, the line and the column.

    References
    ----------
    Pavão, *How to judge a competition*, Section 4 (the score matrix ``M``,
    candidates x judges).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from sotalib.judging import read_scores
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "scores.csv"
    >>> _ = path.write_text("candidate,task 1,task 2\nA,0.8,0.7\nB,0.6,0.9\n")
    >>> names, judges, M = read_scores(path)
    >>> names, judges, M.shape
    (['A', 'B'], ['task 1', 'task 2'], (2, 2))
    """
    t = read_table(
        path, header=True, needs="a header row (a name column, then one column per judge) and one row per candidate"
    )
    assert t.header is not None  # read with header=True
    if t.width < 2:
        raise t.error("needs a name column and at least one judge column", line=t.header_line)
    _refuse_numbers_as_names(t, range(1, t.width), "judge names", "candidate,task 1,task 2")
    # a data set pasted twice would count twice in every test (Friedman's, Nemenyi's): refused, as is a nameless one
    t.require_unique_header(what="judge names", columns=range(1, t.width))
    names = t.column(0, kind="name")
    t.require_unique(0, what="candidate names")
    scores = np.column_stack([t.column(j) for j in range(1, t.width)])
    return ScoreFile(list(names), list(t.header[1:]), scores)


@dataclass(frozen=True, repr=False)
class BattleFile(_Unpacks, Result):
    """Battles read by :func:`read_battles` (unpacks as ``a, b, winner``).

    Attributes
    ----------
    a, b : list of str
        The two candidates of each battle.
    winner : list of str
        ``a``'s name, ``b``'s name, or a tie word (``tie``, ``draw`` or empty).
    """

    a: list
    b: list
    winner: list


def read_battles(path: str | os.PathLike) -> BattleFile:
    r"""Read battles from a CSV file with a header naming the columns ``a``, ``b`` and ``winner`` (any order, any case).

    Other columns are ignored; blank lines are skipped.  A blank ``a`` or
    ``b`` cell is an error; a blank ``winner`` is a tie.  The values are
    checked by :func:`bradley_terry`.

    Parameters
    ----------
    path : str or path-like
        The CSV file: UTF-8 (a byte-order mark is fine), separated by commas,
        semicolons (decimal commas allowed) or tabs; ``"-"`` reads standard input.

    Returns
    -------
    BattleFile
        The columns ``a``, ``b`` and ``winner`` as lists of strings.

    Raises
    ------
    ValueError
        An ``InputError`` (a ``ValueError``) when the file cannot be read, is
        not UTF-8 text, lacks a column ``a``, ``b`` or ``winner``, or a battle
        has a blank candidate; the message names the file, the line and the
        column.

    References
    ----------
    Bradley & Terry (1952), *Rank analysis of incomplete block designs*; as
    used for arena leaderboards (the book's chapter 8).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from sotalib.judging import read_battles
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "battles.csv"
    >>> _ = path.write_text("a,b,winner\nX,Y,X\nY,Z,tie\n")
    >>> read_battles(path).winner
    ['X', 'tie']
    """
    t = read_table(path, header=True, needs="a header naming the columns a, b and winner, and one row per battle")
    a, b, winner = t.find_all("a", "b", "winner")
    # a blank candidate is an error naming its line and column (never a candidate named ''); a blank winner is a tie
    return BattleFile(
        list(t.column(a, kind="name")),
        list(t.column(b, kind="name")),
        [w or "" for w in t.column(winner, kind="name", blank="none")],
    )
