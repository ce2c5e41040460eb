"""Consistency of reported scores with one test set, and with aggregated folds by Score of Means.

Fazekas & Kovacs, Sections 3 and 4.2.  A report is *consistent* with a test
set of ``p`` positives and ``n`` negatives when some integer pair (tp, tn)
reproduces every reported score within its numerical uncertainty (Eq. 1).
:func:`check_single` answers that question with certainty:

* candidate pairs are found in O(min(p, n) |S|) time in the spirit of
  Algorithm 1 (for each value of the smaller count, the window of the other
  count that each score allows; see :mod:`sotalib._interval_kernel`), with
  windows that are widened and then certified, so that no compatible pair is
  ever missed;
* every candidate is then decided: in float64 when it is farther than a safe
  margin (1e-9 relative) from the ends of the intervals, otherwise exactly, in
  rational arithmetic (:func:`sotalib.consistency.exact_sign`).

The verdict and the solution set therefore equal those of the brute-force
search over all (p + 1)(n + 1) pairs (:func:`brute_force`), which the tests
check.  Reported values are read as exact decimals (``0.6801`` means
6801/10000), and the intervals are closed:

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
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .._json import json_safe
from .._validate import check_choice, check_int, check_real
from ._scores import SCORES, ScoreSpec, exact_sign, resolve_score, score_float, score_range

__all__ = [
    "ROUNDINGS",
    "ScoreInterval",
    "SingleResult",
    "Suggestion",
    "score_intervals",
    "check_single",
    "check_som",
    "check_intervals",
    "brute_force",
    "diagnose",
    "MAX_COUNT",
    "MAX_DIGITS",
    "MAX_EXPONENT",
    "TYPO_DIGITS",
    "TYPO_UNITS",
    "typo_candidates",
]

ROUNDINGS = ("round", "floor", "ceil", "any")

#: Relative widening of every interval: the reported value was computed in floating point
#: by its authors before they rounded it, so it may sit an ulp on the wrong side of a
#: rounding boundary.
FLOAT_SLACK = Fraction(1, 10**12)

#: p + n must not exceed this (products of two counts stay exact in float64).
MAX_COUNT = 2**26


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
            raise ValueError(f"{name} must be a number, got {value!r}")
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
    """A reported score and the closed interval [lo, hi] its base score must fall in."""

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


def _half_widths(eps, decimals, rounding) -> tuple[Fraction, Fraction]:
    """(below, above): the interval is [v - below, v + above]."""
    if (eps is None) == (decimals is None):
        raise ValueError("give exactly one of eps (numerical uncertainty) and decimals")
    if eps is not None:
        e = as_decimal(eps, "eps")
        if e < 0:
            raise ValueError(f"eps must be >= 0, got {float(e):g}")
        return e, e
    d = check_int("decimals", decimals, low=0, high=15)
    rounding = check_choice("rounding", rounding, ROUNDINGS)
    u = Fraction(1, 10**d)
    return {"round": (u / 2, u / 2), "floor": (Fraction(0), u), "ceil": (u, Fraction(0)), "any": (u, u)}[rounding]


def score_intervals(
    scores: Mapping[str, object], *, eps=None, decimals=None, rounding: str = "round", beta: float | None = None
) -> tuple[ScoreInterval, ...]:
    """Resolve names and turn reported values into exact intervals of the base scores.

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
    """
    if not scores:
        raise ValueError("scores must name at least one reported score")
    below, above = _half_widths(eps, decimals, rounding)
    out, seen = [], {}
    for name, value in scores.items():
        spec = resolve_score(name, beta if (beta is not None and resolve_score(name).base in ("fbp", "fbn")) else None)
        key = (spec.base, spec.complement, spec.beta)
        if key in seen:
            raise ValueError(f"score {name} names the same score as {seen[key]}: give each score once")
        seen[key] = name
        v = as_decimal(value, f"score {name}")
        if decimals is not None and _n_decimals(v) > int(decimals):
            raise ValueError(
                f"score {name}={_show(value)} has more decimals than the {int(decimals)} given by decimals: "
                "give the value as reported, or the number of decimals it was reported with"
            )
        lo_r, hi_r = score_range(spec.base)
        if spec.complement:
            lo_r, hi_r = 0.0, 1.0
        if not (lo_r <= v <= hi_r):
            raise ValueError(f"score {name} must be in [{lo_r:g}, {hi_r:g}], got {float(v):g}")
        # the author's value was itself computed in floating point: allow it to be
        # off by far more than any float64 evaluation error (a relative 1e-12)
        slack = FLOAT_SLACK * max(1, abs(v))
        lo, hi = v - below - slack, v + above + slack
        if spec.complement:
            lo, hi = 1 - hi, 1 - lo
        out.append(ScoreInterval(spec, v, lo, hi))
    return tuple(out)


@dataclass(frozen=True)
class SingleResult:
    """Verdict of the single-test-set (or Score-of-Means) test.

    Attributes
    ----------
    consistent : bool
        Some integer (tp, tn) reproduces every reported score (False is a proof of the contrary).
    evidence : list of (tp, tn)
        The compatible pairs found (``solutions`` as tuples; empty when inconsistent).
    configurations_tested : int
        Always 1: one test set (for Score of Means, the totals over the folds).
    details : dict
        ``p``, ``n``, ``n_solutions`` (exact count), ``fallbacks``.
    n_solutions : int
        Number of compatible (tp, tn) pairs (exact count).
    solutions : ndarray of shape (k, 2)
        Compatible (tp, tn) pairs in lexicographic order (at most ``max_solutions``).
    p, n : int
        The test set (for Score of Means: the totals over the folds, Eq. 7).
    fallbacks : int
        Windows that could not be certified and were widened to a whole column
        (affects speed only, never the verdict).
    """

    consistent: bool
    n_solutions: int
    solutions: np.ndarray
    p: int
    n: int
    intervals: tuple[ScoreInterval, ...] = field(repr=False, default=())
    fallbacks: int = 0

    @property
    def evidence(self) -> list:
        """The compatible (tp, tn) pairs found, as tuples of ints."""
        return [(int(a), int(b)) for a, b in np.asarray(self.solutions).reshape(-1, 2)]

    @property
    def configurations_tested(self) -> int:
        """One test set."""
        return 1

    @property
    def details(self) -> dict:
        """``p``, ``n``, the exact number of solutions and the kernel's fallbacks."""
        return {
            "p": int(self.p),
            "n": int(self.n),
            "n_solutions": int(self.n_solutions),
            "fallbacks": int(self.fallbacks),
        }

    def to_dict(self) -> dict:
        """JSON-safe form: the four common keys, then ``n_solutions``, ``solutions``, ``p``, ``n``, ``fallbacks``."""
        ev = [list(e) for e in self.evidence]
        return json_safe(
            {
                "consistent": bool(self.consistent),
                "evidence": ev,
                "configurations_tested": 1,
                "details": self.details,
                "n_solutions": int(self.n_solutions),
                "solutions": ev,
                "p": int(self.p),
                "n": int(self.n),
                "fallbacks": int(self.fallbacks),
            }
        )


