"""The ``sotalib auc-max`` command line."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from sotalib.cli import main


def test_json_keys_and_values(capsys):
    assert (
        main(
            [
                "auc-max",
                "--auc",
                "0.9",
                "--n",
                "3000",
                "--m",
                "1000",
                "--prevalence",
                "0.017",
                "--reps",
                "300",
                "--seed",
                "3",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert {"mean", "sd", "ci_low", "ci_high", "reps"} <= set(out)
    assert out["reps"] == 300
    # the paper's expected maximum (0.9562, sd 0.004459) within 4 standard errors of this run
    assert abs(out["mean"] - 0.9562) < 4 * out["sd"] / math.sqrt(300) + 5e-4
    assert out["ci_low"] < out["mean"] < out["ci_high"]


def test_m_one_is_single_classifier(capsys):
    assert (
        main(["auc-max", "--auc", "0.8", "--n", "500", "--m", "1", "--prevalence", "0.1", "--reps", "4000", "--json"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert abs(out["mean"] - 0.8) < 4 * out["sd"] / math.sqrt(4000)


def test_rho_one_removes_the_bias(capsys):
    assert (
        main(
            [
                "auc-max",
                "--auc",
                "0.9",
                "--n",
                "600",
                "--m",
                "20",
                "--prevalence",
                "0.05",
                "--rho",
                "1",
                "--reps",
                "200",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert abs(out["mean"] - 0.9) < 4 * out["sd"] / math.sqrt(200)


@pytest.mark.parametrize(
    "args, word",
    [
        (["--auc", "1.0"], "--auc"),
        (["--auc", "0"], "--auc"),
        (["--prevalence", "1.5"], "--prevalence"),
        (["--prevalence", "0"], "--prevalence"),
        (["--n", "20", "--prevalence", "0.01"], "positive"),
        (["--n", "20", "--prevalence", "0.99"], "negative"),
        (["--rho", "-0.1"], "--rho"),
        (["--m", "0"], "--m"),
        (["--reps", "1"], "--reps"),
    ],
)
def test_bad_input_exit_2_one_line(capsys, args, word):
    base = {"--auc": "0.9", "--n": "3000", "--m": "10", "--prevalence": "0.017", "--reps": "10"}
    for k, v in zip(args[::2], args[1::2]):
        base[k] = v
    argv = ["auc-max"] + [x for kv in base.items() for x in kv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and word in err and "Traceback" not in err


def test_console_script():
    exe = Path(sys.executable).with_name("sotalib")
    r = subprocess.run(
        [
            str(exe),
            "auc-max",
            "--auc",
            "0.9",
            "--n",
            "3000",
            "--m",
            "50",
            "--prevalence",
            "0.017",
            "--reps",
            "50",
            "--json",
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert set(json.loads(r.stdout)) >= {"mean", "sd", "ci_low", "ci_high", "reps"}
    r = subprocess.run(
        [str(exe), "auc-max", "--auc", "1.2", "--n", "3000", "--m", "50", "--prevalence", "0.017"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--auc" in r.stderr


def test_json_is_the_front_door_to_dict(capsys):
    from sotalib.multiplicity import summarize_max_auc

    assert (
        main(
            [
                "auc-max",
                "--auc",
                "0.85",
                "--n",
                "1000",
                "--m",
                "20",
                "--prevalence",
                "0.05",
                "--reps",
                "100",
                "--seed",
                "3",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"mean", "sd", "ci_low", "ci_high", "engine", "reps", "se_mean", "n_pos", "n_neg", "seed"}
    assert out == summarize_max_auc(1000, 20, 0.85, 0.05, engine="simulate", n_resamples=100, rng=3).to_dict()
