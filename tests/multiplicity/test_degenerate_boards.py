"""Degenerate boards (issue 25): one team, all scores equal, perfect scores.

Each gets a correct answer, a stated note, or NoSolutionError with the reason;
never an interval of zero width that excludes its own estimate, nor an
estimate above every score.
"""

import numpy as np
import pytest

import sotalib as s

# private: the error type that estimate_sota raises for a board with no answer is the subject
from sotalib._errors import NoSolutionError

METHODS = ["shrink", "crop", "cap", "naive", "observed", "deconvolve", "abc"]
BOARDS = {"one team": [0.8], "all equal": [0.8] * 10}  # one distinct score: nothing to tell spread from noise


def _estimate(board, method, **kw):
    reps = 2000 if method == "abc" else 100
    return s.estimate_sota(board, 1000, method=method, rng=0, n_resamples=reps, **kw)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("label", list(BOARDS))
def test_degenerate_board_never_gives_an_impossible_answer(label, method):
    board = BOARDS[label]
    est = _estimate(board, method)
    if not est.solved:
        assert est.estimate is None and est.reason
        return
    assert est.estimate <= max(board) + 1e-12, "an estimate above every score"
    if est.ci_low is not None:
        assert est.ci_low <= est.estimate <= est.ci_high, "an interval that excludes its own estimate"
    else:  # no interval: a note says why, unless the method gives none
        assert est.notes or method in ("crop",)


def test_deconvolve_of_one_distinct_score_says_why_there_is_no_interval():
    est = _estimate([0.8], "deconvolve")
    assert est.ci_low is None and est.ci_high is None
    assert any("every bootstrap resample of a board of one distinct score" in n for n in est.notes)


def test_abc_above_every_score_is_no_estimate_with_the_reason():
    est = _estimate([0.8] * 10, "abc")
    assert not est.solved and est.estimate is None
    assert "above every score on the board (0.8; all teams equal)" in est.reason


@pytest.mark.parametrize("method", ["shrink", "cap", "observed", "crop"])
def test_perfect_scores_are_set_aside_with_a_note(method):
    board = [1.0, 0.84, 1.0, 0.8, 0.82, 0.83, 0.81, 0.85]
    est = _estimate(board, method)
    clean = _estimate([x for x in board if x < 1], method)
    assert est.m == clean.m == 6
    assert est.estimate == clean.estimate and est.ci_high == clean.ci_high  # the answer of the other teams
    (note,) = est.notes
    assert note.startswith("2 perfect scores of 1 set aside (teams 1, 3 of 8; a leak?)")
    assert "the estimate is of the other 6 teams" in note
    assert "notes" in est.to_dict() and est.to_dict()["notes"] == [note]


def test_perfect_auc_is_set_aside_with_a_note():
    est = s.estimate_sota([0.8, 0.85, 1.0], 1000, metric="auc", prevalence=0.3, engine="normal")
    assert est.m == 2 and est.estimate <= 0.85
    assert est.notes == (
        "1 perfect AUC of 1 set aside (team 3 of 3; a leak?): no binormal classifier reaches an AUC of 1 "
        "(Eq. 10); the estimate is of the other 2 teams",
    )


def test_a_board_of_perfect_scores_only_has_no_solution():
    with pytest.raises(NoSolutionError, match="2 teams .* have a perfect score of 1"):
        s.estimate_sota([1.0, 1.0], 1000)


def test_perfect_scores_are_kept_where_the_model_takes_them():
    est = s.estimate_sota([1.0, 0.9, 0.85], 1000, rho=0.0)  # independent classifiers: a 1 is a valid score
    assert est.m == 3 and est.notes == ()
    naive = s.estimate_sota([1.0, 0.9], 1000, method="naive")
    assert naive.estimate == 1.0 and naive.ci_low < 1.0 == naive.ci_high


def test_all_equal_matrix_compares_and_ranks_without_nan():
    flat = np.full((4, 3), 0.5)
    cmp = s.compare_candidates(flat)
    assert np.all(cmp.average_ranks == 2.5) and cmp.friedman.p_value == 1.0
    assert cmp.groups == [[0, 1, 2, 3]] and not cmp.pairwise.significant.any()
    ru = s.estimate_rank_uncertainty(s.PerItem(np.ones((20, 3))), n_resamples=50, rng=0)
    np.testing.assert_allclose(ru.p_first, 1 / 3)
    assert np.all(ru.rank_low == 1) and np.all(ru.ci_low == ru.score) and np.all(ru.ci_high == ru.score)
