"""The one reader of users' tables (sotalib._io), on the bytes that people and spreadsheets write."""

from __future__ import annotations

import codecs
import gzip
import io
import pickle
import sys
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sotalib._io import InputError, Table, parse_number, read_table  # private: the one reader is the subject
from sotalib.judging import read_scores


def _file(tmp_path, data: bytes, name: str = "scores.csv") -> str:
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


def _error(source, *needles, **kwargs) -> InputError:
    with pytest.raises(InputError) as info:
        read_table(source, **kwargs)
    message = str(info.value)
    assert "\n" not in message
    for needle in needles:
        assert needle in message, (needle, message)
    return info.value


# ------------------------------------------------------------------ encodings and line ends
def test_utf8_bom_and_crlf(tmp_path):
    t = read_table(_file(tmp_path, codecs.BOM_UTF8 + "name,score\r\nMüller,0.9\r\n\r\nB,0.8\r\n".encode()))
    assert t.header == ("name", "score") and t.rows == (("Müller", "0.9"), ("B", "0.8"))
    assert t.lines == (2, 4) and t.header_line == 1 and t.delimiter == "," and not t.decimal_comma
    assert t.column("score") == (0.9, 0.8) and t.column(0, kind="name") == ("Müller", "B")


def test_old_mac_line_ends(tmp_path):
    t = read_table(_file(tmp_path, b"x,y\r1,2\r3,4"))
    assert t.rows == (("1", "2"), ("3", "4")) and t.lines == (2, 3)


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_with_a_bom(tmp_path, codec):
    text = "name\tscore\nÅsa\t0,5\n"
    data = text.encode(codec)
    if codec == "utf-16-be":
        data = codecs.BOM_UTF16_BE + data
    t = read_table(_file(tmp_path, data))
    assert t.rows == (("Åsa", "0,5"),) and t.delimiter == "\t" and t.column("score") == (0.5,)


def test_latin1_says_where_and_what_to_do(tmp_path):
    path = _file(tmp_path, "name,score\nA,0.9\nMüller,0.8\n".encode("latin-1"))
    e = _error(path, "scores.csv, line 3: not UTF-8", "0xfc at column 2", "'ü'", "Latin-1", "save the file as UTF-8")
    assert e.path == path and e.line == 3 and e.column is None


def test_windows1252_punctuation_is_named(tmp_path):
    _error(_file(tmp_path, "name,note\nA,a – b\n".encode("cp1252")), "0x96 at column 5", "'–'", "Windows-1252")


def test_bytes_no_single_byte_codepage_explains_are_still_one_line(tmp_path):
    e = _error(_file(tmp_path, b"a,b\n1,\x81\x8d\n"), "line 2", "0x81 at column 3", "save the file as UTF-8")
    assert "Latin-1" not in str(e)


def test_broken_utf16_is_an_input_error(tmp_path):
    _error(_file(tmp_path, codecs.BOM_UTF16_LE + "a,b\n".encode("utf-16-le") + b"\x00\xdc"), "UTF-16", "UTF-8")


# ------------------------------------------------------------------ files that are not CSV text
def test_xlsx_is_named_as_a_workbook(tmp_path):
    p = tmp_path / "board.xlsx"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
    _error(str(p), "board.xlsx: is a ZIP archive (an .xlsx", "not a CSV text file", "export it as CSV")


@pytest.mark.parametrize(
    "data,needle",
    [
        (
            gzip.compress(b"a,b\n1,2\n", mtime=0),
            "is a gzip-compressed file (.gz), not a CSV text file: decompress it first",
        ),
        (b"%PDF-1.7\n...", "PDF"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 20, ".xls"),
        (b"a,b\n1,\x002\n", "NUL bytes"),
    ],
)
def test_binary_files_are_named_for_what_they_are(tmp_path, data, needle):
    _error(_file(tmp_path, data), needle, "not", "CSV")


def test_utf16_without_a_bom_is_guessed(tmp_path):
    _error(_file(tmp_path, "a,b\n1,2\n".encode("utf-16-le")), "NUL bytes", "UTF-16 text without a byte-order mark")


