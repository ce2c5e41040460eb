"""Bradley-Terry ratings: closed forms, an independent MM fit, and the bootstrap."""

import numpy as np
import pytest

from sotalib.judging import bradley_terry, read_battles
from sotalib.judging._bradley_terry import bradley_terry_mle  # private: the Newton fit is compared with MM

#: Elo points per unit of Bradley-Terry strength (a factor 10 in odds is 400 points).
ELO = 400 / np.log(10)


def _mm(W, iters=20000):
    """Hunter's (2004) MM algorithm: p_i <- W_i / sum_j N_ij / (p_i + p_j)."""
    N = W + W.T
    p = np.ones(len(W))
    for _ in range(iters):
        p = W.sum(axis=1) / np.sum(N / (p[:, None] + p[None, :]), axis=1)
        p /= np.exp(np.mean(np.log(p)))
    return np.log(p)


def test_two_candidates_closed_form():
    # i beats j 7 times of 10: theta_i - theta_j = log(7 / 3)
    th = bradley_terry_mle([[0, 7], [3, 0]])
    assert th[0] - th[1] == pytest.approx(np.log(7 / 3), rel=1e-12) and th.sum() == pytest.approx(0, abs=1e-15)


def test_against_mm_algorithm():
    rng = np.random.default_rng(4)
    k = 8
    W = rng.integers(0, 12, size=(k, k)).astype(float) + 0.5
    np.fill_diagonal(W, 0)
    assert bradley_terry_mle(W) == pytest.approx(_mm(W), abs=1e-9)


def test_ties_count_half_and_names():
    a = ["x", "x", "y", "y", "x"]
    b = ["y", "y", "x", "z", "z"]
    w = ["x", "tie", "y", "y", "Draw"]
    res = bradley_terry(a, b, w, n_resamples=50, rng=1)
    W = np.array([[0, 1.5, 0.5], [1.5, 0, 1.0], [0.5, 0, 0]])  # x, y, z: the tie with x is z's only "win"
    assert res.candidates == ("x", "y", "z")
    assert res.rating == pytest.approx(1000 + ELO * _mm(W), abs=1e-6)
    assert type(res).__name__ == "BradleyTerry" and res.n_battles == 5
    assert res.to_dict()["statistic"] == "bradley-terry" and res.to_dict()["n_items"] == 5  # the JSON keys kept
    # without that tie z never wins: no maximum
    with pytest.raises(ValueError, match="do not exist"):
        bradley_terry(a, b, w[:4] + ["x"], n_resamples=50, rng=1)


def test_bootstrap_recovers_the_truth():
    rng = np.random.default_rng(5)
    k, n = 6, 6000
    theta = np.linspace(-1, 1, k)
    A = rng.integers(0, k, n)
    B = (A + rng.integers(1, k, n)) % k
    a_wins = rng.random(n) < 1 / (1 + np.exp(theta[B] - theta[A]))
    names = [f"m{i}" for i in range(k)]
    res = bradley_terry(
        [names[i] for i in A],
        [names[i] for i in B],
        [names[i] if w else names[j] for i, j, w in zip(A, B, a_wins)],
        n_resamples=300,
        rng=3,
    )
    true = 1000 + ELO * (theta - theta.mean())
    inside = (res.ci_low <= true) & (true <= res.ci_high)
    assert inside.sum() >= k - 1
    assert res.p_first.sum() == pytest.approx(1.0) and res.p_first[-1] > 0.5
    assert list(res.rank) == [6, 5, 4, 3, 2, 1]


def test_bad_battles(tmp_path):
    with pytest.raises(ValueError, match="cannot battle itself"):
        bradley_terry(["x"], ["x"], ["x"])
    with pytest.raises(ValueError, match="winner must be"):
        bradley_terry(["x", "y"], ["y", "x"], ["x", "q"])
    with pytest.raises(ValueError, match="same length"):
        bradley_terry(["x"], ["y", "x"], ["x"])
    p = tmp_path / "b.csv"
    p.write_text("left,right,winner\nx,y,x\n")
    with pytest.raises(ValueError, match="columns a, b and winner"):
        read_battles(p)
    p.write_text("Winner,A,B,judge\nx,x,y,1\ny,y,x,2\n")
    assert tuple(read_battles(p)) == (["x", "y"], ["y", "x"], ["x", "y"])
