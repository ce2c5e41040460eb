"""Consistency of reported scores with one test set, and with aggregated folds by Score of Means.

Fazekas & Kovacs, Sections 3 and 4.2.  A report is *consistent* with a test
set of ``p`` positives and ``n`` negatives when some integer pair (tp, tn)
reproduces every reported score within its numerical uncertainty (Eq. 1).
:func:`check_single` answers that question with certainty:

* candidate pairs are found in O(min(p, n) |S|) time in the spirit of
  Algorithm 1 (for each value of the smaller count, the window of the other
  count that each score allows; see :mod:`sotalib.consistency._single_kernel`),
  with windows that are widened and then certified, so that no compatible pair
  is ever missed;
* every candidate is then decided: in float64 when it is farther than a safe
  margin (1e-11 of max(1, |value|)) from the ends of the intervals, otherwise
  exactly, in rational arithmetic (:func:`sotalib.consistency._scores.exact_sign`).

Test sets of up to 2**31 items are taken (``MAX_COUNT``): up to 2**26 the
float products of counts are exact; above, the kernel's wide path computes the
differences of products that could cancel or tie in int64 (``WIDE`` in the
kernel).  The columns run in blocks of 2**22, and a block whose screen leaves
more than ``MAX_UNDECIDED`` points undecided is halved down to a few columns,
decided exactly (:func:`_exact_column`): memory stays bounded at any size.

The verdict and the solution set therefore equal those of the brute-force
search over all (p + 1)(n + 1) pairs (:func:`brute_force`), which the tests
check.  The reported values become intervals in
:mod:`sotalib.consistency._intervals`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .._json import json_safe
from .._result import Result
from .._validate import check_int
from ._folds import check_folds as _check_folds
from ._intervals import ScoreInterval, score_intervals
from ._scores import SCORES, exact_sign

__all__ = ["SingleResult", "check_single", "check_som"]

#: p + n must not exceed this: every product of two counts stays below 2**62 (exact in int64).
#: Up to 2**26 the kernel's float64 arithmetic is exact on products; above, it takes the wide
#: path of :mod:`sotalib.consistency._single_kernel` (see ``WIDE`` there).  Either way every
#: verdict is exact.
MAX_COUNT = 2**31


@dataclass(frozen=True, repr=False)
class SingleResult(Result):
    """Verdict of the single-test-set (or Score-of-Means) test.

    Attributes
    ----------
    consistent : bool
        Some integer (tp, tn) reproduces every reported score (False is a proof of the contrary).
    evidence : ndarray of shape (k, 2)
        The compatible (tp, tn) pairs found, in lexicographic order (at most ``max_solutions``;
        empty when inconsistent).
    configurations_tested : int
        Always 1: one test set (for Score of Means, the totals over the folds).
    details : dict
        ``p``, ``n``, ``n_solutions`` (exact count), ``fallbacks``.
    n_solutions : int
        Number of compatible (tp, tn) pairs (exact count; ``evidence`` holds at most ``max_solutions``).
    p, n : int
        The test set (for Score of Means: the totals over the folds, Eq. 7).
    fallbacks : int
        Windows that could not be certified and were widened to a whole column
        (affects speed only, never the verdict).
    """

    consistent: bool
    n_solutions: int
    evidence: np.ndarray
    p: int
    n: int
    intervals: tuple[ScoreInterval, ...] = field(repr=False, default=())
    fallbacks: int = 0

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
        """JSON-safe form: the four common keys, then ``n_solutions``, ``solutions``, ``p``, ``n``, ``fallbacks``.

        ``solutions`` is the evidence again, the key the command line has always printed.
        """
        ev = np.asarray(self.evidence).reshape(-1, 2).tolist()
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
    """Kernel order of a score (never changes the result, only the speed).

    Scores constant in the free count come first (they decide whole columns), then the narrowest
    windows -- estimated from the roots on three sample columns -- so that later scores mostly need
    only the cheap endpoint test.  Widths within a factor of about ten count as equal and the cost
    of the formula decides: the first score computes its roots on every column, the later ones
    mostly only the endpoint test.
    """
    from ._single_kernel import _root  # numba: loaded on the first check (see check_intervals)

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


#: A block of columns whose float screen leaves more points than this undecided is split in two
#: (down to a few columns, which are then decided exactly by :func:`_exact_column`): the
#: undecided points are decided one by one in rational arithmetic, so their number bounds both
#: the memory and the time of a check.  It takes reports with more decimals than the screen's
#: margin resolves (11 and more) or tiny scores (a precision of 1e-9 on a set of 2**31 items).
MAX_UNDECIDED = 100_000

#: A block of at most this many columns with too many undecided points is decided column by column
#: exactly (a few hundred exact evaluations per column) rather than halved again.
EXACT_COLUMNS = 16


def _constant_range(iv: ScoreInterval, axis: int, p: int, n: int) -> tuple[int, int]:
    """The columns whose (constant) value of sens (axis 0) or spec (axis 1) lies in the interval, exactly."""
    size = p if axis == 0 else n  # sens = tp / p, spec = tn / n
    return max(0, math.ceil(iv.lo * size)), min(size, math.floor(iv.hi * size))


def _first(pred, a: int, b: int) -> int:
    """The smallest x in [a, b] with ``pred(x)`` for a predicate False ... False True ... True; b + 1 if none."""
    lo, hi = a, b + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _exact_column(t: int, axis: int, p: int, n: int, intervals, room: int) -> tuple[int, list]:
    """The solutions of column ``t`` in exact arithmetic: (their number, the first ``room`` of them).

    The kernel's premise, every score monotone in the free count x on a column (proven in the
    chapter), makes the x that satisfy one score's bound a prefix or a suffix of the column's
    interior 1 <= x <= X - 1, where a score is either defined everywhere or nowhere (pt's one tie
    aside, where its continuous extension 1/2 keeps it monotone and which is never a solution):
    each end is found by bisection on exact signs; x = 0 and x = X are tested one by one.
    """
    X = n if axis == 0 else p

    def pair(x):
        return (t, x) if axis == 0 else (x, t)

    def sign(iv, x, c):
        tp, tn = pair(x)
        s = exact_sign(iv.base, tp, tn, p, n, c, iv.spec.beta)
        if s is None and iv.base == "pt" and tp * n == (n - tn) * p and tp > 0:
            half = Fraction(1, 2)
            return (half > c) - (half < c)
        return s

    a, b = 1, X - 1
    for iv, d in zip(intervals, _dirs([iv.base for iv in intervals], axis)):
        if a > b:
            break
        if sign(iv, a, iv.lo) is None or sign(iv, b, iv.lo) is None:  # undefined on the interior
            a, b = 1, 0
        elif d == 0:
            if not (sign(iv, a, iv.lo) >= 0 and sign(iv, a, iv.hi) <= 0):
                a, b = 1, 0
        elif d > 0:
            a, b = _first(lambda x: sign(iv, x, iv.lo) >= 0, a, b), _first(lambda x: sign(iv, x, iv.hi) > 0, a, b) - 1
        else:
            a, b = _first(lambda x: sign(iv, x, iv.hi) <= 0, a, b), _first(lambda x: sign(iv, x, iv.lo) < 0, a, b) - 1
    tie = -1  # pt's tie tp n == fp p in this column: never a solution
    if any(iv.base == "pt" for iv in intervals):
        if axis == 0 and (t * n) % p == 0:
            tie = n - t * n // p
        elif axis == 1 and ((n - t) * p) % n == 0:
            tie = (n - t) * p // n
    ends = [x for x in sorted({0, X}) if all(iv.contains_exact(*pair(x), p, n) for iv in intervals)]
    count = max(b - a + 1, 0) - (a <= tie <= b) + len(ends)
    xs = [x for x in ends if x == 0]
    x = a
    while x <= b and len(xs) < room:
        if x != tie:
            xs.append(x)
        x += 1
    xs += [x for x in ends if x == X and X > 0]
    return count, [pair(x) for x in xs[:room]]


def check_intervals(
    p: int, n: int, intervals: tuple[ScoreInterval, ...], max_solutions: int = 1_000_000
) -> SingleResult:
    """The test of :func:`check_single` on intervals already read (the private worker).

    ``p`` and ``n`` are checked here because Score of Means reaches it with totals over folds.
    """
    # numba loads on the first check, not when the package is imported (deliberately lazy: it takes a second)
    from ._single_kernel import BLOCK_COLUMNS, _columns, _scan, _windows

    p, n = _check_pn(p, n)
    axis = 0 if p <= n else 1
    T, X = (p, n) if axis == 0 else (n, p)
    # sens (spec) is constant on each column tp (tn): the columns it allows are found exactly here,
    # and the kernel needs it no more (in float its whole column could be too close to call)
    const = "sens" if axis == 0 else "spec"
    t_lo, t_hi = 0, T
    for iv in intervals:
        if iv.base == const:
            a, b = _constant_range(iv, axis, p, n)
            t_lo, t_hi = max(t_lo, a), min(t_hi, b)
    # cheapest first (the order never changes the result): scores whose level sets are
    # linear in the free count narrow the windows, the costlier ones then mostly only
    # need the two-point endpoint test
    kernel_ivs = sorted((iv for iv in intervals if iv.base != const), key=lambda iv: _order_key(iv, axis, p, n, T, X))
    bases = [iv.base for iv in kernel_ivs]
    sids = np.array([SCORES.index(b) for b in bases], dtype=np.int64)
    lo = np.array([float(iv.lo) for iv in kernel_ivs], dtype=np.float64)
    hi = np.array([float(iv.hi) for iv in kernel_ivs], dtype=np.float64)
    b2s = np.array([float(iv.spec.beta) ** 2 for iv in kernel_ivs], dtype=np.float64)
    dirs = _dirs(bases, axis)
    fp, fn = float(p), float(n)
    t0, t1 = _columns(sids, lo, hi, b2s, dirs, _dirs(bases, 1 - axis), axis, fp, fn, T, X)
    t0, t1 = max(t0, t_lo), min(t1, t_hi)
    # the columns in blocks (memory bounded at any size), in order, so the stored pairs stay sorted
    nsol, nfall = 0, 0
    stored: list[np.ndarray] = []  # the sure solutions kept, block by block
    extra: list[tuple[int, int]] = []  # the undecided points that are solutions, decided exactly

    def run(start: int, size: int) -> None:
        nonlocal nsol, nfall
        room = max(max_solutions - nsol, 0)
        A, B, M, fell = _windows(sids, lo, hi, b2s, dirs, axis, fp, fn, X, start, size)
        ns, sol, namb, amb = _scan(sids, lo, hi, b2s, axis, fp, fn, A, B, M, start, room, max(MAX_UNDECIDED, 0))
        if namb > MAX_UNDECIDED:  # too many to decide one by one: halve the block, decide a column exactly
            if size > EXACT_COLUMNS:
                run(start, size // 2)
                run(start + size // 2, size - size // 2)
                return
            nfall += int(fell)
            for t in range(start, start + size):
                count, pairs = _exact_column(t, axis, p, n, intervals, max(max_solutions - nsol, 0))
                nsol += count
                stored.append(np.array(pairs, dtype=np.int64).reshape(-1, 2))
            return
        nfall += int(fell)
        nsol += int(ns)
        stored.append(sol)
        extra.extend(
            (int(a), int(b)) for a, b in amb if all(iv.contains_exact(int(a), int(b), p, n) for iv in intervals)
        )

    for start in range(t0, t1 + 1, BLOCK_COLUMNS):
        run(start, min(BLOCK_COLUMNS, t1 + 1 - start))
    sol = np.concatenate(stored) if stored else np.empty((0, 2), dtype=np.int64)
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
    scores: Mapping[str, float | str],
    *,
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    beta: float | None = None,
    max_solutions: int = 1_000_000,
) -> SingleResult:
    """Test whether the reported scores are consistent with a test set of p positives and n negatives.

    The report is consistent when some integer ``0 <= tp <= p``,
    ``0 <= tn <= n`` gives every score inside its interval.  Undefined scores
    (zero denominators) never match a reported value.  The answer is exact: a
    witness is verified in rational arithmetic, and "inconsistent" is a proof.

    Parameters
    ----------
    p, n : int
        Numbers of positives and negatives (>= 1, p + n <= 2**31).
    scores : mapping
        Score name (Table 2 abbreviation, synonym or complement) -> reported value; give
        values as strings ("0.9447") to have them read as the decimals written.
    eps : float or str, optional
        Numerical uncertainty: the true value lies in [v - eps, v + eps].
    decimals : int, optional
        Number of decimals reported (0-15), instead of ``eps``.
    rounding : {'round', 'floor', 'ceil', 'any'}, optional
        How the values were shortened to ``decimals`` (default 'round'); only with ``decimals``.
    beta : float, optional
        Weight of the F-scores (default 1).
    max_solutions : int
        At most this many solution pairs are returned (the count is always exact).

    Returns
    -------
    SingleResult
        ``consistent``, the (tp, tn) pairs that reproduce the report and their exact number.

    Raises
    ------
    ValueError
        ``p`` or ``n`` below 1 or too large, an unknown or repeated score name, a value out of
        its range, or not exactly one of ``eps`` and ``decimals``.

    References
    ----------
    Fazekas & Kovacs, Section 3 (Eq. 1 and Algorithm 1).

    Examples
    --------
    >>> from sotalib.consistency import check_single
    >>> r = check_single(100, 200, {"acc": "0.8533", "sens": "0.78"}, decimals=4)
    >>> r.consistent, r.n_solutions
    (True, 1)
    >>> check_single(100, 200, {"acc": "0.8534", "sens": "0.78"}, decimals=4).consistent
    False
    """
    intervals = score_intervals(scores, eps=eps, decimals=decimals, rounding=rounding, beta=beta)
    return check_intervals(p, n, intervals, max_solutions)


def check_som(
    folds: Sequence[tuple[int, int]],
    scores: Mapping[str, float | str],
    *,
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    beta: float | None = None,
    max_solutions: int = 1_000_000,
) -> SingleResult:
    """Score of Means over folds or datasets: the test of one test set on the totals.

    Every score is scale invariant, so the scores of the mean confusion
    matrix over the folds are those of the summed one: the report is
    consistent when some (tp, tn) of the totals reproduces it.

    Parameters
    ----------
    folds : sequence of (p_i, n_i)
        The evaluation sets (every fold of every repetition or dataset).
    scores : mapping
        Score name -> reported value (as in :func:`check_single`).
    eps, decimals, rounding, beta
        The numerical uncertainty and the F-score weight, as in :func:`check_single`.
    max_solutions : int
        At most this many solution pairs are returned (the count is always exact).

    Returns
    -------
    SingleResult
        The verdict on the totals (``p`` and ``n`` are the sums over the folds).

    Raises
    ------
    ValueError
        A fold that is not a pair of counts >= 0 holding at least one item, no fold, or bad
        scores (as in :func:`check_single`).

    References
    ----------
    Fazekas & Kovacs, Section 4.2, Eq. 7.

    Examples
    --------
    >>> from sotalib.consistency import check_som
    >>> check_som([(50, 100), (50, 100)], {"acc": "0.8533", "sens": "0.78"}, decimals=4).consistent
    True
    """
    folds = _check_folds(folds)
    intervals = score_intervals(scores, eps=eps, decimals=decimals, rounding=rounding, beta=beta)
    return check_intervals(sum(f[0] for f in folds), sum(f[1] for f in folds), intervals, max_solutions)


def brute_force(p: int, n: int, intervals: tuple[ScoreInterval, ...]) -> np.ndarray:  # the tests' reference
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
