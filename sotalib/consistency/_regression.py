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
the intervals their rounding allows (as :func:`sotalib.consistency.score_intervals`),
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

from .._json import json_safe
from .._validate import check_int

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


@dataclass(frozen=True)
class RegressionResult:
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
    """

    consistent: bool
    n: int
    violated: list = field(default_factory=list)
    mse_interval: tuple | None = None
    mae_interval: tuple | None = None
    witness: dict | None = None

    @property
    def evidence(self) -> list:
        return [self.witness] if (self.consistent and self.witness) else []

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


def regression_scores(y_true, y_pred) -> dict[str, float]:
    """MAE, MSE, RMSE, R^2 and the target's variance (ddof 0) of predictions, in float64."""
    import numpy as np

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
    scores: Mapping[str, object],
    *,
    target_var=None,
    eps=None,
    decimals=None,
    rounding: str = "round",
) -> RegressionResult:
    """Can reported regression errors come from n residuals?

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
        Numerical uncertainty, as in :func:`sotalib.consistency.score_intervals`.

    Returns
    -------
    RegressionResult
    """
    from ._single import FLOAT_SLACK, _half_widths, as_decimal

    n = check_int("n", n, low=1)
    below, above = _half_widths(eps, decimals, rounding)
    if not scores:
        raise ValueError("scores must name at least one of mae, mse, rmse, r2")
    ivs = {}
    for name, value in scores.items():
        key = _NAMES.get(str(name).strip().lower().replace("-", "_").replace(" ", "_"))
        if key is None:
            raise ValueError(f"score must be one of mae, mse, rmse, r2, got {name!r}")
        if key in ivs:
            raise ValueError(f"score {key} given twice")
        v = as_decimal(value, f"score {name}")
        if key != "r2" and v < 0:
            raise ValueError(f"score {name} must be >= 0, got {float(v):g}")
        if key == "r2" and v > 1:
            raise ValueError(f"score {name} must be <= 1, got {float(v):g}")
        slack = FLOAT_SLACK * max(1, abs(v))
        ivs[key] = (v - below - slack, v + above + slack)
    violated = []
    mse_parts = []  # (label, lo, hi) intervals of the MSE
    if "mse" in ivs:
        lo, hi = ivs["mse"]
        mse_parts.append(("MSE", max(lo, Fraction(0)), hi))
    if "rmse" in ivs:
        lo, hi = ivs["rmse"]
        lo = max(lo, Fraction(0))
        mse_parts.append(("RMSE^2", lo * lo, hi * hi if hi >= 0 else Fraction(-1)))
    if "r2" in ivs:
        if target_var is None:
            raise ValueError("target_var (the variance of the target, ddof 0) is required with r2")
        var = as_decimal(target_var, "target_var")
        if var <= 0:
            raise ValueError(f"target_var must be > 0, got {float(var):g}")
        vlo, vhi = max(var - below - FLOAT_SLACK * var, Fraction(0)), var + above + FLOAT_SLACK * var
        rlo, rhi = ivs["r2"]
        # MSE = (1 - R^2) var with 1 - R^2 in [1 - rhi, 1 - rlo] (>= 0) and var in [vlo, vhi]
        a, b = max(1 - rhi, Fraction(0)), 1 - rlo
        mse_parts.append(("(1 - R^2) var", a * vlo, b * vhi if b >= 0 else Fraction(-1)))
    elif target_var is not None:
        as_decimal(target_var, "target_var")
    mlo, mhi = Fraction(0), None
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
        alo, ahi = max(ivs["mae"][0], Fraction(0)), ivs["mae"][1]
        if mhi is not None and mhi < alo * alo:
            violated.append("MAE <= RMSE fails (the RMSE is below the MAE)")
        if mlo > n * ahi * ahi:
            violated.append(f"RMSE <= sqrt(n) MAE fails (n = {n}: the RMSE is above sqrt(n) times the MAE)")
    if violated:
        return RegressionResult(
            False, n, violated, (mlo, mhi) if mhi is not None else None, (alo, ahi) if alo is not None else None
        )
    # witness: an MAE a and an MSE m with a^2 <= m <= n a^2, both in their intervals:
    # a in [max(alo, sqrt(mlo / n)), min(ahi, sqrt(mhi))] (not empty: checked above), m = max(a^2, mlo)
    if alo is not None:
        low = max(alo, _sqrt(mlo / n, up=True))
        high = ahi if mhi is None else min(ahi, _sqrt(mhi, up=False))
        a = low if low <= high else max(alo, min(ahi, low))
        m = max(a * a, mlo)
    else:
        m = mlo if (mhi is None or mlo > 0) else mhi / 2
        a = None
    witness = {"mse": float(m)}
    if a is not None:
        witness["mae"] = float(a)
        witness["residuals"] = _residuals(n, a, m)
    return RegressionResult(
        True, n, [], (mlo, mhi) if mhi is not None else None, (alo, ahi) if alo is not None else None, witness
    )


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
