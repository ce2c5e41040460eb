"""The one base of every public result: a frozen dataclass with ``to_dict()``, a readable repr and a table.

Every function of sotalib that answers a question returns a small frozen
dataclass that inherits :class:`Result`.  The base gives it

* ``to_dict()``: the fields as JSON-safe Python values (no NaN, no infinity,
  no NumPy types), which is what ``sotalib COMMAND --json`` prints for the
  front-door results (a result may override it to keep the command line's keys);
* ``to_text()``: the result in words, which is what ``sotalib COMMAND`` prints
  without ``--json`` for the front-door results (they override it); the base
  gives one line per scalar entry of ``to_dict()``;
* a ``repr`` that fits on a screen: scalars in full, arrays and long lists
  by their shape;
* ``_repr_html_``: a two-column table of the scalar entries of ``to_dict()``,
  as notebooks show pandas objects.

Declare a result as ``@dataclass(frozen=True, repr=False)`` so that the base's
repr is used.
"""

from __future__ import annotations

import dataclasses
import html
import math
from typing import Any, cast

from ._json import json_safe

__all__ = ["Result"]

_MAX_ITEMS = 6


def _short(value: Any) -> str:
    """A short text for one field: numbers in full, containers by their size."""
    if hasattr(value, "shape") and getattr(value, "ndim", 0) > 0:
        return f"<array shape={tuple(value.shape)}>"
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) or math.isnan(value) else repr(value)
    if isinstance(value, (list, tuple)):
        if len(value) > _MAX_ITEMS:
            return f"<{type(value).__name__} of {len(value)}>"
        return "[" + ", ".join(_short(v) for v in value) + "]"
    if isinstance(value, dict):
        if len(value) > _MAX_ITEMS:
            return f"<dict of {len(value)}>"
        return "{" + ", ".join(f"{k!r}: {_short(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Result):
        return f"<{type(value).__name__}>"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


class Result:
    """Base of every public result type of sotalib.

    Subclasses are frozen dataclasses declared with ``repr=False``.
    """

    __slots__ = ()

    def to_dict(self) -> dict:
        """The result as a dictionary of JSON-safe values.

        Fields hidden from the repr (``field(repr=False)``) are left out.
        NaN and infinities become None, NumPy arrays and scalars become
        Python lists and numbers, so ``json.dumps(result.to_dict(),
        allow_nan=False)`` never fails.
        """
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(cast(Any, self)) if f.repr}
        return json_safe(out)

    def to_text(self) -> str:
        """The result as human-readable lines: what ``sotalib COMMAND`` prints without ``--json``.

        The results of the command line's commands override it with the
        command's text; this default gives the class name, then one line per
        scalar entry of ``to_dict()`` (lists and mappings by their length).
        """
        rows = []
        for key, value in self.to_dict().items():
            if isinstance(value, (list, dict)):
                text = f"{type(value).__name__} of {len(value)}"
            elif isinstance(value, float):
                text = f"{value:.6g}"
            else:
                text = str(value)
            rows.append((str(key), text))
        width = max((len(k) for k, _ in rows), default=0)
        return "\n".join([type(self).__name__, *(f"  {k.ljust(width)}  {v}" for k, v in rows)])

    def __repr__(self) -> str:
        parts = [f"{f.name}={_short(getattr(self, f.name))}" for f in dataclasses.fields(cast(Any, self)) if f.repr]
        body = ",\n    ".join(parts)
        return f"{type(self).__name__}(\n    {body},\n)" if len(parts) > 3 else f"{type(self).__name__}({body})"

    def _repr_html_(self) -> str:
        rows = []
        for key, value in self.to_dict().items():
            if isinstance(value, (list, dict)):
                n = len(value)
                if n > _MAX_ITEMS:
                    value = f"{type(value).__name__} of {n}"
            if isinstance(value, float):
                text = f"{value:.6g}"
            else:
                text = str(value)
                if len(text) > 120:
                    text = text[:117] + "..."
            rows.append(
                f"<tr><th style='text-align:left'>{html.escape(str(key))}</th><td>{html.escape(text)}</td></tr>"
            )
        caption = f"<caption style='text-align:left'><b>{html.escape(type(self).__name__)}</b></caption>"
        return f"<table>{caption}{''.join(rows)}</table>"
