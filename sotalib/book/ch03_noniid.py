"""Section 4 of Møllersen & Holsbø, reproduced exactly: Table 1 and Figures 5--6.

The paper computes these by Monte Carlo; here the numbers come from
:func:`sotalib.multiplicity.max_distribution`, with the project's own Monte Carlo
(:func:`sotalib.multiplicity.simulate_max`) as the independent check.  Results that
take minutes (the Monte Carlo table at ``10**5`` replications, the grid of
Figure 5) are cached as small JSON files in ``sotalib/book/data`` together with the
parameters that produced them; :func:`load_or_compute` recomputes when the
parameters differ, and the tests recompute cached points.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from ..multiplicity import (
    Summary,
    feasible_interval,
    max_distribution,
    simulate_max,
    uniform_for_sota,
)
from .papers import TABLE1_ROWS

__all__ = [
    "N",
    "M",
    "THETA_SOTA",
    "D",
    "RHO0",
    "Row",
    "TABLE1",
    "table1_monte_carlo",
    "rho_max_uniform",
    "bias_sd_vs_spread",
    "bias_sd_vs_rho",
    "figure5_data",
    "figure5_cached",
    "table1_mc_cached",
    "load_or_compute",
    "plot_figure5",
]

#: The set-up of Sections 3.4 and 4: test-set size, classifiers, state of the art.
N, M, THETA_SOTA = 3000, 1000, 0.90
#: Width of U(a, b) (Section 4.1) and correlation with the reference classifier (Section 4.2).
D, RHO0 = 0.025, 0.6


@dataclass(frozen=True)
class Row:
    """One row of Table 1: the model and the paper's printed values."""

    label: str
    section: str
    d: float
    rho: float
    y0: str
    paper_mean: float
    paper_sd: float
    paper_upper: float
    paper_source: str

    def kwargs(self) -> dict:
        dist = (
            uniform_for_sota(THETA_SOTA, self.d, M)
            if self.d > 0
            else THETA_SOTA
        )
        return dict(
            theta_dist=dist, rho=self.rho, theta0=THETA_SOTA, y0=self.y0
        )


#: Table 1 of the JMLR version, plus the fixed-reference row of the second arXiv version
#: (the printed values live in :data:`sotalib.book.papers.TABLE1_ROWS`).
TABLE1 = tuple(Row(*row) for row in TABLE1_ROWS)


def table1_monte_carlo(
    reps: int = 100_000, seed: int = 2025, alpha: float = 0.05
) -> list[Summary]:
    """Monte Carlo summaries of the rows of :data:`TABLE1`; row ``i`` uses seed ``seed + i``."""
    out = []
    for i, row in enumerate(TABLE1):
        kw = row.kwargs()
        dist = kw.pop("theta_dist")
        out.append(
            simulate_max(
                N, M, dist, **kw, n_resamples=reps, rng=seed + i, alpha=alpha
            )
        )
    return out


def rho_max_uniform(a: float, b: float, theta0: float) -> float:
    """Largest ``rho >= 0`` for which Eq. 8 and its twin hold on all of ``[a, b]``."""
    # Eq. 8 at a: rho^2 <= a (1 - theta0) / (theta0 (1 - a)); Eq. 6 at b: rho^2 <= theta0 (1 - b) / (b (1 - theta0))
    r2 = math.inf
    if a < theta0:
        r2 = min(r2, a * (1 - theta0) / (theta0 * (1 - a)))
    if b > theta0:
        r2 = min(r2, theta0 * (1 - b) / (b * (1 - theta0)))
    r = min(1.0, math.sqrt(r2))
    # guard against rounding at the boundary
    while r > 0 and not (
        feasible_interval(theta0, r)[0] <= a + 1e-12
        and b <= feasible_interval(theta0, r)[1] + 1e-12
    ):
        r = np.nextafter(r, 0.0)
    return float(r)


def bias_sd_vs_spread(
    ds, *, n: int = N, m: int = M, theta_sota: float = THETA_SOTA
) -> tuple[np.ndarray, np.ndarray]:
    """Bias ``E theta_hat_max - theta_SOTA`` and sd against the width ``d`` (Figure 5a, independent)."""
    out = [
        max_distribution(
            n,
            m,
            uniform_for_sota(theta_sota, float(d), m) if d > 0 else theta_sota,
        )
        for d in ds
    ]
    return np.array([o.mean() - theta_sota for o in out]), np.array(
        [o.sd() for o in out]
    )


