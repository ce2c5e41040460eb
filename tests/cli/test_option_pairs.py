"""No option is silently ignored: every pair of options of every command is honoured or refused.

The options are read from the argparse parsers (``sotalib.cli.build_parser``), so a new
option is covered as soon as it exists -- and the test fails until ``VALUES`` gives it a
value.  Each command starts from a valid baseline (``BASE``); an option in a pair either
replaces its baseline value or is added to it.  A pair ``(A, B)`` passes when

* the command refuses it: exit code 2 and a message naming ``A`` or ``B``; or
* both options are honoured: the outcome (exit code, ``--json`` output and the files the
  command wrote) differs from the run with ``A`` alone and from the run with ``B`` alone.

Each value differs from the option's default, so an honoured option changes the outcome.
The runs are in-process (``sotalib.cli.main``) and small: a few thousand command lines
take about a minute on one core.
"""

from __future__ import annotations

import argparse
import itertools
import re
from pathlib import Path

import numpy as np
import pytest

from sotalib.cli import COMMANDS, build_parser, main

# ----------------------------------------------------------------------------------- inputs
_RNG = np.random.default_rng(5)
#: Leaderboards of 40 teams whose top score is no outlier (the shrink and crop equations solve), and two
#: teams between the chance of three classes and of two (--classes changes which teams count).
LEADERBOARD, LEADERBOARD2 = (
    "TeamId,TeamName,Score,Public\n"
    + "".join(
        f"{i},t{i},{s:.4f},{min(s + 0.01, 1):.4f}\n"
        for i, s in enumerate(np.sort(_RNG.binomial(1000, theta, 40) / 1000 + _RNG.uniform(0, 0.02, 40)))
    )
    + "40,low1,0.40,0.41\n41,low2,0.45,0.46\n"
    for theta in (0.8, 0.75)
)
#: Candidates x judges, for rank and compare.
MATRIX = (
    "candidate,d1,d2,d3,d4,d5,d6\n"
    "A,0.81,0.72,0.90,0.66,0.80,0.71\n"
    "B,0.62,0.91,0.55,0.70,0.62,0.64\n"
    "C,0.55,0.60,0.41,0.52,0.73,0.60\n"
    "D,0.70,0.65,0.60,0.58,0.61,0.69\n"
)
#: Another matrix whose every judge ranks the candidates differently (so that any method, the random
#: dictator included, sees the change).
MATRIX2 = (
    "candidate,d1,d2,d3,d4,d5,d6\n"
    "A,0.55,0.60,0.41,0.52,0.61,0.60\n"
    "B,0.92,0.91,0.95,0.90,0.93,0.94\n"
    "C,0.81,0.72,0.90,0.66,0.80,0.71\n"
    "D,0.70,0.65,0.60,0.58,0.73,0.69\n"
)
#: Per-item results and battles, for rank-uncertainty.
ITEMS = "item,A,B,C\n" + "".join(f"q{i},{int(i % 4 != 0)},{i % 2},{int(i % 3 == 0)}\n" for i in range(40))
ITEMS2 = "item,A,B,C\n" + "".join(f"q{i},{int(i % 4 != 0)},{int(i % 3 != 0)},{i % 2}\n" for i in range(40))
BATTLES = "a,b,winner\n" + "".join(
    f"{a},{b},{w}\n" for a, b, w in [("A", "B", "A"), ("B", "C", "B"), ("C", "A", "C"), ("A", "B", "B")] * 6
)
FOLDS = "p,n\n5,10\n5,10\n"
BATCH = "id,p,n,decimals,acc\nr1,10,20,2,0.5\nr2,10,20,2,0.51\n"
#: Per-item correctness of five models (for dependence): correlated through a shared difficulty.
CORRECT, CORRECT2 = (
    "item,"
    + ",".join(f"m{j}" for j in range(5))
    + "\n"
    + "".join(
        f"q{i}," + ",".join(str(int((i * (j + k) + 3 * j) % 7 < 4 + (i % 3 == 0))) for j in range(5)) + "\n"
        for i in range(60)
    )
    for k in (1, 2)
)
#: Per-item results of three models as a long table with two score columns (for errorbars), and clusters of its items.
LONG = "model,item,score,alt\n" + "".join(
    f"{m},q{i},{int((i * (k + 2) + k) % 5 < 3)},{int((i + k) % 3 != 0)}\n"
    for k, m in enumerate("ABC")
    for i in range(30)
)
INFO = "item,cluster\n" + "".join(f"q{i},c{i // 5}\n" for i in range(30))
#: A manifest of leaderboards for sota --batch (paths relative to the manifest's folder).
MANIFEST = "id,file,n\nfirst,lb.csv,1000\nsecond,lb2.csv,2000\n"

