r"""One per-item table for every function that takes per-item results: :class:`PerItem`, its coercion and reader.

Per-item results say how each model did on each test item.  sotalib holds
them one way only: **items as rows, models as columns** -- the layout of
every per-item file and of the DataFrame pandas reads from one.  Every
function that takes per-item results (:func:`sotalib.estimate_dependence`,
:func:`sotalib.dependence_fit`, :func:`sotalib.estimate_sota` on a per-item
table, :func:`sotalib.estimate_rank_uncertainty`,
:func:`sotalib.judging.ranking_stability`) turns its argument into a
:class:`PerItem` through :func:`as_per_item`:

* a :class:`PerItem` is used as it is;
* a pandas DataFrame is read as items x models (the item ids in a first
  column of labels, see :func:`read_per_item`, or in the index);
* a bare 2-d array or list is refused: it does not say which axis holds the
  models, so it is wrapped as ``PerItem(array)`` (items as rows), never guessed.

:func:`read_per_item` reads a per-item CSV file (also ``.csv.gz``) into a
:class:`PerItem`, through sotalib's one reader of users' tables, so every
refusal names the file, the line and the column; a cell that a function
later finds unfit (a graded 0.3 where correct/wrong is needed) is named by
its line and column too.
"""

from __future__ import annotations

import gzip
import math
import os
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Literal

import numpy as np

from ._frame import _default_index, _is_frame, _is_series, _numeric_dtype
from ._io import InputError, Table, parse_number, read_table
from ._io import _source_bytes as _raw_source
from ._json import json_safe
from ._result import Result

__all__ = ["PerItem", "as_per_item", "read_per_item"]

#: Header names of a first column that always holds item ids (any case).
ID_HEADERS = ("", "item", "id")

#: Formats :func:`read_per_item` reads ("auto" detects by the file's name and content).
FORMATS = ("auto", "wide", "long", "eval-arena", "lm-eval", "inspect", "helm", "eee")


def _names(values: Sequence | None, count: int, default: str, field_name: str, unit: str) -> tuple[str, ...]:
    """Names of the rows or columns, as strings, each once (a repeated one named with both its positions)."""
    if values is None:
        return tuple(f"{default} {i + 1}" for i in range(count))
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{field_name} must be a sequence of {count} names, got the text {values[:40]!r}")
    names = tuple(str(v) for v in values)
    if len(names) != count:
        raise ValueError(f"{field_name} must name every {unit} of outcomes: {count} names needed, got {len(names)}")
    seen: dict[str, int] = {}
    for i, x in enumerate(names):
        if x in seen:
            raise ValueError(
                f"{field_name} must be unique: {x!r} names {unit}s {seen[x] + 1} and {i + 1} (merge or rename the "
                "repeated ones; one counted twice would weigh twice)"
            )
        seen[x] = i
    return names


