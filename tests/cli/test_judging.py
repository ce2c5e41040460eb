"""The ``sotalib rank`` and ``sotalib testsize`` commands."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sotalib.cli import main

TABLE3_CSV = "candidate,judge 1,judge 2,judge 3,judge 4\nC1,0.8,0.5,0.7,0.5\nC2,0.6,0.9,0.4,0.5\nC3,0.4,0.7,0.8,0.5\n"


@pytest.fixture
def table3(tmp_path):
    p = tmp_path / "table3.csv"
    p.write_text(TABLE3_CSV)
    return str(p)


def run_json(capsys, argv):
    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_rank_table3_every_method(table3, capsys):
    expect = {
        "mean": (["C1", "C2", "C3"], {"C1": 0.625, "C2": 0.6, "C3": 0.6}),
        "median": (["C1", "C3", "C2"], {"C1": 0.6, "C2": 0.55, "C3": 0.6}),
        "average-rank": (["C1", "C2", "C3"], {"C1": 2.0, "C2": 2.0, "C3": 2.0}),
        "copeland": (["C1", "C2", "C3"], {"C1": 0.5, "C2": 0.5, "C3": 0.5}),
        "kemeny": (["C1", "C2", "C3"], {"C1": 2.0, "C2": 2.0, "C3": 2.0}),
    }
    for method, (ranking, scores) in expect.items():
        out = run_json(capsys, ["rank", "--scores", table3, "--method", method])
        assert out["ranking"] == ranking, method
        assert out["scores"] == pytest.approx(scores), method
    out = run_json(capsys, ["rank", "--scores", table3, "--method", "relative-difference"])
    assert out["ranking"] == ["C1", "C3", "C2"]
    out = run_json(capsys, ["rank", "--scores", table3, "--method", "median"])
    assert out["ranks"] == {"C1": 1.5, "C3": 1.5, "C2": 3.0}


def test_rank_random_dictator_seeded(table3, capsys):
    a = run_json(capsys, ["rank", "--scores", table3, "--method", "random-dictator", "--seed", "3"])
    b = run_json(capsys, ["rank", "--scores", table3, "--method", "random-dictator", "--seed", "3"])
    assert a == b and a["note"].startswith("judge ")


def test_rank_lower_is_better(tmp_path, capsys):
    p = tmp_path / "loss.csv"
    p.write_text("model,task a,task b,task c\nx,0.1,0.2,0.3\ny,0.3,0.1,0.4\nz,0.5,0.6,0.2\n")
    out = run_json(capsys, ["rank", "--scores", str(p), "--method", "mean", "--lower-is-better"])
    assert out["ranking"] == ["x", "y", "z"] and out["lower_is_better"] is True
    out = run_json(capsys, ["rank", "--scores", str(p), "--method", "average-rank", "--lower-is-better"])
    assert out["ranking"][0] == "x"


@pytest.mark.parametrize(
    "content, message",
    [
        ("", "header"),
        ("name,j1\n", "header"),
        ("name\nA\n", "judge column"),
        ("name,j1,j2\nA,1,2\nB,1\n", 'line 3, column "j2": blank cell'),
        ("name,j1\nA,abc\n", "line 2, column \"j1\": 'abc' is not a number"),
        ("name,j1\nA,nan\n", "line 2, column \"j1\": 'nan' is not a finite number"),
        ("name,j1\nA,1\nA,2\n", "candidate names must be unique: 'A' is listed on lines 2 and 3"),
    ],
)
def test_rank_malformed_files_exit_2(tmp_path, capsys, content, message):
    p = tmp_path / "bad.csv"
    p.write_text(content)
    assert main(["rank", "--scores", str(p), "--method", "mean"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_rank_unknown_method_and_missing_file(table3, capsys, tmp_path):
    assert main(["rank", "--scores", table3, "--method", "borda"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--method" in err
    assert main(["rank", "--scores", str(tmp_path / "none.csv"), "--method", "mean"]) == 2
    assert main(["rank", "--scores", table3, "--method", "relative-difference"]) == 0
    p = tmp_path / "neg.csv"
    p.write_text("n,j\nA,-1\nB,2\n")
    capsys.readouterr()
    assert main(["rank", "--scores", str(p), "--method", "relative-difference"]) == 2
    assert "non-negative" in capsys.readouterr().err


def test_testsize_worked_values(capsys):
    out = run_json(capsys, ["testsize", "--error", "0.01", "--z", "1", "--precision", "1"])
    assert out["rule_of_thumb"] == 10_000 and out["guyon"] == 9_900
    out = run_json(capsys, ["testsize", "--error", "0.01", "--z", "1", "--precision", "2"])
    assert out["guyon"] == 990_000
    out = run_json(capsys, ["testsize", "--error", "0.1", "--sd", "0.3", "--z", "2"])
    assert out["guyon"] == 3_600 and out["sd"] == 0.3
    out = run_json(capsys, ["testsize", "--error", "2.5", "--sd", "5"])
    assert out["rule_of_thumb"] is None and out["guyon"] == 1537


def test_testsize_confidence_is_a_level(capsys):
    """The trap: 0.95 is a 95% level (z = 1.96, 3,458 items), never a z value of 0.95 (813 items)."""
    out = run_json(capsys, ["testsize", "--error", "0.1", "--sd", "0.3", "--confidence", "0.95"])
    assert out["guyon"] == 3_458 and out["confidence"] == 0.95 and out["alpha"] == 0.05
    assert out == run_json(capsys, ["testsize", "--error", "0.1", "--sd", "0.3"])  # 0.95 is the default
    assert run_json(capsys, ["testsize", "--error", "0.1", "--sd", "0.3", "--z", "1.96"])["guyon"] == 3_458
    for argv, option in (
        (["--confidence", "1.96"], "--confidence must be a number in (0, 1)"),
        (["--confidence", "95"], "--confidence must be a number in (0, 1)"),
        (["--confidence", "1"], "--confidence must be a number in (0, 1)"),
        (["--z", "0"], "--z must be in (0, inf), got 0"),
        (["--confidence", "0.9", "--z", "2"], "--confidence"),
    ):
        assert main(["testsize", "--error", "0.1", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and option in err, err
    assert main(["testsize", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "confidence level in (0, 1), e.g. 0.95 for 95%" in help_text and "default 0.95" in help_text


@pytest.mark.parametrize(
    "argv",
    [
        ["--error", "0"],
        ["--error", "1.5"],
        ["--error", "0.1", "--sd", "-1"],
        ["--error", "0.1", "--confidence", "0"],
        ["--error", "x"],
    ],
)
def test_testsize_bad_input_exit_2(capsys, argv):
    try:
        code = main(["testsize"] + argv)
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_console_script(table3):
    exe = Path(sys.executable).parent / "sotalib"
    out = subprocess.run(
        [str(exe), "rank", "--scores", table3, "--method", "copeland", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout)["scores"] == {"C1": 0.5, "C2": 0.5, "C3": 0.5}
    bad = subprocess.run([str(exe), "rank", "--scores", table3, "--method", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    out = subprocess.run(
        [str(exe), "testsize", "--error", "0.05", "--json"], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout)["rule_of_thumb"] == 2000


def test_check_rank_testsize_modules_import_nothing_heavy():
    code = (
        "import sys, sotalib.cli.check, sotalib.cli.rank, sotalib.cli.testsize; "
        "print(','.join(m for m in ('numpy', 'scipy', 'numba', 'pandas') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_rank_json_is_rank_candidates_to_dict(table3, capsys):
    from sotalib.judging import rank_candidates, read_scores

    t = read_scores(table3)
    for method, seed in (("copeland", []), ("random-dictator", ["--seed", "5"])):  # only the dictator draws
        out = run_json(capsys, ["rank", "--scores", table3, "--method", method, *seed])
        assert out == rank_candidates(t, method, rng=5).to_dict()


def test_testsize_json_is_estimate_test_size_to_dict(capsys):
    from sotalib.judging import estimate_test_size

    out = run_json(capsys, ["testsize", "--error", "0.02", "--confidence", "0.9", "--precision", "1.5"])
    assert out == estimate_test_size(0.02, alpha=0.1, precision=1.5).to_dict()
    out = run_json(capsys, ["testsize", "--error", "0.02", "--z", "2.5", "--precision", "1.5"])
    assert out == estimate_test_size(0.02, z=2.5, precision=1.5).to_dict()
