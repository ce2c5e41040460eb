"""``sotalib sota --chance P``: the chance level on the command line (issue 33)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sotalib.cli import main


def _per_item_file(tmp_path):
    """Five models of a code benchmark on 40 items, accuracies 0.1 to 0.5 (all at or below 1/2)."""
    rng = np.random.default_rng(0)
    Y = (rng.random((40, 5)) < np.array([0.1, 0.2, 0.3, 0.4, 0.45])).astype(int)
    Y[:20, 4] = 1  # the best model solves half the items at least
    Y[20:, 4] = 0
    path = tmp_path / "code.csv"
    lines = ["item," + ",".join(f"model{j}" for j in range(5))]
    lines += [f"q{i}," + ",".join(map(str, row)) for i, row in enumerate(Y)]
    path.write_text("\n".join(lines) + "\n")
    return path, Y


def test_chance_zero_keeps_every_model(tmp_path, capsys):
    path, Y = _per_item_file(tmp_path)
    assert main(["sota", "--per-item", str(path), "--method", "naive", "--chance", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["below_chance"] == 0 and out["m"] == 5 and out["details"]["chance"] == 0
    assert out["sample_max"] == pytest.approx(Y.mean(axis=0).max())


def test_default_chance_says_which_option_changes_it(tmp_path, capsys):
    path, _ = _per_item_file(tmp_path)
    assert main(["sota", "--per-item", str(path), "--method", "naive"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no team is above chance (0.5)" in err and "--chance 0" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--chance", "0", "--classes", "2"], "--chance and --classes cannot both be given"),
        (["--chance", "1"], "--chance must be in [0, 1), got 1"),
        (["--chance", "-0.5"], "--chance must be in [0, 1), got -0.5"),
        (["--chance", "x"], "--chance"),
    ],
)
def test_chance_refusals(tmp_path, capsys, extra, message):
    path, _ = _per_item_file(tmp_path)
    assert main(["sota", "--per-item", str(path), "--method", "naive", *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_chance_refused_for_the_auc(tmp_path, capsys):
    board = tmp_path / "lb.csv"
    board.write_text("score\n0.8\n0.9\n")
    code = main(["sota", "--leaderboard", str(board), "--n", "100", "--metric", "auc", "--prevalence", "0.3",
                 "--chance", "0.5"])  # fmt: skip
    assert code == 2 and "--chance does not apply to --metric auc" in capsys.readouterr().err


def test_leaderboard_chance(tmp_path, capsys):
    board = tmp_path / "lb.csv"
    board.write_text("score\n" + "\n".join(f"{s:.3f}" for s in np.linspace(0.2, 0.6, 40)) + "\n")
    assert main(["sota", "--leaderboard", str(board), "--n", "164", "--rho", "0", "--chance", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["m"] == 40 and out["estimate"] == pytest.approx(out["weight"] * out["sample_max"], abs=1e-12)


def test_item_info_options_give_the_chance_level(tmp_path, capsys):
    """--item-info FILE with a column options: 1/options per item, the board's chance their mean (by hand)."""
    from fractions import Fraction

    path, Y = _per_item_file(tmp_path)
    options = [2, 3, 4, 5, 10] * 8
    info = tmp_path / "info.csv"
    info.write_text("item,options\n" + "\n".join(f"q{i},{k}" for i, k in enumerate(options)) + "\n")
    level = sum(Fraction(1, k) for k in options) / len(options)
    assert main(["sota", "--per-item", str(path), "--item-info", str(info), "--method", "naive", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["details"]["chance"] == pytest.approx(float(level), abs=1e-15)
    acc = Y.mean(axis=0)
    assert out["below_chance"] == int((acc <= float(level)).sum()) and out["m"] == int((acc > float(level)).sum())
    for extra, chance in ((["--classes", "2"], 0.5), (["--chance", "0"], 0.0)):  # the options given override it
        cmd = ["sota", "--per-item", str(path), "--item-info", str(info), "--method", "naive", *extra, "--json"]
        if chance == 0.5:
            assert main(cmd) == 2  # no model is above 1/2: the error names --chance
            assert "--chance 0" in capsys.readouterr().err
        else:
            assert main(cmd) == 0 and json.loads(capsys.readouterr().out)["details"]["chance"] == chance


def test_humaneval_plus_eval_arena_file(capsys):
    """HumanEval+ as eval-arena publishes it: the default chance 1/2 drops 17 of the 49 code models, --chance 0 none."""
    path = str(Path(__file__).parents[2] / "data" / "llm" / "eval-arena" / "humaneval+.jsonl.gz")
    assert main(["sota", "--per-item", path, "--method", "naive", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["below_chance"] == 17
    assert main(["sota", "--per-item", path, "--method", "naive", "--chance", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["below_chance"] == 0 and out["m"] == 49 and out["n"] == 164