@dataclass(frozen=True, repr=False, eq=False)
class PerItem(Result):
    r"""Per-item results: how each model did on each test item, items as rows and models as columns.

    The one form of per-item results in sotalib: every function that takes
    them accepts a :class:`PerItem` (or a pandas DataFrame laid out the same
    way), and :func:`read_per_item` returns one.

    Parameters
    ----------
    outcomes : array_like, shape (n_items, n_models)
        ``outcomes[i, j]``: the mean outcome of model ``j`` on item ``i``: 1
        (correct) or 0 (wrong), a graded result in [0, 1] (a pass@1 of 0.3),
        or a per-item loss; NaN where the model did not answer.  **Items are
        rows, models columns.**  A pandas DataFrame keeps its labels: its
        columns name the models and its index, unless the default
        ``0, 1, ...``, the items (a first column of item ids:
        :meth:`from_frame`).
    items : sequence of str, optional
        Item ids, one per row, each once (default: a DataFrame's index, else
        ``"item 1"``, ``"item 2"``, ...).
    models : sequence of str, optional
        Model names, one per column, each once (default: a DataFrame's
        columns, else ``"model 1"``, ...).
    samples : array_like of int, optional
        Samples ``K`` behind each cell (``outcomes`` is their mean), ``>= 1``
        where answered; None means one sample everywhere.
    squares : array_like, optional
        Per-cell mean of the squared sample outcomes (for 0/1 samples it
        equals ``outcomes``): what splits a score's variance into the data's
        and the prediction's.  None when not known.
    item_info : mapping, optional
        Attributes of the items, column name -> one value per item (e.g.
        ``"cluster"``, ``"options"``).

    Attributes
    ----------
    n : int
        Items (rows).
    m : int
        Models (columns).
    binary : bool
        Whether every answered cell is 0 or 1 from one sample.
    n_incomplete : int
        Items some model did not answer.

    Raises
    ------
    ValueError
        A field of the wrong shape, an infinite cell, a repeated item id or
        model name (both positions named), samples that are not whole numbers
        ``>= 1``, or squares below the squared mean; the message names the
        field and the cell (row and item, column and model).

    See Also
    --------
    read_per_item : read a per-item CSV file into a PerItem.

    Examples
    --------
    >>> import numpy as np
    >>> import sotalib
    >>> outcomes = np.array([[1, 0], [1, 1], [0, np.nan]])
    >>> t = sotalib.PerItem(outcomes, items=["q1", "q2", "q3"], models=["A", "B"])
    >>> t.n, t.m, t.binary, t.n_incomplete
    (3, 2, True, 1)
    >>> t.shared().items
    ('q1', 'q2')
    >>> t.to_frame().loc["q2", "B"]
    np.float64(1.0)
    """

    outcomes: np.ndarray
    _: KW_ONLY
    items: Any = None  # any sequence of names, or None; a tuple of str after __post_init__
    models: Any = None
    samples: np.ndarray | None = None
    squares: np.ndarray | None = None
    item_info: dict = field(default_factory=dict)
    #: where the cells came from: (file, the line of each item, the column label of each model), for messages
    _origin: tuple | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        data: Any = self.outcomes
        frame = _is_frame(data)
        if frame:
            # a DataFrame keeps its labels: columns name the models, a non-default index the items
            if self.models is None:
                object.__setattr__(self, "models", [str(c) for c in data.columns])
            if self.items is None and not _default_index(data.index):
                object.__setattr__(self, "items", [str(x) for x in data.index])
        try:
            Y = np.array(self.outcomes, dtype=np.float64)
        except (TypeError, ValueError):
            hint = " (a DataFrame whose first column holds the item ids: PerItem.from_frame)" if frame else ""
            raise ValueError(
                f"outcomes must be numbers (items as rows, models as columns; NaN for a missing answer){hint}"
            ) from None
        if Y.ndim != 2 or Y.shape[0] < 1 or Y.shape[1] < 1:
            raise ValueError(
                f"outcomes must be a non-empty 2-d array, items as rows and models as columns, got shape {Y.shape}"
            )
        n, m = Y.shape
        items = _names(self.items, n, "item", "items", "row")
        models = _names(self.models, m, "model", "models", "column")
        object.__setattr__(self, "outcomes", Y)
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "models", models)
        bad = np.isinf(Y)
        if bad.any():
            i, j = (int(v) for v in np.argwhere(bad)[0])
            raise self._error(
                "outcomes", i, j, f"is {float(Y[i, j])!r}; a cell is a finite outcome or NaN (not answered)"
            )
        if self.samples is not None:
            K = np.asarray(self.samples)
            if K.shape != Y.shape:
                raise ValueError(f"samples must have the shape of outcomes, {Y.shape}, got {K.shape}")
            Kf = K.astype(np.float64)
            wrong = ~np.isfinite(Kf) | (Kf != np.round(Kf)) | ((Kf < 1) & ~np.isnan(Y)) | (Kf < 0)
            if wrong.any():
                i, j = (int(v) for v in np.argwhere(wrong)[0])
                raise self._error(
                    "samples", i, j, f"is {K[i, j].item()!r}; samples are whole numbers >= 1 where answered"
                )
            object.__setattr__(self, "samples", Kf.astype(np.int64))
        if self.squares is not None:
            S = np.array(self.squares, dtype=np.float64)
            if S.shape != Y.shape:
                raise ValueError(f"squares must have the shape of outcomes, {Y.shape}, got {S.shape}")
            below = np.isfinite(Y) & ~(S >= Y * Y - 1e-12 * np.maximum(1.0, Y * Y))
            if below.any():
                i, j = (int(v) for v in np.argwhere(below)[0])
                raise self._error(
                    "squares",
                    i,
                    j,
                    f"is {float(S[i, j])!r}, below the squared mean {float(Y[i, j]) ** 2!r} (a negative variance)",
                )
            object.__setattr__(self, "squares", S)
        info = {}
        for key, values in dict(self.item_info or {}).items():
            v = np.asarray(values)
            if v.ndim != 1 or v.shape[0] != n:
                raise ValueError(f"item_info[{key!r}] must give one value per item ({n}), got shape {v.shape}")
            info[str(key)] = v
        object.__setattr__(self, "item_info", info)

    # ---------------------------------------------------------------- places in messages
    def _place(self, i: int, j: int) -> str:
        return f"row {i + 1} (item {self.items[i]!r}), column {j + 1} (model {self.models[j]!r})"

    def _error(self, name: str, i: int, j: int, reason: str) -> ValueError:
        """An error about cell ``(i, j)``: its line and column when it came from a file, else its row and column."""
        if self._origin is not None:
            source, lines, columns = self._origin
            return InputError(f"the cell {reason}", path=source, line=lines[i], column=columns[j])
        return ValueError(f"{name}: {self._place(i, j)} {reason}")

    # ---------------------------------------------------------------- properties
    @property
    def n(self) -> int:
        """Items (rows)."""
        return int(self.outcomes.shape[0])

    @property
    def m(self) -> int:
        """Models (columns)."""
        return int(self.outcomes.shape[1])

    @property
    def binary(self) -> bool:
        """Whether every answered cell is 0 or 1 from one sample (correct/wrong)."""
        Y = self.outcomes
        answered = ~np.isnan(Y)
        if self.samples is not None and np.any(self.samples[answered] != 1):
            return False
        v = Y[answered]
        return bool(np.all((v == 0) | (v == 1)))

    @property
    def n_incomplete(self) -> int:
        """Items some model did not answer (left out by :meth:`shared`)."""
        return int(np.isnan(self.outcomes).any(axis=1).sum())

    # ---------------------------------------------------------------- views
    def _take(self, rows: np.ndarray | slice, cols: np.ndarray | slice = slice(None)) -> PerItem:
        r = np.arange(self.n)[rows]
        c = np.arange(self.m)[cols]
        origin = None
        if self._origin is not None:
            source, lines, columns = self._origin
            origin = (source, tuple(lines[i] for i in r), tuple(columns[j] for j in c))
        return PerItem(
            self.outcomes[np.ix_(r, c)],
            items=[self.items[i] for i in r],
            models=[self.models[j] for j in c],
            samples=None if self.samples is None else self.samples[np.ix_(r, c)],
            squares=None if self.squares is None else self.squares[np.ix_(r, c)],
            item_info={k: v[r] for k, v in self.item_info.items()},
            _origin=origin,
        )

    def shared(self) -> PerItem:
        """The table restricted to the items every model answered (:attr:`n_incomplete` are left out)."""
        return self._take(~np.isnan(self.outcomes).any(axis=1))

    def to_frame(self) -> Any:
        """A pandas DataFrame of the outcomes: items as rows (index named ``"item"``), models as columns."""
        import pandas as pd

        return pd.DataFrame(self.outcomes, index=pd.Index(self.items, name="item"), columns=list(self.models))

    @classmethod
    def from_frame(cls, frame: Any, name: str = "scores") -> PerItem:
        """A PerItem from a pandas DataFrame laid out items x models.

        The item ids are the first column when it holds labels (the rule of
        :func:`read_per_item`: headed ``item``/``id``, some value not a
        number, or whole numbers not all 0 or 1), else the index
        unless it is the default ``0, 1, ...``.  Every other column is a
        model and must be numeric (NaN or a missing value: not answered).
        """
        if not _is_frame(frame):
            raise ValueError(f"{name} must be a pandas DataFrame, got {type(frame).__name__}")
        columns = list(frame.columns)
        if not columns:
            raise ValueError(f"{name} has no columns: it needs one column per model (items as rows)")
        items: tuple[str, ...] | None = None
        first = frame[columns[0]] if len(columns) > 1 else None
        if first is not None and not isinstance(first, type(frame)):
            values = first.tolist()
            header = str(columns[0])
            numeric = _numeric_dtype(first.dtype)
            texts = [None if _missing(v) else str(v) for v in values]
            if _is_label_column(header, texts, numeric_values=values if numeric else None):
                if any(t is None for t in texts):
                    i = next(k for k, t in enumerate(texts) if t is None)
                    raise ValueError(f"{name}: column {header!r} holds the item ids and row {i + 1} has none")
                items = tuple(t for t in texts if t is not None)
                frame = frame.drop(columns=columns[0])
                columns = columns[1:]
        if items is None and not _default_index(frame.index):
            items = tuple(str(x) for x in frame.index)
        text = [c for c, t in zip(columns, frame.dtypes, strict=True) if not _numeric_dtype(t)]
        for c in text:
            try:
                frame[c].to_numpy(dtype=float, na_value=np.nan)
            except (TypeError, ValueError):
                raise ValueError(
                    f"{name}: column {str(c)!r} is not numbers; every column but the item ids is a model's outcomes "
                    "(items as rows, models as columns)"
                ) from None
        try:
            Y = frame.to_numpy(dtype=float, na_value=np.nan)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must hold numbers, one column per model: {exc}") from None
        try:
            return cls(Y, items=items, models=[str(c) for c in columns])
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None

    def to_dict(self) -> dict:
        """A JSON-safe summary (not every cell): sizes, model names, each model's mean and answered items."""
        Y = self.outcomes
        answered = (~np.isnan(Y)).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.nansum(Y, axis=0) / np.where(answered > 0, answered, 1)
        means = np.where(answered > 0, means, np.nan)
        return json_safe(
            {
                "n_items": self.n,
                "n_models": self.m,
                "models": list(self.models),
                "mean": means,
                "answered": answered,
                "n_incomplete": self.n_incomplete,
                "binary": self.binary,
                "samples": None if self.samples is None else int(self.samples.sum()),
                "item_info": sorted(self.item_info),
            }
        )

    def to_text(self) -> str:
        """A few lines: the table's size and kind, and each model's mean outcome on the items it answered."""
        d = self.to_dict()
        kind = "1/0 outcomes" if self.binary else "graded outcomes"
        if self.samples is not None:
            kind += f", {self.samples.min():,}-{self.samples.max():,} samples per cell"
        lines = [f"per-item results: {self.n:,} items (rows) x {self.m:,} models (columns), {kind}"]
        if d["n_incomplete"]:
            k = d["n_incomplete"]
            lines.append(f"  {k:,} {'item' if k == 1 else 'items'} not answered by every model")
        w = max(len(str(x)) for x in self.models)
        shown = list(zip(self.models, d["mean"], d["answered"], strict=True))
        for name, mean, answered in shown[:20]:
            value = "   nan" if mean is None else f"{mean:.4f}"
            lines.append(f"  {str(name).ljust(w)}  {value}  ({answered:,} {'item' if answered == 1 else 'items'})")
        if len(shown) > 20:
            lines.append(f"  ... and {len(shown) - 20:,} more models")
        return "\n".join(lines)

    # ---------------------------------------------------------------- checks the functions share
    def _require_binary(self, name: str, function: str) -> None:
        """Refuse a graded cell or one of several samples, naming its place: ``function`` needs 1/0 outcomes."""
        Y = self.outcomes
        answered = ~np.isnan(Y)
        graded = answered & (Y != 0) & (Y != 1)
        if self.samples is not None:
            graded |= answered & (self.samples != 1)
        if graded.any():
            i, j = (int(v) for v in np.argwhere(graded)[0])
            what = f"{Y[i, j]:g}" + (f" (mean of {self.samples[i, j]} samples)" if self.samples is not None else "")
            raise self._error(
                name,
                i,
                j,
                f"is {what}, not 0 or 1: {function} needs correct/wrong outcomes (1 or 0, NaN for a missing answer)"
                f" ({int(graded.sum()):,} such cell{'s' if graded.sum() > 1 else ''} in all)",
            )

    def _require_unit(self, name: str, function: str) -> None:
        """Refuse a cell outside [0, 1], naming its place: ``function`` needs outcomes in [0, 1] (graded allowed)."""
        Y = self.outcomes
        answered = ~np.isnan(Y)
        outside = answered & ((Y < 0) | (Y > 1))
        if outside.any():
            i, j = (int(v) for v in np.argwhere(outside)[0])
            raise self._error(
                name,
                i,
                j,
                f"is {Y[i, j]:g}, not in [0, 1]: {function} needs outcomes in [0, 1] (1 correct, 0 wrong, a share "
                "of correct samples between, NaN for a missing answer)"
                f" ({int(outside.sum()):,} such cell{'s' if outside.sum() > 1 else ''} in all)",
            )

    def _require_complete(self, name: str, function: str) -> None:
        """Refuse a missing cell, naming its place: ``function`` needs every model on every item."""
        miss = np.isnan(self.outcomes)
        if miss.any():
            i, j = (int(v) for v in np.argwhere(miss)[0])
            raise self._error(
                name,
                i,
                j,
                f"is missing: {function} needs every model's result on every item ({int(miss.sum()):,} missing in "
                "all); drop those items first (.shared())",
            )


