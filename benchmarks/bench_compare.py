"""Comparing many candidates (``sotalib compare``) and rank uncertainty (``sotalib rank-uncertainty``).

``compare_candidates`` -- average ranks, Friedman and Iman-Davenport, Nemenyi's critical
difference and groups, and Wilcoxon-Holm tests of all 4,950 pairs -- on 100
candidates x 50 data sets, beside the same analysis in autorank and in
scikit-posthocs (with SciPy's Friedman test).  Both references run in the
benchmark's own environment (``.bench-venv``, created by ``make bench-venv``)
inside a persistent worker process that receives the matrix once, so their
times exclude start-up and imports; if the environment or a package is
missing the table says so.  ``estimate_rank_uncertainty`` on 10^4 items x 50
candidates x 1,000 resamples is timed beside a plain NumPy bootstrap (one
resample at a time).

The notes show each reference's value of one shared quantity: autorank's
critical difference uses the ``qsturng`` approximation of the studentized
range quantile, so it differs from ours (SciPy's exact quantile) in the fifth
digit.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np

from sotalib import PerItem
from sotalib.judging import compare_candidates, estimate_rank_uncertainty

from ._harness import Case

ROOT = Path(__file__).resolve().parent.parent
BENCH_PY = ROOT / ".bench-venv" / "bin" / "python"

_rng = np.random.default_rng(14)
#: 100 candidates x 50 data sets: candidate quality plus data-set noise.
M100 = _rng.normal(np.linspace(0, 1, 100)[:, None], 1.0, size=(100, 50))
#: 50 candidates x 10^4 items of 1/0 correctness, accuracies 0.70 to 0.75.
X50 = (_rng.random((50, 10_000)) < np.linspace(0.70, 0.75, 50)[:, None]).astype(float)

_WORKER = r"""
import json, os, sys, warnings
replies = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
warnings.simplefilter("ignore")
import numpy as np, pandas as pd
from importlib.metadata import version
have = {}
for name, mod in (("autorank", "autorank"), ("scikit-posthocs", "scikit_posthocs")):
    try:
        __import__(mod)
        have[name] = version(name)
    except Exception as exc:
        have[name] = None
print(json.dumps({"ready": have}), file=replies, flush=True)
M = None
for line in sys.stdin:
    req = json.loads(line)
    try:
        if req["kind"] == "setup":
            M = np.array(req["M"])
            df = pd.DataFrame(M.T, columns=[f"c{i}" for i in range(M.shape[0])])
            out = {"ok": True}
        elif req["kind"] == "autorank":
            from autorank import autorank
            r = autorank(df, alpha=0.05, verbose=False, force_mode="nonparametric")
            out = {"cd": float(r.cd)}
        else:
            import scikit_posthocs as sp
            from scipy.stats import friedmanchisquare
            fr = friedmanchisquare(*M)
            nem = sp.posthoc_nemenyi_friedman(M.T)
            wil = sp.posthoc_wilcoxon(list(M), p_adjust="holm")
            out = {"chi2": float(fr.statistic)}
    except Exception as exc:
        out = {"error": f"{type(exc).__name__}: {exc}"[:300]}
    print(json.dumps(out), file=replies, flush=True)
"""


class _Reference:
    """A persistent worker with autorank and scikit-posthocs in the benchmark environment."""

    def __init__(self):
        self.proc, self.have, self.error = None, {}, None
        if not BENCH_PY.exists():
            self.error = "not installed (.bench-venv missing; run make bench-venv)"
            return
        try:
            self.proc = subprocess.Popen(
                [str(BENCH_PY), "-c", _WORKER],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            self.have = json.loads(self.proc.stdout.readline())["ready"]
            self.call("setup", M=M100.tolist())
        except Exception as exc:  # the environment cannot run the worker: say so in the table
            self.error = f"unavailable: {exc}"
            self.proc = None

    def call(self, kind, **req):
        if self.proc is None:
            raise RuntimeError(self.error)
        self.proc.stdin.write(json.dumps({"kind": kind, **req}) + "\n")
        self.proc.stdin.flush()
        out = json.loads(self.proc.stdout.readline())
        if "error" in out:
            raise RuntimeError(out["error"])
        return out

    def reference(self, package: str, kind: str):
        """The timed call, or None (with the reason in the note) if the package is missing."""
        if self.proc is None:
            return None, f"{package} {self.error}"
        if not self.have.get(package):
            return None, f"{package} not installed in .bench-venv (run make bench-venv)"
        return (lambda: self.call(kind)), f"{package} {self.have[package]}"


def _plain_bootstrap(X, reps, rng):
    """The paired bootstrap one resample at a time (the reference)."""
    k, n = X.shape
    S = np.empty((reps, k))
    for r in range(reps):
        S[r] = X[:, rng.integers(0, n, size=n)].mean(axis=1)
    R = 1 + (S[:, None, :] > S[:, :, None]).sum(axis=2)
    return np.quantile(S, [0.025, 0.975], axis=0), np.quantile(R, [0.025, 0.975], axis=0), (R == 1).mean(axis=0)


_REF = _Reference()
_cmp = compare_candidates(M100)
_autorank, _autorank_note = _REF.reference("autorank", "autorank")
_posthocs, _posthocs_note = _REF.reference("scikit-posthocs", "posthocs")
_note = (
    f"CD {_cmp.critical_difference:.3f}, {len(_cmp.groups)} groups, "
    f"{int(_cmp.pairwise.significant.sum())} of 4,950 pairs differ"
)


def _agreement(ref, kind: str, key: str, ours: float, label: str) -> str:
    """The reference's value of the same quantity, as a check that both compute the same thing."""
    if ref is None:
        return ""
    try:
        theirs = _REF.call(kind)[key]
    except Exception as exc:  # report, do not stop the table
        return f"; {label}: failed ({exc})"
    return f"; {label} {theirs:.6g} (ours {ours:.6g})"


_autorank_note += _agreement(_autorank, "autorank", "cd", _cmp.critical_difference, "its CD")
_posthocs_note += _agreement(_posthocs, "posthocs", "chi2", _cmp.friedman.statistic, "SciPy's chi2_F")

CASES = [
    Case(
        "compare_candidates: 100 candidates x 50 data sets (Friedman, Nemenyi, 4,950 Wilcoxon-Holm pairs)",
        lambda: compare_candidates(M100),
        target=0.05,
        repeat=7,
        reference=_autorank,
        reference_name="autorank",
        note=f"{_note}; reference: {_autorank_note}",
    ),
    Case(
        "compare beside scikit-posthocs (Friedman, Nemenyi, Wilcoxon-Holm)",
        lambda: compare_candidates(M100),
        target=0.05,
        repeat=7,
        reference=_posthocs,
        reference_name="scikit-posthocs",
        note=f"reference: {_posthocs_note}",
    ),
    Case(
        "estimate_rank_uncertainty: 10^4 items x 50 candidates x 1,000 resamples",
        lambda: estimate_rank_uncertainty(PerItem(X50.T), n_resamples=1000, rng=1, progress=False),
        target=5.0,
        repeat=3,
        reference=lambda: _plain_bootstrap(X50, 1000, np.random.default_rng(1)),
        reference_name="plain NumPy",
        note="paired bootstrap of the items: score and rank intervals, P(first)",
    ),
]