def bias_sd_vs_rho(
    rhos,
    d: float,
    *,
    n: int = N,
    m: int = M,
    theta_sota: float = THETA_SOTA,
    theta0: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Bias and sd against ``rho_0`` for ``theta_j ~ U(a, b)`` of width ``d`` (Figures 5b, 5c).

    ``theta0`` defaults to ``theta_SOTA``.  Values of ``rho`` beyond
    :func:`rho_max_uniform` (Eq. 8 bites) give NaN: the curves are right-truncated.
    """
    theta0 = theta_sota if theta0 is None else theta0
    dist = uniform_for_sota(theta_sota, d, m) if d > 0 else theta_sota
    a, b = (dist.a, dist.b) if d > 0 else (theta_sota, theta_sota)
    rmax = rho_max_uniform(a, b, theta0)
    bias, sd = [], []
    for r in rhos:
        if r > rmax:
            bias.append(np.nan)
            sd.append(np.nan)
            continue
        dd = max_distribution(n, m, dist, rho=float(r), theta0=theta0)
        bias.append(dd.mean() - theta_sota)
        sd.append(dd.sd())
    return np.array(bias), np.array(sd)


#: Grids of Figure 5.
FIG5_DS = tuple(np.round(np.linspace(0.0, 0.1, 41), 6))
FIG5_RHO_DS = (0.0, 0.025, 0.05, 0.075, 0.1)
FIG5_RHOS = tuple(np.round(np.linspace(0.0, 0.95, 20), 6))


def figure5_data(ds=FIG5_DS, rho_ds=FIG5_RHO_DS, rhos=FIG5_RHOS) -> dict:
    """Everything Figure 5 plots: bias and sd against ``d`` and, for each ``d`` in ``rho_ds``, against ``rho``.

    Each ``rho`` curve also gets its end point at :func:`rho_max_uniform`
    (where Eq. 8 truncates it; ``rho = 1`` for identical classifiers, where
    every classifier copies the reference and the bias vanishes).
    """
    bias_d, sd_d = bias_sd_vs_spread(ds)
    curves = {}
    for d in rho_ds:
        dist = uniform_for_sota(THETA_SOTA, d, M) if d > 0 else None
        a, b = (dist.a, dist.b) if dist else (THETA_SOTA, THETA_SOTA)
        rmax = rho_max_uniform(a, b, THETA_SOTA)
        rs = [r for r in rhos if r < rmax]
        if (
            rmax == 1.0
        ):  # identical classifiers: resolve the steep drop to zero bias at rho = 1
            rs += [r for r in (0.97, 0.98, 0.99, 0.995, 0.999) if r > rs[-1]]
        rs += [rmax]
        bias, sd = bias_sd_vs_rho(rs, d)
        curves[repr(float(d))] = {
            "rho": [float(r) for r in rs],
            "bias": bias.tolist(),
            "sd": sd.tolist(),
            "rho_max": rmax,
        }
    return {
        "params": {
            "n": N,
            "m": M,
            "theta_sota": THETA_SOTA,
            "theta0": THETA_SOTA,
            "ds": list(map(float, ds)),
            "rho_ds": list(map(float, rho_ds)),
            "rhos": list(map(float, rhos)),
        },
        "spread": {
            "d": list(map(float, ds)),
            "bias": bias_d.tolist(),
            "sd": sd_d.tolist(),
        },
        "rho": curves,
    }


def _data_path(name: str) -> Path:
    return Path(str(resources.files("sotalib.book").joinpath("data", name)))


def load_or_compute(
    name: str, params: dict, compute, *, out: str | Path | None = None
) -> dict:
    """Cached result ``sotalib/book/data/<name>`` if its ``params`` match, else ``compute()``.

    Nothing is written unless ``out`` names a folder: then the result is computed
    afresh and stored there (``python -m sotalib.book.cache NAME --out FOLDER``).
    """
    path = _data_path(name)
    if path.exists() and out is None:
        cached = json.loads(path.read_text())
        if cached.get("params") == json.loads(json.dumps(params)):
            return cached
    result = compute()
    result["params"] = json.loads(json.dumps(params))
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / name).write_text(json.dumps(result, indent=1) + "\n")
    return result


def table1_mc_cached(
    reps: int = 100_000, seed: int = 2025, *, out: str | Path | None = None
) -> list[Summary]:
    """:func:`table1_monte_carlo` from the cache ``noniid_table1_mc.json`` (row ``i`` uses ``rng = seed + i``).

    Regenerate: ``python -m sotalib.book.cache noniid_table1_mc --out sotalib/book/data``.
    """
    params = {
        "reps": reps,
        "seed": seed,
        "rows": [r.label for r in TABLE1],
        "n": N,
        "m": M,
    }
    data = load_or_compute(
        "noniid_table1_mc.json",
        params,
        lambda: {
            "rows": [s.to_dict() for s in table1_monte_carlo(reps, seed)]
        },
        out=out,
    )
    return [Summary(**row) for row in data["rows"]]


def figure5_cached(*, out: str | Path | None = None) -> dict:
    """:func:`figure5_data` from the cache ``noniid_figure5.json`` (exact).

    Regenerate: ``python -m sotalib.book.cache noniid_figure5 --out sotalib/book/data``.
    """
    params = {
        "n": N,
        "m": M,
        "theta_sota": THETA_SOTA,
        "theta0": THETA_SOTA,
        "ds": list(map(float, FIG5_DS)),
        "rho_ds": list(map(float, FIG5_RHO_DS)),
        "rhos": list(map(float, FIG5_RHOS)),
    }
    return load_or_compute(
        "noniid_figure5.json", params, figure5_data, out=out
    )


def plot_figure5(data: dict):
    """Figure 5: (a) bias and sd against ``d``; (b) bias and (c) sd against ``rho_0`` for several ``d``."""
    import matplotlib.pyplot as plt

    from .style import COLORS

    # (a) above (b) and (c): at the width of the book's text column every label stays readable
    fig, axd = plt.subplot_mosaic([["a", "a"], ["b", "c"]], figsize=(8, 6.4))
    ax_a, ax_b, ax_c = axd["a"], axd["b"], axd["c"]
    sp = data["spread"]
    ax_a.plot(sp["d"], sp["bias"], color=COLORS["reference"], label="bias")
    ax_a.plot(sp["d"], sp["sd"], color=COLORS["single"], ls="--", label="sd")
    ax_a.axvline(D, color="0.5", lw=1.0, zorder=0)
    for d in FIG5_RHO_DS[1:]:
        if d != D:
            ax_a.axvline(d, color="0.7", lw=0.8, ls="--", zorder=0)
    ax_a.set_xlabel(r"width $d = b - a$ of $\mathcal{U}(a, b)$")
    ax_a.set_ylabel("bias and sd (accuracy)")
    ax_a.set_title("(a)", loc="left")
    ax_a.legend()
    styles = ["-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1))]
    for i, (key, cur) in enumerate(data["rho"].items()):
        d = float(key)
        kw = dict(
            color=COLORS["better"] if d == 0 else COLORS["reference"],
            ls="-" if d in (0.0, D) else styles[i % 5],
            label=("identical, $d = 0$" if d == 0 else f"$d = {d:g}$"),
        )
        ax_b.plot(cur["rho"], cur["bias"], **kw)
        ax_c.plot(cur["rho"], cur["sd"], **kw)
        if cur["rho_max"] < 1:
            ax_b.plot(
                cur["rho"][-1], cur["bias"][-1], "o", ms=3, color=kw["color"]
            )
            ax_c.plot(
                cur["rho"][-1], cur["sd"][-1], "o", ms=3, color=kw["color"]
            )
    for ax, lab in ((ax_b, "bias"), (ax_c, "standard deviation")):
        ax.axvline(RHO0, color="0.5", lw=1.0, zorder=0)
        ax.set_xlabel(r"correlation $\rho_0$ with the reference")
        ax.set_ylabel(lab)
    ax_b.set_title("(b)", loc="left")
    ax_c.set_title("(c)", loc="left")
    ax_b.legend()
    ymax = (
        max(max(sp["bias"]), max(max(c["bias"]) for c in data["rho"].values()))
        * 1.08
    )
    for ax in (ax_a, ax_b):
        ax.set_ylim(0, ymax)
    ax_c.set_ylim(0, None)
    return fig


def _decimals(printed: float) -> int:
    """Decimals of a value of Table 1 as printed: 0.9140 -> 4 (the paper prints at least four),
    0.001484 -> 6."""
    text = f"{printed:.10f}".rstrip("0")
    return max(4, len(text.split(".")[1]))


def table1_comparison(exact, simulated):
    """Table 3.1 in long format: per row of :data:`TABLE1` and quantity, paper, exact, simulated.

    ``exact`` and ``simulated`` are the summaries of the five rows (exact, and Monte Carlo with
    ``se_mean``); "agrees" compares the exact value with the paper's at its printed precision.
    """
    import pandas as pd

    out = []
    for row, ex, sim in zip(TABLE1, exact, simulated, strict=True):
        model = f"{row.section} {row.label}".replace("$Y_0$", "Y₀").replace(
            "$y_0$", "y₀"
        )
        for quantity, paper, value, mc in (
            (
                "E max",
                row.paper_mean,
                ex.mean,
                f"{sim.mean:.6f} ± {sim.se_mean:.6f}",
            ),
            ("sd", row.paper_sd, ex.sd, f"{sim.sd:.6f}"),
            ("upper end", row.paper_upper, ex.ci_high, f"{sim.ci_high:.4f}"),
        ):
            k = _decimals(paper)
            out.append(
                (
                    model,
                    quantity,
                    f"{paper:.{k}f}",
                    f"{value:.{max(k, 6)}f}",
                    mc,
                    round(value, k) == paper,
                )
            )
    return pd.DataFrame(
        out,
        columns=[
            "model (paper's row)",
            "quantity",
            "paper",
            "exact",
            "simulated",
            "agrees",
        ],
    )
