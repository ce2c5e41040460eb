"""``sotalib check``: options, JSON keys, errors, batch."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sotalib.cli import main

PAPER = ["--score", "acc=0.6801", "--score", "npv=0.9401", "--score", "f1=0.4004"]


def _json(capsys, argv):
    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_single_test_set_json_keys(capsys):
    out = _json(
        capsys,
        [
            "check",
            "--p",
            "1000",
            "--n",
            "6000",
            "--eps",
            "1e-4",
            *PAPER[:2],
            "--score",
            "npv=0.9401",
            "--score",
            "f1=0.4004",
        ][:0]
        + [
            "check",
            "--p",
            "1000",
            "--n",
            "6000",
            "--eps",
            "1e-4",
            "--score",
            "acc=0.6821",
            "--score",
            "npv=0.9401",
            "--score",
            "f1=0.4004",
        ],
    )
    assert out["consistent"] is True
    assert out["n_solutions"] == 2
    assert out["solutions"] == [[743, 4031], [743, 4032]]
    assert out["configurations_tested"] == 1


def test_inconsistent_with_typo(capsys):
    out = _json(capsys, ["check", "--p", "1000", "--n", "6000", "--eps", "1e-4", *PAPER])
    assert out["consistent"] is False and out["n_solutions"] == 0 and out["solutions"] == []
    # plausible typos only: npv 0.9401 -> 0.9409 and the paper's own typo, acc 0.6801 -> 0.6821
    # (one mistyped digit each); f1 would need 0.4004 -> 0.3993, no typo
    by = {s["score"]: s for s in out["suggestions"]}
    assert set(by) == {"acc", "npv"}
    assert (by["acc"]["suggested"], by["acc"]["change"], by["acc"]["typo"]) == (0.6821, 0.002, "one digit")
    assert by["acc"]["example"] == [743, 4031] and by["acc"]["n_solutions"] == 2
    assert by["npv"]["suggested"] == 0.9409 and out["diagnosis"].startswith("a typo is plausible")


def test_tpehg_unknown_folds(capsys):
    out = _json(
        capsys,
        [
            "check",
            "--p",
            "38",
            "--n",
            "262",
            "--k",
            "5",
            "--eps",
            "1e-4",
            "--score",
            "acc=0.9447",
            "--score",
            "sens=0.9139",
            "--score",
            "spec=0.9733",
            "--aggregation",
            "mos",
        ],
    )
    assert out["consistent"] is False and out["configurations_tested"] == 918 and out["n_solutions"] == 0


def test_mos_explicit_folds_and_unknown_aggregation(capsys):
    folds = "1:101,4:97,40:61,99:2,100:1"
    out = _json(
        capsys,
        [
            "check",
            "--folds",
            folds,
            "--eps",
            "1e-4",
            "--score",
            "acc=0.9447",
            "--score",
            "sens=0.9139",
            "--score",
            "spec=0.9733",
        ],
    )
    assert out["consistent"] is True and "mos" in out["fits"]
    out = _json(
        capsys,
        [
            "check",
            "--folds",
            folds,
            "--eps",
            "1e-4",
            "--score",
            "acc=0.9447",
            "--score",
            "sens=0.9139",
            "--score",
            "spec=0.9733",
            "--aggregation",
            "mos",
        ],
    )
    assert out["n_solutions"] == 1 and len(out["solutions"][0]) == 5


def test_stratified(capsys):
    out = _json(
        capsys,
        [
            "check",
            "--p",
            "244",
            "--n",
            "262",
            "--k",
            "5",
            "--stratified",
            "--decimals",
            "4",
            "--score",
            "acc=0.9447",
            "--score",
            "sens=0.9139",
            "--score",
            "spec=0.9733",
            "--aggregation",
            "mos",
        ],
    )
    assert out["configurations_tested"] == 1


@pytest.mark.parametrize(
    "argv,msg",
    [
        (["--p", "10", "--n", "10", "--eps", "0.01", "--score", "auc=0.5"], "score must be one of"),
        (["--p", "10", "--n", "10", "--eps", "0.01", "--score", "acc=1.5"], "must be in"),
        (["--p", "10", "--n", "10", "--score", "acc=0.5"], "exactly one of --eps and --decimals"),
        (["--p", "10", "--n", "10", "--eps", "0.01", "--decimals", "2", "--score", "acc=0.5"], "exactly one"),
        (["--p", "10", "--n", "10", "--eps", "0.01", "--rounding", "floor", "--score", "acc=0.5"], "needs --decimals"),
        (["--p", "10", "--n", "10", "--eps", "0.01", "--score", "acc"], "NAME=VALUE"),
        (
            ["--p", "10", "--n", "10", "--eps", "0.01", "--score", "acc=0.5", "--aggregation", "mos"],
            "needs --folds or --k",
        ),
        (
            ["--p", "10", "--n", "10", "--eps", "0.01", "--score", "f1=0.5", "--k", "2", "--aggregation", "mos"],
            "supports",
        ),
        (["--p", "0", "--n", "10", "--eps", "0.01", "--score", "acc=0.5"], "p must be"),
    ],
)
def test_errors_are_one_line_exit_2(capsys, argv, msg):
    assert main(["check", *argv]) == 2
    err = capsys.readouterr().err
    assert msg in err and err.count("\n") == 1 and "Traceback" not in err


def test_batch(tmp_path, capsys):
    f = tmp_path / "reports.csv"
    f.write_text(
        "id,p,n,decimals,acc,npv,f1\npaper,1000,6000,4,0.6801,0.9401,0.4004\nfixed,1000,6000,4,0.6821,0.9401,0.4004\n"
    )
    assert main(["check", "--batch", str(f)]) == 0
    out = capsys.readouterr().out
    assert "INCONSISTENT" in out and "consistent" in out
    assert main(["check", "--batch", str(f), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["reports"]
    assert [r["verdict"] for r in rows] == ["INCONSISTENT", "consistent"]
    bad = tmp_path / "bad.csv"
    bad.write_text("p,n,decimals,acc,aucroc\n10,10,2,0.5,0.7\n")
    assert main(["check", "--batch", str(bad)]) == 2
    assert "unknown column" in capsys.readouterr().err


def test_console_script():
    exe = Path(sys.executable).parent / "sotalib"
    res = subprocess.run(
        [str(exe), "check", "--p", "40", "--n", "70", "--decimals", "3", "--score", "acc=0.927", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 0
    out = json.loads(res.stdout)
    assert out["consistent"] and out["n_solutions"] == 9


# ---------------------------------------------------------------- every option: one line naming it, exit 2
BASE = ["--p", "100", "--n", "200", "--decimals", "3", "--score", "acc=0.9"]


@pytest.mark.parametrize(
    "argv, option",
    [
        (["--p", "100", "--n", "200", "--eps", "1e400", "--score", "acc=0.9"], "--eps"),
        (["--p", "100", "--n", "200", "--eps", "1e-99999999", "--score", "acc=0.9"], "--eps"),  # used to hang
        (["--p", "100", "--n", "200", "--eps", "-1e-3", "--score", "acc=0.9"], "--eps"),
        (["--p", "100", "--n", "200", "--eps", "nan", "--score", "acc=0.9"], "--eps"),
        (["--p", "100.5", "--n", "200", "--eps", "1e-3", "--score", "acc=0.9"], "--p"),
        (["--p", "100", "--n", "-3", "--eps", "1e-3", "--score", "acc=0.9"], "--n"),
        (["--p", "100", "--n", "99999999999", "--eps", "1e-3", "--score", "acc=0.9"], "p + n"),
        (["--p", "100", "--n", "200", "--decimals", "99", "--score", "acc=0.9"], "--decimals"),
        (["--p", "100", "--n", "200", "--decimals", "x", "--score", "acc=0.9"], "--decimals"),
        ([*BASE, "--k", "1"], "--k"),
        ([*BASE, "--k", "1000"], "--k"),
        ([*BASE, "--k", "5", "--repeats", "0"], "--repeats"),
        ([*BASE, "--k", "5", "--repeats", "100000000"], "--repeats"),
        ([*BASE, "--k", "five"], "--k"),
        (["--p", "100", "--n", "200", "--eps", "1e-3", "--score", "acc=1e400"], "--score acc"),
        (["--p", "100", "--n", "200", "--eps", "1e-3", "--score", "acc=abc"], "--score acc"),
        (["--p", "100", "--n", "200", "--eps", "1e-3", "--score", "=0.5"], "--score"),
        (["--p", "100", "--n", "200", "--decimals", "2", "--score", "acc=0.12345"], "more decimals"),
        (["--p", "100", "--n", "200", "--eps", "1e-3", "--score", "acc=0.9", "--score", "accuracy=0.8"], "same score"),
        (["--folds", "1:2,x", "--eps", "1e-3", "--score", "acc=0.9"], "--folds"),
        (["--folds-file", "/nonexistent/folds.csv", "--eps", "1e-3", "--score", "acc=0.9"], "folds.csv"),
    ],
)
def test_bad_options_one_line_naming_the_option(capsys, argv, option):
    assert main(["check", *argv]) == 2
    cap = capsys.readouterr()
    assert option in cap.err and cap.err.count("\n") == 1 and "Traceback" not in cap.err and cap.out == ""


def test_plain_kfold_unknown_folds_text_and_json(capsys):
    argv = ["check", "--p", "100", "--n", "200", "--score", "acc=0.9", "--eps", "1e-4", "--k", "5"]
    out = _json(capsys, argv)
    assert out["consistent"] and out["details"]["mos"]["configurations_tested"] == 39_508
    assert out["evidence_aggregation"] == "som" and out["diagnosis"] == ""
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "one integer program" in text and "evidence under som" in text


def test_typo_text_at_the_report_decimals(capsys):
    assert main(["check", "--p", "1000", "--n", "6000", "--eps", "1e-4", *PAPER]) == 0
    text = capsys.readouterr().out
    assert "typo? acc 0.6801 -> 0.6821 (one digit, change +0.0020)" in text
    assert "e-05" not in text and "99999" not in text
    assert main(["check", "--p", "1000", "--n", "6000", "--eps", "1e-4", "--no-diagnosis", *PAPER]) == 0
    text = capsys.readouterr().out
    assert "typo?" not in text and "diagnosis: not run" in text
    out = _json(capsys, ["check", "--p", "1000", "--n", "6000", "--eps", "1e-4", "--no-diagnosis", *PAPER])
    assert out["suggestions"] == [] and out["diagnosis"] == "not run"


@pytest.mark.parametrize(
    "argv,message",
    [
        # an option the chosen report does not use is refused, never ignored
        (
            ["--classes", "30,20", "--dataset", "tpehg", "--score", "acc=0.5", "--decimals", "2"],
            "--dataset does not apply to a multiclass report",
        ),
        (
            ["--task", "regression", "--n", "5", "--k", "3", "--score", "mae=0.5", "--decimals", "2"],
            "--k does not apply to a regression report",
        ),
        (["--batch", "reports.csv", "--p", "4"], "--p does not apply to --batch"),
        (
            ["--p", "5", "--n", "5", "--score", "acc=0.5", "--decimals", "1", "--beta", "2"],
            "--beta does not apply to a binary report",
        ),
        # fold bounds bound the fold scores of a Mean of Scores: never dropped under som
        (
            ["--p", "5", "--n", "5", "--k", "2", "--aggregation", "som", "--score", "acc=0.5", "--decimals", "1"]
            + ["--fold-min", "acc=0.4", "--fold-max", "acc=0.6"],
            "--fold-min and --fold-max bound each fold's score, which a Score of Means never computes: "
            "give --aggregation mos",
        ),
        # rules about several parameters name every option they involve
        (
            ["--p", "10", "--n", "10", "--eps", "0.01", "--rounding", "floor", "--score", "acc=0.5"],
            "--rounding needs --decimals",
        ),
        (["--p", "10", "--n", "10", "--score", "acc=0.5"], "give exactly one of --eps and --decimals"),
        (["--p", "10", "--n", "10", "--stratified", "--score", "acc=0.5", "--eps", "0.01"], "--stratified needs --k"),
        (
            ["--classes", "30,20", "--folds", "3:2,3:2", "--score", "acc=0.5", "--decimals", "2"],
            "--folds written 'p1:n1,...' are a binary report's",
        ),
        (["--task", "regression", "--score", "mae=0.5", "--decimals", "2"], "--n is required for a regression report"),
    ],
)
def test_the_library_decides_which_options_go_together(capsys, argv, message):
    assert main(["check", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sotalib check: error: ") and message in err and err.count("\n") == 1, err


def test_integer_options_take_exponent_notation(capsys):
    assert main(["check", "--p", "1e3", "--n", "2e3", "--decimals", "4", "--score", "acc=0.6667", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["check", "--p", "1000", "--n", "2000", "--decimals", "4", "--score", "acc=0.6667", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == one


@pytest.mark.parametrize(
    ("option", "value", "named"),
    [
        ("--fold-min", "acc=0,85", "--fold-min acc must be a number, got '0,85' (write a decimal point: 0.85)"),
        ("--fold-max", "acc=0,9", "--fold-max acc must be a number, got '0,9' (write a decimal point: 0.9)"),
        ("--fold-min", "acc=1.5", "--fold-min acc must be in [0, 1], got 1.5"),
        ("--fold-min", "acc=abc", "--fold-min acc must be a number, got 'abc'"),
    ],
)
def test_fold_bounds_errors_name_the_option_given(capsys, option, value, named):
    # the trap of 0.5: "--fold-min acc=0,85" was refused as "--score acc must be a number"
    bounds = {"--fold-min": "acc=0.80", "--fold-max": "acc=0.90", option: value}
    argv = ["check", "--p", "40", "--n", "60", "--k", "5", "--stratified", "--eps", "1e-4", "--score", "acc=0.85"]
    for opt, val in bounds.items():
        argv += [opt, val]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err == f"sotalib check: error: {named}\n"


def test_decimal_comma_in_a_score_is_refused_with_the_form_expected(capsys):
    # no option of the command line reads a decimal comma; the message shows the value with a point
    assert main(["check", "--p", "40", "--n", "60", "--eps", "1e-4", "--score", "acc=0,85"]) == 2
    assert capsys.readouterr().err == (
        "sotalib check: error: --score acc must be a number, got '0,85' (write a decimal point: 0.85)\n"
    )


MULTICLASS = ["check", "--classes", "10,12,8", "--score", "acc=0.81", "--score", "macro_recall=0.79", "--decimals", "2"]


def test_engine_is_the_option_and_method_its_alias_with_a_note(capsys):
    new = _json(capsys, MULTICLASS + ["--engine", "exhaustive"])
    assert new["details"]["engine"] == "exhaustive" and "method" not in new["details"]
    assert main(MULTICLASS + ["--method", "exhaustive", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == new
    assert err.count("\n") == 1 and err.startswith("sotalib check: note: --method is now --engine")
    assert main(MULTICLASS + ["--method", "ilp", "--engine", "exhaustive"]) == 2
    assert "give one of them" in capsys.readouterr().err
    assert main(MULTICLASS + ["--engine", "mc"]) == 2
    assert "--engine" in capsys.readouterr().err
