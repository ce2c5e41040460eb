"""The 20 performance scores of binary classification (Table 2 of Fazekas & Kovacs).

Every score is a function of the two free counts ``tp`` (true positives) and
``tn`` (true negatives) of a test set with ``p`` positives and ``n``
negatives (``fn = p - tp``, ``fp = n - tn``).  A score whose denominator is
zero is *undefined*: :func:`score_value` returns ``None`` and
:func:`score_float` returns NaN together with an explicit ``defined`` mask, and
the consistency tests never accept an undefined value as a match for a
reported number.

Names: the abbreviations of Table 2 (``acc``, ``sens``, ``spec``, ``ppv``,
``npv``, ``fbp``, ``fbn``, ``upm``, ``gm``, ``fm``, ``mk``, ``bm``, ``mcc``,
``lrp``, ``lrn``, ``pt``, ``dor``, ``ji``, ``bacc``, ``kappa``), their common
synonyms (``recall``, ``tpr``, ``precision``, ``tnr``, ``f1``, ``informedness``,
...) and complements (``error_rate = 1 - acc``, ``fnr``, ``fpr``, ``fdr``,
``for``).  Unknown names raise :class:`ValueError`.  The F-scores take the
weight ``beta`` (``f1`` is ``fbp`` with beta = 1; ``f2`` has beta = 2).

Two evaluations are provided: an exact one in rational arithmetic
(:func:`score_value`, :func:`exact_sign`), used to decide every borderline
case, and a vectorised float64 one (:func:`score_float`) used to screen the
clear cases.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["SCORES", "all_scores", "aggregate_scores"]

#: The 20 base scores of Table 2, in the paper's order.
SCORES = (
    "acc",
    "sens",
    "spec",
    "ppv",
    "npv",
    "fbp",
    "fbn",
    "upm",
    "gm",
    "fm",
    "mk",
    "bm",
    "mcc",
    "lrp",
    "lrn",
    "pt",
    "dor",
    "ji",
    "bacc",
    "kappa",
)

#: Scores linear in tp and tn: the only ones the Mean-of-Scores ILP (Eq. 9) supports.
LINEAR_SCORES = ("acc", "sens", "spec", "bacc")

#: Full names (lower case, spaces/dashes as underscores) and synonyms -> (base, complement).
ALIASES: dict[str, tuple[str, bool]] = {}


def _alias(base: str, *names: str, complement: bool = False) -> None:
    for name in names:
        ALIASES[name] = (base, complement)


for _s in SCORES:
    _alias(_s, _s)
_alias("acc", "accuracy")
_alias("acc", "err", "error_rate", "error", complement=True)
_alias("sens", "sensitivity", "recall", "tpr", "true_positive_rate", "hit_rate")
_alias("sens", "fnr", "false_negative_rate", "miss_rate", complement=True)
_alias("spec", "specificity", "selectivity", "tnr", "true_negative_rate")
_alias("spec", "fpr", "false_positive_rate", "fall_out", complement=True)
_alias("ppv", "precision", "positive_predictive_value")
_alias("ppv", "fdr", "false_discovery_rate", complement=True)
_alias("npv", "negative_predictive_value")
_alias("npv", "for", "false_omission_rate", complement=True)
_alias("fbp", "f_beta", "fbeta", "f_beta_positive", "f_score", "f_measure", "f1", "f1_score", "f2")
_alias("fbn", "f_beta_negative", "f1n", "f1_negative")
_alias("upm", "unified_performance_measure", "p4")
_alias("gm", "g_mean", "gmean", "geometric_mean")
_alias("fm", "fowlkes_mallows", "fowlkes_mallows_index")
_alias("mk", "markedness", "deltap", "delta_p")
_alias("bm", "informedness", "bookmaker_informedness", "youden", "youden_j", "youdens_j")
_alias("mcc", "matthews_correlation_coefficient", "matthews", "phi", "phi_coefficient")
_alias("lrp", "positive_likelihood_ratio", "lr_plus", "plr")
_alias("lrn", "negative_likelihood_ratio", "lr_minus", "nlr")
_alias("pt", "prevalence_threshold")
_alias("dor", "diagnostic_odds_ratio")
_alias("ji", "jaccard", "jaccard_index", "threat_score", "critical_success_index", "csi", "tanimoto", "iou")
_alias("bacc", "balanced_accuracy", "balanced_acc")
_alias("kappa", "cohen_kappa", "cohens_kappa", "cohen_s_kappa")

_FIXED_BETA = {"f1": 1, "f1_score": 1, "f2": 2, "f1n": 1, "f1_negative": 1}


@dataclass(frozen=True)
class ScoreSpec:
    """A resolved score name.

    Attributes
    ----------
    name : str
        The name as the user wrote it (normalised).
    base : str
        One of :data:`SCORES`.
    complement : bool
        The reported value is ``1 - base`` (e.g. error rate).
    beta : Fraction
        Weight of the F-scores (1 for every other score).
    """

    name: str
    base: str
    complement: bool = False
    beta: Fraction = Fraction(1)

    def to_base(self, value: Fraction) -> Fraction:
        """Reported value -> value of the base score."""
        return 1 - value if self.complement else value


def resolve_score(name: str, beta: float | None = None) -> ScoreSpec:
    """Resolve a score name, synonym or complement; unknown names raise ``ValueError``."""
    key = str(name).strip().lower().replace("-", "_").replace(" ", "_").replace("'", "")
    if key not in ALIASES:
        raise ValueError(
            f"score must be one of the names of Table 2 or their synonyms (e.g. {', '.join(SCORES)}), got {name!r}"
        )
    base, comp = ALIASES[key]
    b = Fraction(_FIXED_BETA.get(key, 1))
    if beta is not None:
        if base not in ("fbp", "fbn"):
            raise ValueError(f"beta applies to the F-scores only, got beta for {name!r}")
        if key in _FIXED_BETA and Fraction(str(beta)) != b:
            raise ValueError(f"beta of {name!r} is fixed to {b}, got {beta}")
        b = Fraction(str(float(beta)))
        if b <= 0:
            raise ValueError(f"beta must be > 0, got {beta}")
    return ScoreSpec(key, base, comp, b)


def score_range(base: str) -> tuple[float, float]:
    """The closed range of values a base score can take (``inf`` for the ratios)."""
    if base in ("mk", "bm", "mcc", "kappa"):
        return (-1.0, 1.0)
    if base in ("lrp", "lrn", "dor"):
        return (0.0, math.inf)
    return (0.0, 1.0)


# --------------------------------------------------------------------------- exact
def _sign(x) -> int:
    return (x > 0) - (x < 0)


def _sign_diff_sqrt(x: int | Fraction, a: int | Fraction, y: int | Fraction, b: int | Fraction) -> int:
    """sign(x*sqrt(a) - y*sqrt(b)) exactly, for rationals a, b >= 0."""
    sl = _sign(x) * (a > 0)
    sr = _sign(y) * (b > 0)
    if sl != sr:
        return 1 if sl > sr else -1
    if sl == 0:
        return 0
    return sl * _sign(x * x * a - y * y * b)


def _rational(base: str, tp: int, tn: int, p: int, n: int, beta: Fraction):  # noqa: C901 (one branch per score formula, read against the paper)
    """(numerator, denominator) of the rational scores, ``None`` when undefined."""
    fp, fn = n - tn, p - tp
    if base == "acc":
        return (tp + tn), (p + n)
    if base == "sens":
        return (tp), (p)
    if base == "spec":
        return (tn), (n)
    if base == "ppv":
        return (tp), (tp + fp)
    if base == "npv":
        return (tn), (tn + fn)
    if base == "fbp":
        b2 = beta * beta
        return (1 + b2) * tp, b2 * p + fp + tp
    if base == "fbn":
        b2 = beta * beta
        return (1 + b2) * tn, b2 * n + fn + tn
    if base == "upm":
        return (4 * tp * tn), (tn * (n + p - tn + tp) + tp * (n + p + tn - tp))
    if base == "mk":
        d1, d2 = tn + fn, tp + fp
        if d1 == 0 or d2 == 0:
            return None
        return (tn * d2 + tp * d1 - d1 * d2), (d1 * d2)
    if base == "bm":
        return (tp * n + tn * p - p * n), (p * n)
    if base == "lrp":
        return (n * tp), (p * fp)
    if base == "lrn":
        return (n * fn), (p * tn)
    if base == "dor":
        return (tp * tn), (fp * fn)
    if base == "ji":
        return (tp), (tp + fp + fn)
    if base == "bacc":
        return (tp * n + tn * p), (2 * p * n)
    if base == "kappa":
        return (2 * (tp * tn - fn * fp)), ((tp + fp) * n + p * (fn + tn))
    raise KeyError(base)


def exact_sign(base: str, tp: int, tn: int, p: int, n: int, c: Fraction, beta: Fraction = Fraction(1)) -> int | None:
    """Exact sign of ``f_base(tp, tn, p, n) - c`` (``None`` if the score is undefined).

    Rational scores are compared by integer cross-multiplication with c = cn / cd; the
    four scores with square roots (gm, fm, mcc, pt) by comparing squares with the
    signs taken into account, so that no rounding is involved anywhere.
    """
    if not isinstance(c, Fraction):
        c = Fraction(c)
    cn, cd = c.numerator, c.denominator  # cd > 0
    tp, tn, p, n = int(tp), int(tn), int(p), int(n)  # Python integers: no overflow
    fp, fn = n - tn, p - tp
    if base == "fbp" or base == "fbn":
        # (1 + b2) x / (b2 m + y) with b2 = bn / bd, in integers: numerator and denominator times bd > 0
        # (the sign of num cd - cn den is unchanged; Fractions made this the cost of a DRIVE check)
        b = beta if isinstance(beta, (int, Fraction)) else Fraction(beta)
        bn, bd = b.numerator**2, b.denominator**2  # b2 in lowest terms
        x, m, y = (tp, p, fp + tp) if base == "fbp" else (tn, n, fn + tn)
        num, den = (bd + bn) * x, bn * m + bd * y
        if den == 0:
            return None
        return _sign(num * cd - cn * den) * _sign(den)
    if base in ("gm", "pt") and (p == 0 or n == 0):
        return None  # built on sens and spec: undefined on a fold without positives or negatives
    if base == "gm":  # sqrt(tp tn / (p n)) - c has the sign of cd sqrt(tp tn) - cn sqrt(p n)
        return _sign_diff_sqrt(cd, tp * tn, cn, p * n)
    if base == "fm":  # tp / sqrt(m) - c has the sign of cd tp - cn sqrt(m), m = p (tp + fp)
        m = p * (tp + fp)
        if m == 0:
            return None
        return _sign_diff_sqrt(cd, tp * tp, cn, m)
    if base == "mcc":  # (tp tn - fp fn) / sqrt(m) - c: cd (tp tn - fp fn) - cn sqrt(m)
        m = p * n * (tp + fp) * (tn + fn)
        if m == 0:
            return None
        return _sign_diff_sqrt(cd * (tp * tn - fp * fn), 1, cn, m)
    if base == "pt":  # sqrt(fpr) / (sqrt(tpr) + sqrt(fpr)), undefined where tpr == fpr
        if tp * n == fp * p:
            return None
        # pt - c has the sign of (1 - c) sqrt(fpr) - c sqrt(tpr), times cd sqrt(p n) > 0
        return _sign_diff_sqrt(cd - cn, fp * p, cn, tp * n)
    frac = _rational(base, tp, tn, p, n, beta)
    if frac is None or frac[1] == 0:
        return None
    num, den = frac
    return _sign(num * cd - cn * den) * _sign(den)


def score_value(base: str, tp: int, tn: int, p: int, n: int, beta: float = 1.0) -> float | None:
    """The value of a base score as a Python float, ``None`` if undefined.

    Rational scores are rounded once from the exact fraction; the root scores
    are evaluated from exact rationals with one square root.
    """
    beta_q = Fraction(str(float(beta)))
    fp, fn = n - tn, p - tp
    if base in ("gm", "fm", "pt") and (p == 0 or (base != "fm" and n == 0)):
        return None  # built on sens (and spec): undefined on a fold without positives (negatives)
    if base == "gm":
        return math.sqrt(Fraction(tp * tn, p * n))
    if base == "fm":
        return None if tp + fp == 0 else tp / math.sqrt(p * (tp + fp))
    if base == "mcc":
        m = p * n * (tp + fp) * (tn + fn)
        return None if m == 0 else (tp * tn - fp * fn) / math.sqrt(m)
    if base == "pt":
        a, b = Fraction(tp, p), Fraction(fp, n)
        if a == b:
            return None
        return math.sqrt(b) / (math.sqrt(a) + math.sqrt(b))
    frac = _rational(base, tp, tn, p, n, beta_q)
    if frac is None or frac[1] == 0:
        return None
    return float(Fraction(frac[0]) / Fraction(frac[1]))


def all_scores(tp: int, tn: int, p: int, n: int, *, beta: float = 1.0) -> dict[str, float | None]:
    """All 20 base scores of one confusion matrix (``None`` where undefined).

    Parameters
    ----------
    tp, tn : int
        True positives and true negatives.
    p, n : int
        Positives and negatives.
    beta : float
        Weight of the F-scores.

    Returns
    -------
    dict
        Score abbreviation of Table 2 -> value (None where a denominator is zero).

    Raises
    ------
    ValueError
        Counts out of range (``tp > p``, a negative count).

    References
    ----------
    Fazekas & Kovacs, Table 2.

    Examples
    --------
    >>> from sotalib.consistency import all_scores
    >>> s = all_scores(78, 178, 100, 200)
    >>> round(s["acc"], 4), round(s["sens"], 4), round(s["fbp"], 4)
    (0.8533, 0.78, 0.78)
    """
    return {s: score_value(s, tp, tn, p, n, beta) for s in SCORES}


# --------------------------------------------------------------------------- float
#: Above this p + n a product of two counts may exceed 2**53 (see :func:`score_float`).
WIDE = 2**26


def _wide(*counts: np.ndarray) -> bool:
    """Whether products of these counts can leave float64's exact integers, the counts being integers."""
    big = max((float(np.max(np.abs(c))) for c in counts if c.size), default=0.0)
    if big * big < 2.0**53:
        return False
    return all(bool(np.all(c == np.floor(c))) for c in counts) and big < 2.0**31


