"""estimate_sota on a per-item matrix, and with a measured Dependence as rho (issue 26).

The per-item path must give what a user gets by building the board by hand:
each model's accuracy on the items every model answered, n their number, and
rho_0 the square root of the mean pairwise phi coefficient -- computed here
with np.corrcoef, independently of the library's power sums.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sotalib import PerItem, read_per_item
from sotalib.multiplicity import estimate_dependence, estimate_sota, simulate_per_item

THETA = np.linspace(0.70, 0.74, 20)
FIELDS = ("estimate", "weight", "expected_max", "ci_low", "ci_high", "teams_above", "m", "n", "sample_max")


@pytest.fixture(scope="module")
def correct():
    """1,000 items x 20 close models under the paper's model (rho 0.6): a board the shrinkage solves."""
    return simulate_per_item(1000, THETA, rho=0.6, theta0=0.7, rng=1).outcomes


def _rho_by_hand(Y: np.ndarray) -> float:
    """rho_0 as the square root of the mean off-diagonal correlation of the models' columns."""
    C = np.corrcoef(Y, rowvar=False)
    return float(np.sqrt(C[np.triu_indices_from(C, 1)].mean()))


def _same(a, b):
    for f in FIELDS:
        assert getattr(a, f) == getattr(b, f), f
    assert a.solved == b.solved and a.details["rho"] == b.details["rho"]


def test_a_per_item_matrix_is_its_board_with_n_and_rho_from_it(correct):
    est = estimate_sota(PerItem(correct))
    rho = _rho_by_hand(correct)
    assert est.details["rho"] == pytest.approx(rho, rel=1e-10)
    by_hand = estimate_sota(correct.mean(axis=0), correct.shape[0], rho=est.details["rho"])
    _same(est, by_hand)
    assert est.solved and est.n == 1000 and est.m == 20
    # the estimate moves with rho, so agreeing with the hand-made board is not vacuous
    assert estimate_sota(correct.mean(axis=0), 1000, rho=0.3).estimate != pytest.approx(est.estimate, abs=1e-4)
    assert est.details["best_model"] == f"model {int(np.argmax(correct.mean(axis=0))) + 1}"
    assert est.details["items_dropped"] == 0
    assert any(note.startswith(f"rho={rho:.4f} measured from the per-item matrix") for note in est.notes)


def test_missing_answers_leave_their_items_out(correct):
    Y = correct.copy()
    Y[[3, 10, 10, 500], [0, 5, 7, 19]] = np.nan  # three items with a missing answer
    est = estimate_sota(PerItem(Y))
    kept = Y[~np.isnan(Y).any(axis=1)]
    assert kept.shape[0] == 997 and est.n == 997 and est.details["items_dropped"] == 3
    assert est.details["rho"] == pytest.approx(_rho_by_hand(kept), rel=1e-10)
    _same(est, estimate_sota(kept.mean(axis=0), 997, rho=est.details["rho"]))
    assert any("3 of the 1,000 items left out" in note for note in est.notes)
    # n may be given when it is the number of complete items, and is refused naming n otherwise
    _same(estimate_sota(PerItem(Y), 997), est)
    with pytest.raises(ValueError, match=r"^n must be the number of items every model answered, 997.*got 1,000"):
        estimate_sota(PerItem(Y), 1000)


def test_every_form_of_the_matrix_gives_the_same_board(correct, tmp_path):
    est = estimate_sota(PerItem(correct))
    names = [f"m{j}" for j in range(correct.shape[1])]
    frame = pd.DataFrame(correct, columns=names, index=[f"q{i}" for i in range(correct.shape[0])])
    from_frame = estimate_sota(frame)
    _same(from_frame, est)
    assert from_frame.details["best_model"] == names[int(np.argmax(correct.mean(axis=0)))]
    path = tmp_path / "items.csv"
    frame.astype(int).to_csv(path, index_label="item")
    _same(estimate_sota(read_per_item(path)), est)


