"""Staged evaluation: the Ladder, leaderboard overfitting, filtering the final phase."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sotalib.judging import (
    boosting_attack,
    simulate_final_phase,
    simulate_public_private,
    winner_distribution_exact,
)
from sotalib.judging._staged import ladder  # private: the Ladder's release rule the simulations use is the subject


def test_ladder_releases_only_significant_improvements_rounded():
    out = ladder([0.50, 0.52, 0.60, 0.61, 0.70, 0.69], eta=0.05)
    assert out == pytest.approx([0.50, 0.50, 0.60, 0.60, 0.70, 0.70])
    with pytest.raises(ValueError, match="eta"):
        ladder([0.5], eta=0)


def test_selection_on_public_leaderboard_overfits_and_ladder_reduces_it():
    kag = simulate_public_private(m=400, mechanism="kaggle", rng=1)
    lad = simulate_public_private(m=400, mechanism="ladder", rng=1)
    d_k = kag.public - kag.private
    d_l = lad.public - lad.private
    assert d_k.mean() > 4 * d_k.std(ddof=1) / math.sqrt(d_k.size)
    assert d_l.mean() < d_k.mean()
    # the overfit grows with the number of submissions
    many = kag.submissions >= 20
    assert d_k[many].mean() > d_k[kag.submissions == 1].mean()


def test_boosting_attack_fools_kaggle_not_ladder():
    n = 2000
    runs = {
        m: [boosting_attack(n, n, n_submissions=300, mechanism=m, rng=s) for s in range(8)]
        for m in ("kaggle", "ladder")
    }
    k_pub, k_priv = np.mean([(r.public, r.private) for r in runs["kaggle"]], axis=0)
    l_pub, l_priv = np.mean([(r.public, r.private) for r in runs["ladder"]], axis=0)
    assert all(r.n_submissions == 300 and 1 <= r.n_selected <= 300 for rs in runs.values() for r in rs)
    assert runs["kaggle"][0].to_dict()["mechanism"] == "kaggle"
    se = 0.5 / math.sqrt(8 * n)
    assert k_pub > 0.5 + 10 * se  # the public score climbs ...
    assert abs(k_priv - 0.5) < 4 * se  # ... the private one stays at chance
    assert l_pub < k_pub - 10 * se


def test_final_phase_rules():
    th = np.r_[np.full(50, 0.80), 0.82]
    a = simulate_final_phase(th, 1000, 1000, rule="all", n_resamples=500, rng=7)
    b = simulate_final_phase(th, 1000, 1000, rule="top-k", n_finalists=th.size, n_resamples=500, rng=7)
    assert a.winner_theta == b.winner_theta and a.p_best == b.p_best
    one = simulate_final_phase([0.7], 100, 100, rule="baseline", baseline=0.9, n_resamples=10, rng=0)
    assert one.winner_theta == pytest.approx(0.7) and one.finalists == 1
    # filtering by the baseline keeps the genuinely better participant and drops the lucky clones
    c = simulate_final_phase(th, 1000, 1000, rule="baseline", baseline=0.80, n_resamples=2000, rng=8)
    d = simulate_final_phase(th, 1000, 1000, rule="all", n_resamples=2000, rng=8)
    assert c.finalists < th.size
    assert c.p_best > d.p_best
    with pytest.raises(ValueError, match="rule"):
        simulate_final_phase(th, 10, 10, rule="best")


def test_winner_distribution_exact_by_hand():
    # two participants, one item: 0.6 wins outright 0.6 * 0.7, ties (both right or both wrong) half the time
    assert winner_distribution_exact([0.3, 0.6], 1) == pytest.approx([0.35, 0.65], abs=1e-15)
    assert winner_distribution_exact([0.5] * 3, 3) == pytest.approx([1 / 3] * 3, abs=1e-14)
    assert winner_distribution_exact([1.0, 0.0], 5) == pytest.approx([1.0, 0.0])


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(0.05, 0.95), min_size=1, max_size=6), st.integers(1, 30))
def test_winner_distribution_sums_to_one_and_is_monotone(thetas, n):
    p = winner_distribution_exact(thetas, n)
    assert p.sum() == pytest.approx(1.0, abs=1e-10)
    order = np.argsort(thetas, kind="stable")
    th = np.asarray(thetas)[order]
    assert np.all(np.diff(p[order])[np.diff(th) > 1e-9] >= -1e-12)


def test_final_phase_monte_carlo_matches_exact():
    th = np.r_[np.full(100, 0.80), np.linspace(0.805, 0.83, 5)]
    p = winner_distribution_exact(th, 1000)
    mc = simulate_final_phase(th, 1000, 1000, rule="all", n_resamples=4000, rng=12)
    assert abs(mc.winner_theta - float(p @ th)) < 4 * mc.se
    assert abs(mc.p_best - p[-1]) < 4 * np.sqrt(p[-1] * (1 - p[-1]) / 4000)
