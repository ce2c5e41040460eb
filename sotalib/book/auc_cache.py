"""Regenerate the cached simulations of Chapter 5: ``python -m sotalib.book.auc_cache [direct|rho]``.

The chapter reads these small files instead of re-running minutes of
simulation every time the book builds:

* ``data/auc_max_direct.npz``: 10,000 simulated maxima of m = 1,000
  independent classifiers with AUC 0.90 on n = 3,000 items, prevalence 0.017
  (the paper's Figure 10c setting), seed 20240510;
* ``data/auc_rho.json``: mean, sd and 95% interval of the maximum AUC for
  classifiers correlated with a hidden reference classifier, per ``rho``
  (400 replications each, seeds ``1000 + i``).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from ..multiplicity import Summary, simulate_max_auc

DATA = Path(__file__).parent / "data"
DIRECT = dict(auc=0.9, n=3000, m=1000, prevalence=0.017, reps=10_000, seed=20240510)
RHOS = (0.0, 0.2, 0.4, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)
RHO_REPS = 400


def direct() -> None:
    t = time.perf_counter()
    p = DIRECT
    x = simulate_max_auc(p["auc"], p["n"], p["m"], p["prevalence"], p["reps"], p["seed"])
    u = np.rint(x * 51 * 2949).astype(np.int64)
    np.savez_compressed(DATA / "auc_max_direct.npz", u=u, denom=51 * 2949, **{k: v for k, v in p.items()})
    print(f"direct: {time.perf_counter() - t:.1f} s", file=sys.stderr)


def rho() -> None:
    rows = []
    for i, r in enumerate(RHOS):
        t = time.perf_counter()
        x = simulate_max_auc(0.9, 3000, 1000, 0.017, RHO_REPS, 1000 + i, rho=r)
        s = Summary.from_samples(x)
        rows.append({"rho": r, "seed": 1000 + i, **s.to_dict()})
        print(f"rho={r}: {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
    out = {"auc": 0.9, "n": 3000, "m": 1000, "prevalence": 0.017, "reps": RHO_REPS, "rows": rows}
    (DATA / "auc_rho.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    what = sys.argv[1:] or ["direct", "rho"]
    for w in what:
        {"direct": direct, "rho": rho}[w]()
