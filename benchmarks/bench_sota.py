"""Chapter 4: the state of the art behind a leaderboard, on the real Obesity board and at large n (issues 12, 16).

The real board is Kaggle Playground S4E2's private leaderboard (3,587 rows,
n = 13,840), vendored in ``data/leaderboards/`` (source and licence in data/README.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sotalib.multiplicity import _noniid, estimate_sota
from sotalib.multiplicity._noniid import Empirical, feasible, max_distribution
from sotalib.multiplicity._sota import _fit_dist, prepare

from ._harness import Case
from .bench_maxdist import PeakMemory, in_subprocess

ROOT = Path(__file__).resolve().parent.parent
NAME = "playground-series-s4e2__private.csv"
N_OBESITY = 13840


def _obesity_scores() -> np.ndarray:
    from sotalib.multiplicity import read_leaderboard

    return read_leaderboard(ROOT / "data" / "leaderboards" / NAME, "score").scores


_SCORES = _obesity_scores()


def _sota_obesity():
    est = estimate_sota(_SCORES, N_OBESITY, classes=7)
    # the paper's Table 2, row 3: 0.9071 with interval (0.9084, 0.9148)
    assert (round(est.estimate, 4), round(est.ci_low, 4), round(est.ci_high, 4)) == (0.9071, 0.9084, 0.9148)
    return est


def _observed_fit(engine: str):
    """The observed model (Theta' = Theta_hat, Table 2 row 2: E max 0.9159): one exact fit."""
    s, _ = prepare(_SCORES, N_OBESITY, 1 / 7)
    theta0 = float(s.max())
    v = s[feasible(s, theta0, 0.6)]

    def swap():
        return _fit_dist(s, N_OBESITY, 0.6)[0].mean()

    def numpy_engine():
        old = _noniid._ENGINE
        _noniid._ENGINE = "numpy"
        try:
            return max_distribution(N_OBESITY, v.size, Empirical(v), rho=0.6, theta0=theta0).mean()
        finally:
            _noniid._ENGINE = old

    return swap if engine == "swap" else numpy_engine


def _board_case(n: int, target: float | None, timeout: float) -> Case:
    """``sota --n n`` on a board of 300 teams (true accuracies U(0.85, 0.9), scores drawn at n), in a subprocess."""
    note = PeakMemory(f"300 teams, n={n:,}: estimate_sota (shrink, 6 exact fits)", limit_mb=1024)
    code = (
        "import numpy as np\nfrom sotalib.multiplicity import estimate_sota\n"
        "rng = np.random.default_rng(0)\n"
        f"scores = rng.binomial({n}, 0.9 - np.abs(rng.normal(0, 0.002, 300))) / {n}\n"
        f"estimate_sota(scores, {n})"
    )
    return Case(
        f"sota --n {n:,} on 300 teams (subprocess)",
        in_subprocess(code, note, timeout=timeout),
        target=target,
        repeat=1,
        warmup=False,
        note=note,
    )


CASES = [
    Case(
        "sota: one exact fit of the real Obesity board (Table 2 row 2): swap engine vs plain NumPy",
        _observed_fit("swap"),
        target=None,
        repeat=3,
        reference=_observed_fit("numpy"),
        reference_name="NumPy engine (a convolution per K_0)",
        note="m=3,556 teams above chance (3,396 feasible), n=13,840, rho0=0.6",
    ),
    Case(
        "sota shrink: real Obesity board, S4E2 private (Table 2 row 3: 0.9071, (0.9084, 0.9148))",
        _sota_obesity,
        target=5.0,
        repeat=1,
        warmup=True,
        note="the work of `sotalib sota --n 13840 --classes 7`; the digits are checked",
    ),
    _board_case(10**5, None, 600),
    _board_case(10**6, 60.0, 600),
    _board_case(10**7, None, 300),
]
