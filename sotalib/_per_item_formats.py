r"""The per-item logs of language-model evaluations, read into one :class:`~sotalib.PerItem`.

:func:`sotalib.read_per_item` reads the wide CSV itself and hands every
other layout here.  Each reader streams its file line by line (``.gz`` too)
into :class:`_Cells`, which collects ``(model, item, sample, value)``
records and turns them into the items x models table at the end: the
outcome of a cell is the mean of its samples, ``samples`` their number K,
``squares`` the mean of their squares (what splits a score's variance into
the data's and the prediction's).  Items are matched by id across models;
an item some model lacks is NaN there (counted by ``PerItem.n_incomplete``),
never dropped nor invented.  A record repeated where the format has no
samples is refused, naming both lines.

The formats and the documented schema each follows are listed in
``tests/data/per_item_formats/README.md``.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import math
import os
import re
import sys
import zipfile
import zlib
from collections.abc import Iterator
from typing import IO, Any

import numpy as np

from ._io import InputError, _not_text, _not_utf8

#: The layouts :func:`sotalib.read_per_item` reads besides "wide".
LOG_FORMATS = ("long", "eval-arena", "lm-eval", "inspect", "helm", "eee")

#: What a file must be, said when it is none of the formats.
EXPECTED = (
    "expected a wide CSV (item, one column per model), a long CSV (model, item, score[, sample]), eval-arena "
    "JSONL (model, example_id, pass1), lm-evaluation-harness samples_<task>_<date>.jsonl (doc_id and a metric), "
    "an Inspect log (.eval or .json), HELM per_instance_stats.json or Every Eval Ever instance JSONL "
    "(sample_id, model_id, evaluation)"
)

#: Header names (any case) of the long CSV's columns.
LONG_MODEL = ("model", "model_id", "model_name", "system", "candidate", "submission")
LONG_ITEM = ("item", "item_id", "example_id", "doc_id", "id", "question_id", "instance_id", "problem_id", "task_id")
LONG_SCORE = (
    "score",
    "outcome",
    "correct",
    "is_correct",
    "pass1",
    "pass@1",
    "value",
    "acc",
    "accuracy",
    "exact_match",
    "result",
)
LONG_SAMPLE = ("sample", "sample_index", "epoch", "repeat", "repetition", "trial", "generation", "seed", "run")

#: Keys of an lm-evaluation-harness sample line that are not metrics.
LM_EVAL_KEYS = frozenset(
    (
        "doc_id",
        "doc",
        "target",
        "arguments",
        "resps",
        "filtered_resps",
        "filter",
        "metrics",
        "doc_hash",
        "prompt_hash",
        "target_hash",
        "task",
        "task_name",
    )
)

#: Inspect's score values (inspect_ai.scorer: CORRECT, INCORRECT, PARTIAL, NOANSWER) as numbers.
INSPECT_VALUES = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}


# ------------------------------------------------------------------ the records, turned into a table
class _Cells:
    """``(model, item, sample, value)`` records, each with its file and line, made into a table at the end."""

    def __init__(self) -> None:
        self.models: dict[str, int] = {}
        self.items: dict[str, int] = {}
        self.samples: dict[Any, int] = {}
        self.mi: list[int] = []
        self.ii: list[int] = []
        self.si: list[int] = []
        self.values: list[float] = []
        self.lines: list[int] = []
        self.files: list[int] = []
        self.file_names: list[str] = []
        self.file = 0
        self.info: dict[str, dict[int, Any]] = {}

    def open(self, shown: str) -> None:
        """Start the records of the file named ``shown``."""
        self.file_names.append(shown)
        self.file = len(self.file_names) - 1

    def add(self, model: str, item: str, value: float, line: int, sample: Any = None) -> None:
        mi = self.models.get(model)
        if mi is None:
            mi = self.models[model] = len(self.models)
        ii = self.items.get(item)
        if ii is None:
            ii = self.items[item] = len(self.items)
        self.mi.append(mi)
        self.ii.append(ii)
        if sample is not None:
            si = self.samples.get(sample)
            if si is None:
                si = self.samples[sample] = len(self.samples)
            self.si.append(si)
        self.values.append(value)
        self.lines.append(line)
        self.files.append(self.file)

    def seen(self, model: str, item: str) -> None:
        """A record without a result (a missing answer): its model and item are kept, the cell stays missing."""
        self.models.setdefault(model, len(self.models))
        self.items.setdefault(item, len(self.items))

    def add_many(self, models: list, items: list, values: Any, lines: list[int], samples: list | None = None) -> None:
        """Many records at once (the fast path of the line readers): names as str, values floats."""
        md, it = self.models, self.items
        self.mi.extend([md.setdefault(x, len(md)) for x in models])
        self.ii.extend([it.setdefault(x, len(it)) for x in items])
        if samples is not None:
            sd = self.samples
            self.si.extend([sd.setdefault(x, len(sd)) for x in samples])
        self.values.extend(values.tolist() if isinstance(values, np.ndarray) else values)
        self.lines.extend(lines)
        self.files.extend([self.file] * len(lines))

    def add_codes(self, models: tuple, items: tuple, values: np.ndarray, lines: Any, samples: tuple | None) -> None:
        """Records given as factorized names, ``(codes, distinct names)`` each (the long CSV's fast path)."""

        def ids(coded: tuple, known: dict) -> list[int]:
            codes, names = coded
            index = np.array([known.setdefault(x, len(known)) for x in names], dtype=np.int64)
            return index[codes].tolist()

        self.mi.extend(ids(models, self.models))
        self.ii.extend(ids(items, self.items))
        if samples is not None:
            self.si.extend(ids(samples, self.samples))
        self.values.extend(values.tolist())
        self.lines.extend(np.asarray(lines).tolist())
        self.files.extend([self.file] * len(values))

    def _where(self, r: int) -> str:
        return f"{self.file_names[self.files[r]]}, line {self.lines[r]}"

    def table(self, *, sampled: bool, squares: bool | str, what: str, counts: dict[tuple[int, int], int] | None = None):
        """The PerItem of the records: means, K and mean squares per cell; a repeated record refused."""
        from ._per_item import PerItem

        if not self.values:
            raise InputError(f"holds no per-item result ({what})", path=self.file_names[0] if self.file_names else None)
        n, m = len(self.items), len(self.models)
        mi = np.array(self.mi, dtype=np.int64)
        ii = np.array(self.ii, dtype=np.int64)
        v = np.array(self.values, dtype=np.float64)
        flat = ii * m + mi
        key = flat * max(len(self.samples), 1) + np.array(self.si, dtype=np.int64) if sampled and self.si else flat
        order = np.argsort(key, kind="stable")
        ks = key[order]
        same = np.flatnonzero(ks[1:] == ks[:-1])
        if same.size:
            a, b = int(order[same[0]]), int(order[same[0] + 1])
            model = list(self.models)[self.mi[a]]
            item = list(self.items)[self.ii[a]]
            again = "sample" if sampled and self.si else "result"
            raise InputError(
                f"model {model!r}, item {item!r}: the same {again} is listed twice ({self._where(a)} and "
                f"{self._where(b)}); {what}",
                path=self.file_names[self.files[b]],
                line=self.lines[b],
            )
        K = np.bincount(flat, minlength=n * m).reshape(n, m)
        total = np.bincount(flat, weights=v, minlength=n * m).reshape(n, m)
        with np.errstate(invalid="ignore", divide="ignore"):
            Y = np.where(K > 0, total / np.maximum(K, 1), np.nan)
            S = Y.copy() if squares == "means" else None  # 0/1 samples: the mean square is the mean
            if squares is True:
                sq = np.bincount(flat, weights=v * v, minlength=n * m).reshape(n, m)
                S = np.where(K > 0, sq / np.maximum(K, 1), np.nan)
        samples = K if sampled and np.any(K > 1) else None
        if counts is not None:  # a count of samples given beside each mean (eval-arena's `count`/`n`)
            if len(counts) != int((K > 0).sum()):
                raise InputError(
                    f"gives a count of samples (count/n) on {len(counts):,} of its {int((K > 0).sum()):,} results: "
                    "give it on every line or on none",
                    path=self.file_names[0],
                )
            samples = np.zeros((n, m), dtype=np.int64)
            for (i, j), k in counts.items():
                samples[i, j] = k
        info = {}
        for column, values in self.info.items():
            info[column] = np.array([values.get(i, "") for i in range(n)], dtype=object)
        return PerItem(Y, items=list(self.items), models=list(self.models), samples=samples, squares=S, item_info=info)


# ------------------------------------------------------------------ files: plain, gzip, zip, standard input
class _Source:
    """One file (or standard input), its name in messages, its first bytes and its lines, gzip or not."""

    def __init__(self, path: str | os.PathLike | None, shown: str, data: bytes | None = None) -> None:
        self.path = None if path is None else os.fspath(path)
        self.shown = shown
        self.data = data
        self._head: bytes | None = None

    @classmethod
    def of(cls, path: str | os.PathLike) -> _Source:
        p = os.fspath(path)
        if p == "-":
            stdin = sys.stdin
            if stdin is None:
                raise InputError("no standard input to read", path="standard input")
            buffer = getattr(stdin, "buffer", None)
            raw = buffer.read() if buffer is not None else stdin.read()
            return cls(None, "standard input", raw.encode("utf-8") if isinstance(raw, str) else raw)
        if not os.path.exists(p):
            raise InputError("no such file", path=p)
        return cls(p, p)

    @property
    def name(self) -> str:
        return os.path.basename(self.path) if self.path else ""

    def raw(self) -> IO[bytes]:
        if self.data is not None:
            return io.BytesIO(self.data)
        try:
            return open(self.path or "", "rb")  # noqa: SIM115
        except OSError as exc:
            raise InputError(f"cannot be read ({exc.strerror or exc})", path=self.shown) from None

    def gzipped(self) -> bool:
        with self.raw() as fh:
            return fh.read(2) == b"\x1f\x8b"

    def zipped(self) -> bool:
        with self.raw() as fh:
            return fh.read(4) == b"PK\x03\x04"

    def stream(self) -> IO[bytes]:
        """The file's bytes, decompressed when it is gzip."""
        if self.gzipped():
            return gzip.GzipFile(fileobj=self.raw())  # type: ignore[return-value]
        return self.raw()

    def head(self, size: int = 65536) -> bytes:
        """The first ``size`` bytes (decompressed), without a byte-order mark."""
        if self._head is None:
            try:
                with self.stream() as fh:
                    self._head = fh.read(size)
            except (OSError, EOFError, zlib.error) as exc:
                raise InputError(f"is a damaged gzip file ({exc})", path=self.shown) from None
        return self._head.removeprefix(b"\xef\xbb\xbf")

    def lines(self) -> Iterator[tuple[int, bytes]]:
        """``(line number, line)`` of every non-blank line, streamed."""
        try:
            with self.stream() as fh:
                for k, line in enumerate(fh, 1):
                    if k == 1:
                        line = line.removeprefix(b"\xef\xbb\xbf")
                    if line.strip():
                        yield k, line
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"is a damaged gzip file ({exc})", path=self.shown) from None

    def blocks(self, size: int = 1 << 22) -> Iterator[tuple[list[int], list[bytes]]]:
        """``(line numbers, lines)`` of the non-blank lines, a few MB at a time (no loop per line when none is blank)."""
        number = 1
        rest = b""
        try:
            with self.stream() as fh:
                first = True
                while True:
                    chunk = fh.read(size)
                    if first:
                        chunk, first = chunk.removeprefix(b"\xef\xbb\xbf"), False
                    if not chunk:
                        break
                    lines = (rest + chunk).split(b"\n")
                    rest = lines.pop()
                    yield self._numbered(number, lines)
                    number += len(lines)
                if rest:
                    yield self._numbered(number, [rest])
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"is a damaged gzip file ({exc})", path=self.shown) from None

    @staticmethod
    def _numbered(number: int, lines: list[bytes]) -> tuple[list[int], list[bytes]]:
        kept = [k for k, line in enumerate(lines) if not line.strip()]
        if not kept:
            return list(range(number, number + len(lines))), lines
        blank = set(kept)
        keep = [k for k in range(len(lines)) if k not in blank]
        return [number + k for k in keep], [lines[k] for k in keep]

    def load(self) -> Any:
        """The whole file as one JSON document."""
        try:
            with self.stream() as fh:
                return json.load(fh)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"is a damaged gzip file ({exc})", path=self.shown) from None
        except json.JSONDecodeError as exc:
            raise InputError(f"is not valid JSON ({exc.msg})", path=self.shown, line=exc.lineno) from None
        except UnicodeDecodeError:
            raise InputError("is not UTF-8 text", path=self.shown) from None


