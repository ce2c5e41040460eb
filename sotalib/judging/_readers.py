"""The judging commands' input files: a score matrix, per-item results, pairwise battles (CSV).

Each reader returns a small frozen result that unpacks like a tuple, as the
command line's former readers did (``names, judges, M = read_scores(path)``).
A shared CSV reader will later replace the parsing here; the messages name
the file and the line.
"""

from __future__ import annotations

import csv
import dataclasses
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .._result import Result

__all__ = ["BattleFile", "PerItemFile", "ScoreFile", "read_battles", "read_per_item", "read_scores"]


class _Unpacks:
    """Iterating a file result yields its fields in order (``a, b, c = result``)."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]  # every subclass is a dataclass (for dataclasses.fields)

    def __iter__(self) -> Iterator:
        return iter(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))


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
    judges); each further row is a candidate: its name, then one finite number
    per judge.  Blank lines are skipped.

    Parameters
    ----------
    path : str or path-like
        The CSV file (UTF-8).

    Returns
    -------
    ScoreFile
        Candidate names, judge names and the ``candidates x judges`` matrix.

    Raises
    ------
    ValueError
        On malformed input (the message names the file and the line).
    OSError
        If the file cannot be read.

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
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            rows = [r for r in csv.reader(fh) if r and any(c.strip() for c in r)]
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); "
            "save the file as UTF-8 (CSV UTF-8 in a spreadsheet) and try again"
        ) from None
    except csv.Error as exc:
        raise ValueError(f"{path}: not a readable CSV file ({exc})") from None
    if len(rows) < 2:
        raise ValueError(f"{path}: need a header row and at least one candidate row")
    header = [c.strip() for c in rows[0]]
    if len(header) < 2:
        raise ValueError(f"{path}: need a name column and at least one judge column")
    names, values = [], []
    for i, r in enumerate(rows[1:], start=2):
        if len(r) != len(header):
            raise ValueError(f"{path}: line {i} has {len(r)} fields, the header has {len(header)}")
        names.append(r[0].strip())
        try:
            vals = [float(c) for c in r[1:]]
        except ValueError:
            raise ValueError(f"{path}: line {i}: scores must be numbers") from None
        if not all(math.isfinite(v) for v in vals):
            raise ValueError(f"{path}: line {i}: scores must be finite")
        values.append(vals)
    if len(set(names)) != len(names):
        seen, twice = set(), []
        for name in names:
            if name in seen and name not in twice:
                twice.append(name)
            seen.add(name)
        raise ValueError(
            f"{path}: candidate names must be unique; listed more than once: {', '.join(map(repr, twice[:5]))}"
            + (f" and {len(twice) - 5} more" if len(twice) > 5 else "")
        )
    return ScoreFile(names, header[1:], np.array(values, dtype=float))


@dataclass(frozen=True, repr=False)
class PerItemFile(_Unpacks, Result):
    """Per-item results read by :func:`read_per_item` (unpacks as ``candidates, items, X``).

    Attributes
    ----------
    candidates : list of str
        The column names of the file.
    items : list of str or None
        Item labels, when the first column holds them.
    X : ndarray, shape (candidates, items)
        Per-item results (the file transposed).
    """

    candidates: list
    items: list | None
    X: np.ndarray


def read_per_item(path: str | os.PathLike) -> PerItemFile:
    r"""Read per-item results from a CSV file: one column per candidate, one row per test item.

    The first row names the candidates.  A first column headed ``item`` or
    ``id`` (any case) or with an empty header holds item labels and is not a
    candidate.  Every other cell is a finite number (1/0 for correct/wrong,
    or a loss).  Blank lines are skipped.

    Parameters
    ----------
    path : str or path-like
        The CSV file (UTF-8).

    Returns
    -------
    PerItemFile
        Candidate names, item labels (or None) and the ``candidates x items`` results.

    Raises
    ------
    ValueError
        On malformed input (the message names the file and the line).
    OSError
        If the file cannot be read.

    References
    ----------
    Pavão, *How to judge a competition*, Section 3 (per-item results: the
    bootstrap resamples the test items).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from sotalib.judging import read_per_item
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "items.csv"
    >>> _ = path.write_text("item,A,B\nq1,1,0\nq2,1,1\nq3,0,1\n")
    >>> f = read_per_item(path)
    >>> f.candidates, f.items, f.X.tolist()
    (['A', 'B'], ['q1', 'q2', 'q3'], [[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]])
    """
    with open(path, newline="", encoding="utf-8-sig") as fh:
        rows = [r for r in csv.reader(fh) if r and any(c.strip() for c in r)]
    if len(rows) < 2:
        raise ValueError(f"{path}: need a header row and at least one item row")
    header = [c.strip() for c in rows[0]]
    labelled = header[0].lower() in ("", "item", "id")
    names = header[1:] if labelled else header
    if not names:
        raise ValueError(f"{path}: need at least one candidate column")
    if len(set(names)) != len(names) or any(not n for n in names):
        raise ValueError(f"{path}: candidate names in the header must be non-empty and unique")
    items, values = ([] if labelled else None), []
    for i, r in enumerate(rows[1:], start=2):
        if len(r) != len(header):
            raise ValueError(f"{path}: line {i} has {len(r)} fields, the header has {len(header)}")
        if labelled:
            items.append(r[0].strip())
            r = r[1:]
        try:
            vals = [float(c) for c in r]
        except ValueError:
            raise ValueError(f"{path}: line {i}: per-item results must be numbers") from None
        if not all(math.isfinite(v) for v in vals):
            raise ValueError(f"{path}: line {i}: per-item results must be finite")
        values.append(vals)
    return PerItemFile(names, items, np.array(values, dtype=float).T)


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

    Other columns are ignored; blank lines are skipped.  The values are
    checked by :func:`bradley_terry`.

    Parameters
    ----------
    path : str or path-like
        The CSV file (UTF-8).

    Returns
    -------
    BattleFile
        The columns ``a``, ``b`` and ``winner`` as lists of strings.

    Raises
    ------
    ValueError
        If a column is missing or a row is short (the message names the file and the line).
    OSError
        If the file cannot be read.

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
    with open(path, newline="", encoding="utf-8-sig") as fh:
        rows = [r for r in csv.reader(fh) if r and any(c.strip() for c in r)]
    if len(rows) < 2:
        raise ValueError(f"{path}: need a header row and at least one battle")
    header = [c.strip().lower() for c in rows[0]]
    try:
        cols = [header.index(c) for c in ("a", "b", "winner")]
    except ValueError:
        raise ValueError(f"{path}: the header must name the columns a, b and winner, got {rows[0]}") from None
    out = ([], [], [])
    for i, r in enumerate(rows[1:], start=2):
        if len(r) != len(header):
            raise ValueError(f"{path}: line {i} has {len(r)} fields, the header has {len(header)}")
        for lst, c in zip(out, cols, strict=True):
            lst.append(r[c].strip())
    return BattleFile(*out)
