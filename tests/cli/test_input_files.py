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