def _json_lines(src: _Source, what: str) -> Iterator[tuple[int, dict]]:
    """Every line of a JSONL file as ``(line number, object)``; a line that is not a JSON object refused."""
    return _json_lines_of(src.lines(), src.shown, what)


class _Slow(Exception):
    """A batch the fast path cannot take as it is: read it record by record (which names any fault)."""


def _json_batches(src: _Source, what: str) -> Iterator[tuple[list[int], list[dict]]]:
    """The lines of a JSONL file as batches ``(line numbers, objects)``, each block parsed as one JSON array."""
    loads = json.loads
    for nums, lines in src.blocks():
        if not lines:
            continue
        try:
            objs = loads(b"[" + b",".join(lines) + b"]")
            if len(objs) == len(lines):
                yield nums, objs
                continue
        except (ValueError, UnicodeDecodeError):
            pass
        yield nums, [obj for _, obj in _json_lines_of(zip(nums, lines, strict=True), src.shown, what)]


def _json_lines_of(numbered, shown: str, what: str) -> Iterator[tuple[int, dict]]:
    for k, line in numbered:
        try:
            obj = json.loads(line)
        except UnicodeDecodeError as exc:  # not "not a JSON object": say which byte, as the CSV readers do
            raise InputError(_not_utf8(bytes(line), exc.start, shown).reason, path=shown, line=k) from None
        except ValueError:
            raise InputError(f"is not a JSON object ({what}: one JSON object per line)", path=shown, line=k) from None
        if type(obj) is not dict:
            raise InputError(f"is not a JSON object ({what}: one JSON object per line)", path=shown, line=k)
        yield k, obj


