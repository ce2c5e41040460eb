"""Numbers on the command line: each option parsed once, with its name and allowed range.

An option declared ``type=integer("--n", 1)`` or
``type=real("--alpha", ALPHA_MIN, 1, high_open=True)`` turns its text into a
number while argparse reads the command line, before any work starts; a bad
value is one line on stderr naming the option, the range and the text as
typed, and exit code 2 (``sotalib maxdist: error: --n must be an integer >=
1, got '0.5'``).

The checks refuse what a float would silently change: ``nan`` and
infinities, a literal that overflows (``1e400``) or underflows to zero
(``1e-400``), and magnitudes far beyond the range (``1e99999999`` is
compared, never expanded).  Integers may be written ``1000000``,
``1_000_000`` or ``1e6``.

This module imports only the standard library, so ``sotalib --help`` stays
fast.  An integer option states only its natural lower end (``--n`` >= 1,
``--reps`` >= 2); how large a size may be is the library's to say (it
refuses what cannot fit in memory or in 64 bits, naming the parameter, which
the command line reports as the option).  Without an upper end an integer
option stops at ``2**63 - 1``, the largest the library takes, so that
``1e99999999`` is refused here rather than expanded.  Seeds keep their own
range, ``[0, SEED_MAX]``.
"""

from __future__ import annotations

import argparse
import decimal
import math
from collections.abc import Callable

__all__ = [
    "integer",
    "real",
    "probability",
    "alpha",
    "seed",
    "SEED_MAX",
    "INT_MAX",
    "ALPHA_MIN",
]

#: Largest seed (NumPy's seeds are non-negative integers; 64 bits are plenty).
SEED_MAX = 2**64 - 1
#: Largest integer an option without an upper end takes: the library's own limit for every
#: integer parameter (equal to ``sotalib._validate.INT64_MAX``; a test checks that they agree).
INT_MAX = 2**63 - 1
#: Smallest interval level ``alpha``: below it ``1 - alpha/2`` is no longer resolved by a double
#: (equal to ``sotalib._validate.ALPHA_MIN``; a test checks that they agree).
ALPHA_MIN = 1e-10

#: Longest text accepted as a number (a report carries a few dozen characters at most).
_MAX_CHARS = 64


def _shown(text: str) -> str:
    """The text as typed, quoted, shortened when long."""
    s = text if len(text) <= 40 else text[:37] + "..."
    return repr(s)


def _fmt(x) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _interval(low, high, low_open: bool, high_open: bool) -> str:
    if low is None or low == -math.inf:
        return f"<= {_fmt(high)}" if not high_open else f"< {_fmt(high)}"
    if high is None or high == math.inf:
        return f">= {_fmt(low)}" if not low_open else f"> {_fmt(low)}"
    return f"{'(' if low_open else '['}{_fmt(low)}, {_fmt(high)}{')' if high_open else ']'}"


def _in(what: str, low, high, low_open: bool, high_open: bool) -> str:
    rng = _interval(low, high, low_open, high_open)
    return f"{what} {rng}" if rng[0] in "<>" else f"{what} in {rng}"


def _bound(bound: int) -> str:
    return {INT_MAX: "2**63 - 1", -INT_MAX - 1: "-2**63"}.get(bound, str(bound))


