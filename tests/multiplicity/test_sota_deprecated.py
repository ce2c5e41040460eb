"""Former names of the state-of-the-art estimators and leaderboard readers keep working, with a warning."""

from __future__ import annotations

import numpy as np
import pytest

import sotalib.multiplicity as mult
from sotalib.multiplicity import estimate_sota, read_kaggle_leaderboard, read_meta_kaggle


@pytest.fixture(scope="module")
def board():
    return np.random.default_rng(3).binomial(1000, 0.8, 40) / 1000


@pytest.mark.parametrize("method", ["shrink", "crop", "cap", "naive", "observed"])
def test_estimators_are_now_methods_of_estimate_sota(board, method):
    with pytest.warns(DeprecationWarning, match=rf"sotalib\.multiplicity\.{method} is deprecated"):
        old = getattr(mult, method)
    assert old(board, 1000).to_dict() == estimate_sota(board, 1000, method=method).to_dict()


def test_monte_carlo_estimators_keep_their_numbers(board):
    with pytest.warns(DeprecationWarning, match="deconvolve is deprecated"):
        deconvolve = mult.deconvolve
    with pytest.warns(DeprecationWarning, match="n_resamples"):
        old = deconvolve(board, 1000, reps=5, rng=2)
    assert old.to_dict() == estimate_sota(board, 1000, method="deconvolve", n_resamples=5, rng=2).to_dict()
    with pytest.warns(DeprecationWarning, match="abc is deprecated"):
        abc = mult.abc
    with pytest.warns(DeprecationWarning, match="n_resamples"):
        old = abc(board, 1000, proposals=200, rng=2)
    assert old.to_dict() == estimate_sota(board, 1000, method="abc", rho=0.0, n_resamples=200, rng=2).to_dict()


def test_shrink_auc_is_estimate_sota_for_the_auc():
    aucs = np.random.default_rng(2).uniform(0.7, 0.85, 30)
    with pytest.warns(DeprecationWarning, match="shrink_auc is deprecated"):
        shrink_auc = mult.shrink_auc
    with pytest.warns(DeprecationWarning, match="n_resamples"):
        old = shrink_auc(aucs, 2000, 0.1, reps=20, rng=9)
    new = estimate_sota(aucs, 2000, metric="auc", prevalence=0.1, rho=0.0, n_resamples=20, rng=9)
    assert old.to_dict() == new.to_dict()


@pytest.mark.parametrize(
    "name",
    [
        "crop_distribution",
        "PAPER_GRID",
        "observed_distribution",
        "npmle",
        "npmle_bin_width",
        "auc_simulation_cost",
        "AUC_SIMULATION_LIMIT",
        "AUC_ENGINES",
        "prepare",
        "RHO0",
    ],
)
def test_internals_leave_the_public_api(name):
    with pytest.warns(DeprecationWarning, match=rf"sotalib\.multiplicity\.{name} is deprecated"):
        getattr(mult, name)
    assert name not in mult.__all__


def test_estimate_sota_show_is_progress(board):
    with pytest.warns(DeprecationWarning, match="progress="):
        old = estimate_sota(board, 1000, method="deconvolve", n_resamples=3, rng=1, show=False)
    assert old.to_dict() == estimate_sota(board, 1000, method="deconvolve", n_resamples=3, rng=1).to_dict()


def test_higher_is_better_is_the_opposite_of_lower_is_better(tmp_path):
    p = tmp_path / "lb.csv"
    p.write_text("TeamId,TeamName,Score\n1,a,0.9\n1,a,0.7\n2,b,0.8\n")
    with pytest.warns(DeprecationWarning, match="lower_is_better"):
        old = read_kaggle_leaderboard(p, higher_is_better=False)
    assert old.scores.tolist() == read_kaggle_leaderboard(p, lower_is_better=True).scores.tolist() == [0.7, 0.8]
    with pytest.warns(DeprecationWarning, match="lower_is_better"):
        old = read_kaggle_leaderboard(p, higher_is_better=True)
    assert old.scores.tolist() == read_kaggle_leaderboard(p).scores.tolist() == [0.9, 0.8]
    with pytest.raises(ValueError, match="give lower_is_better only"):
        read_kaggle_leaderboard(p, higher_is_better=True, lower_is_better=False)


def test_meta_kaggle_lower_is_better(tmp_path):
    (tmp_path / "Competitions.csv").write_text("Id,Slug\n7,c\n")
    (tmp_path / "Teams.csv").write_text("Id,CompetitionId,TeamName\n1,7,a\n")
    (tmp_path / "Submissions.csv").write_text("TeamId,IsSelected,PrivateScoreFullPrecision\n1,False,0.3\n1,False,0.2\n")
    assert read_meta_kaggle(tmp_path, "c", lower_is_better=True).scores.tolist() == [0.2]
    with pytest.warns(DeprecationWarning, match="lower_is_better"):
        assert read_meta_kaggle(tmp_path, "c", higher_is_better=True).scores.tolist() == [0.3]
