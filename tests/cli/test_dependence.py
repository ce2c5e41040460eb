"""sotalib dependence: rho_0 measured from a per-item file, on the command line."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from sotalib.cli import main
from sotalib.multiplicity import simulate_per_item


@pytest.fixture
def per_item(tmp_path):
    rng = np.random.default_rng(4)
    theta = rng.uniform(0.6, 0.8, 12)
    X = simulate_per_item(4000, theta, rho=0.5, theta0=0.7, rng=5).outcomes  # items x models, the paper's model
    frame = pd.DataFrame(X, columns=[f"m{j}" for j in range(12)])
    frame.insert(0, "item", [f"q{i}" for i in range(len(frame))])
    path = tmp_path / "items.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_recovers_the_dependence_it_was_simulated_with(per_item, capsys):
    path, _ = per_item
    assert main(["dependence", "--per-item", str(path), "--reps", "300", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rho0_low"] <= 0.5 <= out["rho0_high"]
    assert out["n_items"] == 4000 and out["n_models"] == 12


def test_missing_answers_are_left_out_and_said(per_item, tmp_path, capsys):
    _, frame = per_item
    frame = frame.astype(object)
    frame.iloc[3, 2] = ""
    frame.iloc[10, 5] = ""
    path = tmp_path / "gaps.csv"
    frame.to_csv(path, index=False)
    assert main(["dependence", "--per-item", str(path), "--reps", "0"]) == 0
    text = capsys.readouterr().out
    assert "on 3,998 items" in text and "2 items left out" in text


def test_fit_prints_the_test_and_the_best_of_k(per_item, capsys):
    path, _ = per_item
    assert main(["dependence", "--per-item", str(path), "--reps", "0", "--fit"]) == 0
    text = capsys.readouterr().out
    assert "fit: D =" in text and "best of" in text


def test_a_file_that_is_not_correctness_is_refused_naming_it(tmp_path, capsys):
    path = tmp_path / "losses.csv"
    path.write_text("item,a,b\nq1,1.3,0.5\nq2,0.2,0.9\nq3,1,0\n")
    assert main(["dependence", "--per-item", str(path)]) == 2
    err = capsys.readouterr().err
    assert f'{path}, line 2, column "a": the cell is 1.3, not in [0, 1]' in err and len(err.strip().splitlines()) == 1


def test_sota_on_a_per_item_board_uses_the_measured_dependence(per_item, capsys):
    from sotalib import estimate_sota
    from sotalib.multiplicity import estimate_dependence

    path, frame = per_item
    assert main(["sota", "--per-item", str(path), "--classes", "2", "--json"]) in (0, 3)
    out = json.loads(capsys.readouterr().out)
    X = frame.drop(columns="item").to_numpy(dtype=float)
    rho = float(estimate_dependence(frame, n_resamples=0).rho0)
    direct = estimate_sota(X.mean(axis=0), X.shape[0], classes=2, rho=rho)
    assert out["rho_source"] == "measured from --per-item"
    assert out["details"]["rho"] == rho
    assert out["estimate"] == direct.estimate if direct.solved else out.get("reason")
    assert main(["sota", "--per-item", str(path), "--n", "10"]) == 2
    assert "--n" in capsys.readouterr().err


def test_sota_per_item_prints_what_estimate_sota_returns(per_item, capsys):
    from sotalib import estimate_sota
    from sotalib.judging import read_per_item

    path, _ = per_item
    for argv, kwargs, source in [
        ([], {}, "measured from --per-item"),
        (["--rho", "0.3"], {"rho": 0.3}, "given"),
        (["--method", "naive"], {"method": "naive"}, "not used (--method naive models no dependence)"),
    ]:
        code = main(["sota", "--per-item", str(path), "--json", *argv])
        out = json.loads(capsys.readouterr().out)
        expected = estimate_sota(read_per_item(path, missing=True), **kwargs).to_dict()
        assert code == (0 if expected["solved"] else 3)
        assert out.pop("rho_source") == source
        out.pop("exit_code", None)
        assert out == {**expected, **({"reason": out["reason"]} if not expected["solved"] else {})}


def test_sota_per_item_names_the_file_in_its_errors(tmp_path, capsys):
    path = tmp_path / "gappy.csv"
    path.write_text("item,a,b\nq1,,0\nq2,1,\n")
    assert main(["sota", "--per-item", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"--per-item {path}: no item was answered by every model" in err and len(err.strip().splitlines()) == 1


def test_sota_per_item_refuses_a_file_of_one_model_in_one_line(tmp_path, capsys):
    path = tmp_path / "one.csv"
    path.write_text("item,a\nq1,1\nq2,0\nq3,1\n")
    assert main(["sota", "--per-item", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"--per-item {path}: must have at least 2 models" in err and len(err.strip().splitlines()) == 1


def test_reps_beyond_the_time_limit_are_refused_up_front_naming_reps_and_its_range(per_item, capsys, monkeypatch):
    monkeypatch.setenv("SOTALIB_TIME_LIMIT", "60")
    path, _ = per_item
    assert main(["dependence", "--per-item", str(path), "--reps", "1e9"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sotalib dependence: error: --reps must be an integer in [0, ") and err.count("\n") == 1
    assert "for 4,000 items x 12 models" in err


def test_a_cell_outside_0_1_and_a_repeated_item_are_refused_by_line_and_column(tmp_path, capsys):
    path = tmp_path / "items.csv"
    path.write_text("question_id,A,B,C\n70,1,0,1\n71,0,-0.3,1\n72,1,1,0\n73,0,1,1\n")
    assert main(["dependence", "--per-item", str(path)]) == 2
    assert f'{path}, line 3, column "B": the cell is -0.3, not in [0, 1]' in capsys.readouterr().err
    path.write_text("question_id,A,B,C\n70,1,0,1\n71,0,0,1\n72,1,1,0\n71,0,0,1\n")
    assert main(["dependence", "--per-item", str(path)]) == 2
    assert f"{path}, line 5, column \"question_id\": item ids must be unique: '71'" in capsys.readouterr().err
