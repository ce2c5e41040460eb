"""The paper's cropping (Appendix, Table 4; the authors' SOTA_bootstrap_accuracy.R)."""

import numpy as np
import pytest

from sotalib.multiplicity import estimate_sota, simulate_leaderboard

# private: the cropping procedure itself (its grid, the fit without the grid, the distribution it resamples)
from sotalib.multiplicity._sota_crop import PAPER_GRID, crop, crop_distribution


@pytest.fixture(scope="module")
def board():
    rng = np.random.default_rng(11)
    return rng.binomial(800, rng.uniform(0.70, 0.86, 150)) / 800


def test_grid_is_the_papers_histogram_grid():
    assert PAPER_GRID == pytest.approx(0.04 / 175)
    assert 0.88 / PAPER_GRID == pytest.approx(3850)  # the paper's histograms start at 0.88, on this grid


def test_solution_matches_the_observed_maximum(board):
    e = crop(board, 800, rho=0.6, grid=None)
    assert e.solved and e.estimate == e.weight
    jb = e.details.get("just_below")
    if jb is None:  # a continuous root: E max equals the winner
        assert e.expected_max == pytest.approx(board.max(), abs=1e-6)
    else:  # the root is on a jump where teams at c join the pool
        assert jb["expected_max"] < board.max() <= e.expected_max
        assert np.any(board == e.weight)


def test_crop_drops_the_teams_above_and_resamples_between_the_cutoff_and_c(board):
    e = crop(board, 800, rho=0.6)
    c = e.weight
    r2 = 0.36 * c / (1 - c)
    assert e.details["lower_cutoff"] == pytest.approx(r2 / (1 + r2))  # Eq. 8 with theta0 = c
    low = e.details["lower_cutoff"]
    assert e.details["teams_simulated"] == int((board > low).sum())
    assert e.details["pool"] == int(((board > low) & (board <= c)).sum())
    assert e.teams_above == int((board > c).sum()) and e.excluded == board.size - e.details["teams_simulated"]
    # the estimate is the first grid point above c (the code's breks[which(breks > cropped)[1]])
    k = e.estimate / PAPER_GRID
    assert k == pytest.approx(round(k)) and e.estimate > c >= e.estimate - PAPER_GRID


def test_exact_distribution_against_the_authors_monte_carlo(board):
    # the R code: draw m teams with replacement from the pool, simulate the dependent model with theta0 = c
    c, n, rho = 0.84, 800, 0.6
    d, m, low, pool = crop_distribution(board, n, c, rho=rho)
    values = board[(board > low) & (board <= c)]
    rng = np.random.default_rng(5)
    maxima = np.array(
        [simulate_leaderboard(rng.choice(values, m), n, rho=rho, theta0=c, rng=rng)[0].max() for _ in range(3000)]
    )
    se = maxima.std(ddof=1) / np.sqrt(maxima.size)
    assert abs(maxima.mean() - d.mean()) < 4 * se
    lo, hi = d.interval(0.05)
    assert abs(np.mean(maxima < lo) - 0.025) < 0.012 and abs(np.mean(maxima > hi) - 0.025) < 0.012


def test_upper_target_puts_the_upper_bound_at_the_winner(board):
    e = crop(board, 800, rho=0.6, target="upper", grid=None)
    assert e.ci_high == pytest.approx(board.max(), abs=0.6 / 800)
    assert e.weight < crop(board, 800, rho=0.6, grid=None).weight


def test_crop_is_not_the_cap(board):
    a, b = crop(board, 800, rho=0.6, grid=None), estimate_sota(board, 800, rho=0.6, method="cap")
    assert a.method == "crop" and b.method == "cap" and a.weight != b.weight
    direct = crop(board, 800).to_dict()  # the front door adds the chance level it used to the details
    assert estimate_sota(board, 800, method="crop").to_dict() == {
        **direct,
        "details": {**direct["details"], "chance": 0.5},
    }


def test_outlier_has_no_crop_point():
    rng = np.random.default_rng(5)
    s = np.concatenate([[0.95], rng.binomial(2000, 0.80, 300) / 2000])
    e = crop(s, 2000, rho=0.6)
    assert not e.solved and e.estimate is None and "outlier" in e.reason


def test_bad_input(board):
    with pytest.raises(ValueError, match="grid"):
        crop(board, 800, grid=2.0)
    with pytest.raises(ValueError, match="target"):
        crop(board, 800, target="middle")
    with pytest.raises(ValueError, match="rho"):
        crop(board, 800, rho=1.5)
