"""Inputs a new user tries that were once mishandled: huge counts, seeds, undefined scores, what the text says.

Each test is one kind: a huge count names the option to change, a bootstrap
that cannot fit is refused with the memory it would need, a seed is a seed
everywhere, a Mean of Scores whose folds leave a score undefined says so
(instead of a traceback from the typo finder), and the human-readable
``sota`` output says what its count of teams is.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import sotalib
from sotalib.cli import main
from sotalib.consistency import check_report
from sotalib.judging import bradley_terry, estimate_rank_uncertainty

#: The largest test set the consistency tests take (documented: p + n <= 2**31); the refusals below name it.
MAX_COUNT = 2**31

ITEMS = "item,A,B,C\n" + "".join(f"{i},{i % 2},{(i // 2) % 2},{int(i % 3 == 0)}\n" for i in range(12))


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


# ------------------------------------------------------------------ huge counts name the option to change
@pytest.mark.parametrize(
    "p,n,named,other",
    [(10, 10**18, "--n", "--p"), (MAX_COUNT - 4, 10, "--p", "--n"), (10, MAX_COUNT - 5, "--n", "--p")],
)
def test_check_names_the_count_that_is_too_large(capsys, p, n, named, other):
    err = _one_line_error(capsys, ["check", "--p", str(p), "--n", str(n), "--score", "acc=0.5", "--decimals", "2"])
    assert err.startswith(f"sotalib check: error: {named} must be <= {MAX_COUNT - min(p, n)} "), err
    assert f"with {other} {min(p, n)}" in err and "--p + n" not in err, err


def test_check_repeated_kfold_names_the_count_and_the_repeats(capsys):
    err = _one_line_error(
        capsys,
        ["check", "--p", "100", "--n", str(MAX_COUNT // 1000), "--k", "5", "--repeats", "1000"]
        + ["--score", "acc=0.5", "--decimals", "2"],
        "--n must be <=",
        "repeats",
    )
    assert str(MAX_COUNT // 1000 - 100) in err


def test_library_sum_limit_is_exact_at_the_boundary():
    ok = check_report(1, MAX_COUNT - 1, {"acc": 0.5}, decimals=2)  # p + n == MAX_COUNT is allowed
    assert ok.consistent
    with pytest.raises(ValueError, match=rf"^n must be <= {MAX_COUNT - 1} "):
        check_report(1, MAX_COUNT, {"acc": 0.5}, decimals=2)


# ------------------------------------------------------------------ rank-uncertainty: memory and seeds
def test_rank_uncertainty_huge_reps_is_refused_with_the_memory_it_needs(tmp_path, capsys):
    f = tmp_path / "items.csv"
    f.write_text(ITEMS)
    err = _one_line_error(capsys, ["rank-uncertainty", "--per-item", str(f), "--reps", "1000000000"], "--reps")
    # 10^9 resamples x 3 candidates x (8-byte score + 8-byte rank) = 48e9 bytes = 44.7 GiB
    assert "44.7 GiB" in err and "would need" in err, err
    _one_line_error(capsys, ["rank-uncertainty", "--per-item", str(f), "--reps", "1e99999999"], "--reps")


def test_rank_uncertainty_library_refuses_before_allocating(monkeypatch):
    monkeypatch.setenv("SOTALIB_MEMORY_LIMIT", str(10**6))
    X = sotalib.PerItem(np.random.default_rng(0).integers(0, 2, size=(50, 4)))
    with pytest.raises(ValueError, match=r"^n_resamples=100000 resamples of 4 candidates would need 6\.1 MiB"):
        estimate_rank_uncertainty(X, n_resamples=100_000, rng=0)
    estimate_rank_uncertainty(X, n_resamples=1_000, rng=0)  # 64 kB fits
    with pytest.raises(ValueError, match=r"^n_resamples=100000 resamples of 2 distinct battles would need"):
        bradley_terry(["a", "a"], ["b", "b"], ["a", "b"], n_resamples=100_000, rng=0)


@pytest.mark.parametrize("seed", ["9" * 400, "-1", "18446744073709551616", "1.5"])
def test_rank_uncertainty_seed_is_a_64_bit_seed(tmp_path, capsys, seed):
    f = tmp_path / "items.csv"
    f.write_text(ITEMS)
    _one_line_error(
        capsys, ["rank-uncertainty", "--per-item", str(f), f"--rng={seed}"], "--rng", "18446744073709551615"
    )


def test_rank_uncertainty_largest_seed_is_accepted_and_recorded(tmp_path, capsys):
    f = tmp_path / "items.csv"
    f.write_text(ITEMS)
    code, out, err = _run(
        capsys, ["rank-uncertainty", "--per-item", str(f), "--reps", "20", "--rng", str(2**64 - 1), "--json"]
    )
    assert code == 0, err
    assert json.loads(out)["seed"] == 2**64 - 1


# ------------------------------------------------------------------ Mean of Scores with a fold score undefined
@pytest.mark.parametrize(
    "argv",
    [
        ["--p", "3", "--n", "200", "--k", "5", "--stratified"],  # scikit-learn leaves two folds without positives
        ["--folds", "3:40,0:40"],
    ],
)
def test_mos_fold_without_positives_says_sensitivity_is_undefined(capsys, argv):
    code, out, err = _run(
        capsys,
        ["check", *argv, "--score", "sens=0.67", "--score", "acc=0.9", "--decimals", "2", "--aggregation", "mos"],
    )
    assert code == 0 and err == "", err  # used to be a ZeroDivisionError traceback from the typo finder
    assert out.startswith("INCONSISTENT")
    assert "diagnosis: a fold holds no positive item, and sens of such a fold is undefined" in out, out


def test_mos_unknown_kfold_with_fewer_positives_than_folds_says_why(capsys):
    code, out, err = _run(
        capsys,
        ["check", "--p", "3", "--n", "200", "--k", "5", "--score", "sens=0.67", "--decimals", "2"]
        + ["--aggregation", "mos", "--json"],
    )
    assert code == 0, err
    d = json.loads(out)
    assert d["consistent"] is False and d["configurations_tested"] == 0
    assert "no split into k folds puts a positive in every fold" in d["diagnosis"], d["diagnosis"]
    assert "at least two of the values" not in d["diagnosis"]  # only one value was given


def test_som_verdict_unchanged_when_mos_is_undefined():
    v = check_report(3, 200, {"sens": 0.67, "acc": 0.9}, k=5, stratified=True, decimals=2)
    assert v.consistent and v.details["som"]["consistent"] and not v.details["mos"]["consistent"]
    assert "undefined" in v.details["mos"]["note"]


# ------------------------------------------------------------------ sota: the count of teams says what it counts
def test_sota_text_says_teams_above_the_estimate(tmp_path, capsys):
    rng = np.random.default_rng(1)
    scores = np.sort(rng.normal(0.85, 0.01, 300))[::-1]
    f = tmp_path / "lb.csv"
    f.write_text("TeamId,TeamName,Score\n" + "".join(f"{i},t{i},{s:.5f}\n" for i, s in enumerate(scores)))
    code, out, err = _run(capsys, ["sota", "--leaderboard", str(f), "--n", "1000", "--rho", "0"])
    assert code == 0, err
    code, js, _ = _run(capsys, ["sota", "--leaderboard", str(f), "--n", "1000", "--rho", "0", "--json"])
    above = json.loads(js)["teams_above"]
    assert above == int(np.sum(scores.round(5) > json.loads(js)["estimate"]))
    assert f"  above estimate   {above:,} team{'s' if above != 1 else ''}\n" in out + "\n", out
    assert not out.endswith("\n\n")


# ------------------------------------------------------------------ files the user exported from a spreadsheet
@pytest.mark.parametrize("sep", [";", "\t"])
def test_batch_separated_by_semicolons_or_tabs_is_read(tmp_path, capsys, sep):
    # a spreadsheet's export where the list separator is not the comma: decimal commas, read as points
    f = tmp_path / "b.csv"
    f.write_text(sep.join(["p", "n", "decimals", "acc"]) + "\n" + sep.join(["100", "200", "4", "0,9"]) + "\n")
    g = tmp_path / "comma.csv"
    g.write_text("p,n,decimals,acc\n100,200,4,0.9\n")
    code, out, err = _run(capsys, ["check", "--batch", str(f), "--json"])
    assert code == 0 and err == "", err
    code, expected, _ = _run(capsys, ["check", "--batch", str(g), "--json"])
    assert code == 0 and json.loads(out) == json.loads(expected)
    assert json.loads(out)["reports"][0]["verdict"] == "consistent"


def test_folds_file_errors_name_the_folds_file_option(tmp_path, capsys):
    f = tmp_path / "folds.csv"
    f.write_text("a,b\n10,20\n")
    err = _one_line_error(capsys, ["check", "--score", "acc=0.9", "--decimals", "2", "--folds-file", str(f)])
    assert err.startswith(f"sotalib check: error: --folds-file {f}, line 1: needs the columns p and n; missing p"), err
    err = _one_line_error(
        capsys, ["check", "--score", "acc=0.9", "--decimals", "2", "--folds-file", str(tmp_path / "none.csv")]
    )
    assert "--folds-file" in err and "none.csv: no such file" in err, err


# ------------------------------------------------------------------ the typo finder says when it did not search
def test_mos_over_unknown_folds_says_the_finder_did_not_search(capsys):
    # tp=80, tn=190 of p=100, n=200 gives acc 0.9000, sens 0.8000, spec 0.9500: acc 0.9010 is one mistyped digit
    argv = ["check", "--p", "100", "--n", "200", "--k", "5", "--decimals", "4"]
    argv += ["--score", "acc=0.9010", "--score", "sens=0.8", "--score", "spec=0.95"]
    code, out, err = _run(capsys, argv + ["--aggregation", "mos", "--json"])
    assert code == 0, err
    d = json.loads(out)
    assert d["consistent"] is False and d["suggestions"] == []
    assert d["diagnosis"].startswith("not searched: typos of a Mean of Scores over unknown folds")
    code, out, err = _run(capsys, argv + ["--json"])  # both aggregations: the Score-of-Means typo is found
    d = json.loads(out)
    assert [(s["score"], s["suggested"]) for s in d["suggestions"]] == [("acc", 0.9)]
    assert d["diagnosis"].endswith(
        "(searched under Score of Means only: typos of a Mean of Scores over unknown folds are not searched)"
    )


# ------------------------------------------------------------------ Excel's "CSV UTF-8" starts with a byte-order mark
def test_per_item_and_battle_files_with_a_byte_order_mark_and_crlf(tmp_path, capsys):
    f = tmp_path / "items.csv"
    f.write_bytes(b"\xef\xbb\xbfitem,A,B\r\n1,1,0\r\n2,0,1\r\n3,1,1\r\n")
    code, out, err = _run(capsys, ["rank-uncertainty", "--per-item", str(f), "--reps", "20", "--rng", "0", "--json"])
    assert code == 0, err
    d = json.loads(out)  # the item column is labels, not a third candidate
    assert [c["name"] for c in d["candidates"]] == ["A", "B"] and d["n_items"] == 3
    assert [c["score"] for c in d["candidates"]] == pytest.approx([2 / 3, 2 / 3])
    g = tmp_path / "battles.csv"
    g.write_bytes(b"\xef\xbb\xbfa,b,winner\r\nx,y,x\r\ny,x,x\r\nx,y,tie\r\n")
    code, out, err = _run(capsys, ["rank-uncertainty", "--battles", str(g), "--reps", "20", "--rng", "0", "--json"])
    assert code == 0, err
    assert [c["name"] for c in json.loads(out)["candidates"]] == ["x", "y"]


def test_rank_says_one_judge(tmp_path, capsys):
    f = tmp_path / "s.csv"
    f.write_text("cand,j1\nA,0.5\nB,0.7\n")
    code, out, err = _run(capsys, ["rank", "--scores", str(f), "--method", "mean"])
    assert code == 0, err
    assert out.startswith("mean ranking of 2 candidates by 1 judge; score: higher is better; candidates: the rows\n"), (
        out
    )


# ------------------------------------------------------------------ counts too long to read
def test_counts_of_more_than_18_digits_print_in_exponent_form():
    from sotalib._validate import format_count  # private: the formatter every message's counts go through

    assert format_count(39_508) == "39,508" and format_count(10**18 - 1) == "999,999,999,999,999,999"
    assert format_count(10**18) == "about 1.00e18"
    assert format_count(473_792_838_776 * 10**400 + 12345) == "about 4.73e411"  # digits cut, never rounded up


def test_check_text_prints_a_huge_configuration_count_in_exponent_form(capsys):
    argv = ["check", "--p", "1000", "--n", "2000", "--k", "10", "--score", "acc=0.9", "--eps", "1e-4"]
    code, out, err = _run(capsys, argv)
    assert code == 0, err
    assert "configurations tested 577,001,085,855,082" in out  # 15 digits: still in full
    code, js, _ = _run(capsys, argv + ["--json"])
    assert json.loads(js)["details"]["mos"]["configurations_tested"] == 577_001_085_855_082


def test_sota_crop_text_names_the_crop_point_and_counts_teams_above_it(tmp_path, capsys):
    # For the paper's cropping the fitted parameter is the crop point c and the paper's count is of
    # the teams above c (its Table 4: 1,134 on the Obesity board); the text must not call them a weight
    # and teams above the estimate.
    rng = np.random.default_rng(1)
    scores = np.sort(rng.normal(0.85, 0.01, 300))[::-1]
    f = tmp_path / "lb.csv"
    f.write_text("TeamId,TeamName,Score\n" + "".join(f"{i},t{i},{s:.5f}\n" for i, s in enumerate(scores)))
    args = ["sota", "--leaderboard", str(f), "--n", "1000", "--rho", "0", "--method", "crop"]
    code, out, err = _run(capsys, args)
    assert code == 0, err
    d = json.loads(_run(capsys, [*args, "--json"])[1])
    c = d["details"]["crop_point"]
    assert d["teams_above"] == int(np.sum(scores.round(5) > c))
    assert f"  crop point c     {c:.6f}" in out and f"  above c          {d['teams_above']:,} teams" in out
    assert "weight" not in out and "above estimate" not in out


# ------------------------------------------------------------------ sizes: the library's range, not the command line's
def test_command_line_and_library_agree_on_the_largest_integer():
    from sotalib._validate import INT64_MAX  # private: the library's 64-bit bound is the subject
    from sotalib.cli import _types  # private: the command line's number parsers are the subject

    assert _types.INT_MAX == INT64_MAX == 2**63 - 1
    assert not hasattr(_types, "N_MAX") and not hasattr(_types, "M_MAX") and not hasattr(_types, "REPS_MAX")


@pytest.mark.parametrize(
    "argv,option,low",
    [
        (["maxdist", "--n", "{v}", "--m", "10", "--theta", "0.8"], "--n", 1),
        (["maxdist", "--n", "100", "--m", "{v}", "--theta", "0.8"], "--m", 1),
        (
            ["maxdist", "--n", "100", "--m", "10", "--theta", "0.8", "--engine", "simulate", "--reps", "{v}"],
            "--reps",
            2,
        ),
        (["auc-max", "--auc", "0.8", "--n", "{v}", "--m", "10", "--prevalence", "0.3"], "--n", 2),
        (["auc-max", "--auc", "0.8", "--n", "200", "--m", "{v}", "--prevalence", "0.3"], "--m", 1),
        (["sota", "--leaderboard", "{lb}", "--n", "{v}"], "--n", 1),
        (["sota", "--leaderboard", "{lb}", "--n", "1000", "--classes", "{v}"], "--classes", 2),
        (["rank-uncertainty", "--per-item", "{items}", "--reps", "{v}"], "--reps", 1),
    ],
)
@pytest.mark.parametrize("value", ["1e400", "9223372036854775808"])
def test_an_integer_beyond_64_bits_names_the_option(tmp_path, capsys, argv, option, low, value):
    (tmp_path / "lb.csv").write_text("TeamId,TeamName,Score\n1,a,0.91\n2,b,0.88\n3,c,0.90\n")
    (tmp_path / "items.csv").write_text(ITEMS)
    argv = [a.format(v=value, lb=tmp_path / "lb.csv", items=tmp_path / "items.csv") for a in argv]
    err = _one_line_error(capsys, argv)
    assert err == f"sotalib {argv[0]}: error: {option} must be an integer in [{low}, 2**63 - 1], got '{value}'\n", err


def test_an_absurd_exponent_is_refused_at_once_not_expanded():
    import subprocess
    import sys

    # int(Decimal("1e99999999")) would build a number of 10^8 digits (minutes: the timeout fails the test);
    # the parser compares exponents first
    argv = ["maxdist", "--n", "1e99999999", "--m", "10", "--theta", "0.8", "--json"]
    run = subprocess.run(
        [sys.executable, "-m", "sotalib", *argv], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 2
    assert run.stderr == "sotalib maxdist: error: --n must be an integer in [1, 2**63 - 1], got '1e99999999'\n"
    assert json.loads(run.stdout) == {
        "error": "--n must be an integer in [1, 2**63 - 1], got '1e99999999'",
        "exit_code": 2,
    }


def test_sizes_beyond_the_old_command_line_limits_are_answered_as_the_library_answers(capsys):
    from sotalib import summarize_max

    # n = 10^8, m = 10^9 were refused by the command line (limit 10^7) though the library answers in a second
    code, out, err = _run(capsys, ["maxdist", "--n", "100000000", "--m", "1e9", "--theta", "0.8", "--json"])
    assert code == 0, err
    assert json.loads(out) == summarize_max(10**8, 10**9, 0.8).to_dict()
    code, out, err = _run(capsys, ["maxdist", "--n", "1e9", "--m", "1e12", "--theta", "0.8", "--json"])
    assert code == 0, err
    d = json.loads(out)
    assert d == summarize_max(10**9, 10**12, 0.8).to_dict() and 0.8 < d["ci_low"] < d["mean"] < d["ci_high"] < 0.8002


def test_sota_takes_a_test_set_beyond_the_old_limit(tmp_path, capsys):
    from sotalib import estimate_sota, read_leaderboard

    rng = np.random.default_rng(3)
    f = tmp_path / "lb.csv"
    f.write_text(
        "TeamId,TeamName,Score\n" + "".join(f"{i},t{i},{s:.9f}\n" for i, s in enumerate(rng.normal(0.9, 1e-4, 40)))
    )
    code, out, err = _run(capsys, ["sota", "--leaderboard", str(f), "--n", "1e9", "--method", "naive", "--json"])
    assert code == 0, err
    lib = estimate_sota(read_leaderboard(str(f)), 10**9, method="naive")
    assert json.loads(out) == json.loads(json.dumps(lib.to_dict())) and json.loads(out)["n"] == 10**9


@pytest.mark.parametrize(
    "argv,needle",
    [
        (
            ["maxdist", "--n", "100", "--m", "10", "--theta", "0.8", "--engine", "simulate", "--reps", "1e12"],
            "--reps 1000000000000 replications would need 14.6 TiB",
        ),
        (
            ["auc-max", "--auc", "0.8", "--n", "200", "--m", "10", "--prevalence", "0.3", "--reps", "1e12"],
            "--reps 1000000000000 replications would need",
        ),
        (
            ["auc-max", "--auc", "0.8", "--n", "1e12", "--m", "10", "--prevalence", "0.3", "--reps", "10"],
            "--n 1000000000000 items (300000000000 positives) would need",
        ),
        (
            ["auc-max", "--auc", "0.8", "--n", "200", "--m", "1e10", "--prevalence", "0.3", "--reps", "10"],
            "--m 10000000000 classifiers would need 149 GiB",
        ),
        (
            ["maxdist", "--n", "9223372036854775807", "--m", "10", "--theta", "0.8", "--rho", "0.3"],
            "--n 9223372036854775807 items would need",
        ),
        (
            ["rank-uncertainty", "--per-item", "{items}", "--reps", "1e12"],
            "--reps 1000000000000 resamples of 3 candidates would need",
        ),
    ],
)
def test_sizes_that_cannot_fit_are_refused_by_the_library_with_the_memory_they_need(
    tmp_path, capsys, monkeypatch, argv, needle
):
    monkeypatch.setenv("SOTALIB_MEMORY_LIMIT", "4G")
    (tmp_path / "items.csv").write_text(ITEMS)
    argv = [a.format(items=tmp_path / "items.csv") for a in argv]
    err = _one_line_error(capsys, argv, needle, "more than the 4 GiB sotalib allows itself")
    assert err.startswith(f"sotalib {argv[0]}: error: --"), err


# ------------------------------------------------------------------ sizes that scale (issue 25)


def test_maxdist_at_a_trillion_items_answers_exactly(capsys):
    code, out, err = _run(capsys, ["maxdist", "--n", "1e12", "--m", "1000", "--theta", "0.9", "--json"])
    assert code == 0 and err == "", err
    d = json.loads(out)
    assert d["engine"] == "exact" and 0.9 < d["ci_low"] < d["mean"] < d["ci_high"] < 0.9000013


@pytest.mark.parametrize(
    "extra,named",
    [
        (["--rho", "0.6", "--theta0", "0.85"], "--rho 0.6"),
        (["--rho", "0.6", "--theta0", "0.85", "--y0", "fixed"], "--rho 0.6"),
        (["--spread", "0.01"], "--spread 0.01"),
    ],
)
def test_maxdist_dependent_or_spread_at_a_trillion_is_refused_naming_n_and_engine_simulate(capsys, extra, named):
    argv = ["maxdist", "--n", "1e12", "--m", "1000", "--theta", "0.9", *extra]
    err = _one_line_error(capsys, argv, "--n 1000000000000", named, "SOTALIB_TIME_LIMIT", "--engine simulate")
    assert "engine=" not in err  # the option, not the library's parameter


def test_maxdist_beyond_two_to_the_53_is_refused_naming_n(capsys):
    _one_line_error(
        capsys, ["maxdist", "--n", "1e17", "--m", "10", "--theta", "0.9"], "--n 100000000000000000", "2**53"
    )


def test_sota_exact_at_ten_million_is_refused_up_front_without_a_cost_note(tmp_path, capsys):
    lb = tmp_path / "lb.csv"
    lb.write_text("team,score\n" + "".join(f"t{i},{0.80 + 0.002 * i:.4f}\n" for i in range(40)))
    argv = ["sota", "--leaderboard", str(lb), "--n", "1e7", "--engine", "exact"]
    _one_line_error(capsys, argv, "--engine exact at --n 10000000", "about 10 minutes", "--engine normal")


def test_auc_max_ten_million_teams_takes_the_normal_approximation(capsys):
    argv = ["auc-max", "--auc", "0.8", "--n", "1000", "--m", "1e7", "--prevalence", "0.5"]
    code, out, err = _run(capsys, [*argv, "--json"])
    assert code == 0 and err == "", err
    d = json.loads(out)
    assert d["engine"] == "normal" and d["m"] == 10**7 and 0.8 < d["ci_low"] < d["mean"] < d["ci_high"] < 1
    code, out, err = _run(capsys, argv)
    assert code == 0 and "normal approximation (a simulation would take about 138.9 hours" in out
    # a simulation asked for is refused up front, naming the options that bound it
    _one_line_error(capsys, [*argv, "--reps", "100"], "--m 10000000 with --reps 100", "SOTALIB_TIME_LIMIT")
    # a small one still simulates, as before
    code, out, err = _run(capsys, ["auc-max", "--auc", "0.9", "--n", "300", "--m", "10", "--prevalence", "0.3"])
    assert code == 0 and "simulated: 1000 challenges, seed 0" in out


def test_rank_kemeny_beyond_its_local_search_is_refused_naming_the_method(tmp_path, capsys, monkeypatch):
    from sotalib.judging import _kemeny  # private: the bound is patched to a small file's size

    monkeypatch.setattr(_kemeny, "KEMENY_LOCAL_MAX", 20)  # the bound is 2,000; the same rule on a small file
    scores = np.random.default_rng(0).random((40, 3))
    path = tmp_path / "scores.csv"
    path.write_text(
        "name,a,b,c\n" + "".join(f"c{i}," + ",".join(f"{v:.4f}" for v in row) + "\n" for i, row in enumerate(scores))
    )
    _one_line_error(
        capsys,
        ["rank", "--scores", str(path), "--method", "kemeny"],
        "--method kemeny on",
        "at most 20",
        "--method copeland",
    )


def test_maxdist_states_the_cost_of_a_long_exact_run_before_it_starts():
    # private: the library announces long work to whoever listens; the command line words the announcement
    from sotalib._progress import announcing
    from sotalib.cli.maxdist import cost_note as words
    from sotalib.multiplicity import summarize_max

    class Heard(Exception):
        pass

    def cost_note(given) -> str:  # the note `sotalib maxdist` prints before summarize_max(**given), or ""
        heard = []

        def hear(seconds, work="", **facts):
            if work == "exact distribution":
                heard.append(words(seconds, facts["n"]))
                raise Heard  # the note, not the work

        try:
            with announcing(hear):
                summarize_max(**given)
        except Heard:
            return heard[0]
        except ValueError:  # refused up front
            return ""
        return ""

    given = dict(n=10**6, m=1000, theta=0.9, rho=0.6, theta0=0.85)
    assert cost_note(given) == (
        "sotalib maxdist: note: the exact distribution at n=1,000,000 is expected to take about 20 seconds "
        "on a 2-core machine (--engine simulate answers in seconds)"
    )
    assert cost_note({**given, "n": 10**4}) == ""  # quick
    assert cost_note({**given, "n": 10**9}) == ""  # refused by the library, with its estimate
    assert cost_note({**given, "engine": "simulate", "n_resamples": 2, "rng": 0}) == ""  # no exact run
    assert cost_note({**given, "alpha": 3.0}) == ""
    assert cost_note(dict(n=10**12, m=1000, theta=0.9)) == ""  # identical classifiers: quick at any n
