"""Consistency of reported regression errors: MAE, MSE, RMSE and R^2 on n items.

With residuals ``e_1, ..., e_n`` (any real numbers: the predictions are free),
``MAE = sum |e_j| / n``, ``MSE = sum e_j^2 / n``, ``RMSE = sqrt(MSE)`` and, with
the target's variance ``var = sum (y_j - mean y)^2 / n`` (``numpy.var``, ddof 0),
``R^2 = 1 - MSE / var`` (scikit-learn's ``r2_score``).  A pair (MAE, MSE) comes
from some residuals exactly when

    MAE^2 <= MSE <= n MAE^2            (Cauchy-Schwarz; and the L1 norm bounds the L2 norm)

i.e. ``MAE <= RMSE <= sqrt(n) MAE``: the lower end is reached by equal
residuals, the upper by a single non-zero one, and every value between by
continuity.  So a report is consistent when the reported values, widened to
the intervals their rounding allows (as ``_intervals.score_intervals``),
leave an MSE and an MAE that satisfy these bounds.  The check is exact
(rational arithmetic: intervals of RMSE are squared, never rooted); the verdict
names every relation a report violates, and the evidence is a pair (MAE, MSE)
with a residual vector that has them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from .._frame import as_mapping
from .._json import json_safe
from .._result import Result
from .._validate import ParameterError, check_int
from ._intervals import FLOAT_SLACK, as_decimal, tolerance

__all__ = ["RegressionResult", "check_regression", "regression_scores"]

_NAMES = {
    "mae": "mae",
    "mean_absolute_error": "mae",
    "mse": "mse",
    "mean_squared_error": "mse",
    "rmse": "rmse",
    "root_mean_squared_error": "rmse",
    "r2": "r2",
    "r_squared": "r2",
    "r2_score": "r2",
}


@dataclass(frozen=True, repr=False)
class RegressionResult(Result):
    """Verdict on a regression report.

    Attributes
    ----------
    consistent : bool
        Some residuals give every reported value (False is a proof of the contrary).
    evidence : list
        ``[{"mae": a, "mse": m, "residuals": {"value": x, "count": j, "last": z}}]``: the
        residuals are ``j`` copies of ``x``, one ``z`` and zeros (empty when inconsistent).
    configurations_tested : int
        Always 1.
    details : dict
        ``n``, ``mse_interval`` and ``mae_interval`` (the exact intervals left by the report),
        ``violated`` (the relations that fail) and ``note``.
    violated : list of str
        E.g. ``'RMSE <= sqrt(n) MAE'``, ``'MSE = RMSE^2'``, ``'R^2 = 1 - MSE / var'``.
    reported : dict
        The reported scores as given (name to value), which ``to_text()`` repeats.
    """

    consistent: bool
    n: int
    violated: list = field(default_factory=list)
    mse_interval: tuple | None = None
    mae_interval: tuple | None = None
    reported: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def evidence(self) -> list:
        """``[witness]`` for a consistent report (computed on demand), else ``[]``."""
        return [_witness(self.n, self.mse_interval, self.mae_interval)] if self.consistent else []

    @property
    def configurations_tested(self) -> int:
        return 1

    @property
    def details(self) -> dict:
        iv = lambda t: None if t is None else [float(t[0]), float(t[1])]  # noqa: E731
        return {
            "n": self.n,
            "mse_interval": iv(self.mse_interval),
            "mae_interval": iv(self.mae_interval),
            "violated": list(self.violated),
            "note": "consistent" if self.consistent else "violates " + "; ".join(self.violated),
        }

    def to_dict(self) -> dict:
        """JSON-safe: the four common keys, then ``violated``."""
        return json_safe(
            {
                "consistent": bool(self.consistent),
                "evidence": self.evidence,
                "configurations_tested": 1,
                "details": self.details,
                "violated": list(self.violated),
            }
        )

    def to_text(self) -> str:
        """The verdict, the reported scores, a witness or the relations violated: what ``sotalib check`` prints."""
        scores = ", ".join(f"{k}={x}" for k, x in self.reported.items())
        lines = [("CONSISTENT" if self.consistent else "INCONSISTENT") + ": " + scores]
        if self.consistent:
            w = self.evidence[0]
            lines.append(f"  e.g. MSE {w['mse']:.6g}" + (f", MAE {w['mae']:.6g}" if "mae" in w else ""))
        for msg in self.violated:
            lines.append(f"  violated: {msg}")
        return "\n".join(lines)


def regression_scores(y_true: ArrayLike, y_pred: ArrayLike) -> dict[str, float]:
    """MAE, MSE, RMSE, R^2 and the target's variance (ddof 0) of predictions, in float64.

    Parameters
    ----------
    y_true, y_pred : array_like
        Targets and predictions, of the same length.

    Returns
    -------
    dict
        ``mae``, ``mse``, ``rmse``, ``r2`` (NaN for a constant target) and ``var``.

    Raises
    ------
    ValueError
        Arrays of different shapes.

    References
    ----------
    Fazekas & Kovacs, Section 6 (the tests extend beyond classification); the scores are the
    textbook ones (scikit-learn's ``mean_absolute_error``, ``r2_score``).

    Examples
    --------
    >>> from sotalib.consistency import regression_scores
    >>> s = regression_scores([1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.5, 4.0])
    >>> round(s["mae"], 4), round(s["rmse"], 4), round(s["r2"], 4)
    (0.25, 0.3536, 0.9)
    """
    if np.shape(y_true) != np.shape(y_pred):
        raise ValueError(f"y_true and y_pred must have the same shape, got {np.shape(y_true)} and {np.shape(y_pred)}")

    y, p = np.asarray(y_true, float), np.asarray(y_pred, float)
    e = y - p
    mse = float(np.mean(e**2))
    var = float(np.var(y))
    return {
        "mae": float(np.mean(np.abs(e))),
        "mse": mse,
        "rmse": math.sqrt(mse),
        "r2": (1 - mse / var) if var > 0 else float("nan"),
        "var": var,
    }


def check_regression(
    n: int,
    scores: Mapping[str, float | str],
    *,
    target_var: float | str | None = None,
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
) -> RegressionResult:
    """Test whether reported regression errors can come from n residuals.

    Parameters
    ----------
    n : int
        Number of items (>= 1).
    scores : mapping
        Any of ``mae``, ``mse``, ``rmse``, ``r2`` (or their long names) -> reported value.
    target_var : float or str, optional
        The target's variance (ddof 0); required with ``r2``.  It is read with the same
        numerical uncertainty as the scores (it is usually reported with them).
    eps, decimals, rounding
        Numerical uncertainty, as in :func:`sotalib.consistency.check_single`.

    Returns
    -------
    RegressionResult
        Which bound a report violates (``details``), or residuals that reproduce it.

    Raises
    ------
    ValueError
        ``n`` below 1, an unknown or repeated score, ``r2`` without ``target_var``, bad values.

    References
    ----------
    Fazekas & Kovacs (the consistency idea, Section 3) carried to regression: the bounds
    MAE <= RMSE <= sqrt(n) MAE and MSE = RMSE^2, R^2 = 1 - MSE / var.

    Examples
    --------
    >>> from sotalib.consistency import check_regression
    >>> check_regression(100, {"mae": "0.0300", "rmse": "0.5000"}, decimals=4).consistent
    False
    >>> check_regression(100, {"mae": "0.30", "rmse": "0.40"}, decimals=2).consistent
    True
    """
    n = check_int("n", n, low=1)
    scores = as_mapping(scores, "scores")
    below, above = tolerance(eps, decimals, rounding)
    if not scores:
        raise ValueError("scores must name at least one of mae, mse, rmse, r2")
    given = {}
    for name, value in scores.items():
        key = _NAMES.get(str(name).strip().lower().replace("-", "_").replace(" ", "_"))
        if key is None:
            raise ValueError(f"score must be one of mae, mse, rmse, r2, got {name!r}")
        if key in given:
            raise ValueError(f"score {key} given twice")
        v = _as_float(value, f"score {name}")
        if key != "r2" and v < 0:
            raise ValueError(f"score {name} must be >= 0, got {v:g}")
        if key == "r2" and v > 1:
            raise ValueError(f"score {name} must be <= 1, got {v:g}")
        given[key] = value
    if "r2" in given and target_var is None:
        raise ParameterError("target_var (the variance of the target, ddof 0) is required with r2", "target_var")
    if target_var is not None and _as_float(target_var, "target_var") <= 0:
        raise ValueError(f"target_var must be > 0, got {_as_float(target_var, 'target_var'):g}")
    var_given = target_var if "r2" in given else None

    # screen in float64 with every interval narrowed by a relative 1e-9 (far above rounding errors):
    # consistent there means consistent exactly; anything else is decided in rational arithmetic
    fb, fa = float(below), float(above)
    ivs_f = {k: _narrow(_as_float(v, k) - fb, _as_float(v, k) + fa) for k, v in given.items()}
    var_f = None if var_given is None else _narrow(_as_float(var_given, "") - fb, _as_float(var_given, "") + fa)
    if not _relations(n, ivs_f, var_f, float)[4]:
        ivs_f = {k: (_as_float(v, k) - fb, _as_float(v, k) + fa) for k, v in given.items()}
        var_f = None if var_given is None else (_as_float(var_given, "") - fb, _as_float(var_given, "") + fa)
        mlo, mhi, alo, ahi, _ = _relations(n, ivs_f, var_f, float)
        return RegressionResult(
            True,
            n,
            [],
            (mlo, mhi) if mhi is not None else None,
            (alo, ahi) if alo is not None else None,
            reported=dict(scores),
        )
    ivs = {}
    for key, value in given.items():
        x = as_decimal(value, f"score {key}")  # exact (Fraction), unlike the float v above
        slack = FLOAT_SLACK * max(Fraction(1), abs(x))
        ivs[key] = (x - below - slack, x + above + slack)
    var_iv = None
    if var_given is not None:
        var = as_decimal(var_given, "target_var")
        var_iv = (max(var - below - FLOAT_SLACK * var, Fraction(0)), var + above + FLOAT_SLACK * var)
    mlo, mhi, alo, ahi, violated = _relations(n, ivs, var_iv, Fraction)
    return RegressionResult(
        not violated,
        n,
        violated,
        (mlo, mhi) if mhi is not None else None,
        (alo, ahi) if alo is not None else None,
        reported=dict(scores),
    )


def _as_float(value, name) -> float:
    """A reported value as a float; NaN and infinities are refused (a missing value is no report)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = float(as_decimal(value, name))
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return v


def _narrow(lo: float, hi: float, rel: float = 1e-9) -> tuple[float, float]:
    return lo + rel * max(1.0, abs(lo)), hi - rel * max(1.0, abs(hi))


def _relations(n, ivs, var_iv, num):
    """(mlo, mhi, alo, ahi, violated) for intervals of the reported scores, in the arithmetic ``num``.

    ``num`` is Fraction (exact) or float (the screen).  The MSE interval is the intersection of the MSE,
    RMSE^2 and (1 - R^2) var intervals; the MAE must satisfy MAE^2 <= MSE <= n MAE^2 (module docstring).
    """
    zero = num(0)
    violated = []
    mse_parts = []  # (label, lo, hi) intervals of the MSE
    if "mse" in ivs:
        lo, hi = ivs["mse"]
        mse_parts.append(("MSE", max(lo, zero), hi))
    if "rmse" in ivs:
        lo, hi = ivs["rmse"]
        lo = max(lo, zero)
        mse_parts.append(("RMSE^2", lo * lo, hi * hi if hi >= 0 else num(-1)))
    if "r2" in ivs:
        vlo, vhi = var_iv
        vlo = max(vlo, zero)
        rlo, rhi = ivs["r2"]
        # MSE = (1 - R^2) var with 1 - R^2 in [1 - rhi, 1 - rlo] (>= 0) and var in [vlo, vhi]
        a, b = max(1 - rhi, zero), 1 - rlo
        mse_parts.append(("(1 - R^2) var", a * vlo, b * vhi if b >= 0 else num(-1)))
    mlo, mhi = zero, None
    for _, lo, hi in mse_parts:
        mlo = max(mlo, lo)
        mhi = hi if mhi is None else min(mhi, hi)
    labels = {"MSE": "MSE", "RMSE^2": "RMSE", "(1 - R^2) var": "R^2"}
    if mhi is not None and mlo > mhi:
        for i, (l1, lo1, hi1) in enumerate(mse_parts):
            for l2, lo2, hi2 in mse_parts[i + 1 :]:
                if lo1 > hi2 or lo2 > hi1:
                    violated.append(f"{labels[l1]} and {labels[l2]} disagree: {l1} = {l2} fails")
        if not violated:
            violated.append("MSE, RMSE and R^2 imply no common MSE")
    alo = ahi = None
    if "mae" in ivs:
        alo, ahi = max(ivs["mae"][0], zero), ivs["mae"][1]
        if mhi is not None and mhi < alo * alo:
            violated.append("MAE <= RMSE fails (the RMSE is below the MAE)")
        if mlo > n * ahi * ahi:
            violated.append(f"RMSE <= sqrt(n) MAE fails (n = {n}: the RMSE is above sqrt(n) times the MAE)")
    return mlo, mhi, alo, ahi, violated


def _witness(n, mse_interval, mae_interval) -> dict:
    """An MAE a and an MSE m with a^2 <= m <= n a^2, both in their intervals, and residuals that have them.

    a in [max(alo, sqrt(mlo / n)), min(ahi, sqrt(mhi))] (not empty for a consistent report), m = max(a^2, mlo).
    """
    mlo, mhi = (Fraction(x) for x in mse_interval) if mse_interval is not None else (Fraction(0), None)
    if mae_interval is not None:
        alo, ahi = (Fraction(x) for x in mae_interval)
        low = max(alo, _sqrt(mlo / n, up=True))
        high = ahi if mhi is None else min(ahi, _sqrt(mhi, up=False))
        a = low if low <= high else max(alo, min(ahi, low))
        m = max(a * a, mlo)
        return {"mse": float(m), "mae": float(a), "residuals": _residuals(n, a, m)}
    return {"mse": float(mlo if (mhi is None or mlo > 0) else mhi / 2)}


def _sqrt(x: Fraction, up: bool) -> Fraction:
    """A rational within 2^-100 of sqrt(x): above it (``up``) or below it (exact for perfect squares)."""
    num, den = x.numerator, x.denominator
    r = Fraction(math.isqrt(num * den * 4**100), den * 2**100)  # floor(sqrt(x) 2^100) / 2^100
    if r * r == x or not up:
        return r
    return r + Fraction(1, 2**100)


def _residuals(n: int, a: Fraction, m: Fraction) -> dict:
    """Residuals with MAE a and MSE m (a^2 <= m <= n a^2): j equal values x, one z, zeros.

    With S1 = n a and S2 = n m: j = floor(S1^2 / S2) values (at least 1) and the rest shared so
    that both sums hold; floats (the relation is exact, the printed residuals are rounded).
    """
    S1, S2 = float(n * a), float(n * m)
    if S1 == 0:
        return {"value": 0.0, "count": n, "last": 0.0}
    j = max(1, min(n, int(S1 * S1 / S2))) if S2 > 0 else n
    if j >= n:
        return {"value": S1 / n, "count": n, "last": 0.0}
    # j values x and one z: j x + z = S1, j x^2 + z^2 = S2, with z <= x
    A, B, C = j * (j + 1), -2 * j * S1, S1 * S1 - S2
    disc = max(B * B - 4 * A * C, 0.0)
    x = (-B + math.sqrt(disc)) / (2 * A)
    return {"value": x, "count": j, "last": S1 - j * x}
