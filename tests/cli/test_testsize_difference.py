"""``sotalib testsize --difference``: the command line of the paired and unpaired sizes."""

from __future__ import annotations

import json

import pytest

from sotalib.cli import main
from sotalib.judging import estimate_test_size


def _run(capsys, argv):
    code = main(["testsize", *argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_json_is_the_library_result(capsys):
    code, out, _ = _run(
        capsys, ["--difference", "0.03", "--corr", "0.6", "--power", "0.9", "--alpha", "0.01", "--json"]
    )
    assert code == 0
    expected = estimate_test_size(difference=0.03, corr=0.6, power=0.9, alpha=0.01).to_dict()
    assert json.loads(out) == expected
    assert expected["paired"] < expected["unpaired"] and expected["items"] is None


def test_text_says_both_sizes(capsys):
    code, out, _ = _run(capsys, ["--difference", "0.05", "--error", "0.3", "--corr", "0.4", "--items", "164"])
    r = estimate_test_size(difference=0.05, error=0.3, corr=0.4, items=164)
    assert code == 0
    assert f"{r.paired:,}" in out and f"{r.unpaired:,}" in out and "at 164 items" in out
    assert f"{r.min_detectable_difference:.4g}" in out


@pytest.mark.parametrize(
    "argv,option",
    [
        (["--difference", "0.05", "--precision", "2"], "--precision"),
        (["--difference", "0.05", "--z", "2"], "--z"),
        (["--error", "0.1", "--corr", "0.5"], "--corr"),
        (["--error", "0.1", "--power", "0.9"], "--power"),
        (["--error", "0.1", "--items", "100"], "--items"),
        (["--difference", "0.05", "--corr", "1"], "--corr"),
        (["--difference", "0.05", "--corr", "nan"], "--corr"),
        (["--difference", "1e-80"], "--difference"),
        (["--difference", "1e999"], "--difference"),
        (["--difference", "0.05", "--power", "1"], "--power"),
        (["--difference", "0.05", "--alpha", "0.1", "--confidence", "0.9"], "--alpha"),
        (["--difference", "0.05", "--items", "1e400"], "--items"),
        ([], "--difference"),
    ],
)
def test_options_that_do_not_apply_or_are_out_of_range_exit_2(capsys, argv, option):
    code, out, err = _run(capsys, argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and option in err, err