@pytest.mark.parametrize("data", [b"", b"\n\n  \r\n", codecs.BOM_UTF8, b",,\n,,\n"])
def test_empty_files_say_what_they_need(tmp_path, data):
    _error(_file(tmp_path, data), "scores.csv: is an empty file: it needs a header row", needs="a header row")


def test_header_without_rows(tmp_path):
    _error(_file(tmp_path, b"name,score\n"), "has a header but no data rows", header=True)
    assert len(read_table(_file(tmp_path, b"name,score\n"), header=True, min_rows=0)) == 0


def test_missing_file_and_directory(tmp_path):
    _error(str(tmp_path / "nope.csv"), "nope.csv: no such file")
    _error(str(tmp_path), "is a directory")


# ------------------------------------------------------------------ delimiters, quotes, columns
def test_semicolon_with_decimal_commas(tmp_path):
    t = read_table(_file(tmp_path, b"Modell;Genauigkeit;Fehler\nA;0,93;7\nB;0,875;12,5\n"))
    assert t.delimiter == ";" and t.decimal_comma
    assert t.column("genauigkeit") == (0.93, 0.875) and t.column("Fehler") == (7.0, 12.5)


def test_tab_export_with_decimal_commas_and_padding(tmp_path):
    t = read_table(_file(tmp_path, b"model\tacc\tf1\nA\t0,5\t0,25\nB\t0,75\n"))
    assert t.delimiter == "\t" and t.rows[1] == ("B", "0,75", "")
    with pytest.raises(InputError, match=r'scores.csv, line 3, column "f1": blank cell where a number is needed'):
        t.column("f1")
    assert t.column("f1", blank="none") == (0.25, None)


def test_spreadsheet_trailing_empty_columns_are_dropped(tmp_path):
    t = read_table(_file(tmp_path, b"name,score,,\r\nA,0.9,,\r\nB,0.8,,\r\n,,,\r\n"))
    assert t.header == ("name", "score") and t.rows == (("A", "0.9"), ("B", "0.8"))
    t = read_table(_file(tmp_path, b"0.1,0.2,,\n0.3,0.4,,\n"))
    assert t.header is None and t.width == 2


def test_quoted_names_with_commas_quotes_and_line_ends(tmp_path):
    data = b'name,score\n"Smith, J.",0.9\n"The ""best"" team",0.8\n "two\nlines" , 0.7 \n'
    t = read_table(_file(tmp_path, data))
    assert t.column("name", kind="name") == ("Smith, J.", 'The "best" team', "two\nlines")
    assert t.lines == (2, 3, 4) and t.column("score") == (0.9, 0.8, 0.7)


def test_unquoted_comma_in_a_name_is_one_clear_error(tmp_path):
    e = _error(_file(tmp_path, b"name,score\nA,0.9\nSmith, J.,0.8\n"), "line 3: has 3 cells", "double quotes")
    assert e.line == 3


def test_comma_file_with_decimal_commas_says_so(tmp_path):
    _error(_file(tmp_path, b"name,score\nA,0,9\n"), "decimal commas need a file separated by semicolons")


@pytest.mark.parametrize("header", ["c1,c2,c3", "class_1,class_2,class_3", "p,n,acc", "Fold 1,Fold 2,Fold 3"])
def test_a_header_with_digits_is_a_header(tmp_path, header):
    t = read_table(_file(tmp_path, f"{header}\n3,4,5\n6,7,8\n".encode()))
    assert t.header == tuple(header.split(",")) and t.column(2, kind="integer") == (5, 8)


def test_header_detection_and_forcing(tmp_path):
    assert read_table(_file(tmp_path, b"1,2,3\n4,5,6\n")).header is None
    assert read_table(_file(tmp_path, b"1,2,3\n4,5,6\n"), header=True).header == ("1", "2", "3")
    names = _file(tmp_path, b"a,b,winner\nx,y,x\n")
    assert read_table(names).header is None  # names only: the caller says
    assert read_table(names, header=True).column("winner", kind="name") == ("x",)
    t = read_table(_file(tmp_path, b"name,score\nA,0.9\nB,n/a\n"))  # a typo below does not hide the header
    with pytest.raises(InputError, match=r"line 3, column \"score\": 'n/a' is not a number"):
        t.column("score")


