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
    assert set(d) == {"mean", "sd", "ci_low", "ci_high", "engine"}
    assert d["engine"] == "exact"
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
    assert ok.returncode == 0 and json.loads(ok.stdout)["engine"] == "exact"
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
    assert d["engine"] == "exact" and all(abs(d[k] - v) < 1e-12 for k, v in ref.items())


def test_json_is_the_front_door_to_dict(capsys):
    from sotalib.multiplicity import summarize_max

    code, out, _ = run(capsys, "maxdist", "--n", "500", "--m", "30", "--theta", "0.7", "--alpha", "0.1", "--json")
    assert code == 0 and json.loads(out) == summarize_max(500, 30, 0.7, alpha=0.1).to_dict()


def test_engine_simulate_is_seeded_and_is_the_front_door_s_simulation(capsys):
    from sotalib.multiplicity import summarize_max

    argv = ["maxdist", "--n", "300", "--m", "20", "--theta", "0.7", "--engine", "simulate", "--reps", "500"]
    code, out, err = run(capsys, *argv, "--json")
    d = json.loads(out)
    assert code == 0 and err == "" and d["engine"] == "simulate" and d["reps"] == 500
    ref = summarize_max(300, 20, 0.7, engine="simulate", n_resamples=500, rng=0)  # the command line seeds with 0
    assert d == ref.to_dict()
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "(simulate)" in out and "500 replications, seed 0" in out


def test_method_is_the_deprecated_spelling_of_engine_with_a_note_on_stderr(capsys):
    base = ["maxdist", "--n", "300", "--m", "20", "--theta", "0.7", "--reps", "500", "--json"]
    code, new, err = run(capsys, *base, "--engine", "simulate")
    assert code == 0 and err == ""
    code, old, err = run(capsys, *base, "--method", "mc")
    assert code == 0 and old == new  # mc is simulate, the same numbers and JSON
    assert (
        err == "sotalib maxdist: note: --method is deprecated, use --engine simulate (--method is removed in 0.7.0)\n"
    )
    code, out, err = run(capsys, "maxdist", "--n", "300", "--m", "20", "--theta", "0.7", "--method", "exact", "--json")
    assert code == 0 and json.loads(out)["engine"] == "exact" and "use --engine exact" in err
    code, out, err = run(capsys, *base[:-1], "--engine", "simulate", "--method", "mc")
    assert code == 2 and out == "" and err.count("\n") == 1 and "give --engine only" in err


def test_reps_and_seed_need_engine_simulate(capsys):
    code, out, err = run(capsys, "maxdist", "--n", "300", "--m", "20", "--theta", "0.7", "--seed", "3")
    assert code == 2 and out == "" and "--seed 3" not in err and "--seed" in err and "--engine exact" in err
