"""Issue 32's leftovers: ``candidates=`` has one meaning (the axis), ``Aggregation.lower_is_better``.

Every former spelling keeps working for one minor version with a DeprecationWarning naming the new one.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from sotalib import PerItem
from sotalib.cli import main
from sotalib.judging import compare_candidates, estimate_rank_uncertainty, rank_candidates, read_scores

M = np.array([[0.8, 0.5, 0.7, 0.5], [0.6, 0.9, 0.4, 0.5], [0.4, 0.7, 0.8, 0.5]])
NAMES = ["a", "b", "c"]


@pytest.fixture
def score_file(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("model,j1,j2,j3,j4\n" + "\n".join(f"{n}," + ",".join(map(str, r)) for n, r in zip(NAMES, M)))
    return path


def test_aggregation_lower_is_better_and_its_former_negation():
    mean = rank_candidates(M, "mean")
    assert mean.lower_is_better is False and mean.to_dict()["lower_is_better"] is False
    assert "higher_is_better" not in mean.to_dict()
    avg = rank_candidates(M, "average-rank")  # average ranks: lower is better, whatever the input
    assert avg.lower_is_better is True
    losses = rank_candidates(M, "mean", lower_is_better=True)
    assert losses.lower_is_better is True and list(losses.ranks) == [3.0, 1.5, 1.5]  # means 0.625, 0.6, 0.6
    with pytest.warns(DeprecationWarning, match=r"Aggregation\.higher_is_better is deprecated"):
        assert avg.higher_is_better is False
    with pytest.warns(DeprecationWarning):
        assert mean.higher_is_better is True


@pytest.mark.parametrize("function", [rank_candidates, compare_candidates])
def test_names_in_candidates_are_deprecated_for_names_in_the_data(function):
    args = (M, "mean") if function is rank_candidates else (M,)
    with pytest.warns(DeprecationWarning, match=rf"{function.__name__}\(candidates=<names>\) is deprecated"):
        old = function(*args, candidates=NAMES)
    new = function(*((pd.DataFrame(M, index=NAMES),) + args[1:]))
    assert old.to_dict() == new.to_dict()
    assert function(*((dict(zip(NAMES, M)),) + args[1:])).to_dict() == new.to_dict()
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="candidates"):
        function(*args, candidates=["a", "a", "b"])


@pytest.mark.parametrize("axis", ["rows", "columns"])
def test_a_score_file_carries_its_names_on_either_axis(score_file, axis):
    t = read_scores(score_file)
    res = rank_candidates(t, "copeland", candidates=axis)
    frame = pd.DataFrame(t.scores, index=t.candidates, columns=t.judges)
    ref = rank_candidates(frame if axis == "rows" else frame.T, "copeland")
    assert res.ranking == ref.ranking and res.candidates_axis == axis
    assert list(res.candidates) == (NAMES if axis == "rows" else ["j1", "j2", "j3", "j4"])
    cmp = compare_candidates(t, candidates=axis)
    assert (
        cmp.candidates_axis == axis
        and cmp.to_dict()["average_ranks"]
        == (compare_candidates(frame if axis == "rows" else frame.T).to_dict()["average_ranks"])
    )


@pytest.mark.parametrize("command", ["rank", "compare"])
def test_cli_passes_the_axis_to_the_library(score_file, capsys, command):
    t = read_scores(score_file)
    extra = ["--method", "copeland"] if command == "rank" else []
    assert main([command, "--scores", str(score_file), "--candidates", "columns", *extra, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    frame = pd.DataFrame(t.scores, index=t.candidates, columns=t.judges).T  # judges as rows, candidates columns
    ref = rank_candidates(frame, "copeland") if command == "rank" else compare_candidates(frame)
    expected = ref.to_dict()
    expected["candidates_axis"] = "columns"
    assert out == expected


def test_rank_uncertainty_candidates_is_the_axis():
    rng = np.random.default_rng(0)
    Y = (rng.random((120, 3)) < [0.5, 0.6, 0.8]).astype(float)  # items x models
    table = PerItem(Y, models=NAMES)
    ref = estimate_rank_uncertainty(table, n_resamples=200, rng=1).to_dict()
    assert estimate_rank_uncertainty(table, n_resamples=200, rng=1, candidates="columns").to_dict() == ref
    # candidates x items, read the other way: a DataFrame (its index names them) or a bare array
    rows = pd.DataFrame(Y.T, index=NAMES)
    assert estimate_rank_uncertainty(rows, n_resamples=200, rng=1, candidates="rows").to_dict() == ref
    bare = estimate_rank_uncertainty(Y.T, n_resamples=200, rng=1, candidates="rows").to_dict()
    assert [c["p_first"] for c in bare["candidates"]] == [c["p_first"] for c in ref["candidates"]]
    with pytest.raises(ValueError, match="candidates='rows' does not apply to a PerItem"):
        estimate_rank_uncertainty(table, candidates="rows")
    with pytest.raises(ValueError, match="candidates must be one of 'rows', 'columns'"):
        estimate_rank_uncertainty(table, candidates="models")
    with pytest.warns(DeprecationWarning, match=r"estimate_rank_uncertainty\(candidates=<names>\) is deprecated"):
        renamed = estimate_rank_uncertainty(PerItem(Y), n_resamples=200, rng=1, candidates=NAMES).to_dict()
    assert renamed == ref
