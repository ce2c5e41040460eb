"""Chapter 4: the state of the art behind a leaderboard, on the real Obesity board and at large n (issues 12, 16).

The real board is Kaggle Playground S4E2's private leaderboard (3,587 rows,
n = 13,840), vendored in ``data/leaderboards/`` (source and licence in data/README.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sotalib.multiplicity import Empirical, _max_dependent, estimate_sota, feasible, max_distribution
from sotalib.multiplicity._sota_model import _fit_dist, prepare

from ._harness import Case
from .bench_maxdist import PeakMemory, in_subprocess

ROOT = Path(__file__).resolve().parent.parent
NAME = "playground-series-s4e2__private.csv"
N_OBESITY = 13840


def _obesity_scores() -> np.ndarray:
    from sotalib.multiplicity import read_leaderboard

    return read_leaderboard(ROOT / "data" / "leaderboards" / NAME, score_column="score").scores


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
        old = _max_dependent._ENGINE
        _max_dependent._ENGINE = "numpy"
        try:
            return max_distribution(N_OBESITY, v.size, Empirical(v), rho=0.6, theta0=theta0).mean()
        finally:
            _max_dependent._ENGINE = old

    return swap if engine == "swap" else numpy_engine


def _normal_fit(engine: str):
    """One fit of the normal engine on a 3,000-team board at n = 10^7, by Numba or by plain NumPy."""
    from scipy.special import erfc

    from sotalib.multiplicity import _max_dependent_normal as dn
    from sotalib.multiplicity import conditional_probs

    n, rho = 10**7, 0.6
    rng = np.random.default_rng(0)
    s = rng.binomial(n, 0.9 - np.abs(rng.normal(0, 0.002, 3000))) / n
    theta0 = float(s.max())
    v = s[feasible(s, theta0, rho)]
    cache: dict = {}

    def numba_fit():
        return dn.normal_max_distribution(n, v.size, v, rho=rho, theta0=theta0).mean()

    def numpy_fit():
        # the same grid of counts, K nodes and Edgeworth tails, summed by NumPy
        u, wts = np.unique(v, return_counts=True)
        u, wts = dn._binned(u[::-1], (wts / wts.sum())[::-1], n, rho)
        p1, p0 = conditional_probs(u, theta0, rho)
        ks, wk = dn._k_nodes(n, v.size, theta0, rho, u, p1, p0, 1e-12)
        if "window" not in cache:  # the window of counts, found once (not timed after the warm-up)
            d = dn.normal_max_distribution(n, v.size, v, rho=rho, theta0=theta0)
            cache["window"] = (d.lo, d.hi)
        lo, hi = cache["window"]
        xs = np.arange(lo, hi + 1, max(1, (hi - lo) // 400), dtype=float)
        F = np.zeros(xs.size)
        for k, w in zip(ks, wk):
            G = np.zeros(xs.size)
            for i in range(u.size):
                a, var, g1, g2 = dn._moments(k, n, p1[i], p0[i])
                t = (xs + 0.5 - a) / np.sqrt(var)
                phi = np.exp(-0.5 * t * t) / np.sqrt(2 * np.pi)
                corr = phi * (
                    g1 * (t * t - 1) / 6 + g2 * t * (t * t - 3) / 24 + g1 * g1 * t * (t**4 - 10 * t * t + 15) / 72
                )
                G += wts[i] * np.clip(0.5 * erfc(t / np.sqrt(2)) + corr, 0, 1)
            F += w * np.exp(v.size * np.log1p(-np.minimum(G, 1 - 1e-16)))
        return F

    return numba_fit if engine == "numba" else numpy_fit


def _board_code(n: int, teams: int, fused: int = 4, engine: str = "exact") -> str:
    """``estimate_sota`` on a board of ``teams`` teams (true accuracies 0.9 - |N(0, 0.002)|, scores drawn at n)."""
    return (
        "import numpy as np\nfrom sotalib.multiplicity import estimate_sota, _max_dependent_swap\n"
        f"_max_dependent_swap._FUSED = {fused}\n"
        "rng = np.random.default_rng(0)\n"
        f"scores = rng.binomial({n}, 0.9 - np.abs(rng.normal(0, 0.002, {teams}))) / {n}\n"
        f"estimate_sota(scores, {n}, engine={engine!r})"
    )


def _board_case(
    n: int, target: float | None, timeout: float, reference: bool = False, teams: int = 300, engine: str = "exact"
) -> Case:
    """``sota --n n`` on a board of ``teams`` teams, in a subprocess (time and peak memory).

    With ``reference`` the same exact fits by the previous path (one step of K per pass
    of the swap engine; bitwise the same distributions) run beside it.
    """
    note = PeakMemory(f"{teams:,} teams, n={n:,}: estimate_sota (shrink, engine={engine})", limit_mb=1024)
    ref = in_subprocess(_board_code(n, teams, fused=1), PeakMemory("previous path"), timeout=timeout)
    return Case(
        f"sota --n {n:,} on {teams:,} teams, engine {engine} (subprocess)",
        in_subprocess(_board_code(n, teams, engine=engine), note, timeout=timeout),
        target=target,
        repeat=1,
        warmup=False,
        reference=ref if reference else None,
        reference_name="previous path: one step of K per pass" if reference else "",
        note=note,
    )


#: The conditional log-cdf of the normal approximation in plain NumPy (scipy's log_ndtr), teams in blocks:
#: the reference the compiled kernel of ``sotalib.multiplicity._auc_normal`` is timed against.  It takes the
#: kernel's arguments (the last one is the count of teams sharing each AUC, which multiplies their log Phi)
#: and computes the same array (every term, without the kernel's early exits), so that the whole estimate,
#: brentq's path included, is the library's.  (Until issue 32 it took ``_CUT`` in place of the counts and
#: crashed on its first call: the table showed the time to that crash, 2.2-3.6 s, as the reference's.)
_NUMPY_KERNEL = """
from scipy.special import log_ndtr
from sotalib.multiplicity import _auc_normal