def test_comments(tmp_path):
    t = read_table(_file(tmp_path, b'# folds\nc1,c2\n3,4 # first\n"#5",6\n'), comment="#")
    assert t.header == ("c1", "c2") and t.rows == (("3", "4"), ("#5", "6")) and t.lines == (3, 4)


# ------------------------------------------------------------------ conversions and their messages
def test_one_message_per_kind_of_problem(tmp_path):
    t = read_table(_file(tmp_path, b"name,score\nA,0.9\nB,n/a\nC,x\nD,1e400\nE,\n"), name="scores.csv")
    with pytest.raises(InputError) as info:
        t.column("score")
    e = info.value
    assert str(e) == "scores.csv, line 3, column \"score\": 'n/a' is not a number (and 1 more such cell: line 4)"
    assert (e.line, e.column, e.reason.startswith("'n/a'")) == (3, "score", True)
    t = read_table(_file(tmp_path, b"name,score\nD,1e400\nE,nan\nF,-inf\n"))
    with pytest.raises(InputError, match="'1e400' is not a finite number .and 2 more such cells: lines 3, 4"):
        t.column(1)


@pytest.mark.parametrize("cell", ["nan", "inf", "-Infinity", "0x10", "1_000", "½", "١", "1.2.3", "--1"])
def test_only_plain_finite_numbers_are_numbers(cell):
    assert parse_number(cell) is None


def test_integers(tmp_path):
    t = read_table(_file(tmp_path, b"p;n\n3;4\n5,0;1e1\n"))
    assert t.column("p", kind="integer") == (3, 5) and t.column("n", kind="integer") == (4, 10)
    t = read_table(_file(tmp_path, b"p,n\n3,4.5\n"))
    with pytest.raises(InputError, match="column \"n\": '4.5' is not an integer"):
        t.column("n", kind="integer")


def test_percentages_are_exact_and_only_where_allowed(tmp_path):
    t = read_table(_file(tmp_path, b"score\n93.5%\n91.37 %\n0.1%\n"))
    assert t.column("score", percent=True) == (0.935, 0.9137, 0.001)
    with pytest.raises(InputError, match="a percentage is not accepted here"):
        t.column("score")


def test_columns_without_a_header_are_numbered(tmp_path):
    t = read_table(_file(tmp_path, b"1,2\n3,x\n"))
    with pytest.raises(InputError, match="scores.csv, line 2, column 2: 'x' is not a number"):
        t.column(1)
    with pytest.raises(InputError, match="needs a header row naming the columns"):
        t.column("score")


def test_finding_columns(tmp_path):
    t = read_table(_file(tmp_path, b" P ,N,Score\n1,2,0.5\n"))
    assert t.find("p") == 0 and t.find("score", "acc") == 2 and t.find("x", required=False) is None
    with pytest.raises(InputError, match=r"no column 'x' \(columns: P, N, Score\)"):
        t.find("x")
    with pytest.raises(
        InputError, match=r"needs the columns a, b and winner; missing a, b and winner \(columns: P, N, Score\)"
    ):
        t.find_all("a", "b", "winner")
    with pytest.raises(InputError, match="needs the columns p and a; missing a "):
        t.find_all("p", "a")
    assert t.find_all("score", "p") == (2, 0)
    t = read_table(_file(tmp_path, b"p,P\n1,2\n"))
    with pytest.raises(InputError, match="columns 'p' and 'P' name the same thing"):
        t.find("p")


def test_duplicate_names_report_their_lines(tmp_path):
    t = read_table(_file(tmp_path, b"candidate,j1\nA,1\nB,2\nA,3\nB,4\nA,5\n"), name="scores.csv")
    assert t.duplicates("candidate") == {"A": (2, 4, 6), "B": (3, 5)}
    with pytest.raises(InputError) as info:
        t.require_unique("candidate", what="candidate names")
    assert str(info.value) == (
        'scores.csv, line 4, column "candidate": candidate names must be unique: '
        "'A' is listed on lines 2, 4 and 6; 1 more value repeated"
    )
    t = read_table(_file(tmp_path, b"A,B,A\n1,2,3\n"))
    with pytest.raises(InputError, match="'A' names columns 1 and 3"):
        t.require_unique_header(what="candidate names")


