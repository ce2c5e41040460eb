"""The front door takes the forms users hold their data in, or refuses them naming the argument (issue 25).

Each form gives the same answer as the plain list or array; a form that would
lose, double or pool rows raises ValueError naming the argument.
"""

import numpy as np
import pandas as pd
import pytest

import sotalib as s

BOARD = [0.78, 0.80, 0.81, 0.82, 0.82, 0.83, 0.84, 0.84, 0.85, 0.86]
TEAMS = [f"team{i}" for i in range(len(BOARD))]
M = np.array([[0.90, 0.80, 0.85, 0.70], [0.80, 0.75, 0.80, 0.60], [0.70, 0.70, 0.75, 0.65]])
NAMES = ["a", "b", "c"]
FRAME = pd.DataFrame(M, index=NAMES, columns=["d1", "d2", "d3", "d4"])
RANKS = {"a": 1.0, "b": 2.25, "c": 2.75}


@pytest.fixture(scope="module")
def sota_plain():
    return s.estimate_sota(BOARD, 500).estimate


@pytest.mark.parametrize(
    "form",
    [
        pytest.param(np.array(BOARD), id="array"),
        pytest.param(np.array(BOARD)[:, None], id="column-array"),
        pytest.param(dict(zip(TEAMS, BOARD, strict=True)), id="dict"),
        pytest.param(pd.Series(BOARD, index=TEAMS), id="series"),
        pytest.param(pd.DataFrame({"team": TEAMS, "score": BOARD}), id="frame-name-column"),
        pytest.param(pd.DataFrame({"score": BOARD}, index=TEAMS), id="frame-index"),
    ],
)
def test_estimate_sota_takes_every_form(form, sota_plain):
    assert s.estimate_sota(form, 500).estimate == pytest.approx(sota_plain, rel=1e-12)


@pytest.mark.parametrize(
    "form",
    [
        pytest.param(pd.DataFrame({"public": BOARD, "private": BOARD}), id="frame"),
        pytest.param(np.array([BOARD, BOARD]).T, id="array"),
    ],
)
def test_two_boards_are_not_pooled(form):
    with pytest.raises(ValueError, match="scores must be one"):
        s.estimate_sota(form, 500)


def test_two_board_columns_named_in_the_message():
    with pytest.raises(ValueError, match=r"'public', 'private'.*scores\['private'\]"):
        s.estimate_sota(pd.DataFrame({"team": TEAMS, "public": BOARD, "private": BOARD}), 500)


def test_nan_on_a_board_names_the_team():
    with pytest.raises(ValueError, match=r"scores must be numbers in \[0, 1\]: team 3 \('team2'\) has nan"):
        s.estimate_sota(pd.Series([0.8, 0.82, np.nan, 0.9], index=TEAMS[:4]), 500)


def test_summarize_max_auc_takes_a_series():
    aucs = [0.80, 0.82, 0.85]
    plain = s.summarize_max_auc(2000, None, aucs, 0.5, engine="normal")
    series = s.summarize_max_auc(2000, None, pd.Series(aucs, index=NAMES), 0.5, engine="normal")
    assert series.mean == plain.mean and series.ci_high == plain.ci_high
    with pytest.raises(ValueError, match="auc must be one"):
        s.summarize_max_auc(2000, None, pd.DataFrame({"x": aucs, "y": aucs}), 0.5, engine="normal")


@pytest.mark.parametrize(
    "form",
    [
        pytest.param(FRAME, id="frame-index"),
        pytest.param(FRAME.reset_index().rename(columns={"index": "model"}), id="frame-name-column"),
        pytest.param({n: list(row) for n, row in zip(NAMES, M, strict=True)}, id="dict-of-rows"),
        pytest.param(
            {n: dict(zip(FRAME.columns, row, strict=True)) for n, row in zip(NAMES, M, strict=True)}, id="dict-of-dicts"
        ),
    ],
)
def test_compare_and_rank_take_every_form(form):
    assert s.compare_candidates(form).to_dict()["average_ranks"] == RANKS
    assert s.rank_candidates(form, "mean").ranking == NAMES


def test_names_column_chosen_by_candidates():
    frame = FRAME.reset_index().rename(columns={"index": "model"}).assign(owner=["x", "y", "z"])
    with pytest.raises(ValueError, match="scores has 2 columns that are not numbers"):
        s.compare_candidates(frame)
    cmp = s.compare_candidates(frame.drop(columns="owner"), candidates="model")
    assert cmp.to_dict()["average_ranks"] == RANKS
    with pytest.raises(ValueError, match="candidates must be a sequence of names"):
        s.compare_candidates(M, candidates="abc")


