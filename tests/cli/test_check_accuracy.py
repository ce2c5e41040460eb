"""``sotalib check --items N``: an accuracy on n items on the command line (exit codes, JSON keys, refusals)."""

import json

import pytest

from sotalib.cli import main


def _json(capsys, argv):
    assert main(["check", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_one_score_off_the_lattice(capsys):
    out = _json(capsys, ["--items", "164", "--score", "acc=0.6493"])
    assert out["verdict"] == "inconsistent" and out["consistent"] is False and out["evidence"] == []
    assert out["min_repeats"] == 2 and out["example"] == {"repeats": 2, "counts": 213, "of": 328}
    assert out["diagnosis"].startswith("0.6493 is not k/164 for any k")


def test_percent_and_text(capsys):
    out = _json(capsys, ["--items", "164", "--score", "acc=64.63%", "--decimals", "2", "--rounding", "round"])
    assert out["verdict"] == "consistent" and out["evidence"] == [106] and out["min_repeats"] == 1
    assert main(["check", "--items", "164", "--score", "acc=0.6493"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("INCONSISTENT: acc=0.6493") and "the mean of 2 runs can give it" in text


def test_runs_samples_and_subsets(capsys):
    assert _json(capsys, ["--items", "164", "--repeats", "2", "--score", "acc=0.6493"])["evidence"] == [213]
    out = _json(capsys, ["--items", "20", "--samples", "10", "--pass-at", "5", "--score", "pass@5=0.6493"])
    assert out["consistent"] and out["min_repeats"] is None and sum(out["evidence"][0]) == 20
    argv = ["--subset", "a=10", "--subset", "b=7", "--score", "acc=0.65", "--average", "macro"]
    out = _json(capsys, argv)
    assert out["consistent"] and all(len(w) == 2 for w in out["evidence"])
    out = _json(capsys, [*argv, "--subset-score", "a=0.5", "--decimals", "2"])
    assert not out["consistent"] and "each score fits alone" in out["diagnosis"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--items", "164", "--score", "acc=0.5", "--repeats", "0"], "--repeats must be an integer in [1, 1000]"),
        (["--items", "164", "--score", "acc=0.5", "--samples", "1", "--pass-at", "5"], "--pass-at must be"),
        (
            ["--items", "164", "--p", "3", "--score", "acc=0.5"],
            "--p does not apply to an accuracy on a number of items",
        ),
        (
            ["--items", "164", "--n", "3", "--score", "acc=0.5"],
            "--n does not apply to an accuracy on a number of items",
        ),
        (["--items", "164", "--score", "acc=0.5", "--average", "macro"], "--average macro needs --subset"),
        (["--items", "164", "--score", "acc=0.5", "--pass-at", "2"], "--pass-at needs --samples"),
        (["--items", "0", "--score", "acc=0.5"], "--items must be"),
        (["--subset", "a=x", "--score", "acc=0.5"], "--subset a must be an integer"),
        (["--subset", "a=3", "--score", "acc=0.5", "--subset-score", "b=0.5"], "--subset-score b is not a subset"),
        (["--items", "164", "--score", "sens=0.5"], "every score is a share of the items"),
        (["--p", "5", "--n", "5", "--score", "acc=0.5", "--decimals", "1", "--average", "micro"], "--average does not"),
    ],
)
def test_bad_input_exit_2_naming_the_option(capsys, argv, message):
    assert main(["check", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_misspelt_benchmark_names_the_closest(capsys):
    assert main(["check", "--dataset", "humaneva", "--score", "acc=0.5"]) == 2
    err = capsys.readouterr().err
    import importlib.util

    if importlib.util.find_spec("sotalib.consistency._benchmarks") is None:  # the registry comes from branch benchmarks
        assert "--dataset" in err
    else:
        assert "humaneval" in err
