"""Users' own input on the command line: each kind of bad or unusual input, pinned (issue 12).

Every refusal is exit code 2 with one line on stderr naming the option or the
file and saying what to do; every unusual file that can be read is read, and
what was dropped, merged or rescaled is reported.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from sotalib.cli import main
from sotalib.cli._types import INT_MAX, integer, real  # private: the command line's number parsers are the subject


def _run(capsys, argv):
    code = main(argv)
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _one_line_error(capsys, argv, *needles):
    code, out, err = _run(capsys, argv)
    assert code == 2, (out, err)
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)
    return err


# ------------------------------------------------------------------ option types
def test_integer_type_reads_exponent_form_and_refuses_without_expanding():
    n = integer("--n", 1, 10**7)
    assert n("1e6") == 1_000_000 and n("1_000") == 1000 and n(" 12 ") == 12 and n("1.0e3") == 1000
    for bad in ("1.5", "1e99999999", "-1e99999999", "nan", "inf", "", "0x10", "1e7.5", "9" * 70):
        with pytest.raises(argparse.ArgumentTypeError, match=r"--n must be an integer in \[1, 10000000\]"):
            n(bad)


def test_integer_type_without_an_upper_end_stops_at_the_librarys_64_bits():
    n = integer("--n", 1)
    assert n(str(INT_MAX)) == 2**63 - 1 and n("9.223372036854775807e18") == INT_MAX and n("1e18") == 10**18
    for bad in ("1e99999999", str(INT_MAX + 1), "1e19", "1e400", "9.3e18"):
        with pytest.raises(argparse.ArgumentTypeError) as info:
            n(bad)
        assert str(info.value) == f"--n must be an integer in [1, 2**63 - 1], got {bad!r}"
    for bad in ("0", "0e99999999", "-1e99999999", "1.5", "abc"):
        with pytest.raises(argparse.ArgumentTypeError) as info:
            n(bad)
        assert str(info.value) == f"--n must be an integer >= 1, got {bad!r}"
    k = integer("--k")  # no end at all: the 64-bit range both ways
    assert k("-9223372036854775808") == -(2**63) and k("0e99999999") == 0
    with pytest.raises(argparse.ArgumentTypeError, match=r"^--k must be an integer in \[-2\*\*63, 2\*\*63 - 1\]"):
        k("-1e99999999")


def test_real_type_refuses_nan_overflow_and_underflow():
    x = real("--x", 0.0, 1.0, low_open=True)
    assert x("0.5") == 0.5 and x("1e-300") == 1e-300
    with pytest.raises(argparse.ArgumentTypeError, match="reads as 0"):
        x("1e-400")
    for bad in ("nan", "inf", "1e400", "0", "2", "abc"):
        with pytest.raises(argparse.ArgumentTypeError, match=r"--x must be a number in \(0, 1\]"):
            x(bad)


def test_number_types_refuse_what_float_refuses_even_if_strip_removes_it():
    # str.strip() removes the separators \x1c-\x1f, float() does not read them (found by the option fuzz test)
    assert real("--x")(" 0.5\u00a0") == 0.5 and integer("--n")("\u30003 ") == 3  # whitespace float reads
    for parse in (real("--x"), integer("--n")):
        for bad in ("0\x1f", "\x1c1"):
            with pytest.raises(argparse.ArgumentTypeError, match="--[xn] must be"):
                parse(bad)


# ------------------------------------------------------------------ testsize
@pytest.mark.parametrize(
    "argv,option",
    [
        (["--error", "inf"], "--error"),
        (["--error", "1e-320"], "--error"),
        (["--error", "0.1", "--confidence", "inf"], "--confidence"),
        (["--error", "0.1", "--sd", "inf"], "--sd"),
        (["--error", "0.1", "--sd", "0"], "--sd"),
        (["--error", "nan"], "--error"),
    ],
)
def test_testsize_refuses_what_used_to_crash_or_answer_zero(capsys, argv, option):
    _one_line_error(capsys, ["testsize", *argv], option)


def test_testsize_library_never_answers_zero_items_nor_overflows():
    from sotalib.judging import estimate_test_size

    assert estimate_test_size(1.0).guyon == 1  # always wrong: one item shows it (sd 0)
    with pytest.raises(ValueError, match="sd must be in"):
        estimate_test_size(0.1, sd=0.0)
    with pytest.raises(ValueError, match=r"10\^32\d test items"):
        estimate_test_size(1e-320)
    with pytest.raises(ValueError, match="z"):
        estimate_test_size(0.1, z=math.inf)
    # the largest request the command line allows is computed exactly
    r = estimate_test_size(1e-12, sd=1e12, z=100, precision=10)
    assert r.guyon == pytest.approx(1e72, rel=1e-11)


# ------------------------------------------------------------------ maxdist / auc-max
def test_maxdist_alpha_below_double_resolution_names_alpha(capsys):
    _one_line_error(
        capsys, ["maxdist", "--n", "100", "--m", "10", "--theta", "0.9", "--alpha", "1e-17"], "--alpha", "1e-10"
    )
    from sotalib.multiplicity import summarize_max

    with pytest.raises(ValueError, match=r"alpha must be in \[1e-10, 1\)"):
        summarize_max(100, 10, 0.9, alpha=1e-17)


def test_prob_at_least_nan_says_what_is_wrong():
    from sotalib.multiplicity import prob_at_least

    with pytest.raises(ValueError, match="t must be a number, got nan"):
        prob_at_least(float("nan"), 20, 0.5)
    assert prob_at_least(1e308, 20, 0.5) == 0.0 and prob_at_least(-math.inf, 20, 0.5) == 1.0


@pytest.mark.parametrize(
    "argv,needle",
    [
        (
            ["maxdist", "--n", "100", "--m", "10", "--theta", "0.9", "--engine", "simulate", "--reps", "10000000000"],
            "--reps",
        ),
        (["auc-max", "--auc", "0.9", "--n", "300", "--m", "10", "--prevalence", "0.1", "--reps", "1e10"], "--reps"),
        (["auc-max", "--auc", "0.9", "--n", "300", "--m", "1e10", "--prevalence", "0.1"], "--m"),
        # a reference classifier: the identical independent case is refused beyond 2**53 before memory
        (["maxdist", "--n", "1e18", "--m", "10", "--theta", "0.9", "--rho", "0.3"], "--n"),
    ],
)
def test_absurd_sizes_are_refused_before_any_work(capsys, monkeypatch, argv, needle):
    # the command line has no size limits of its own: the library refuses what cannot fit in memory
    monkeypatch.setenv("SOTALIB_MEMORY_LIMIT", "4G")
    err = _one_line_error(capsys, argv, needle)
    assert "would need" in err and "more than the 4 GiB sotalib allows itself" in err, err


def test_requests_that_cannot_fit_say_the_size_they_need(capsys, monkeypatch):
    monkeypatch.setenv("SOTALIB_MEMORY_LIMIT", "64M")
    err = _one_line_error(
        capsys,
        ["maxdist", "--n", "100", "--m", "10", "--theta", "0.9", "--engine", "simulate", "--reps", "100000000"],
        "--reps 100000000 replications would need 1.49 GiB",
        "SOTALIB_MEMORY_LIMIT",
    )
    assert "64 MiB" in err
    _one_line_error(
        capsys,
        ["auc-max", "--auc", "0.9", "--n", "3000", "--m", "1000000", "--prevalence", "0.5", "--reps", "10"],
        "--n 3000 items (1500 positives)",
        "would need 111 MiB",
    )


def test_memory_error_is_one_line_not_a_traceback(capsys, monkeypatch):
    from sotalib.cli import maxdist

    def boom(_args):
        raise MemoryError("Allocation failed (probably too large).")

    monkeypatch.setattr(maxdist, "run", boom)
    _one_line_error(capsys, ["maxdist", "--n", "10", "--m", "2", "--theta", "0.5"], "not enough memory")


def test_dependent_model_with_a_certain_classifier_names_the_options(capsys):
    err = _one_line_error(capsys, ["maxdist", "--n", "10", "--m", "2", "--theta", "1", "--rho", "0.5"], "--theta0")
    assert "--rho 0" in err


# ------------------------------------------------------------------ sota and leaderboards
def _lb(tmp_path, text, name="lb.csv", encoding="utf-8"):
    p = tmp_path / name
    p.write_bytes(text.encode(encoding))
    return str(p)


def _board(scores, ids=None):
    ids = range(len(scores)) if ids is None else ids
    return "TeamId,TeamName,SubmissionDate,Score\n" + "".join(
        f"{i},team {i},2024-01-01,{s:.6f}\n" for i, s in zip(ids, scores)
    )


@pytest.fixture(scope="module")
def scores():
    return np.random.default_rng(7).binomial(3000, 0.9, 120) / 3000


def test_sota_test_set_too_large_is_refused_up_front(tmp_path, capsys, monkeypatch, scores):
    monkeypatch.setenv("SOTALIB_MEMORY_LIMIT", "4G")
    err = _one_line_error(capsys, ["sota", "--leaderboard", _lb(tmp_path, _board(scores)), "--n", "1e18"], "--n")
    assert err.startswith("sotalib sota: error: --n 1000000000000000000 items would need"), err
    assert "give a smaller n" in err


def test_sota_teams_listed_twice_count_once_and_are_reported(tmp_path, capsys, scores):
    once = _lb(tmp_path, _board(scores), "once.csv")
    ids = list(range(scores.size)) * 2
    worse = np.concatenate([scores, scores - 0.01])  # the second listing is worse: the best is kept
    twice = _lb(tmp_path, _board(worse, ids), "twice.csv")
    a = json.loads(_run(capsys, ["sota", "--leaderboard", once, "--n", "3000", "--rho", "0", "--json"])[1])
    code, out, _ = _run(capsys, ["sota", "--leaderboard", twice, "--n", "3000", "--rho", "0", "--json"])
    b = json.loads(out)
    assert code == 0 and b["m"] == a["m"] == scores.size and b["estimate"] == a["estimate"]
    assert b["duplicates"] == scores.size and "merged" in b["notes"][0]
    code, out, _ = _run(capsys, ["sota", "--leaderboard", twice, "--n", "3000", "--rho", "0"])
    assert "note: 120 rows repeating a team id already listed merged into 120 teams" in out


def test_sota_deconvolve_upper_target_is_an_error_not_ignored(tmp_path, capsys, scores):
    p = _lb(tmp_path, _board(scores))
    _one_line_error(
        capsys,
        ["sota", "--leaderboard", p, "--n", "3000", "--method", "deconvolve", "--target", "upper"],
        "--target upper does not apply to --method deconvolve",
        "--method shrink, --method crop or --method cap",
    )


def test_sota_says_how_many_teams_eq8_excluded(tmp_path, capsys):
    rng = np.random.default_rng(3)
    board = np.concatenate([[0.99], rng.binomial(2000, 0.72, 200) / 2000])
    code, out, err = _run(
        capsys, ["sota", "--leaderboard", _lb(tmp_path, _board(board)), "--n", "2000", "--method", "cap"]
    )
    payload_code, payload, _ = _run(
        capsys, ["sota", "--leaderboard", _lb(tmp_path, _board(board)), "--n", "2000", "--method", "cap", "--json"]
    )
    excluded = json.loads(payload)["excluded"]
    assert code == payload_code == 0 and excluded == 200, err
    assert "note: 200 of the 201 teams above chance excluded from the fitted model by Eq. 8" in out


def _no_solution(capsys, argv, *needles):
    """Valid input without an answer: exit 3, one line on stderr with the reason."""
    code, out, err = _run(capsys, argv)
    assert code == 3 and out == "" and len(err.strip().splitlines()) == 1, (code, out, err)
    assert err.startswith(f"sotalib {argv[0]}: no solution: "), err
    for needle in needles:
        assert needle in err, (needle, err)
    return err


def test_sota_perfect_score_is_set_aside_and_said(tmp_path, capsys, scores):
    # a perfect score (a leak, as on the real Spaceship Titanic board) is valid input: the estimate is of the
    # other teams, and a note says how many perfect scores were set aside and which rows (issue 25)
    p = _lb(tmp_path, _board(np.append(scores, 1.0)))
    code, out, err = _run(capsys, ["sota", "--leaderboard", p, "--n", "3000"])
    assert code in (0, 3) and "Traceback" not in err and "theta0" not in err, err
    code, out, err = _run(capsys, ["sota", "--leaderboard", p, "--n", "3000", "--json"])
    d = json.loads(out)
    assert code == 0 and d["m"] == scores.size, (code, err)
    assert any(f"1 perfect score of 1 set aside (team {scores.size + 1} of {scores.size + 1}" in n for n in d["notes"])
    code, out, err = _run(capsys, ["sota", "--leaderboard", p, "--n", "3000", "--rho", "0", "--json"])
    assert code in (0, 3) and "Traceback" not in err and json.loads(out)["m"] == scores.size + 1
    code, out, err = _run(
        capsys, ["sota", "--leaderboard", p, "--n", "3000", "--metric", "auc", "--prevalence", "0.2", "--json"]
    )
    assert code == 0 and any("perfect AUC of 1 set aside" in n for n in json.loads(out)["notes"]), err
    many = _lb(tmp_path, _board(np.append(scores, [1.0] * 150)), name="many.csv")
    code, out, err = _run(capsys, ["sota", "--leaderboard", many, "--n", "3000", "--json"])
    assert any("150 perfect scores of 1 set aside" in n for n in json.loads(out)["notes"]), err
    only = _lb(tmp_path, _board(np.ones(3)), name="only.csv")
    _no_solution(capsys, ["sota", "--leaderboard", only, "--n", "3000"], "perfect score of 1", "--rho 0")


def test_one_team_board_is_its_own_estimate(tmp_path, capsys):
    p = _lb(tmp_path, "TeamId,TeamName,Score\n1,a,0.91\n")
    code, out, err = _run(capsys, ["sota", "--leaderboard", p, "--n", "3000", "--json"])
    d = json.loads(out)
    assert code == 0 and d["m"] == 1 and d["estimate"] == pytest.approx(0.91) and d["weight"] == 1.0
    assert "0.9100 < observed maximum 0.9100" not in err


def test_outlier_reason_prints_digits_that_differ():
    from sotalib.multiplicity._sota_shrink import _two  # private: the helper that prints the differing digits

    assert _two(0.90999, 0.91) == ("0.90999", "0.91000")
    assert _two(0.8, 0.9) == ("0.8000", "0.9000")


def test_percentages_kaggle_cli_csv_and_rank_score_files_are_read(tmp_path, capsys, scores):
    ref = json.loads(
        _run(capsys, ["sota", "--leaderboard", _lb(tmp_path, _board(scores)), "--n", "3000", "--rho", "0", "--json"])[1]
    )
    pct = "rank,score\n" + "".join(f"{i + 1},{100 * s:.4f}\n" for i, s in enumerate(scores))
    cli = (
        "teamId,teamName,submissionDate,score\n"
        + "".join(f"{i},team {i},2024-01-01 10:00:00,{s:.6f}\n" for i, s in enumerate(scores))
        + "Next Page Token = CfDJ8Abc\n"
    )
    sign = "rank,score\n" + "".join(f"{i + 1},{100 * s:.4f}%\n" for i, s in enumerate(scores))
    for name, text, note in [
        ("pct.csv", pct, "percentages"),
        ("cli.csv", cli, "Next Page Token"),
        ("sign.csv", sign, None),
    ]:
        code, out, err = _run(
            capsys, ["sota", "--leaderboard", _lb(tmp_path, text, name), "--n", "3000", "--rho", "0", "--json"]
        )
        d = json.loads(out)
        assert code == 0, err
        assert d["m"] == ref["m"] and d["estimate"] == pytest.approx(ref["estimate"], abs=1e-9), name
        if note:
            assert any(note in line for line in d["notes"]), (name, d["notes"])


@pytest.mark.parametrize(
    "text,encoding,needles",
    [
        ("TeamId,TeamName,Score\n1,Müller,0.91\n", "latin-1", ["not UTF-8", "lb.csv", "save the file as UTF-8"]),
        ("1,0.91\n2,0.88\n", "utf-8", ["first line holds numbers", "rank,score"]),
        ("TeamId,TeamName,Score\n1,a,0.91\n2,b,91.5\n", "utf-8", ["mix two scales", "--scale"]),
        ("", "utf-8", ["empty file"]),
        ("team,points\na,0.9\n", "utf-8", ["which column holds the scores", "--score-column"]),
    ],
)
def test_unreadable_leaderboards_say_what_to_do(tmp_path, capsys, text, encoding, needles):
    _one_line_error(capsys, ["sota", "--leaderboard", _lb(tmp_path, text, encoding=encoding), "--n", "100"], *needles)


def test_rank_names_a_non_utf8_file(tmp_path, capsys):
    p = tmp_path / "m.csv"
    p.write_bytes("c,a\nMüller,1\n".encode("latin-1"))
    _one_line_error(capsys, ["rank", "--scores", str(p), "--method", "mean"], "m.csv", "not UTF-8")


def test_rank_scores_near_the_largest_double(tmp_path, capsys):
    p = tmp_path / "huge.csv"
    p.write_text("c,a,b\nx,1.7e308,1.6e308\ny,1.5e308,1.79e308\nz,1,2\n")
    code, out, err = _run(capsys, ["rank", "--scores", str(p), "--method", "mean", "--json"])
    d = json.loads(out)
    assert code == 0 and err == "" and d["ranking"] == ["x", "y", "z"]
    assert d["scores"]["x"] == pytest.approx(1.65e308) and None not in d["scores"].values()


def test_a_reader_that_does_not_name_its_file_is_named_by_the_command_line(tmp_path, capsys):
    p = tmp_path / "batch.csv"
    p.write_bytes("p,n,acc,decimals,id\n10,20,0.5,2,Müller\n".encode("latin-1"))
    _one_line_error(capsys, ["check", "--batch", str(p)], "batch.csv")


def test_option_given_as_double_dash_is_refused_but_empty_repeatable_options_are_fine(tmp_path, capsys):
    _one_line_error(capsys, ["maxdist", "--n=--", "--m", "2", "--theta", "0.5"], "--n expects one value")
    p = tmp_path / "batch.csv"
    p.write_text("p,n,acc,decimals\n10,20,0.5,2\n")
    code, out, err = _run(capsys, ["check", "--batch", str(p)])  # --score is left empty
    assert code == 0 and "expects one value" not in err, err


def test_auc_max_states_the_cost_of_a_long_simulation_and_takes_m_ten_million(capsys, monkeypatch):
    # m = 10^7 fits in memory: the draws are made in blocks, so it is not refused;
    # a run this long says what it costs (one line on stderr) once every option has been checked.
    from sotalib.cli import auc_max
    from sotalib.multiplicity import _auc_simulate as _auc  # private: the simulation is patched to stop early

    started = []

    def fake_simulation(*_args, **_kwargs):
        started.append(capsys.readouterr().err)
        raise KeyboardInterrupt  # stop before the hours of work

    monkeypatch.setattr(_auc, "_simulate_max_u", fake_simulation)
    monkeypatch.setenv("SOTALIB_TIME_LIMIT", "1000h")  # under the default minute it is refused up front
    code = main(["auc-max", "--auc", "0.8", "--n", "200", "--m", "10000000", "--prevalence", "0.3", "--reps", "1000"])
    assert code == 130 and capsys.readouterr().err == "sotalib auc-max: interrupted\n"  # Ctrl-C: one line
    (err,) = started
    assert err.count("\n") == 1 and "6.00e+11 scores (10,000,000 classifiers x 60 positives x 1,000 challenges)" in err
    assert "hours" in err
    assert auc_max.cost_note(200, 0.3, 10, 1000) == ""  # short runs say nothing


# ------------------------------------------------------------------ one table of option names
def test_every_option_named_for_a_library_parameter_exists():
    from sotalib.cli import COMMANDS, PARAMETER_OPTIONS, build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(PARAMETER_OPTIONS) == set(COMMANDS)
    for command, table in PARAMETER_OPTIONS.items():
        options = {s for action in sub.choices[command]._actions for s in action.option_strings}
        assert set(table.values()) <= options, (command, set(table.values()) - options)
    # the vocabulary's new names map to the options that kept their old spelling
    assert PARAMETER_OPTIONS["sota"]["rng"] == "--seed" and PARAMETER_OPTIONS["maxdist"]["n_resamples"] == "--reps"
    assert PARAMETER_OPTIONS["rank-uncertainty"]["rng"] == "--rng"


@pytest.mark.parametrize(
    "command,message,expected",
    [
        ("maxdist", "n_resamples must be an integer >= 1, got 0", "--reps must be an integer >= 1, got 0"),
        ("sota", "method 'abc' is not available for metric='auc'", "--method abc is not available for --metric auc"),
        ("sota", "rng must be None or an integer >= 0", "--seed must be None or an integer >= 0"),
        ("rank-uncertainty", "rng must be an integer", "--rng must be an integer"),
        ("maxdist", "rho=0.5 needs theta0 in (0, 1)", "--rho 0.5 needs --theta0 in (0, 1)"),
        ("sota", "lb.csv: no column 'n'", "lb.csv: no column 'n'"),  # file names and prose stay
        ("testsize", "alpha must be in (0, 1)", "alpha must be in (0, 1)"),  # testsize has no --alpha
    ],
)
def test_library_messages_name_the_options_of_the_command(command, message, expected):
    from sotalib.cli import PARAMETER_OPTIONS, in_option_terms

    assert in_option_terms(message, PARAMETER_OPTIONS[command]) == expected


def test_the_option_table_is_used_for_messages(monkeypatch, capsys):
    from sotalib.cli import maxdist

    def library_error(_args):
        raise ValueError("n_resamples must be <= 10, got 20")

    monkeypatch.setattr(maxdist, "run", library_error)
    _one_line_error(capsys, ["maxdist", "--n", "10", "--m", "2", "--theta", "0.5"], "error: --reps must be <= 10")


# ------------------------------------------------------------------ --json errors, Ctrl-C, broken pipes
def _json_error(capsys, argv, code):
    got = main(argv)
    cap = capsys.readouterr()
    assert got == code, cap.err
    assert len(cap.err.strip().splitlines()) == 1 and "Traceback" not in cap.err, cap.err
    (line,) = cap.out.strip().splitlines()  # one JSON object, on one line
    return json.loads(line), cap.err


def test_json_input_error_is_a_json_object(capsys):
    d, err = _json_error(
        capsys, ["maxdist", "--n", "100", "--m", "10", "--theta", "0.9", "--alpha", "1e-17", "--json"], 2
    )
    assert set(d) == {"error", "exit_code"} and d["exit_code"] == 2
    assert d["error"].startswith("--alpha must be") and err == f"sotalib maxdist: error: {d['error']}\n"


def test_json_usage_error_is_a_json_object(capsys):
    d, err = _json_error(capsys, ["maxdist", "--n", "abc", "--m", "10", "--theta", "0.9", "--json"], 2)
    assert d == {"error": "--n must be an integer >= 1, got 'abc'", "exit_code": 2}
    assert err == f"sotalib maxdist: error: {d['error']}\n"
    d, _ = _json_error(capsys, ["maxdist", "--m", "x", "--js"], 2)  # --js is --json (argparse takes prefixes)
    assert d["exit_code"] == 2


def test_json_file_error_names_file_line_and_column(tmp_path, capsys, monkeypatch):
    from sotalib._io import read_table  # private: the shared reader is patched to fail mid-file
    from sotalib.cli import rank

    p = tmp_path / "m.csv"
    p.write_text("candidate,j1\nA,0.5\nB,n/a\n")

    def reads_with_io(args):
        read_table(args.scores).column("j1")

    monkeypatch.setattr(rank, "run", reads_with_io)
    d, err = _json_error(capsys, ["rank", "--scores", str(p), "--method", "mean", "--json"], 2)
    assert d == {
        "error": f"{p}, line 3, column \"j1\": 'n/a' is not a number",
        "exit_code": 2,
        "file": str(p),
        "line": 3,
        "column": "j1",
    }
    assert err == f"sotalib rank: error: {d['error']}\n"


def test_json_no_solution_carries_the_reason_and_exit_code(tmp_path, capsys, scores):
    p = _lb(tmp_path, _board(np.append(scores, 0.999)))
    d, err = _json_error(capsys, ["sota", "--leaderboard", p, "--n", "3000", "--rho", "0", "--json"], 3)
    assert d["exit_code"] == 3 and d["reason"] and d["estimate"] is None and d["m"] == scores.size + 1
    assert err.startswith("sotalib sota: no solution: ")


def test_without_json_errors_print_nothing_on_stdout(capsys):
    _one_line_error(capsys, ["maxdist", "--n", "abc", "--m", "10", "--theta", "0.9"], "--n must be")
    _one_line_error(capsys, ["maxdist", "--n", "100", "--m", "10", "--theta", "0.9", "--alpha", "2"], "--alpha")


def test_ctrl_c_is_one_line_and_exit_code_130(monkeypatch, capsys):
    from sotalib.cli import maxdist

    def interrupted(_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(maxdist, "run", interrupted)
    assert main(["maxdist", "--n", "10", "--m", "2", "--theta", "0.5", "--json"]) == 130
    cap = capsys.readouterr()
    assert cap.err == "sotalib maxdist: interrupted\n" and cap.out == ""


def test_broken_pipe_ends_quietly_in_process(monkeypatch, capsys):
    from sotalib.cli import maxdist

    def reader_went_away(_args):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(maxdist, "run", reader_went_away)
    assert main(["maxdist", "--n", "10", "--m", "2", "--theta", "0.5"]) == 141
    assert capsys.readouterr().err == ""


def test_broken_pipe_ends_quietly_in_a_real_pipe():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    # the reader closes the pipe before sotalib writes: every write and the final flush hit a broken pipe
    proc = subprocess.Popen(
        [sys.executable, "-m", "sotalib", "datasets"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    code = proc.wait(timeout=120)
    assert err == "" and code in (0, 141), (code, err)  # 0 when the output fit in the pipe before it closed
