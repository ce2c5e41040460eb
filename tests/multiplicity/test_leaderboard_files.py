"""Leaderboard files on sotalib's one reader of users' tables: awkward files are read or refused clearly."""

from __future__ import annotations

import io
import zipfile

import pytest

from sotalib.multiplicity import read_kaggle_leaderboard, read_leaderboard, read_meta_kaggle

BOM = b"\xef\xbb\xbf"


def _file(tmp_path, content: bytes, name: str = "lb.csv"):
    p = tmp_path / name
    p.write_bytes(content)
    return p


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("lb.csv", "rank,score\n")
    return buf.getvalue()


@pytest.mark.parametrize(
    "content",
    [
        b"TeamId,TeamName,Score\n1,a,0.91\n2,b,0.875\n3,c,\n",
        BOM + b"TeamId,TeamName,Score\r\n1,a,0.91\r\n2,b,0.875\r\n3,c,\r\n",  # BOM + CRLF
        b"TeamId;TeamName;Score\n1;a;0,91\n2;b;0,875\n3;c;\n",  # semicolons with decimal commas
        b"TeamId,TeamName,Score,,\n1,a,0.91,,\n2,b,0.875,,\n3,c,,,\n",  # empty trailing columns
        b"teamId,teamName,score\n1,a,0.91\n2,b,0.875\n3,c,\nNext Page Token = CfDJ8\n",  # Kaggle's --csv
    ],
)
def test_read_kaggle_leaderboard_reads_awkward_files(tmp_path, content):
    board = read_kaggle_leaderboard(_file(tmp_path, content))
    assert board.scores.tolist() == [0.91, 0.875] and board.teams == ("a", "b") and board.dropped == 1


def test_page_token_line_is_dropped_and_said(tmp_path):
    board = read_kaggle_leaderboard(_file(tmp_path, b"rank,score\n1,0.9\n2,0.8\nNext Page Token = x\n"))
    assert board.scores.tolist() == [0.9, 0.8] and "Next Page Token" in board.notes[0]


def test_percentages_are_divided_exactly_and_teams_listed_twice_keep_their_best(tmp_path):
    board = read_leaderboard(_file(tmp_path, b"TeamId,TeamName,Score\n1,a,93.5%\n2,b,81.25%\n1,a,94.1%\n"))
    assert board.scores.tolist() == [0.941, 0.8125] and board.duplicates == 1
    assert any("merged" in note for note in board.notes)


def test_header_with_digits_and_a_score_column_found_by_its_name(tmp_path):
    board = read_kaggle_leaderboard(_file(tmp_path, b"rank,team2025,public_score\n1,x,0.9\n2,y,0.8\n"))
    assert board.scores.tolist() == [0.9, 0.8]


@pytest.mark.parametrize(
    "content, name, needles",
    [
        ("TeamName,Score\nMüller,0.9\n".encode("latin-1"), "lb.csv", ["lb.csv, line 2", "not UTF-8", "Latin-1"]),
        (_zip(), "lb.xlsx", ["lb.xlsx", "ZIP archive", "export it as CSV"]),
        (b"1,0.9\n2,0.8\n", "lb.csv", ["lb.csv, line 1", "the first line holds numbers", "rank,score"]),
        (b"rank,score\n1,0.9\n2,abc\n", "lb.csv", ["lb.csv, line 3, column \"score\": 'abc' is not a number"]),
        (b"rank,score\n1,0.9\n2,nan\n", "lb.csv", ['lb.csv, line 3, column "score"', "not a finite number"]),
        (b"rank,score,Score\n1,0.9,0.9\n", "lb.csv", ["lb.csv, line 1", "name the same thing"]),
        (b"rank,a_score,b_score\n1,0.9,0.9\n", "lb.csv", ["lb.csv, line 1", "cannot tell which column"]),
        (b"rank,score\n1,\n2,\n", "lb.csv", ["lb.csv", "no scores in column 'score'"]),
        (b"", "lb.csv", ["lb.csv", "empty file"]),
    ],
)
def test_refusals_name_file_line_and_column(tmp_path, content, name, needles):
    with pytest.raises(ValueError) as info:
        read_kaggle_leaderboard(_file(tmp_path, content, name))
    for needle in needles:
        assert needle in str(info.value), (needle, str(info.value))


def test_score_column_given_is_found_in_any_case(tmp_path):
    p = _file(tmp_path, b"rank,Private,Public\n1,0.9,0.7\n2,0.8,0.75\n")
    assert read_kaggle_leaderboard(p, score_column="private").scores.tolist() == [0.9, 0.8]
    with pytest.raises(ValueError, match="no column 'final'"):
        read_kaggle_leaderboard(p, score_column="final")


def test_lower_is_better_keeps_each_team_s_lowest_score(tmp_path):
    p = tmp_path / "lb.csv"
    p.write_text("TeamId,TeamName,Score\n1,a,0.9\n1,a,0.7\n2,b,0.8\n")
    assert read_kaggle_leaderboard(p, lower_is_better=True).scores.tolist() == [0.7, 0.8]
    assert read_kaggle_leaderboard(p).scores.tolist() == [0.9, 0.8]


def test_meta_kaggle_lower_is_better(tmp_path):
    (tmp_path / "Competitions.csv").write_text("Id,Slug\n7,c\n")
    (tmp_path / "Teams.csv").write_text("Id,CompetitionId,TeamName\n1,7,a\n")
    (tmp_path / "Submissions.csv").write_text("TeamId,IsSelected,PrivateScoreFullPrecision\n1,False,0.3\n1,False,0.2\n")
    assert read_meta_kaggle(tmp_path, "c", lower_is_better=True).scores.tolist() == [0.2]
    assert read_meta_kaggle(tmp_path, "c").scores.tolist() == [0.3]
