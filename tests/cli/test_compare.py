"""The ``sotalib compare`` and ``sotalib rank-uncertainty`` commands."""

import json
import sys

import numpy as np
import pytest
from scipy import stats

from sotalib.cli import main

#: Demšar (2006), Table 6, as the candidates x data sets CSV that ``sotalib rank`` reads.
DEMSAR_CSV = """data set,adult,breast cancer,wisconsin,cmc,ionosphere,iris,liver,lung cancer,lymphography,mushroom,primary tumor,rheum,voting,wine
C4.5,0.763,0.599,0.954,0.628,0.882,0.936,0.661,0.583,0.775,1.000,0.940,0.619,0.972,0.957
C4.5+m,0.768,0.591,0.971,0.661,0.888,0.931,0.668,0.583,0.838,1.000,0.962,0.666,0.981,0.978
C4.5+cf,0.771,0.590,0.968,0.654,0.886,0.916,0.609,0.563,0.866,1.000,0.965,0.614,0.975,0.946
C4.5+m+cf,0.798,0.569,0.967,0.657,0.898,0.931,0.685,0.625,0.875,1.000,0.962,0.669,0.975,0.970
"""


@pytest.fixture
def demsar(tmp_path):
    p = tmp_path / "demsar.csv"
    p.write_text(DEMSAR_CSV)
    return str(p)


@pytest.fixture
def items(tmp_path):
    rng = np.random.default_rng(0)
    X = (rng.random((300, 4)) < [0.70, 0.72, 0.78, 0.60]).astype(int)
    p = tmp_path / "items.csv"
    p.write_text("item,a,b,c,d\n" + "".join(f"i{i}," + ",".join(map(str, r)) + "\n" for i, r in enumerate(X)))
    return str(p), X


