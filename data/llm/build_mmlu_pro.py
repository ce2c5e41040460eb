"""Rebuild data/llm/mmlu_pro_correct.csv.gz and mmlu_pro_items.csv from a clone of TIGER-AI-Lab/MMLU-Pro.

Usage (from the project's root, with a clone of https://github.com/TIGER-AI-Lab/MMLU-Pro)::

    python data/llm/build_mmlu_pro.py PATH/TO/MMLU-Pro [COMMIT]

COMMIT defaults to f418b116db00b065c2aea046518d8fcf74d39872.  Every archive
``eval_results/model_outputs_*.zip`` of that commit is read with ``git show``
(so the work tree's checkout does not matter); an archive whose blob is absent
or is not a zip file (a Git LFS pointer) is listed on standard output with the
reason and left out.  Each archive holds one JSON list of records with
``question_id``, ``category``, ``options``, ``answer`` and the model's ``pred``;
a record is correct when ``pred == answer`` and wrong otherwise, a null
``pred`` (no answer could be extracted from the model's text) included.  The
repository's own scoring scripts (``evaluate_from_local.py``, ``save_res``;
``evaluate_from_api.py``) replace a null ``pred`` by a uniformly random option
instead; the pairs (question, model) with a null ``pred`` are written to
``mmlu_pro_null_pred.csv.gz`` so that either rule can be applied.  A question
missing from an archive is left empty (NaN).
"""

from __future__ import annotations

import ast
import io
import json
import pathlib
import subprocess
import sys
import zipfile

import numpy as np
import pandas as pd

COMMIT = "f418b116db00b065c2aea046518d8fcf74d39872"
HERE = pathlib.Path(__file__).resolve().parent


def _n_options(options) -> int:
    if isinstance(options, str):
        options = ast.literal_eval(options)
    return len(options)


def main(repo: str, commit: str = COMMIT) -> None:
    """Rebuild the tables from the clone at ``repo`` (commit ``commit``)."""
    git = ["git", "-C", repo]
    names = subprocess.run(
        [*git, "ls-tree", "--name-only", commit, "eval_results/"], check=True, capture_output=True, text=True
    ).stdout.split()
    archives = sorted(n for n in names if n.startswith("eval_results/model_outputs_") and n.endswith(".zip"))
    correct: dict[str, pd.Series] = {}
    nulls: dict[str, int] = {}
    items: dict[str, tuple[str, int]] = {}
    missing: list[tuple[str, str]] = []
    null_rows: list[tuple[str, str]] = []
    for name in archives:
        blob = subprocess.run([*git, "show", f"{commit}:{name}"], capture_output=True)
        if blob.returncode != 0:
            missing.append((name, "blob not present in the clone (git show failed)"))
            continue
        data = blob.stdout
        if data.startswith(b"version https://git-lfs"):
            missing.append((name, "a Git LFS pointer, not the archive"))
            continue
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                members = [m for m in z.namelist() if m.endswith(".json")]
                records = [r for m in members for r in json.loads(z.read(m))]
        except (zipfile.BadZipFile, json.JSONDecodeError) as e:
            missing.append((name, f"unreadable: {e}"))
            continue
        model = name.removeprefix("eval_results/model_outputs_").removesuffix(".zip").removesuffix(".json")
        right = {}
        n_null = 0
        null_ids = []
        for r in records:
            if not isinstance(r, dict):
                continue  # DeepSeek-Coder-V2's list also holds loose strings (category names), not records
            qid = str(r["question_id"])
            if qid in right:
                continue  # a repeated question counts once (its first record)
            pred = r.get("pred")
            n_null += pred is None
            if pred is None:
                null_ids.append(qid)
            right[qid] = int(pred is not None and str(pred) == str(r["answer"]))
            items.setdefault(qid, (r["category"], _n_options(r["options"])))
        correct[model] = pd.Series(right, dtype=float)
        nulls[model] = n_null
        null_rows.extend((q, model) for q in null_ids)
    table = pd.DataFrame(correct)
    order = sorted(table.index, key=int)
    table = table.loc[order]
    table.index.name = "question_id"
    out = table.astype("Int8")
    out.to_csv(HERE / "mmlu_pro_correct.csv.gz", compression={"method": "gzip", "mtime": 0})
    nulldf = pd.DataFrame(null_rows, columns=["question_id", "model"])
    nulldf = nulldf.sort_values(["model", "question_id"], key=lambda c: c.astype(int) if c.name == "question_id" else c)
    nulldf.to_csv(HERE / "mmlu_pro_null_pred.csv.gz", index=False, compression={"method": "gzip", "mtime": 0})
    meta = pd.DataFrame(
        {"question_id": order, "category": [items[q][0] for q in order], "n_options": [items[q][1] for q in order]}
    )
    meta.to_csv(HERE / "mmlu_pro_items.csv", index=False)
    summary = pd.DataFrame(
        {
            "model": list(correct),
            "answered": [int(table[m].notna().sum()) for m in correct],
            "null_pred": [nulls[m] for m in correct],
            "accuracy": [float(np.nanmean(table[m])) for m in correct],
        }
    )
    summary.to_csv(HERE / "mmlu_pro_models.csv", index=False, float_format="%.6f")
    print(f"{table.shape[0]} questions x {table.shape[1]} models from {len(archives)} archives")
    for name, why in missing:
        print(f"missing: {name}: {why}")


if __name__ == "__main__":
    main(*sys.argv[1:])
