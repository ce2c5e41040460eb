"""Every command's ``--json`` is exactly ``to_dict()`` of the front-door result for the same question.

The README promises it and scripts rely on it: what ``sotalib COMMAND --json``
prints is what ``sotalib.FUNCTION(...).to_dict()`` returns in Python, key for
key and value for value (JSON-safe on both sides).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import sotalib
from sotalib.cli import main
from sotalib.judging import read_battles, read_per_item, read_scores


def _cli(capsys, argv: list[str]) -> dict:
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def _same(printed: dict, result) -> None:
    expected = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert printed == expected


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(3)
    board = tmp_path / "board.csv"
    board.write_text("team,score\n" + "".join(f"t{i},{0.70 + 0.001 * i:.4f}\n" for i in range(40)))
    scores = tmp_path / "scores.csv"
    rows = rng.uniform(0.6, 0.9, size=(4, 6)).round(3)
    scores.write_text(
        "candidate,"
        + ",".join(f"d{j}" for j in range(6))
        + "\n"
        + "".join(f"c{i}," + ",".join(map(str, r)) + "\n" for i, r in enumerate(rows))
    )
    per_item = tmp_path / "items.csv"
    X = (rng.uniform(size=(30, 3)) < [0.6, 0.7, 0.8]).astype(int)
    per_item.write_text("item,A,B,C\n" + "".join(f"q{i}," + ",".join(map(str, r)) + "\n" for i, r in enumerate(X)))
    battles = tmp_path / "battles.csv"
    pairs = [("A", "B", "A"), ("B", "C", "C"), ("A", "C", "A"), ("B", "A", "A"), ("C", "A", "C"), ("B", "C", "B")]
    battles.write_text("a,b,winner\n" + "".join(f"{a},{b},{w}\n" for a, b, w in pairs * 3))
    return {"board": board, "scores": scores, "per_item": per_item, "battles": battles}


def test_maxdist(capsys):
    _same(_cli(capsys, ["maxdist", "--n", "300", "--m", "10", "--theta", "0.8"]), sotalib.summarize_max(300, 10, 0.8))


def test_maxdist_dependent(capsys):
    printed = _cli(capsys, ["maxdist", "--n", "300", "--m", "10", "--theta", "0.8", "--rho", "0.6", "--spread", "0.02"])
    _same(printed, sotalib.summarize_max(300, 10, 0.8, rho=0.6, spread=0.02))


def test_auc_max(capsys):
    argv = ["auc-max", "--auc", "0.8", "--n", "200", "--m", "5", "--prevalence", "0.3", "--reps", "50", "--seed", "1"]
    result = sotalib.summarize_max_auc(200, 5, 0.8, 0.3, engine="simulate", n_resamples=50, rng=1)
    _same(_cli(capsys, argv), result)


def test_sota(capsys, files):
    printed = _cli(capsys, ["sota", "--leaderboard", str(files["board"]), "--n", "2000"])
    _same(printed, sotalib.estimate_sota(sotalib.read_leaderboard(files["board"]), 2000, rng=0))


def test_check(capsys):
    argv = ["check", "--p", "100", "--n", "200", "--score", "acc=0.8", "--score", "sens=0.7", "--eps", "1e-4"]
    _same(_cli(capsys, argv), sotalib.check_report(100, 200, {"acc": "0.8", "sens": "0.7"}, eps="1e-4"))


def test_check_multiclass(capsys):
    argv = ["check", "--classes", "30,50,20", "--average", "macro", "--score", "acc=0.6", "--decimals", "2"]
    _same(_cli(capsys, argv), sotalib.check_multiclass([30, 50, 20], {"acc": "0.6"}, average="macro", decimals=2))


def test_check_regression(capsys):
    argv = [
        "check",
        "--task",
        "regression",
        "--n",
        "10",
        "--score",
        "mae=0.5",
        "--score",
        "rmse=0.6",
        "--decimals",
        "2",
    ]
    _same(_cli(capsys, argv), sotalib.check_regression(10, {"mae": "0.5", "rmse": "0.6"}, decimals=2))


def test_testsize(capsys):
    _same(_cli(capsys, ["testsize", "--error", "0.1"]), sotalib.estimate_test_size(0.1))


def test_rank(capsys, files):
    t = read_scores(files["scores"])
    result = sotalib.rank_candidates(t, "copeland", rng=0)
    _same(_cli(capsys, ["rank", "--scores", str(files["scores"]), "--method", "copeland"]), result)


def test_compare(capsys, files):
    t = read_scores(files["scores"])
    result = sotalib.compare_candidates(t)
    _same(_cli(capsys, ["compare", "--scores", str(files["scores"])]), result)


def test_rank_uncertainty(capsys, files):
    f = read_per_item(files["per_item"])
    result = sotalib.estimate_rank_uncertainty(f, n_resamples=200, rng=0)
    printed = _cli(capsys, ["rank-uncertainty", "--per-item", str(files["per_item"]), "--reps", "200", "--seed", "0"])
    _same(printed, result)


def test_rank_uncertainty_battles(capsys, files):
    b = read_battles(files["battles"])
    result = sotalib.judging.bradley_terry(b.a, b.b, b.winner, n_resamples=100, rng=0)
    printed = _cli(capsys, ["rank-uncertainty", "--battles", str(files["battles"]), "--reps", "100", "--seed", "0"])
    _same(printed, result)


def test_check_batch(capsys, tmp_path):
    batch = tmp_path / "reports.csv"
    batch.write_text("p,n,eps,acc,sens\n100,200,1e-4,0.8,0.7\n100,200,1e-4,0.8,0.75\n")
    code = main(["check", "--batch", str(batch), "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert code in (0, 1)
    _same(printed, sotalib.check_batch(batch))
