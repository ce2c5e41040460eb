"""The judging readers on sotalib's one reader of users' tables: awkward files are read or refused clearly."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

from sotalib.judging import read_battles, read_per_item, read_scores


def _file(tmp_path, content: bytes, name: str = "f.csv"):
    p = tmp_path / name
    p.write_bytes(content)
    return p


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("sheet.csv", "a,b\n")
    return buf.getvalue()


# ------------------------------------------------------------------ read_scores
@pytest.mark.parametrize(
    "content",
    [
        b"\xef\xbb\xbfname,j1,j2\r\nA,0.5,0.25\r\nB,0.75,1\r\n",  # BOM + CRLF (Excel's CSV UTF-8)
        b"name;j1;j2\nA;0,5;0,25\nB;0,75;1\n",  # semicolons with decimal commas
        b"name,j1,j2,,\nA,0.5,0.25,,\n\nB,0.75,1,,\n",  # empty trailing columns, a blank line
        b"name\tj1\tj2\nA\t0.5\t0.25\nB\t0.75\t1\n",  # tabs
    ],
)
def test_read_scores_reads_awkward_files(tmp_path, content):
    names, judges, M = read_scores(_file(tmp_path, content))
    assert names == ["A", "B"] and judges == ["j1", "j2"]
    np.testing.assert_array_equal(M, [[0.5, 0.25], [0.75, 1.0]])


def test_read_scores_header_with_digits_is_a_header(tmp_path):
    names, judges, M = read_scores(_file(tmp_path, b"model,task1,task2\nm1,1,2\nm2,3,4\n"))
    assert names == ["m1", "m2"] and judges == ["task1", "task2"] and M.tolist() == [[1, 2], [3, 4]]


@pytest.mark.parametrize(
    "content, name, needles",
    [
        ("name,j1\nRené,0.5\n".encode("latin-1"), "f.csv", ["f.csv, line 2", "not UTF-8", "Latin-1"]),
        (_zip(), "scores.xlsx", ["scores.xlsx", "ZIP archive", "export it as CSV"]),
        (b"name,j1\nA,1\nB,2\nA,3\n", "f.csv", ["line 4", "candidate names must be unique", "lines 2 and 4"]),
        (b"name,j1,j2\nA,1,\nB,2,3\n", "f.csv", ['f.csv, line 2, column "j2": blank cell']),
        (b"name,j1\n,1\nB,2\n", "f.csv", ['f.csv, line 2, column "name": blank cell']),
        (b"name,j1\nA,1\nB,x\n", "f.csv", ["f.csv, line 3, column \"j1\": 'x' is not a number"]),
        (b"name\nA\n", "f.csv", ["judge column"]),
        (b"", "f.csv", ["f.csv", "empty file", "header"]),
    ],
)
def test_read_scores_refusals_name_file_line_and_column(tmp_path, content, name, needles):
    with pytest.raises(ValueError) as info:
        read_scores(_file(tmp_path, content, name))
    for needle in needles:
        assert needle in str(info.value), (needle, str(info.value))


# ------------------------------------------------------------------ read_per_item
@pytest.mark.parametrize(
    "content",
    [
        b"\xef\xbb\xbfitem,A,B\r\nq1,1,0\r\nq2,0.5,1\r\n",
        b"item;A;B\nq1;1;0\nq2;0,5;1\n",
        b"item,A,B,,\nq1,1,0,,\nq2,0.5,1,,\n",
    ],
)
def test_read_per_item_reads_awkward_files(tmp_path, content):
    f = read_per_item(_file(tmp_path, content))
    assert f.models == ("A", "B") and f.items == ("q1", "q2")
    assert f.outcomes.tolist() == [[1.0, 0.0], [0.5, 1.0]]


def test_read_per_item_header_with_digits_and_no_label_column(tmp_path):
    f = read_per_item(_file(tmp_path, b"model1,model2\n1,0\n0,1\n"))
    assert f.models == ("model1", "model2") and f.items == ("item 1", "item 2")
    assert f.outcomes.tolist() == [[1, 0], [0, 1]]


@pytest.mark.parametrize(
    "content, name, needles",
    [
        ("item,A\nq1,1\nq2,0\n".encode("latin-1").replace(b"q2", b"\xe92"), "f.csv", ["f.csv, line 3", "not UTF-8"]),
        (_zip(), "items.xlsx", ["items.xlsx", "ZIP archive"]),
        (b"item,A,A\nq1,1,0\n", "f.csv", ["f.csv, line 1", "model names must be unique", "columns 2 and 3"]),
        (b"item,A,,B\nq1,1,0,1\n", "f.csv", ["f.csv, line 1", "model names must not be empty"]),
        (b"item,A,B\nq1,1,\n", "f.csv", ['f.csv, line 2, column "B": blank cell']),
        (b"item\nq1\n", "f.csv", ["model column"]),
        (b"item,A,B\nq1,1,0\nq2,0,1\nq1,1,1\n", "f.csv", ["f.csv, line 4", "item ids must be unique", "lines 2 and 4"]),
        (b"doc,A,B\nq1,1,0\n,0,1\n", "f.csv", ['f.csv, line 3, column "doc": blank cell']),
    ],
)
def test_read_per_item_refusals_name_file_line_and_column(tmp_path, content, name, needles):
    with pytest.raises(ValueError) as info:
        read_per_item(_file(tmp_path, content, name))
    for needle in needles:
        assert needle in str(info.value), (needle, str(info.value))


# ------------------------------------------------------------------ read_battles
@pytest.mark.parametrize(
    "content",
    [
        b"\xef\xbb\xbfa,b,winner\r\nx,y,x\r\ny,z,\r\n",
        b"A;B;Winner\nx;y;x\ny;z;\n",
        b"a,b,winner,,\nx,y,x,,\ny,z,,,\n",
    ],
)
def test_read_battles_reads_awkward_files_and_a_blank_winner_is_a_tie(tmp_path, content):
    assert tuple(read_battles(_file(tmp_path, content))) == (["x", "y"], ["y", "z"], ["x", ""])


@pytest.mark.parametrize(
    "content, name, needles",
    [
        ("a,b,winner\nRené,x,x\n".encode("latin-1"), "f.csv", ["f.csv, line 2", "not UTF-8"]),
        (_zip(), "battles.xlsx", ["battles.xlsx", "ZIP archive"]),
        (b"a,b,winner\nx,,x\n", "f.csv", ['f.csv, line 2, column "b": blank cell where a name is needed']),
        (b"a,b,winner\nx,y,x\n,y,y\n", "f.csv", ['f.csv, line 3, column "a": blank cell']),
        (b"a,b,A,winner\nx,y,x,x\n", "f.csv", ["f.csv, line 1", "'a' and 'A'"]),
        (b"a,winner\nx,x\n", "f.csv", ["f.csv, line 1", "missing b"]),
    ],
)
def test_read_battles_refusals_name_file_line_and_column(tmp_path, content, name, needles):
    with pytest.raises(ValueError) as info:
        read_battles(_file(tmp_path, content, name))
    for needle in needles:
        assert needle in str(info.value), (needle, str(info.value))