def run_json(capsys, argv):
    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_compare_json(demsar, capsys):
    d = run_json(capsys, ["compare", "--scores", demsar])
    assert set(d) == {"average_ranks", "friedman", "critical_difference", "groups", "pairwise", "candidates_axis"}
    assert d["average_ranks"] == pytest.approx(
        {"C4.5+m+cf": 27 / 14, "C4.5+m": 2.0, "C4.5+cf": 41 / 14, "C4.5": 44 / 14}
    )
    M = np.loadtxt(demsar, delimiter=",", skiprows=1, usecols=range(1, 15))
    ref = stats.friedmanchisquare(*M)
    assert d["friedman"]["statistic"] == pytest.approx(ref.statistic, rel=1e-9)
    assert d["friedman"]["p_value"] == pytest.approx(ref.pvalue, rel=1e-9)
    assert d["critical_difference"] == pytest.approx(2.569 * np.sqrt(20 / 84), abs=1e-3)
    assert d["groups"] == [["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]]
    assert len(d["pairwise"]) == 6
    first = d["pairwise"][0]
    assert (first["a"], first["b"]) == ("C4.5", "C4.5+m")
    assert first["p_value"] == pytest.approx(stats.wilcoxon(M[0], M[1]).pvalue, rel=1e-9)
    assert all(p["p_holm"] >= p["p_value"] for p in d["pairwise"])
    d10 = run_json(capsys, ["compare", "--scores", demsar, "--alpha", "0.1", "--lower-is-better"])
    assert list(d10["average_ranks"])[0] == "C4.5"


def test_compare_text_and_diagram(demsar, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    svg = tmp_path / "cd.svg"
    assert main(["compare", "--scores", demsar, "--cd-diagram", str(svg)]) == 0
    out = capsys.readouterr().out
    assert "Friedman chi-square" in out and "critical difference" in out
    assert svg.read_text().lstrip().startswith("<?xml") and "C4.5+m+cf" in svg.read_text()


def test_compare_without_matplotlib(demsar, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["compare", "--scores", demsar, "--cd-diagram", str(tmp_path / "cd.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs matplotlib" in err


@pytest.mark.parametrize(
    "extra, content, message",
    [
        (["--alpha", "0"], DEMSAR_CSV, "--alpha must be in [1e-10, 1)"),
        (["--cd-diagram", "cd.gif"], DEMSAR_CSV, "--cd-diagram must name a .png, .svg or .pdf file"),
        ([], "m,t1\nA,0.5\nB,0.6\n", "scores must have at least 2 candidates and 2 judges"),
        ([], "m,t1,t2\nA,0.5,x\nB,0.6,0.7\n", "line 2, column \"t2\": 'x' is not a number"),
        ([], "m,t1,t2\nA,0.5,0.2\nB,0.6\n", 'line 3, column "t2": blank cell where a number is needed'),
    ],
)
def test_compare_bad_input(tmp_path, capsys, extra, content, message):
    p = tmp_path / "s.csv"
    p.write_text(content)
    assert main(["compare", "--scores", str(p)] + extra) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("sotalib compare: error:")


def test_compare_missing_file(capsys):
    assert main(["compare", "--scores", "/nonexistent/x.csv"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_rank_uncertainty_json(items, capsys):
    path, X = items
    d = run_json(capsys, ["rank-uncertainty", "--per-item", path, "--reps", "400", "--rng", "7"])
    assert d["reps"] == 400 and [c["name"] for c in d["candidates"]][0] == "c"
    assert set(d["candidates"][0]) == {"name", "score", "ci_low", "ci_high", "rank_low", "rank_high", "p_first"}
    scores = {c["name"]: c["score"] for c in d["candidates"]}
    assert scores == pytest.approx(dict(zip("abcd", X.mean(axis=0))))
    assert sum(c["p_first"] for c in d["candidates"]) == pytest.approx(1.0)
    again = run_json(capsys, ["rank-uncertainty", "--per-item", path, "--reps", "400", "--rng", "7"])
    assert again == d
    assert main(["rank-uncertainty", "--per-item", path, "--reps", "100", "--rng", "1", "--lower-is-better"]) == 0
    assert "lower is better" in capsys.readouterr().out


def test_rank_uncertainty_seed_and_its_alias_rng_are_one_option(items, capsys):
    from sotalib.judging import estimate_rank_uncertainty, read_per_item

    path, _ = items
    by_seed = run_json(capsys, ["rank-uncertainty", "--per-item", path, "--reps", "100", "--seed", "7"])
    by_rng = run_json(capsys, ["rank-uncertainty", "--per-item", path, "--reps", "100", "--rng", "7"])
    assert by_seed == by_rng and by_seed["seed"] == 7
    f = read_per_item(path)
    lib = estimate_rank_uncertainty(f, n_resamples=100, rng=7)
    assert by_seed == lib.to_dict()
    assert main(["rank-uncertainty", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--seed S" in help_text and "--rng S is an alias" in help_text


def test_rank_uncertainty_battles(tmp_path, capsys):
    p = tmp_path / "b.csv"
    p.write_text("a,b,winner\n" + "x,y,x\ny,z,y\nz,x,z\nx,y,tie\nx,z,x\ny,x,x\n" * 5)
    d = run_json(capsys, ["rank-uncertainty", "--battles", str(p), "--reps", "200", "--rng", "1"])
    assert d["statistic"] == "bradley-terry" and d["n_items"] == 30 and d["candidates"][0]["name"] == "x"
    assert main(["rank-uncertainty", "--battles", str(p), "--lower-is-better"]) == 2
    assert "--lower-is-better does not apply to battles (--battles" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--reps", "0"], "--reps must be an integer >= 1, got '0'"),
        (["--rng", "-1"], "--rng must be an integer in [0, 18446744073709551615], got '-1'"),
        (["--seed", "-1"], "--seed must be an integer in [0, 18446744073709551615], got '-1'"),
        (["--alpha", "1.5"], "--alpha must be a number in [1e-10, 1), got '1.5'"),
        (["--plot", "x.txt"], "--plot must name a .png, .svg or .pdf file"),
    ],
)
def test_rank_uncertainty_bad_options(items, capsys, argv, message):
    assert main(["rank-uncertainty", "--per-item", items[0]] + argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_rank_uncertainty_bad_files(tmp_path, capsys):
    p = tmp_path / "x.csv"
    p.write_text("a,b\n1,0\n1,nan\n")
    assert main(["rank-uncertainty", "--per-item", str(p)]) == 2
    assert "line 3, column \"b\": 'nan' is not a finite number" in capsys.readouterr().err
    p.write_text("a,b,winner\nx,y,z\n")
    assert main(["rank-uncertainty", "--battles", str(p)]) == 2
    assert "winner must be" in capsys.readouterr().err
    p.write_text("a,b,winner\nx,y,x\n")  # valid input: x never loses, so the ratings do not exist (exit 3)
    assert main(["rank-uncertainty", "--battles", str(p)]) == 3
    assert "no solution: the Bradley-Terry ratings do not exist" in capsys.readouterr().err
    p.write_text("m,t1,t2,t3\nA,0.5,0.6,0.7\nB,0.6,0.5,0.4\nC,0.1,0.2,0.3\n")
    assert main(["compare", "--scores", str(p), "--alpha", "1e-300"]) == 2
    assert "--alpha must be in [1e-10, 1), got 1e-300" in capsys.readouterr().err
    assert main(["rank-uncertainty"]) == 2
    assert "one of the arguments --per-item --battles is required" in capsys.readouterr().err


def test_candidates_columns_reads_a_table_of_data_sets_as_rows_and_says_so(tmp_path, capsys):
    """A file with data sets as rows: by default its rows are ranked (and the output says so); --candidates columns
    ranks its columns, as the library does with candidates="columns" on the same table."""
    import pandas as pd

    from sotalib import compare_candidates, rank_candidates

    path = tmp_path / "datasets.csv"
    path.write_text("dataset,A,B,C\nd1,0.9,0.8,0.7\nd2,0.85,0.8,0.6\nd3,0.9,0.7,0.75\nd4,0.8,0.82,0.7\n")
    frame = pd.read_csv(path, index_col=0)
    rows = run_json(capsys, ["compare", "--scores", str(path)])
    assert rows["candidates_axis"] == "rows" and set(rows["average_ranks"]) == {"d1", "d2", "d3", "d4"}
    cols = run_json(capsys, ["compare", "--scores", str(path), "--candidates", "columns"])
    assert cols["candidates_axis"] == "columns" and list(cols["average_ranks"]) == ["A", "B", "C"]
    assert cols == compare_candidates(frame, candidates="columns").to_dict()
    assert compare_candidates(frame.T).to_dict() == {**cols, "candidates_axis": "rows"}  # the transpose, by hand
    ranked = run_json(capsys, ["rank", "--scores", str(path), "--method", "mean", "--candidates", "columns"])
    assert ranked == rank_candidates(frame, "mean", candidates="columns").to_dict()
    assert ranked["ranking"] == ["A", "B", "C"] and ranked["scores"]["A"] == pytest.approx(frame["A"].mean())
    assert main(["compare", "--scores", str(path), "--candidates", "columns"]) == 0
    assert "3 candidates on 4 judges; score: higher is better; candidates: the columns\n" in (capsys.readouterr().out)
    assert main(["rank", "--scores", str(path), "--method", "mean"]) == 0
    assert "candidates: the rows\n" in capsys.readouterr().out


@pytest.mark.parametrize("where", ["/proc/x/cd.png", "{tmp}/no/such/dir/cd.svg", "{tmp}"])
def test_unwritable_cd_diagram_names_the_option_and_the_path(demsar, tmp_path, capsys, where):
    # the trap of 0.5: a bare "[Errno 2] No such file or directory: '/proc/x/cd.png'"
    path = where.format(tmp=tmp_path) if where != "{tmp}" else str(tmp_path / "is-a-dir.png")
    if where == "{tmp}":
        (tmp_path / "is-a-dir.png").mkdir()
    assert main(["compare", "--scores", demsar, "--cd-diagram", path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"sotalib compare: error: --cd-diagram cannot write {path!r}: ")
    assert "[Errno" not in err