FILES = {
    "lb": LEADERBOARD,
    "lb2": LEADERBOARD2,
    "matrix": MATRIX,
    "matrix2": MATRIX2,
    "items": ITEMS,
    "items2": ITEMS2,
    "battles": BATTLES,
    "folds": FOLDS,
    "batch": BATCH,
    "manifest": MANIFEST,
    "correct": CORRECT,
    "correct2": CORRECT2,
    "long": LONG,
    "info": INFO,
}

#: Valid command lines of each command (an answer, exit 0, or a question without one, exit 3).  Whether an
#: option changes the answer may depend on the data (the typo finder of --no-diagnosis runs only on an
#: inconsistent report, more --decimals only narrow a consistent one): a pair passes on one of them.
BASES: dict[str, list[dict[str, str | None]]] = {
    "maxdist": [{"--n": "100", "--m": "10", "--theta": "0.9"}],
    "sota": [{"--leaderboard": "{lb}", "--n": "1000"}],
    "auc-max": [{"--auc": "0.8", "--n": "60", "--m": "5", "--prevalence": "0.3", "--reps": "20"}],
    "check": [
        {"--p": "10", "--n": "20", "--score": "acc=0.56", "--decimals": "2"},  # inconsistent; floor: consistent
        {"--p": "10", "--n": "20", "--score": "acc=0.53", "--decimals": "2"},  # consistent; 3 decimals: not
        *({"--p": "10", "--n": "20", "--score": f"acc={v}", "--decimals": "2"} for v in ("0.55", "0.52", "0.57")),
    ],
    "rank": [{"--scores": "{matrix}", "--method": "mean"}],
    "testsize": [{"--error": "0.1"}],
    "compare": [{"--scores": "{matrix}"}],
    "rank-uncertainty": [{"--per-item": "{items}", "--reps": "30", "--seed": "1"}],
    "dependence": [{"--per-item": "{correct}", "--reps": "30"}],
    "datasets": [{}],
    "errorbars": [{"--per-item": "{long}"}],
}

#: A valid value of every option, different from its default and from the baseline's; None for a flag.
#: A list gives several values (modes), each paired with every other option.
VALUES: dict[str, dict[str, str | list[str] | None]] = {
    "maxdist": {
        "--n": "120",
        "--m": "12",
        "--theta": "0.8",
        "--alpha": "0.3",
        "--rho": "0.3",
        "--theta0": "0.7",
        "--y0": "fixed",
        "--spread": "0.02",
        "--engine": "simulate",
        "--method": "mc",
        "--reps": "200",
        "--seed": "3",
    },
    "sota": {
        "--leaderboard": "{lb2}",
        "--batch": "{manifest}",
        "--per-item": "{correct}",
        "--format": "long",
        "--outcome": "acc",
        "--filter": "strict-match",
        "--item-info": "{items}",
        "--score-column": "Public",
        "--scale": "percent",
        "--n": "2000",
        "--metric": ["auc", "gini"],
        "--classes": "3",
        "--chance": "0",
        "--prevalence": "0.3",
        "--rho": "0.3",
        "--method": ["naive", "observed"],
        "--target": "upper",
        "--engine": "normal",
        "--seed": "3",
    },
    "auc-max": {
        "--auc": "0.85",
        "--n": "80",
        "--m": "6",
        "--prevalence": "0.4",
        "--rho": "0.3",
        "--reps": "25",
        "--seed": "3",
        "--alpha": "0.1",
    },
    "check": {
        "--p": "11",
        "--n": "21",
        "--dataset": "tpehg",
        "--score": "sens=0.5",
        "--eps": "0.02",
        "--decimals": "3",
        "--rounding": "floor",
        "--folds": "5:10,5:10",
        "--folds-file": "{folds}",
        "--k": "2",
        "--stratified": None,
        "--repeats": "2",
        "--aggregation": "som",
        "--batch": "{batch}",
        "--no-diagnosis": None,
        "--task": "regression",
        "--classes": "3,3,4",
        "--average": "micro",
        "--beta": "2",
        "--zero-division": "1",
        "--engine": "exhaustive",
        "--method": "exhaustive",
        "--target-var": "1.5",
        "--fold-min": "acc=0.4",
        "--fold-max": "acc=0.6",
        "--items": "40",
        "--samples": "3",
        "--pass-at": "2",
        "--subset": "a=5",
        "--subset-score": "a=0.4",
    },
    "rank": {
        "--scores": "{matrix2}",
        "--method": ["copeland", "random-dictator"],
        "--lower-is-better": None,
        "--seed": "3",
        "--candidates": "columns",
    },
    "testsize": {
        "--error": "0.05",
        "--sd": "0.4",
        "--confidence": "0.9",
        "--z": "2.5",
        "--precision": "1.5",
        "--alpha": "0.1",
        "--difference": "0.05",
        "--corr": "0.5",
        "--power": "0.9",
        "--items": "100",
    },
    "compare": {
        "--scores": "{matrix2}",
        "--alpha": "0.1",
        "--lower-is-better": None,
        "--cd-diagram": "{out}/cd.svg",
        "--candidates": "columns",
    },
    "rank-uncertainty": {
        "--per-item": "{items2}",
        "--format": "long",
        "--outcome": "acc",
        "--filter": "strict-match",
        "--item-info": "{items}",
        "--battles": "{battles}",
        "--lower-is-better": None,
        "--reps": "40",
        "--seed": "3",
        "--rng": "4",
        "--alpha": "0.1",
        "--plot": "{out}/ranks.svg",
    },
    "dependence": {
        "--per-item": "{correct2}",
        "--format": "long",
        "--outcome": "acc",
        "--filter": "strict-match",
        "--item-info": "{items}",
        "--reps": "50",
        "--seed": "3",
        "--alpha": "0.2",
        "--fit": None,
    },
    "datasets": {},
    "errorbars": {
        "--per-item": "{correct}",
        "--format": "wide",
        "--outcome": "alt",
        "--filter": "x",
        "--item-info": "{info}",
        "--clusters": "cluster",
        "--pairs": None,
        "--pairs-file": "{out}/pairs.jsonl",
        "--alpha": "0.1",
    },
}

