"""Argument checks shared by the library and the command line.

Every check raises :class:`ValueError` whose message names the parameter, the
allowed range and the offending value, e.g. ``"n must be an integer >= 1, got 0"``.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._errors import NoSolutionError as NoSolutionError


class ParameterError(ValueError):
    """A :class:`ValueError` about how several parameters go together, naming them.

    ``parameters`` lists the parameter names the message mentions, so that a
    caller that knows them by other names (the command line's options) can
    put the message in its own terms: ``give exactly one of eps and decimals``
    reads ``give exactly one of --eps and --decimals`` on the command line.
    """

    def __init__(self, message: str, *parameters: str):
        super().__init__(message)
        self.parameters = tuple(parameters)


def _fmt(value: object) -> str:
    return repr(value) if isinstance(value, str) else f"{value}"


#: Largest integer a size, count or index may take: the signed 64-bit range of NumPy's integers (and Numba's).
INT64_MAX = 2**63 - 1
#: Smallest integer a parameter may take.
INT64_MIN = -(2**63)


def _int_text(value: int) -> str:
    """An integer as a message shows it: in full up to 30 digits, else its ends and its number of digits."""
    digits = str(abs(value))
    if len(digits) <= 30:
        return str(value)
    return f"{'-' if value < 0 else ''}{digits[:6]}...{digits[-3:]} ({len(digits)} digits)"


def _bound_text(bound: int) -> str:
    return {INT64_MAX: "2**63 - 1", INT64_MIN: "-2**63"}.get(bound, str(bound))


def check_int(name: str, value: object, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as ``int`` if it is an integer within ``[low, high]``.

    Every integer parameter lies in the signed 64-bit range as well (the
    arrays and compiled loops behind it count in 64 bits): without ``high``
    the upper end is ``2**63 - 1``, without ``low`` the lower end is
    ``-2**63``.  A value beyond them is refused like any other value out of
    range, its message showing a number of more than 30 digits by its ends
    and its length (``10**400`` reads ``100000...000 (401 digits)``).
    """
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, float, np.floating)):
        raise ValueError(f"{name} must be an integer, got {_fmt(value)}")
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value) or value != int(value):
            raise ValueError(f"{name} must be an integer, got {_fmt(value)}")
    value = int(value)
    if low is not None and value < low:
        rng = f">= {low}" if high is None else f"in [{low}, {_bound_text(high)}]"
        raise ValueError(f"{name} must be an integer {rng}, got {_int_text(value)}")
    if high is not None and value > high:
        rng = f"<= {high}" if low is None else f"in [{_bound_text(low)}, {high}]"
        raise ValueError(f"{name} must be an integer {rng}, got {_int_text(value)}")
    if not INT64_MIN <= value <= INT64_MAX:
        lo = INT64_MIN if low is None else max(low, INT64_MIN)
        hi = INT64_MAX if high is None else min(high, INT64_MAX)
        raise ValueError(f"{name} must be an integer in [{_bound_text(lo)}, {_bound_text(hi)}], got {_int_text(value)}")
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
    left = "(" if low_open else "["
    right = ")" if high_open else "]"
    interval = f"{left}{low:g}, {high:g}{right}"
    try:
        value = float(value)
    except OverflowError:  # an integer beyond the doubles, such as 10**400
        where = "" if interval == "[-inf, inf]" else f" in {interval}"
        shown = _int_text(int(value)) if isinstance(value, numbers.Integral) else _fmt(value)
        raise ValueError(f"{name} must be a finite number{where}, got {shown}") from None
    ok = math.isfinite(value) or (value == high == math.inf and not high_open)
    ok = ok and (value > low if low_open else value >= low)
    ok = ok and (value < high if high_open else value <= high)
    if not ok:
        if math.isnan(value):
            raise ValueError(
                f"{name} must be a number, got nan"
                if interval == "[-inf, inf]"
                else f"{name} must be in {interval}, got nan"
            )
        raise ValueError(f"{name} must be in {interval}, got {value:g}")
    return value


