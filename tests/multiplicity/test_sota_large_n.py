"""Large-n leaderboard fits: the swap engine's fused steps of K and the fits they serve.

The swap engine carries each value's pmf down from one ``K`` to the next; for
values that need only the positions from the window up (``p1 > 1/2``) it now
runs two or four steps of ``K`` in one downward pass.  The fused passes do the
same arithmetic in the same order as single steps, so they must give bitwise
the same pmfs and the same sums, whatever the window's position relative to the
carried positions.
"""

from __future__ import annotations

import numpy as np
import pytest

# private: the swap engine's fused steps (against single steps) and the deconvolution's pooled NPMLE fit
from sotalib.multiplicity import Empirical, _max_dependent_swap, estimate_sota, max_distribution
from sotalib.multiplicity._sota_deconvolve import _expected_max_of_draws, npmle, npmle_bin_width


def _state(rng, size):
    f = rng.random(size) ** 4
    return f / f.sum()


@pytest.mark.parametrize("steps", [2, 4])
@pytest.mark.parametrize(
    ("c", "x0", "xe"),
    [(100, 80, 140), (100, 100, 180), (100, 40, 100), (100, 90, 400), (100, 100, 100)],
)
def test_fused_closed_steps_are_bitwise_single_steps(steps, c, x0, xe):
    """Carried positions start at ``c`` with ``x0 <= c <= xe`` (as the engine sets them): the window
    ends inside them, at their first position, beyond their top, and a window of one count."""
    rng = np.random.default_rng(steps * 1000 + x0)
    f = _state(rng, 120)
    p1, p0, wi = 0.96, 0.36, 0.37
    nx = xe - x0 + 1
    single = f.copy()
    rows1 = np.zeros((steps, nx))
    for j in range(steps):
        _max_dependent_swap._closed_step_sf(single, p1, p0, c, x0, xe, wi, rows1[j])
    fused = f.copy()
    rows2 = np.zeros((steps, nx))
    if steps == 2:
        _max_dependent_swap._closed_step2_sf(fused, p1, p0, c, x0, xe, wi, rows2[0], rows2[1])
    else:
        _max_dependent_swap._closed_step4_sf(fused, p1, p0, c, x0, xe, wi, *rows2)
    assert np.array_equal(single, fused)
    assert np.array_equal(rows1, rows2)
    assert np.all(rows1[:, 0] > 0.0)  # the case is not vacuous


@pytest.mark.parametrize("block", [None, 5, 6, 7])
def test_leaderboard_fit_with_fused_steps_agrees_with_numpy_engine(monkeypatch, block):
    """Fits whose blocks of K hold 5, 6 or 7 values (fused 4-, 2- and single steps all run) against NumPy's engine."""
    if block is not None:
        monkeypatch.setattr(_max_dependent_swap, "_block", lambda _nk, _nx: block)
    rng = np.random.default_rng(11)
    n = 6000
    v = np.round(rng.binomial(n, 0.9 - np.abs(rng.normal(0, 0.01, 80))) / n, 6)
    theta0 = float(v.max())
    d = _max_dependent_swap.dependent_max_distribution(n, v.size, v, rho=0.6, theta0=theta0, tail=1e-12)
    ref = max_distribution(n, v.size, Empirical(v), rho=0.6, theta0=theta0)
    a, b = d.summary(), ref.summary()
    assert a.mean == pytest.approx(b.mean, abs=1e-11)
    assert a.sd == pytest.approx(b.sd, abs=1e-11)
    assert (a.ci_low, a.ci_high) == (b.ci_low, b.ci_high)


def test_fused_and_single_step_fits_are_bitwise_equal(monkeypatch):
    """The benchmark's reference path (one step of K per pass) and the default give the same distribution."""
    rng = np.random.default_rng(5)
    n = 20000
    v = rng.binomial(n, 0.9 - np.abs(rng.normal(0, 0.003, 120))) / n
    out = []
    for fused in (4, 1):
        monkeypatch.setattr(_max_dependent_swap, "_FUSED", fused)
        d = _max_dependent_swap.dependent_max_distribution(n, v.size, v, rho=0.6, theta0=float(v.max()), tail=1e-12)
        out.append(d)
    assert out[0].lo == out[1].lo
    assert np.array_equal(out[0].cdf, out[1].cdf) and np.array_equal(out[0].sf, out[1].sf)


def test_deconvolution_pools_counts_only_on_large_boards_and_moves_the_estimate_by_little():
    """Pooling counts within a sixth of a binomial sd: none on a Kaggle-sized board (the book's digits stay);
    at n = 10^6 on 1,500 teams it moves E max of the NPMLE by under a twentieth of a standard deviation."""
    rng = np.random.default_rng(3)
    small = rng.binomial(13_840, 0.9 - np.abs(rng.normal(0, 0.01, 450)))
    assert npmle_bin_width(small, 13_840) == 1
    n = 1_000_000
    x = rng.binomial(n, 0.9 - np.abs(rng.normal(0, 0.003, 1500)))
    width = npmle_bin_width(x, n)
    assert width == int(np.sqrt(n * (1 - x.max() / n) * (x.max() / n)) / 6) > 1
    pooled = _expected_max_of_draws(*npmle(x, n, bin_width=width), x.size)
    exact = _expected_max_of_draws(*npmle(x, n, bin_width=1), x.size)
    assert abs(pooled - exact) * n < 0.05 * np.sqrt(n * 0.09)
    est = estimate_sota(x / n, n, method="deconvolve", n_resamples=0)
    assert est.details["count_bin_width"] == width and est.estimate == pooled
