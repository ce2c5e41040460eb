"""``sotalib sota``: JSON keys, no-solution exit 3, bad input exit 2, the AUC, the console script."""

from __future__ import annotations

import json
import subprocess
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from sotalib.cli import main
from sotalib.multiplicity import estimate_sota, read_leaderboard


@pytest.fixture(scope="module")
def iid_board():
    rng = np.random.default_rng(2024)
    return rng.binomial(3000, 0.9, 1000) / 3000


def _write(tmp_path, text, name="lb.csv"):
    p = tmp_path / name
    p.write_text(text)
    return p


def _board_file(tmp_path, scores):
    rows = "\n".join(f"{i},t{i},{s:.6f}" for i, s in enumerate(scores))
    return _write(tmp_path, "TeamId,TeamName,Score\n" + rows + "\n")


def test_cli_json_keys(tmp_path, capsys, iid_board):
    p = _board_file(tmp_path, iid_board)
    code = main(["sota", "--leaderboard", str(p), "--n", "3000", "--rho", "0", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in ("m", "sample_max", "estimate", "weight", "expected_max", "ci_low", "ci_high", "teams_above"):
        assert key in out
    assert out["m"] == 1000 and 0.9 < out["estimate"] < out["sample_max"]


def test_cli_no_solution_exit_3(tmp_path, capsys):
    rng = np.random.default_rng(5)
    p = _board_file(tmp_path, np.concatenate([[0.95], rng.binomial(2000, 0.80, 300) / 2000]))
    code = main(["sota", "--leaderboard", str(p), "--n", "2000", "--json"])
    cap = capsys.readouterr()
    assert code == 3
    out = json.loads(cap.out)
    assert out["estimate"] is None and "outlier" in out["reason"]
    assert len(cap.err.strip().splitlines()) == 1


def test_cli_bad_input_exit_2(tmp_path, capsys):
    p = _write(tmp_path, "TeamId,TeamName,Score\n1,a,zz\n")
    assert main(["sota", "--leaderboard", str(p), "--n", "100"]) == 2
    err = capsys.readouterr().err
    assert "lb.csv, line 2, column \"Score\": 'zz' is not a number" in err and len(err.strip().splitlines()) == 1
    assert main(["sota", "--leaderboard", str(tmp_path / "no.csv"), "--n", "100"]) == 2
    assert main(["sota", "--leaderboard", str(p), "--n", "0"]) == 2
    capsys.readouterr()


def test_console_script(tmp_path):
    exe = Path(sysconfig.get_path("scripts")) / "sotalib"  # the running interpreter's console scripts
    p = _write(tmp_path, "TeamId,TeamName,Score\n1,a,nan-ish\n")
    r = subprocess.run([str(exe), "sota", "--leaderboard", str(p), "--n", "10"], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_auc_cli(tmp_path, capsys):
    board = np.concatenate([[0.93], np.full(40, 0.85)])
    p = _board_file(tmp_path, board)
    assert main(["sota", "--leaderboard", str(p), "--n", "2000", "--metric", "auc"]) == 2  # no --prevalence
    assert "--prevalence" in capsys.readouterr().err
    code = main(["sota", "--leaderboard", str(p), "--n", "2000", "--metric", "auc", "--prevalence", "0.1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and 0.85 < out["estimate"] < 0.93 and out["m"] == 41


def test_cli_prints_the_front_door_result(tmp_path, capsys, iid_board):
    p = _board_file(tmp_path, iid_board[:200])
    for method in ("shrink", "crop", "deconvolve"):
        # --rho where a dependence is modelled, --seed where something is drawn: elsewhere they are refused
        options = ["--seed", "4"] if method == "deconvolve" else ["--rho", "0"]
        assert main(["sota", "--leaderboard", str(p), "--n", "3000", "--method", method, *options, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        est = estimate_sota(read_leaderboard(p), 3000, rho=0.0, method=method, rng=4)
        assert out == json.loads(json.dumps(est.to_dict()))


@pytest.mark.parametrize("method", ["shrink", "naive", "observed"])
def test_cli_json_is_to_dict_of_the_same_call(tmp_path, capsys, iid_board, method):
    """``sota --json`` prints exactly ``estimate_sota(read_leaderboard(FILE), ...).to_dict()``, with what
    reading the file dropped and merged, and keeps every key it printed before."""
    rows = "\n".join(f"{i},t{i},{s:.6f}" for i, s in enumerate(iid_board[:100]))
    p = _write(tmp_path, "TeamId,TeamName,Score\n" + rows + "\n100,late,\n3,t3,0.5\n")
    rho = [] if method == "naive" else ["--rho", "0"]  # the naive interval models no dependence: --rho is refused
    args = ["sota", "--leaderboard", str(p), "--n", "3000", *rho, "--method", method, "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    est = estimate_sota(read_leaderboard(p), 3000, rho=0.0, method=method, rng=0, progress=False)
    assert out == json.loads(json.dumps(est.to_dict()))
    assert (out["dropped"], out["duplicates"], out["m"], out["n"], out["solved"]) == (1, 1, 100, 3000, True)
    assert len(out["notes"]) == 2
    before = {"m", "sample_max", "estimate", "weight", "expected_max", "ci_low", "ci_high", "teams_above", "method"}
    before |= {"below_chance", "excluded", "reason", "details", "dropped", "duplicates", "notes"}
    assert before <= set(out)


def test_cli_target_for_monte_carlo_methods_is_an_error_not_ignored(tmp_path, capsys, iid_board):
    p = _board_file(tmp_path, iid_board[:50])
    assert main(["sota", "--leaderboard", str(p), "--n", "3000", "--method", "abc", "--target", "upper"]) == 2
    err = capsys.readouterr().err
    assert "--target upper does not apply to --method abc" in err and err.count("\n") == 1


def test_cli_scores_outside_the_unit_interval(tmp_path, capsys):
    p = _write(tmp_path, "TeamId,TeamName,Score\n1,a,0.915\n2,b,1.5\n")
    assert main(["sota", "--leaderboard", str(p), "--n", "100"]) == 2
    err = capsys.readouterr().err
    assert "mix two scales (0.915 and 1.5)" in err and "--scale unit or --scale percent" in err
    assert err.count("\n") == 1
    p = _write(tmp_path, "TeamId,TeamName,Score\n1,a,0.915\n2,b,150\n")
    assert main(["sota", "--leaderboard", str(p), "--n", "100", "--scale", "unit"]) == 2
    err = capsys.readouterr().err
    assert "scores must be in [0, 1]" in err and "150" in err and err.count("\n") == 1


def test_cli_engine_at_large_n(tmp_path, capsys):
    """A 2,000-team board at n = 10^7: auto takes the normal engine, says so with its accuracy, and prints the
    digits a count can move (six decimals); --engine exact and normal are the library's; a wrong one exits 2."""
    n = 10_000_000
    rng = np.random.default_rng(4)
    scores = rng.binomial(n, 0.9 - np.abs(rng.normal(0, 0.002, 2000))) / n
    path = _write(tmp_path, "rank,score\n" + "\n".join(f"{i},{s:.7f}" for i, s in enumerate(scores)) + "\n")
    assert main(["sota", "--leaderboard", str(path), "--n", str(n), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    lib = estimate_sota(scores, n, engine="normal")
    assert out["details"]["engine"] == "normal" and out["details"]["accuracy"] == lib.details["accuracy"]
    assert out["estimate"] == lib.estimate and out["ci_high"] == lib.ci_high
    assert main(["sota", "--leaderboard", str(path), "--n", str(n)]) == 0
    text = capsys.readouterr().out
    assert f"estimate         {lib.estimate:.6f}" in text and "note: engine: normal (Edgeworth)" in text
    assert main(["sota", "--leaderboard", str(path), "--n", str(n), "--engine", "simulate"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--engine simulate is for --metric auc" in err[0]


def test_cli_engine_exact_is_the_default_where_it_is_fast(tmp_path, capsys, iid_board):
    path = _board_file(tmp_path, iid_board)
    assert main(["sota", "--leaderboard", str(path), "--n", "3000", "--json"]) == 0
    auto = json.loads(capsys.readouterr().out)
    assert main(["sota", "--leaderboard", str(path), "--n", "3000", "--engine", "exact", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == auto and auto["details"]["engine"] == "exact"


def test_cli_auc_engine_at_large_n(tmp_path, capsys):
    """An AUC board at n = 200,000: auto takes the normal approximation (the simulation would draw 10^10
    scores per evaluation) and the result states its accuracy; the library gives the same numbers."""
    rng = np.random.default_rng(8)
    aucs = 0.9 - np.abs(rng.normal(0, 0.004, 300))
    path = _write(tmp_path, "rank,score\n" + "\n".join(f"{i},{a:.6f}" for i, a in enumerate(aucs)) + "\n")
    args = ["sota", "--leaderboard", str(path), "--n", "200000", "--metric", "auc", "--prevalence", "0.3"]
    assert main(args + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    lib = estimate_sota(np.round(aucs, 6), 200_000, metric="auc", prevalence=0.3, rng=0)
    assert out["details"]["engine"] == lib.details["engine"] == "normal"
    assert out["estimate"] == lib.estimate and "sd of the maximum" in out["details"]["accuracy"]
    assert main(args + ["--engine", "exact"]) == 2
    assert "--engine exact is for --metric accuracy" in capsys.readouterr().err


def test_an_engine_that_does_not_apply_to_the_method_is_refused(tmp_path, capsys):
    from sotalib.cli import main

    p = tmp_path / "lb.csv"
    p.write_text("team,score\nt1,0.91\nt2,0.90\nt3,0.895\nt4,0.89\nt5,0.885\n")
    assert main(["sota", "--leaderboard", str(p), "--n", "1000", "--method", "deconvolve", "--engine", "normal"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sotalib sota: error: --engine normal does not apply to --method deconvolve"), err


def test_batch_estimates_every_board_and_loses_none(tmp_path, capsys):
    import json as _json

    from sotalib.cli import main as _main

    root = Path(__file__).resolve().parents[2]
    cassava = root / "data" / "leaderboards" / "cassava-leaf-disease-classification__private.csv"
    obesity = root / "data" / "leaderboards" / "playground-series-s4e2__private.csv"
    manifest = tmp_path / "boards.csv"
    manifest.write_text(
        f"id,file,n,classes\nobesity,{obesity},11072,7\ncassava,{cassava},15000,5\nlost,missing.csv,100,2\n"
    )
    code = _main(["sota", "--batch", str(manifest), "--json"])
    rows = {r["id"]: r for r in _json.loads(capsys.readouterr().out)["boards"]}
    assert code == 1  # one board could not be read; the others are answered
    assert rows["obesity"]["status"] == "solved" and rows["obesity"]["teams_above"] == 1088
    assert rows["cassava"]["status"] == "no solution" and rows["cassava"]["exit_code"] == 3
    assert rows["lost"]["status"] == "error" and "missing.csv" in rows["lost"]["error"]
    assert _main(["sota", "--batch", str(manifest), "--rho", "0.5"]) == 2
    err = capsys.readouterr().err
    assert "--rho" in err and "--batch" in err and len(err.strip().splitlines()) == 1


def test_gini_is_estimated_as_its_auc(tmp_path, capsys):
    import json as _json

    from sotalib.cli import main as _main

    rng = np.random.default_rng(2)
    auc = np.round(0.80 + 0.02 * rng.random(150), 4)
    (tmp_path / "auc.csv").write_text("score\n" + "\n".join(map(str, auc)) + "\n")
    (tmp_path / "gini.csv").write_text("score\n" + "\n".join(f"{2 * a - 1:.4f}" for a in auc) + "\n")
    out = {}
    for metric in ("auc", "gini"):
        board = tmp_path / f"{metric}.csv"
        args = ["sota", "--leaderboard", str(board), "--n", "20000", "--metric", metric]
        assert _main([*args, "--prevalence", "0.3", "--engine", "normal", "--json"]) == 0
        out[metric] = _json.loads(capsys.readouterr().out)
    assert out["gini"]["estimate"] == pytest.approx(out["auc"]["estimate"], abs=1e-4)
    assert any("Gini" in note for note in out["gini"]["notes"])
