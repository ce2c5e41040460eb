"""Every command reads users' files with sotalib's one reader: the same awkward files are read, or
refused in one line naming the file, the line and the column (exit code 2)."""

from __future__ import annotations

import io
import json
import sys
import zipfile

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
    _refused(capsys, ["rank-uncertainty", "--per-item", path], "f.csv, line 1", "model names must be unique")
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
    _refused(capsys, ["check", "--batch", _write(tmp_path, content, name)], "--batch ", *needles)


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


# ------------------------------------------------------------------ every reader, every spreadsheet shape, and "-"
def _spreadsheet(rows, *, delimiter=",", decimal_comma=False, bom=False, crlf=False, trailing=0, quote=False) -> bytes:
    """``rows`` (lists of text cells) written as a spreadsheet or a hand would write them."""

    def cell(c: str) -> str:
        if decimal_comma and c.replace(".", "", 1).lstrip("-").isdigit():
            c = c.replace(".", ",")
        if quote or delimiter in c or '"' in c:
            c = '"' + c.replace('"', '""') + '"'
        return c

    eol = "\r\n" if crlf else "\n"
    text = "".join(delimiter.join([cell(c) for c in r] + [""] * trailing) + eol for r in rows)
    return (BOM if bom else b"") + text.encode()


SHAPES = {
    "bom-crlf": {"bom": True, "crlf": True},
    "semicolon-decimal-comma": {"delimiter": ";", "decimal_comma": True},
    "tab": {"delimiter": "\t"},
    "tab-decimal-comma": {"delimiter": "\t", "decimal_comma": True},
    "trailing-empty-columns": {"trailing": 2},
    "quoted": {"quote": True},
    "all-at-once": {"delimiter": ";", "decimal_comma": True, "bom": True, "crlf": True, "trailing": 2, "quote": True},
}