def _numpy_log_conditional_cdf(grid, zetas, aucs, sd, g, b, s, counts):
    cut = _auc_normal._CUT
    out = np.zeros((zetas.size, grid.size))
    for j0 in range(0, aucs.size, 256):
        sl = slice(j0, j0 + 256)
        y = s[sl, None] * _auc_normal._inv_psi((grid[None, :] - aucs[sl, None]) / sd[sl, None], g[sl, None])
        for k, z in enumerate(zetas):
            x = y - b[sl, None] * z
            out[k] += (counts[sl, None] * np.where(x > cut, 0.0, log_ndtr(np.minimum(x, cut)))).sum(axis=0)
    return out

_auc_normal._log_conditional_cdf = _numpy_log_conditional_cdf
"""


def _auc_board_code(n: int, teams: int, numpy_kernel: bool = False) -> str:
    """``estimate_sota(metric="auc")`` on ``teams`` teams with AUC ``0.9 - |N(0, 0.004)|`` at ``n``, prevalence 0.3."""
    return (
        "import numpy as np\nfrom sotalib.multiplicity import estimate_sota\n"
        + (_NUMPY_KERNEL if numpy_kernel else "")
        + "rng = np.random.default_rng(0)\n"
        f"aucs = 0.9 - np.abs(rng.normal(0, 0.004, {teams}))\n"
        f"est = estimate_sota(aucs, {n}, metric='auc', prevalence=0.3, rng=0)\n"
        "assert est.solved and est.details['engine'] == 'normal', est\n"
        "print('ESTIMATE', repr(est.estimate), repr(est.ci_low), repr(est.ci_high))\n"
    )


class _SameEstimate(PeakMemory):
    """The note of an AUC board: peak memory, and whether the estimate equals the NumPy reference's."""

    def __init__(self, text: str, reference: PeakMemory, limit_mb: float | None = None):
        super().__init__(text, limit_mb)
        self.reference = reference

    def __str__(self) -> str:
        ours, theirs = (
            [[float(v) for v in line.split()[1:]] for line in note.stdout.splitlines() if line.startswith("ESTIMATE")]
            for note in (self, self.reference)
        )
        if not (ours and theirs):
            return super().__str__()
        diff = float(np.max(np.abs(np.subtract(ours[-1], theirs[-1]))))
        return f"{super().__str__()}; estimate and interval equal the reference's to {diff:.0e}"


