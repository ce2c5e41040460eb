"""The Bayesian signed-rank test against an independent computation (Benavoli et al. 2017)."""

import numpy as np
import pytest

from sotalib.judging import bayesian_signed_rank


def _reference(x, y, rope, prior, samples, seed):
    """Benavoli et al.'s algorithm written out sample by sample (as the baycomp package does it)."""
    z = np.concatenate(([0.0], x - y))
    S = z[:, None] + z[None, :]
    above = (S > 2 * rope) + 0.5 * (S == 2 * rope)
    below = (-S > 2 * rope) + 0.5 * (-S == 2 * rope)
    g = np.random.RandomState(seed)
    alpha = np.ones(z.size)
    alpha[0] = prior
    wins = np.zeros(3)
    for w in g.dirichlet(alpha, samples):
        outer = np.outer(w, w)
        t = np.array([np.sum(outer * above), 0.0, np.sum(outer * below)])
        t[1] = 1 - t[0] - t[2]
        wins[np.argmax(t)] += 1
    return wins / samples


@pytest.mark.parametrize("shift, rope", [(0.01, 0.01), (0.02, 0.005), (0.0, 0.01), (-0.004, 0.0)])
def test_against_sample_by_sample_computation(shift, rope):
    rng = np.random.default_rng(11)
    a = rng.normal(0.8 + shift, 0.02, size=20)
    b = rng.normal(0.8, 0.02, size=20)
    ours = bayesian_signed_rank(a, b, rope=rope, n_resamples=40_000, rng=5)
    ref = _reference(a, b, rope, 0.5, 20_000, 6)
    got = np.array([ours.p_a_better, ours.p_equivalent, ours.p_b_better])
    assert got.sum() == pytest.approx(1.0)
    se = np.sqrt(ref * (1 - ref) / 20_000 + got * (1 - got) / 40_000)
    assert np.all(np.abs(got - ref) <= 5 * se + 1e-12), (got, ref)


def test_symmetry_orientation_and_limits():
    rng = np.random.default_rng(2)
    a, b = rng.normal(0.5, 0.1, 15), rng.normal(0.5, 0.1, 15)
    ab = bayesian_signed_rank(a, b, rope=0.01, n_resamples=5000, rng=9)
    ba = bayesian_signed_rank(b, a, rope=0.01, n_resamples=5000, rng=9)
    assert (ab.p_a_better, ab.p_equivalent, ab.p_b_better) == (ba.p_b_better, ba.p_equivalent, ba.p_a_better)
    low = bayesian_signed_rank(a, b, rope=0.01, lower_is_better=True, n_resamples=5000, rng=9)
    assert (low.p_a_better, low.p_b_better) == (ab.p_b_better, ab.p_a_better)
    # a clearly better on every one of 30 data sets: P(a better) ~ 1; a huge rope: equivalent
    x = rng.normal(0.8, 0.01, 30)
    assert bayesian_signed_rank(x + 0.05, x, rope=0.01, n_resamples=2000, rng=1).p_a_better == 1.0
    assert bayesian_signed_rank(x + 0.05, x, rope=1.0, n_resamples=2000, rng=1).p_equivalent == 1.0
    assert ab.to_dict()["n_resamples"] == 5000 and ab.to_dict()["seed"] == 9


def test_bad_input():
    with pytest.raises(ValueError, match="same length"):
        bayesian_signed_rank([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="rope"):
        bayesian_signed_rank([1, 2], [1, 2], rope=-1)
    with pytest.raises(ValueError, match="prior"):
        bayesian_signed_rank([1, 2], [1, 2], prior=0)
    with pytest.raises(ValueError, match="n_resamples"):
        bayesian_signed_rank([1, 2], [1, 2], n_resamples=0)
    with pytest.raises(ValueError, match="finite"):
        bayesian_signed_rank([1, np.nan], [1, 2])