def test_a_dependence_is_its_rho0(correct):
    dep = estimate_dependence(PerItem(correct[:, :10]), n_resamples=0)  # measured elsewhere: not the matrix's own rho
    assert abs(dep.rho0 - estimate_sota(PerItem(correct)).details["rho"]) > 1e-3
    with_dep = estimate_sota(PerItem(correct), rho=dep)
    _same(with_dep, estimate_sota(PerItem(correct), rho=dep.rho0))
    assert with_dep.details["rho"] == dep.rho0
    assert any("from the Dependence given (measured on 1,000 items of 10 models)" in note for note in with_dep.notes)
    scores = correct.mean(axis=0)  # on a board of scores too
    _same(estimate_sota(scores, 1000, rho=dep), estimate_sota(scores, 1000, rho=dep.rho0))


def test_a_given_rho_is_used_and_no_rho_is_measured_where_none_is_needed(correct):
    est = estimate_sota(PerItem(correct), rho=0.3)
    assert est.details["rho"] == 0.3 and not any("measured" in note for note in est.notes)
    naive = estimate_sota(PerItem(correct), method="naive")
    assert naive.notes == () and naive.estimate == correct.mean(axis=0).max()


def test_a_board_still_needs_its_n_and_rho_defaults_to_the_papers():
    board = [0.78, 0.80, 0.81, 0.82, 0.82, 0.83, 0.84, 0.84, 0.85, 0.86]
    with pytest.raises(ValueError, match="^n must be given for a leaderboard of scores"):
        estimate_sota(board)
    assert estimate_sota(board, 500).details["rho"] == 0.6


@pytest.mark.parametrize(
    ("form", "kwargs", "match"),
    [
        (np.array([[1, 0, 2], [0, 1, 1], [1, 1, 0]]), {}, r"^scores must be one score per team.*sotalib.PerItem"),
        (np.array([[1, 0], [0, 1], [1, 1]]), {}, r"^scores: a bare array does not say which axis holds the models"),
        (
            PerItem([[1, 0, 2], [0, 1, 1], [1, 1, 0]]),
            {},
            r"^scores: row 1 \(item 'item 1'\), column 3 .* is 2, not in \[0, 1\]",
        ),
        (PerItem([[np.nan, 0], [np.nan, 1], [1, np.nan]]), {}, r"^scores: no item was answered by every model"),
        (PerItem([[1, 0], [1, 1], [1, 0]]), {}, r"^scores has 1 model\(s\) neither right nor wrong.*give rho"),
        (PerItem([[1, 0], [0, 1], [1, 1]]), {"metric": "auc", "prevalence": 0.5}, r"^metric must be 'accuracy'"),
        (PerItem([[1, 0], [0, 1], [1, 1]]), {"rho": 1.5}, r"^rho must be"),
        (PerItem([[1, 0], [0, 1], [1, 1]]), {"n": 0}, r"^n must be an integer >= 1"),
    ],
    ids=[
        "not-0/1",
        "bare-array",
        "graded",
        "no-complete-item",
        "one-varying-model",
        "auc",
        "rho-out-of-range",
        "n-zero",
    ],
)
def test_bad_forms_are_refused_naming_the_argument(form, kwargs, match):
    with pytest.raises(ValueError, match=match):
        estimate_sota(form, **kwargs)


def test_a_per_item_file_of_losses_is_refused(tmp_path):
    path = tmp_path / "losses.csv"
    path.write_text("item,a,b\nq1,1.3,0.5\nq2,0.2,0.9\nq3,1,0\n")  # a share in [0, 1] is a graded outcome (issue 33)
    with pytest.raises(ValueError, match=r"losses.csv, line 2, column \"a\": the cell is 1.3, not in \[0, 1\]"):
        estimate_sota(read_per_item(path))


def test_a_per_item_file_of_one_model_is_refused_as_such(tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("item,a\nq1,1\nq2,0\nq3,1\n")
    with pytest.raises(ValueError, match=r"^scores must have at least 2 models \(columns\), got 1"):
        estimate_sota(read_per_item(path))