def _auc_board_case(n: int, teams: int, target: float | None, timeout: float) -> Case:
    """``sota --metric auc`` on a board of ``teams`` teams at test-set size ``n`` (prevalence 0.3), in a subprocess.

    The default engine there is the normal approximation (the simulation would draw ``teams x 200 x n``
    scores per evaluation: about an hour each for 1,000 teams at n = 200,000, measured at 2
    replications); the reference evaluates the same integral with plain NumPy.
    """
    ref_note = PeakMemory("NumPy")
    note = _SameEstimate(
        f"{teams:,} teams, n={n:,}, prevalence 0.3, rho 0.6: shrink_auc (normal engine)", ref_note, limit_mb=1024
    )
    ref = in_subprocess(_auc_board_code(n, teams, numpy_kernel=True), ref_note, timeout=timeout, strict=True)
    return Case(
        f"sota --metric auc --n {n:,} on {teams:,} teams (subprocess)",
        in_subprocess(_auc_board_code(n, teams), note, timeout=timeout),
        target=target,
        repeat=1,
        warmup=False,
        reference=ref,
        reference_name="the same integral in plain NumPy (scipy.special.log_ndtr, teams in blocks)",
        note=note,
    )


#: The Open LLM Leaderboard v1's MMLU column (IBM/benchbench, vendored in data/llm/; a model listed twice once):
#: a board of the size the issue names (about 1,800 models), on MMLU's 14,042 questions with 4 options, with
#: the dependence measured on MMLU-Pro carried over as the chapter does (rho0 0.60).
_LLM_BOARD = ROOT / "data" / "llm" / "open_llm_v1.csv"


def _llm_board_code(fused: int = 4) -> str:
    """``estimate_sota`` with the default engine on the Open LLM v1 MMLU board, as the chapter calls it."""
    return (
        "import pandas as pd\nfrom sotalib.multiplicity import estimate_sota, _max_dependent_swap\n"
        f"_max_dependent_swap._FUSED = {fused}\n"
        f"v1 = pd.read_csv({str(_LLM_BOARD)!r}).drop_duplicates('model')\n"
        "est = estimate_sota(v1['mmlu'] / 100, 14_042, classes=4, rho=0.60)\n"
        "assert est.solved and est.m > 1_500, est\n"
    )


def _llm_board_case(target: float, timeout: float) -> Case:
    """``sota`` on the real 1,756-model Open LLM v1 MMLU board, default engine, in a subprocess."""
    import pandas as pd

    models = pd.read_csv(_LLM_BOARD)["model"].nunique()
    note = PeakMemory(
        f"{models:,} models, n=14,042, 4 classes, rho0 0.60: estimate_sota (shrink, engine auto)", limit_mb=1024
    )
    return Case(
        f"sota on the Open LLM Leaderboard v1's MMLU board: {models:,} models, n = 14,042 (subprocess)",
        in_subprocess(_llm_board_code(), note, timeout=timeout),
        target=target,
        repeat=1,
        warmup=False,
        reference=in_subprocess(_llm_board_code(fused=1), PeakMemory("previous path"), timeout=timeout),
        reference_name="previous path: one step of K per pass",
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
    _board_case(10**5, None, 600, reference=True),
    _board_case(10**6, 60.0, 600, reference=True),
    _board_case(10**7, None, 300),
    # issue 16's large boards: "auto" approximates where the exact model would take minutes
    Case(
        "one fit at n = 10,000,000 on 3,000 teams: normal engine vs plain NumPy of the same formulas",
        _normal_fit("numba"),
        target=None,
        repeat=3,
        reference=_normal_fit("numpy"),
        reference_name="plain NumPy (SciPy's erfc, a loop over K and values)",
        note="m=3,000, rho0=0.6; the Edgeworth tails, trapezoidal K nodes and count grid of the engine",
    ),
    _board_case(10**5, 60.0, 300, teams=3000, engine="auto"),
    _board_case(10**6, 60.0, 300, teams=3000, engine="auto"),
    _board_case(10**7, 60.0, 300, teams=3000, engine="auto"),
    _auc_board_case(200_000, 1000, 60.0, 600),
    _auc_board_case(10**7, 3000, 60.0, 600),
    # issue 26: an LLM leaderboard of about 1,800 models, under a minute on 2 cores
    _llm_board_case(60.0, 600),
]