def _checked(shown: str, what: str, lines: list[int], objs: list) -> Iterator[tuple[int, dict]]:
    """``(line, object)`` pairs, a line that is not a JSON object refused."""
    for line, obj in zip(lines, objs, strict=True):
        if type(obj) is not dict:
            raise InputError(f"is not a JSON object ({what}: one JSON object per line)", path=shown, line=line)
        yield line, obj


def _floats(raw: list, missing: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """Numbers (or true/false) as floats, and the rows to keep (None: all); _Slow for anything else."""
    try:
        v = np.array(raw, dtype=np.float64)
    except (TypeError, ValueError):
        raise _Slow from None
    if v.ndim != 1:
        raise _Slow
    bad = ~np.isfinite(v)
    if not bad.any():
        return v, None
    if not missing or np.isinf(v).any():
        raise _Slow
    return v[~bad], ~bad


def _names_of(values: list) -> list[str]:
    return values if all(type(x) is str for x in values) else [str(x) for x in values]


def _number(value: Any, src: str, line: int | None, key: str, *, missing: bool) -> float | None:
    """A record's outcome as a float: a number, true/false; None (skip) for null when ``missing``."""
    t = type(value)
    if t is float or t is int:
        v = float(value)
        if math.isfinite(v):
            return v
        if math.isnan(v) and missing:
            return None
        raise InputError(f"is {value!r}; an outcome is a finite number", path=src, line=line, column=key)
    if t is bool:
        return 1.0 if value else 0.0
    if value is None:
        if missing:
            return None
        raise InputError(
            "is null: a missing result (read with missing=True to count it as not answered)",
            path=src,
            line=line,
            column=key,
        )
    if isinstance(value, str):
        text = value.strip().casefold()
        if text in ("true", "false"):
            return 1.0 if text == "true" else 0.0
        try:
            return _number(float(text), src, line, key, missing=missing)
        except ValueError:
            pass
    shown = json.dumps(value)[:60] if not isinstance(value, str) else repr(value[:60])
    raise InputError(f"is {shown}, not a number (an outcome: a number, true or false)", path=src, line=line, column=key)


def _refuse_several(src: str, what: str, names, option: str, line: int | None = None) -> InputError:
    shown = ", ".join(map(repr, sorted(names)[:20])) + (" ..." if len(names) > 20 else "")
    return InputError(f"holds several {what} ({shown}): name one with {option}", path=src, line=line)


# ------------------------------------------------------------------ detection
_LM_EVAL_NAME = re.compile(r"^samples_(?P<task>.+?)(?:_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.\-]+))?\.jsonl(?:\.gz)?$")


def _first_object(head: bytes) -> dict | None:
    line = head.lstrip().split(b"\n", 1)[0]
    try:
        obj = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None
    return obj if isinstance(obj, dict) else None


def _utf8_text(raw: bytes, shown: str) -> None:
    """Refuse text that is not UTF-8 (naming the byte), so that a Latin-1 JSONL is not called none of the formats."""
    if b"\x00" in raw[:4096]:
        return  # binary: named as none of the formats
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(raw) - 4:  # not a character cut at the end of the first bytes
            raise _not_utf8(raw, exc.start, shown) from None


def detect(src: _Source) -> str | None:
    """The format of one file by its name and first bytes; None when it is none of them (and not CSV text)."""
    name = src.name.casefold()
    if name.endswith(".eval"):
        return "inspect"
    if src.zipped():  # an Inspect log under another name, or a workbook the CSV reader names as such
        try:
            with zipfile.ZipFile(src.raw()) as z:
                names = z.namelist()
        except (zipfile.BadZipFile, OSError):
            return "wide"
        inspect_log = any(n.startswith("samples/") for n in names) or "start.json" in names or "header.json" in names
        return "inspect" if inspect_log else "wide"
    if name == "per_instance_stats.json":
        return "helm"
    if _LM_EVAL_NAME.match(src.name):
        return "lm-eval"
    raw = src.head()
    _utf8_text(raw, src.shown)
    head = raw.lstrip()
    if head[:1] == b"[":
        return "helm" if b'"instance_id"' in head and b'"stats"' in head else None
    if head[:1] == b"{":
        obj = _first_object(head)
        if obj is None:  # a pretty-printed document: Inspect's .json log
            return "inspect" if b'"eval"' in head or b'"samples"' in head else None
        if "doc_id" in obj:
            return "lm-eval"
        if "sample_id" in obj and ("model_id" in obj or "evaluation" in obj):
            return "eee"
        if "example_id" in obj and "model" in obj:
            return "eval-arena"
        if "eval" in obj and "samples" in obj:
            return "inspect"
        return None
    if b"\x00" in head[:4096]:
        return None
    header = _csv_header(head)
    if header is not None and _long_columns(header, None, None, quiet=True) is not None:
        return "long"
    return "wide"


def _csv_header(head: bytes) -> list[str] | None:
    try:
        first = head.split(b"\n", 1)[0].decode("utf-8").rstrip("\r")
    except UnicodeDecodeError:
        return None
    delimiter = max((",", ";", "\t"), key=first.count)
    return next(csv.reader([first], delimiter=delimiter), [])


# ------------------------------------------------------------------ the readers
#: A number written with a decimal comma (``0,5``, ``-1,25``), read as one in a file separated by semicolons or tabs.
_DECIMAL_COMMA = re.compile(r"[-+]?[0-9]*,[0-9]+")


class _DecimalMark:
    """The decimal mark of a long CSV's scores: one kind throughout.

    Commas (``0,5``) read as points where the cells are separated by semicolons or tabs, as
    :mod:`sotalib._io` reads a wide CSV; a file mixing both kinds is refused at the line that mixes.
    """

    def __init__(self, shown: str, delimiter: str) -> None:
        self.shown, self.delimiter = shown, delimiter
        self.first: dict[str, int] = {}  # the first line of each kind, "comma" and "point"

    def point(self, cell: str, line: int, column: str) -> str:
        """``cell`` with a decimal point; refused when the file has the other kind before."""
        if self.delimiter != "," and _DECIMAL_COMMA.fullmatch(cell):
            kind, other, cell = "comma", "point", cell.replace(",", ".")
        elif "." in cell:
            kind, other = "point", "comma"
        else:
            return cell
        if other in self.first:
            raise InputError(
                f"is {cell!r} with a decimal {kind} where line {self.first[other]} has a decimal {other}: write one "
                "kind throughout",
                path=self.shown,
                line=line,
                column=column,
            )
        self.first.setdefault(kind, line)
        return cell


def read_long(src: _Source, cells: _Cells, *, outcome: str | None, missing: bool) -> bool:
    """A long CSV: model, item, score[, sample]; returns whether it has a sample column."""
    head = src.head()
    _not_text(head, src.shown)  # a workbook or an Inspect .eval given as --format long: named for what it is
    header = _csv_header(head)
    if not header:
        raise InputError(f"is empty ({EXPECTED})", path=src.shown)
    delimiter = max((",", ";", "\t"), key=head.split(b"\n", 1)[0].decode("utf-8", "replace").count)
    columns = _long_columns(header, src.shown, outcome)
    assert columns is not None
    jm, ji, js, jk = columns
    extra = [j for j in range(len(header)) if j not in (jm, ji, js, jk)]
    try:
        _read_long_fast(src, cells, header, delimiter, columns, extra)
        return jk is not None
    except _Slow:
        pass  # read line by line: every fault named by its line and column
    info: dict[str, dict[int, Any]] = {header[j]: {} for j in extra}
    varying: set[int] = set()
    text = io.TextIOWrapper(src.stream(), encoding="utf-8-sig", newline="")
    try:
        reader = csv.reader(text, delimiter=delimiter)
        next(reader, None)
        decimals = _DecimalMark(src.shown, delimiter)
        for row in reader:
            line = reader.line_num
            if not row or not any(c.strip() for c in row):
                continue
            if len(row) != len(header):
                raise InputError(f"has {len(row)} cells where the header has {len(header)}", path=src.shown, line=line)
            model, item = row[jm].strip(), row[ji].strip()
            if not model or not item:
                column = header[jm] if not model else header[ji]
                raise InputError(
                    "is blank: every row names its model and item", path=src.shown, line=line, column=column
                )
            cell = row[js].strip()
            if cell == "":
                if missing:
                    cells.seen(model, item)
                    continue
                raise InputError(
                    "is blank: a missing result (read with missing=True to count it as not answered)",
                    path=src.shown,
                    line=line,
                    column=header[js],
                )
            cell = decimals.point(cell, line, header[js])
            value = _number(cell, src.shown, line, header[js], missing=missing)
            if value is None:
                cells.seen(model, item)
                continue
            sample = row[jk].strip() if jk is not None else None
            cells.add(model, item, value, line, sample)
            _note_info(row, extra, header, info, varying, cells.items[item])
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text", path=src.shown) from None
    except csv.Error as exc:
        raise InputError(f"is not a readable CSV ({exc})", path=src.shown) from None
    finally:
        text.detach()
    for j in extra:
        if j not in varying:
            cells.info[header[j]] = info[header[j]]
    return jk is not None


def _read_long_fast(
    src: _Source, cells: _Cells, header: list[str], delimiter: str, columns: tuple, extra: list[int]
) -> None:
    """The long CSV through pandas' C parser in chunks; _Slow (nothing added) at anything it does not take as is.

    The names are factorized per chunk and checked once per distinct value (blank, spaces around, a line
    break inside quotes: then the line reader takes the file, and names the line).
    """
    import pandas as pd

    jm, ji, js, jk = columns
    texts = [j for j in (jm, ji, jk, *extra) if j is not None]
    parts: list[tuple] = []
    info: dict[int, dict[str, str]] = {j: {} for j in extra}
    varying: set[int] = set()
    row0 = 0
    try:
        reader = pd.read_csv(
            src.stream(),
            sep=delimiter,
            dtype={f"c{j}": (np.float64 if j == js else object) for j in range(len(header))},
            keep_default_na=False,
            na_values=[""],
            skip_blank_lines=False,
            chunksize=1_000_000,
            encoding="utf-8-sig",
            header=0,
            names=[f"c{j}" for j in range(len(header))],
            engine="c",
        )
        for chunk in reader:
            lines = np.arange(row0, row0 + len(chunk)) + 2  # the header is line 1; blank lines are rows here
            row0 += len(chunk)
            blank = chunk.isna().all(axis=1).to_numpy()
            values = chunk[f"c{js}"].to_numpy(dtype=np.float64)
            keep = ~blank & ~np.isnan(values)
            if (np.isnan(values) & ~blank).any():  # a missing result: the record reader keeps its model and item
                raise _Slow
            if not np.isfinite(values[keep]).all():
                raise _Slow
            coded = {}
            for j in texts:
                codes, uniques = pd.factorize(chunk[f"c{j}"].to_numpy()[keep], use_na_sentinel=True)
                names = uniques.tolist()
                if (codes < 0).any() and j in (jm, ji, jk):
                    raise _Slow  # a row without its model, item or sample
                if any(not isinstance(x, str) or x != x.strip() or not x or "\n" in x for x in names):
                    raise _Slow
                coded[j] = (codes, names)
            parts.append((coded, values[keep], lines[keep]))
            for j in extra:
                if j not in varying and not _same_per_item(coded[ji], coded[j], info[j]):
                    varying.add(j)
    except (ValueError, TypeError, UnicodeDecodeError, pd.errors.ParserError, OSError, EOFError, zlib.error):
        raise _Slow from None
    for coded, values, lines in parts:
        cells.add_codes(coded[jm], coded[ji], values, lines, coded[jk] if jk is not None else None)
    for j in extra:
        if j not in varying:
            cells.info[header[j]] = {cells.items[i]: v for i, v in info[j].items()}


def _same_per_item(items: tuple, values: tuple, seen: dict[str, str]) -> bool:
    """Whether a column (codes, names) holds one value per item, here and in the chunks before (``seen``)."""
    import pandas as pd

    pairs = pd.DataFrame({"i": items[0], "v": values[0]}).drop_duplicates()
    if pairs["i"].duplicated().any():
        return False
    item_names, value_names = items[1], values[1]
    for i, v in zip(pairs["i"].tolist(), pairs["v"].tolist(), strict=True):
        value = value_names[v] if v >= 0 else ""
        if seen.setdefault(item_names[i], value) != value:
            return False
    return True


def _note_info(row: list[str], extra: list[int], header: list[str], info: dict, varying: set, i: int) -> None:
    """Remember the extra cells of item ``i``; a column whose value changes within an item is no item attribute."""
    for j in extra:
        if j in varying:
            continue
        old = info[header[j]].setdefault(i, row[j].strip())
        if old != row[j].strip():
            varying.add(j)


def _long_columns(header: list[str], shown: str | None, outcome: str | None, *, quiet: bool = False):
    """Positions of the model, item, score and sample columns of a long CSV (sample None when absent)."""
    names = [h.strip().casefold() for h in header]

    def find(synonyms, role):
        hits = [j for j, h in enumerate(names) if h in synonyms]
        if len(hits) > 1 and not quiet:
            raise InputError(
                f"has several {role} columns ({', '.join(repr(header[j]) for j in hits)}); keep one",
                path=shown,
                line=1,
            )
        return hits[0] if hits else None

    jm, ji = find(LONG_MODEL, "model"), find(LONG_ITEM, "item")
    if outcome is not None:
        wanted = outcome.strip().casefold()
        hits = [j for j, h in enumerate(names) if h == wanted]
        js = hits[0] if hits else None
        if js is None and not quiet:
            raise InputError(
                f"has no column {outcome!r} (outcome=); its columns: {', '.join(header)}", path=shown, line=1
            )
    else:
        scores = [j for j, h in enumerate(names) if h in LONG_SCORE and j not in (jm, ji)]
        if len(scores) > 1 and not quiet:
            raise _refuse_several(shown or "the file", "score columns", [header[j] for j in scores], "outcome=", 1)
        js = scores[0] if scores else None
    jk = next((j for j, h in enumerate(names) if h in LONG_SAMPLE and j not in (jm, ji, js)), None)
    if jm is None or ji is None or js is None:
        if quiet:
            return None
        raise InputError(
            "is not a long table: it needs a model column (any of "
            f"{', '.join(LONG_MODEL)}), an item column (any of {', '.join(LONG_ITEM)}) and a score column "
            f"(any of {', '.join(LONG_SCORE)}, or outcome=); found {', '.join(header)}",
            path=shown,
            line=1,
        )
    return jm, ji, js, jk


def read_eval_arena(  # noqa: C901 - a record-by-record reader and its batch fast path, nested to share state
    src: _Source, cells: _Cells, counts: dict, *, outcome: str | None, filter: str | None, missing: bool
) -> None:
    """eval-arena's JSONL: ``model``, ``example_id``, ``pass1`` (optional ``count``/``n``: its samples K)."""
    key = outcome or "pass1"
    benchmarks: dict[str, int] = {}
    what = "eval-arena's JSONL (model, example_id, pass1)"

    def one(line: int, obj: dict) -> None:
        try:
            model, item, raw = obj["model"], obj["example_id"], obj[key]
        except KeyError as exc:
            raise InputError(f"has no key {exc.args[0]!r} ({what})", path=src.shown, line=line) from None
        bench = obj.get("benchmark_id")
        if bench is not None:
            if filter is not None and bench != filter:
                return
            benchmarks.setdefault(bench, line)
        value = _number(raw, src.shown, line, key, missing=missing)
        if value is None:
            cells.seen(model if type(model) is str else str(model), item if type(item) is str else str(item))
            return
        if not 0.0 <= value <= 1.0:  # a mean of passes: its square is read as itself, so it must be a share
            raise InputError(f"is {raw!r}; {key} is a pass rate, in [0, 1]", path=src.shown, line=line, column=key)
        model = model if type(model) is str else str(model)
        item = item if type(item) is str else str(item)
        cells.add(model, item, value, line)
        k = obj.get("count", obj.get("n"))
        if k is not None:
            if type(k) is not int or k < 1:
                raise InputError(f"is {k!r}; a count of samples is a whole number >= 1", path=src.shown, line=line)
            counts[(cells.items[item], cells.models[model])] = k

    def many(lines: list[int], objs: list[dict]) -> None:
        try:
            models = [o["model"] for o in objs]
            items = [o["example_id"] for o in objs]
            raw = [o[key] for o in objs]
        except (KeyError, TypeError):
            raise _Slow from None
        if any("count" in o or "n" in o for o in objs):
            raise _Slow
        benches = {o.get("benchmark_id") for o in objs}
        if filter is not None and benches != {filter}:
            raise _Slow
        values, keep = _floats(raw, missing)
        if ((values < 0) | (values > 1)).any() or keep is not None:  # the record reader names the line, keeps
            raise _Slow  # the model and item of a missing result
        for b in benches:
            if b is not None:
                benchmarks.setdefault(b, lines[0] if lines else 0)
        cells.add_many(_names_of(models), _names_of(items), values, lines)

    for lines, objs in _json_batches(src, what):
        try:
            many(lines, objs)
        except _Slow:
            for line, obj in _checked(src.shown, what, lines, objs):
                one(line, obj)
    if len(benchmarks) > 1:
        raise _refuse_several(src.shown, "benchmarks (benchmark_id)", benchmarks, "filter=")
    if filter is not None and not benchmarks:
        raise InputError(f"has no line of benchmark_id {filter!r} (filter=)", path=src.shown)


def _lm_eval_model(src: _Source, date: str | None, fallback: str) -> str:
    """The model of an lm-eval samples file: its results_<date>.json's model_name or pretrained=, else its folder."""
    if src.path is None:
        return fallback
    folder = os.path.dirname(os.path.abspath(src.path))
    try:
        results = sorted(f for f in os.listdir(folder) if f.startswith("results") and f.endswith(".json"))
    except OSError:
        results = []
    if date is not None:
        matching = [f for f in results if date in f]
        results = matching or results
    if len(results) == 1:
        try:
            with open(os.path.join(folder, results[0]), "rb") as fh:
                doc = json.load(fh)
        except (OSError, ValueError):
            doc = None
        if isinstance(doc, dict):
            name = doc.get("model_name")
            if isinstance(name, str) and name:
                return name
            args = (doc.get("config") or {}).get("model_args")
            if isinstance(args, str):
                m = re.search(r"(?:^|,)\s*(?:pretrained|model)=([^,]+)", args)
                if m:
                    return m.group(1)
    return fallback


def read_lm_eval(  # noqa: C901 - a record-by-record reader and its batch fast path, nested to share state
    src: _Source,
    by_filter: dict[str, _Cells],
    *,
    model: str,
    task: str | None,
    outcome: str | None,
    missing: bool,
    chosen: dict,
) -> None:
    """lm-evaluation-harness ``--log_samples``: one line per document and filter, the metric a top-level key."""
    what = "lm-evaluation-harness samples (doc_id, the metric as a key)"

    def cells_of(name: str) -> _Cells:
        cells = by_filter.get(name)
        if cells is None:
            cells = by_filter[name] = _Cells()
        if not cells.file_names or cells.file_names[-1] != src.shown:
            cells.open(src.shown)
        return cells

    def metric(line: int, obj: dict) -> str:
        if outcome is not None:
            return outcome
        if "metric" in chosen:
            return chosen["metric"]
        listed = obj.get("metrics")
        if isinstance(listed, list) and listed:
            metrics = [str(x) for x in listed]
        else:
            metrics = [k for k, v in obj.items() if k not in LM_EVAL_KEYS and isinstance(v, (int, float, bool))]
        if not metrics:
            raise InputError(f"has no metric ({what})", path=src.shown, line=line)
        if len(metrics) > 1:
            raise _refuse_several(src.shown, "metrics", metrics, "outcome=", line)
        chosen["metric"] = metrics[0]
        return metrics[0]

    def one(line: int, obj: dict) -> None:
        if "doc_id" not in obj:
            raise InputError(f"has no key 'doc_id' ({what})", path=src.shown, line=line)
        key = metric(line, obj)
        if key not in obj:
            found = [k for k in obj if k not in LM_EVAL_KEYS]
            raise InputError(
                f"has no metric {key!r} (outcome=); its metrics: {', '.join(found) or 'none'}",
                path=src.shown,
                line=line,
            )
        value = _number(obj[key], src.shown, line, key, missing=missing)
        if value is None:
            return
        doc = str(obj["doc_id"])
        cells_of(str(obj.get("filter", "none"))).add(model, doc if task is None else f"{task}/{doc}", value, line)

    def many(lines: list[int], objs: list[dict]) -> None:
        if type(objs[0]) is not dict:
            raise _Slow
        key = metric(lines[0], objs[0])
        try:
            docs = [str(o["doc_id"]) for o in objs]
            raw = [o[key] for o in objs]
        except (KeyError, TypeError):
            raise _Slow from None
        values, keep = _floats(raw, missing)
        filters = [str(o.get("filter", "none")) for o in objs]
        if keep is not None:
            docs = [x for x, k in zip(docs, keep, strict=True) if k]
            filters = [x for x, k in zip(filters, keep, strict=True) if k]
            lines = [x for x, k in zip(lines, keep, strict=True) if k]
        if task is not None:
            docs = [f"{task}/{d}" for d in docs]
        names = set(filters)
        if len(names) == 1:
            cells_of(filters[0]).add_many([model] * len(docs), docs, values, lines)
            return
        flt = np.array(filters, dtype=object)
        for name in sorted(names, key=filters.index):
            rows = np.flatnonzero(flt == name)
            cells_of(name).add_many(
                [model] * len(rows), [docs[r] for r in rows], values[rows], [lines[r] for r in rows]
            )

    for lines, objs in _json_batches(src, what):
        try:
            many(lines, objs)
        except _Slow:
            for line, obj in _checked(src.shown, what, lines, objs):
                one(line, obj)


def _inspect_value(score: Any, shown: str, line: int | None, key: str, *, missing: bool) -> float | None:
    value = score.get("value") if isinstance(score, dict) else score
    if isinstance(value, str) and value in INSPECT_VALUES:
        return INSPECT_VALUES[value]
    if isinstance(value, dict):
        raise InputError(
            f"holds several values ({', '.join(map(str, value))}), not one outcome: a scorer of one value is needed",
            path=shown,
            line=line,
            column=key,
        )
    return _number(value, shown, line, key, missing=missing)


def _inspect_samples(src: _Source) -> tuple[str, Iterator[tuple[str, int | None, dict]]]:
    """The model of an Inspect log and its samples as ``(where, line, sample)``: a ``.eval`` zip or a ``.json``."""
    if src.zipped():
        try:
            archive = zipfile.ZipFile(src.raw())
        except zipfile.BadZipFile as exc:
            raise InputError(f"is a damaged Inspect .eval log ({exc})", path=src.shown) from None
        names = archive.namelist()
        header: Any = {}
        for start in ("header.json", "start.json", "_journal/start.json"):
            if start in names:
                header = json.loads(archive.read(start))
                break
        model = str(((header or {}).get("eval") or {}).get("model", "")) or os.path.splitext(src.name)[0]
        members = sorted(n for n in names if n.startswith("samples/") and n.endswith(".json"))
        if not members:
            raise InputError("is an Inspect log without samples (samples/*.json)", path=src.shown)

        def from_zip() -> Iterator[tuple[str, int | None, dict]]:
            for member in members:
                try:
                    sample = json.loads(archive.read(member))
                except ValueError:
                    raise InputError(f"member {member} is not valid JSON", path=src.shown) from None
                yield f"{src.shown}:{member}", None, sample

        return model, from_zip()
    doc = src.load()
    if not isinstance(doc, dict) or not isinstance(doc.get("samples"), list):
        raise InputError(
            f"is not an Inspect log with samples: a JSON object with 'eval' and 'samples' ({EXPECTED})", path=src.shown
        )
    model = str((doc.get("eval") or {}).get("model", "")) or os.path.splitext(src.name)[0]
    return model, ((src.shown, None, s) for s in doc["samples"])


def read_inspect(src: _Source, cells: _Cells, *, outcome: str | None, missing: bool, chosen: dict) -> None:
    """Inspect AI logs: per sample ``id``, ``epoch``, ``scores[scorer].value`` (C/I/P/N or a number)."""
    model, samples = _inspect_samples(src)
    for k, (where, line, sample) in enumerate(samples, 1):
        if not isinstance(sample, dict) or "id" not in sample:
            raise InputError(f"sample {k} has no 'id' (an Inspect sample: id, epoch, scores)", path=where, line=line)
        scores = sample.get("scores")
        if scores is None and "score" in sample:  # logs before scores became a dict of scorers
            scores = {"score": sample["score"]}
        if not scores:  # an errored or unscored sample: not answered
            continue
        if outcome is not None:
            scorer = outcome
        elif "scorer" in chosen:
            scorer = chosen["scorer"]
        elif len(scores) > 1:
            raise _refuse_several(where, "scorers", list(scores), "outcome=")
        else:
            scorer = chosen["scorer"] = next(iter(scores))
        if scorer not in scores:
            raise InputError(
                f"sample {sample['id']!r} has no scorer {scorer!r}; its scorers: {', '.join(scores)}",
                path=where,
                line=line,
            )
        value = _inspect_value(scores[scorer], where, line, f"scores.{scorer}.value", missing=missing)
        if value is None:
            continue
        cells.add(model, str(sample["id"]), value, k, sample.get("epoch", 1))


def _helm_model(src: _Source) -> str:
    """The model of a HELM run: its run_spec.json's adapter_spec.model, else ``model=`` of its folder's name."""
    if src.path is None:
        return "model 1"
    folder = os.path.dirname(os.path.abspath(src.path))
    spec = os.path.join(folder, "run_spec.json")
    if os.path.exists(spec):
        try:
            with open(spec, "rb") as fh:
                doc = json.load(fh)
            model = (doc.get("adapter_spec") or {}).get("model")
            if isinstance(model, str) and model:
                return model
        except (OSError, ValueError, AttributeError):
            pass
    base = os.path.basename(folder)
    m = re.search(r"model=([^,]+)", base)
    return m.group(1) if m else base


def read_helm(src: _Source, cells: _Cells, *, outcome: str | None, missing: bool, chosen: dict) -> None:
    """HELM's ``per_instance_stats.json``: ``instance_id``, ``train_trial_index``, the stat named by ``outcome``."""
    doc = src.load()
    what = "HELM per_instance_stats.json: a list of {instance_id, train_trial_index, stats}"
    if not isinstance(doc, list):
        raise InputError(f"is not {what}", path=src.shown)
    model = _helm_model(src)
    for k, entry in enumerate(doc, 1):
        if not isinstance(entry, dict) or "instance_id" not in entry or "stats" not in entry:
            raise InputError(f"entry {k} is not an instance ({what})", path=src.shown)
        if entry.get("perturbation"):  # a perturbed copy of the instance: not the instance's result
            continue
        stats = {}
        for stat in entry["stats"]:
            name = stat.get("name") or {}
            if name.get("perturbation"):
                continue
            stats[str(name.get("name"))] = stat
        if outcome is not None:
            wanted = outcome
        elif "stat" in chosen:
            wanted = chosen["stat"]
        elif len(stats) == 1:
            wanted = chosen["stat"] = next(iter(stats))
        else:
            raise _refuse_several(src.shown, "stats", list(stats), "outcome= (e.g. exact_match)")
        stat = stats.get(wanted)
        if stat is None:
            raise InputError(
                f"instance {entry['instance_id']!r} (entry {k}) has no stat {wanted!r}; its stats: "
                f"{', '.join(sorted(stats)[:20])}",
                path=src.shown,
            )
        raw = stat.get("mean")
        if raw is None and stat.get("count"):
            raw = stat.get("sum", 0.0) / stat["count"]
        value = _number(raw, src.shown, None, f"entry {k}: {wanted}", missing=missing)
        if value is None:
            continue
        cells.add(model, str(entry["instance_id"]), value, k, int(entry.get("train_trial_index", 0)))


def read_eee(  # noqa: C901 - a record-by-record reader and its batch fast path, nested to share state
    src: _Source, cells: _Cells, *, outcome: str | None, filter: str | None, missing: bool
) -> None:
    """Every Eval Ever instance JSONL: ``sample_id``, ``model_id``, ``evaluation.score`` or ``is_correct``."""
    what = "Every Eval Ever instance JSONL (sample_id, model_id, evaluation)"
    evaluations: dict[str, int] = {}
    if outcome not in (None, "score", "is_correct"):
        raise ValueError(f"outcome must be 'score' or 'is_correct' for an Every Eval Ever file, got {outcome!r}")

    def one(line: int, obj: dict) -> None:
        try:
            model, item, evaluation = obj["model_id"], obj["sample_id"], obj["evaluation"]
        except KeyError as exc:
            raise InputError(f"has no key {exc.args[0]!r} ({what})", path=src.shown, line=line) from None
        name = obj.get("evaluation_name")
        if name is not None:
            if filter is not None and name != filter:
                return
            evaluations.setdefault(str(name), line)
        if not isinstance(evaluation, dict):
            raise InputError("is not an object {score, is_correct}", path=src.shown, line=line, column="evaluation")
        key = outcome or ("score" if evaluation.get("score") is not None else "is_correct")
        value = _number(evaluation.get(key), src.shown, line, f"evaluation.{key}", missing=missing)
        if value is None:
            cells.seen(str(model), str(item))
            return
        cells.add(str(model), str(item), value, line)

    def many(lines: list[int], objs: list[dict]) -> None:
        try:
            models = [o["model_id"] for o in objs]
            items = [o["sample_id"] for o in objs]
            evals = [o["evaluation"] for o in objs]
        except (KeyError, TypeError):
            raise _Slow from None
        names = {o.get("evaluation_name") for o in objs}
        if (filter is not None and names != {filter}) or not all(type(e) is dict for e in evals):
            raise _Slow
        if outcome is not None:
            raw = [e.get(outcome) for e in evals]
        else:
            raw = [e.get("score") for e in evals]
            raw = [r if r is not None else e.get("is_correct") for r, e in zip(raw, evals, strict=True)]
        values, keep = _floats(raw, missing)
        if keep is not None:  # a missing result: the record reader keeps its model and item
            raise _Slow
        for name in names:
            if name is not None:
                evaluations.setdefault(str(name), lines[0] if lines else 0)
        cells.add_many(_names_of(models), _names_of(items), values, lines)

    for lines, objs in _json_batches(src, what):
        try:
            many(lines, objs)
        except _Slow:
            for line, obj in _checked(src.shown, what, lines, objs):
                one(line, obj)
    if len(evaluations) > 1:
        raise _refuse_several(src.shown, "evaluations (evaluation_name)", evaluations, "filter=")
    if filter is not None and not evaluations:
        raise InputError(f"has no line of evaluation_name {filter!r} (filter=)", path=src.shown)


# ------------------------------------------------------------------ one entry: files and folders
_FOLDER_FILES = {
    "lm-eval": lambda n: bool(_LM_EVAL_NAME.match(n)),
    "helm": lambda n: n == "per_instance_stats.json",
    "inspect": lambda n: n.endswith(".eval") or n.endswith(".json"),
    "eval-arena": lambda n: n.endswith((".jsonl", ".jsonl.gz")),
    "eee": lambda n: n.endswith((".jsonl", ".jsonl.gz")),
    "long": lambda n: n.endswith((".csv", ".csv.gz", ".tsv")),
}


def _folder_sources(folder: str, format: str) -> tuple[str, list[_Source]]:
    """The per-item files under ``folder`` (recursively, sorted) and their one format."""
    found: dict[str, list[_Source]] = {}
    aggregates = ""  # an lm-evaluation-harness results file: the scores without the samples
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(root, f)
            src = _Source(path, path)
            if format != "auto":
                if _FOLDER_FILES.get(format, lambda _: False)(f) and (format != "inspect" or detect(src) == "inspect"):
                    found.setdefault(format, []).append(src)
                continue
            if f.startswith("results") and f.endswith(".json"):
                aggregates = aggregates or path
            if f.startswith(("results", "run_spec", ".")) or not any(p(f) for p in _FOLDER_FILES.values()):
                continue
            try:
                kind = detect(src)
            except InputError:  # a stray file that is not UTF-8 text is no run of the folder, as before
                kind = None
            if kind is not None and kind != "wide":
                found.setdefault(kind, []).append(src)
    if not found:
        hint = (
            f"; {aggregates} holds lm-evaluation-harness's aggregate scores only: run lm_eval with --log_samples "
            "for its samples_<task>_<date>.jsonl"
            if aggregates
            else ""
        )
        raise InputError(f"is a folder without per-item files ({EXPECTED}){hint}", path=folder)
    if len(found) > 1:
        shown = "; ".join(f"{k}: {v[0].shown}" for k, v in sorted(found.items()))
        raise InputError(f"holds files of several formats ({shown}): read one format (format=)", path=folder)
    kind = next(iter(found))
    return kind, found[kind]


def read_logs(
    path: str | os.PathLike, *, format: str, outcome: str | None, filter: str | None, missing: bool
) -> tuple[str, Any]:
    """``(format, PerItem)`` of a log file or folder; ``("wide", source)`` when it is a wide CSV to read.

    With ``format`` given, a refusal says so (the file may be another format).
    """
    try:
        return _read_logs(path, format=format, outcome=outcome, filter=filter, missing=missing)
    except InputError as exc:
        if format == "auto":
            raise
        where = {"path": exc.path, "line": exc.line, "column": exc.column}
        raise InputError(f"{exc.reason} (read as format={format!r})", **where) from None


def _read_logs(
    path: str | os.PathLike, *, format: str, outcome: str | None, filter: str | None, missing: bool
) -> tuple[str, Any]:
    p = os.fspath(path)
    if p != "-" and os.path.isdir(p):
        kind, sources = _folder_sources(p, format)
        top = p
    else:
        src = _Source.of(p)
        detected = format if format != "auto" else detect(src)
        if detected is None:
            raise InputError(f"is none of the per-item formats: {EXPECTED}", path=src.shown)
        kind = detected
        if kind == "wide":
            return "wide", src
        sources = [src]
        top = None
    if filter is not None and kind not in ("lm-eval", "eval-arena", "eee"):
        raise ValueError(
            f"filter applies to lm-eval (its filters), eval-arena (benchmark_id) and eee (evaluation_name) files, "
            f"not to {kind} files (got filter={filter!r})"
        )
    if outcome is not None and kind == "wide":
        raise ValueError(f"outcome does not apply to a wide CSV (one column per model), got outcome={outcome!r}")
    cells = _Cells()
    chosen: dict = {}
    if kind == "lm-eval":
        return kind, _read_lm_eval_all(sources, top, outcome=outcome, filter=filter, missing=missing)
    counts: dict = {}
    sampled = False
    for src in sources:
        cells.open(src.shown)
        if kind == "long":
            sampled = read_long(src, cells, outcome=outcome, missing=missing) or sampled
        elif kind == "eval-arena":
            read_eval_arena(src, cells, counts, outcome=outcome, filter=filter, missing=missing)
        elif kind == "inspect":
            read_inspect(src, cells, outcome=outcome, missing=missing, chosen=chosen)
            sampled = True
        elif kind == "helm":
            read_helm(src, cells, outcome=outcome, missing=missing, chosen=chosen)
            sampled = True
        elif kind == "eee":
            read_eee(src, cells, outcome=outcome, filter=filter, missing=missing)
        else:
            raise ValueError(f"format must be one of 'auto', 'wide', {', '.join(map(repr, LOG_FORMATS))}, got {kind!r}")
    why = {
        "long": "a long table without a sample column holds one result per model and item (add a column 'sample' "
        "for several)",
        "eval-arena": "eval-arena's files hold one pass1 (already a mean over samples) per model and item",
        "inspect": "Inspect's samples are one per id and epoch",
        "helm": "HELM's instances are one per id and train_trial_index",
        "eee": "Every Eval Ever holds one record per model and sample_id (several generations have their own "
        "sample_id)",
    }[kind]
    if kind == "eval-arena":  # pass1 is a mean of 0/1 passes: its mean square is itself, K is unknown unless counted
        return kind, cells.table(sampled=False, squares="means", what=why, counts=counts or None)
    return kind, cells.table(sampled=sampled, squares=sampled or kind != "long", what=why)


def _read_lm_eval_all(
    sources: list[_Source], top: str | None, *, outcome: str | None, filter: str | None, missing: bool
):
    tasks = set()
    named = []
    for src in sources:
        m = _LM_EVAL_NAME.match(src.name)
        task, date = (m.group("task"), m.group("date")) if m else (None, None)
        tasks.add(task)
        if top is not None:
            rel = os.path.relpath(os.path.dirname(os.path.abspath(src.path or "")), os.path.abspath(top))
            fallback = os.path.basename(os.path.abspath(top)) if rel == "." else rel.replace(os.sep, "/")
        elif src.path is not None:
            fallback = os.path.basename(os.path.dirname(os.path.abspath(src.path))) or "model 1"
        else:
            fallback = "model 1"
        named.append((src, task, _lm_eval_model(src, date, fallback)))
    several = len(tasks) > 1
    by_filter: dict[str, _Cells] = {}
    chosen: dict = {}
    for src, task, model in named:
        read_lm_eval(
            src, by_filter, model=model, task=task if several else None, outcome=outcome, missing=missing, chosen=chosen
        )
    shown = sources[0].shown if top is None else top
    if filter is not None:
        if filter not in by_filter:
            raise InputError(f"has no filter {filter!r} (filter=); its filters: {', '.join(by_filter)}", path=shown)
        cells = by_filter[filter]
    elif len(by_filter) > 1:
        raise _refuse_several(shown, "filters", list(by_filter), "filter=")
    elif not by_filter:
        raise InputError("holds no per-item result (lm-evaluation-harness samples)", path=shown)
    else:
        cells = next(iter(by_filter.values()))
    why = "lm-evaluation-harness writes one line per document and filter (a rerun of the same task: read one)"
    return cells.table(sampled=False, squares=False, what=why)


def attach_item_info(table: Any, path: str | os.PathLike) -> Any:
    """``table`` with the columns of the side file ``path`` (``item`` and any of ``cluster``, ``options``...)."""
    from dataclasses import replace

    from ._io import read_table

    t = read_table(path, header=True, needs="a header line 'item,cluster,options' and one row per item")
    assert t.header is not None
    names = [h.strip().casefold() for h in t.header]
    if "item" not in names:
        raise t.error(f"has no column 'item' (the item ids); its columns: {', '.join(t.header)}", line=t.header_line)
    j_item = names.index("item")
    t.require_unique(j_item, what="item ids")
    ids = list(t.column(j_item, kind="name"))
    where = {x: k for k, x in enumerate(ids)}
    absent = [x for x in table.items if x not in where]
    if absent:
        raise t.error(
            f"has no row for {len(absent):,} of the {table.n:,} items (first: {absent[0]!r}); every item needs one"
        )
    rows = [where[x] for x in table.items]
    info = dict(table.item_info)
    for j, name in enumerate(names):
        if j == j_item:
            continue
        cells = [t.rows[r][j] for r in rows]
        if name == "options":
            values = []
            for r, text in zip(rows, cells, strict=True):
                try:
                    v = float(text)
                except ValueError:
                    v = math.nan
                if not (math.isfinite(v) and v == round(v) and v >= 1):
                    raise t.error(f"is {text!r}; a number of options is a whole number >= 1", line=t.lines[r], column=j)
                values.append(int(v))
            info["options"] = np.array(values, dtype=np.int64)
        else:
            info[t.header[j].strip()] = np.array(cells, dtype=object)
    return replace(table, item_info=info)
