"""The result of every state-of-the-art estimator: :class:`SotaEstimate`, and the one way to say "no solution"."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._result import Result

__all__ = ["SotaEstimate"]


@dataclass(frozen=True, repr=False)
class SotaEstimate(Result):
    """An estimate of ``theta_SOTA`` from a leaderboard (what :func:`estimate_sota` returns).

    Attributes
    ----------
    method : str
        ``naive``, ``observed``, ``shrink``, ``crop``, ``cap``, ``deconvolve`` or ``abc``.
    m : int
        Teams used (above chance).
    n : int
        Test-set size.
    sample_max : float
        ``max(Theta_hat)``.
    estimate : float or None
        The SOTA estimate; None when the method has no solution.
    weight : float or None
        The shrinkage weight ``w`` (shrink) or the crop point ``c`` (crop, cap).
    expected_max : float or None
        ``E max(Theta_hat')`` under the fitted ``Theta'``.
    ci_low, ci_high : float or None
        ``1 - alpha`` interval of the simulated maximum (naive: of the single
        classifier; deconvolve: bootstrap; abc: credible interval).
    teams_above : int or None
        Teams whose score is above the estimate (crop: above the crop point).
    below_chance : int
        Teams at or below chance, excluded.
    excluded : int
        Teams excluded by Eq. 8 in the fitted model.
    solved : bool
        False when no solution exists; ``reason`` says why.
    reason : str or None
        Why there is no solution (None when solved).
    details : dict
        Method-specific numbers (target, rho, engine, replications, seed, ...).
    dropped : int
        Rows of the leaderboard file without a score, dropped when it was read
        (0 unless ``scores`` was a :class:`Leaderboard`).
    duplicates : int
        Rows of the file repeating a team already listed, merged when it was read.
    notes : tuple of str
        How the leaderboard file was read and what was set aside (perfect
        scores the model cannot take, an interval that does not contain its
        estimate), one sentence each.
    """

    method: str
    m: int
    n: int
    sample_max: float
    estimate: float | None
    weight: float | None = None
    expected_max: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    teams_above: int | None = None
    below_chance: int = 0
    excluded: int = 0
    solved: bool = True
    reason: str | None = None
    details: dict = field(default_factory=dict)
    dropped: int = 0
    duplicates: int = 0
    notes: tuple = ()


def _unsolved(method: str, s: np.ndarray, n: int, below: int, reason: str, details: dict) -> SotaEstimate:
    """The answer when no parameter solves the estimator's equation: ``solved=False`` and the reason why."""
    return SotaEstimate(
        method, s.size, n, float(s.max()), None, below_chance=below, solved=False, reason=reason, details=details
    )
