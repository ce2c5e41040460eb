"""The cached simulations of Chapter 5 (regenerate: ``python -m sotalib.book.cache auc_max_direct auc_rho --out DIR``).

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

DIRECT = dict(auc=0.9, n=3000, m=1000, prevalence=0.017, reps=10_000, seed=20240510)
RHOS = (0.0, 0.2, 0.4, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)
RHO_REPS = 400


def direct(out: str | Path) -> None:
    """Figure 10c's 10,000 simulated maxima, written to ``out/auc_max_direct.npz``."""
    t = time.perf_counter()
    p = DIRECT
    x = simulate_max_auc(p["auc"], p["n"], p["m"], p["prevalence"], p["reps"], p["seed"])
    u = np.rint(x * 51 * 2949).astype(np.int64)
    np.savez_compressed(Path(out) / "auc_max_direct.npz", u=u, denom=51 * 2949, **{k: v for k, v in p.items()})
    print(f"direct: {time.perf_counter() - t:.1f} s", file=sys.stderr)


def rho(out: str | Path) -> None:
    """The best AUC against rho (400 replications each), written to ``out/auc_rho.json``."""
    rows = []
    for i, r in enumerate(RHOS):
        t = time.perf_counter()
        x = simulate_max_auc(0.9, 3000, 1000, 0.017, RHO_REPS, 1000 + i, rho=r)
        s = Summary.from_samples(x)
        rows.append({"rho": r, "seed": 1000 + i, **s.to_dict()})
        print(f"rho={r}: {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
    out = {"auc": 0.9, "n": 3000, "m": 1000, "prevalence": 0.017, "reps": RHO_REPS, "rows": rows}
    (Path(out) / "auc_rho.json").write_text(json.dumps(out, indent=1) + "\n")


def load_rho():
    """The cached best AUC against ``rho`` (``data/auc_rho.json``, written by :func:`rho`) as a table.

    One row per ``rho``: the mean, standard deviation and 95% interval of the
    maximum AUC of 1,000 classifiers with AUC 0.90, n = 3,000, prevalence
    0.017, from 400 simulated challenges (seed ``1000 + i`` for the i-th
    ``rho``), and the standard error of the mean; ``attrs`` holds the setting.
    """
    from importlib import resources

    import pandas as pd

    with resources.files("sotalib.book").joinpath("data/auc_rho.json").open() as fh:
        cache = json.load(fh)
    df = pd.DataFrame(cache["rows"])[["rho", "mean", "se_mean", "sd", "ci_low", "ci_high", "seed"]]
    df.attrs.update({k: v for k, v in cache.items() if k != "rows"})
    return df
