"""The result of every state-of-the-art estimator: :class:`SotaEstimate`, and the one way to say "no solution"."""

from __future__ import annotations

import math
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
    rho_measured : bool
        ``rho`` was measured from the per-item matrix given as ``scores``
        (not given), which ``to_text()`` says.
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
    rho_measured: bool = field(default=False, repr=False, compare=False)

    def to_text(self) -> str:
        """The estimate with its interval and notes: what ``sotalib sota`` prints.

        Four decimals as the paper prints them, more where a count is finer
        than the fourth (``n >= 10^6``); a per-item board names its best model.
        """
        if not self.solved or self.estimate is None:
            return f"{self.method} estimate of the state of the art: no solution: {self.reason}"
        if "best_model" in self.details:
            return self._per_item_text()
        notes = list(self.notes)
        if self.below_chance:
            notes.append(f"{_teams(self.below_chance)} at or below chance left out")
        if self.excluded:
            notes.append(
                f"{self.excluded:,} of the {_teams(self.m)} above chance excluded from the fitted model by Eq. 8 "
                f"(with --rho {self.details['rho']:g} their probabilities given the reference classifier would "
                "leave [0, 1])"
            )
        n = self.n
        d = max(4, min(8, round(math.log10(n)) - 1))
        rows = [
            f"{self.method} estimate of the state of the art ({_teams(self.m)} above chance, n={n:,})",
            f"  sample maximum   {self.sample_max:.{d}f}",
            f"  estimate         {self.estimate:.{d}f}",
        ]
        crop = self.method in ("crop", "cap")
        if self.weight is not None:
            # for crop and cap the fitted parameter is the crop point c, not a shrinkage weight
            rows.append(f"  {'crop point c   ' if crop else 'weight         '}  {self.weight:.6f}")
        if self.expected_max is not None:
            rows.append(f"  E max            {self.expected_max:.{d}f}")
        if self.ci_low is not None:
            rows.append(f"  95% interval     ({self.ci_low:.{d}f}, {self.ci_high:.{d}f})")
        if self.teams_above is not None:
            # the paper counts the teams above the crop point for cropping, above the estimate otherwise
            rows.append(f"  {'above c        ' if crop else 'above estimate '}  {_teams(self.teams_above)}")
        if self.details.get("engine") == "normal":
            notes.append(f"engine: {self.details['accuracy']}")
        return "\n".join(rows + [f"  note: {line}" for line in notes])

    def _per_item_text(self) -> str:
        """The text of a per-item board: its items, ``rho`` and where it came from, the best model."""
        rows = [
            f"{self.method} estimate of the state of the art ({_teams(self.m)} above chance, "
            f"n={self.n:,} items answered by all)"
        ]
        if "rho" in self.details:
            source = "measured from --per-item" if self.rho_measured else "given"
            rows.append(f"  rho_0            {self.details['rho']:.4f} ({source})")
        rows += [
            f"  best model       {self.details['best_model']} at {self.sample_max:.4f}",
            f"  estimate         {self.estimate:.4f}",
        ]
        if self.ci_low is not None and self.ci_high is not None:
            rows.append(f"  95% interval     ({self.ci_low:.4f}, {self.ci_high:.4f})")
        if self.teams_above is not None:
            rows.append(f"  above estimate   {_teams(self.teams_above)}")
        return "\n".join(rows)


def _teams(k: int) -> str:
    return f"{k:,} team{'s' if k != 1 else ''}"


def _unsolved(method: str, s: np.ndarray, n: int, below: int, reason: str, details: dict) -> SotaEstimate:
    """The answer when no parameter solves the estimator's equation: ``solved=False`` and the reason why."""
    return SotaEstimate(
        method, s.size, n, float(s.max()), None, below_chance=below, solved=False, reason=reason, details=details
    )
