"""``sotalib maxdist``: output, JSON keys, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sotalib.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_maxdist_json(capsys):
    code, out, err = run(capsys, "maxdist", "--n", "3000", "--m", "1000", "--theta", "0.9", "--json")
    assert code == 0 and err == ""
    d = json.loads(out)
    assert set(d) == {"mean", "sd", "ci_low", "ci_high", "method"}
    assert d["method"] == "exact"
    assert round(d["mean"], 4) == 0.9173 and round(d["sd"], 6) == 0.001817 and round(d["ci_high"], 4) == 0.9213
    assert d["ci_low"] < d["mean"] < d["ci_high"]


def test_maxdist_text(capsys):
    code, out, _ = run(capsys, "maxdist", "--n", "3000", "--m", "1000", "--theta", "0.9", "--alpha", "0.1")
    assert code == 0 and "0.917313" in out and "90% interval" in out


@pytest.mark.parametrize(
    "args,option",
    [
        (["--n", "0", "--m", "5", "--theta", "0.5"], "--n"),
        (["--n", "10", "--m", "0", "--theta", "0.5"], "--m"),
        (["--n", "10", "--m", "5", "--theta", "1.5"], "--theta"),
        (["--n", "10", "--m", "5", "--theta", "nan"], "--theta"),
        (["--n", "10", "--m", "5", "--theta", "0.5", "--alpha", "1"], "--alpha"),
        (["--n", "ten", "--m", "5", "--theta", "0.5"], "--n"),
        (["--m", "5", "--theta", "0.5"], "--n"),
    ],
)
def test_maxdist_bad_input_exits_2_with_one_line(capsys, args, option):
    code, out, err = run(capsys, "maxdist", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and option in err and "Traceback" not in err


def test_console_script_in_a_subprocess():
    exe = Path(sys.executable).parent / "sotalib"
    ok = subprocess.run(
        [str(exe), "maxdist", "--n", "20", "--m", "1000", "--theta", "0.5", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["method"] == "exact"
    bad = subprocess.run(
        [str(exe), "maxdist", "--n", "-3", "--m", "1", "--theta", "0.5"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == "sotalib maxdist: error: --n must be an integer >= 1, got '-3'"


def test_iid_maxdist_loads_neither_scipy_numba_nor_pandas():
    """The exact iid path is NumPy only, so the command starts about as fast as ``import numpy``."""
    argv = ["maxdist", "--n", "3000", "--m", "1000", "--theta", "0.9", "--json"]
    code = (
        "import sys, sotalib.cli as c; c.main(" + repr(argv) + "); "
        "print(sorted(m for m in ('scipy', 'numba', 'pandas') if m in sys.modules))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "[]", r.stdout
    d = json.loads(lines[0])
    ref = {
        "mean": 0.9173130830485142,
        "sd": 0.0018171225004568253,
        "ci_low": 0.9143333333333333,
        "ci_high": 0.9213333333333333,
    }
    assert d["method"] == "exact" and all(abs(d[k] - v) < 1e-12 for k, v in ref.items())


def test_json_is_the_front_door_to_dict(capsys):
    from sotalib.multiplicity import summarize_max

    code, out, _ = run(capsys, "maxdist", "--n", "500", "--m", "30", "--theta", "0.7", "--alpha", "0.1", "--json")
    assert code == 0 and json.loads(out) == summarize_max(500, 30, 0.7, alpha=0.1).to_dict()