def check_probability(name: str, value: object, *, open_low: bool = False, open_high: bool = False) -> float:
    """A probability in [0, 1], optionally with open ends."""
    return check_real(name, value, low=0.0, high=1.0, low_open=open_low, high_open=open_high)


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """One of a fixed set of strings."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {_fmt(value)}")
    return str(value)


#: Smallest interval level ``alpha`` accepted: below it ``1 - alpha/2`` is not resolved by a double
#: (its relative error ``2**-53 / alpha`` would reach ``1e-6``), and intervals that wide say nothing.
ALPHA_MIN = 1e-10


def check_alpha(name: str, value: object) -> float:
    """An interval level ``alpha`` in ``[ALPHA_MIN, 1)`` (the interval is ``1 - alpha``)."""
    return check_real(name, value, low=ALPHA_MIN, high=1.0, high_open=True)


def _physical_memory() -> int | None:
    """Bytes of memory this process may use: the cgroup limit if any, else the machine's RAM (None if unknown)."""
    import os

    limits = []
    try:
        limits.append(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        pass
    try:
        with open("/sys/fs/cgroup/memory.max") as fh:
            text = fh.read().strip()
        if text.isdigit():
            limits.append(int(text))
    except OSError:
        pass
    return min(limits) if limits else None


def memory_limit() -> int:
    """Bytes one computation may allocate: ``SOTALIB_MEMORY_LIMIT`` if set, else half the memory available.

    ``SOTALIB_MEMORY_LIMIT`` takes a number of bytes with an optional suffix
    ``K``, ``M``, ``G`` or ``T`` (powers of 1024), e.g. ``64G``.  Without it
    (or if the machine's memory cannot be read) the limit is half the
    physical memory (or of the container's limit), or 4 GiB.
    """
    import os

    text = os.environ.get("SOTALIB_MEMORY_LIMIT", "").strip().upper().removesuffix("B")
    if text:
        scale = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}.get(text[-1], 1)
        try:
            value = float(text[:-1] if scale > 1 else text) * scale
        except ValueError:
            raise ValueError(f"SOTALIB_MEMORY_LIMIT must be a number of bytes such as 8G, got {text!r}") from None
        if math.isfinite(value) and value > 0:
            return int(value)
        raise ValueError(f"SOTALIB_MEMORY_LIMIT must be a positive number of bytes such as 8G, got {text!r}")
    total = _physical_memory()
    return total // 2 if total else 4 * 2**30


#: Seconds of estimated work one computation may take unless ``SOTALIB_TIME_LIMIT`` says otherwise:
#: every command answers within about a minute or refuses up front (the README's *Limits and long runs*).
DEFAULT_TIME_LIMIT = 60.0


def time_limit() -> float:
    """Seconds one computation is expected to take at most: ``SOTALIB_TIME_LIMIT``, else a minute.

    ``SOTALIB_TIME_LIMIT`` takes a number of seconds with an optional suffix
    ``s``, ``m`` or ``h`` (e.g. ``90``, ``10m``, ``2h``).
    """
    import os

    text = os.environ.get("SOTALIB_TIME_LIMIT", "").strip().lower()
    if not text:
        return DEFAULT_TIME_LIMIT
    scale = {"s": 1.0, "m": 60.0, "h": 3600.0}.get(text[-1], 0.0)
    try:
        value = float(text[:-1] if scale else text) * (scale or 1.0)
    except ValueError:
        value = math.nan
    if math.isfinite(value) and value > 0:
        return value
    raise ValueError(f"SOTALIB_TIME_LIMIT must be a positive number of seconds such as 600 or 10m, got {text!r}")


def format_seconds(seconds: float) -> str:
    """``about 40 seconds``, ``about 7 minutes``, ``about 16.7 hours``: durations as the messages print them."""
    if seconds < 90:
        return f"about {seconds:,.0f} seconds"
    minutes = seconds / 60
    return f"about {minutes:,.0f} minutes" if minutes < 120 else f"about {minutes / 60:,.1f} hours"


def check_time(seconds: float, what: str, advice: str = "", **facts: object) -> None:
    """Refuse up front a computation expected to take longer than :func:`time_limit`, else announce it.

    ``what`` names the request (starting with the parameter that makes it
    long, e.g. ``"engine='exact' at n=10000000 items"``), ``seconds`` is the
    estimate on a 2-core machine; ``advice`` says how to make it fast.  A
    computation within the limit is announced (:func:`sotalib._progress.announce`,
    with ``facts``), so that the command line can state its cost.
    """
    limit = time_limit()
    if seconds > limit:
        raise ValueError(
            f"{what} is expected to take {format_seconds(seconds)} on a 2-core machine, more than the "
            f"{format_seconds(limit).removeprefix('about ')} sotalib allows itself (SOTALIB_TIME_LIMIT)"
            + (f"; {advice}" if advice else "")
        )
    from ._progress import announce

    announce(seconds, **facts)


def format_bytes(nbytes: float) -> str:
    """``1.5 GiB``, ``820 MiB``, ``74.5 GiB``: sizes as the messages print them."""
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= size:
            return f"{nbytes / size:.3g} {unit}"
    return f"{int(nbytes)} bytes"


def format_count(count: int) -> str:
    """``39,508``; a count of more than 18 digits as ``about 4.74e406`` (the exact value stays in the JSON)."""
    digits = str(int(count))
    if len(digits) <= 18:
        return f"{int(count):,}"
    return f"about {digits[0]}.{digits[1:3]}e{len(digits) - 1}"


def check_memory(nbytes: float, what: str, advice: str = "") -> None:
    """Refuse up front a request whose arrays would need more than :func:`memory_limit` bytes.

    ``what`` names the request in the message (it should start with the
    parameter that makes it large, e.g. ``"reps=10000000000 replications"``);
    ``advice`` says how to make it fit.
    """
    limit = memory_limit()
    if nbytes > limit:
        raise ValueError(
            f"{what} would need {format_bytes(nbytes)} of memory, more than the {format_bytes(limit)} "
            "sotalib allows itself (half the memory of this machine, or SOTALIB_MEMORY_LIMIT)"
            + (f"; {advice}" if advice else "")
        )
