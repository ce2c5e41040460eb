"""The library alone, as `pip install .` without extras installs it (run by `make core-smoke`).

Runs every command of the command line once through the console script of the
running interpreter and checks the front door loads no plotting package.
Not collected by pytest: it runs in its own virtual environment.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

EXE = str(Path(sysconfig.get_path("scripts")) / "sotalib")


def run(*args: str) -> dict:
    r = subprocess.run([EXE, *args, "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"sotalib {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return json.loads(r.stdout)


def main() -> None:
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
        }
    assert abs(results["maxdist"]["mean"] - 0.9173130830485142) < 1e-12, results["maxdist"]
    assert results["rank"]["ranking"][0] in ("A", "B", "C")
    assert results["testsize"]["rule_of_thumb"] == 1000
    ranks = results["compare"]["average_ranks"]  # A: 1, 2, 2; B: 2, 1, 3; C: 3, 3, 1
    assert [round(ranks[c] * 3) for c in "ABC"] == [5, 6, 7], ranks
    assert results["dependence"]["n_items"] == 60 and results["dependence"]["n_models"] == 3
    print("core install: " + ", ".join(sorted(results)) + " ran; the front door loads no matplotlib")


if __name__ == "__main__":
    main()
