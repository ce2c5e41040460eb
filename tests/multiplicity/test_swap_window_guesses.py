"""The exact engine's guessed windows (issue 32: ``sota --engine exact`` at n = 10^6) change no number.

The exact engine of :mod:`sotalib.multiplicity._max_dependent_swap` computes ``F`` on a window of counts.
Three shortcuts choose that window: a guessed start and end (from a nearby fit or from the normal engine),
checked by the engine, and a first search that starts part of the way up.  The reference of each test is
the engine without the shortcut (the path of the previous release), run on the same inputs: the
distributions must be the same to 1e-12 (bitwise where the blocks of K are the same), whichever guess,
right, too low or too high, was given.
"""

from __future__ import annotations

import numpy as np
import pytest

# private: the window guesses of the exact engine are the subject
from sotalib.multiplicity import _max_dependent_swap, _sota_model
from sotalib.multiplicity._sota_model import _fit_dist

TOL = 1e-12


def _board(n, teams, seed=0):
    rng = np.random.default_rng(seed)
    return rng.binomial(n, 0.9 - np.abs(rng.normal(0, 0.004, teams))) / n


def _same(a, b, tol=TOL):
    assert (a.lo, a.cdf.size) == (b.lo, b.cdf.size)
    np.testing.assert_allclose(a.cdf, b.cdf, rtol=tol, atol=0)
    np.testing.assert_allclose(a.sf, b.sf, rtol=tol, atol=0)


def _plain(n, v, **kw):
    return _max_dependent_swap.dependent_max_distribution(n, v.size, v, rho=0.6, tail=1e-12, **kw)


@pytest.mark.parametrize("n", [2000, 20000])
def test_guessed_start_and_end_give_the_distribution_without_guesses(n):
    v = _board(n, 40)
    ref = _plain(n, v)
    top = ref.lo + ref.cdf.size - 1
    sd = int(ref.sd() * n) + 1
    guesses = [
        (ref.lo - 2, top + 2),  # right
        (ref.lo - 3 * sd, top + 3 * sd),  # generous
        (ref.lo + sd, top + sd),  # start too high: the engine finds the window itself
        (ref.lo - sd, top - sd),  # end too low: the whole window
        (ref.lo - sd, None),  # no end
        (0, 10 * n),  # out of range
    ]
    for start, end in guesses:
        _same(_plain(n, v, start=start, end=end), ref)


def test_a_checked_end_is_bitwise_the_window_without_it():
    n = 20000
    v = _board(n, 40)
    start = _plain(n, v).lo - 5
    a = _plain(n, v, start=start)
    b = _plain(n, v, start=start, end=a.lo + a.cdf.size + 3)
    assert a.lo == b.lo and np.array_equal(a.cdf, b.cdf) and np.array_equal(a.sf, b.sf)


@pytest.mark.parametrize("raise_", [0.15, 0.6, 0.95])
def test_raised_first_search_finds_the_window_of_the_full_search(monkeypatch, raise_):
    n = 20000
    v = _board(n, 60)
    monkeypatch.setattr(_max_dependent_swap, "_RAISE", 0.0)
    ref = _plain(n, v)
    monkeypatch.setattr(_max_dependent_swap, "_RAISE", raise_)  # 0.6 and 0.95 start above the window
    _same(_plain(n, v), ref)


def test_normal_engine_window_gives_the_fit_of_the_exact_search(monkeypatch):
    n = 10**5
    v = _board(n, 12, seed=3)
    monkeypatch.setattr(_sota_model, "_HINT_WORK", np.inf)  # no guess: the previous path
    ref, excl_ref = _fit_dist(v, n, 0.6)
    monkeypatch.setattr(_sota_model, "_HINT_WORK", 0.0)
    guesses = []
    window = _sota_model._normal_window
    monkeypatch.setattr(_sota_model, "_normal_window", lambda *a: guesses.append(window(*a)) or guesses[-1])
    got, excl = _fit_dist(v, n, 0.6)
    assert (
        len(guesses) == 1
        and guesses[0][0] > ref.lo - ref.sd() * n
        and guesses[0][1] < ref.lo + ref.cdf.size + ref.sd() * n
    )
    assert excl == excl_ref
    _same(got, ref)
    assert got.mean() == pytest.approx(ref.mean(), rel=1e-14)