#: relative cost of a score in the kernel: constant-in-a-count scores decide whole columns;
#: quadratic level sets (upm, mk, mcc, fm) and square roots cost most
_COST = {
    "sens": 0,
    "spec": 0,
    "acc": 1,
    "bacc": 1,
    "ppv": 1,
    "npv": 1,
    "fbp": 1,
    "fbn": 1,
    "ji": 1,
    "bm": 1,
    "lrp": 2,
    "lrn": 2,
    "dor": 2,
    "kappa": 2,
    "gm": 3,
    "pt": 3,
    "fm": 4,
    "upm": 4,
    "mk": 4,
    "mcc": 4,
}


def _order_key(iv, axis, p, n, T, X):
    """Kernel order of a score (never changes the result, only the speed): scores constant in
    the free count first (they decide whole columns), then the narrowest windows -- estimated
    from the roots on three sample columns -- so that later scores mostly need only the cheap
    endpoint test.  Widths within a factor of about ten count as equal and the cost of the
    formula decides: the first score computes its roots on every column, the later ones mostly
    only the endpoint test."""
    from ._interval_kernel import _root

    base = iv.base
    d = _dirs([base], axis)[0]
    if d == 0:
        return (0, 0, _COST.get(base, 1), 0.0)
    b2 = float(iv.spec.beta) ** 2
    widths = []
    for t in (T // 4, T // 2, (3 * T) // 4):
        r1 = _root(SCORES.index(base), axis, float(t), float(X), float(p), float(n), b2, float(iv.lo), d)
        r2 = _root(SCORES.index(base), axis, float(t), float(X), float(p), float(n), b2, float(iv.hi), d)
        w = abs(r2 - r1) if np.isfinite(r1) and np.isfinite(r2) else float(X)
        widths.append(min(w, float(X)))
    w = float(np.median(widths))
    return (1, round(math.log10(w + 1.0)), _COST.get(base, 1), w)


def _dirs(bases, axis):
    const = "sens" if axis == 0 else "spec"
    return np.array([0 if b == const else (-1 if b in ("lrn", "pt") else 1) for b in bases], dtype=np.int64)


def _check_pn(p, n):
    p = check_int("p", p, low=1)
    n = check_int("n", n, low=1)
    if p + n > MAX_COUNT:
        raise ValueError(_too_many(p, n))
    return p, n


def _too_many(p: int, n: int, repeats: int = 1) -> str:
    """The message for ``repeats * (p + n) > MAX_COUNT``, naming the larger count (the one to change)."""
    big, other = ("n", "p") if n >= p else ("p", "n")
    value, rest = max(p, n), min(p, n)
    times = f" (times repeats={repeats})" if repeats != 1 else ""
    return (
        f"{big} must be <= {MAX_COUNT // repeats - rest} so that p + n{times} stays <= {MAX_COUNT}, "
        f"got {big}={value} with {other}={rest}"
    )


def check_intervals(
    p: int, n: int, intervals: tuple[ScoreInterval, ...], *, max_solutions: int = 1_000_000
) -> SingleResult:
    """:func:`check_single` for already resolved intervals."""
    from ._interval_kernel import _scan, _windows

    p, n = _check_pn(p, n)
    # cheapest first (the order never changes the result): scores whose level sets are
    # linear in the free count narrow the windows, the costlier ones then mostly only
    # need the two-point endpoint test
    axis = 0 if p <= n else 1
    T, X = (p, n) if axis == 0 else (n, p)
    kernel_ivs = sorted(intervals, key=lambda iv: _order_key(iv, axis, p, n, T, X))
    bases = [iv.base for iv in kernel_ivs]
    sids = np.array([SCORES.index(b) for b in bases], dtype=np.int64)
    lo = np.array([float(iv.lo) for iv in kernel_ivs])
    hi = np.array([float(iv.hi) for iv in kernel_ivs])
    b2s = np.array([float(iv.spec.beta) ** 2 for iv in kernel_ivs])
    A, B, M, nfall, t0 = _windows(
        sids, lo, hi, b2s, _dirs(bases, axis), _dirs(bases, 1 - axis), axis, float(p), float(n), T, X
    )
    max_amb = 100_000
    while True:
        nsol, sol, namb, amb = _scan(sids, lo, hi, b2s, axis, float(p), float(n), A, B, M, t0, max_solutions, max_amb)
        if namb <= max_amb:
            break
        max_amb = namb
    extra = [(int(a), int(b)) for a, b in amb if all(iv.contains_exact(int(a), int(b), p, n) for iv in intervals)]
    total = int(nsol) + len(extra)
    pairs = np.asarray(sol, dtype=np.int64).reshape(-1, 2)
    if extra:
        pairs = np.vstack([pairs, np.array(extra, dtype=np.int64)])
    if len(pairs):
        pairs = pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))][:max_solutions]
    return SingleResult(total > 0, total, pairs, p, n, intervals, int(nfall))