# ------------------------------------------------------------------ sources
def test_standard_input_text_and_binary(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\ufeffname;score\nA;0,5\n"))
    t = read_table("-")
    assert t.source == "standard input" and t.column("score") == (0.5,)

    class Binary(io.TextIOWrapper):
        pass

    raw = io.BytesIO("name,score\nMüller,0.5\n".encode("latin-1"))
    monkeypatch.setattr(sys, "stdin", Binary(raw, encoding="utf-8"))
    _error("-", "standard input, line 2: not UTF-8", "Latin-1")


def test_bytes_and_open_files(tmp_path):
    assert read_table(b"a,b\n1,2\n").source == "the file"
    assert read_table(io.BytesIO(b"a,b\n1,2\n"), name="upload.csv").source == "upload.csv"
    with open(_file(tmp_path, b"a,b\n1,2\n", "f.csv"), "rb") as fh:
        assert read_table(fh).source.endswith("f.csv")
    assert read_table(io.StringIO("a\n1\n")).column("a") == (1.0,)
    with pytest.raises(TypeError):
        read_table(12)
    assert isinstance(read_table(b"a\n1\n"), Table)


def test_input_error_is_a_value_error_with_its_location():
    e = InputError("'x' is not a number", path="f.csv", line=3, column="score")
    assert isinstance(e, ValueError) and str(e) == "f.csv, line 3, column \"score\": 'x' is not a number"
    assert str(InputError("bad", path="f.csv", column=2)) == "f.csv, column 2: bad"
    back = pickle.loads(pickle.dumps(e))
    assert (str(back), back.path, back.line, back.column, back.reason) == (str(e), "f.csv", 3, "score", e.reason)


def test_rows_kept_and_decimal_points_for_text(tmp_path):
    t = read_table(_file(tmp_path, b"team;score\nA;0,93\nB;91,5%\nNext Page Token = x\n"))
    kept = t.where(lambda row: not row[0].lower().startswith("next page token"))
    assert kept.rows == (("A", "0,93"), ("B", "91,5%")) and kept.lines == (2, 3)
    assert kept.column("score", percent=True) == (0.93, 0.915)
    points = kept.with_decimal_points()
    assert points.rows == (("A", "0.93"), ("B", "91.5%")) and not points.decimal_comma
    assert points.column("score", percent=True) == (0.93, 0.915)
    t = read_table(_file(tmp_path, b",A,B,A\n1,0,1,1\n"))
    t.require_unique_header(columns=[1, 2])
    with pytest.raises(InputError, match="'A' names columns 2 and 4"):
        t.require_unique_header(columns=range(1, 4))
    with pytest.raises(InputError, match="column 1 has none"):
        t.require_unique_header()


def test_records_from_a_data_frame_are_checked_the_same_way():
    t = Table.from_records(["p", "n", "acc"], [(10, 20, "0.5"), (3, None, float("nan"))], source="table")
    assert t.rows == (("10", "20", "0.5"), ("3", "", "")) and t.lines == (1, 2)
    with pytest.raises(InputError, match='table, line 2, column "n": blank cell where an integer is needed'):
        t.column("n", kind="integer")
    with pytest.raises(InputError, match="line 1: has 2 cells"):
        Table.from_records(["p"], [(1, 2)])


# ------------------------------------------------------------------ property: spreadsheet shapes read back exactly
_CELL = st.floats(allow_nan=False, allow_infinity=False, width=64) | st.integers(-(10**6), 10**6).map(float)


@st.composite
def _shapes(draw):
    n_cols = draw(st.integers(1, 5))
    rows = draw(st.lists(st.lists(_CELL, min_size=n_cols, max_size=n_cols), min_size=1, max_size=8))
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    trailing = draw(st.integers(0, 2))
    # one column of decimal commas without a delimiter on any line reads as two comma-separated columns
    decimal_comma = delimiter != "," and (n_cols > 1 or trailing > 0) and draw(st.booleans())
    return {
        "rows": rows,
        "delimiter": delimiter,
        "decimal_comma": decimal_comma,
        "bom": draw(st.booleans()),
        "eol": draw(st.sampled_from(["\n", "\r\n", "\r"])),
        "trailing": trailing,
        "quote": draw(st.booleans()),
        "header": draw(st.booleans()),
        "final_eol": draw(st.booleans()),
        "utf16": draw(st.booleans()),
    }


def _write(shape) -> bytes:
    def cell(x: float) -> str:
        s = repr(x)
        if shape["decimal_comma"]:
            s = s.replace(".", ",")
        return f'"{s}"' if shape["quote"] else s

    d, n_cols = shape["delimiter"], len(shape["rows"][0])
    lines = [d.join([f"col_{j + 1}" for j in range(n_cols)] + [""] * shape["trailing"])] if shape["header"] else []
    lines += [d.join([cell(x) for x in row] + [""] * shape["trailing"]) for row in shape["rows"]]
    text = shape["eol"].join(lines) + (shape["eol"] if shape["final_eol"] else "")
    if shape["utf16"]:
        return text.encode("utf-16")
    return (codecs.BOM_UTF8 if shape["bom"] else b"") + text.encode()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=_shapes())
