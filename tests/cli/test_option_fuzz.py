"""Every numeric option of every command, fed text that is no usable number: exit 2, one line naming the option.

The options are discovered from the argparse parsers (``sotalib.cli.build_parser``),
so a new command or option is covered as soon as it exists; a new command
needs only a valid baseline command line in ``BASELINES``.  Runs in-process
(``sotalib.cli.main``), so hundreds of command lines take seconds.
"""

from __future__ import annotations

import argparse
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sotalib.cli import COMMANDS, build_parser, main

LEADERBOARD = "TeamId,TeamName,Score\n1,a,0.91\n2,b,0.88\n3,c,0.90\n"
SCORES = "candidate,j1,j2\nA,0.8,0.5\nB,0.6,0.9\n"
MATRIX = "candidate,d1,d2,d3,d4,d5\nA,0.8,0.7,0.9,0.6,0.8\nB,0.6,0.9,0.5,0.7,0.6\nC,0.5,0.6,0.4,0.5,0.7\n"
ITEMS = "item,A,B,C\n" + "".join(f"{i},{i % 2},{(i // 2) % 2},{int(i % 3 == 0)}\n" for i in range(12))

#: A valid command line of each command; ``{lb}`` and ``{scores}`` are files written by the fixture.
BASELINES = {
    "maxdist": ["--n", "100", "--m", "10", "--theta", "0.9"],
    "sota": ["--leaderboard", "{lb}", "--n", "3000", "--rho", "0"],
    "auc-max": ["--auc", "0.9", "--n", "300", "--m", "10", "--prevalence", "0.1", "--reps", "20"],
    "check": ["--p", "10", "--n", "20", "--score", "acc=0.5", "--decimals", "2"],
    "rank": ["--scores", "{scores}", "--method", "mean"],
    "testsize": ["--error", "0.1"],
    "compare": ["--scores", "{matrix}"],
    "rank-uncertainty": ["--per-item", "{items}", "--reps", "50", "--rng", "1"],
    "dependence": ["--per-item", "{items}", "--reps", "20"],
    "datasets": [],
    "errorbars": ["--per-item", "{items}"],
}
#: Some options need another baseline (options that exclude each other).
BASELINE_FOR = {("check", "--eps"): ["--p", "10", "--n", "20", "--score", "acc=0.5"]}
#: Numeric options whose parser type is ``str`` (parsed by the command itself).
NUMERIC_STR_OPTIONS = {("check", "--eps")}


def _numeric(action: argparse.Action, command: str) -> bool:
    if not action.option_strings or action.nargs == 0:
        return False
    option = next(s for s in action.option_strings if s.startswith("--"))
    name = getattr(action.type, "__name__", "").lower()
    return (
        action.type in (int, float)
        or getattr(action.type, "numeric", False)  # sotalib.cli._types
        or any(word in name for word in ("int", "float", "real", "number"))  # a command's own number parser
        or (command, option) in NUMERIC_STR_OPTIONS
    )


def _numeric_options() -> list[tuple[str, str]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = []
    for command in COMMANDS:
        for action in sub.choices[command]._actions:
            if _numeric(action, command):
                out.append((command, next(s for s in action.option_strings if s.startswith("--"))))
    return out


OPTIONS = _numeric_options()


def _cases():
    for command, option in OPTIONS:
        yield pytest.param(command, option, id=f"{command} {option}")


#: Text that is no usable number for any option: NaN, infinities, overflow, underflow, absurd exponents.
ABSURD = [
    "nan",
    "NaN",
    "inf",
    "-inf",
    "Infinity",
    "1e400",
    "-1e400",
    "1e-400",
    "1e99999999",
    "-1e99999999",
    "1e-99999999",
    "9" * 400,
    "1e308",
    "-1e308",
    "",
    " ",
    "abc",
    "0x10",
    "1,5",
    "½",
    "1e",
    "--",
]


def _is_float(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


VALUES = st.one_of(st.sampled_from(ABSURD), st.text(max_size=24).filter(lambda s: not _is_float(s)))


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz")
    (d / "lb.csv").write_text(LEADERBOARD)
    (d / "scores.csv").write_text(SCORES)
    (d / "matrix.csv").write_text(MATRIX)
    (d / "items.csv").write_text(ITEMS)
    return {k: str(d / f"{k}.csv") for k in ("lb", "scores", "matrix", "items")}


def test_every_command_has_a_baseline_and_options_are_discovered():
    assert set(COMMANDS) <= set(BASELINES), "add a valid command line for the new command to BASELINES"
    found = set(OPTIONS)
    for expected in [("maxdist", "--n"), ("maxdist", "--alpha"), ("sota", "--seed"), ("auc-max", "--reps")]:
        assert expected in found
    assert ("testsize", "--confidence") in found and ("rank", "--seed") in found


@pytest.mark.parametrize("command", COMMANDS)
def test_baselines_are_valid(command, files, capsys):
    argv = [command] + [a.format(**files) for a in BASELINES[command]] + ["--json"]
    assert main(argv) in (0, 3), capsys.readouterr().err  # an answer, or a question without one
    capsys.readouterr()


def _argv(command: str, option: str, value: str, files) -> list[str]:
    base = [a.format(**files) for a in BASELINE_FOR.get((command, option), BASELINES[command])]
    if option in base:
        i = base.index(option)
        base = base[:i] + base[i + 2 :]
    return [
        command,
        *base,
        f"{option}={value}" if value.startswith("-") else option,
        *([] if value.startswith("-") else [value]),
    ]


@pytest.mark.parametrize("command,option", list(_cases()))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=VALUES)
def test_numeric_option_refuses_text_that_is_no_number(command, option, value, files, capsys):
    code = main(_argv(command, option, value, files))
    cap = capsys.readouterr()
    lines = cap.err.strip().splitlines()
    assert code == 2, (value, cap.out, cap.err)
    assert cap.out == ""
    assert len(lines) == 1 and "Traceback" not in cap.err, cap.err
    assert lines[0].startswith(f"sotalib {command}: error: ") and option in lines[0], lines[0]


def test_the_command_line_and_the_library_agree_on_the_smallest_alpha():
    # private: the library's and the command line's own smallest alpha (no public name) must agree
    from sotalib._validate import ALPHA_MIN
    from sotalib.cli import _types

    assert _types.ALPHA_MIN == ALPHA_MIN and math.isfinite(ALPHA_MIN)


@pytest.mark.parametrize("command,option", list(_cases()))
@pytest.mark.parametrize("value", ["abc", "nan", "1e400"])
def test_with_json_a_refused_option_is_one_json_object(command, option, value, files, capsys):
    code = main([*_argv(command, option, value, files), "--json"])
    cap = capsys.readouterr()
    assert code == 2, (value, cap.out, cap.err)
    (line,) = cap.out.splitlines()
    d = json.loads(line)
    assert set(d) == {"error", "exit_code"} and d["exit_code"] == 2 and option in d["error"], d
    assert cap.err == f"sotalib {command}: error: {d['error']}\n"