def _missing(v: Any) -> bool:
    if v is None:
        return True
    try:
        return bool(isinstance(v, float) and math.isnan(v)) or (v != v) is True
    except (TypeError, ValueError):
        return False


def _is_label_column(header: str, cells: Sequence[str | None], numeric_values: Sequence | None = None) -> bool:
    """Whether a first column holds item ids rather than a model's outcomes.

    The rule (one, for files and DataFrames): it does when its header is
    empty, ``item`` or ``id`` (any case); or when some filled cell is not a
    number; or when its filled cells are whole numbers not all 0 or 1
    (question numbers such as ``70, 71, ...``; not required to be distinct,
    so that an id listed twice is refused as such rather than read as a
    model).  A model's outcomes are 0/1 (correct/wrong) or have fractions
    (graded results, losses).
    """
    if header.strip().casefold() in ID_HEADERS:
        return True
    values: list[float] = []
    for k, text in enumerate(cells):
        if text is None or text == "":
            continue
        v = float(numeric_values[k]) if numeric_values is not None else parse_number(text)
        if v is None:
            return True
        values.append(v)
    if not values:
        return False
    whole = all(math.isfinite(v) and v == round(v) for v in values)
    return whole and not set(values) <= {0.0, 1.0}


def _old_layout(function: str, was: str | None) -> str:
    return f" (before 0.6.0 {function} took {was}: PerItem(array.T))" if was else ""


