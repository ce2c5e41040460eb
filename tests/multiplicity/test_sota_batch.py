"""estimate_sota_batch: every board of a manifest answered, and none lost."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import sotalib as sl

BOARDS = "data/leaderboards/"


@pytest.fixture
def folder(tmp_path, root):
    rng = np.random.default_rng(5)
    auc = np.round(0.80 + 0.03 * rng.random(200), 4)
    pd.DataFrame({"score": auc}).to_csv(tmp_path / "auc.csv", index=False)
    pd.DataFrame({"score": np.round(2 * auc - 1, 4)}).to_csv(tmp_path / "gini.csv", index=False)
    cassava = root / BOARDS / "cassava-leaf-disease-classification__private.csv"
    (tmp_path / "cassava.csv").write_bytes(cassava.read_bytes())
    return tmp_path


def test_every_board_gets_an_answer_a_reason_or_an_error(folder):
    (folder / "manifest.csv").write_text(
        "id,file,n,metric,classes,prevalence\n"
        "auc,auc.csv,20000,auc,,0.3\n"
        "gini,gini.csv,20000,gini,,0.3\n"
        "cassava,cassava.csv,15000,accuracy,5,\n"
        "missing,nowhere.csv,1000,accuracy,2,\n"
        "wrong metric,auc.csv,1000,f1,,\n"
    )
    result = sl.estimate_sota_batch(folder / "manifest.csv")
    by_id = {r["id"]: r for r in result.boards}
    assert [r["row"] for r in result.boards] == [1, 2, 3, 4, 5]
    assert by_id["auc"]["status"] == "solved" and by_id["auc"]["exit_code"] == 0
    # a Gini board is its AUC board: (Gini + 1) / 2, the same estimate
    assert by_id["gini"]["estimate"] == pytest.approx(by_id["auc"]["estimate"], abs=1e-4)
    assert by_id["gini"]["metric"] == "auc"
    # Cassava's winner is an outlier: no shrinkage weight solves the equation (chapter 4)
    assert by_id["cassava"]["status"] == "no solution" and by_id["cassava"]["exit_code"] == 3
    assert "outlier" in by_id["cassava"]["reason"]
    assert by_id["missing"]["status"] == "error" and "nowhere.csv" in by_id["missing"]["error"]
    assert by_id["wrong metric"]["status"] == "error" and "metric" in by_id["wrong metric"]["error"]
    json.dumps(result.to_dict(), allow_nan=False)  # strict JSON, as --json prints it
    assert len(result.to_text().splitlines()) == 5


def test_a_dataframe_manifest_and_the_same_answer_as_one_call(folder, monkeypatch):
    monkeypatch.chdir(folder)
    manifest = pd.DataFrame({"file": ["cassava.csv"], "n": [15000], "classes": [5], "method": ["naive"]})
    row = sl.estimate_sota_batch(manifest).boards[0]
    single = sl.estimate_sota(sl.read_leaderboard("cassava.csv"), 15000, classes=5, method="naive")
    assert row["estimate"] == single.estimate and row["ci_low"] == single.ci_low


def test_a_dataframe_manifest_with_pandas_missing_values_reads_them_as_blank(folder, monkeypatch):
    # nullable columns hold pd.NA, which has no truth value: the manifest used to fail on it
    monkeypatch.chdir(folder)
    manifest = pd.DataFrame(
        {
            "file": ["auc.csv", "cassava.csv"],
            "n": [20000, 15000],
            "metric": ["auc", "accuracy"],
            "classes": pd.array([pd.NA, 5], dtype="Int64"),
            "prevalence": pd.array([0.3, pd.NA], dtype="Float64"),
            "method": ["shrink", "naive"],
        }
    )
    rows = sl.estimate_sota_batch(manifest).boards
    single = sl.estimate_sota(sl.read_leaderboard("cassava.csv"), 15000, classes=5, method="naive")
    assert rows[1]["estimate"] == single.estimate
    assert rows[0]["metric"] == "auc" and rows[0].get("error") is None


@pytest.mark.parametrize(
    "text, match",
    [
        ("file,n,colour\nauc.csv,100,red\n", "unknown column 'colour'"),
        ("file,metric\nauc.csv,auc\n", "no column 'n'"),
        ("file,n,N\nauc.csv,100,100\n", "given twice"),
    ],
)
def test_an_unusable_manifest_is_refused_naming_the_column(folder, text, match):
    (folder / "m.csv").write_text(text)
    with pytest.raises(ValueError, match=match):
        sl.estimate_sota_batch(folder / "m.csv")


def test_a_bad_cell_costs_only_its_row(folder):
    (folder / "m.csv").write_text("file,n,rho\nauc.csv,12.5,0.6\ncassava.csv,15000,abc\ncassava.csv,15000,0\n")
    rows = sl.estimate_sota_batch(folder / "m.csv").boards
    assert rows[0]["status"] == "error" and "n" in rows[0]["error"]
    assert rows[1]["status"] == "error" and "rho" in rows[1]["error"]
    assert rows[2]["status"] in ("solved", "no solution")


def test_a_gini_board_may_hold_negative_coefficients(tmp_path):
    """A normalized Gini below 0 is an AUC below 0.5 (a valid score below chance), not a bad file."""
    (tmp_path / "g.csv").write_text("score\n0.30\n0.28\n-0.02\n-1.0\n")
    board = sl.read_leaderboard(tmp_path / "g.csv", scale="gini")
    np.testing.assert_allclose(board.scores, [0.65, 0.64, 0.49, 0.0])
    assert any("Gini" in note for note in board.notes)
    (tmp_path / "bad.csv").write_text("score\n0.3\n1.5\n")
    with pytest.raises(ValueError, match=r"Gini coefficients must be in \[-1, 1\], got 1.5"):
        sl.read_leaderboard(tmp_path / "bad.csv", scale="gini")
