"""Rebuild data/llm/open_llm_v1.csv and open_llm_v2.csv from a clone of IBM/benchbench.

Usage (from the project's root, with a clone of https://github.com/IBM/benchbench)::

    python data/llm/build_open_llm.py PATH/TO/benchbench [COMMIT]

COMMIT defaults to 1dfd46a6f5dbc6ca8b7728425f1991625a6d4088.  Keeps the model names and the columns that
are one accuracy on one test set (rows and their order unchanged); v2's MMLU-Pro is also converted back
from the leaderboard's normalised scale, ``accuracy = 0.1 + 0.9 * normalised / 100``.
"""

from __future__ import annotations

import io
import pathlib
import subprocess
import sys

import pandas as pd

COMMIT = "1dfd46a6f5dbc6ca8b7728425f1991625a6d4088"
HERE = pathlib.Path(__file__).resolve().parent
FOLDER = "src/bat/assets/benchmarks_old/"


def _read(repo: str, commit: str, name: str) -> pd.DataFrame:
    blob = subprocess.run(["git", "-C", repo, "show", f"{commit}:{FOLDER}{name}"], check=True, capture_output=True)
    return pd.read_csv(io.BytesIO(blob.stdout))


def main(repo: str, commit: str = COMMIT) -> None:
    """Rebuild the tables from the clone at ``repo`` (commit ``commit``)."""
    v1 = _read(repo, commit, "hf_open_llm_v1_240829_frozen.csv")
    cols = ["HFV1_ARC", "HFV1_HellaSwag", "HFV1_MMLU", "HFV1_Winogrande", "HFV1_GSM8K"]
    out1 = v1[["model", *cols]].rename(columns={c: c.removeprefix("HFV1_").lower() for c in cols})
    out1.to_csv(HERE / "open_llm_v1.csv", index=False)
    v2 = _read(repo, commit, "hf_open_llm_v2_240829.csv")
    out2 = pd.DataFrame({"model": v2["model"], "mmlu_pro_normalised": v2["HFV2_MMLU-PRO"]})
    out2["mmlu_pro_accuracy"] = (0.1 + 0.9 * out2["mmlu_pro_normalised"] / 100).round(6)
    out2.to_csv(HERE / "open_llm_v2.csv", index=False)
    print(f"v1: {out1.shape}, v2: {out2.shape}")


if __name__ == "__main__":
    main(*sys.argv[1:])
