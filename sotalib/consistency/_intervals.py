"""Reported numbers and the intervals of true values they allow (Fazekas & Kovacs, Section 2, Eq. 1).

A reported value is read as the exact decimal it was written as (``0.6801``
means 6801/10000), and the numerical uncertainty of the report turns it into
a closed interval of the true value:

========== ===================================
rounding   interval of the true value
========== ===================================
round      [v - 10^-d / 2, v + 10^-d / 2]
floor      [v, v + 10^-d]
ceil       [v - 10^-d, v]
any        [v - 10^-d, v + 10^-d]
eps        [v - eps, v + eps]
========== ===================================

Every interval is widened by a relative 1e-12 (:data:`FLOAT_SLACK`): the
authors computed their scores in floating point before shortening them, and
a value within an ulp of a rounding boundary may have been rounded the
"wrong" way.  The widening is far below any reported precision, so it costs
no power.

Every public checker converts its reported scores here once, with
:func:`score_intervals`, and hands the intervals to private workers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict

from .._validate import ParameterError, check_choice, check_int, check_real
from ._scores import ScoreSpec, exact_sign, resolve_score, score_range

__all__ = []

ROUNDINGS = ("round", "floor", "ceil", "any")

#: Relative widening of every interval: the reported value was computed in floating point
#: by its authors before they rounded it, so it may sit an ulp on the wrong side of a
#: rounding boundary.
FLOAT_SLACK = Fraction(1, 10**12)

#: A reported number is written with at most this many digits and an exponent of at most this
#: magnitude: anything beyond is not a report (and building it exactly could take forever).
MAX_DIGITS = 60
MAX_EXPONENT = 60

_NUMBER = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?")


def _show(value: object, width: int = 24) -> str:
    """A value for an error message, shortened (a user may pass a million digits)."""
    text = str(value).strip()
    return text if len(text) <= width else text[: width - 3] + "..."


def as_decimal(value: object, name: str = "value") -> Fraction:
    """A reported number read as the exact decimal it was written as.

    Strings are parsed once, before any exact number is built: at most
    :data:`MAX_DIGITS` digits and a magnitude between ``1e-60`` and ``1e60``
    (or zero); anything else -- ``1e400``, ``1e-99999999``, ``nan``, text -- is
    a ``ValueError`` naming ``name``.
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, str):
        text = value.strip()
        m = _NUMBER.fullmatch(text)
        if not m or not (m.group(2) or m.group(3)):
            comma = _NUMBER.fullmatch(text.replace(",", ".", 1)) if text.count(",") == 1 else None
            hint = f" (write a decimal point: {text.replace(',', '.')})" if comma else ""
            raise ValueError(f"{name} must be a number, got {value!r}{hint}")
        sign, whole, frac, exp = m.group(1), m.group(2) or "", m.group(3) or "", m.group(4)
        digits = (whole + frac).lstrip("0")
        if len(digits) > MAX_DIGITS:
            raise ValueError(f"{name} must be written with at most {MAX_DIGITS} digits, got {len(whole + frac)}")
        if exp is not None and len(exp.lstrip("+-").lstrip("0")) > 6:
            raise ValueError(
                f"{name} must be between 1e-{MAX_EXPONENT} and 1e{MAX_EXPONENT} in magnitude, got {_show(text)}"
            )
        e = int(exp) if exp is not None else 0
        if digits:
            magnitude = e + len(whole.lstrip("0")) if whole.lstrip("0") else e - (len(frac) - len(frac.lstrip("0")))
            if not -MAX_EXPONENT <= magnitude <= MAX_EXPONENT:
                raise ValueError(
                    f"{name} must be between 1e-{MAX_EXPONENT} and 1e{MAX_EXPONENT} in magnitude (or 0), got {_show(text)}"
                )
        q = Fraction(int(whole + frac or "0"), 10 ** len(frac))
        if e:
            q = q * 10**e if e > 0 else q / 10**-e
        return -q if sign == "-" else q
    v = check_real(name, value)
    if v != 0 and not 10.0**-MAX_EXPONENT <= abs(v) <= 10.0**MAX_EXPONENT:
        raise ValueError(
            f"{name} must be between 1e-{MAX_EXPONENT} and 1e{MAX_EXPONENT} in magnitude (or 0), got {v!r}"
        )
    return Fraction(repr(float(v)))


@dataclass(frozen=True)
class ScoreInterval:
    """A reported score and the closed interval [lo, hi] its base score must fall in.

    Attributes
    ----------
    spec : ScoreSpec
        The score (its base score of Table 2, whether it is a complement, its beta).
    reported : Fraction
        The reported value, as the exact decimal written.
    lo, hi : Fraction
        The interval of the base score's true value.
    """

    spec: ScoreSpec
    reported: Fraction
    lo: Fraction
    hi: Fraction

    @property
    def base(self) -> str:
        return self.spec.base

    def contains_exact(self, tp: int, tn: int, p: int, n: int) -> bool:
        """Exact membership test of f(tp, tn, p, n) in [lo, hi] (undefined -> False)."""
        s = exact_sign(self.spec.base, tp, tn, p, n, self.lo, self.spec.beta)
        if s is None or s < 0:
            return False
        s = exact_sign(self.spec.base, tp, tn, p, n, self.hi, self.spec.beta)
        return s is not None and s <= 0


class ToleranceOptions(TypedDict):
    """The keywords of :func:`read_report` saying how the scores were rounded (for ``**`` passing)."""

    eps: float | str | None
    decimals: int | None
    rounding: str | None


