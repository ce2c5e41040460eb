"""Rebuild data/llm/deepseek_r1_scores.csv and data/llm/mmlu_pro_summaries.csv: reported scores, as printed.

Usage (from the project's root, with clones of https://github.com/deepseek-ai/DeepSeek-R1 and
https://github.com/TIGER-AI-Lab/MMLU-Pro)::

    python data/llm/build_reported.py PATH/TO/DeepSeek-R1 PATH/TO/MMLU-Pro

``deepseek_r1_scores.csv``: every cell of the two score tables of DeepSeek-R1's ``README.md`` (commit
``R1_COMMIT``, sections "DeepSeek-R1-Evaluation" and "Distilled Model Evaluation"), one row per cell, the
value as printed (bold marks removed; "-" cells left out).  ``mmlu_pro_summaries.csv``: the
``<category>_summary.json`` files of MMLU-Pro's ``eval_results`` (the folders ``deepseek`` and ``gpt4o`` at
``MMLU_PRO_COMMITS["deepseek"]``, and ``merged/summary.json`` at ``MMLU_PRO_COMMITS["merged"]``, both in the
history of the commit the project vendors, f418b11), one row per category and the total: ``corr``, ``wrong``
and ``acc`` as the JSON prints them (``acc`` with every digit Python's ``repr`` gives).
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pandas as pd

R1_COMMIT = "0cf78561f1d51c84a21b2190626b21116d5c68bb"
MMLU_PRO_COMMITS = {
    "deepseek": "bfa90e1c730dd30cb6244fb5f8d93472bc5e2c5d",
    "gpt4o": "bfa90e1c730dd30cb6244fb5f8d93472bc5e2c5d",
    "merged": "4885ba7d293b6615be332ca69a9df773fdf67dce",
}
CATEGORIES = [
    "biology", "business", "chemistry", "computer science", "economics", "engineering", "health",
    "history", "law", "math", "other", "philosophy", "physics", "psychology",
]  # fmt: skip
HERE = pathlib.Path(__file__).resolve().parent


def _show(repo: str, commit: str, path: str) -> str:
    out = subprocess.run(["git", "-C", repo, "show", f"{commit}:{path}"], check=True, capture_output=True)
    return out.stdout.decode("utf-8")


def _cells(line: str) -> list[str]:
    return [c.strip().replace("**", "") for c in line.strip().strip("|").split("|")]


def deepseek_r1(repo: str, commit: str = R1_COMMIT) -> pd.DataFrame:
    """Every printed score of the README's two evaluation tables, long format."""
    rows = []
    lines = _show(repo, commit, "README.md").splitlines()
    for table, heading in (("main", "### DeepSeek-R1-Evaluation"), ("distilled", "### Distilled Model Evaluation")):
        start = lines.index(heading)
        block = []
        for line in lines[start + 1 :]:
            if line.startswith("|"):
                block.append(line)
            elif block:
                break
        header, body = _cells(block[0]), [_cells(x) for x in block[2:]]
        if table == "main":  # Category | Benchmark (Metric) | model ...
            category = ""
            for cells in body:
                category = cells[0] or category
                if not category:  # architecture and parameter rows
                    continue
                for model, value in zip(header[2:], cells[2:]):
                    if value != "-":
                        rows.append((table, category, cells[1], model, value))
        else:  # Model | benchmark metric ...
            for cells in body:
                for benchmark, value in zip(header[1:], cells[1:]):
                    if value != "-":
                        rows.append((table, "", benchmark, cells[0], value))
    return pd.DataFrame(rows, columns=["table", "category", "benchmark", "model", "score"])


def mmlu_pro(repo: str) -> pd.DataFrame:
    """The per-category summaries of MMLU-Pro's eval_results, with their total."""
    rows = []
    for folder, commit in MMLU_PRO_COMMITS.items():
        if folder == "merged":
            summary = json.loads(_show(repo, commit, "eval_results/merged/summary.json"))
        else:
            summary = {}
            for cat in CATEGORIES:
                part = json.loads(_show(repo, commit, f"eval_results/{folder}/{cat}_summary.json"))
                summary[cat] = part[cat]
            # each file's "total" is its own category: no overall score is reported for these runs
        for cat in [c for c in [*CATEGORIES, "total"] if c in summary]:
            s = summary[cat]
            rows.append((folder, commit[:7], cat, int(s["corr"]), int(s["wrong"]), repr(s["acc"])))
    return pd.DataFrame(rows, columns=["run", "commit", "category", "corr", "wrong", "acc"])


def main(r1_repo: str, mmlu_pro_repo: str) -> None:
    """Rebuild both tables from the two clones."""
    deepseek_r1(r1_repo).to_csv(HERE / "deepseek_r1_scores.csv", index=False)
    mmlu_pro(mmlu_pro_repo).to_csv(HERE / "mmlu_pro_summaries.csv", index=False)


if __name__ == "__main__":
    main(*sys.argv[1:3])
