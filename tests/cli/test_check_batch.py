"""``sotalib check --batch`` and ``check_batch``: good and bad rows mixed, every row accounted for."""

import json
import math

import pytest

from sotalib.cli import main
from sotalib.consistency import check_batch, check_report

GOOD = "1000,6000,4,0.6821,0.9401,0.4004"  # the corrected Section 3.3 example: consistent
TYPO = "1000,6000,4,0.6801,0.9401,0.4004"  # as printed: inconsistent, acc 0.6801 -> 0.6821


def _write(tmp_path, text, name="reports.csv", encoding="utf-8"):
    f = tmp_path / name
    f.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return f


def _run(capsys, argv):
    code = main(["check", *argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _json_rows(capsys, f, *extra):
    code, out, err = _run(capsys, ["--batch", str(f), "--json", *extra])
    assert "NaN" not in out and "Infinity" not in out
    return code, json.loads(out)["reports"], err


# ---------------------------------------------------------------- one bad row never costs another its verdict
BAD_ROWS = {
    "overflow": ("1000,6000,4,1e400,0.9401,0.4004", "acc"),
    "huge_exponent": ("1000,6000,4,1e-99999999,0.9401,0.4004", "acc"),
    "p_1e3_fraction": ("100.5,6000,4,0.6821,0.9401,0.4004", "column p"),
    "p_text": ("many,6000,4,0.6821,0.9401,0.4004", "column p"),
    "p_far_too_big": ("1e3000,6000,4,0.6821,0.9401,0.4004", "column p"),
    "decimals_too_many": ("1000,6000,40,0.6821,0.9401,0.4004", "column decimals"),
    "more_decimals_than_declared": ("1000,6000,2,0.6821,0.9401,0.4004", "decimals"),
    "out_of_range": ("1000,6000,4,1.5,0.9401,0.4004", "acc"),
    "no_scores": ("1000,6000,4,,,", "no score"),
}


@pytest.mark.parametrize("kind", sorted(BAD_ROWS))
def test_a_bad_row_is_reported_and_the_others_are_checked(tmp_path, capsys, kind):
    row, column = BAD_ROWS[kind]
    f = _write(tmp_path, f"id,p,n,decimals,acc,npv,f1\ngood,{GOOD}\nbad,{row}\ntypo,{TYPO}\n")
    code, rows, _ = _json_rows(capsys, f)
    assert code == 1  # some rows could not be checked
    assert [r["id"] for r in rows] == ["good", "bad", "typo"]
    assert [r["verdict"] for r in rows] == ["consistent", "error", "INCONSISTENT"]
    assert column in rows[1]["error"]
    assert rows[0]["n_solutions"] == 1 and rows[2]["typo"] == "acc 0.6801 -> 0.6821"
    # the text table shows every row and the full error
    code, out, err = _run(capsys, ["--batch", str(f)])
    assert code == 1 and err == ""
    assert "good" in out and "typo" in out and "1 could not be checked" in out and "NaN" not in out
    assert f"error in row 2 (id bad): {rows[1]['error']}" in out


def test_all_rows_checked_exit_0(tmp_path, capsys):
    f = _write(tmp_path, f"p,n,decimals,acc,npv,f1\n{GOOD}\n{TYPO}\n")
    code, rows, _ = _json_rows(capsys, f)
    assert code == 0 and [r["verdict"] for r in rows] == ["consistent", "INCONSISTENT"]
    assert [r["id"] for r in rows] == ["1", "2"]


def test_uncountable_fold_configurations_are_null_with_a_reason(tmp_path, capsys):
    # p = n = 5000, k = 10: too many configurations to count; the verdict still covers them
    f = _write(tmp_path, "id,p,n,k,eps,acc\nbig,5000,5000,10,1e-4,0.9\nsmall,40,70,,1e-3,0.927\n")
    b = check_batch(str(f), diagnosis=False)
    d = b.to_dict()["reports"]
    assert [r["verdict"] for r in d] == ["consistent", "consistent"]
    assert d[0]["configurations_tested"] is None and "too many" in d[0]["note"]
    code, rows, _ = _json_rows(capsys, f, "--no-diagnosis")
    assert code == 0 and rows == d
    code, out, _ = _run(capsys, ["--batch", str(f), "--no-diagnosis"])
    assert code == 0 and "nan" not in out.lower() and "too many to count" in out


# ---------------------------------------------------------------- columns
def test_column_names_are_case_insensitive(tmp_path):
    # a capitalised K must not be ignored: the report is then a 5-fold one, not one test set
    f = _write(
        tmp_path, "ID,P,N,K,Decimals,Stratified,Aggregation,Acc,Sens,Spec\nx,38,262,5,4,yes,MOS,0.9447,0.9139,0.9733\n"
    )
    (r,) = check_batch(str(f)).reports
    expected = check_report(
        38,
        262,
        {"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"},
        k=5,
        decimals=4,
        stratified=True,
        aggregation="mos",
    )
    assert r["id"] == "x" and r["verdict"] == ("consistent" if expected.consistent else "INCONSISTENT")
    assert r["configurations_tested"] == 1 and r["fits"] == (",".join(expected.fits) or "-")


def test_unknown_column_lists_the_accepted_names(tmp_path, capsys):
    f = _write(tmp_path, "p,n,decimals,acc,aucroc\n10,10,2,0.5,0.7\n")
    code, out, err = _run(capsys, ["--batch", str(f)])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "unknown column" in err and "'aucroc'" in err
    for name in ("folds_file", "stratified", "decimals", "acc"):
        assert name in err


def test_two_columns_naming_one_score_are_an_error(tmp_path, capsys):
    f = _write(tmp_path, "p,n,decimals,acc,Accuracy\n10,10,2,0.5,0.5\n")
    code, _, err = _run(capsys, ["--batch", str(f)])
    assert code == 2 and "'acc'" in err and "'Accuracy'" in err


@pytest.mark.parametrize(
    "value, ok", [("true", True), ("Yes", True), ("1", True), ("no", True), ("0", True), ("maybe", False), ("2", False)]
)
def test_stratified_is_a_strict_boolean(value, ok):
    import pandas as pd

    df = pd.DataFrame({"p": [38], "n": [262], "k": [5], "stratified": [value], "decimals": [4], "acc": ["0.9447"]})
    (r,) = check_batch(df, diagnosis=False).reports
    if ok:
        assert r["verdict"] != "error"
    else:
        assert r["verdict"] == "error" and "column stratified" in r["error"] and repr(value) in r["error"]


def test_float_integer_columns_from_pandas():
    import pandas as pd

    # one empty cell makes pandas store the column as floats: 40.0 is 40, 40.5 is an error
    df = pd.DataFrame(
        {"p": [40.0, 40.5, float("nan")], "n": [70.0, 70.0, 70.0], "decimals": [3, 3, 3], "acc": [0.927, 0.927, 0.927]}
    )
    rows = check_batch(df).reports
    assert rows[0]["verdict"] == "consistent" and rows[0]["n_solutions"] == 9
    assert rows[1]["verdict"] == "error" and "column p" in rows[1]["error"] and "40.5" in rows[1]["error"]
    assert rows[2]["verdict"] == "error" and "p and n are required" in rows[2]["error"]


def test_dataframe_with_infinite_score():
    import pandas as pd

    df = pd.DataFrame({"p": [40, 40], "n": [70, 70], "decimals": [3, 3], "acc": [math.inf, 0.927]})
    rows = check_batch(df).to_dict()["reports"]
    assert rows[0]["verdict"] == "error" and "acc" in rows[0]["error"]
    assert rows[1]["verdict"] == "consistent"


# ---------------------------------------------------------------- the file itself unusable: exit 2
@pytest.mark.parametrize(
    "content, message",
    [
        ("", "is an empty file"),
        ("\n\n  \n", "is an empty file"),
        ("p,n,decimals,acc\n", "has a header but no data rows"),
        ("p,n,decimals\n10,10,2\n", "no score column"),
        ("acc,decimals\n0.5,2\n", "needs columns p and n"),
    ],
)
def test_unusable_file_exit_2(tmp_path, capsys, content, message):
    f = _write(tmp_path, content)
    code, out, err = _run(capsys, ["--batch", str(f)])
    assert code == 2 and out == "" and message in err and str(f) in err and err.count("\n") == 1


def test_not_utf8_names_the_file(tmp_path, capsys):
    f = _write(tmp_path, "p,n,decimals,acc\n10,10,2,0.5\n# caf\xe9\n", name="latin.csv", encoding="latin-1")
    code, out, err = _run(capsys, ["--batch", str(f)])
    assert code == 2 and "latin.csv" in err and "UTF-8" in err and "Traceback" not in err


def test_missing_file_names_the_file(tmp_path, capsys):
    code, _, err = _run(capsys, ["--batch", str(tmp_path / "nope.csv")])
    assert code == 2 and "nope.csv" in err


def test_utf8_bom_is_accepted(tmp_path, capsys):
    f = _write(tmp_path, "\ufeffp,n,decimals,acc\n40,70,3,0.927\n")
    code, rows, _ = _json_rows(capsys, f)
    assert code == 0 and rows[0]["n_solutions"] == 9


def test_batch_refuses_per_report_options(tmp_path, capsys):
    f = _write(tmp_path, "p,n,decimals,acc\n40,70,3,0.927\n")
    code, _, err = _run(capsys, ["--batch", str(f), "--eps", "1e-3"])
    assert code == 2 and "--eps" in err


# ---------------------------------------------------------------- folds from a file
def test_folds_file_column_relative_to_the_batch_file(tmp_path, capsys):
    sub = tmp_path / "data"
    sub.mkdir()
    (sub / "folds.csv").write_text("P,N\n1,101\n4,97\n40,61\n99,2\n100,1\n")
    f = _write(
        sub,
        "id,folds_file,folds,eps,acc,sens,spec\n"
        "file,folds.csv,,1e-4,0.9447,0.9139,0.9733\n"
        "inline,,1:101;4:97,1e-4,0.9447,0.9139,0.9733\n"
        "missing,nope.csv,,1e-4,0.9447,0.9139,0.9733\n",
    )
    code, rows, _ = _json_rows(capsys, f)
    assert code == 1
    inline = check_report(
        scores={"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"}, folds="1:101,4:97,40:61,99:2,100:1", eps="1e-4"
    )
    assert rows[0]["verdict"] == ("consistent" if inline.consistent else "INCONSISTENT")
    assert rows[0]["fits"] == ",".join(inline.fits)
    assert rows[1]["verdict"] == "error" and "folds" in rows[1]["error"]
    assert rows[2]["verdict"] == "error" and "nope.csv" in rows[2]["error"]


def test_folds_file_option_equals_folds(tmp_path, capsys):
    ff = _write(tmp_path, "p,n\n1,101\n4,97\n40,61\n99,2\n100,1\n", name="folds.csv")
    common = ["--eps", "1e-4", "--score", "acc=0.9447", "--score", "sens=0.9139", "--score", "spec=0.9733", "--json"]
    assert main(["check", "--folds-file", str(ff), *common]) == 0
    a = json.loads(capsys.readouterr().out)
    assert main(["check", "--folds", "1:101,4:97,40:61,99:2,100:1", *common]) == 0
    assert json.loads(capsys.readouterr().out) == a
    bad = _write(tmp_path, "p,n\n1,x\n", name="bad.csv")
    assert main(["check", "--folds-file", str(bad), *common]) == 2
    err = capsys.readouterr().err
    assert "bad.csv" in err and "line 2" in err


def test_no_diagnosis_skips_the_typo_finder(tmp_path, capsys):
    f = _write(tmp_path, f"p,n,decimals,acc,npv,f1\n{TYPO}\n")
    code, rows, _ = _json_rows(capsys, f, "--no-diagnosis")
    assert code == 0 and rows[0]["verdict"] == "INCONSISTENT" and rows[0]["typo"] == ""
    b = check_batch(str(f), diagnosis=False)
    assert b.reports[0]["typo"] == ""
