"""The forms users hold their data in, turned into arrays once for every front-door function.

A score vector (a leaderboard), a score matrix (candidates x judges or items),
a mapping of reported scores and a list of class sizes arrive as lists, NumPy
arrays, dicts, pandas Series or DataFrames.  The functions here accept each
form or raise :class:`ValueError` naming the argument and what to change;
nothing is silently pooled (two score columns), lost (a repeated name) or
walked character by character (``"30,50,20"``).

pandas is never imported here: a Series or DataFrame is recognised by its
attributes, so the library works without it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["AXES", "as_counts", "as_mapping", "as_matrix", "as_vector", "warn_names_as_candidates"]

#: Which axis of a score matrix holds the candidates (``candidates=`` of rank_candidates, compare_candidates).
AXES = ("rows", "columns")


def warn_names_as_candidates(function: str, candidates: Any) -> None:
    """Warn that ``candidates=`` given names (a sequence) is deprecated: it says which axis holds the candidates.

    One meaning in every function (the vocabulary's ``scores`` entry): ``candidates="rows"`` or ``"columns"``;
    the names come with the data.  Names given there keep working for one minor version.
    """
    if candidates is None or isinstance(candidates, str):
        return
    from ._deprecate import REMOVED_IN_NEXT, warn_deprecated

    warn_deprecated(
        f"{function}(candidates=<names>)",
        "candidates= for the axis that holds the candidates ('rows' or 'columns'), with the names in the data "
        "(a DataFrame's index or columns, a mapping's keys, a PerItem's models, what read_scores returns)",
        stacklevel=4,
        removed_in=REMOVED_IN_NEXT,
    )


def _is_score_file(x: object) -> bool:
    """Whether ``x`` is a score matrix read from a file (:class:`sotalib.judging.ScoreFile`), by its fields."""
    return all(hasattr(x, a) for a in ("candidates", "judges", "scores")) and not _is_frame(x)


def _is_frame(x: object) -> bool:
    return hasattr(x, "columns") and hasattr(x, "index") and hasattr(x, "to_numpy") and hasattr(x, "dtypes")


def _is_series(x: object) -> bool:
    return hasattr(x, "index") and hasattr(x, "to_numpy") and hasattr(x, "dtype") and not _is_frame(x)


def _numeric_dtype(dtype: Any) -> bool:
    kind = getattr(dtype, "kind", None)
    return kind in ("f", "i", "u", "b")


def _default_index(index: Any) -> bool:
    """A pandas RangeIndex 0, 1, ..., n-1 without a name: no names given."""
    return type(index).__name__ == "RangeIndex" and getattr(index, "name", None) is None and index.start == 0


def _shown(names: Sequence[object], limit: int = 5) -> str:
    items = [repr(str(x)) for x in names[:limit]]
    return ", ".join(items) + (", ..." if len(names) > limit else "")


def _check_unique(names: Sequence[str], name: str, what: str) -> None:
    """Refuse a repeated name, naming it and its positions (1-based), so that no row is silently lost."""
    seen: dict[str, int] = {}
    for i, x in enumerate(names):
        if x in seen:
            unit = {"candidate": "rows", "column": "columns"}.get(what, "entries")
            raise ValueError(
                f"{name}: {what} names must be unique: {x!r} names {unit} {seen[x] + 1} and {i + 1} "
                "(rename or merge the repeated ones; none is dropped silently)"
            )
        seen[x] = i


def _floats(values: Any, name: str, labels: Sequence[str] | None = None) -> np.ndarray:
    """``values`` as floats, naming the first entry that is not a number."""
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        if isinstance(values, (list, tuple)) and values and all(np.ndim(v) == 1 for v in values):
            lengths = sorted({len(v) for v in values})
            if len(lengths) > 1:
                raise ValueError(
                    f"{name} must give every row the same number of scores, got rows of lengths {lengths}"
                ) from None
        flat = np.asarray(values, dtype=object).ravel()
        for i, v in enumerate(flat):
            try:
                float(v)
            except (TypeError, ValueError):
                where = f" ({labels[i]!r})" if labels is not None and i < len(labels) else f" (entry {i + 1})"
                raise ValueError(f"{name} must be numbers, got {v!r}{where}") from None
        raise


def _not_finite(A: np.ndarray, name: str, rows: Sequence[str] | None, what: str = "score") -> None:
    bad = ~np.isfinite(A)
    if bad.any():
        idx: tuple[int, ...] = (
            tuple(int(i) for i in np.argwhere(bad)[0]) if A.ndim > 1 else (int(np.flatnonzero(bad)[0]),)
        )
        row = idx[0]
        who = f"row {row + 1}" + (f" ({rows[row]!r})" if rows is not None else "")
        col = f", column {idx[1] + 1}" if len(idx) > 1 else ""
        raise ValueError(
            f"{name} must hold finite {what}s: {who}{col} is {float(A[tuple(idx)])!r} ({int(bad.sum())} missing or "
            "infinite in all); drop or fill them first"
        )


def _split_frame(frame: Any, name: str, names_column: str | None = None) -> tuple[tuple[str, ...] | None, Any]:
    """Row names of a DataFrame (a text column, or the index) and its numeric part.

    The names are taken from ``names_column`` if given, else from the one
    column that is not numeric, else from the index (unless it is the default
    0, 1, ...).  Two text columns are refused: which one names the rows is
    not clear.
    """
    columns = list(frame.columns)
    text = [c for c, t in zip(columns, frame.dtypes, strict=True) if not _numeric_dtype(t)]
    if names_column is not None:
        if names_column not in columns:
            raise ValueError(
                f"{name} has no column {names_column!r} to take the names from (columns: {_shown(columns)})"
            )
        text = [names_column]
    elif len(text) > 1:
        raise ValueError(
            f"{name} has {len(text)} columns that are not numbers ({_shown(text)}); keep one column of names "
            "(or move the names to the index) and drop the others"
        )
    if text:
        names = tuple(str(x) for x in frame[text[0]].tolist())
        return names, frame.drop(columns=text[0])
    index_names: tuple[str, ...] | None = None if _default_index(frame.index) else tuple(str(x) for x in frame.index)
    return index_names, frame


def as_vector(scores: Any, name: str = "scores") -> tuple[np.ndarray, tuple[str, ...] | None]:
    """One score per team: ``(values, names)``; ``names`` None where the input names none.

    Accepts a list or 1-d array (an ``(m, 1)`` or ``(1, m)`` array too), a
    mapping name -> score, a pandas Series (names from its index) and a
    DataFrame with one score column (names from a text column or the index).
    Two or more score columns (a public and a private board, say) are
    refused rather than pooled into one board.  The values are floats; their
    range is the caller's to check.
    """
    names: tuple[str, ...] | None = None
    if isinstance(scores, (str, bytes)):
        raise ValueError(f"{name} must be numbers (a list, an array or a column), got the text {scores[:40]!r}")
    if isinstance(scores, Mapping):
        names = tuple(str(k) for k in scores)
        values = [scores[k] for k in scores]
        if any(isinstance(v, (Sequence, np.ndarray, Mapping)) and not isinstance(v, str) for v in values):
            raise ValueError(f"{name} must map each team to one score, got a sequence for {names[0]!r}")
        return _floats(values, name, names).ravel(), names
    if _is_frame(scores):
        names, numeric = _split_frame(scores, name)
        cols = list(numeric.columns)
        if len(cols) != 1:
            raise ValueError(
                f"{name} must be one column of scores, got {len(cols)} score columns ({_shown(cols)}); "
                f"pass one of them, e.g. {name}[{str(cols[-1])!r}]"
                if cols
                else f"{name} has no numeric column of scores"
            )
        return _floats(numeric[cols[0]].to_numpy(), name, names), names
    if _is_series(scores):
        names = None if _default_index(scores.index) else tuple(str(x) for x in scores.index)
        return _floats(scores.to_numpy(), name, names), names
    a = _floats(scores, name)
    if a.ndim == 2 and 1 in a.shape:
        a = a.ravel()
    if a.ndim > 1:
        raise ValueError(
            f"{name} must be one score per team (a 1-d array), got shape {a.shape}; pass one column, "
            f"e.g. {name}[:, 0], rather than pooling several boards"
        )
    return a.reshape(-1), names


def as_matrix(
    scores: Any,
    name: str = "scores",
    *,
    candidates: Any = None,
    what: str = "score",
) -> tuple[np.ndarray, tuple[str, ...] | None, tuple[str, ...] | None]:
    """A score matrix, candidates x judges or data sets: ``(A, candidate names, judge names)``.

    Accepts a 2-d list or array (a 1-d one is one column), a mapping
    candidate -> sequence of scores (rows), what :func:`sotalib.judging.read_scores`
    returns (its candidates and judges named), a pandas DataFrame with the
    candidates' names in its index or in its one text column (or in the
    column named by ``candidates`` when that is a string) and a pandas Series
    (one column).  ``candidates="rows"`` (the layout) or ``"columns"`` says
    which axis holds the candidates: with ``"columns"`` the matrix is read
    the other way (its columns are the candidates) and returned transposed.
    Every score must be finite; a repeated candidate or column name is
    refused with the name, never merged or lost.  (Per-item results go
    through :func:`sotalib._per_item.as_per_item`, not here.)
    """
    if isinstance(candidates, str) and candidates in AXES:
        A, rows, cols = _as_matrix(scores, name, None, what)
        if candidates == "rows":
            return A, rows, cols
        if cols is not None:
            _check_unique(cols, name, "candidate")
        return np.ascontiguousarray(A.T), cols, rows
    return _as_matrix(scores, name, candidates, what)


def _as_matrix(
    scores: Any, name: str, candidates: Any, what: str
) -> tuple[np.ndarray, tuple[str, ...] | None, tuple[str, ...] | None]:
    """:func:`as_matrix` with the candidates as rows (``candidates``: names, a DataFrame's column, or None)."""
    rows: tuple[str, ...] | None = None
    cols: tuple[str, ...] | None = None
    names_column = candidates if isinstance(candidates, str) else None
    if names_column is not None and not _is_frame(scores):
        raise ValueError(
            f"candidates must be a sequence of names, one per row, got the text {names_column!r} "
            "(a string names a column of a DataFrame)"
        )
    if isinstance(scores, (str, bytes)):
        raise ValueError(f"{name} must be a matrix of numbers, got the text {scores[:40]!r}")
    if isinstance(scores, Mapping):
        rows = tuple(str(k) for k in scores)
        values = [scores[k] for k in scores]
        if values and all(isinstance(v, Mapping) for v in values):
            keys = list(values[0])
            for r, v in zip(rows, values, strict=True):
                if list(v) != keys:
                    raise ValueError(
                        f"{name}: every candidate must have the same columns; {r!r} differs from {rows[0]!r}"
                    )
            cols = tuple(str(k) for k in keys)
            values = [[v[k] for k in keys] for v in values]
        else:
            values = [np.ravel(np.asarray(v, dtype=object)) if not np.isscalar(v) else [v] for v in values]
            lengths = {len(v) for v in values}
            if len(lengths) > 1:
                raise ValueError(
                    f"{name} must give every candidate the same number of scores, got lengths {sorted(lengths)}"
                )
        A = _floats(values, name, rows) if values else np.empty((0, 0))
    elif _is_score_file(scores):  # what sotalib.judging.read_scores returns: the matrix and both axes' names
        rows = tuple(str(c) for c in scores.candidates)
        cols = tuple(str(c) for c in scores.judges)
        _check_unique(cols, name, "column")
        A = _floats(np.asarray(scores.scores), name, rows)
    elif _is_frame(scores):
        rows, numeric = _split_frame(scores, name, names_column)
        cols = tuple(str(c) for c in numeric.columns)
        _check_unique(cols, name, "column")
        A = _floats(numeric.to_numpy(), name)
    elif _is_series(scores):
        rows = None if _default_index(scores.index) else tuple(str(x) for x in scores.index)
        A = _floats(scores.to_numpy(), name, rows)
    else:
        A = _floats(scores, name)
    if A.ndim == 1:
        A = A[:, None]
    if A.ndim != 2 or A.shape[0] < 1 or A.shape[1] < 1:
        raise ValueError(f"{name} must be a non-empty 2-d array (candidates x judges), got shape {A.shape}")
    if rows is not None and (candidates is None or names_column is not None):  # names given override the index
        _check_unique(rows, name, "candidate")
    _not_finite(A, name, rows, what)
    return A, rows, cols


def as_mapping(scores: Any, name: str = "scores") -> dict:
    """Reported scores name -> value from a mapping or a pandas Series; a repeated name is refused."""
    if _is_series(scores):
        keys = [str(k) for k in scores.index]
        _check_unique(keys, name, "score")
        return dict(zip(keys, scores.tolist(), strict=True))
    if _is_frame(scores):
        frame: Any = scores
        if len(frame) == 1:
            return {str(k): v for k, v in frame.iloc[0].items()}
        raise ValueError(f"{name} must be one report (a dict or a Series), got a table of {len(frame)} rows")
    if scores is None or isinstance(scores, Mapping):
        return scores  # type: ignore[return-value]
    raise ValueError(f"{name} must map score names to values (a dict or a pandas Series), got {type(scores).__name__}")


_SPLIT = re.compile(r"[\s,;:]+")


def as_counts(classes: Any, name: str = "classes") -> Any:
    """Class sizes as a list: text ``"30,50,20"`` (or ``"30 50 20"``) parsed, a mapping's or a Series' values.

    Other inputs are returned as they are, for the caller's own checks.
    """
    if isinstance(classes, (str, bytes)):
        text = classes.decode() if isinstance(classes, bytes) else classes
        parts = [p for p in _SPLIT.split(text.strip().strip("[]()")) if p]
        out = []
        for p in parts:
            try:
                v = float(p)
            except ValueError:
                raise ValueError(f"{name} must be class sizes such as '30,50,20', got {text!r}") from None
            if not math.isfinite(v) or v != int(v):
                raise ValueError(f"{name} must be whole class sizes such as '30,50,20', got {p!r} in {text!r}")
            out.append(int(v))
        return out
    if isinstance(classes, Mapping):
        return list(classes.values())
    if _is_series(classes):
        return classes.tolist()
    return classes
