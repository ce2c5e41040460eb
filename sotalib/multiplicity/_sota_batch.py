"""Estimating the state of the art behind many leaderboards at once (``sotalib sota --batch``).

:func:`estimate_sota_batch` reads a manifest -- a pandas DataFrame, a CSV file or an open
file, one leaderboard per row -- and runs :func:`~sotalib.multiplicity.estimate_sota` on
every board: each row gets an estimate, a reason why there is none, or an error naming its
column, and one bad row never costs another row its answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._errors import NoSolutionError
from .._io import InputError, read_table_or_frame
from .._json import json_safe
from .._progress import progress as _progress
from .._result import Result

__all__ = ["SotaBatch", "estimate_sota_batch"]

#: Columns a manifest may hold (names matched case-insensitively); ``file`` and ``n`` are required.
MANIFEST_COLUMNS = (
    "id",
    "file",
    "score_column",
    "n",
    "metric",
    "classes",
    "chance",
    "prevalence",
    "rho",
    "method",
    "target",
    "alpha",
    "engine",
    "n_resamples",
    "seed",
)
_INTEGERS = ("n", "classes", "n_resamples", "seed")
_REALS = ("chance", "prevalence", "rho", "alpha")
#: Columns of a :class:`SotaBatch` row.
BATCH_ROW_KEYS = (
    "row",
    "id",
    "file",
    "status",
    "metric",
    "n",
    "m",
    "sample_max",
    "estimate",
    "ci_low",
    "ci_high",
    "expected_max",
    "teams_above",
    "weight",
    "engine",
    "reason",
    "error",
    "exit_code",
)


@dataclass(frozen=True, repr=False)
class SotaBatch(Result):
    """The estimates for every board of a manifest (what ``sotalib sota --batch`` prints).

    Attributes
    ----------
    boards : tuple of dict
        One row per board (keys :data:`BATCH_ROW_KEYS`): ``status`` is ``"solved"``,
        ``"no solution"`` (``reason`` says why; the command line's exit code 3 for a
        single board) or ``"error"`` (``error`` names the column or file at fault; exit
        code 2).  ``metric`` is the metric estimated (a Gini board is estimated as its AUC).
    """

    boards: tuple

    def to_dict(self) -> dict:
        """``{"boards": [row, ...]}``, JSON-safe (the output of ``sotalib sota --batch --json``)."""
        return json_safe({"boards": [dict(r) for r in self.boards]})

    def to_text(self) -> str:
        """One line per board: what the command line prints without ``--json``."""
        lines = []
        for r in self.boards:
            name = r["id"] or r["file"] or f"row {r['row']}"
            if r["status"] == "solved":
                lines.append(
                    f"{name}: state of the art {r['estimate']:.4f}, interval ({r['ci_low']:.4f}, "
                    f"{r['ci_high']:.4f}), {r['teams_above']:,} of {r['m']:,} teams above it "
                    f"(best score {r['sample_max']:.4f})"
                )
            elif r["status"] == "no solution":
                lines.append(f"{name}: no solution: {r['reason']}")
            else:
                lines.append(f"{name}: error: {r['error']}")
        return "\n".join(lines)

    def _repr_fields(self) -> dict[str, Any]:
        return {"boards": len(self.boards)}


def _read_manifest(table) -> tuple[list[str], list[list[str]], str, str, int | None]:
    t, base, where = read_table_or_frame(
        table,
        file_word="manifest",
        frame_word="manifest",
        needs="a header line (file, n, and metric, classes, prevalence, ... as needed) and one line per board",
    )
    assert t.header is not None
    return list(t.header), [list(r) for r in t.rows], base, where, t.header_line


def _columns(header: list[str], where: str, line: int | None) -> dict[str, int]:
    index: dict[str, int] = {}
    for j, raw in enumerate(header):
        key = str(raw).strip().lower().replace("-", "_").replace(" ", "_")
        if key not in MANIFEST_COLUMNS:
            raise InputError(
                f"unknown column {str(raw).strip()!r}; the accepted columns are {', '.join(MANIFEST_COLUMNS)}",
                path=where,
                line=line,
                column=j + 1,
            )
        if key in index:
            raise InputError(f"column {key!r} is given twice: keep one", path=where, line=line, column=j + 1)
        index[key] = j
    for needed in ("file", "n"):
        if needed not in index:
            raise ValueError(f"{where}: has no column {needed!r}; every board needs a file and its test-set size n")
    return index


def _number(key: str, text: str):
    if key in _INTEGERS:
        value = float(text)
        if not value.is_integer():
            raise ValueError(f"{key} must be a whole number, got {text!r}")
        return int(value)
    return float(text)


def _one_board(cells: dict[str, str], base: str, progress: bool | None) -> dict:
    from ._leaderboard import read_leaderboard
    from ._sota_estimate import estimate_sota

    kwargs: dict[str, Any] = {}
    for key, text in cells.items():
        if key in ("id", "file", "score_column") or text == "":
            continue
        if key in _INTEGERS or key in _REALS:
            try:
                kwargs[key] = _number(key, text)
            except ValueError as exc:
                raise ValueError(
                    f"column {key}: {exc}" if "must be" in str(exc) else f"column {key}: {text!r} is not a number"
                ) from None
        else:
            kwargs[key] = text.strip().lower()
    if "seed" in kwargs:
        kwargs["rng"] = kwargs.pop("seed")
    path = Path(cells["file"])
    if not path.is_absolute():
        path = Path(base) / path
    metric = kwargs.get("metric", "accuracy")
    if metric == "gini":  # the normalized Gini, 2 AUC - 1: read as the AUC
        kwargs["metric"] = "auc"
    scale = "gini" if metric == "gini" else "auto"
    scores: Any = read_leaderboard(path, score_column=cells.get("score_column") or None, scale=scale)
    kwargs.setdefault("progress", False if progress is not True else None)
    n = kwargs.pop("n", None)
    if n is None:
        raise ValueError("column n: every board needs its test-set size")
    est = estimate_sota(scores, n, **kwargs)
    return dict(
        metric=kwargs.get("metric", "accuracy"),
        n=est.n,
        m=est.m,
        sample_max=est.sample_max,
        estimate=est.estimate,
        ci_low=est.ci_low,
        ci_high=est.ci_high,
        expected_max=est.expected_max,
        teams_above=est.teams_above,
        weight=est.weight,
        engine=est.details.get("engine"),
        status="solved" if est.solved else "no solution",
        reason=est.reason,
        exit_code=0 if est.solved else 3,
    )


#: A manifest: a pandas DataFrame, a path (str or os.PathLike) or an open text file (pandas is not
#: imported to annotate it: loading ``SotaBatch`` must not cost the import of pandas).
Manifest = Any


def estimate_sota_batch(table: Manifest, *, progress: bool | None = None) -> SotaBatch:
    r"""Estimate the state of the art behind every leaderboard of a manifest.

    Columns (names matched case-insensitively): ``file`` (a leaderboard file, its path
    relative to the manifest's folder) and ``n`` (its test-set size), and as needed the
    options of :func:`~sotalib.multiplicity.estimate_sota`: ``metric`` (``accuracy``,
    ``auc`` or ``gini`` -- the normalized Gini ``2 AUC - 1``, estimated as the AUC
    ``(Gini + 1) / 2``), ``classes``, ``chance`` (the chance level, in ``[0, 1)``: 0 for a task without
    one; not with ``classes``), ``prevalence``, ``rho``, ``method``, ``target``,
    ``alpha``, ``engine``, ``n_resamples``, ``seed``; optionally ``id`` and
    ``score_column``.  Empty cells take the defaults.

    Every board gets an estimate, the reason it has none, or an error naming its column or
    file; a board that cannot be answered never costs another board its answer.

    Parameters
    ----------
    table : DataFrame, path or file
        The manifest.
    progress : bool or None
        Progress bar over the boards (None: only when stderr is a terminal).

    Returns
    -------
    SotaBatch
        One row per board, in the manifest's order (``row`` numbers them from 1).

    Raises
    ------
    ValueError
        The manifest itself is unusable: unreadable, empty, without a ``file`` or ``n``
        column, or with an unknown or repeated column (the message names it).

    References
    ----------
    Møllersen & Holsbø, Section 5 (the estimators, applied to each board as by
    :func:`~sotalib.multiplicity.estimate_sota`).

    Examples
    --------
    >>> import io, os, tempfile
    >>> from sotalib.multiplicity import estimate_sota_batch
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "board.csv"), "w") as f:
    ...     _ = f.write("score\n0.86\n0.85\n0.84\n0.84\n0.83\n0.82\n0.82\n0.81\n0.80\n0.78\n")
    >>> with open(os.path.join(folder, "manifest.csv"), "w") as f:
    ...     _ = f.write("id,file,n\nmine,board.csv,500\nlost,missing.csv,500\n")
    >>> result = estimate_sota_batch(os.path.join(folder, "manifest.csv"))
    >>> [(r["id"], r["status"]) for r in result.boards]
    [('mine', 'solved'), ('lost', 'error')]
    >>> f"{result.boards[0]['estimate']:.4f}"
    '0.8573'
    """
    header, rows, base, where, header_line = _read_manifest(table)
    index = _columns(header, where, header_line)
    out = []
    for number, cells in enumerate(_progress(rows, total=len(rows), desc="boards", show=progress), start=1):
        values = {key: (cells[j].strip() if j < len(cells) else "") for key, j in index.items()}
        row = dict.fromkeys(BATCH_ROW_KEYS)
        row.update(row=number, id=values.get("id") or None, file=values.get("file") or None)
        try:
            if not values.get("file"):
                raise ValueError("column file: empty; every board needs its leaderboard file")
            row.update(_one_board(values, base, progress))
        except NoSolutionError as exc:
            row.update(status="no solution", reason=str(exc), exit_code=3)
        except (ValueError, OSError) as exc:
            row.update(status="error", error=str(exc), exit_code=2)
        out.append(row)
    return SotaBatch(boards=tuple(out))