def as_per_item(
    data: Any,
    name: str = "scores",
    *,
    function: str = "this function",
    was: str | None = None,
    binary: bool = False,
) -> PerItem:
    """``data`` as a :class:`PerItem`: the one coercion of per-item results.

    Parameters
    ----------
    data : PerItem or pandas.DataFrame
        A PerItem (used as it is) or a DataFrame, always items as rows and
        models as columns (:meth:`PerItem.from_frame`).
    name : str
        The argument's name in messages.
    function : str
        The calling function's name in messages.
    was : str, optional
        The calling function's layout before 0.6.0 when it was another
        (``"candidates x items"``): a bare array's refusal then says how to
        wrap it.
    binary : bool
        Refuse a graded cell (not 0 or 1) naming its place: the function
        needs correct/wrong outcomes.

    Raises
    ------
    ValueError
        A bare array or list (it does not say which axis holds the models;
        the message names ``sotalib.PerItem``), or anything else that is not
        per-item results.
    """
    if isinstance(data, PerItem):
        table = data
    elif _is_frame(data):
        table = PerItem.from_frame(data, name)
    elif isinstance(data, (str, bytes, os.PathLike)):
        raise ValueError(
            f"{name} must be per-item results, got the text {str(data)[:40]!r}; read a file with "
            "sotalib.read_per_item(path)"
        )
    elif _is_series(data) or isinstance(data, Mapping):
        raise ValueError(
            f"{name} must be per-item results, items as rows and models as columns (a sotalib.PerItem or a "
            f"DataFrame), got a {type(data).__name__} of one value per entry"
        )
    else:
        shape = np.shape(data) if isinstance(data, (np.ndarray, list, tuple)) else None
        if shape is not None and len(shape) == 2:
            raise ValueError(
                f"{name}: a bare array does not say which axis holds the models; wrap it as "
                f"sotalib.PerItem(array) with items as rows and models as columns{_old_layout(function, was)}"
            )
        got = f"an array of shape {shape}" if shape is not None else f"a {type(data).__name__}"
        raise ValueError(
            f"{name} must be per-item results, items as rows and models as columns: a sotalib.PerItem or a pandas "
            f"DataFrame, got {got}"
        )
    if binary:
        table._require_binary(name, function)
    return table


