"""Consistency of reported scores with one test set, and with aggregated folds by Score of Means.

Fazekas & Kovacs, Sections 3 and 4.2.  A report is *consistent* with a test
set of ``p`` positives and ``n`` negatives when some integer pair (tp, tn)
reproduces every reported score within its numerical uncertainty (Eq. 1).
:func:`check_single` answers that question with certainty:

* candidate pairs are found in O(min(p, n) |S|) time in the spirit of
  Algorithm 1 (for each value of the smaller count, the window of the other
  count that each score allows; see :mod:`sotalib.consistency._interval_kernel`),
  with windows that are widened and then certified, so that no compatible pair
  is ever missed;
* every candidate is then decided: in float64 when it is farther than a safe
  margin (1e-9 relative) from the ends of the intervals, otherwise exactly, in
  rational arithmetic (:func:`sotalib.consistency._scores.exact_sign`).

The verdict and the solution set therefore equal those of the brute-force
search over all (p + 1)(n + 1) pairs (:func:`brute_force`), which the tests
check.  The reported values become intervals in
:mod:`sotalib.consistency._intervals`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .._json import json_safe
from .._result import Result
from .._validate import check_int
from ._folds import check_folds as _check_folds
from ._intervals import ScoreInterval, score_intervals
from ._scores import SCORES

__all__ = ["MAX_COUNT", "SingleResult", "check_single", "check_som", "brute_force"]

#: p + n must not exceed this: every product of two counts stays below 2**62 (exact in int64).
#: Up to 2**26 the kernel's float64 arithmetic is exact on products; above, it takes the wide
#: path of :mod:`sotalib.consistency._interval_kernel` (see ``WIDE`` there).  Either way every
#: verdict is exact.
MAX_COUNT = 2**31


@dataclass(frozen=True, repr=False)
class SingleResult(Result):
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
    """Kernel order of a score (never changes the result, only the speed).

    Scores constant in the free count come first (they decide whole columns), then the narrowest
    windows -- estimated from the roots on three sample columns -- so that later scores mostly need
    only the cheap endpoint test.  Widths within a factor of about ten count as equal and the cost
    of the formula decides: the first score computes its roots on every column, the later ones
    mostly only the endpoint test.
    """
    from ._interval_kernel import _root  # numba: loaded on the first check (see check_intervals)

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
    p: int, n: int, intervals: tuple[ScoreInterval, ...], max_solutions: int = 1_000_000
) -> SingleResult:
    """The test of :func:`check_single` on intervals already read (the private worker).

    ``p`` and ``n`` are checked here because Score of Means reaches it with totals over folds.
    """
    # numba loads on the first check, not when the package is imported (deliberately lazy: it takes a second)
    from ._interval_kernel import BLOCK_COLUMNS, _columns, _scan, _windows

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
    dirs = _dirs(bases, axis)
    fp, fn = float(p), float(n)
    t0, t1 = _columns(sids, lo, hi, b2s, dirs, _dirs(bases, 1 - axis), axis, fp, fn, T, X)
    # the columns in blocks (memory bounded at any size), in order, so the stored pairs stay sorted
    nsol, nfall, stored, ambiguous = 0, 0, [], []
    max_amb = 100_000
    for start in range(t0, t1 + 1, BLOCK_COLUMNS):
        size = min(BLOCK_COLUMNS, t1 + 1 - start)
        A, B, M, fell = _windows(sids, lo, hi, b2s, dirs, axis, fp, fn, X, start, size)
        nfall += int(fell)
        room = max(max_solutions - nsol, 0)
        while True:
            ns, sol, namb, amb = _scan(sids, lo, hi, b2s, axis, fp, fn, A, B, M, start, room, max_amb)
            if namb <= max_amb:
                break
            max_amb = namb
        nsol += int(ns)
        stored.append(sol)
        ambiguous.append(amb)
    sol = np.concatenate(stored) if stored else np.empty((0, 2), dtype=np.int64)
    amb = np.concatenate(ambiguous) if ambiguous else np.empty((0, 2), dtype=np.int64)
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