def integer(option: str, low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: an integer in ``[low, high]``.

    Either end may be None: the library decides the range beyond it, up to
    the 64-bit integers ``[-2**63, 2**63 - 1]`` that every integer parameter
    of the library lies in.  Accepts ``12``, ``1_000`` and exact integers in
    exponent form (``1e6``).  The range is checked on the decimal's exponent
    and then its exact value, before any conversion, so ``1e99999999`` is
    refused at once, never expanded.  A value beyond the 64-bit end reads as
    the library's message does (``--n must be an integer in [1, 2**63 - 1],
    got '1e400'``).
    """
    need = _in(f"{option} must be an integer", low, high, False, False)
    top = INT_MAX if high is None else high
    bottom = -INT_MAX - 1 if low is None else low
    beyond = f"{option} must be an integer in [{_bound(bottom)}, {_bound(top)}]"
    digits = len(str(max(abs(top), abs(bottom))))  # a nonzero value with more digits is out of range

    def parse(text: str) -> int:
        s = text.strip()
        if not s or len(s) > _MAX_CHARS:
            raise argparse.ArgumentTypeError(f"{need}, got {_shown(text)}")
        try:
            float(text)  # the syntax of a number as Python reads it (str.strip also strips \x1c-\x1f)
            d = decimal.Decimal(s)
        except (ValueError, decimal.InvalidOperation):
            d = None
        if d is None or not d.is_finite():
            raise argparse.ArgumentTypeError(f"{need}, got {_shown(text)}")
        if (low is not None and d < low) or (high is not None and d > high):
            raise argparse.ArgumentTypeError(f"{need}, got {_shown(text)}")
        # beyond the ends: the exponent says so at once (2**63 has 19 digits), the exact comparison at the edge
        if (d != 0 and d.adjusted() >= digits) or not bottom <= d <= top:
            raise argparse.ArgumentTypeError(f"{beyond}, got {_shown(text)}")
        if d != d.to_integral_value():
            raise argparse.ArgumentTypeError(f"{need}, got {_shown(text)}")
        return int(d)

    parse.__name__ = "integer"
    parse.numeric = True  # type: ignore[attr-defined]  # marks the option as numeric (tests discover these)
    return parse


def real(
    option: str,
    low: float = -math.inf,
    high: float = math.inf,
    *,
    low_open: bool = False,
    high_open: bool = False,
) -> Callable[[str], float]:
    """An argparse ``type``: a finite number in the interval (ends closed unless ``*_open``).

    ``nan``, infinities, and literals that overflow a double or underflow to
    zero are refused with the option's name and range.
    """
    unbounded = low == -math.inf and high == math.inf  # the library checks the range: say what is refused here
    need = (
        f"{option} must be a finite number"
        if unbounded
        else _in(f"{option} must be a number", low, high, low_open, high_open)
    )

    def parse(text: str) -> float:
        s = text.strip()
        if not s or len(s) > _MAX_CHARS:
            raise argparse.ArgumentTypeError(f"{need}, got {_shown(text)}")
        try:
            v = float(text)
            d = decimal.Decimal(s)
        except (ValueError, decimal.InvalidOperation):
            raise argparse.ArgumentTypeError(f"{need}, got {_shown(text)}") from None
        if not math.isfinite(v) or not d.is_finite():
            raise argparse.ArgumentTypeError(f"{need}, got {_shown(text)}")
        if v == 0.0 and d != 0:
            raise argparse.ArgumentTypeError(f"{need}, got {_shown(text)} (too small for a double: it reads as 0)")
        ok = (v > low if low_open else v >= low) and (v < high if high_open else v <= high)
        if not ok:
            raise argparse.ArgumentTypeError(f"{need}, got {_shown(text)}")
        return v

    parse.__name__ = "number"
    parse.numeric = True  # type: ignore[attr-defined]
    return parse


def probability(option: str, *, low_open: bool = False, high_open: bool = False) -> Callable[[str], float]:
    """A number in ``[0, 1]`` (ends open as asked)."""
    return real(option, 0.0, 1.0, low_open=low_open, high_open=high_open)


def alpha(option: str = "--alpha") -> Callable[[str], float]:
    """The interval level ``alpha``, in ``[ALPHA_MIN, 1)``."""
    return real(option, ALPHA_MIN, 1.0, high_open=True)


def seed(option: str = "--seed") -> Callable[[str], int]:
    """A random seed, an integer in ``[0, SEED_MAX]``."""
    return integer(option, 0, SEED_MAX)
