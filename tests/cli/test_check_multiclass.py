"""``sotalib check`` for multiclass and regression reports, and --fold-min/--fold-max."""

import json

import numpy as np
import pytest

from sotalib.cli import main
from sotalib.consistency import check_multiclass, check_regression, check_report


def _run(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def _json(capsys, argv):
    code, out, err = _run(capsys, argv + ["--json"])
    assert code == 0, err
    return json.loads(out)


def test_issue_example_is_inconsistent_by_accuracy_alone(capsys):
    # 100 items: an accuracy is a whole percent, 0.8123 is none
    argv = ["check", "--classes", "30,50,20", "--average", "macro", "--score", "acc=0.8123", "--score", "f1=0.7011"]
    out = _json(capsys, argv + ["--decimals", "4"])
    assert out["consistent"] is False and out["evidence"] == [] and out["solutions"] == []
    assert list(out)[:4] == ["consistent", "evidence", "configurations_tested", "details"]
    code, text, _ = _run(capsys, argv + ["--decimals", "4"])
    assert code == 0 and text.startswith("INCONSISTENT")


def test_json_equals_the_library_verdict(capsys):
    argv = ["check", "--classes", "30,50,20", "--score", "acc=0.81", "--score", "f1=0.7911", "--decimals", "4"]
    out = _json(capsys, argv)
    lib = check_multiclass([30, 50, 20], {"acc": "0.81", "f1": "0.7911"}, decimals=4).to_dict()
    assert out == json.loads(json.dumps(lib))
    m = np.array(out["solutions"][0])
    assert m.shape == (3, 3) and m.sum(axis=1).tolist() == [30, 50, 20] and np.trace(m) == 81


def test_stratified_mos_and_folds_file_agree(capsys, tmp_path):
    from sotalib.consistency import stratified_class_folds

    folds = stratified_class_folds([30, 50, 20], 5)
    f = tmp_path / "folds.txt"
    f.write_text("# class sizes per fold\n" + "\n".join(",".join(map(str, x)) for x in folds) + "\n")
    common = ["check", "--classes", "30,50,20", "--score", "acc=0.81", "--score", "recall=0.79", "--decimals", "2"]
    a = _json(capsys, common + ["--k", "5", "--stratified", "--aggregation", "mos"])
    b = _json(capsys, common + ["--folds-file", str(f), "--aggregation", "mos"])
    assert a["consistent"] is b["consistent"] is True
    assert a["details"]["classes"] == b["details"]["classes"] == [list(x) for x in folds]
    (per_fold,) = a["solutions"]
    assert [np.array(m).sum(axis=1).tolist() for m in per_fold] == [list(x) for x in folds]


def test_regression(capsys):
    out = _json(
        capsys,
        [
            "check",
            "--task",
            "regression",
            "--n",
            "100",
            "--score",
            "mae=0.03",
            "--score",
            "rmse=0.5",
            "--decimals",
            "4",
        ],
    )
    assert out["consistent"] is False and "RMSE <= sqrt(n) MAE" in out["violated"][0]
    args = [
        "check",
        "--task",
        "regression",
        "--n",
        "100",
        "--score",
        "mae=0.0254",
        "--score",
        "r2=0.9897",
        "--target-var",
        "0.0832",
        "--decimals",
        "4",
    ]
    out = _json(capsys, args)
    lib = check_regression(100, {"mae": "0.0254", "r2": "0.9897"}, target_var="0.0832", decimals=4)
    assert out == json.loads(json.dumps(lib.to_dict())) and out["consistent"] is True


def test_fold_min_and_max(capsys):
    base = [
        "check",
        "--p",
        "38",
        "--n",
        "262",
        "--k",
        "5",
        "--stratified",
        "--score",
        "acc=0.9533",
        "--score",
        "sens=0.8000",
        "--decimals",
        "4",
    ]
    free = _json(capsys, base + ["--aggregation", "mos"])
    assert free["consistent"] is True
    # folds (8, 52) x 3 and (7, 53) x 2; sensitivities in [0.75, 0.8571] are 6/8, 7/8 and 6/7:
    # a / 8 + 12 / 7 = 4 has no integer a
    out = _json(capsys, base + ["--fold-min", "sens=0.7500", "--fold-max", "sens=0.8571"])
    assert out["consistent"] is False and out["aggregation"] == "mos"
    lib = check_report(
        38,
        262,
        {"acc": "0.9533", "sens": "0.8000"},
        k=5,
        stratified=True,
        decimals=4,
        fold_min={"sens": "0.7500"},
        fold_max={"sens": "0.8571"},
    )
    assert out == json.loads(json.dumps(lib.to_dict()))
    # in [0.5, 1]: a / 8 + b / 7 = 4 has a = 16, b = 14 (e.g. 5, 5, 6 of 8 and 7, 7 of 7)
    out = _json(capsys, base + ["--fold-min", "sens=0.5000", "--fold-max", "sens=1.0000"])
    assert out["consistent"] is True
    (sol,) = out["solutions"]
    folds = out["details"]["mos"]["solution_folds"][0]
    assert all(0.5 - 5e-5 <= tp / p <= 1 + 5e-5 for (tp, _), (p, _) in zip(sol, folds))


@pytest.mark.parametrize(
    "argv,match",
    [
        (["--classes", "30,x", "--score", "acc=0.5", "--decimals", "2"], "--classes must be integers"),
        (["--classes", "30,0", "--score", "acc=0.5", "--decimals", "2"], "--classes must be an integer >= 1"),
        (["--classes", "30,20", "--score", "mcc=0.5", "--decimals", "2"], "no multiclass version"),
        (["--classes", "30,20", "--score", "acc=0.5"], "exactly one of --eps and --decimals"),
        (["--classes", "30,20", "--score", "acc=0.5", "--decimals", "2", "--k", "5"], "--k needs --stratified"),
        (
            ["--classes", "30,20", "--score", "acc=0.5", "--decimals", "2", "--p", "5"],
            "--p does not apply to a multiclass report",
        ),
        (
            ["--classes", "30,20", "--score", "acc=0.5", "--decimals", "2", "--folds-file", "/nonexistent/f"],
            "--folds-file /nonexistent/f: no such file",
        ),
        (["--task", "regression", "--score", "mae=0.5", "--decimals", "2"], "--n is required for a regression report"),
        (["--task", "regression", "--n", "5", "--score", "r2=0.5", "--decimals", "2"], "--target-var"),
        (
            ["--task", "binary", "--p", "5", "--n", "5", "--classes", "3,2", "--score", "acc=0.5", "--decimals", "1"],
            "--classes does not apply to a binary report",
        ),
        (
            ["--p", "5", "--n", "5", "--score", "acc=0.5", "--decimals", "1", "--average", "micro"],
            "--average does not apply to a binary report",
        ),
        (
            ["--p", "5", "--n", "5", "--k", "2", "--score", "acc=0.5", "--decimals", "1", "--fold-min", "acc=0.4"],
            "--fold-min and --fold-max must name the same",
        ),
        (
            [
                "--p",
                "5",
                "--n",
                "5",
                "--score",
                "acc=0.5",
                "--decimals",
                "1",
                "--fold-min",
                "acc=0.4",
                "--fold-max",
                "acc=0.6",
            ],
            "need --folds or --k",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, match):
    code, out, err = _run(capsys, ["check", *argv])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("sotalib check: error: ") and match in err, err


@pytest.mark.parametrize("beta", ["abc", "-1", "0"])
def test_beta_is_read_by_the_library_and_named_as_the_option(capsys, beta):
    from sotalib.consistency import check_multiclass

    code, out, err = _run(
        capsys, ["check", "--classes", "30,20", "--score", "fbp=0.5", "--decimals", "2", f"--beta={beta}"]
    )
    assert code == 2 and err.startswith("sotalib check: error: --beta must be"), err
    with pytest.raises(ValueError, match="^beta must be"):
        check_multiclass([30, 20], {"fbp": "0.5"}, decimals=2, beta=beta)
    same = check_multiclass([30, 20], {"fbp": "0.5"}, decimals=2, beta="0.5")
    assert same.to_dict() == check_multiclass([30, 20], {"fbp": "0.5"}, decimals=2, beta=0.5).to_dict()


def test_exact_maximum_refuses_a_test_set_too_large_for_memory_up_front():
    from sotalib.multiplicity import summarize_max

    # with a reference classifier (the identical independent case is refused beyond 2**53 first)
    with pytest.raises(ValueError, match=r"^n=9223372036854775807 items would need"):
        summarize_max(2**63 - 1, 10, 0.9, rho=0.3, engine="exact")
