"""A long run says so before it starts; files come through a pipe as ``-``; a binary file is named for what it is."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile

import pytest

# private: the library announces long work to whoever listens; the command line words the announcement
from sotalib._progress import announcing
from sotalib.cli.sota import cost_note as _cost_note
from sotalib.multiplicity import estimate_sota

SCORES = [0.80 + 0.002 * i for i in range(40)]


class _Heard(Exception):
    """Stops the work at its announcement (the test needs the note, not the hours)."""


def cost_note(scores, n, given) -> str:
    """The note ``sotalib sota`` prints before ``estimate_sota(scores, n, **given)`` ("" for none).

    The library announces the exact engine's cost once every argument is checked and the run is within
    the time limit; the command line words it (``sotalib.cli.sota.cost_note``).
    """
    heard = []

    def hear(seconds, work="", **facts):
        if work == "exact fits":
            heard.append(_cost_note(seconds, facts["n"], facts["fits"]))
            raise _Heard

    try:
        with announcing(hear):
            estimate_sota(scores, n, **given)
    except _Heard:
        return heard[0]
    except ValueError:  # refused up front, with the library's estimate
        return ""
    return ""


def test_the_exact_engine_at_large_n_states_its_cost(monkeypatch):
    # beyond SOTALIB_TIME_LIMIT (a minute) the library refuses up front, and nothing is announced
    assert cost_note(SCORES, 10**7, {"engine": "exact"}) == ""
    monkeypatch.setenv("SOTALIB_TIME_LIMIT", "1h")
    note = cost_note(SCORES, 10**7, {"engine": "exact"})
    assert note.startswith("sotalib sota: note: the exact engine at n=10,000,000 fits the dependent model 10 times")
    assert "about 10 minutes" in note and "--engine normal" in note and "\n" not in note
    # n = 10^6 under --engine auto, which keeps the exact engine there: about a minute
    assert "about 1 minutes" not in cost_note(SCORES, 10**6, {}) and "about 60 seconds" in cost_note(SCORES, 10**6, {})


@pytest.mark.parametrize(
    "n, given",
    [
        (1000, {}),  # small: no note
        (10**5, {"engine": "normal"}),  # the approximation: nothing to announce
        (10**7, {"engine": "exact", "rho": 0.0}),  # independent classifiers: the iid closed form
        (10**7, {"engine": "exact", "method": "naive"}),  # no distribution of the maximum
        (10**7, {"engine": "exact", "metric": "auc"}),
    ],
)
def test_quick_work_is_not_announced(n, given):
    assert cost_note(SCORES, n, given) == ""


def _run(argv, data: bytes):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run([sys.executable, "-m", "sotalib", *argv], input=data, capture_output=True, env=env)


def test_a_tab_separated_file_piped_in_as_dash_is_read():
    tsv = b"model\td1\td2\td3\nA\t0.81\t0.72\t0.9\nB\t0.7\t0.65\t0.88\nC\t0.6\t0.7\t0.5\n"
    run = _run(["rank", "--scores", "-", "--method", "mean"], tsv)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.decode().splitlines()
    assert lines[0].startswith("mean ranking of 3 candidates by 3 judges")
    assert [line.split()[1] for line in lines[1:]] == ["A", "B", "C"]


def test_a_zip_piped_in_is_named_for_what_it_is():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("board.csv", "model,d1\nA,0.5\n")
    run = _run(["compare", "--scores", "-"], buf.getvalue())
    assert run.returncode == 2 and run.stdout == b""
    assert run.stderr.decode() == (
        "sotalib compare: error: standard input: is a ZIP archive (an .xlsx or .ods workbook?), not a CSV text "
        "file: export it as CSV (CSV UTF-8 in a spreadsheet)\n"
    )


def test_folds_from_a_file_that_do_not_add_up_name_folds_file(tmp_path, capsys):
    from sotalib.cli import main

    path = tmp_path / "folds.csv"
    path.write_text("p,n\n5,10\n5,10\n")
    base = ["check", "--p", "1000", "--n", "1000", "--score", "acc=0.5", "--decimals", "2"]
    assert main([*base, "--folds-file", str(path)]) == 2
    assert capsys.readouterr().err == (
        "sotalib check: error: --folds-file must add up to --p 1000, --n 1000, got 10, 20\n"
    )
    assert main([*base, "--folds", "5:10,5:10"]) == 2
    assert capsys.readouterr().err.startswith("sotalib check: error: --folds must add up")
