"""The library alone, as a user installs it: the built wheel without extras (run by `make core-smoke`).

`make core-smoke` installs the wheel of `make dist` into a fresh virtual environment outside the
repository and runs this file from outside it, isolated (``python -I``).  It checks that the package
comes from that environment, its version is the repository's, the wheel carries the licences; runs
every command's ``--help`` and one real answer per subpackage through the console script of the
running interpreter, among them a named test set read from the wheel's package data; checks that
nothing opens a file of the repository while the commands run (an audit hook); and that the front
door loads no plotting package.  Not collected by pytest: it runs in its own virtual environment.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

EXE = str(Path(sysconfig.get_path("scripts")) / "sotalib")


#: Scores of one confusion matrix summed over DRIVE's 20 test images (field of view): tp = 449,960 of
#: p = 577,649 and tn = 3,899,701 of n = 3,960,494, to 4 decimals (Score of Means); spec 0.9947 is a typo.
DRIVE_SCORES = ("--score", "acc=0.9585", "--score", "sens=0.7790", "--score", "spec=0.9847")
CHECK_DRIVE = ["check", "--dataset", "drive-test-fov", *DRIVE_SCORES, "--decimals", "4", "--aggregation", "som"]


def run(*args: str) -> dict:
    r = subprocess.run([EXE, *args, "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"sotalib {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return json.loads(r.stdout)


def help_of_every_command() -> list[str]:
    from sotalib.cli import COMMANDS

    for args in (["--help"], *([c, "--help"] for c in COMMANDS)):
        r = subprocess.run([EXE, *args], capture_output=True, text=True)
        assert r.returncode == 0 and "usage: sotalib" in r.stdout, (args, r.returncode, r.stderr)
    return list(COMMANDS)


def the_wheel_is_installed(repository: Path | None) -> str:
    """The package, its version and its licence files come from this environment, not the repository."""
    from importlib import metadata

    import sotalib

    where = Path(sotalib.__file__).resolve()
    assert where.is_relative_to(Path(sys.prefix).resolve()), f"sotalib imported from {where}, not the venv"
    dist = metadata.distribution("sotalib")
    assert not (dist.read_text("direct_url.json") or "").count('"editable": true'), "an editable install"
    assert dist.metadata["License-Expression"] == "MIT", dist.metadata["License-Expression"]
    licences = sorted(str(f) for f in dist.files or () if "/licenses/" in str(f))
    assert any(f.endswith("/licenses/LICENSE") for f in licences), licences
    assert sum("/licenses/data/" in f for f in licences) >= 5, f"the vendored sources' notices: {licences}"
    for f in dist.files or ():
        if "/licenses/" in str(f):
            assert "Permission is hereby granted" in f.read_text() or "Apache License" in f.read_text(), f
    shown = subprocess.run([EXE, "--version"], capture_output=True, text=True, check=True)
    assert shown.stderr == "", shown.stderr
    version = shown.stdout.split()[-1]  # "sotalib X.Y.Z" on stdout
    assert version == sotalib.__version__ == dist.version, (version, sotalib.__version__, dist.version)
    if repository is not None:
        assert not Path.cwd().resolve().is_relative_to(repository), "run from inside the repository"
        assert not any(Path(p or ".").resolve().is_relative_to(repository) for p in sys.path), sys.path
        pyproject = (repository / "pyproject.toml").read_text(encoding="utf-8")
        assert re.search(rf'^version = "{re.escape(version)}"$', pyproject, re.M), f"the wheel is {version}"
    return version


#: Runs in a fresh interpreter: every call of the command line in-process under an audit hook that
#: records each file opened inside the repository (argv: repository, JSON list of calls).
AUDITED = r"""
import contextlib, io, json, os, sys
repo = os.path.realpath(sys.argv[1])
opened = []
def hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes)):
        path = os.path.abspath(os.fsdecode(args[0]))
        if path == repo or path.startswith(repo + os.sep):
            opened.append(path)
