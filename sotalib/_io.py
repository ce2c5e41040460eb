"""One reader of users' table files (CSV as people and spreadsheets write it).

Every command and function of sotalib that reads a user's table calls
:func:`read_table`, then converts the columns it needs with
:meth:`Table.column`; so every file is read the same way and every refusal
is one :class:`InputError` naming the file, the line and the column.

What :func:`read_table` accepts
-------------------------------
* a path, ``"-"`` (standard input), bytes, or an open file (binary or text);
* UTF-8 with or without a byte-order mark, UTF-16 or UTF-32 with one; any
  other encoding is refused with the line and column of the first byte that
  is not UTF-8, what it reads as when the file looks like Latin-1 or
  Windows-1252 (a spreadsheet's "CSV" in Western Europe), and what to do;
* line ends LF, CRLF or CR; blank lines and whitespace around cells ignored;
* one delimiter per file, found among tab, semicolon and comma (tab or
  semicolon when every row has one outside quotes, a one-cell note line
  aside, else comma; a file of one column is fine), or given; quoted cells
  with delimiters, quotes or line ends inside; ``#`` comments if asked;
* empty trailing columns (``a,b,,`` on every line, as spreadsheets write
  them) dropped; a row shorter than the table padded with blank cells; a row
  with more filled cells than the header refused;
* a header row detected (``header=None``: the first row is a header when
  some column holds numbers below a first cell that is not a number, so
  ``c1,c2,c3`` and ``class_1,class_2`` are headers although they contain
  digits), or forced with ``header=True`` / ``header=False``;
* decimal commas (``0,93``) in files separated by semicolons or tabs, when
  no number in the file is written with a decimal point (with a comma
  delimiter a decimal comma cannot be told from two cells);
* percentages (``93.5%`` is 0.935, exactly as ``0.935`` reads) when the
  caller allows them.

Files that are not text are named for what they are (a ZIP archive such as
an ``.xlsx`` workbook, an old ``.xls`` workbook, gzip, PDF, a file with NUL
bytes); an empty file says so ("is an empty file").

What each reader of sotalib needs (the wiring onto this module)
---------------------------------------------------------------
``multiplicity._leaderboard.read_kaggle_leaderboard`` (``sotalib sota``)
    header required (a first row of numbers is refused: "add a header line
    such as rank,score"); score column found by name (``score`` any case,
    else the only name containing "score"); a trailing Kaggle ``Next Page
    Token = ...`` row dropped and reported; blank scores dropped and
    counted; ``91.5%`` divided by 100; a team id (else team name) repeated
    is merged into the team's best score and counted.
``judging._ranking.read_scores`` (``rank``, ``compare``)
    header required (first cell ignored, the others name the judges); each
    row a candidate name then one finite number per judge; candidate names
    unique and non-empty.
``judging._uncertainty.read_per_item`` (``rank-uncertainty --per-item``)
    header required: candidate names, unique and non-empty; a first column
    headed ``item``, ``id`` or empty holds item labels; every other cell a
    finite number.
``judging._bradley_terry.read_battles`` (``rank-uncertainty --battles``)
    header required, naming ``a``, ``b`` and ``winner`` (any case, any
    order; other columns ignored); cells are names (checked later by
    ``bradley_terry``).  A file of names only: ``header=True``.
``consistency._folds.read_folds`` (``check --folds-file``)
    header required with columns ``p`` and ``n`` (any case, once each);
    integers >= 0 with p + n >= 1; at least one fold.
``consistency._report`` batch files (``check --batch``; also a DataFrame)
    header required: known batch columns and score names; rows numbered as
    data rows; semicolon files were refused, now read (with decimal commas);
    ``folds_file`` paths relative to the batch file's directory.
``cli._check_multiclass`` (``check --classes ... --folds-file``)
    one fold per row, its class sizes (integers); an optional header of
    class names (``c1,c2,c3`` too); ``#`` comments; at least one fold.
``consistency._datasets``
    reads only files shipped with sotalib (not users' files): no change.
"""

from __future__ import annotations

import codecs
import csv
import decimal
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import IO, Literal

__all__ = ["InputError", "Table", "read_table", "parse_number"]

#: Delimiters sniffed, in the order they are tried (tab and semicolon win when every row has them).
DELIMITERS = ("\t", ";", ",")

