"""Checking a table of reports at once (``sotalib check --batch``).

:func:`check_batch` reads a table -- a pandas DataFrame, a CSV file or an
open file -- and runs :func:`sotalib.consistency.check_report`'s tests on every
row: every row gets a verdict or an error naming its column, and one bad row
never costs another row its verdict.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .._io import InputError, read_table_or_frame
from .._json import json_safe
from .._progress import progress as _progress
from .._result import Result
from ._folds import Folds, read_folds
from ._intervals import as_decimal
from ._report import MAX_REPEATS, ReportVerdict, _check_report
from ._scores import SCORES, resolve_score

if TYPE_CHECKING:  # pandas is imported only by to_frame() and for a DataFrame argument
    import pandas

__all__ = ["BatchVerdict", "check_batch"]

#: A table of reports: a pandas DataFrame, a path (str or os.PathLike) or an open text file (pandas is
#: not imported to annotate it: loading ``BatchVerdict`` must not cost the import of pandas).
Table = Any

#: Columns of a :class:`BatchVerdict` row.
BATCH_RESULT_COLUMNS = ("id", "verdict", "fits", "n_solutions", "configurations_tested", "typo", "error")
#: The columns added where a row is an accuracy on n items.
ACCURACY_RESULT_COLUMNS = ("min_repeats", "example")


@dataclass(frozen=True, repr=False)
class BatchVerdict(Result):
    """The verdicts on every row of a table of reports (what ``sotalib check --batch`` prints).

    Attributes
    ----------
    reports : tuple of dict
        One row per report: id, verdict ('consistent', 'INCONSISTENT' or 'error'), fits,
        n_solutions, configurations_tested (None: too many to count, see note), typo, error, note,
        min_repeats and example (an accuracy on n items: the fewest runs whose mean gives the
        values, with counts that do; None on the other rows).
    """

    reports: tuple

    @property
    def consistent(self) -> list:
        """Per report: True, False, or None when the row could not be checked."""
        return [{"consistent": True, "INCONSISTENT": False}.get(r["verdict"]) for r in self.reports]

    @property
    def errors(self) -> list:
        """The rows that could not be checked (verdict 'error')."""
        return [r for r in self.reports if r["verdict"] == "error"]

    def to_dict(self) -> dict:
        """``{"reports": [row, ...]}``, JSON-safe (the output of ``sotalib check --batch --json``)."""
        return json_safe({"reports": [dict(r) for r in self.reports]})

    def to_frame(self) -> pandas.DataFrame:
        """One row per report as a pandas DataFrame (columns as in :data:`BATCH_RESULT_COLUMNS`).

        ``configurations_tested`` keeps None (too many to count), never NaN; a table of accuracies
        on n items also has ``min_repeats`` and ``example``.
        """
        import pandas as pd  # optional, heavy: only when a frame is asked for

        columns = list(BATCH_RESULT_COLUMNS)
        if any(r.get("min_repeats") is not None for r in self.reports):
            columns += ACCURACY_RESULT_COLUMNS
        return pd.DataFrame([dict(r) for r in self.reports], columns=columns, dtype=object)

    def to_text(self) -> str:
        """The table ``sotalib check --batch`` prints: one line per report, then every error in full."""
        head: tuple[str, ...] = ("id", "verdict", "fits", "solutions", "configurations", "typo")
        runs = any(r.get("min_repeats") is not None for r in self.reports)  # accuracies on n items
        if runs:
            head += ("fewest runs",)
        lines = []
        for r in self.reports:
            tested = r["configurations_tested"]
            cells: tuple[str, ...] = (
                str(r["id"]),
                r["verdict"],
                r["fits"],
                "-" if r["verdict"] == "error" else f"{r['n_solutions']:,}",
                "-" if r["verdict"] == "error" else ("too many to count" if tested is None else f"{tested:,}"),
                r["typo"] or "-",
            )
            if runs:
                cells += ("-" if r.get("min_repeats") is None else str(r["min_repeats"]),)
            lines.append(cells)
        widths = [max(len(h), *(len(row[j]) for row in lines)) for j, h in enumerate(head)]
        out = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip()]
        out += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in lines]
        errors = self.errors
        n_ok = len(self.reports) - len(errors)
        n_bad = sum(r["verdict"] == "INCONSISTENT" for r in self.reports)
        out.append(
            f"{len(self.reports)} reports: {n_ok - n_bad} consistent, {n_bad} INCONSISTENT, "
            f"{len(errors)} could not be checked"
        )
        for r in errors:
            out.append(f"  error in row {r['row']} (id {r['id']}): {r['error']}")
        return "\n".join(out)

    def __len__(self) -> int:
        return len(self.reports)


#: Columns of a batch file that are not scores (matched case-insensitively).
BATCH_COLUMNS: tuple[str, ...] = (
    "id",
    "p",
    "n",
    "k",
    "folds",
    "folds_file",
    "stratified",
    "repeats",
    "aggregation",
    "decimals",
    "eps",
    "rounding",
)
BATCH_COLUMNS += ("dataset",)  # a named test set (sotalib.consistency.DATASETS) instead of p and n
#: An accuracy on n items (a named benchmark in ``dataset``, or ``items``): runs are ``repeats``.
ACCURACY_COLUMNS: tuple[str, ...] = ("items", "samples", "pass_at", "average")
BATCH_COLUMNS += ACCURACY_COLUMNS
#: Other spellings of batch columns.
_ALIASES = {"n_items": "items", "pass_k": "pass_at", "passk": "pass_at"}

_TRUE = ("true", "yes", "1", "1.0", "y", "t")
_FALSE = ("false", "no", "0", "0.0", "n", "f")


def _column_key(name: str) -> str:
    key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
    return _ALIASES.get(key, key)


def _names_a_benchmark(cell: str) -> bool:
    """Whether a ``dataset`` cell names a language-model benchmark (not a named test set)."""
    from ._benchmarks import BENCHMARKS, _key
    from ._datasets import DATASETS

    return bool(cell.strip()) and cell.strip().lower() not in DATASETS and _key(cell) in BENCHMARKS


def _int_cell(column: str, text: str, low: int, high: int | None = None) -> int:
    """An integer cell of ``column``: ``100``, ``100.0`` or ``1e3``.

    ``100.0`` is accepted because pandas writes the integers of a column with a gap as
    floats; ``100.5`` or text is an error naming the column.
    """
    rng = f">= {low}" if high is None else f"in [{low}, {high}]"
    try:
        v = as_decimal(text, f"column {column}")
    except ValueError:
        raise ValueError(f"column {column} must be an integer {rng}, got {text!r}") from None
    if v.denominator != 1 or v < low or (high is not None and v > high):
        raise ValueError(f"column {column} must be an integer {rng}, got {text!r}")
    return int(v)


def _bool_cell(column: str, text: str) -> bool:
    t = text.strip().lower()
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    raise ValueError(f"column {column} must be true or false (also yes/no, 1/0), got {text!r}")


def _read_table(table) -> tuple[list[str], list[tuple[int, list[str]]], str, str, int | None]:
    """(header, [(row number, cells)], base directory for folds_file, name of the table, header line).

    A file is read by sotalib's one reader of users' tables (:func:`sotalib._io.read_table`: UTF-8 with
    or without a byte-order mark, comma, semicolon or tab delimiters, decimal commas written as points
    here since the cells are passed on as text); a DataFrame's rows go through the same table.  Rows are
    numbered as data rows (1 = the first report), as in a DataFrame.
    """
    t, base, where = read_table_or_frame(
        table,
        file_word="batch file",
        frame_word="table",
        needs="a header line (p and n, or items, or dataset; score names; decimals or eps) and one line per report",
    )
    assert t.header is not None  # read with header=True
    return list(t.header), [(j + 1, list(r)) for j, r in enumerate(t.rows)], base, where, t.header_line


def _columns(header, where, line: int | None = None, rows=()) -> tuple[dict[str, int], dict[str, int]]:
    """({batch column: index}, {score name as written: index}); unknown or repeated columns are errors.

    A table of accuracies on n items (a column ``items``, ``samples``, ``pass_at`` or ``average``,
    or a ``dataset`` cell naming a benchmark) takes any other column as a score: a share of the
    items (``pass@1``, ``exact_match``, ``resolved``, ...); on a row of positives and negatives
    such a column is that row's error.  The errors name the table, the header's ``line`` (None
    for a DataFrame) and the column at fault.
    """
    known, scores, unknown = {}, {}, []
    seen: dict[str | tuple[str, str, bool, Fraction], str] = {}  # a batch column or a score
    for j, raw in enumerate(header):
        key = _column_key(raw)
        if not key:
            raise InputError("has no name", path=where, line=line, column=j + 1)
        if key in BATCH_COLUMNS:
            what: str | tuple[str, str, bool, Fraction] = key
        else:
            try:
                spec = resolve_score(raw)
            except ValueError:
                unknown.append(str(raw).strip())
                continue
            what = ("score", spec.base, spec.complement, spec.beta)
        if what in seen:
            raise InputError(
                f"columns {seen[what]!r} and {str(raw).strip()!r} name the same thing: keep one",
                path=where,
                line=line,
                column=j + 1,
            )
        seen[what] = str(raw).strip()
        if key in BATCH_COLUMNS:
            known[key] = j
        else:
            scores[str(raw).strip()] = j
    if unknown and _accuracy_table(header, rows):
        for raw in unknown:
            if raw in scores:
                raise InputError(f"column {raw!r} is given twice: keep one", path=where, line=line)
            scores[raw] = next(j for j, h in enumerate(header) if str(h).strip() == raw)
        unknown = []
    if unknown:
        raise ValueError(
            f"{where}: unknown column(s) {', '.join(map(repr, unknown))}; the accepted columns are "
            f"{', '.join(BATCH_COLUMNS)} (any case) and score names: {', '.join(SCORES)} or their "
            "synonyms and complements (accuracy, recall, precision, f1, error_rate, ...)"
        )
    if not scores:
        raise ValueError(f"{where}: no score column (acc, sens, spec, f1, ...)")
    if not ({"p", "n"} <= set(known) or {"folds", "folds_file", "dataset", "items"} & set(known)):
        raise ValueError(f"{where}: needs columns p and n (or folds, or folds_file, or dataset, or items)")
    return known, scores


def _accuracy_table(header, rows) -> bool:
    """Whether the table holds accuracies on n items: an accuracy column, or a benchmark in ``dataset``."""
    keys = [_column_key(h) for h in header]
    if set(ACCURACY_COLUMNS) & set(keys):
        return True
    if "dataset" not in keys:
        return False
    j = keys.index("dataset")
    return any(j < len(cells) and _names_a_benchmark(cells[j]) for _, cells in rows)


def _check_row(cells, known, score_cols, base, diagnosis) -> dict:
    get: dict[str, str] = {c: (cells[j].strip() if j < len(cells) else "") for c, j in known.items()}
    opt = lambda c: get.get(c) or None  # noqa: E731
    scores = {name: cells[j].strip() for name, j in score_cols.items() if j < len(cells) and cells[j].strip()}
    if not scores:
        raise ValueError("no score given (every score column is empty)")
    folds: str | Folds | None = opt("folds")  # text, or the pairs read from folds_file
    if opt("folds_file"):
        if folds:
            raise ValueError("give either column folds or column folds_file, not both")
        path = get["folds_file"]  # opt("folds_file"), known non-empty here
        folds = read_folds(path if os.path.isabs(path) else os.path.join(base, path))
    if opt("decimals") and opt("eps"):
        raise ValueError("give either column decimals or column eps, not both")
    v = _check_report(
        _int_cell("p", get["p"], 1) if opt("p") else None,
        _int_cell("n", get["n"], 1) if opt("n") else None,
        scores,
        eps=opt("eps"),
        decimals=_int_cell("decimals", get["decimals"], 0, 15) if opt("decimals") else None,
        rounding=get["rounding"].lower() if opt("rounding") else None,
        folds=folds,
        k=_int_cell("k", get["k"], 2) if opt("k") else None,
        stratified=_bool_cell("stratified", get["stratified"]) if opt("stratified") else False,
        repeats=_int_cell("repeats", get["repeats"], 1, MAX_REPEATS) if opt("repeats") else 1,
        aggregation=get["aggregation"].lower() if opt("aggregation") else None,
        diagnosis=diagnosis,
        progress=False,
        max_configurations=2_000,
        fold_min=None,
        fold_max=None,
        dataset=opt("dataset"),
        **_accuracy_options(get, opt),
    )
    if v.aggregation == "accuracy":
        detail = v.details["accuracy"]
        s = v.suggestions[0] if v.suggestions else None
        return {
            "verdict": "consistent" if v.consistent else "INCONSISTENT",
            "fits": ",".join(v.fits) or "-",
            "n_solutions": v.n_solutions,
            "configurations_tested": v.configurations_tested,
            "typo": "" if s is None else f"{s.score} {s.reported:.{s.decimals}f} -> {s.suggested:.{s.decimals}f}",
            "error": "",
            "note": detail.get("note", "") if v.consistent else v.diagnosis,
            "min_repeats": v.min_repeats,
            "example": v.example,
        }
    sug = v.suggestions[0] if v.suggestions else None
    main = v.details[v.evidence_aggregation or next(iter(v.details))]
    typo = ""
    if sug is not None:
        typo = f"{sug.score} {sug.reported:.{sug.decimals}f} -> {sug.suggested:.{sug.decimals}f}"
    elif not v.consistent and diagnosis:
        typo = "none plausible"
    return {
        "verdict": "consistent" if v.consistent else "INCONSISTENT",
        "fits": ",".join(v.fits) or "-",
        "n_solutions": v.n_solutions,
        "configurations_tested": v.configurations_tested,
        "typo": typo,
        "error": "",
        "note": main.get("note", "") if v.configurations_tested is not None else _uncounted(v),
        "min_repeats": None,
        "example": None,
    }


def _accuracy_options(get: dict[str, str], opt) -> dict[str, Any]:
    """The options of an accuracy on n items a row gives (none: the row is not one)."""
    out: dict[str, Any] = {}
    if opt("items"):
        out["n_items"] = _int_cell("items", get["items"], 1)
    if opt("samples"):
        out["samples"] = _int_cell("samples", get["samples"], 1)
    if opt("pass_at"):
        out["pass_at"] = _int_cell("pass_at", get["pass_at"], 1)
    if opt("average"):
        out["average"] = get["average"].lower()
    return out


def _uncounted(v: ReportVerdict) -> str:
    notes = [f"{a}: {d['note']}" for a, d in v.details.items() if d.get("configurations_tested") is None]
    return "configurations_tested is null: too many fold configurations to count (the verdict covers them all); " + (
        "; ".join(notes)
    )


def check_batch(table: Table, *, diagnosis: bool = True, progress: bool | None = None) -> BatchVerdict:
    r"""Check every row of a table of reports (a pandas DataFrame, a CSV path or an open file).

    Columns (names matched case-insensitively): ``p``, ``n`` and ``decimals`` or ``eps`` (per
    row), optionally ``id``, ``rounding``, ``k``, ``folds`` (``"p1:n1,..."``), ``folds_file`` (a
    CSV file with columns p and n, its path relative to the batch file), ``stratified``
    (true/false, yes/no, 1/0), ``repeats``, ``aggregation``, ``dataset`` (a named test set
    instead of p and n); every other column must be a
    score name (Table 2 abbreviation, synonym or complement).

    An accuracy on n items (:func:`sotalib.consistency.check_report` with ``n_items``): a row
    with ``items`` (also ``n_items``) or a ``dataset`` naming a benchmark
    (:data:`sotalib.consistency.BENCHMARKS`), optionally ``decimals`` or ``eps``, ``repeats``
    (runs of every item), ``samples`` and ``pass_at`` (K samples per item, pass@k), ``average``
    (micro or macro over a benchmark's subsets).  A table holding such rows takes any other
    column as a score, a share of the items (``acc``, ``pass@1``, ``resolved``, ``64.93%``);
    the verdict's ``min_repeats`` and ``example`` say how many runs a value needs.  Empty cells mean "not
    reported".  Values are read as the decimals written in the file; integer columns also
    accept the ``100.0`` pandas writes for a column with gaps.

    Every row gets a verdict or an error naming its column: a bad row never costs another
    row its verdict.

    Parameters
    ----------
    table : DataFrame, path or file
        The reports.
    diagnosis : bool
        Run the typo finder on inconsistent reports (the command line's ``--no-diagnosis``
        passes False).
    progress : bool or None
        Progress bar over the rows (None: only when stderr is a terminal).

    Returns
    -------
    BatchVerdict
        One row per report (``row`` numbers the reports from 1); ``to_dict()`` is what
        ``sotalib check --batch --json`` prints and ``to_text()`` the table it prints
        without ``--json``.

    Raises
    ------
    ValueError
        The table itself is unusable: unreadable, not UTF-8 (the message names the file),
        empty, without a score column, with an unknown column (the message lists the
        accepted names) or two columns naming the same score.

    References
    ----------
    Fazekas & Kovacs, Sections 3 and 4 (the tests run on every row, as in
    :func:`sotalib.consistency.check_report`).

    Examples
    --------
    >>> import io
    >>> from sotalib.consistency import check_batch
    >>> table = io.StringIO("id,p,n,eps,acc,npv,f1\npaper,1000,6000,1e-4,0.6801,0.9401,0.4004\n")
    >>> check_batch(table).reports[0]["typo"]
    'npv 0.9401 -> 0.9409'

    Accuracies on language-model benchmarks, one verdict per row:

    >>> table = io.StringIO("id,dataset,items,pass@1\nA,humaneval,,0.6493\nB,,164,0.6463\nC,gsm8k,,1.2\n")
    >>> [(r["id"], r["verdict"], r["min_repeats"]) for r in check_batch(table).reports]
    [('A', 'INCONSISTENT', 2), ('B', 'consistent', 1), ('C', 'error', None)]
    """
    header, rows, base, where, header_line = _read_table(table)
    known, score_cols = _columns(header, where, header_line, rows)
    out = []
    for number, cells in _progress(rows, total=len(rows), desc="reports", show=progress):
        id_j = known.get("id")
        label = (cells[id_j].strip() if id_j is not None and id_j < len(cells) else "") or str(number)
        row = {"id": label, "row": number}
        try:
            if len(cells) > len(header):
                raise ValueError(f"row has {len(cells)} cells but the header names {len(header)} columns")
            row.update(_check_row(cells, known, score_cols, base, diagnosis))
        except Exception as exc:  # noqa: BLE001 - one bad row never costs another row its verdict
            msg = " ".join(str(exc).split()) or type(exc).__name__
            if "n_items" in getattr(exc, "parameters", ()):  # the option check_report names is the column items
                msg = msg.replace("n_items", "items")
            if not isinstance(exc, ValueError):
                msg = f"{type(exc).__name__}: {msg}"
            row.update(
                {
                    "verdict": "error",
                    "fits": "-",
                    "n_solutions": 0,
                    "configurations_tested": 0,
                    "typo": "",
                    "error": msg,
                    "note": "",
                    "min_repeats": None,
                    "example": None,
                }
            )
        out.append(row)
    return BatchVerdict(tuple(out))
