"""``sotalib maxdist`` with non-identical and dependent classifiers (Chapter 3 options)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sotalib.cli import main
from sotalib.multiplicity import max_distribution, simulate_max, uniform_for_sota

BASE = ["maxdist", "--n", "3000", "--m", "1000", "--theta", "0.9"]


def _json(capsys, argv):
    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "extra,mean,sd,upper",
    [
        ([], 0.9173, 0.0018, 0.9213),
        (["--spread", "0.025"], 0.9130, 0.0021, 0.9177),
        (["--rho", "0.6"], 0.9140, 0.0035, 0.9207),
        (["--rho", "0.6", "--spread", "0.025"], 0.9101, 0.0037, 0.9173),
        (["--rho", "0.6", "--y0", "fixed"], 0.9140, 0.0015, 0.9173),
    ],
)
def test_table1_from_the_command_line(capsys, extra, mean, sd, upper):
    out = _json(capsys, BASE + extra)
    assert set(out) == {"mean", "sd", "ci_low", "ci_high", "engine"}
    assert out["engine"] == "exact"
    assert (round(out["mean"], 4), round(out["sd"], 4), round(out["ci_high"], 4)) == (mean, sd, upper)


def test_theta0_defaults_to_theta(capsys):
    a = _json(capsys, BASE + ["--rho", "0.6", "--spread", "0.025"])
    b = _json(capsys, BASE + ["--rho", "0.6", "--spread", "0.025", "--theta0", "0.9"])
    c = _json(capsys, BASE + ["--rho", "0.6", "--spread", "0.025", "--theta0", "0.8875"])
    assert a == b and a != c
    u = uniform_for_sota(0.9, 0.025, 1000)
    assert c["sd"] == pytest.approx(max_distribution(3000, 1000, u, rho=0.6, theta0=0.8875).sd(), rel=1e-12)


def test_monte_carlo_json_and_seed(capsys):
    argv = [
        "maxdist",
        "--n",
        "400",
        "--m",
        "50",
        "--theta",
        "0.8",
        "--rho",
        "0.5",
        "--spread",
        "0.05",
        "--engine",
        "simulate",
        "--reps",
        "3000",
        "--seed",
        "7",
    ]
    out = _json(capsys, argv)
    assert set(out) == {"mean", "sd", "ci_low", "ci_high", "engine", "reps", "se_mean"}
    assert out["engine"] == "simulate" and out["reps"] == 3000
    u = uniform_for_sota(0.8, 0.05, 50)
    s = simulate_max(400, 50, u, rho=0.5, theta0=0.8, n_resamples=3000, rng=7)
    assert out["mean"] == s.mean and out["se_mean"] == pytest.approx(s.se_mean)
    exact = max_distribution(400, 50, u, rho=0.5, theta0=0.8).summary()
    assert abs(out["mean"] - exact.mean) < 4 * out["se_mean"]
    assert _json(capsys, argv) == out  # same seed, same numbers


def test_text_output_mentions_model(capsys):
    assert main(BASE + ["--rho", "0.6", "--y0", "fixed"]) == 0
    text = capsys.readouterr().out
    assert "rho0=0.6" in text and "fixed reference classifier" in text and "0.913965" in text


def _rc(argv):
    try:
        return main(argv)
    except SystemExit as exc:  # argparse errors
        return exc.code


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--rho", "0.9", "--spread", "0.2"], "0.879373 <= theta"),
        (["--rho", "0.6", "--theta0", "0.5"], "--rho 0.6 is infeasible for --theta 0.9 with --theta0 0.5"),
        (["--rho", "1.5"], "--rho must be in [-1, 1], got 1.5"),
        (["--spread", "-0.1"], "--spread"),
        (["--rho", "0.5", "--theta0", "1"], "--theta0"),
        (["--engine", "simulate", "--reps", "1"], "--reps"),
        (["--y0", "sometimes"], "--y0"),
        (["--engine", "bootstrap"], "--engine"),
        (["--method", "bootstrap"], "--method"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, extra, needle):
    assert _rc(BASE + extra) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_infeasible_rho_message_gives_the_bound(capsys):
    assert main(BASE + ["--rho", "0.9", "--spread", "0.2"]) == 2
    err = capsys.readouterr().err
    assert "--rho 0.9 is infeasible" in err and "--theta0 0.9" in err and "Eq. 8" in err and err.count("\n") == 1


def test_console_script_subprocess():
    exe = Path(sys.executable).with_name("sotalib")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "sotalib"]
    r = subprocess.run(
        cmd + BASE + ["--rho", "0.6", "--y0", "fixed", "--json"], capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert round(out["sd"], 6) == pytest.approx(0.001485) and round(out["ci_high"], 4) == 0.9173
    r = subprocess.run(cmd + BASE + ["--rho", "0.99", "--spread", "0.1"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1 and "requires" in r.stderr
