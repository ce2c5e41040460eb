"""Every command reads users' files with sotalib's one reader: the same awkward files are read, or
refused in one line naming the file, the line and the column (exit code 2)."""

from __future__ import annotations

import json

import pytest

from sotalib.cli import main

BOM = b"\xef\xbb\xbf"


def _write(tmp_path, content: bytes, name: str = "f.csv") -> str:
    p = tmp_path / name
    p.write_bytes(content)
    return str(p)


def _json(capsys, argv):
    assert main(argv + ["--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _refused(capsys, argv, *needles):
    code = main(argv)
    cap = capsys.readouterr()
    assert code == 2 and cap.out == "" and len(cap.err.strip().splitlines()) == 1, cap.err
    assert "Traceback" not in cap.err
    for needle in needles:
        assert needle in cap.err, (needle, cap.err)


# ------------------------------------------------------------------ rank, compare, rank-uncertainty
SCORES = {
    "plain": b"name,j1,j2\nA,0.5,0.25\nB,0.75,1\nC,0.1,0.2\n",
    "bom-crlf": BOM + b"name,j1,j2\r\nA,0.5,0.25\r\nB,0.75,1\r\nC,0.1,0.2\r\n",
    "semicolon-decimal-comma": b"name;j1;j2\nA;0,5;0,25\nB;0,75;1\nC;0,1;0,2\n",
    "trailing-empty-columns": b"name,j1,j2,,\nA,0.5,0.25,,\nB,0.75,1,,\nC,0.1,0.2,,\n",
}


@pytest.mark.parametrize("shape", sorted(set(SCORES) - {"plain"}))
def test_rank_and_compare_read_awkward_score_files(tmp_path, capsys, shape):
    plain, odd = _write(tmp_path, SCORES["plain"], "plain.csv"), _write(tmp_path, SCORES[shape])
    for argv in (["rank", "--method", "mean"], ["compare"]):
        assert _json(capsys, argv + ["--scores", odd]) == _json(capsys, argv + ["--scores", plain])


@pytest.mark.parametrize(
    "content, name, needles",
    [
        ("name,j1\nRené,0.5\nB,1\n".encode("latin-1"), "m.csv", ["m.csv, line 2", "not UTF-8", "Latin-1"]),
        (b"PK\x03\x04rest of a workbook", "m.xlsx", ["m.xlsx", "ZIP archive", "export it as CSV"]),
        (b"name,j1,j2\nA,1,2\nB,3,4\nA,5,6\n", "m.csv", ["m.csv, line 4", "'A' is listed on lines 2 and 4"]),
        (b"name,j1,j2\nA,1,2\nB,,4\n", "m.csv", ['m.csv, line 3, column "j1": blank cell']),
    ],
)
def test_rank_and_compare_refuse_in_one_line(tmp_path, capsys, content, name, needles):
    path = _write(tmp_path, content, name)
    _refused(capsys, ["rank", "--scores", path, "--method", "mean"], *needles)
    _refused(capsys, ["compare", "--scores", path], *needles)


def test_rank_uncertainty_reads_awkward_per_item_and_battle_files(tmp_path, capsys):
    run = ["rank-uncertainty", "--reps", "50", "--rng", "1"]
    plain = _write(tmp_path, b"item,A,B\nq1,1,0\nq2,0.5,1\nq3,1,1\n", "plain.csv")
    odd = _write(tmp_path, BOM + b"item;A;B;;\r\nq1;1;0;;\r\nq2;0,5;1;;\r\nq3;1;1;;\r\n")
    assert _json(capsys, run + ["--per-item", odd]) == _json(capsys, run + ["--per-item", plain])
    battles = b"a,b,winner\nx,y,x\ny,z,y\nz,x,z\nx,y,y\ny,z,\n"
    plain = _write(tmp_path, battles, "plain-battles.csv")
    odd = _write(tmp_path, BOM + battles.replace(b",", b";").replace(b"\n", b"\r\n"), "battles.csv")
    assert _json(capsys, run + ["--battles", odd]) == _json(capsys, run + ["--battles", plain])


def test_rank_uncertainty_refusals_name_file_line_and_column(tmp_path, capsys):
    path = _write(tmp_path, b"item,A,A\nq1,1,0\n")
    _refused(capsys, ["rank-uncertainty", "--per-item", path], "f.csv, line 1", "candidate names must be unique")
    path = _write(tmp_path, b"a,b,winner\nx,y,x\nx,,y\n")
    _refused(capsys, ["rank-uncertainty", "--battles", path], 'f.csv, line 3, column "b": blank cell')


# ------------------------------------------------------------------ check --folds-file, --batch, --classes --folds-file
BINARY = ["check", "--score", "acc=0.9", "--decimals", "2"]


@pytest.mark.parametrize(
    "content",
    [BOM + b"p,n\r\n10,20\r\n10,20\r\n", b"P;N;note\n10;20;a\n10;20;b\n", b"p,n,,\n10,20,,\n10,20,,\n"],
)
def test_check_folds_file_reads_awkward_files(tmp_path, capsys, content):
    plain = _json(capsys, BINARY + ["--folds", "10:20,10:20"])
    assert _json(capsys, BINARY + ["--folds-file", _write(tmp_path, content)]) == plain


@pytest.mark.parametrize(
    "content, name, needles",
    [
        ("p,n,note\n10,20,café\n".encode("latin-1"), "f.csv", ["--folds-file", "f.csv, line 2", "not UTF-8"]),
        (b"PK\x03\x04workbook", "f.xlsx", ["--folds-file", "f.xlsx", "ZIP archive"]),
        (b"p,n\n10,20\n10,\n", "f.csv", ["--folds-file", 'f.csv, line 3, column "n": blank cell']),
        (b"p,n\n10,20\n0,0\n", "f.csv", ["--folds-file", "f.csv, line 3", "p + n >= 1"]),
    ],
)
def test_check_folds_file_refusals_name_file_line_and_column(tmp_path, capsys, content, name, needles):
    _refused(capsys, BINARY + ["--folds-file", _write(tmp_path, content, name)], *needles)


def test_check_batch_reads_semicolons_with_decimal_commas_and_bom_crlf(tmp_path, capsys):
    plain = _write(tmp_path, b"id,p,n,decimals,acc\nr1,100,200,4,0.9\nr2,100,200,4,0.9012\n", "plain.csv")
    expected = _json(capsys, ["check", "--batch", plain])
    for content in (
        BOM + b"id;p;n;decimals;acc\r\nr1;100;200;4;0,9\r\nr2;100;200;4;0,9012\r\n",
        b"id,p,n,decimals,acc,,\nr1,100,200,4,0.9,,\nr2,100,200,4,0.9012,,\n",
    ):
        assert _json(capsys, ["check", "--batch", _write(tmp_path, content)]) == expected


@pytest.mark.parametrize(
    "content, name, needles",
    [
        ("id,p,n,decimals,acc\nMüller,100,200,4,0.9\n".encode("latin-1"), "b.csv", ["b.csv, line 2", "UTF-8"]),
        (b"PK\x03\x04workbook", "b.xlsx", ["b.xlsx", "ZIP archive"]),
    ],
)
def test_check_batch_refusals_name_the_file(tmp_path, capsys, content, name, needles):
    _refused(capsys, ["check", "--batch", _write(tmp_path, content, name)], "batch file", *needles)


MULTICLASS = ["check", "--classes", "20,20,20", "--score", "acc=0.8", "--decimals", "2", "--aggregation", "mos"]


@pytest.mark.parametrize(
    "content",
    [
        BOM + b"c1,c2,c3\r\n10,10,10\r\n10,10,10\r\n",  # BOM, CRLF, a header with digits
        b"class_1,class_2,class_3\n10,10,10\n10,10,10\n",
        b"# class sizes per fold\n10;10;10 # first\n10;10;10\n",  # comments, semicolons
        b"10,10,10,,\n10,10,10,,\n",  # no header, empty trailing columns
    ],
)
def test_check_multiclass_folds_file_reads_awkward_files(tmp_path, capsys, content):
    out = _json(capsys, MULTICLASS + ["--folds-file", _write(tmp_path, content)])
    assert out["details"]["classes"] == [[10, 10, 10], [10, 10, 10]]


@pytest.mark.parametrize(
    "content, name, needles",
    [
        ("c1,c2\n10,10\n# café\n".encode("latin-1"), "f.csv", ["--folds-file", "f.csv, line 3", "not UTF-8"]),
        (b"PK\x03\x04workbook", "f.xlsx", ["--folds-file", "f.xlsx", "ZIP archive"]),
        (b"c1,c2,c3\n10,10,10\n10,,10\n", "f.csv", ["--folds-file", 'f.csv, line 3, column "c2": blank cell']),
        (b"10,10,10\n10,x,10\n", "f.csv", ["--folds-file", "f.csv, line 2, column 2: 'x' is not a number"]),
        (b"# nothing\n", "f.csv", ["--folds-file", "f.csv", "empty file"]),
    ],
)
def test_check_multiclass_folds_file_refusals_name_file_line_and_column(tmp_path, capsys, content, name, needles):
    _refused(capsys, MULTICLASS + ["--folds-file", _write(tmp_path, content, name)], *needles)


# ------------------------------------------------------------------ sota --leaderboard
BOARD = "".join(f"{i},t{i},{s}\n" for i, s in enumerate([0.91, 0.9, 0.895, 0.89, 0.885, 0.88, 0.87, 0.86], 1))


def test_sota_reads_awkward_leaderboards(tmp_path, capsys):
    run = ["sota", "--n", "1000", "--rho", "0"]
    plain = _write(tmp_path, ("TeamId,TeamName,Score\n" + BOARD).encode(), "plain.csv")
    expected = _json(capsys, run + ["--leaderboard", plain])
    expected.pop("source", None)
    for content in (
        BOM + ("TeamId,TeamName,Score\n" + BOARD).replace("\n", "\r\n").encode(),
        ("TeamId;TeamName;Score\n" + BOARD.replace(",", ";").replace("0.", "0,")).encode(),
        ("TeamId,TeamName,Score,,\n" + BOARD.replace("\n", ",,\n")).encode(),
    ):
        got = _json(capsys, run + ["--leaderboard", _write(tmp_path, content)])
        got.pop("source", None)
        assert got == expected


@pytest.mark.parametrize(
    "content, name, needles",
    [
        ("TeamName,Score\nMüller,0.9\n".encode("latin-1"), "lb.csv", ["lb.csv, line 2", "not UTF-8"]),
        (b"PK\x03\x04workbook", "lb.xlsx", ["lb.xlsx", "ZIP archive"]),
        (b"1,0.9\n2,0.8\n", "lb.csv", ["lb.csv, line 1", "the first line holds numbers"]),
        (b"rank,score\n1,0.9\n2,n/a\n", "lb.csv", ["lb.csv, line 3, column \"score\": 'n/a' is not a number"]),
    ],
)
def test_sota_refusals_name_file_line_and_column(tmp_path, capsys, content, name, needles):
    _refused(capsys, ["sota", "--n", "1000", "--leaderboard", _write(tmp_path, content, name)], *needles)
