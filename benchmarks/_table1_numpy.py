"""Table 1 of Møllersen & Holsbø, exactly, in plain NumPy: the reference of ``bench_startup``.

``python benchmarks/_table1_numpy.py [--check]`` prints the mean, standard
deviation and 95% interval of the best accuracy ``max_j X_j / n`` of
``m = 1000`` classifiers on ``n = 3000`` items with ``theta_SOTA = 0.9`` for the
five rows of Table 1.  It does not import sotalib: the model is written out
again from the equations (``sotalib/multiplicity/_max_dependent.py``, Eqs. 6-8), the
way a competent user would compute it with NumPy and ``scipy.stats.binom``.
With ``--check`` it also runs ``sotalib maxdist ... --json`` for each row and
asserts that mean and sd agree to 1e-6 (and the interval exactly).

The model.  A reference classifier ``Y_0`` gets ``K_0 ~ B(n, theta0)`` items
right (or exactly ``round(n theta0)`` with ``--y0 fixed``), ``theta0 = theta``.
Given ``K_0 = k0`` the classifiers are independent; classifier ``j`` gets
``X1 ~ B(k0, p1)`` right among the ``k0`` items ``Y_0`` got right and
``X0 ~ B(n - k0, p0)`` among the others, with (Eqs. 6-7)

    s  = rho sqrt(theta (1 - theta) theta0 (1 - theta0))
    p1 = (s + theta theta0) / theta0
    p0 = (-s + theta (1 - theta0)) / (1 - theta0)

(``p1 = p0 = theta`` when ``rho = 0``, and then ``k0`` does not matter).  For
non-identical classifiers ``theta_j ~ U(a, b)`` with ``b = theta + d/(m+1)``,
``a = b - d``, so that ``E max theta_j = theta``.  Then

    P(max_j X_j <= x) = sum_k0 P(K_0 = k0) [E_theta P(X1 + X0 <= x | k0, theta)]^m,

the expectation by Gauss-Legendre quadrature over ``[a, b]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import numpy as np
from scipy.stats import binom

N, M, THETA, SPREAD, RHO = 3000, 1000, 0.9, 0.025, 0.6
ALPHA = 0.05
#: Gauss-Legendre nodes over [a, b] (checked: 16 and 48 nodes agree to 1e-12 here).
NODES = 16
#: K_0 values whose probability is below this are left out (and the rest renormalised).
K0_EPS = 1e-16

#: (label, spread, rho, y0): the five rows of Table 1.
ROWS = [
    ("4.1 identical, independent", 0.0, 0.0, "random"),
    ("4.1 non-identical (d = 0.025)", SPREAD, 0.0, "random"),
    ("4.2 dependent, random Y0", 0.0, RHO, "random"),
    ("4.2 dependent, fixed Y0", 0.0, RHO, "fixed"),
    ("4.3 non-identical and dependent", SPREAD, RHO, "random"),
]


def cli_args(spread: float, rho: float, y0: str) -> list[str]:
    """The ``sotalib maxdist`` arguments of one row."""
    args = ["maxdist", "--n", str(N), "--m", str(M), "--theta", str(THETA), "--json"]
    if spread:
        args += ["--spread", str(spread)]
    if rho:
        args += ["--rho", str(rho)]
    if y0 != "random":
        args += ["--y0", y0]
    return args


def max_cdf(n: int, m: int, theta: float, spread: float, rho: float, y0: str) -> np.ndarray:
    """``P(max_j X_j <= x)`` for ``x = 0, ..., n``."""
    theta0 = theta
    # classifiers' accuracies: one value, or Gauss-Legendre nodes on [a, b]
    if spread == 0:
        th, w = np.array([theta]), np.array([1.0])
    else:
        b = theta + spread / (m + 1)
        a = b - spread
        u, wu = np.polynomial.legendre.leggauss(NODES)
        th, w = a + (b - a) * (u + 1) / 2, wu / 2
    # conditional probabilities given Y_0 (Eqs. 6-7)
    if rho == 0:
        p1, p0 = th, th
    else:
        s = rho * np.sqrt(th * (1 - th) * theta0 * (1 - theta0))
        p1 = (s + th * theta0) / theta0
        p0 = (-s + th * (1 - theta0)) / (1 - theta0)
    # values of K_0 and their probabilities
    if rho == 0:
        k0, pk0 = np.array([n]), np.array([1.0])
    elif y0 == "fixed":
        k0, pk0 = np.array([int(np.floor(n * theta0 + 0.5))]), np.array([1.0])
    else:
        k0 = np.arange(n + 1)
        pk0 = binom.pmf(k0, n, theta0)
        keep = pk0 > K0_EPS
        k0, pk0 = k0[keep], pk0[keep] / pk0[keep].sum()
    # G[k0, x] = E_theta P(X1 + X0 <= x | k0, theta): convolve the two binomials by FFT
    x = np.arange(n + 1)
    nfft = 2 * (n + 1)
    G = np.zeros((k0.size, n + 1))
    for wj, p1j, p0j in zip(w, p1, p0):
        f1 = binom.pmf(x[None, :], k0[:, None], p1j)
        f0 = binom.pmf(x[None, :], n - k0[:, None], p0j)
        pmf = np.fft.irfft(np.fft.rfft(f1, nfft) * np.fft.rfft(f0, nfft), nfft)[:, : n + 1]
        G += wj * np.cumsum(np.clip(pmf, 0, None), axis=1)
    G = np.minimum(G, 1.0)
    return pk0 @ G**m


def summary(F: np.ndarray, n: int, alpha: float = ALPHA) -> dict:
    """Mean, sd and equal-tailed interval (smallest x with F(x) >= q) of max / n."""
    acc = np.arange(F.size) / n
    pmf = np.diff(F, prepend=0.0)
    mean = float(acc @ pmf)
    sd = float(np.sqrt(((acc - mean) ** 2) @ pmf))
    lo = float(acc[np.argmax(F >= alpha / 2)])
    hi = float(acc[np.argmax(F >= 1 - alpha / 2)])
    return {"mean": mean, "sd": sd, "ci_low": lo, "ci_high": hi}


def table1() -> list[dict]:
    return [summary(max_cdf(N, M, THETA, spread, rho, y0), N) for _, spread, rho, y0 in ROWS]


def check(results: list[dict]) -> None:
    """Compare each row with ``sotalib maxdist ... --json`` (run as a process)."""
    exe = Path(sysconfig.get_path("scripts")) / "sotalib"
    for (label, spread, rho, y0), ours in zip(ROWS, results):
        out = subprocess.run([str(exe), *cli_args(spread, rho, y0)], capture_output=True, text=True, check=True)
        cli = json.loads(out.stdout)
        dm, ds = abs(ours["mean"] - cli["mean"]), abs(ours["sd"] - cli["sd"])
        same_interval = abs(ours["ci_low"] - cli["ci_low"]) < 1e-12 and abs(ours["ci_high"] - cli["ci_high"]) < 1e-12
        print(f"check {label}: |d mean| = {dm:.1e}, |d sd| = {ds:.1e}, same interval: {same_interval}")
        assert dm <= 1e-6 and ds <= 1e-6 and same_interval, (label, ours, cli)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with sotalib maxdist --json (1e-6)")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    results = table1()
    elapsed = time.perf_counter() - t0
    for (label, *_), r in zip(ROWS, results):
        print(f"{label:34s} mean {r['mean']:.6f}  sd {r['sd']:.6f}  95% ({r['ci_low']:.6f}, {r['ci_high']:.6f})")
    print(f"computed in {elapsed:.2f} s")
    if args.check:
        check(results)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