# ------------------------------------------------------------------ the reader
def _table(path: str | os.PathLike | bytes, needs: str, name: str | None = None) -> Table:
    """The file read as a table; a gzip-compressed file (``.csv.gz``) decompressed first."""
    raw, shown = _raw_source(path, name)
    if isinstance(raw, str):  # standard input as a text stream: its text, as bytes (a str would be a path)
        raw = raw.encode("utf-8")
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"is a damaged gzip file ({exc})", path=shown) from None
    return read_table(raw, name=shown, header=True, needs=needs)


def read_per_item(
    path: str | os.PathLike,
    *,
    format: Literal["auto", "wide", "long", "eval-arena", "lm-eval", "inspect", "helm", "eee"] = "auto",
    outcome: str | None = None,
    filter: str | None = None,
    item_info: str | os.PathLike | None = None,
    missing: bool = False,
    labels: bool | None = None,
) -> PerItem:
    r"""Read per-item results from a file or a folder of runs: the wide CSV, a long table or an evaluation log.

    ``format="auto"`` tells the layout from the file's name and first bytes:

    * ``"wide"``: a CSV, one row per test item, one column per model.  The
      first row names the models.  The first column holds the item ids, not
      a model, when its header is empty, ``item`` or ``id`` (any case), or
      -- whatever its header (``question_id``, ``doc``...) -- when some cell
      of it is not a number, or its cells are whole numbers not all 0 or 1
      (question numbers such as 70, 71, ...): a model's outcomes are 0/1
      (correct/wrong) or have fractions (graded results, losses).
      ``labels`` overrides the rule (``labels=False`` for a first model
      whose losses are whole numbers).  Blank lines are skipped.
    * ``"long"``: a CSV with one row per model, item (and sample): columns
      named (any case) ``model`` (or ``model_id``, ``model_name``,
      ``system``, ``candidate``, ``submission``), ``item`` (or ``item_id``,
      ``example_id``, ``doc_id``, ``id``, ``question_id``, ``instance_id``,
      ``problem_id``, ``task_id``), a score (``score``, ``outcome``,
      ``correct``, ``is_correct``, ``pass1``, ``pass@1``, ``value``,
      ``acc``, ``accuracy``, ``exact_match``, ``result``, or the column ``outcome`` names)
      and optionally a sample (``sample``, ``sample_index``, ``epoch``,
      ``repeat``, ``repetition``, ``trial``, ``generation``, ``seed``,
      ``run``).  Other columns constant within each item (``cluster``,
      ``options``...) become :attr:`PerItem.item_info`.
    * ``"eval-arena"``: eval-arena's JSONL (``model``, ``example_id``,
      ``pass1``; ``.jsonl.gz`` too).  ``pass1`` may be a mean over K
      samples the file does not record: ``samples`` stays None (unknown)
      unless a ``count`` or ``n`` key gives K; ``squares`` is ``pass1``
      itself (the mean square of 0/1 passes is their mean).  Several
      ``benchmark_id`` values are refused unless ``filter`` names one.
    * ``"lm-eval"``: lm-evaluation-harness ``--log_samples`` files
      (``samples_<task>_<date>.jsonl``): ``doc_id`` and the metric as a
      top-level key (``acc``, ``exact_match``...), one line per document
      and filter; ``filter`` chooses the filter (several and none named is
      refused, listing them).  The model is the ``model_name`` (or
      ``pretrained=``) of the ``results_<date>.json`` beside it, else its
      folder's name; a folder of several tasks names items ``task/doc_id``.
    * ``"inspect"``: Inspect AI logs (``.eval`` zip or ``.json``): each
      sample's ``id``, ``epoch`` and ``scores[scorer].value`` (``C`` 1,
      ``I`` 0, ``P`` 0.5, ``N`` 0, or a number); epochs are samples.
    * ``"helm"``: HELM's ``per_instance_stats.json``: ``instance_id``, the
      stat ``outcome`` names (``exact_match``...), ``train_trial_index`` as
      samples; perturbed copies are left out; the model from the run's
      ``run_spec.json`` or its folder's ``model=``.
    * ``"eee"``: Every Eval Ever instance JSONL (``sample_id``,
      ``model_id``, ``evaluation.score``, else ``evaluation.is_correct``).

    A folder is read as one run per file (or per sub-folder), combined.
    Items are matched by id across models; an item some model lacks is NaN
    there (counted in :attr:`PerItem.n_incomplete` and its text), never
    dropped or invented.  Repeated samples (epochs, trials, a long table's
    sample column) are kept: the cell is their mean, :attr:`PerItem.samples`
    their number K and :attr:`PerItem.squares` their mean square.

    Parameters
    ----------
    path : str or path-like
        A file (UTF-8, possibly gzip-compressed), a folder of runs, or
        ``"-"`` for standard input.
    format : {"auto", "wide", "long", "eval-arena", "lm-eval", "inspect", "helm", "eee"}
        The layout (default: detected).
    outcome : str, optional
        The metric (lm-eval), stat (HELM), scorer (Inspect), key (eval-arena,
        default ``pass1``; eee: ``score`` or ``is_correct``) or score column
        (long) to read; needed when the file holds several, which are then
        listed.
    filter : str, optional
        The lm-eval filter (eval-arena: the ``benchmark_id``; eee: the
        ``evaluation_name``) to read.
    item_info : str or path-like, optional
        A CSV with a column ``item`` and any of ``cluster``, ``options``
        (and other attributes), one row per item, merged into
        :attr:`PerItem.item_info`.
    missing : bool
        Whether a blank cell (or a null result) is a missing answer (NaN)
        rather than an error (the default: a bootstrap of per-item results
        needs every cell).
    labels : bool or None
        Whether the first column of a wide CSV holds item ids (None: by the
        rule above).

    Returns
    -------
    PerItem
        Items as rows, models as columns.  From a wide CSV a cell a
        function later refuses (a graded 0.3 where correct/wrong is needed)
        is named by its line and column.

    Raises
    ------
    ValueError
        An ``InputError`` (a ``ValueError``) naming the file, the line and
        the column (or key) when the file cannot be read, is none of the
        formats (one line saying what was expected), has a repeated model
        name, item id or record (both lines named), several metrics,
        scorers, stats or filters and none chosen (listing them), or a cell
        that is not a finite number.

    References
    ----------
    Pavão, *How to judge a competition*, Section 3 (per-item results: the
    bootstrap resamples the test items).  The formats' documented schemas:
    ``tests/data/per_item_formats/README.md``.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import sotalib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> path = folder / "items.csv"
    >>> _ = path.write_text("question_id,A,B\n70,1,0\n71,1,1\n72,0,1\n")
    >>> t = sotalib.read_per_item(path)
    >>> t.items, t.models, t.outcomes.tolist()
    (('70', '71', '72'), ('A', 'B'), [[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])

    A long table with two samples per cell, one item missing for B:

    >>> path = folder / "long.csv"
    >>> rows = ["model,item,sample,score", "A,q1,1,1", "A,q1,2,0", "A,q2,1,1",
    ...         "A,q2,2,1", "B,q1,1,1", "B,q1,2,1"]
    >>> _ = path.write_text("\n".join(rows) + "\n")
    >>> t = sotalib.read_per_item(path)
    >>> t.outcomes.tolist(), t.samples.tolist(), t.n_incomplete
    ([[0.5, 1.0], [1.0, nan]], [[2, 2], [2, 0]], 1)
    """
    from ._per_item_formats import attach_item_info, read_logs

    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(map(repr, FORMATS))}, got {format!r}")
    if labels is not None and not isinstance(labels, bool):
        raise ValueError(f"labels must be True, False or None, got {labels!r}")
    for name, value in (("outcome", outcome), ("filter", filter)):
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ValueError(f"{name} must be a non-empty name or None, got {value!r}")
    kind, read = read_logs(path, format=format, outcome=outcome, filter=filter, missing=missing)
    if kind == "wide":
        if outcome is not None or filter is not None:
            raise ValueError(
                "outcome= and filter= do not apply to a wide CSV (one column per model); give format= if the file "
                "is another layout"
            )
        table = _read_wide(
            read.data if read.data is not None else read.path, read.shown, missing=missing, labels=labels
        )
    else:
        if labels is not None:
            raise ValueError(f"labels applies to a wide CSV only, not to a {kind} file")
        table = read
    if item_info is not None:
        table = attach_item_info(table, item_info)
    return table


