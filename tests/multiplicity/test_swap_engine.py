"""The swap engine (one Bernoulli exchanged per step of K_0) against the per-K_0 engines.

The swap engine carries the pmf of ``B(K, p1) + B(n - K, p0)`` from ``K`` to
``K - 1``; it is exact up to rounding, so it must agree with the NumPy engine
(a convolution for every ``K_0``) to the same 1e-12 the two older engines
agree to, keep the upper tail's relative digits where both engines resolve it,
and give the leaderboard fits the digits the paper prints.
"""

from __future__ import annotations

import numpy as np
import pytest

# private: the swap engine against the per-K_0 engines is the subject
from sotalib.multiplicity import (
    Empirical,
    _max_dependent,
    _max_dependent_swap,
    conditional_probs,
    max_distribution,
    uniform_for_sota,
)

from .test_noniid_engines import _aligned

TOL = 1e-12


def _engines(n, m, thetas, w, rho, theta0):
    thetas = np.asarray(thetas, float)
    k0s, pk0, p1, p0 = _max_dependent._kernel_inputs(n, thetas, rho, theta0, "random", 1e-20)
    args = (n, m, k0s, pk0, p1, p0, np.asarray(w, float))
    return _max_dependent._exact_max(*args, engine="swap", thetas=thetas), _max_dependent._exact_max(
        *args, engine="numpy"
    )


CASES = [
    (3000, 1000, [0.9], [1.0], 0.6, 0.9),  # Table 1, row 4.2
    (3000, 100, [0.7], [1.0], 0.3, 0.75),
    (20000, 1000, [0.9], [1.0], 0.6, 0.9),
    (20000, 100000, [0.95], [1.0], 0.8, 0.95),
    (5000, 300, [0.80, 0.85, 0.86, 0.9], [0.1, 0.2, 0.3, 0.4], 0.6, 0.9),
]


@pytest.mark.parametrize("case", CASES)
def test_swap_agrees_with_numpy_engine(case):
    a, b = _engines(*case)
    (Fa, Sa), (Fb, Sb) = _aligned(a, b)
    assert np.max(np.abs(Fa - Fb)) <= TOL
    assert np.max(np.abs(Sa - Sb)) <= TOL
    # relative digits of the upper tail, where the NumPy engine's per-K_0 truncation (1e-25) cannot be seen
    big = Sb > 1e-12
    assert np.all(np.abs(Sa[big] - Sb[big]) <= 1e-10 * Sb[big])
    assert np.all(np.diff(a[1]) >= -1e-15) and np.all(np.diff(a[2]) <= 1e-15)


def test_swap_uniform_nodes_table1_row43():
    u = uniform_for_sota(0.9, 0.025, 1000)
    th, w = _max_dependent._quadrature(u, 3000, None)
    a, b = _engines(3000, 1000, th, w, 0.6, 0.9)
    (Fa, Sa), (Fb, Sb) = _aligned(a, b)
    assert np.max(np.abs(Fa - Fb)) <= TOL and np.max(np.abs(Sa - Sb)) <= TOL


def test_swap_summaries_match_table1(monkeypatch):
    """Table 1 rows 4.2 and 4.3 from the swap engine, at the paper's printed digits and to 1e-12 of NumPy's."""
    u = uniform_for_sota(0.9, 0.025, 1000)
    out = {}
    for engine in ("swap", "numpy"):
        monkeypatch.setattr(_max_dependent, "_ENGINE", engine)
        out[engine] = [max_distribution(3000, 1000, d, rho=0.6).summary() for d in (0.9, u)]
    for s, r in zip(out["swap"], out["numpy"]):
        assert s.mean == pytest.approx(r.mean, abs=TOL)
        assert s.sd == pytest.approx(r.sd, abs=TOL)
        assert (s.ci_low, s.ci_high) == (r.ci_low, r.ci_high)
    assert (round(out["swap"][0].mean, 4), round(out["swap"][0].sd, 4)) == (0.914, 0.0035)


def test_values_walking_upwards():
    """p1 q1 > p0 q0 (near Eq. 8's bound): such values walk K upwards, block by block, and still agree."""
    k0s, pk0, p1, p0 = _max_dependent._kernel_inputs(3000, np.array([0.4]), 0.3, 0.45, "random", 1e-20)
    assert not _max_dependent_swap.swap_stable(p1, p0)
    a, b = _engines(3000, 1000, [0.4], [1.0], 0.3, 0.45)
    (Fa, Sa), (Fb, Sb) = _aligned(a, b)
    assert np.max(np.abs(Fa - Fb)) <= TOL and np.max(np.abs(Sa - Sb)) <= TOL


def test_auto_engine_uses_swap_for_large_dependent_problems():
    k0s, pk0, p1, p0 = _max_dependent._kernel_inputs(10**6, np.array([0.9]), 0.6, 0.9, "random", 1e-20)
    assert _max_dependent._choose_engine(10**6, 1000, k0s, p1, p0) == "swap"


def test_leaderboard_fit_swap_against_walk_and_numpy():
    """dependent_max_distribution (the leaderboard fits) by the swap engine, the previous walk and NumPy."""
    rng = np.random.default_rng(3)
    v = np.round(rng.uniform(0.8, 0.9, 150), 4)
    n, m, rho, theta0 = 4000, 150, 0.6, float(v.max())
    swap = _max_dependent_swap.dependent_max_distribution(n, m, v, rho=rho, theta0=theta0, tail=1e-12).summary()
    u, inv = np.unique(v, return_inverse=True)
    wts = np.bincount(inv) / v.size
    p1, p0 = conditional_probs(u, theta0, rho)
    from scipy.stats import binom

    lo, hi = _max_dependent_swap._window(n, theta0)
    ks = np.arange(lo, hi + 1, dtype=np.int64)
    lp = binom.logpmf(ks, n, theta0)
    keep = np.flatnonzero(lp > np.log(1e-12) - 5)
    ks, lp = ks[keep[0] : keep[-1] + 1], lp[keep[0] : keep[-1] + 1]
    walk = _max_dependent_swap._bernoulli_walk(
        n, m, u, wts, ks, lp, np.clip(p1, 0, 1), np.clip(p0, 0, 1), 1e-12
    ).summary()
    ref = max_distribution(n, m, Empirical(v), rho=rho, theta0=theta0).summary()
    for other in (walk, ref):
        assert swap.mean == pytest.approx(other.mean, abs=1e-11)
        assert swap.sd == pytest.approx(other.sd, abs=1e-11)
        assert (swap.ci_low, swap.ci_high) == (other.ci_low, other.ci_high)