def check_single(
    p: int,
    n: int,
    scores: Mapping[str, object],
    *,
    eps=None,
    decimals=None,
    rounding: str = "round",
    beta: float | None = None,
    max_solutions: int = 1_000_000,
) -> SingleResult:
    """Are the reported scores consistent with a test set of p positives and n negatives?

    Section 3 of Fazekas & Kovacs: the report is consistent when some integer
    ``0 <= tp <= p``, ``0 <= tn <= n`` gives every score inside its interval
    (Eq. 1).  Undefined scores (zero denominators) never match a reported value.

    Parameters
    ----------
    p, n : int
        Numbers of positives and negatives (>= 1, p + n <= 2**26).
    scores : mapping
        Score name -> reported value (see :func:`score_intervals`).
    eps, decimals, rounding, beta
        The numerical uncertainty, see :func:`score_intervals`.
    max_solutions : int
        At most this many solution pairs are returned (the count is always exact).

    Returns
    -------
    SingleResult
    """
    return check_intervals(
        p,
        n,
        score_intervals(scores, eps=eps, decimals=decimals, rounding=rounding, beta=beta),
        max_solutions=max_solutions,
    )


def check_som(folds, scores: Mapping[str, object], **kwargs) -> SingleResult:
    """Score of Means over folds or datasets (Section 4.2, Eq. 7): the test on the totals.

    ``folds`` is a sequence of (p_i, n_i); every score is scale invariant, so
    the scores of the mean confusion matrix are those of the summed one.
    """
    folds = _check_folds(folds)
    return check_single(sum(f[0] for f in folds), sum(f[1] for f in folds), scores, **kwargs)


