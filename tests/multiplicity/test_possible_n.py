"""possible_n: the test-set sizes that can produce printed scores, against brute force."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sotalib as sl
from sotalib.multiplicity import possible_n


def _shorten(k: int, n: int, d: int, rounding: str) -> Fraction:
    v = Fraction(k, n) * 10**d
    r = {
        "floor": math.floor(v),
        "ceil": math.ceil(v),
        "round": math.floor(v + Fraction(1, 2)),  # a tie rounds up ...
        "round-down": math.ceil(v - Fraction(1, 2)),  # ... or down: both are "round"
    }[rounding]
    return Fraction(r, 10**d)


def _brute(scores, d, candidates, rounding):
    """Every n for which each score is some k/n shortened (exact rational arithmetic)."""
    wanted = {Fraction(round(s * 10**d), 10**d) for s in scores}
    ways = {"any": ("floor", "ceil", "round", "round-down"), "round": ("round", "round-down")}.get(
        rounding, (rounding,)
    )
    out = []
    for n in candidates:
        printable = {_shorten(k, n, d, w) for k in range(n + 1) for w in ways}
        if wanted <= printable:
            out.append(n)
    return out


@given(
    n=st.integers(1, 120),
    ks=st.lists(st.integers(0, 120), min_size=1, max_size=6),
    d=st.integers(1, 4),
    rounding=st.sampled_from(["floor", "round", "ceil", "any"]),
)
def test_agrees_with_brute_force(n, ks, d, rounding):
    ks = [k % (n + 1) for k in ks]
    scores = [float(_shorten(k, n, d, "floor" if rounding == "any" else rounding)) for k in ks]
    candidates = range(1, 121)
    got = possible_n(scores, d, candidates, rounding=rounding).tolist()
    assert n in got  # the true size always fits
    assert got == _brute(scores, d, candidates, rounding)


def test_any_rounding_is_the_union_of_the_three():
    scores = [0.707, 0.756, 0.853, 0.878]
    union = set()
    for r in ("floor", "round", "ceil"):
        union |= set(possible_n(scores, 3, range(1, 200), rounding=r).tolist())
    anyr = set(possible_n(scores, 3, range(1, 200), rounding="any").tolist())
    assert union <= anyr
    assert anyr == set(_brute(scores, 3, range(1, 200), "any"))


def test_the_real_obesity_board_was_scored_on_11072_items():
    board = sl.read_leaderboard("data/leaderboards/playground-series-s4e2__private.csv", score_column="score")
    scores = board.scores[board.scores > 0.3]  # empty submissions are no accuracy on this test set
    assert possible_n(scores, 5, range(1000, 20001)).tolist() == [11072]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(scores=[0.5], decimals=16, candidates=[10]), "decimals"),
        (dict(scores=[1.5], decimals=2, candidates=[10]), "scores"),
        (dict(scores=[np.nan], decimals=2, candidates=[10]), "scores"),
        (dict(scores=[], decimals=2, candidates=[10]), "scores"),
        (dict(scores=[0.123], decimals=2, candidates=[10]), "at most 2 decimals"),
        (dict(scores=[0.5], decimals=2, candidates=[0]), "candidates"),
        (dict(scores=[0.5], decimals=2, candidates=[10], rounding="up"), "rounding"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        possible_n(**kwargs)