@pytest.mark.parametrize("fn", ["compare", "rank", "uncertainty"])
def test_duplicate_candidate_is_refused_not_lost(fn):
    X = (np.random.default_rng(0).random((3, 40)) < 0.7).astype(float)
    dup = pd.DataFrame(M, index=["a", "a", "c"])
    call = {
        "compare": lambda: s.compare_candidates(dup),
        "rank": lambda: s.rank_candidates(dup, "mean"),
        # per-item results: items as rows, the candidates (models) as columns
        "uncertainty": lambda: s.estimate_rank_uncertainty(
            pd.DataFrame(X.T, columns=["a", "a", "c"]), n_resamples=20, rng=0
        ),
    }[fn]
    match = {"uncertainty": r"scores: models must be unique: 'a' names columns 1 and 2"}.get(
        fn, r"scores: candidate names must be unique: 'a' names rows 1 and 2"
    )
    with pytest.raises(ValueError, match=match):
        call()


def test_names_given_override_a_repeated_index():
    dup = pd.DataFrame(M, index=["a", "a", "c"])
    with pytest.warns(DeprecationWarning, match=r"compare_candidates\(candidates=<names>\) is deprecated"):
        assert s.compare_candidates(dup, candidates=NAMES).to_dict()["average_ranks"] == RANKS


def test_duplicate_judge_column_is_refused():
    frame = pd.concat([FRAME, FRAME[["d1"]]], axis=1)
    with pytest.raises(ValueError, match="scores: column names must be unique: 'd1' names columns 1 and 5"):
        s.compare_candidates(frame)


def test_nan_in_a_matrix_names_row_and_column():
    frame = FRAME.copy()
    frame.loc["b", "d3"] = np.nan
    with pytest.raises(ValueError, match=r"scores must hold finite scores: row 2 \('b'\), column 3 is nan"):
        s.compare_candidates(frame)


@pytest.mark.parametrize("value", [float("nan"), "nan", float("inf"), "-inf"])
def test_check_regression_refuses_missing_scores(value):
    with pytest.raises(ValueError, match="score mae must be a finite number"):
        s.check_regression(100, {"mae": value, "rmse": 0.4}, decimals=2)
    with pytest.raises(ValueError, match="target_var must be a finite number"):
        s.check_regression(100, {"r2": 0.5, "rmse": 0.4}, target_var=value, decimals=2)


def test_check_regression_takes_a_series():
    plain = s.check_regression(100, {"mae": "0.0300", "rmse": "0.5000"}, decimals=4)
    series = s.check_regression(100, pd.Series({"mae": "0.0300", "rmse": "0.5000"}), decimals=4)
    assert plain.consistent is False and series.consistent is False and series.to_dict() == plain.to_dict()
    with pytest.raises(ValueError, match="scores: score names must be unique: 'mae' names entries 1 and 2"):
        s.check_regression(100, pd.Series([0.3, 0.3, 0.4], index=["mae", "mae", "rmse"]), decimals=2)


@pytest.mark.parametrize(
    "classes",
    ["10,12,8", "10, 12, 8", "10 12 8", "[10, 12, 8]", {"x": 10, "y": 12, "z": 8}, pd.Series([10, 12, 8]), (10, 12, 8)],
)
def test_check_multiclass_class_forms(classes):
    r = s.check_multiclass(classes, pd.Series({"acc": "0.8000", "macro_f1": "0.7990"}), decimals=4)
    assert r.consistent and r.classes == ((10, 12, 8),)


@pytest.mark.parametrize("classes", ["10,12.5,8", "ten,12", "10,inf"])
def test_check_multiclass_bad_class_text(classes):
    with pytest.raises(ValueError, match="classes must be"):
        s.check_multiclass(classes, {"acc": "0.8000"}, decimals=4)


def test_check_report_takes_a_series():
    plain = s.check_report(50, 50, {"acc": "0.80", "sens": "0.70"}, decimals=2)
    series = s.check_report(50, 50, pd.Series({"acc": "0.80", "sens": "0.70"}), decimals=2)
    assert series.consistent == plain.consistent and series.to_dict() == plain.to_dict()


@pytest.mark.parametrize("path", [pd.DataFrame({"score": BOARD}), BOARD, None])
def test_read_leaderboard_names_path_for_data_in_memory(path):
    with pytest.raises(ValueError, match="path must be a file path .* go to estimate_sota directly"):
        s.read_leaderboard(path)


def test_ragged_rows_are_named_as_such():
    with pytest.raises(
        ValueError, match=r"scores must give every row the same number of scores, got rows of lengths \[2, 3\]"
    ):
        s.compare_candidates([[0.1, 0.2, 0.3], [0.1, 0.2]])
    with pytest.raises(ValueError, match="scores must give every candidate the same number of scores"):
        s.compare_candidates({"a": [0.1, 0.2, 0.3], "b": [0.1, 0.2]})


def test_text_is_not_a_board():
    with pytest.raises(ValueError, match="scores must be numbers .* got the text '0.8,0.9'"):
        s.estimate_sota("0.8,0.9", 100)
    with pytest.raises(ValueError, match=r"scores must be numbers, got 'a' \(entry 1\)"):
        s.estimate_sota(["a", 0.9], 100)
