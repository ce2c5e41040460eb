"""Argument checks shared by the library and the command line.

Every check raises :class:`ValueError` whose message names the parameter, the
allowed range and the offending value, e.g. ``"n must be an integer >= 1, got 0"``.
"""

from __future__ import annotations

import math
import numbers

import numpy as np


def _fmt(value: object) -> str:
    return repr(value) if isinstance(value, str) else f"{value}"


def check_int(name: str, value: object, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as ``int`` if it is an integer within ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, float, np.floating)):
        raise ValueError(f"{name} must be an integer, got {_fmt(value)}")
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value) or value != int(value):
            raise ValueError(f"{name} must be an integer, got {_fmt(value)}")
    value = int(value)
    if low is not None and value < low:
        rng = f">= {low}" if high is None else f"in [{low}, {high}]"
        raise ValueError(f"{name} must be an integer {rng}, got {value}")
    if high is not None and value > high:
        rng = f"<= {high}" if low is None else f"in [{low}, {high}]"
        raise ValueError(f"{name} must be an integer {rng}, got {value}")
    return value


def check_real(
    name: str,
    value: object,
    *,
    low: float = -math.inf,
    high: float = math.inf,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """Return ``value`` as ``float`` if it is a finite number within the interval."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise ValueError(f"{name} must be a number, got {_fmt(value)}")
    value = float(value)
    left = "(" if low_open else "["
    right = ")" if high_open else "]"
    interval = f"{left}{low:g}, {high:g}{right}"
    ok = math.isfinite(value) or (value == high == math.inf and not high_open)
    ok = ok and (value > low if low_open else value >= low)
    ok = ok and (value < high if high_open else value <= high)
    if not ok:
        raise ValueError(
            f"{name} must be in {interval}, got {value:g}"
            if not math.isnan(value)
            else f"{name} must be in {interval}, got nan"
        )
    return value


def check_probability(name: str, value: object, *, open_low: bool = False, open_high: bool = False) -> float:
    """A probability in [0, 1], optionally with open ends."""
    return check_real(name, value, low=0.0, high=1.0, low_open=open_low, high_open=open_high)


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """One of a fixed set of strings."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {_fmt(value)}")
    return str(value)