def test_spreadsheet_shapes_read_back_the_exact_numbers(shape):
    rows, n_cols = shape["rows"], len(shape["rows"][0])
    # a one-column file with a comma delimiter is any delimiter: it reads the same
    t = read_table(_write(shape), header=shape["header"])
    assert t.width == n_cols and len(t) == len(rows)
    if n_cols > 1:
        assert t.delimiter == shape["delimiter"]
    if shape["header"]:
        assert t.header == tuple(f"col_{j + 1}" for j in range(n_cols))
    got = [t.column(j) for j in range(n_cols)]
    assert [[repr(x) for x in r] for r in zip(*got, strict=True)] == [[repr(x) for x in r] for r in rows]
    # the header is found without being told, since every column below it holds numbers
    assert read_table(_write(shape)).header == t.header


# ------------------------------------------------------------------ property: a score matrix in spreadsheet shapes
_NAME = st.text(st.sampled_from('abcXYZ019 ,"-'), max_size=6).map(lambda s: "n" + s.strip())


@st.composite
def _score_matrices(draw):
    n_cand, n_sets = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    candidates = draw(st.lists(_NAME, min_size=n_cand, max_size=n_cand, unique=True))
    data_sets = draw(st.lists(_NAME, min_size=n_sets, max_size=n_sets, unique=True))
    scores = draw(st.lists(st.lists(_CELL, min_size=n_sets, max_size=n_sets), min_size=n_cand, max_size=n_cand))
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    shape = {
        "delimiter": delimiter,
        "decimal_comma": delimiter == ";" and draw(st.booleans()),
        "bom": draw(st.booleans()),
        "crlf": draw(st.booleans()),
        "trailing": draw(st.integers(0, 2)),
        "quote": draw(st.booleans()),
        "corner": draw(st.sampled_from(["", "model", "candidate"])),
    }
    return candidates, data_sets, scores, shape


def _score_file(
    candidates,
    data_sets,
    scores,
    *,
    delimiter=",",
    decimal_comma=False,
    bom=False,
    crlf=False,
    trailing=0,
    quote=False,
    corner="",
) -> bytes:
    def name(s: str) -> str:
        return '"' + s.replace('"', '""') + '"' if quote or delimiter in s or '"' in s else s

    def number(x: float) -> str:
        return repr(x).replace(".", ",") if decimal_comma else repr(x)

    rows = [[name(corner), *map(name, data_sets)]]
    rows += [[name(c), *map(number, row)] for c, row in zip(candidates, scores, strict=True)]
    eol = "\r\n" if crlf else "\n"
    text = "".join(delimiter.join(r + [""] * trailing) + eol for r in rows)
    return (codecs.BOM_UTF8 if bom else b"") + text.encode()


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(matrix=_score_matrices())
def test_a_score_matrix_reads_the_same_in_every_spreadsheet_shape(tmp_path, matrix):
    candidates, data_sets, scores, shape = matrix
    clean, odd = tmp_path / "clean.csv", tmp_path / "odd.csv"
    clean.write_bytes(_score_file(candidates, data_sets, scores))
    odd.write_bytes(_score_file(candidates, data_sets, scores, **shape))
    expected, got = read_scores(clean), read_scores(odd)
    assert (got.candidates, got.judges) == (expected.candidates, expected.judges) == (candidates, data_sets)
    assert got.scores.tolist() == expected.scores.tolist() == scores  # the very same doubles
