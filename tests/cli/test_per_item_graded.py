"""``sotalib dependence`` and ``sota --per-item`` on graded outcomes: CRUXEval's pass@1 averaged over samples (issue 33)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sotalib import read_per_item
from sotalib.cli import main

CRUX = Path(__file__).resolve().parents[2] / "data" / "llm" / "eval-arena" / "cruxeval_input.jsonl.gz"


def _reference_phi(X):
    """Mean over pairs of models of cov(X_j, X_k) / sqrt(theta_j (1 - theta_j) theta_k (1 - theta_k)), by loops."""
    theta = X.mean(axis=0)
    m = X.shape[1]
    phis = [
        np.mean((X[:, j] - theta[j]) * (X[:, k] - theta[k]))
        / np.sqrt(theta[j] * (1 - theta[j]) * theta[k] * (1 - theta[k]))
        for j in range(m)
        for k in range(j + 1, m)
    ]
    return float(np.mean(phis))


def test_dependence_on_cruxeval(capsys):
    assert main(["dependence", "--per-item", str(CRUX), "--reps", "100", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    X = read_per_item(CRUX).shared().outcomes
    assert out["graded"] is True and out["n_items"] == 800 and out["n_models"] == 37
    assert out["mean_phi"] == pytest.approx(_reference_phi(X), abs=1e-12)
    assert out["rho0"] == pytest.approx(np.sqrt(out["mean_phi"]), abs=1e-12)
    assert out["rho0_low"] < out["rho0"] < out["rho0_high"]
    assert out["mean_corr"] > out["mean_phi"]  # means of several samples: their own correlation is higher
    assert main(["dependence", "--per-item", str(CRUX), "--reps", "0"]) == 0
    text = capsys.readouterr().out
    assert "rho_0" in text and "mean corr" in text


def test_sota_on_cruxeval_with_chance_zero(capsys):
    assert main(["sota", "--per-item", str(CRUX), "--chance", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    X = read_per_item(CRUX).shared().outcomes
    assert out["m"] == 37 and out["n"] == 800 and out["below_chance"] == 0
    assert out["sample_max"] == pytest.approx(X.mean(axis=0).max(), abs=1e-9)
    assert out["details"]["graded"] is True and out["details"]["rho"] == pytest.approx(np.sqrt(_reference_phi(X)))
    assert out["estimate"] <= out["sample_max"] and any("graded outcomes" in note for note in out["notes"])
    assert main(["sota", "--per-item", str(CRUX), "--chance", "0"]) == 0
    assert "best model" in capsys.readouterr().out


def test_a_cell_outside_0_1_is_refused_by_line_and_column(tmp_path, capsys):
    path = tmp_path / "losses.csv"
    path.write_text("item,a,b,c\nq1,0.5,0.25,1\nq2,0.2,1.5,0\nq3,1,0,0.5\n")
    for command in (["dependence"], ["sota", "--chance", "0"]):
        assert main([*command, "--per-item", str(path)]) == 2
        err = capsys.readouterr().err
        assert f'{path}, line 3, column "b": the cell is 1.5, not in [0, 1]' in err and err.count("\n") == 1
