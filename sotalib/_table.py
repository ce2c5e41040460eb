"""Users' tables once read: :class:`Table` (text cells with their lines), numbers, and :class:`InputError`.

:func:`sotalib._io.read_table` makes a :class:`Table` from a file; the
methods here convert its columns (numbers, integers, names) and find
columns and duplicates, each refusal one :class:`InputError` naming the
file, the line and the column.  A table built from records (a DataFrame's
rows) goes through the same checks (:meth:`Table.from_records`).
"""

from __future__ import annotations

import decimal
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal, overload

__all__ = ["InputError", "Table", "parse_number"]

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
    r"""A user's table as read by :func:`read_table`: text cells, every row as long as the header.

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
        ``","``, ``";"`` or ``"\t"``.
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
        """A table of values already split into cells (a DataFrame's rows, say).

        Cells are kept as text, lines counted as data rows (1 = the first record), missing values (None, NaN) blank.
        """

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
        """The table with every decimal comma of a number written as a point (``0,93`` -> ``0.93``).

        For callers that pass numbers on as text (a reported score's digits count).
        """
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

    @overload
    def find(self, *names: str, required: Literal[True] = ...) -> int: ...
    @overload
    def find(self, *names: str, required: bool) -> int | None: ...
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
        """Indices of the columns named ``names`` (case ignored), each required.

        One error lists every missing column.
        """
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
        out: list[float | int | str | None] = []
        bad: dict[str, list[tuple[int, str]]] = {}
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
        """Raise :class:`InputError` when two header cells are equal or one is blank.

        Only the header cells of ``columns`` (default all) are compared.  The
        error names the header line and the column at fault by its number (the
        second of two equal names; a name shared by two columns names neither).
        """
        if self.header is None:
            return
        columns = range(self.width) if columns is None else columns
        for j in columns:
            if not self.header[j]:
                raise self.error(f"{what} must not be empty: column {j + 1} has none", line=self.header_line, column=j)
        seen: dict[str, int] = {}
        for j in columns:
            name = self.header[j]
            if name in seen:
                # the column by its number: its name is the other column's too
                raise InputError(
                    f"{what} must be unique: {name!r} names columns {seen[name] + 1} and {j + 1}",
                    path=self.source,
                    line=self.header_line,
                    column=j + 1,
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