_SCORE_ROWS = [["model", "d1", "d2", "d3"], ["A", "0.81", "0.72", "0.9"], ["B, Inc", "0.7", "0.65", "0.88"]]
_SCORE_ROWS += [["C", "0.6", "0.7", "0.5"], ["D", "0.5", "0.4", "0.3"]]
_ITEMS = [["item", "A", "B, Inc", "C"]] + [[f"q{i}", str(i % 2), str(i // 2 % 2), "0.5"] for i in range(8)]
_BATTLES = [["a", "b", "winner"]] + [["A", "B, Inc", "A"], ["B, Inc", "C", "tie"], ["C", "A", "C"], ["A", "C", "A"]] * 2
_BOARD = [["TeamId", "TeamName", "Score"]]
_BOARD += [
    [str(i), f"team {i}, the {i}th", s] for i, s in enumerate(["0.91", "0.9", "0.895", "0.89", "0.885", "0.88"], 1)
]
_BATCH = [["id", "p", "n", "decimals", "acc", "sens"], ["r1", "100", "200", "4", "0.9433", "0.91"]]
_BATCH += [["r2", "50", "50", "2", "0.80", "0.75"]]
_MC = ["check", "--classes", "20,40,10", "--score", "acc=0.9", "--decimals", "2", "--aggregation", "mos"]
_RU = ["rank-uncertainty", "--reps", "30", "--seed", "1"]

# reader: (argv before the file, the option naming the file, the clean file's rows)
READERS = {
    "rank": (["rank", "--method", "kemeny"], "--scores", _SCORE_ROWS),
    "compare": (["compare"], "--scores", _SCORE_ROWS),
    "per-item": (_RU, "--per-item", _ITEMS),
    "per-item-no-labels": (_RU, "--per-item", [r[1:] for r in _ITEMS]),
    "battles": (_RU, "--battles", _BATTLES),
    "sota": (["sota", "--n", "1000", "--rho", "0"], "--leaderboard", _BOARD),
    "batch": (["check", "--batch"], None, _BATCH),
    "folds": (BINARY, "--folds-file", [["p", "n"], ["10", "20"], ["11", "19"], ["10", "20"]]),
    "classes": (_MC, "--folds-file", [["class_1", "class_2", "class_3"], ["10", "20", "5"], ["10", "20", "5"]]),
    "classes-no-header": (_MC, "--folds-file", [["10", "20", "5"], ["10", "20", "5"]]),
}


def _argv(reader: str, path: str) -> list[str]:
    before, option, _ = READERS[reader]
    return before + ([option, path] if option else [path])


def _answer(capsys, argv) -> dict:
    out = _json(capsys, argv)
    out.pop("source", None)  # sota names the file it read
    return out


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("reader", sorted(READERS))
def test_every_reader_reads_every_spreadsheet_shape_as_the_clean_file(tmp_path, capsys, reader, shape):
    rows = READERS[reader][2]
    clean = _answer(capsys, _argv(reader, _write(tmp_path, _spreadsheet(rows), "clean.csv")))
    odd = _write(tmp_path, _spreadsheet(rows, **SHAPES[shape]), "odd.csv")
    assert _answer(capsys, _argv(reader, odd)) == clean


@pytest.mark.parametrize("reader", sorted(READERS))
def test_every_file_argument_reads_standard_input_as_dash(tmp_path, capsys, monkeypatch, reader):
    rows = READERS[reader][2]
    clean = _answer(capsys, _argv(reader, _write(tmp_path, _spreadsheet(rows), "clean.csv")))
    monkeypatch.chdir(tmp_path)
    data = _spreadsheet(rows, **SHAPES["all-at-once"])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert _answer(capsys, _argv(reader, "-")) == clean
    monkeypatch.setattr(sys, "stdin", io.StringIO(data.decode("utf-8-sig")))  # a text stream without bytes
    assert _answer(capsys, _argv(reader, "-")) == clean


def test_standard_input_errors_name_standard_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("model,d1\nA,0.5\nB,\n"))
    assert main(["compare", "--scores", "-", "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": 'standard input, line 3, column "d1": blank cell where a number is needed',
        "exit_code": 2,
        "file": "standard input",
        "line": 3,
        "column": "d1",
    }


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("sheet.csv", "a,b\n1,2\n")
    return buf.getvalue()


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_zip_file_renamed_csv_is_named_for_what_it_is(tmp_path, capsys, reader):
    path = _write(tmp_path, _zip(), "download.csv")
    assert main(_argv(reader, path) + ["--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["error"].endswith(
        "download.csv: is a ZIP archive (an .xlsx or .ods workbook?), not a CSV text file: "
        "export it as CSV (CSV UTF-8 in a spreadsheet)"
    )
    assert out["file"].endswith("download.csv") and out["line"] is None and out["column"] is None


def _refusal(capsys, argv) -> dict:
    assert main(argv + ["--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out.pop("exit_code") == 2
    return out


# reader, the file, its error (after "f.csv, "), line, column
REFUSALS = [
    # a data set pasted twice would count twice in Friedman's test
    (
        "compare",
        "model,d1,d2,d1\nA,0.8,0.7,0.8\nB,0.6,0.5,0.6\n",
        1,
        4,
        "judge names must be unique: 'd1' names columns 2 and 4",
    ),
    (
        "rank",
        "model;d1;d2;d1;;\nA;0,8;0,7;0,8;;\nB;0,6;0,5;0,6;;\n",
        1,
        4,
        "judge names must be unique: 'd1' names columns 2 and 4",
    ),
    (
        "compare",
        "model,d1,,d3\nA,0.8,0.7,0.8\nB,0.6,0.5,0.6\n",
        1,
        3,
        "judge names must not be empty: column 3 has none",
    ),
    (
        "compare",
        "model,d1\nA,0.8\nB,0.6\nA,0.5\n",
        4,
        "model",
        "candidate names must be unique: 'A' is listed on lines 2 and 4",
    ),
    ("compare", "model,d1,d2\nA,0.8,0.7\n,0.6,0.5\n", 3, "model", "blank cell where a name is needed"),
    ("compare", "model,d1,d2,,\nA,0.8,,,\nB,0.6,0.5,,\n", 2, "d2", "blank cell where a number is needed"),
    # a file without its header: the first candidate's scores are no judge names
    (
        "compare",
        "A,0.8,0.7\nB,0.6,0.5\nC,0.1,0.2\n",
        1,
        None,
        "the first line holds numbers, not judge names: the file needs a header line such as 'candidate,task 1,task 2'",
    ),
    ("per-item", "item,A,B,A\nq1,1,0,1\n", 1, 4, "model names must be unique: 'A' names columns 2 and 4"),
    ("per-item", "item,A,B\nq1,1,0\nq2,,1\n", 3, "A", "blank cell where a number is needed"),
    (
        "per-item",
        "0.5,1\n1,0\n",
        1,
        None,
        "the first line holds numbers, not model names: the file needs a header line such as 'item,model A,model B'",
    ),
    # a blank cell is never a candidate named ''
    ("battles", "a,b,winner\nx,y,x\n,y,y\n", 3, "a", "blank cell where a name is needed"),
    ("battles", "a;b;winner\r\nx;y;x\r\nx;;y\r\n", 3, "b", "blank cell where a name is needed"),
    ("folds", "p,n\n10,20\n,19\n", 3, "p", "blank cell where an integer is needed"),
    (
        "folds",
        "10,20\n11,19\n",
        1,
        None,
        "the first line holds numbers, not column names: the file needs a header line 'p,n'",
    ),
    ("classes", "c1,c2,c3\n10,20,5\n10,,5\n", 3, "c2", "blank cell where an integer is needed"),
    ("sota", "rank,score\n1,0.9\n2,n/a\n", 3, "score", "'n/a' is not a number"),
    ("batch", "p,n,acc,acc\n100,200,0.9,0.9\n", 1, 4, "columns 'acc' and 'acc' name the same thing: keep one"),
    ("batch", "p,n,,acc\n100,200,,0.9\n", 1, 3, "has no name"),
]


@pytest.mark.parametrize("reader, content, line, column, reason", REFUSALS)
def test_refusals_name_the_file_the_line_and_the_column(tmp_path, capsys, reader, content, line, column, reason):
    path = _write(tmp_path, content.encode())
    label = {"folds": "--folds-file ", "classes": "--folds-file ", "batch": "--batch "}.get(reader, "")
    where = ", ".join([label + path] + [f"line {line}"] * (line is not None))
    if column is not None:
        where += f", column {column}" if isinstance(column, int) else f', column "{column}"'
    out = _refusal(capsys, _argv(reader, path))
    file = {"folds": "folds file ", "classes": "folds file ", "batch": "batch file "}.get(reader, "") + path
    assert out == {"error": f"{where}: {reason}", "file": file, "line": line, "column": column}


def test_whole_numbers_in_the_header_are_judge_names(tmp_path, capsys):
    plain = _write(tmp_path, b"model,1,2\nA,0.8,0.7\nB,0.6,0.5\nC,0.1,0.2\n")
    assert list(_json(capsys, ["rank", "--method", "mean", "--scores", plain])["scores"]) == ["A", "B", "C"]


def test_a_repeated_team_keeps_its_best_score_and_is_reported(tmp_path, capsys):
    rows = _BOARD + [["3", "team 3, the 3th", "0.898"]]
    merged = _BOARD[:3] + [["3", "team 3, the 3th", "0.898"]] + _BOARD[4:]
    got = _answer(capsys, _argv("sota", _write(tmp_path, _spreadsheet(rows, delimiter=";", bom=True))))
    expected = _answer(capsys, _argv("sota", _write(tmp_path, _spreadsheet(merged), "merged.csv")))
    assert got.pop("duplicates") == 1 and expected.pop("duplicates") == 0
    assert got.pop("notes") != expected.pop("notes")
    assert got == expected
