"""The two engines of the exact maximum (NumPy and Numba) agree, and the command line avoids Numba and SciPy."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from sotalib.book.ch03_noniid import TABLE1

# private: the exact maximum's two engines (NumPy and Numba), their inputs and the choice between them
from sotalib.multiplicity import (
    Empirical,
    PointMass,
    Uniform,
    _max_dependent,
    feasible_interval,
    fixed_max_distribution,
    max_distribution,
)

TOL = 1e-12


def _aligned(a, b):
    """Both ``(xlo, F, S)`` on the union of their windows (F = 0, S = 1 left; F = 1, S = 0 right)."""
    lo = min(a[0], b[0])
    hi = max(a[0] + a[1].size, b[0] + b[1].size)
    out = []
    for xlo, F, S in (a, b):
        FF = np.ones(hi - lo)
        SS = np.zeros(hi - lo)
        FF[: xlo - lo] = 0.0
        SS[: xlo - lo] = 1.0
        FF[xlo - lo : xlo - lo + F.size] = F
        SS[xlo - lo : xlo - lo + S.size] = S
        out.append((FF, SS))
    return out


def _kernels_agree(n, m_or_zero, thetas, w, rho, theta0, y0, tol=1e-20):
    k0s, pk0, p1, p0 = _max_dependent._kernel_inputs(n, np.asarray(thetas, float), rho, theta0, y0, tol)
    args = (n, m_or_zero, k0s, pk0, p1, p0, np.asarray(w, float))
    a = _max_dependent._exact_max(*args, engine="numba")
    b = _max_dependent._exact_max(*args, engine="numpy")
    (Fa, Sa), (Fb, Sb) = _aligned(a, b)
    assert np.all(np.diff(b[1]) >= 0) and np.all(np.diff(b[2]) <= 0)  # monotone, as the kernel's
    assert np.max(np.abs(Fa - Fb)) <= TOL
    assert np.max(np.abs(Sa - Sb)) <= TOL
    # S keeps its digits in the upper tail in both engines
    big = Sa > 1e-300
    assert np.all(np.abs(Sa[big] - Sb[big]) <= 1e-9 * Sa[big] + 1e-290)


def _summaries_agree(monkeypatch, compute, alpha=0.05):
    out = []
    for engine in ("numba", "numpy"):
        monkeypatch.setattr(_max_dependent, "_ENGINE", engine)
        out.append(compute().summary(alpha))
    a, b = out
    assert a.mean == pytest.approx(b.mean, abs=TOL)
    assert a.sd == pytest.approx(b.sd, abs=TOL)
    assert (a.ci_low, a.ci_high) == (b.ci_low, b.ci_high)


def _random_case(seed):
    """A random feasible model: n in [5, 5000], m in [1, 10^6] or a fixed vector of 1-30 thetas."""
    rng = np.random.default_rng(seed)
    n = int(round(math.exp(rng.uniform(math.log(5), math.log(5000)))))
    rho = 0.0 if rng.random() < 0.2 else float(rng.uniform(-0.5, 0.9))
    theta0 = float(rng.uniform(0.05, 0.95))
    lo, hi = feasible_interval(theta0, rho)
    y0 = str(rng.choice(["random", "fixed"]))
    kind = str(rng.choice(["point", "uniform", "empirical", "fixed"]))
    m = int(round(math.exp(rng.uniform(0.0, math.log(1e6)))))
    if kind == "point":
        dist = PointMass(float(rng.uniform(lo, hi)))
    elif kind == "uniform":
        d = float(rng.uniform(0.0, min(hi - lo, 0.1)))
        a = float(rng.uniform(lo, hi - d))
        dist = Uniform(a, a + d)
    elif kind == "empirical":
        k = int(rng.integers(1, 7))
        dist = Empirical(rng.uniform(lo, hi, size=k), rng.uniform(0.1, 1.0, size=k))
    else:
        dist = rng.uniform(lo, hi, size=int(rng.integers(1, 31)))
    return n, m, dist, rho, theta0, y0


SEEDS = range(40)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_cases_kernels_agree(seed):
    n, m, dist, rho, theta0, y0 = _random_case(seed)
    if isinstance(dist, np.ndarray):
        u, counts = np.unique(dist, return_counts=True)
        _kernels_agree(n, 0, u, counts, rho, theta0, y0)
    else:
        thetas, w = _max_dependent._quadrature(dist, n, None)
        _kernels_agree(n, m, thetas, w, rho, theta0, y0)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_cases_summaries_agree(seed, monkeypatch):
    n, m, dist, rho, theta0, y0 = _random_case(seed)
    if isinstance(dist, np.ndarray):
        _summaries_agree(monkeypatch, lambda: fixed_max_distribution(n, dist, rho=rho, theta0=theta0, y0=y0))
    else:
        _summaries_agree(monkeypatch, lambda: max_distribution(n, m, dist, rho=rho, theta0=theta0, y0=y0))


@pytest.mark.parametrize("theta", [0.0, 1e-6, 0.5, 1 - 1e-6, 1.0])
@pytest.mark.parametrize("n,m", [(5, 1), (200, 10), (3000, 1000), (10**6, 10**6)])
def test_extreme_thetas(n, m, theta):
    _kernels_agree(n, m, [theta], [1.0], 0.0, 0.5, "random")
    _kernels_agree(
        n,
        0,
        [1e-6, theta, 1 - 1e-6] if theta not in (1e-6, 1 - 1e-6) else [theta],
        [2.0, 1.0, 3.0][: 3 if theta not in (1e-6, 1 - 1e-6) else 1],
        0.0,
        0.5,
        "random",
    )


def test_poisson_like_windows():
    """Skewed binomials whose window is wider than the first guess of the NumPy engine."""
    _kernels_agree(10**6, 50, [1e-5, 3e-5], [0.5, 0.5], 0.0, 0.5, "random")
    _kernels_agree(20_000, 7, [2e-4], [1.0], 0.3, 0.02, "random")


@pytest.mark.parametrize("row", TABLE1, ids=[r.label for r in TABLE1])
def test_table1_rows_engines_agree(row, monkeypatch):
    _summaries_agree(monkeypatch, lambda: max_distribution(3000, 1000, **row.kwargs()))
    kw = row.kwargs()
    dist = _max_dependent._as_dist(kw["theta_dist"])
    thetas, w = _max_dependent._quadrature(dist, 3000, None)
    _kernels_agree(3000, 1000, thetas, w, kw["rho"], kw["theta0"], kw["y0"])


def test_table1_rows_use_numpy():
    for row in TABLE1:
        kw = row.kwargs()
        dist = _max_dependent._as_dist(kw["theta_dist"])
        thetas, _ = _max_dependent._quadrature(dist, 3000, None)
        k0s, _, p1, p0 = _max_dependent._kernel_inputs(3000, thetas, kw["rho"], kw["theta0"], kw["y0"], 1e-20)
        assert _max_dependent._choose_engine(3000, 1000, k0s, p1, p0) == "numpy"


def test_bad_engine():
    with pytest.raises(ValueError, match="engine"):
        _max_dependent._exact_max(
            10, 1, np.array([10]), np.array([1.0]), np.array([0.5]), np.array([0.5]), np.ones(1), engine="x"
        )


def _modules_after(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return out.split()


def test_import_noniid_imports_neither_numba_nor_scipy():
    mods = _modules_after(
        "import sys; import sotalib.multiplicity._max_dependent; "
        "print(' '.join(m for m in sys.modules if m.split('.')[0] in ('numba', 'scipy')))"
    )
    assert mods == []


def test_cli_maxdist_table1_row5_imports_neither_numba_nor_scipy():
    mods = _modules_after(
        "import sys, io, contextlib\n"
        "from sotalib.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['maxdist', '--n', '3000', '--m', '1000', '--theta', '0.9', '--rho', '0.6',"
        " '--spread', '0.025', '--json'])\n"
        "print(' '.join(m for m in sys.modules if m.split('.')[0] in ('numba', 'scipy')))"
    )
    assert mods == []
