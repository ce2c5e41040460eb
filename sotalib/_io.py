"""One reader of users' table files (CSV as people and spreadsheets write it).

Every command and function of sotalib that reads a user's table calls
:func:`read_table`, then converts the columns it needs with
:meth:`Table.column`; so every file is read the same way and every refusal
is one :class:`InputError` naming the file, the line and the column.  This
module turns bytes into a table; the table, its conversions and the error
live in :mod:`sotalib._table` (imported from here: ``from sotalib._io import
InputError, Table, read_table``).

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

The readers of sotalib that read through this module
----------------------------------------------------
``multiplicity._leaderboard.read_kaggle_leaderboard``, ``read_leaderboard`` (``sotalib sota``)
    header required (a first row of numbers is refused: "add a header line
    such as rank,score"); score column found by name (``score`` any case,
    else the only name containing "score"); a trailing Kaggle ``Next Page
    Token = ...`` row dropped and reported; blank scores dropped and
    counted; ``91.5%`` divided by 100; a team id (else team name) repeated
    is merged into the team's best score and counted.
``judging._readers.read_scores`` (``rank``, ``compare``)
    header required (first cell ignored, the others name the judges, each
    once and none blank; a first row of numbers with fractions is a missing
    header, refused); each row a candidate name then one finite number per
    judge; candidate names unique and non-empty.
``_per_item.read_per_item`` (``dependence``, ``rank-uncertainty --per-item``, ``sota --per-item``)
    header required: model names, unique and non-empty (not all numbers
    with a fraction: a missing header); gzip-compressed files decompressed;
    a first column holds item ids, unique, when headed ``item``, ``id`` or
    empty, or when some cell is not a number, or its cells are whole
    numbers not all 0 or 1; every other cell a finite number.
``judging._readers.read_battles`` (``rank-uncertainty --battles``)
    header required, naming ``a``, ``b`` and ``winner`` (any case, any
    order; other columns ignored); cells are names (checked later by
    ``bradley_terry``); a blank ``a`` or ``b`` is an error, a blank winner a tie.
``consistency._folds.read_folds`` (``check --folds-file``)
    header required with columns ``p`` and ``n`` (any case, once each; a
    first line of numbers is refused: "the file needs a header line 'p,n'");
    integers >= 0 with p + n >= 1; at least one fold.
``consistency._batch`` batch files (``check --batch``; also a DataFrame)
    header required: known batch columns and score names; rows numbered as
    data rows; semicolon and tab files read (with decimal commas);
    ``folds_file`` paths relative to the batch file's directory.
``consistency._folds.read_folds(task='multiclass')`` (``check --classes ... --folds-file``)
    one fold per row, its class sizes (integers); an optional header of
    class names (``c1,c2,c3`` too); ``#`` comments; at least one fold.
``consistency._datasets``, ``multiplicity._leaderboard.read_meta_kaggle``
    not through this module: files shipped with sotalib, and Meta Kaggle's
    multi-gigabyte files read by pandas in chunks.
"""

from __future__ import annotations

import codecs
import csv
import math
import os
import sys
from typing import IO

from ._table import _COMMA_NUMBER, _POINT_NUMBER, InputError, Table, _is_number, parse_number

__all__ = ["InputError", "Table", "read_table", "read_table_or_frame", "cell_text", "parse_number"]

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
    """The delimiter and the rows of ``lines``.

    Tab or semicolon when every row has it outside quotes (a row of one
    cell without any delimiter, such as a closing note, says nothing), else comma.
    """
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
    r"""Read a user's CSV file into a :class:`Table` of text cells.

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
    delimiter : {",", ";", "\t"}, optional
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


# ------------------------------------------------------------------ tables of many rows (batch files)
def cell_text(v) -> str:
    """A DataFrame cell as the text a CSV file would hold ('' for a missing value: None, NaN, NA, NaT)."""
    if v is None:
        return ""
    if isinstance(v, float):  # also numpy's float64
        return "" if math.isnan(v) else repr(float(v))
    pd = sys.modules.get("pandas")  # the cell came from a DataFrame: pandas is loaded
    if pd is not None and (v is pd.NA or v is pd.NaT):
        return ""
    if hasattr(v, "item") and callable(v.item):  # numpy scalars
        return cell_text(v.item())
    return str(v)


def read_table_or_frame(table, *, file_word: str, frame_word: str, needs: str) -> tuple[Table, str, str]:
    """Read a table with a header from a file or a DataFrame, as the batch readers take it.

    Returns ``(t, base, where)``: the table (decimal commas written as points, since its cells are
    passed on as text), the folder that relative paths in its cells start from (the file's folder;
    the working directory for a DataFrame or an open file), and the table's name in messages
    (``file_word`` and the file's name, or ``frame_word`` for a DataFrame).  A DataFrame's rows are
    numbered as data rows (1 = the first), its missing values blank (:func:`cell_text`).  Shared by
    ``sotalib check --batch`` (:mod:`sotalib.consistency._batch`) and ``sotalib sota --batch``
    (:mod:`sotalib.multiplicity._sota_batch`).
    """
    pd = sys.modules.get("pandas")  # a DataFrame means pandas is loaded; a CSV file never loads it
    if pd is not None and isinstance(table, pd.DataFrame):
        if not len(table.columns):
            raise ValueError(f"{frame_word} has no columns: it needs {needs}")
        records = [[cell_text(v) for v in rec] for rec in table.itertuples(index=False)]
        t = Table.from_records([str(c) for c in table.columns], records, source=frame_word)
        return t, os.getcwd(), frame_word
    if hasattr(table, "read"):
        name, base = getattr(table, "name", None), os.getcwd()
    else:
        name = os.fspath(table)
        base = os.path.dirname(os.path.abspath(name))
    where = f"{file_word} {name}" if name else file_word
    t = read_table(table, header=True, name=where, needs=needs).with_decimal_points()
    return t, base, where