#: Further values whose runs take seconds each (Monte Carlo estimators, solved crop points): paired in a
#: test marked slow.
SLOW_VALUES: dict[tuple[str, str], list[str]] = {("sota", "--method"): ["crop", "deconvolve", "abc"]}

#: Pairs whose effect these small test sets cannot show, and why (each option of them shows it in other pairs).
UNOBSERVABLE = {
    ("check", "--score", "--no-diagnosis"): "without the typo finder an inconsistent report's answer is the "
    "verdict alone, and one more score cannot make it consistent",
    ("check", "--decimals", "--rounding"): "at 3 decimals, rounding and truncating admit the same counts of 30 items",
}

# the format is detected from the file: --format names it (the same outcome) or another, which the file's
# first line refuses (the reader names the file and line, not the option); tests/test_per_item_formats.py
# covers --format on files of every format
UNOBSERVABLE.update(
    {
        ("errorbars", a, b): "a format other than the one detected is an error of the file, named by its line"
        for a, b in [("--per-item", "--format")]
        + [("--format", o) for o in ("--outcome", "--filter", "--item-info", "--clusters", "--pairs")]
        + [("--format", o) for o in ("--pairs-file", "--alpha")]
    }
)

#: Options every run carries, or that stop before any work: not paired.
UNPAIRED = {"--json", "--help"}


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def _options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options of a command's parser, each once (its ``--long`` spelling), --json and --help left out."""
    out = []
    for action in parser._actions:
        long = [s for s in action.option_strings if s.startswith("--")]
        if long and long[0] not in UNPAIRED and not isinstance(action, argparse._HelpAction):
            out.append(action)
    return out


def _long(action: argparse.Action) -> str:
    return next(s for s in action.option_strings if s.startswith("--"))


def _exclusive(parser: argparse.ArgumentParser) -> dict[str, set[str]]:
    """For each option, the options of its mutually exclusive groups (it replaces them in the baseline)."""
    out: dict[str, set[str]] = {}
    for group in parser._mutually_exclusive_groups:
        names = {_long(a) for a in group._group_actions}
        for name in names:
            out.setdefault(name, set()).update(names - {name})
    return out


def test_every_option_has_a_value():
    parsers = _subparsers()
    assert set(parsers) == set(COMMANDS) == set(BASES) == set(VALUES)
    missing = [
        f"{command} {_long(a)}"
        for command, parser in parsers.items()
        for a in _options(parser)
        if _long(a) not in VALUES[command]
    ]
    assert not missing, f"give these options a valid value in VALUES: {missing}"
    stale = [f"{c} {o}" for c, values in VALUES.items() for o in values if o not in map(_long, _options(parsers[c]))]
    assert not stale, f"VALUES names options that no longer exist: {stale}"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("pairs")
    for name, text in FILES.items():
        (d / f"{name}.csv").write_text(text)
    out = d / "out"
    out.mkdir()
    return {**{name: str(d / f"{name}.csv") for name in FILES}, "out": str(out)}