def _check_folds(folds) -> list[tuple[int, int]]:
    out = []
    for i, f in enumerate(folds):
        try:
            a, b = f
        except (TypeError, ValueError):
            raise ValueError(f"folds[{i}] must be a pair (p_i, n_i), got {f!r}") from None
        a = check_int(f"p of fold {i}", a, low=0)
        b = check_int(f"n of fold {i}", b, low=0)
        if a + b == 0:
            raise ValueError(f"fold {i} must hold at least one item")
        out.append((a, b))
    if not out:
        raise ValueError("folds must contain at least one fold")
    return out


def brute_force(p: int, n: int, intervals: tuple[ScoreInterval, ...]) -> np.ndarray:
    """Every compatible (tp, tn), by exact rational evaluation of all (p+1)(n+1) pairs (Section 3.1).

    The reference for the tests; O(p n |S|) exact operations, for small p, n only.
    """
    sols = [
        (tp, tn)
        for tp in range(p + 1)
        for tn in range(n + 1)
        if all(iv.contains_exact(tp, tn, p, n) for iv in intervals)
    ]
    return np.array(sols, dtype=np.int64).reshape(-1, 2)


# --------------------------------------------------------------------------- diagnosis
#: A typo is plausible when one score moved by at most this many units of its last reported
#: decimal, or one of its last :data:`TYPO_DIGITS` digits was mistyped, or two adjacent digits
#: among them (or the one before) were swapped.  The paper's own example, 0.6801 printed for
#: 0.6821, is a mistyped second-to-last digit.
TYPO_UNITS = 3
TYPO_DIGITS = 2


@dataclass(frozen=True)
class Suggestion:
    """One plausible typo: changing one reported score makes the report consistent.

    Attributes
    ----------
    score : str
        The score to change (as reported).
    reported, suggested : float
        Its reported value and the corrected value, both at the report's decimals.
    change : float
        ``suggested - reported``, at the report's decimals.
    n_solutions : int
        Number of (tp, tn) pairs compatible with the corrected report (1 for Mean of Scores).
    example : tuple
        One compatible (tp, tn); for Mean of Scores the per-fold (tp_i, tn_i).
    aggregation : str
        The test the corrected report passes: 'single' (test set or Score of Means) or 'mos'.
    decimals : int
        Decimals of the reported value (the suggestion is written with as many).
    typo : str
        The kind of typo: 'last decimal' (a few units of the last decimal), 'one digit'
        (one mistyped digit) or 'swapped digits' (two adjacent digits exchanged).
    """

    score: str
    reported: float
    suggested: float
    change: float
    n_solutions: int
    example: tuple
    aggregation: str = "single"
    decimals: int = 4
    typo: str = "last decimal"


def _n_decimals(v: Fraction) -> int:
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


def _quantize(x: float, decimals: int, rounding: str) -> Fraction:
    q = Fraction(x).limit_denominator(10**15)
    scale = 10**decimals
    if rounding == "floor":
        return Fraction(math.floor(q * scale), scale)
    if rounding == "ceil":
        return Fraction(math.ceil(q * scale), scale)
    return Fraction(round(q * scale), scale)


def typo_candidates(value: Fraction, decimals: int, low: float = -math.inf, high: float = math.inf) -> list:
    """Values a mistyped report ``value`` (written with ``decimals`` decimals) may have meant.

    ``(candidate, kind)`` pairs, nearest first: ``value`` moved by 1 to :data:`TYPO_UNITS` units
    of its last decimal ('last decimal'), one of its last :data:`TYPO_DIGITS` digits replaced by
    another ('one digit'), two adjacent digits among the last ``TYPO_DIGITS + 1`` swapped
    ('swapped digits'); only candidates in ``[low, high]``.
    """
    d = min(int(decimals), 15)
    u = Fraction(1, 10**d)
    scaled = value / u
    if scaled.denominator != 1 or abs(scaled) >= 10**18:
        return []
    sign = -1 if scaled < 0 else 1
    digits = str(abs(int(scaled))).rjust(d + 1, "0")
    found: dict[Fraction, str] = {}

    def add(c: Fraction, kind: str) -> None:
        if c != value and low <= c <= high and c not in found:
            found[c] = kind

    for j in range(1, TYPO_UNITS + 1):
        add(value + j * u, "last decimal")
        add(value - j * u, "last decimal")
    for i in range(max(0, len(digits) - TYPO_DIGITS), len(digits)):
        for new in "0123456789":
            if new != digits[i]:
                add(sign * int(digits[:i] + new + digits[i + 1 :]) * u, "one digit")
    for i in range(max(0, len(digits) - TYPO_DIGITS - 1), len(digits) - 1):
        if digits[i] != digits[i + 1]:
            add(sign * int(digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :]) * u, "swapped digits")
    return sorted(found.items(), key=lambda kv: (abs(kv[0] - value), kv[0]))