def tolerance(eps, decimals, rounding) -> tuple[Fraction, Fraction]:
    """(below, above): the interval of a value v is [v - below, v + above]; validates the three."""
    if (eps is None) == (decimals is None):
        raise ParameterError(
            "give exactly one of eps and decimals (the numerical uncertainty, or the decimals reported)",
            "eps",
            "decimals",
        )
    if eps is not None and rounding is not None:
        raise ParameterError(
            f"rounding needs decimals (with eps the interval is [v - eps, v + eps]), got rounding={rounding!r}",
            "rounding",
            "decimals",
        )
    if eps is not None:
        e = as_decimal(eps, "eps")
        if e < 0:
            raise ValueError(f"eps must be >= 0, got {float(e):g}")
        return e, e
    d = check_int("decimals", decimals, low=0, high=15)
    rounding = check_choice("rounding", "round" if rounding is None else rounding, ROUNDINGS)
    u = Fraction(1, 10**d)
    return {"round": (u / 2, u / 2), "floor": (Fraction(0), u), "ceil": (u, Fraction(0)), "any": (u, u)}[rounding]


def interval(spec: ScoreSpec, v: Fraction, below: Fraction, above: Fraction) -> ScoreInterval:
    """The interval of a reported value ``v`` of ``spec`` (trusted: already read and checked)."""
    # the author's value was itself computed in floating point: allow it to be
    # off by far more than any float64 evaluation error (a relative 1e-12)
    slack = FLOAT_SLACK * max(Fraction(1), abs(v))
    lo, hi = v - below - slack, v + above + slack
    if spec.complement:
        lo, hi = 1 - hi, 1 - lo
    return ScoreInterval(spec, v, lo, hi)


def read_report(
    scores: Mapping[str, object],
    *,
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    beta: float | None = None,
    what: str = "score",
) -> tuple[tuple[ScoreInterval, ...], tuple[Fraction, Fraction]]:
    """Resolve names and turn reported values into exact intervals of the base scores.

    This is where reported scores are read and checked: every public checker
    calls it (or :func:`score_intervals`) once and passes the intervals to its
    private workers.  Also returns the report's (below, above) half widths, with
    which the typo finder builds the interval of a candidate value.

    Parameters
    ----------
    scores : mapping
        Score name (Table 2 abbreviation, synonym or complement) -> reported value.
    eps : float or str, optional
        Numerical uncertainty: the true value lies in [v - eps, v + eps].
    decimals : int, optional
        Number of decimals reported (0-15); with ``rounding`` it gives the interval.
    rounding : {'round', 'floor', 'ceil', 'any'}
        How the values were shortened ('any': rounding, flooring or ceiling).
    beta : float, optional
        Weight of the F-scores (default 1).
    what : str
        What the values are, as messages name them: ``"score"`` (a reported score), or the
        parameter that gave them (``"fold_min"``, ``"fold_max"``).

    Returns
    -------
    intervals : tuple of ScoreInterval
        One interval per reported score, in the order given.
    tolerance : (Fraction, Fraction)
        (below, above): a value v allows [v - below, v + above] (before the float slack).

    Raises
    ------
    ValueError
        No score, an unknown score name, a score named twice (also by a synonym), a value that is
        not a number or out of the score's range, more decimals than ``decimals``, or not exactly
        one of ``eps`` and ``decimals``.
    """
    if not scores:
        raise ValueError("scores must name at least one reported score")
    below, above = tolerance(eps, decimals, rounding)
    out: list[ScoreInterval] = []
    seen: dict[tuple[str, bool, Fraction], str] = {}
    for name, value in scores.items():
        spec = resolve_score(name, beta if (beta is not None and resolve_score(name).base in ("fbp", "fbn")) else None)
        key = (spec.base, spec.complement, spec.beta)
        if key in seen:
            raise ValueError(f"score {name} names the same score as {seen[key]}: give each score once")
        seen[key] = name
        v = as_decimal(value, f"{what} {name}")
        if decimals is not None and n_decimals(v) > int(decimals):
            raise ValueError(
                f"{what} {name}={_show(value)} has more decimals than the {int(decimals)} given by decimals: "
                "give the value as reported, or the number of decimals it was reported with"
            )
        lo_r, hi_r = score_range(spec.base)
        if spec.complement:
            lo_r, hi_r = 0.0, 1.0
        if not (lo_r <= v <= hi_r):
            raise ValueError(f"{what} {name} must be in [{lo_r:g}, {hi_r:g}], got {float(v):g}")
        out.append(interval(spec, v, below, above))
    return tuple(out), (below, above)


def score_intervals(
    scores: Mapping[str, object],
    *,
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    beta: float | None = None,
    what: str = "score",
) -> tuple[ScoreInterval, ...]:
    """The intervals of :func:`read_report` alone (same arguments, same errors)."""
    return read_report(scores, eps=eps, decimals=decimals, rounding=rounding, beta=beta, what=what)[0]


def n_decimals(v: Fraction) -> int:
    """Number of decimals of an exact decimal (at most :data:`MAX_DIGITS` + :data:`MAX_EXPONENT`)."""
    den = v.denominator
    d = 0
    while den % 10 == 0:
        den //= 10
        d += 1
    while den % 2 == 0 or den % 5 == 0:  # 1/2, 1/25, ...: still a finite decimal
        den //= 2 if den % 2 == 0 else 5
        d += 1
    return d if den == 1 else MAX_DIGITS + MAX_EXPONENT


def report_decimals(value: Fraction, decimals: int | None, written: object = None) -> int:
    """Decimals of a reported value: ``decimals`` if given, else as written ("0.8280": 4)."""
    if decimals is not None:
        return int(decimals)
    if isinstance(written, str):
        m = _NUMBER.fullmatch(written.strip())
        if m:
            return min(max(len(m.group(3) or "") - int(m.group(4) or 0), n_decimals(value), 0), 15)
    return min(n_decimals(value), 15)
