"""JSON-safe values for every result's ``to_dict()`` and for the command line's ``--json``."""

from __future__ import annotations

import math

__all__ = ["json_safe"]


def json_safe(obj):
    """``obj`` with tuples as lists, numpy scalars and arrays as Python ones, non-finite floats as None.

    ``json.dumps(json_safe(obj), allow_nan=False)`` then never fails on a NaN
    or an infinity: a missing value is ``null``.
    """
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if hasattr(obj, "tolist") and callable(obj.tolist):  # numpy arrays and scalars
        return json_safe(obj.tolist())
    if hasattr(obj, "to_dict") and callable(obj.to_dict):  # a result held by another result
        return json_safe(obj.to_dict())
    return obj