_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}

#: Magic bytes of files that are not CSV text, what to call them, and what to do.
_EXPORT = "export it as CSV (CSV UTF-8 in a spreadsheet)"
_MAGIC = (
    (b"PK\x03\x04", "a ZIP archive (an .xlsx or .ods workbook?)", _EXPORT),
    (b"PK\x05\x06", "an empty ZIP archive", _EXPORT),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Excel workbook (.xls) or another Office file", _EXPORT),
    (b"\x1f\x8b", "a gzip-compressed file (.gz)", "decompress it first"),
    (b"BZh", "a bzip2-compressed file (.bz2)", "decompress it first"),
    (b"\xfd7zXZ\x00", "an xz-compressed file (.xz)", "decompress it first"),
    (b"\x28\xb5\x2f\xfd", "a zstd-compressed file (.zst)", "decompress it first"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", "extract the CSV file from it"),
    (b"%PDF", "a PDF document", _EXPORT),
    (b"PAR1", "a Parquet file", _EXPORT),
    (b"SQLite format 3\x00", "an SQLite database", _EXPORT),
    (b"\x89PNG", "a PNG image", _EXPORT),
    (b"\xff\xd8\xff", "a JPEG image", _EXPORT),
    (b"\x93NUMPY", "a NumPy .npy file", _EXPORT),
)

# ASCII digits only (re.ASCII): float() would also read '١' or '1_000', which no spreadsheet writes
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_COMMA_NUMBER = re.compile(r"[+-]?(?:\d+,\d*|,\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_NON_FINITE = ("nan", "inf", "infinity")
_POINT_NUMBER = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


class InputError(ValueError):
    """A user's file or input that cannot be used: the message names the file, the line and the column.

    ``str(error)`` is the whole message on one line, e.g.
    ``scores.csv, line 7, column "score": 'n/a' is not a number``; the command
    line prints it as it is.

    Attributes
    ----------
    path : str or None
        The file as named in the message (its path, ``standard input``, ...).
    line : int or None
        Line in the file (1 = first line), when one line is at fault.
    column : str or int or None
        The column at fault: its header name, else its number (1 = first).
    reason : str
        The message without the location.
    """

    def __init__(self, reason: str, *, path: str | None = None, line: int | None = None, column=None):
        self.path, self.line, self.column, self.reason = path, line, column, reason
        super().__init__(_located(reason, path, line, column))

    def __reduce__(self):  # pickled whole (e.g. from a worker process), not rebuilt from the message
        return _input_error, (self.reason, self.path, self.line, self.column)


def _input_error(reason, path, line, column) -> InputError:
    return InputError(reason, path=path, line=line, column=column)


def _column_label(column) -> str:
    return f"column {column}" if isinstance(column, int) else f'column "{column}"'


def _located(reason: str, path, line, column) -> str:
    where = [str(path)] if path is not None else []
    if line is not None:
        where.append(f"line {line}")
    if column is not None:
        where.append(_column_label(column))
    return f"{', '.join(where)}: {reason}" if where else reason


# ------------------------------------------------------------------ numbers
def parse_number(text: str, *, decimal_comma: bool = False, percent: bool = False) -> float | None:
    """The finite number a cell holds, or None if it holds none.

    ``text`` is stripped; ASCII digits only, with an optional sign, decimal
    point (a comma instead when ``decimal_comma``) and exponent; with
    ``percent`` a trailing ``%`` divides by 100 exactly (``93.5%`` is the
    double nearest to 0.935).  NaN, infinities and literals that overflow are
    not numbers here (callers report them).
    """
    s = text.strip()
    scale = 0
    if percent and s.endswith("%"):
        s, scale = s[:-1].rstrip(), -2
    if decimal_comma and "," in s:
        if not _COMMA_NUMBER.fullmatch(s):
            return None
        s = s.replace(",", ".")
    elif not _NUMBER.fullmatch(s):
        return None
    if scale:
        v = float(decimal.Decimal(s).scaleb(scale))
    else:
        v = float(s)
    return v if math.isfinite(v) else None


def _is_number(text: str, decimal_comma: bool) -> bool:
    """Whether a cell is written as a number, finite or not (``1e400``, ``nan``: still data, not a header)."""
    s = text.strip()
    s = s[:-1].rstrip() if s.endswith("%") else s
    if s.lower().lstrip("+-") in _NON_FINITE:
        return True
    return bool(_NUMBER.fullmatch(s) or (decimal_comma and _COMMA_NUMBER.fullmatch(s)))


# ------------------------------------------------------------------ the table
@dataclass(frozen=True)
class Table:
    """A user's table as read by :func:`read_table`: text cells, every row as long as the header.

    Attributes
    ----------
    source : str
        The file as named in messages (its path, ``standard input``, ...).
    header : tuple of str or None
        Column names (stripped), or None when the file has no header row.
    rows : tuple of tuple of str
        Data rows, cells stripped; blank rows left out, short rows padded
        with ``""``, empty trailing columns dropped.
    lines : tuple of int
        The line of the file on which each row starts (1 = first line).
    delimiter : str
        ``","``, ``";"`` or ``"\\t"``.
    decimal_comma : bool
        Whether numbers are written with decimal commas (``0,93``).
    header_line : int or None
        The line of the header row.
    """

    source: str
    header: tuple[str, ...] | None
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[int, ...]
    delimiter: str = ","
    decimal_comma: bool = False
    header_line: int | None = None

    @classmethod
    def from_records(cls, header: Sequence, records: Sequence[Sequence], *, source: str = "table") -> Table:
        """A table of values already split into cells (a DataFrame's rows, say): cells as text, lines
        counted as data rows (1 = the first record), missing values (None, NaN) blank."""

        def text(v) -> str:
            return "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v).strip()

        head = tuple(text(h) for h in header)
        rows = tuple(tuple(text(v) for v in r) + ("",) * (len(head) - len(r)) for r in records)
        for i, r in enumerate(rows, start=1):
            if len(r) > len(head):
                raise InputError(f"has {len(r)} cells, the header has {len(head)}", path=source, line=i)
        return cls(source=source, header=head, rows=rows, lines=tuple(range(1, len(rows) + 1)))

    def __len__(self) -> int:
        return len(self.rows)

    def where(self, keep: Callable[[tuple[str, ...]], bool]) -> Table:
        """The table of the rows for which ``keep(row)`` is true (e.g. without a closing note line)."""
        kept = [(r, ln) for r, ln in zip(self.rows, self.lines, strict=True) if keep(r)]
        return replace(self, rows=tuple(r for r, _ in kept), lines=tuple(ln for _, ln in kept))

    def with_decimal_points(self) -> Table:
        """The table with every decimal comma of a number written as a point (``0,93`` -> ``0.93``),
        for callers that pass numbers on as text (a reported score's digits count)."""
        if not self.decimal_comma:
            return self

        def point(cell: str) -> str:
            core = cell[:-1].rstrip() if cell.endswith("%") else cell
            return cell.replace(",", ".") if _COMMA_NUMBER.fullmatch(core) else cell

        rows = tuple(tuple(point(c) for c in r) for r in self.rows)
        return replace(self, rows=rows, decimal_comma=False)

    @property
    def width(self) -> int:
        """Number of columns."""
        if self.header is not None:
            return len(self.header)
        return len(self.rows[0]) if self.rows else 0

    def error(self, reason: str, *, line: int | None = None, column: int | str | None = None) -> InputError:
        """An :class:`InputError` about this table; ``column`` is an index (0-based) or a header name."""
        if isinstance(column, int) and not isinstance(column, bool):
            column = self.label(column)
        return InputError(reason, path=self.source, line=line, column=column)

    def label(self, index: int) -> str | int:
        """How messages name column ``index`` (0-based): its header name, else its number (1-based)."""
        if self.header is not None and self.header[index]:
            return self.header[index]
        return index + 1

    def find(self, *names: str, required: bool = True) -> int | None:
        """Index of the column named by one of ``names`` (case and surrounding spaces ignored).

        Raises :class:`InputError` when the file has no header, when two
        columns match, or (``required``) when none does; returns None when
        none does and not ``required``.
        """
        if self.header is None:
            raise self.error(f"needs a header row naming the columns ({', '.join(names)})", line=1)
        wanted = {n.strip().casefold() for n in names}
        hits = [j for j, h in enumerate(self.header) if h.strip().casefold() in wanted]
        if len(hits) > 1:
            shown = " and ".join(repr(self.header[j]) for j in hits)
            raise self.error(f"columns {shown} name the same thing: keep one", line=self.header_line)
        if not hits:
            if required:
                raise self.error(
                    f"no column {' or '.join(map(repr, names))} (columns: {', '.join(self.header)})",
                    line=self.header_line,
                )
            return None
        return hits[0]

    def find_all(self, *names: str) -> tuple[int, ...]:
        """Indices of the columns named ``names`` (case ignored), each required; one error lists every
        missing column."""
        if self.header is not None:
            missing = [n for n in names if self.find(n, required=False) is None]
            if missing:
                raise self.error(
                    f"needs the columns {_and(names)}; missing {_and(missing)} (columns: {', '.join(self.header)})",
                    line=self.header_line,
                )
        return tuple(self.find(n) for n in names)

    def _index(self, column: int | str) -> int:
        if isinstance(column, str):
            return self.find(column)
        if not -self.width <= column < self.width:
            raise self.error(f"has {self.width} column{'s' if self.width != 1 else ''}, not {column + 1}")
        return column % self.width

    def column(
        self,
        column: int | str,
        *,
        kind: Literal["number", "integer", "name"] = "number",
        blank: Literal["error", "none"] = "error",
        percent: bool = False,
    ) -> tuple:
        """The cells of one column converted: floats, ints or names (str).

        Parameters
        ----------
        column : int or str
            Index (0-based) or header name (case ignored).
        kind : {"number", "integer", "name"}
            ``number``: finite floats (decimal commas as the table says);
            ``integer``: exact integers (``3``, ``3.0``, ``1e3``);
            ``name``: the text, non-empty.
        blank : {"error", "none"}
            A blank cell is an error (default) or gives None.
        percent : bool
            Numbers may be written ``93.5%`` (divided by 100).

        Raises
        ------
        InputError
            At the first bad cell, naming file, line and column; the message
            counts the other cells with the same problem and their lines.
        """
        if kind not in ("number", "integer", "name"):
            raise ValueError(f"kind must be 'number', 'integer' or 'name', got {kind!r}")
        j = self._index(column)
        out, bad = [], {}
        what = {"number": "a number", "integer": "an integer", "name": "a name"}[kind]
        for row, line in zip(self.rows, self.lines, strict=True):
            cell = row[j]
            if cell == "":
                if blank == "none":
                    out.append(None)
                else:
                    bad.setdefault("blank", []).append((line, f"blank cell where {what} is needed"))
                continue
            if kind == "name":
                out.append(cell)
                continue
            v = parse_number(cell, decimal_comma=self.decimal_comma, percent=percent and kind == "number")
            if v is None:
                reason = _not_a_number(cell, self, percent)
                bad.setdefault(reason.replace(_shown(cell), "", 1), []).append((line, reason))
                continue
            if kind == "integer":
                d = decimal.Decimal(cell.replace(",", ".") if self.decimal_comma else cell)
                if d != d.to_integral_value():
                    bad.setdefault("int", []).append((line, f"{_shown(cell)} is not an integer"))
                    continue
                out.append(int(d))
            else:
                out.append(v)
        if bad:
            first = min(bad.values(), key=lambda problems: problems[0][0])
            (line, reason), others = first[0], [ln for ln, _ in first[1:]]
            if others:
                s = "s" if len(others) > 1 else ""
                shown = ", ".join(map(str, others[:5])) + (", ..." if len(others) > 5 else "")
                reason += f" (and {len(others)} more such cell{s}: line{s} {shown})"
            raise self.error(reason, line=line, column=j)
        return tuple(out)

    def duplicates(self, column: int | str) -> dict[str, tuple[int, ...]]:
        """``{value: lines}`` of each value listed more than once in a column (blank cells left out)."""
        j = self._index(column)
        seen: dict[str, list[int]] = {}
        for row, line in zip(self.rows, self.lines, strict=True):
            if row[j]:
                seen.setdefault(row[j], []).append(line)
        return {k: tuple(v) for k, v in seen.items() if len(v) > 1}

    def require_unique(self, column: int | str, *, what: str = "names") -> None:
        """Raise :class:`InputError` naming the lines of the first value listed twice in a column."""
        dup = self.duplicates(column)
        if dup:
            value, lines = next(iter(dup.items()))
            more = f"; {len(dup) - 1} more value{'s' if len(dup) > 2 else ''} repeated" if len(dup) > 1 else ""
            raise self.error(
                f"{what} must be unique: {value!r} is listed on lines {_and(lines)}{more}",
                line=lines[1],
                column=self._index(column),
            )

    def require_unique_header(self, *, what: str = "column names", columns: Sequence[int] | None = None) -> None:
        """Raise :class:`InputError` when two header cells are equal or one is blank (among ``columns``,
        default all)."""
        if self.header is None:
            return
        columns = range(self.width) if columns is None else columns
        for j in columns:
            if not self.header[j]:
                raise self.error(f"{what} must not be empty: column {j + 1} has none", line=self.header_line)
        seen: dict[str, int] = {}
        for j in columns:
            name = self.header[j]
            if name in seen:
                raise self.error(
                    f"{what} must be unique: {name!r} names columns {seen[name] + 1} and {j + 1}",
                    line=self.header_line,
                )
            seen[name] = j


def _and(items: Sequence) -> str:
    items = [str(x) for x in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _not_a_number(cell: str, table: Table, percent: bool) -> str:
    """Why a cell is no number, in words."""
    s = cell.strip()
    core = s[:-1] if s.endswith("%") else s
    if core.lower().lstrip("+-") in _NON_FINITE:
        return f"{_shown(cell)} is not a finite number"
    if _NUMBER.fullmatch(core) or (table.decimal_comma and _COMMA_NUMBER.fullmatch(core)):
        if s.endswith("%") and not percent:
            return f"{_shown(cell)} is not a number (a percentage is not accepted here)"
        return f"{_shown(cell)} is not a finite number"
    if _COMMA_NUMBER.fullmatch(core) and table.delimiter != ",":
        return (
            f"{_shown(cell)} is not a number: the file mixes decimal commas and decimal points; "
            "write every number one way"
        )
    return f"{_shown(cell)} is not a number"


# ------------------------------------------------------------------ reading
def _source_bytes(source, name: str | None) -> tuple[bytes | str, str]:
    """The raw content of ``source`` (bytes, or str when it was already text) and its name for messages."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), name or "the file"
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path == "-":
            stdin = sys.stdin
            if stdin is None:
                raise InputError("no standard input to read", path=name or "standard input")
            buffer = getattr(stdin, "buffer", None)
            raw = buffer.read() if buffer is not None else stdin.read()
            return raw, name or "standard input"
        shown = name or path
        try:
            with open(path, "rb") as fh:
                return fh.read(), shown
        except FileNotFoundError:
            raise InputError("no such file", path=shown) from None
        except IsADirectoryError:
            raise InputError("is a directory, not a file", path=shown) from None
        except OSError as exc:
            raise InputError(f"cannot be read ({exc.strerror or exc})", path=shown) from None
    if hasattr(source, "read"):
        raw = source.read()
        if not isinstance(raw, (bytes, str)):
            raise TypeError(f"the file object's read() returned {type(raw).__name__}, not bytes or str")
        return raw, name or str(getattr(source, "name", "") or "the file")
    raise TypeError(f"source must be a path, '-', bytes or an open file, got {type(source).__name__}")


def _not_text(raw: bytes, name: str) -> None:
    for magic, what, advice in _MAGIC:
        if raw.startswith(magic):
            raise InputError(f"is {what}, not a CSV text file: {advice}", path=name)


def _decode(raw: bytes, name: str) -> str:
    """The text of ``raw``: UTF-8 (BOM optional) or UTF-16/32 with a BOM; else an InputError saying where and why."""
    for bom, codec in (
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if raw.startswith(bom):
            try:
                text = raw.decode(codec)
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"starts as {codec.upper().replace('-SIG', '')} text but breaks at byte {exc.start}: "
                    "save the file as UTF-8 (CSV UTF-8 in a spreadsheet)",
                    path=name,
                ) from None
            break
    else:
        _not_text(raw, name)
        if b"\x00" in raw:
            half = raw[1::2] if raw[:1] != b"\x00" else raw[0::2]
            hint = " (UTF-16 text without a byte-order mark?)" if half and half.count(0) > 0.9 * len(half) else ""
            raise InputError(
                f"holds NUL bytes: a binary file{hint}, not CSV text; export it as CSV (CSV UTF-8 in a spreadsheet)",
                path=name,
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _not_utf8(raw, exc.start, name) from None
    if "\x00" in text:
        raise InputError("holds NUL characters: not CSV text", path=name)
    return text


def _not_utf8(raw: bytes, start: int, name: str) -> InputError:
    before = raw[:start]
    line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
    line_start = max(before.rfind(b"\n"), before.rfind(b"\r")) + 1
    column = len(before[line_start:].decode("utf-8", errors="replace")) + 1
    byte = raw[start]
    try:
        legacy = raw.decode("cp1252")
    except UnicodeDecodeError:
        legacy = None
    if legacy is not None:
        char = bytes([byte]).decode("cp1252")
        reason = (
            f"not UTF-8 text: the byte 0x{byte:02x} at column {column} ({char!r} in Latin-1 / Windows-1252, "
            "which the file seems to be in); save the file as UTF-8 (CSV UTF-8 in a spreadsheet) and try again"
        )
    else:
        reason = (
            f"not UTF-8 text: the byte 0x{byte:02x} at column {column} is no UTF-8; save the file as UTF-8 "
            "(CSV UTF-8 in a spreadsheet) and try again"
        )
    return InputError(reason, path=name, line=line)


def _physical_lines(text: str, comment: str | None) -> list[str]:
    """Lines with LF, CRLF or CR ends; with ``comment``, text from it to the line end (outside quotes) dropped."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if text.endswith(("\n", "\r")):
        lines.pop()
    if comment:
        quoted = False
        out = []
        for ln in lines:
            cut = None
            for k, ch in enumerate(ln):
                if ch == '"':
                    quoted = not quoted
                elif ch == comment and not quoted:
                    cut = k
                    break
            out.append(ln if cut is None else ln[:cut])
        lines = out
    return lines


def _parse(lines: list[str], delimiter: str, name: str) -> list[tuple[int, list[str]]]:
    """``[(line, cells)]`` of the non-blank rows, cells stripped."""
    reader = csv.reader((ln + "\n" for ln in lines), delimiter=delimiter, skipinitialspace=True, strict=False)
    rows, start, strip = [], 1, str.strip
    try:
        for cells in reader:
            cells = list(map(strip, cells))
            if any(cells):
                rows.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(f"is not a readable CSV file ({exc})", path=name, line=start) from None
    return rows


def _sniff(lines: list[str], name: str) -> tuple[str, list[tuple[int, list[str]]]]:
    """The delimiter and the rows: tab or semicolon when every row has it outside quotes (a row of one
    cell without any delimiter, such as a closing note, says nothing), else comma."""
    for d in DELIMITERS[:2]:
        if any(d in ln for ln in lines):
            rows = _parse(lines, d, name)
            if any(len(c) > 1 for _, c in rows) and all(len(c) > 1 or "," not in c[0] for _, c in rows):
                return d, rows
    return ",", _parse(lines, ",", name)


def _uses_decimal_comma(rows: list[tuple[int, list[str]]], delimiter: str) -> bool:
    if delimiter == ",":
        return False
    comma = False
    for _, cells in rows:
        for c in cells:
            if "," in c:
                comma = comma or bool(_COMMA_NUMBER.fullmatch(c.rstrip("%").rstrip()))
            elif "." in c and _POINT_NUMBER.fullmatch(c.rstrip("%").rstrip()):
                return False  # a decimal point: commas are no decimal commas
    return comma


def _filled(cells: list[str]) -> int:
    """Number of cells up to the last non-blank one."""
    n = len(cells)
    while n > 0 and not cells[n - 1]:
        n -= 1
    return n


def _is_header(rows: list[tuple[int, list[str]]], decimal_comma: bool) -> bool:
    """A first row with a non-number above a column of (mostly) numbers, or a one-row file with a non-number."""
    first, rest = rows[0][1], [cells for _, cells in rows[1:1001]]  # a thousand rows tell
    if not rest:
        return any(c and not _is_number(c, decimal_comma) for c in first)
    for j, cell in enumerate(first):
        if not cell or _is_number(cell, decimal_comma):
            continue
        below = [cells[j] for cells in rest if j < len(cells) and cells[j]]
        # half or more, not all: a column of numbers with a typo ('n/a') still has its name above it
        if below and 2 * sum(_is_number(c, decimal_comma) for c in below) >= len(below):
            return True
    return False


def read_table(
    source: str | os.PathLike | bytes | IO,
    *,
    name: str | None = None,
    header: bool | None = None,
    delimiter: str | None = None,
    comment: str | None = None,
    needs: str | None = None,
    min_rows: int = 1,
) -> Table:
    """Read a user's CSV file into a :class:`Table` of text cells.

    Parameters
    ----------
    source : path, ``"-"``, bytes or open file
        A path (str or PathLike; ``"-"`` is standard input), the file's
        bytes, or an open file in binary or text mode.
    name : str, optional
        The file's name in messages; default the path, ``standard input``,
        the open file's ``name``, else ``the file``.
    header : bool, optional
        True: the first row is a header; False: it is data; None (default):
        a header when some column holds numbers below a first cell that is
        not a number.
    delimiter : {",", ";", "\\t"}, optional
        Default: sniffed (tab or semicolon when every row has it, else comma).
    comment : str, optional
        A character starting a comment to the end of its line (outside quotes),
        e.g. ``"#"``; default none.
    needs : str, optional
        What the file must hold, said when it is empty or has no data rows
        (e.g. ``"a header line p,n and one line per fold"``).
    min_rows : int
        Fewest data rows accepted (default 1).

    Returns
    -------
    Table

    Raises
    ------
    InputError
        The file cannot be read, is not text, not UTF-8 (or UTF-16 with a
        byte-order mark), empty, has too few rows, or a row has more cells
        than the header.
    """
    if delimiter is not None and delimiter not in DELIMITERS:
        raise ValueError(f"delimiter must be one of ',', ';', '\\t' or None, got {delimiter!r}")
    raw, shown = _source_bytes(source, name)
    if isinstance(raw, bytes):
        text = _decode(raw, shown)
    else:
        text = raw[1:] if raw.startswith("\ufeff") else raw
        if "\x00" in text:
            raise InputError("holds NUL characters: not CSV text", path=shown)
    wanted = f": it needs {needs}" if needs else ""
    lines = _physical_lines(text, comment)
    if not any(ln.strip() for ln in lines):
        raise InputError(f"is an empty file{wanted}", path=shown)
    sep, rows = (delimiter, _parse(lines, delimiter, shown)) if delimiter else _sniff(lines, shown)
    if not rows:
        raise InputError(f"is an empty file{wanted}", path=shown)
    decimal_comma = _uses_decimal_comma(rows, sep)
    has_header = _is_header(rows, decimal_comma) if header is None else bool(header)
    head, header_line = None, None
    if has_header:
        (header_line, first), rows = rows[0], rows[1:]
        width = _filled(first)
        head = tuple(first[:width])
    else:
        # empty trailing columns, as spreadsheets write them (a,b,, on every line), are no columns
        width = max(_filled(cells) for _, cells in rows)
    out_rows, out_lines = [], []
    for line, cells in rows:
        if len(cells) == width:  # the common case
            out_rows.append(tuple(cells))
            out_lines.append(line)
            continue
        used = _filled(cells)
        if used > width:
            what = f"the header (line {header_line}) has {width}" if head is not None else f"the table has {width}"
            hint = f"a name holding {_DELIMITER_NAMES[sep]}s must be in double quotes"
            if sep == ",":
                hint += ", and numbers with decimal commas need a file separated by semicolons or tabs"
            raise InputError(f"has {used} cells, {what}: {hint}", path=shown, line=line)
        out_rows.append(tuple(cells[:width]) + ("",) * (width - len(cells)))
        out_lines.append(line)
    if len(out_rows) < min_rows:
        if head is not None and not out_rows:
            raise InputError(f"has a header but no data rows{wanted}", path=shown)
        rows_had = f"{len(out_rows)} data row{'s' if len(out_rows) != 1 else ''}"
        raise InputError(f"has {rows_had}, fewer than {min_rows}{wanted}", path=shown)
    return Table(
        source=shown,
        header=head,
        rows=tuple(out_rows),
        lines=tuple(out_lines),
        delimiter=sep,
        decimal_comma=decimal_comma,
        header_line=header_line,
    )