class _Runner:
    """Runs command lines in-process; the outcome is the exit code, stdout and the files written."""

    def __init__(self, capsys, files):
        self.capsys, self.files, self.cache = capsys, files, {}

    def __call__(self, command: str, options: list[tuple[str, str | None]]) -> tuple:
        argv = [command]
        for option, value in options:
            argv += [option] if value is None else [f"{option}={value.format(**self.files)}"]
        key = tuple(argv)
        if key not in self.cache:
            out = Path(self.files["out"])
            for f in out.iterdir():
                f.unlink()
            code = main([*argv, "--json"])
            cap = self.capsys.readouterr()
            written = tuple(sorted((f.name, f.stat().st_size > 0) for f in out.iterdir()))
            self.cache[key] = (code, cap.out, written, cap.err, argv)
        return self.cache[key]


def _instances(command: str, parser, slow: bool = False) -> list[tuple[str, str | None]]:
    """Every option with each of its values (with ``slow``, also those of ``SLOW_VALUES``)."""
    out = []
    for action in _options(parser):
        value = VALUES[command][_long(action)]
        extra = SLOW_VALUES.get((command, _long(action)), []) if slow else []
        for v in (value if isinstance(value, list) else [value]) + extra:
            out.append((_long(action), v))
    return out


def _with(base: dict, exclusive, appended, *pairs: tuple[str, str | None]) -> list[tuple[str, str | None]]:
    """The baseline with the options of ``pairs``: each replaces its baseline value and the baseline's options
    it excludes; a repeatable option (``--score``) is added to the baseline's."""
    given = {option for option, _ in pairs}
    options = [
        (o, v)
        for o, v in base.items()
        if not any(o in exclusive.get(g, ()) for g in given) and (o not in given or o in appended)
    ]
    return options + list(pairs)


def _names(message: str, option: str) -> bool:
    return re.search(rf"{re.escape(option)}(?![-\w])", message) is not None


def _failures(run, command: str, base: dict, exclusive, appended, a, b) -> list[str]:
    """Why the pair ``a``, ``b`` (options with their values) is neither honoured nor refused on ``base``."""
    code, _out, _written, err, argv = both = run(command, _with(base, exclusive, appended, a, b))
    if code == 2:
        if _names(err, a[0]) or _names(err, b[0]):
            return []
        return [f"{' '.join(argv)}: refused without naming {a[0]} or {b[0]}: {err.strip()}"]
    out = []
    for alone, other in ((a, b), (b, a)):
        single = run(command, _with(base, exclusive, appended, alone))
        if single[0] != 2 and single[:3] == both[:3]:
            out.append(f"{' '.join(argv)}: {other[0]} is ignored (the same outcome as without it)")
    return out


def _check_pairs(command: str, files, capsys, slow: bool) -> None:
    parser = _subparsers()[command]
    exclusive = _exclusive(parser)
    appended = {_long(a) for a in _options(parser) if isinstance(a, argparse._AppendAction)}
    run = _Runner(capsys, files)
    for base in BASES[command]:
        first = run(command, list(base.items()))
        assert first[0] in (0, 3), first
        again = main([*first[4], "--json"])
        assert (again, capsys.readouterr().out) == first[:2], "the baseline's output must be reproducible"
    slow_values = {(o, v) for (c, o), values in SLOW_VALUES.items() if c == command for v in values}
    failures = []
    for a, b in itertools.combinations(_instances(command, parser, slow), 2):
        if a[0] == b[0] or (command, a[0], b[0]) in UNOBSERVABLE:
            continue  # two values of one option: the second replaces the first
        if slow and not {a, b} & slow_values:
            continue  # paired by the fast test
        why = [_failures(run, command, base, exclusive, appended, a, b) for base in BASES[command]]
        if all(why):
            failures += why[0]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("command", [c for c in COMMANDS if VALUES[c]])
def test_every_pair_of_options_is_honoured_or_refused(command, files, capsys):
    _check_pairs(command, files, capsys, slow=False)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted({c for c, _ in SLOW_VALUES}))
def test_every_pair_with_a_slow_mode_is_honoured_or_refused(command, files, capsys):
    _check_pairs(command, files, capsys, slow=True)
