"""The consistency readers (folds files, batch files) on sotalib's one reader of users' tables."""

from __future__ import annotations

import io
import zipfile

import pytest

from sotalib.consistency import check_batch, read_folds

BOM = b"\xef\xbb\xbf"


def _file(tmp_path, content: bytes, name: str = "f.csv"):
    p = tmp_path / name
    p.write_bytes(content)
    return p


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("sheet.csv", "p,n\n")
    return buf.getvalue()


# ------------------------------------------------------------------ read_folds
@pytest.mark.parametrize(
    "content",
    [
        b"p,n\n7,53\n8,52\n",
        BOM + b"p,n\r\n7,53\r\n8,52\r\n",  # BOM + CRLF
        b"fold;P;N\n1;7;53\n2;8;52\n",  # semicolons, names in any case, other columns ignored
        b"n,p,,\n53,7,,\n\n52,8,,\n",  # any order, empty trailing columns, a blank line
        b"p,n\n7.0,53\n8,5.2e1\n",  # integers written as floats
    ],
)
def test_read_folds_reads_awkward_files(tmp_path, content):
    assert read_folds(_file(tmp_path, content)) == ((7, 53), (8, 52))


@pytest.mark.parametrize(
    "content, name, needles",
    [
        ("p,n,note\n7,53,café\n".encode("latin-1"), "f.csv", ["folds file", "f.csv, line 2", "not UTF-8"]),
        (_zip(), "folds.xlsx", ["folds file", "folds.xlsx", "ZIP archive"]),
        (b"p,n\n7,53\n-1,60\n", "f.csv", ["f.csv, line 3", ">= 0", "got -1,60"]),
        (b"p,n\n7,53\n0,0\n", "f.csv", ["f.csv, line 3", "p + n >= 1"]),
        (b"p,n\n7,53\n8,\n", "f.csv", ['f.csv, line 3, column "n": blank cell']),
        (b"p,n\n7.5,53\n", "f.csv", ["f.csv, line 2, column \"p\": '7.5' is not an integer"]),
        (b"p,n,P\n7,53,7\n", "f.csv", ["f.csv, line 1", "'p' and 'P' name the same thing"]),
        (b"a,b\n7,53\n", "f.csv", ["f.csv, line 1", "needs the columns p and n"]),
        (b"p,n\n", "f.csv", ["f.csv", "no data rows"]),
    ],
)
def test_read_folds_refusals_name_file_line_and_column(tmp_path, content, name, needles):
    with pytest.raises(ValueError) as info:
        read_folds(_file(tmp_path, content, name))
    for needle in needles:
        assert needle in str(info.value), (needle, str(info.value))


# ------------------------------------------------------------------ check_batch
PLAIN = b"id,p,n,decimals,acc\nr1,100,200,4,0.9\nr2,100,200,4,0.9012\n"


@pytest.mark.parametrize(
    "content",
    [
        BOM + PLAIN.replace(b"\n", b"\r\n"),
        b"id;p;n;decimals;acc\nr1;100;200;4;0,9\nr2;100;200;4;0,9012\n",  # semicolons, decimal commas
        b"id\tp\tn\tdecimals\tacc\nr1\t100\t200\t4\t0.9\nr2\t100\t200\t4\t0.9012\n",
        b"id,p,n,decimals,acc,,\nr1,100,200,4,0.9,,\nr2,100,200,4,0.9012,,\n",  # empty trailing columns
    ],
)
def test_check_batch_reads_awkward_files_as_the_plain_one(tmp_path, content):
    expected = check_batch(_file(tmp_path, PLAIN, "plain.csv")).to_dict()
    assert check_batch(_file(tmp_path, content)).to_dict() == expected
    assert [r["verdict"] for r in expected["reports"]] == ["consistent", "INCONSISTENT"]


def test_check_batch_reads_an_open_file_and_a_dataframe_with_missing_values(tmp_path):
    pd = pytest.importorskip("pandas")
    expected = check_batch(_file(tmp_path, PLAIN, "plain.csv")).to_dict()["reports"]
    assert check_batch(io.StringIO(PLAIN.decode())).to_dict()["reports"] == expected
    df = pd.DataFrame({"id": ["r1", "r2"], "p": [100, 100], "n": [200, 200], "decimals": [4, 4]})
    df["acc"] = [0.9, 0.9012]
    df["sens"] = pd.array([None, None], dtype="Float64")  # a missing score (pd.NA) is no score
    assert check_batch(df).to_dict()["reports"] == expected


@pytest.mark.parametrize(
    "content, name, needles",
    [
        ("id,p,n,decimals,acc\nMüller,100,200,4,0.9\n".encode("latin-1"), "b.csv", ["batch file", "line 2", "UTF-8"]),
        (_zip(), "b.xlsx", ["batch file", "b.xlsx", "ZIP archive"]),
        (b"p,n,decimals,acc\n", "b.csv", ["batch file", "b.csv", "no data rows"]),
        (b"p,n,decimals,acc\n100,200,4,0.9,5\n", "b.csv", ["batch file", "b.csv, line 2", "has 5 cells"]),
    ],
)
def test_check_batch_refusals_name_the_file(tmp_path, content, name, needles):
    with pytest.raises(ValueError) as info:
        check_batch(_file(tmp_path, content, name))
    for needle in needles:
        assert needle in str(info.value), (needle, str(info.value))