sys.addaudithook(hook)
from sotalib.cli import main
for call in json.loads(sys.argv[2]):
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(call) == 0, call
print(json.dumps(sorted(set(opened))))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repository", type=Path, help="the checkout the wheel was built from")
    repository = parser.parse_args().repository
    repository = repository.resolve() if repository else None
    version = the_wheel_is_installed(repository)
    commands = help_of_every_command()
    for mod in ("matplotlib", "seaborn", "sklearn"):
        r = subprocess.run([sys.executable, "-c", f"import {mod}"], capture_output=True)
        assert r.returncode != 0, f"{mod} is installed without the book extra"
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sotalib, sys; sotalib.check_report; sotalib.estimate_sota; print('matplotlib' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert out == "False", out
    with tempfile.TemporaryDirectory() as tmp:
        board = Path(tmp, "board.csv")
        rows = [f"{i},team{i},2024-01-01,{0.80 + 0.0004 * (i % 97):.4f}" for i in range(300)]
        board.write_text("TeamId,TeamName,SubmissionDate,Score\n" + "\n".join(rows) + "\n")
        scores = Path(tmp, "scores.csv")
        scores.write_text("candidate,t1,t2,t3\nA,0.9,0.8,0.7\nB,0.8,0.9,0.6\nC,0.7,0.7,0.9\n")
        items = Path(tmp, "items.csv")
        items.write_text(
            "item,a,b,c\n" + "".join(f"q{i},{int(i % 3 > 0)},{int(i % 4 > 0)},{int(i % 5 > 1)}\n" for i in range(60))
        )
        results = {
            "maxdist": run("maxdist", "--n", "3000", "--m", "1000", "--theta", "0.9"),
            "check": run(
                "check", "--p", "38", "--n", "262", "--score", "acc=0.9447", "--score", "sens=0.7632", "--decimals", "4"
            ),
            "sota": run("sota", "--leaderboard", str(board), "--n", "2000"),
            "rank": run("rank", "--scores", str(scores), "--method", "mean"),
            "compare": run("compare", "--scores", str(scores)),
            "testsize": run("testsize", "--error", "0.1"),
            "auc-max": run("auc-max", "--auc", "0.8", "--n", "200", "--m", "5", "--prevalence", "0.3", "--reps", "50"),
            "dependence": run("dependence", "--per-item", str(items), "--reps", "20"),
            "datasets": run("datasets", "drive"),
            # a named test set: its counts are package data read from the wheel
            "check --dataset": run(*CHECK_DRIVE, "--no-diagnosis"),
            "check --dataset (a typo)": run(
                *[a.replace("spec=0.9847", "spec=0.9947") for a in CHECK_DRIVE], "--no-diagnosis"
            ),
        }
        if repository is not None:
            calls = [
                [*c, "--json"] for c in ([*CHECK_DRIVE, "--no-diagnosis"], ["datasets"], ["testsize", "--error", "0.1"])
            ]
            calls.append(["sota", "--leaderboard", str(board), "--n", "2000", "--json"])
            out = subprocess.run(
                [sys.executable, "-I", "-c", AUDITED, str(repository), json.dumps(calls)],
                capture_output=True,
                text=True,
                env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
            )
            assert out.returncode == 0, out.stderr
            opened = json.loads(out.stdout.strip().splitlines()[-1])
            assert not opened, f"the installed package opened files of the repository: {opened}"
    assert abs(results["maxdist"]["mean"] - 0.9173130830485142) < 1e-12, results["maxdist"]
    assert results["rank"]["ranking"][0] in ("A", "B", "C")
    assert results["testsize"]["rule_of_thumb"] == 1000
    ranks = results["compare"]["average_ranks"]  # A: 1, 2, 2; B: 2, 1, 3; C: 3, 3, 1
    assert [round(ranks[c] * 3) for c in "ABC"] == [5, 6, 7], ranks
    assert results["dependence"]["n_items"] == 60 and results["dependence"]["n_models"] == 3
    drive = {d["name"]: d for d in results["datasets"]["datasets"]}["drive-test-fov"]
    assert (drive["p"], drive["n"], len(drive["folds"])) == (577_649, 3_960_494, 20), drive
    assert results["check --dataset"]["consistent"] is True, results["check --dataset"]
    assert results["check --dataset (a typo)"]["consistent"] is False, results["check --dataset (a typo)"]
    print(
        f"core install of the wheel, sotalib {version}: --help of {len(commands)} commands; "
        + ", ".join(sorted(results))
        + " ran; nothing read from the repository; the front door loads no matplotlib"
    )


if __name__ == "__main__":
    main()