def _read_wide(source: Any, shown: str, *, missing: bool, labels: bool | None) -> PerItem:
    """The wide CSV: one row per item, one column per model."""
    t = _table(source, "a header row naming the models and one row per test item", name=shown)
    assert t.header is not None  # read with header=True
    if labels is None:
        labels = _is_label_column(t.header[0], [row[0] for row in t.rows])
    first = 1 if labels else 0
    if t.width <= first:
        raise t.error("needs at least one model column", line=t.header_line)
    _refuse_numbers_as_names(t, range(first, t.width))
    t.require_unique_header(what="model names", columns=range(first, t.width))
    if labels:
        items: list | None = list(t.column(0, kind="name"))
        t.require_unique(0, what="item ids")
    else:
        items = None
    blank: Literal["error", "none"] = "none" if missing else "error"
    cells = [[math.nan if v is None else float(v) for v in t.column(j, blank=blank)] for j in range(first, t.width)]
    Y = np.array(cells, dtype=np.float64).T.reshape(len(t.rows), t.width - first)
    origin = (t.source, tuple(t.lines), tuple(t.label(j) for j in range(first, t.width)))
    return PerItem(Y, items=items, models=list(t.header[first:]), _origin=origin)


def _refuse_numbers_as_names(t: Table, columns: range) -> None:
    """Refuse a header whose model names are all numbers, one with a fraction: a file without its header."""
    assert t.header is not None
    values = [parse_number(t.header[j], decimal_comma=t.decimal_comma) for j in columns]
    if values and all(v is not None for v in values) and any(v != round(v) for v in values if v is not None):
        raise t.error(
            "the first line holds numbers, not model names: the file needs a header line such as "
            "'item,model A,model B'",
            line=t.header_line,
        )
