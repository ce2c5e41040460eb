"""Fold configurations of k-fold cross-validation (Fazekas & Kovacs, Section 4.4).

A *fold configuration* is the multiset of (p_i, n_i) pairs, the numbers of
positives and negatives in the k test folds.  Stratified k-fold as
implemented by scikit-learn gives one configuration (Table 6); without
stratification every configuration with fold sizes floor((p+n)/k) or
floor((p+n)/k) + 1 and at least two folds holding each class is possible
(Algorithm 2).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any, Literal, overload

from .._io import parse_number, read_table
from .._validate import check_choice, check_int

__all__ = ["stratified_folds", "kfold_configurations", "count_configurations", "read_folds"]

Folds = tuple[tuple[int, int], ...]


def _check(p, n, k):
    p = check_int("p", p, low=0)
    n = check_int("n", n, low=0)
    k = check_int("k", k, low=2)
    if p + n < k:
        raise ValueError(f"k must be <= p + n = {p + n}, got {k}")
    return p, n, k


def check_folds(folds: Iterable[Any]) -> list[tuple[int, int]]:
    """Folds given by a user as (p_i, n_i) pairs, checked: counts >= 0, at least one item per fold."""
    out = []
    for i, f in enumerate(folds):
        try:
            a, b = f
        except (TypeError, ValueError):
            raise ValueError(f"folds[{i}] must be a pair (p_i, n_i), got {f!r}") from None
        a = check_int(f"p of fold {i}", a, low=0)
        b = check_int(f"n of fold {i}", b, low=0)
        if a + b == 0:
            raise ValueError(f"fold {i} must hold at least one item")
        out.append((a, b))
    if not out:
        raise ValueError("folds must contain at least one fold")
    return out


def stratified_folds(p: int, n: int, k: int) -> Folds:
    """The configuration of scikit-learn's ``StratifiedKFold`` (Table 6).

    With ``p_div, p_mod = divmod(p, k)`` and ``n_div, n_mod = divmod(n, k)``:
    if ``p_mod + n_mod > k`` there are ``p_mod + n_mod - k`` folds
    (p_div + 1, n_div + 1), ``k - n_mod`` folds (p_div + 1, n_div) and
    ``k - p_mod`` folds (p_div, n_div + 1); otherwise ``k - p_mod - n_mod``
    folds (p_div, n_div), ``p_mod`` folds (p_div + 1, n_div) and ``n_mod``
    folds (p_div, n_div + 1).  Returned sorted.

    Parameters
    ----------
    p, n : int
        Positives and negatives of the data set (>= 0).
    k : int
        Number of folds (2 <= k <= p + n).

    Returns
    -------
    tuple of (int, int)
        ``(p_i, n_i)`` of the k test folds, sorted.

    Raises
    ------
    ValueError
        A negative count, ``k`` below 2 or above ``p + n``.

    References
    ----------
    Fazekas & Kovacs, Section 4.4.1 and Table 6.

    Examples
    --------
    >>> from sotalib.consistency import stratified_folds
    >>> stratified_folds(38, 262, 5)
    ((7, 53), (7, 53), (8, 52), (8, 52), (8, 52))
    """
    p, n, k = _check(p, n, k)
    pd, pm = divmod(p, k)
    nd, nm = divmod(n, k)
    if pm + nm > k:
        parts = [(pm + nm - k, (pd + 1, nd + 1)), (k - nm, (pd + 1, nd)), (k - pm, (pd, nd + 1))]
    else:
        parts = [(k - pm - nm, (pd, nd)), (pm, (pd + 1, nd)), (nm, (pd, nd + 1))]
    return tuple(sorted(f for c, f in parts for _ in range(c)))


def _partitions(q: int, k: int, qmax: int, smallest: int = 0) -> Iterator[tuple[int, ...]]:
    """Non-decreasing k-tuples of integers in [smallest, qmax] summing to q (zeros allowed)."""
    if k == 0:
        if q == 0:
            yield ()
        return
    # the first (smallest) part is at most q / k
    for first in range(smallest, min(qmax, q // k) + 1):
        for rest in _partitions(q - first, k - 1, qmax, first):
            yield (first,) + rest


def kfold_configurations(
    p: int, n: int, k: int, *, positives_in_every_fold: bool = False, negatives_in_every_fold: bool = False
) -> Iterator[Folds]:
    """Every k-fold configuration (Algorithm 2 of Fazekas & Kovacs).

    Folds have c^a = floor((p+n)/k) + 1 items (k^a = (p+n) mod k of them) or
    c^b = floor((p+n)/k) items; positives p^a in the larger folds are split
    by every partition into at most k^a parts of at most c^a, the rest by
    every partition into at most k^b parts of at most c^b; configurations
    with fewer than two folds holding positives or negatives are skipped.
    Each configuration is yielded once, as a tuple of (p_i, n_i) pairs.

    ``positives_in_every_fold`` (``negatives_in_every_fold``) keeps only the
    configurations in which sensitivity (specificity) is defined in every
    fold, the ones that matter when it is reported as a mean over folds: for
    p = 38, n = 262, k = 5 that leaves the 918 configurations of Section 5.2
    out of 1,468.

    Parameters
    ----------
    p, n : int
        Positives and negatives of the data set (>= 0).
    k : int
        Number of folds (2 <= k <= p + n).
    positives_in_every_fold, negatives_in_every_fold : bool
        Keep only configurations with a positive (a negative) in every fold.

    Returns
    -------
    iterator of tuple of (int, int)
        Every configuration once, as sorted ``(p_i, n_i)`` pairs.

    Raises
    ------
    ValueError
        A negative count, ``k`` below 2 or above ``p + n``.

    References
    ----------
    Fazekas & Kovacs, Section 4.4.3 and Algorithm 2.

    Examples
    --------
    >>> from sotalib.consistency import kfold_configurations
    >>> next(iter(kfold_configurations(10, 20, 3)))
    ((0, 10), (1, 9), (9, 1))
    """
    p, n, k = _check(p, n, k)
    kdiv, kmod = divmod(p + n, k)
    ka, kb = kmod, k - kmod
    ca, cb = kdiv + 1, kdiv
    for pa in range(0, min(p, ka * ca) + 1):
        if p - pa > kb * cb:
            continue
        for parts_a in _partitions(pa, ka, ca):
            for parts_b in _partitions(p - pa, kb, cb):
                folds = tuple((x, ca - x) for x in parts_a) + tuple((x, cb - x) for x in parts_b)
                npos = sum(1 for a, _ in folds if a > 0)
                nneg = sum(1 for _, b in folds if b > 0)
                if npos < 2 or nneg < 2:
                    continue
                if (positives_in_every_fold and npos < k) or (negatives_in_every_fold and nneg < k):
                    continue
                yield folds


def count_configurations(
    p: int, n: int, k: int, *, positives_in_every_fold: bool = False, negatives_in_every_fold: bool = False
) -> int:
    """Number of fold configurations :func:`kfold_configurations` yields.

    Parameters
    ----------
    p, n, k, positives_in_every_fold, negatives_in_every_fold
        As in :func:`kfold_configurations`.

    Returns
    -------
    int
        The number of configurations.

    Raises
    ------
    ValueError
        A negative count, ``k`` below 2 or above ``p + n``.

    References
    ----------
    Fazekas & Kovacs, Section 4.4.3 (1,468 configurations for p = 38, n = 262, k = 5).

    Examples
    --------
    >>> from sotalib.consistency import count_configurations
    >>> count_configurations(38, 262, 5)
    1468
    """
    kwargs = dict(positives_in_every_fold=positives_in_every_fold, negatives_in_every_fold=negatives_in_every_fold)
    return sum(1 for _ in kfold_configurations(p, n, k, **kwargs))


def repeat_folds(folds, repeats: int) -> Folds:
    """The joint configuration of ``repeats`` repetitions (Section 4.4.2)."""
    r = check_int("repeats", repeats, low=1)
    return tuple(tuple(f) for f in folds) * r


def parse_folds(text: str) -> Folds:
    """Parse ``"p1:n1,p2:n2,..."`` into ((p1, n1), (p2, n2), ...)."""
    out = []
    for i, item in enumerate(str(text).split(",")):
        try:
            a, b = item.strip().split(":")
            out.append((int(a), int(b)))
        except ValueError:
            raise ValueError(f"folds must look like 'p1:n1,p2:n2,...', got {item.strip()!r} as fold {i + 1}") from None
        if out[-1][0] < 0 or out[-1][1] < 0 or sum(out[-1]) == 0:
            raise ValueError(f"folds must hold non-negative counts and at least one item, got {item.strip()!r}")
    return tuple(out)


@overload
def read_folds(path: str | os.PathLike[str], *, task: Literal["binary"] = ...) -> Folds: ...
@overload
def read_folds(path: str | os.PathLike[str], *, task: Literal["multiclass"]) -> tuple[tuple[int, ...], ...]: ...
def read_folds(path: str | os.PathLike[str], *, task: str = "binary") -> Folds | tuple[tuple[int, ...], ...]:
    r"""Read folds from a CSV file, one fold per line.

    For fold lists too long to type (``sotalib check --folds-file``): a binary
    report's folds have columns ``p`` and ``n`` (any case); a multiclass
    report's folds list each fold's class sizes (an optional header line of
    class names, ``#`` comments).

    Parameters
    ----------
    path : str or path-like
        The CSV file (UTF-8, a byte-order mark is fine; separated by commas,
        semicolons or tabs).  Binary: a header line naming ``p`` and ``n``, any
        case; other columns are ignored.  Multiclass: every column is a class.
    task : {'binary', 'multiclass'}
        The kind of report the folds belong to.

    Returns
    -------
    tuple of (int, int), or tuple of tuple of int
        ``(p_i, n_i)`` of every fold (binary) or its class sizes (multiclass),
        in the file's order.

    Raises
    ------
    ValueError
        An ``InputError`` (a ``ValueError``) when the file cannot be read, is
        not UTF-8, lacks the columns, or a line is not two integer counts >= 0
        with at least one item; the message names the file, the line and the
        column.

    References
    ----------
    Fazekas & Kovacs, Section 4 (evaluation sets given as (p_i, n_i)).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from sotalib.consistency import read_folds
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "folds.csv"
    >>> _ = path.write_text("p,n\n7,53\n8,52\n")
    >>> read_folds(path)
    ((7, 53), (8, 52))
    >>> _ = path.write_text("setosa,versicolor,virginica\n10,10,10\n10,10,10\n")
    >>> read_folds(path, task="multiclass")
    ((10, 10, 10), (10, 10, 10))
    """
    task = check_choice("task", task, ("binary", "multiclass"))
    if task == "multiclass":
        t = read_table(path, comment="#", name=f"folds file {path}", needs="one line per fold: its class sizes")
        return tuple(zip(*(t.column(j, kind="integer") for j in range(t.width)), strict=True))
    t = read_table(path, header=True, name=f"folds file {path}", needs="a header line p,n and one line per fold")
    assert t.header is not None  # read with header=True
    if all(parse_number(h, decimal_comma=t.decimal_comma) is not None for h in t.header):
        raise t.error(
            "the first line holds numbers, not column names: the file needs a header line 'p,n'", line=t.header_line
        )
    p, n = (t.column(j, kind="integer") for j in t.find_all("p", "n"))
    for a, b, line in zip(p, n, t.lines, strict=True):
        if a < 0 or b < 0 or a + b == 0:
            raise t.error(f"p and n must be integers >= 0 with p + n >= 1, got {a},{b}", line=line)
    return tuple(zip(p, n, strict=True))