def _report_decimals(value: Fraction, decimals, written: object = None) -> int:
    """Decimals of a reported value: ``decimals`` if given, else as written ("0.8280": 4)."""
    if decimals is not None:
        return int(decimals)
    if isinstance(written, str):
        m = _NUMBER.fullmatch(written.strip())
        if m:
            return min(max(len(m.group(3) or "") - int(m.group(4) or 0), _n_decimals(value), 0), 15)
    return min(_n_decimals(value), 15)


def _finder(p, n, scores, kw, screen: int = 200_000) -> tuple[list, bool]:
    """(plausible typos, whether any change of one score at all could restore consistency)."""
    out, changeable = [], False
    names = list(scores)
    for name in names:
        others = {k: v for k, v in scores.items() if k != name}
        if not others:
            continue
        res = check_single(p, n, others, max_solutions=screen, **kw)
        if not res.consistent:
            continue
        (iv,) = score_intervals({name: scores[name]}, **kw)
        spec = iv.spec
        vals, ok = score_float(spec.base, res.solutions[:, 0], res.solutions[:, 1], p, n, float(spec.beta))
        if spec.complement:
            vals = 1 - vals
        vals = np.sort(vals[ok])
        complete = res.n_solutions <= screen
        if complete and not len(vals):
            continue  # the score is undefined wherever the others hold
        changeable = True
        rep = iv.reported
        d = _report_decimals(rep, kw.get("decimals"), scores[name])
        lo_r, hi_r = (0.0, 1.0) if spec.complement else score_range(spec.base)
        width_lo = float(rep - (1 - iv.hi if spec.complement else iv.lo))
        width_hi = float((1 - iv.lo if spec.complement else iv.hi) - rep)
        for c, kind in typo_candidates(rep, d, lo_r, hi_r):
            if complete:  # screen in float64 with a wide margin; the exact check below decides
                a = float(c) - width_lo - 1e-9 * max(1.0, abs(float(c)))
                b = float(c) + width_hi + 1e-9 * max(1.0, abs(float(c)))
                i = np.searchsorted(vals, a)
                if i >= len(vals) or vals[i] > b:
                    continue
            fixed = dict(scores)
            fixed[name] = f"{float(c):.{d}f}" if d <= 15 else c
            chk = check_single(p, n, fixed, max_solutions=1, **kw)
            if chk.consistent:
                out.append(
                    Suggestion(
                        name,
                        round(float(rep), d),
                        round(float(c), d),
                        round(float(c - rep), d),
                        chk.n_solutions,
                        tuple(int(x) for x in chk.solutions[0]),
                        "single",
                        d,
                        kind,
                    )
                )
                break
    return sorted(out, key=lambda s: (abs(s.change), s.score)), changeable


def diagnose(
    p: int,
    n: int,
    scores: Mapping[str, object],
    *,
    eps=None,
    decimals=None,
    rounding: str = "round",
    beta: float | None = None,
) -> list[Suggestion]:
    """A typo finder: which single reported score, mistyped, explains the inconsistency?

    A typo is *plausible* when one score differs from a value that makes the
    report consistent by a few units (at most :data:`TYPO_UNITS`) of its last
    reported decimal, by one mistyped digit among the last two, or by two swapped
    adjacent digits (:func:`typo_candidates`).  For each reported score, the candidates are
    screened against every (tp, tn) the other scores admit and the nearest one
    that passes is verified by re-running :func:`check_single` on the corrected
    report, so every suggestion is certain to be consistent.  Values are
    written with the report's decimals.  Sorted by the size of the change.

    Returns an empty list if the report is consistent or no plausible typo
    explains it (then the scores may well come from another test set, for
    example another pixel mask: see :func:`sotalib.consistency.check_report`'s
    ``diagnosis``).
    """
    kw = dict(eps=eps, decimals=decimals, rounding=rounding, beta=beta)
    if check_single(p, n, scores, **kw).consistent:
        return []
    return _finder(p, n, scores, kw)[0]
