"""Scores of multiclass classification and their exact evaluation.

A test set with ``k`` classes of known sizes ``c_1, ..., c_k`` (``n = sum c_i``)
and an unknown confusion matrix ``M`` (rows: true class, columns: predicted
class).  Every score below depends on ``M`` only through its diagonal
``d_i = M[i, i]`` (the true positives of class i) and its column sums ``s_i``
(how often class i is predicted): in one-vs-rest terms class i has
``tp = d_i``, ``fn = c_i - d_i``, ``fp = s_i - d_i`` and
``tn = n - c_i - s_i + d_i``.

Per-class scores (one-vs-rest) and their averages, as scikit-learn defines them
(``precision_score``, ``recall_score``, ``f1_score``, ``fbeta_score`` with
``average='micro' | 'macro' | 'weighted'``; specificity and NPV as
imbalanced-learn's ``specificity_score``):

=========== ========================================= =====================================
name        class i                                   micro average
=========== ========================================= =====================================
sens        d_i / c_i                                 T / n
spec        tn_i / (n - c_i)                          ((k - 2) n + T) / ((k - 1) n)
ppv         d_i / s_i                                 T / n
npv         tn_i / (n - s_i)                          ((k - 2) n + T) / ((k - 1) n)
fbp         (1 + b^2) d_i / (b^2 c_i + s_i)           T / n
=========== ========================================= =====================================

with ``T = sum d_i`` the trace.  ``macro`` is the plain mean over the classes,
``weighted`` the mean weighted by the class sizes ``c_i / n``.  Two scores
ignore the average: ``acc`` (accuracy, ``T / n``) and ``bacc`` (scikit-learn's
``balanced_accuracy_score``: the macro-averaged recall).

Two macro F1 scores are in use.  ``f1`` with ``average='macro'`` is
scikit-learn's: the mean of the per-class F1 scores.  ``f1_of_means`` (also
``f1_pr``, ``macro_f1_pr``) is the other one: the F1 (F-beta) score of the
macro precision and the macro recall, ``(1 + b^2) P R / (b^2 P + R)``.

A per-class precision (NPV) is undefined when class i is never predicted
(always predicted); ``zero_division`` sets its value as scikit-learn does
(default 0), or ``None`` to reject such matrices.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_choice, check_int
from ._intervals import FLOAT_SLACK, ToleranceOptions, as_decimal, tolerance
from ._scores import resolve_score

__all__ = ["multiclass_scores"]

AVERAGES = ("micro", "macro", "weighted")

#: Base names of the multiclass scores (``fbp_means``: the F-beta of macro precision and recall).
MULTICLASS_SCORES = ("acc", "sens", "spec", "ppv", "npv", "fbp", "bacc", "fbp_means")

_MEANS_NAMES = {"f1_of_means": 1, "f1_pr": 1, "macro_f1_pr": 1, "f1_of_averages": 1, "fbeta_of_means": None}


@dataclass(frozen=True)
class MulticlassInterval:
    """A reported multiclass score: base name, average, F-beta weight and the closed interval [lo, hi]."""

    name: str
    base: str
    average: str
    beta: Fraction
    complement: bool
    reported: Fraction
    lo: Fraction
    hi: Fraction

    def contains(self, value: Fraction | None) -> bool:
        """Exact membership of a score value (``None``: undefined, never a match)."""
        return value is not None and self.lo <= value <= self.hi

    def label(self) -> str:
        if self.base in ("acc", "bacc"):
            return self.base
        return f"{self.average} {self.base}"


class MulticlassOptions(ToleranceOptions):
    """The keywords of :func:`multiclass_intervals` besides the scores (for ``**`` passing)."""

    average: str
    beta: float | None


def _split_average(key: str, default: str) -> tuple[str, str]:
    for a in AVERAGES:
        for sep in ("_", "-", ":", "@", " "):
            if key.startswith(a + sep):
                return key[len(a) + 1 :], a
            if key.endswith(sep + a):
                return key[: -len(a) - 1], a
    return key, default


def multiclass_intervals(
    scores,
    *,
    average: str = "macro",
    eps=None,
    decimals=None,
    rounding: str | None = None,
    beta: float | None = None,
) -> tuple[MulticlassInterval, ...]:
    """Resolve the score names and turn the reported values into exact intervals.

    A name may carry a ``micro_`` / ``macro_`` / ``weighted_`` prefix or suffix overriding
    ``average``; the intervals are as in ``_intervals.score_intervals``
    (``eps``, or ``decimals`` with ``rounding``).
    """
    average = check_choice("average", average, AVERAGES)
    if not scores:
        raise ValueError("scores must name at least one reported score")
    below, above = tolerance(eps, decimals, rounding)
    out: list[MulticlassInterval] = []
    for name, value in scores.items():
        key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
        key, avg = _split_average(key, average)
        if key in _MEANS_NAMES:
            b_means = _MEANS_NAMES[key]
            b = Fraction(str(float(beta))) if (b_means is None and beta is not None) else Fraction(b_means or 1)
            base, comp = "fbp_means", False
            if avg != "macro":
                raise ValueError(f"score {name}: the F1 of averaged precision and recall is a macro score")
        else:
            try:
                spec = resolve_score(key, beta if (beta is not None and resolve_score(key).base == "fbp") else None)
            except ValueError:
                raise ValueError(
                    f"score must be one of the multiclass scores ({', '.join(MULTICLASS_SCORES[:-1])} and their "
                    f"synonyms, f1_of_means), optionally prefixed by micro_, macro_ or weighted_, got {name!r}"
                ) from None
            if spec.base not in MULTICLASS_SCORES:
                raise ValueError(
                    f"score {name!r} has no multiclass version here; use one of {', '.join(MULTICLASS_SCORES[:-1])} "
                    "(and their synonyms) or f1_of_means"
                )
            base, comp, b = spec.base, spec.complement, spec.beta
        v = as_decimal(value, f"score {name}")
        if not (0 <= v <= 1):
            raise ValueError(f"score {name} must be in [0, 1], got {float(v):g}")
        slack = FLOAT_SLACK * max(Fraction(1), abs(v))
        lo, hi = v - below - slack, v + above + slack
        if comp:
            lo, hi = 1 - hi, 1 - lo
        out.append(MulticlassInterval(str(name), base, avg, b, comp, v, lo, hi))
    return tuple(out)


def _check_classes(classes, name: str = "classes") -> tuple[int, ...]:
    """Class sizes: at least two, each an integer >= 1."""
    try:
        items = list(classes)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of class sizes, got {classes!r}") from None
    if len(items) < 2:
        raise ValueError(f"{name} must list at least 2 class sizes, got {len(items)}")
    out = []
    for i, c in enumerate(items):
        try:
            out.append(check_int(name, c, low=1))
        except ValueError as exc:
            raise ValueError(f"{exc} (class {i + 1})") from None
    return tuple(out)


def _term(base: str, d: int, s: int, c: int, n: int, b2: Fraction, zero_division) -> Fraction | None:
    """Exact one-vs-rest score of one class from (d_i, s_i)."""
    tn = n - c - s + d
    if base == "sens":
        return Fraction(d, c)
    if base == "spec":
        return Fraction(tn, n - c)
    if base == "ppv":
        if s == 0:
            return None if zero_division is None else Fraction(zero_division)
        return Fraction(d, s)
    if base == "npv":
        if s == n:
            return None if zero_division is None else Fraction(zero_division)
        return Fraction(tn, n - s)
    if base == "fbp":
        return (1 + b2) * d / (b2 * c + s)
    raise KeyError(base)


def multiclass_score(iv_or_base, classes, diag, colsum, *, average="macro", beta=1, zero_division=0):
    """Exact value (a Fraction, ``None`` if undefined) of one score from the diagonal and the column sums."""
    if isinstance(iv_or_base, MulticlassInterval):
        base, average, b = iv_or_base.base, iv_or_base.average, iv_or_base.beta
    else:
        base, b = iv_or_base, Fraction(str(beta))
    c, d, s = list(classes), list(diag), list(colsum)
    k, n, T = len(c), sum(c), sum(d)
    b2 = b * b
    if base == "acc":
        return Fraction(T, n)
    if base == "bacc":
        return sum(Fraction(x, y) for x, y in zip(d, c)) / k
    if base == "fbp_means":
        P = multiclass_score("ppv", c, d, s, average="macro", zero_division=zero_division)
        R = multiclass_score("sens", c, d, s, average="macro")
        if P is None or b2 * P + R == 0:
            return None if P is None else Fraction(0)
        return (1 + b2) * P * R / (b2 * P + R)
    if average == "micro":
        return Fraction(T, n) if base in ("sens", "ppv", "fbp") else Fraction((k - 2) * n + T, (k - 1) * n)
    terms = [_term(base, d[i], s[i], c[i], n, b2, zero_division) for i in range(k)]
    if any(t is None for t in terms):
        return None
    if average == "macro":
        return sum(terms) / k
    return sum(Fraction(c[i], n) * terms[i] for i in range(k))


def multiclass_scores(
    matrix: ArrayLike, *, beta: float = 1.0, zero_division: float | None = 0
) -> dict[str, float | None]:
    """Every multiclass score of a confusion matrix (rows: true class), as floats (``None`` if undefined).

    Parameters
    ----------
    matrix : array_like of int, shape (k, k)
        The confusion matrix, rows the true classes.
    beta : float
        Weight of the F-scores.
    zero_division : 0, 1 or None
        Value of a per-class precision (NPV) whose denominator is zero (None: undefined).

    Returns
    -------
    dict
        Keys ``'acc'``, ``'bacc'``, ``'f1_of_means'`` and ``'<average>_<base>'`` (micro, macro,
        weighted) for the per-class scores.

    Raises
    ------
    ValueError
        A matrix that is not square with counts >= 0, or a class without items.

    References
    ----------
    Fazekas & Kovacs, Table 2 (the per-class scores); averages as in scikit-learn.

    Examples
    --------
    >>> from sotalib.consistency import multiclass_scores
    >>> s = multiclass_scores([[8, 2, 0], [1, 9, 2], [0, 1, 7]])
    >>> round(s["acc"], 4), round(s["macro_sens"], 4)
    (0.8, 0.8083)
    """
    m = np.asarray(matrix, dtype=np.int64)
    c, d, s = m.sum(axis=1).tolist(), np.diag(m).tolist(), m.sum(axis=0).tolist()
    out = {
        "acc": multiclass_score("acc", c, d, s),
        "bacc": multiclass_score("bacc", c, d, s),
        "f1_of_means": multiclass_score("fbp_means", c, d, s, beta=beta, zero_division=zero_division),
    }
    for base in ("sens", "spec", "ppv", "npv", "fbp"):
        for a in AVERAGES:
            out[f"{a}_{base}"] = multiclass_score(base, c, d, s, average=a, beta=beta, zero_division=zero_division)
    return {k: (None if v is None else float(v)) for k, v in out.items()}


def transport_feasible(classes, diag, colsum) -> bool:
    """Whether a confusion matrix with row sums ``classes``, diagonal ``diag`` and column sums ``colsum`` exists.

    The off-diagonal part moves ``r_i = c_i - d_i`` items out of row i into
    columns j != i that take ``q_j = s_j - d_j``: possible (Hall's condition for
    a complete bipartite graph without its diagonal) exactly when every count
    is non-negative, ``sum r = sum q = Q`` and ``r_i + q_i <= Q`` for every i.
    """
    r = [c - d for c, d in zip(classes, diag)]
    q = [s - d for s, d in zip(colsum, diag)]
    if min(r) < 0 or min(q) < 0 or min(diag) < 0 or sum(r) != sum(q):
        return False
    Q = sum(r)
    return all(a + b <= Q for a, b in zip(r, q))


def build_matrix(classes, diag, colsum) -> list[list[int]]:
    """A confusion matrix with the given row sums, diagonal and column sums (see :func:`transport_feasible`).

    Greedy: move items from a row to a column while keeping Hall's condition
    ``r_i + q_i <= Q`` for every class (a class meeting it with equality must
    take part in the move); each step empties a row, a column or makes a new
    class tight, so there are at most 3k steps.
    """
    if not transport_feasible(classes, diag, colsum):
        raise ValueError("no confusion matrix has these row sums, diagonal and column sums")
    k = len(classes)
    m = np.zeros((k, k), dtype=np.int64)
    m[np.arange(k), np.arange(k)] = diag
    r = np.array([c - d for c, d in zip(classes, diag)], dtype=np.int64)
    q = np.array([s - d for s, d in zip(colsum, diag)], dtype=np.int64)
    Q = int(r.sum())
    while Q > 0:
        load = r + q
        tight = [int(i) for i in np.flatnonzero(load == Q)]
        if len(tight) == 2:
            t1, t2 = tight
            a, b = (t1, t2) if r[t1] > 0 else (t2, t1)
        elif len(tight) == 1:
            t = tight[0]
            if r[t] > 0:
                a = t
                qq = q.copy()
                qq[a] = -1
                b = int(np.argmax(qq))
            else:
                b = t
                rr = r.copy()
                rr[b] = -1
                a = int(np.argmax(rr))
        else:
            a = int(np.argmax(r))
            qq = q.copy()
            qq[a] = -1
            b = int(np.argmax(qq))
        others = np.delete(load, [a, b])
        gap = Q - (int(others.max()) if len(others) else 0)
        step = int(min(r[a], q[b], max(gap, 1)))
        m[a, b] += step
        r[a] -= step
        q[b] -= step
        Q -= step
    return m.tolist()