def _cross(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray, wide: bool) -> np.ndarray:
    """``a b - c d``: in exact int64 arithmetic for wide integer counts, else in float64."""
    if not wide:
        return a * b - c * d
    ia, ib, ic, id_ = (np.asarray(x).astype(np.int64) for x in (a, b, c, d))
    return (ia * ib - ic * id_).astype(np.float64)


def score_float(base: str, tp, tn, p, n, beta: float = 1.0) -> tuple[np.ndarray, np.ndarray]:  # noqa: C901 (one branch per score formula, read against the paper)
    """Vectorised float64 evaluation: ``(values, defined)``; values are NaN where undefined.

    Below 2**26 every product of two counts is an exact float64 integer; above
    (up to p + n = 2**31, the consistency checks' limit) products are rounded
    once, and the differences of products that could cancel or tie -- pt's
    ``tp n == fp p`` and the numerator ``tp tn - fp fn`` of mcc and kappa --
    are computed exactly in int64.  The error of every formula is then a few
    units in the last place of max(1, |value|), which :mod:`sotalib.consistency`
    covers with a wide margin before deciding anything in floating point.
    """
    tp = np.asarray(tp, dtype=np.float64)
    tn = np.asarray(tn, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    fp, fn = n - tn, p - tp
    b2 = float(beta) ** 2
    wide = _wide(tp, tn, p, n)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if base == "gm":
            num, den = np.sqrt(tp * tn), np.sqrt(p * n)
        elif base == "fm":
            num, den = tp, np.sqrt(p * (tp + fp))
        elif base == "mcc":
            num = _cross(tp, tn, fp, fn, wide)
            den = np.sqrt(p * n) * np.sqrt((tp + fp) * (tn + fn))
        elif base == "pt":
            a, b = tp / p, fp / n
            num, den = np.sqrt(b), np.sqrt(a) + np.sqrt(b)
            den = np.where(_cross(tp, n, fp, p, wide) == 0, 0.0, den)  # a == b, exactly
        elif base == "mk":
            d1, d2 = tn + fn, tp + fp
            num = tn * d2 + tp * d1 - d1 * d2
            den = d1 * d2
        elif base == "acc":
            num, den = tp + tn, p + n
        elif base == "sens":
            num, den = tp, p
        elif base == "spec":
            num, den = tn, n
        elif base == "ppv":
            num, den = tp, tp + fp
        elif base == "npv":
            num, den = tn, tn + fn
        elif base == "fbp":
            num, den = (1 + b2) * tp, b2 * p + fp + tp
        elif base == "fbn":
            num, den = (1 + b2) * tn, b2 * n + fn + tn
        elif base == "upm":
            num, den = 4 * tp * tn, tn * (n + p - tn + tp) + tp * (n + p + tn - tp)
        elif base == "bm":
            num, den = tp * n + tn * p - p * n, p * n
        elif base == "lrp":
            num, den = n * tp, p * fp
        elif base == "lrn":
            num, den = n * fn, p * tn
        elif base == "dor":
            num, den = tp * tn, fp * fn
        elif base == "ji":
            num, den = tp, tp + fp + fn
        elif base == "bacc":
            num, den = tp * n + tn * p, 2 * p * n
        elif base == "kappa":
            num, den = 2 * _cross(tp, tn, fn, fp, wide), (tp + fp) * n + p * (fn + tn)
        else:
            raise KeyError(base)
        defined = np.broadcast_to(den != 0, np.broadcast(num, den).shape)
        if base == "mcc":
            defined = np.broadcast_to((tp + fp) * (tn + fn) != 0, defined.shape)
        if base == "mk":
            defined = np.broadcast_to(den != 0, defined.shape)
        values = np.where(defined, num / np.where(defined, den, 1.0), np.nan)
    return values, np.asarray(defined)


def aggregate_scores(
    folds: Sequence[tuple[int, int]], counts: Sequence[tuple[int, int]], *, beta: float = 1.0
) -> dict[str, tuple[float | None, float | None]]:
    """All 20 scores aggregated over evaluation sets: base -> (Mean of Scores, Score of Means).

    MoS is the mean of the fold scores (``None`` if any fold score is
    undefined), SoM the score of the summed confusion matrix.

    Parameters
    ----------
    folds : sequence of (p_i, n_i)
        The evaluation sets.
    counts : sequence of (tp_i, tn_i)
        The confusion matrix of each evaluation set.
    beta : float
        Weight of the F-scores.

    Returns
    -------
    dict
        Score abbreviation -> (Mean of Scores, Score of Means).

    Raises
    ------
    ValueError
        Folds and counts of different lengths, or counts out of range.

    References
    ----------
    Fazekas & Kovacs, Section 4.1, Eqs. 5-7 and Table 5.

    Examples
    --------
    >>> from sotalib.consistency import aggregate_scores
    >>> mos, som = aggregate_scores([(10, 20), (10, 30)], [(8, 15), (5, 27)])["sens"]
    >>> round(mos, 4), round(som, 4)
    (0.65, 0.65)
    """
    P = sum(p for p, _ in folds)
    N = sum(n for _, n in folds)
    TP = sum(t for t, _ in counts)
    TN = sum(u for _, u in counts)
    out = {}
    for s in SCORES:
        vals = [score_value(s, t, u, p, n, beta) for (p, n), (t, u) in zip(folds, counts)]
        defined = [v for v in vals if v is not None]  # the same list when no score is undefined
        mos = math.fsum(defined) / len(defined) if len(defined) == len(vals) else None
        out[s] = (mos, score_value(s, TP, TN, P, N, beta))
    return out
