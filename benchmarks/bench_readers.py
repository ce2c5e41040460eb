"""read_per_item on a generated ~100 MB log of each format, beside a plain pandas reader of the same records.

Each file (or folder of runs) is written once into a temporary folder when the module is imported, with the
fields its tool writes (so the lines are as long as real ones); the reference reads the same records with
pandas (``pd.read_json(lines=True)`` or ``pd.read_csv``, or ``json.load`` then a DataFrame) and pivots them to
items x models.  ``SOTALIB_BENCH_MB`` sets the size (default 100).
"""

from __future__ import annotations

import atexit
import gzip
import json
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

import sotalib

from ._harness import Case

MB = float(os.environ.get("SOTALIB_BENCH_MB", "100"))
ROOT = Path(tempfile.mkdtemp(prefix="sotalib-bench-readers-"))
atexit.register(shutil.rmtree, ROOT, True)
RNG = np.random.default_rng(7)


def _size(path: Path) -> str:
    """The size read, in MB (a gzip file: its uncompressed size, from its trailer, and the size on disk)."""
    if path.is_dir():
        return f"{sum(f.stat().st_size for f in path.rglob('*') if f.is_file()) / 1e6:.0f} MB"
    if path.suffix == ".gz":
        with open(path, "rb") as fh:
            fh.seek(-4, os.SEEK_END)
            inner = int.from_bytes(fh.read(4), "little")
        return f"{inner / 1e6:.0f} MB (gzip, {path.stat().st_size / 1e6:.0f} MB)"
    return f"{path.stat().st_size / 1e6:.0f} MB"


def _write_lines(path: Path, lines, *, gz: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if gz else open
    with opener(path, "wt", encoding="utf-8") as fh:  # type: ignore[operator]
        fh.writelines(lines)


# ------------------------------------------------------------------ the files
def make_eval_arena() -> Path:
    """eval-arena JSONL: ~82 bytes a line."""
    n_lines = int(MB * 1e6 / 82)
    models, items = 500, max(n_lines // 500, 1)
    path = ROOT / "arena.jsonl"
    passed = RNG.random((models, items)) < 0.6
    _write_lines(
        path,
        (
            f'{{"benchmark_id":"bench","model":"model-{j:04d}","example_id":"Bench/{i}","pass1":{int(passed[j, i])}}}\n'
            for j in range(models)
            for i in range(items)
        ),
    )
    return path


def make_long() -> Path:
    """A long CSV model,item,sample,score: ~14 bytes a line."""
    n_lines = int(MB * 1e6 / 14)
    models, samples = 200, 5
    items = max(n_lines // (models * samples), 1)
    path = ROOT / "long.csv"
    scores = RNG.random((models, items, samples)) < 0.5
    _write_lines(
        path,
        ["model,item,sample,score\n"]
        + [
            f"m{j},q{i},{k},{int(scores[j, i, k])}\n"
            for j in range(models)
            for i in range(items)
            for k in range(samples)
        ],
    )
    return path


def make_lm_eval() -> Path:
    """A folder of lm-eval runs (one per model), gsm8k-like lines of ~700 bytes, two filters."""
    models = 20
    docs = max(int(MB * 1e6 / 700 / models / 2), 1)
    folder = ROOT / "lm_eval"
    for j in range(models):
        em = RNG.random((docs, 2)) < 0.5
        lines = []
        for d in range(docs):
            for f, name in enumerate(("strict-match", "flexible-extract")):
                lines.append(
                    json.dumps(
                        {
                            "doc_id": d,
                            "doc": {
                                "question": f"Natalia sold clips to {d} of her friends in April...",
                                "answer": "72",
                            },
                            "target": "72",
                            "arguments": {"gen_args_0": {"arg_0": "Question: ... Answer:", "arg_1": {"until": ["Q:"]}}},
                            "resps": [["Natalia sold 48/2 = 24 clips in May. Altogether 48+24 = 72 clips. #### 72"]],
                            "filtered_resps": ["72"],
                            "filter": name,
                            "metrics": ["exact_match"],
                            "doc_hash": "a" * 64,
                            "prompt_hash": "b" * 64,
                            "target_hash": "c" * 64,
                            "exact_match": float(em[d, f]),
                        }
                    )
                    + "\n"
                )
        _write_lines(folder / f"org__model-{j:02d}" / "samples_gsm8k_2025-01-01T00-00-00.000000.jsonl", lines)
    return folder


def make_inspect() -> Path:
    """An Inspect .eval zip: samples of ~3 KB (messages and output), two epochs."""
    n = max(int(MB * 1e6 / 3100 / 2), 1)
    path = ROOT / "log.eval"
    text = "The quick brown fox jumps over the lazy dog. " * 20
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("start.json", json.dumps({"version": 2, "eval": {"model": "openai/gpt-4o", "task": "t"}}))
        for i in range(n):
            for epoch in (1, 2):
                sample = {
                    "id": i,
                    "epoch": epoch,
                    "input": text,
                    "target": "A",
                    "messages": [{"role": "user", "content": text}, {"role": "assistant", "content": text}],
                    "output": {"model": "gpt-4o", "choices": [{"message": {"content": "ANSWER: A"}}]},
                    "scores": {"choice": {"value": "C" if RNG.random() < 0.6 else "I", "answer": "A"}},
                }
                z.writestr(f"samples/{i}_epoch_{epoch}.json", json.dumps(sample))
    return path


def make_helm() -> Path:
    """A folder of HELM runs, per_instance_stats.json with three stats an instance (~900 bytes)."""
    models = 10
    n = max(int(MB * 1e6 / 900 / models), 1)
    folder = ROOT / "helm"
    for j in range(models):
        entries = []
        for i in range(n):
            v = float(RNG.random() < 0.5)
            stats = [
                {
                    "name": {"name": name, "split": "test"},
                    "count": 1,
                    "sum": x,
                    "sum_squared": x * x,
                    "min": x,
                    "max": x,
                    "mean": x,
                    "variance": 0.0,
                    "stddev": 0.0,
                }
                for name, x in (("exact_match", v), ("quasi_exact_match", v), ("num_prompt_tokens", 57.0))
            ]
            entries.append({"instance_id": f"id{i}", "train_trial_index": 0, "stats": stats})
        run = folder / f"mmlu,model=org_model-{j}"
        run.mkdir(parents=True)
        (run / "per_instance_stats.json").write_text(json.dumps(entries, indent=2))
    return folder


def make_eee() -> Path:
    """Every Eval Ever instance JSONL, gzipped, lines of ~600 bytes."""
    models = 50
    n = max(int(MB * 1e6 / 600 / models), 1)
    path = ROOT / "eee_samples.jsonl.gz"
    lines = (
        json.dumps(
            {
                "schema_version": "0.3.0",
                "evaluation_id": f"src/org_model-{j}/1750000000",
                "model_id": f"org/model-{j}",
                "evaluation_name": "src.bench",
                "sample_id": f"s{i}",
                "sample_hash": "d" * 64,
                "interaction_type": "single_turn",
                "input": {"raw": "What is 2 + 2?", "formatted": "Q: What is 2 + 2?\nA:", "reference": ["4"]},
                "output": {"raw": ["The answer is 4."]},
                "evaluation": {"score": float((i * 7 + j) % 3 == 0), "is_correct": (i * 7 + j) % 3 == 0},
                "token_usage": {"input_tokens": 12, "output_tokens": 5, "total_tokens": 17},
            }
        )
        + "\n"
        for j in range(models)
        for i in range(n)
    )
    _write_lines(path, lines, gz=True)
    return path


# ------------------------------------------------------------------ the pandas references
def _pivot(frame: pd.DataFrame, model: str, item: str, value: str) -> np.ndarray:
    return frame.pivot_table(index=item, columns=model, values=value, aggfunc="mean").to_numpy()


def ref_eval_arena(path: Path) -> np.ndarray:
    return _pivot(pd.read_json(path, lines=True), "model", "example_id", "pass1")


def ref_long(path: Path) -> np.ndarray:
    return _pivot(pd.read_csv(path), "model", "item", "score")


def ref_lm_eval(folder: Path) -> np.ndarray:
    frames = []
    for f in sorted(folder.rglob("samples_*.jsonl")):
        d = pd.read_json(f, lines=True)
        d = d[d["filter"] == "strict-match"][["doc_id", "exact_match"]]
        frames.append(d.assign(model=f.parent.name))
    return _pivot(pd.concat(frames), "model", "doc_id", "exact_match")


def ref_inspect(path: Path) -> np.ndarray:
    rows = []
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.startswith("samples/"):
                s = json.loads(z.read(name))
                rows.append((s["id"], s["epoch"], {"C": 1.0, "I": 0.0}[s["scores"]["choice"]["value"]]))
    frame = pd.DataFrame(rows, columns=["id", "epoch", "value"]).assign(model="m")
    return _pivot(frame, "model", "id", "value")


def ref_helm(folder: Path) -> np.ndarray:
    rows = []
    for f in sorted(folder.rglob("per_instance_stats.json")):
        for e in json.loads(f.read_text()):
            em = next(s["mean"] for s in e["stats"] if s["name"]["name"] == "exact_match")
            rows.append((f.parent.name, e["instance_id"], em))
    return _pivot(pd.DataFrame(rows, columns=["model", "item", "value"]), "model", "item", "value")


def ref_eee(path: Path) -> np.ndarray:
    frame = pd.read_json(path, lines=True, compression="gzip")
    frame["score"] = frame["evaluation"].map(lambda e: e["score"])
    return _pivot(frame, "model_id", "sample_id", "score")


FORMATS = [
    ("eval-arena JSONL", make_eval_arena, {}, ref_eval_arena, "pd.read_json(lines=True) + pivot_table"),
    ("long CSV (5 samples a cell)", make_long, {}, ref_long, "pd.read_csv + pivot_table"),
    (
        "lm-eval folder (20 runs, 2 filters)",
        make_lm_eval,
        {"filter": "strict-match"},
        ref_lm_eval,
        "pd.read_json per run",
    ),
    ("Inspect .eval (2 epochs)", make_inspect, {}, ref_inspect, "zipfile + json.loads + pivot_table"),
    ("HELM folder (10 runs)", make_helm, {"outcome": "exact_match"}, ref_helm, "json.load + pivot_table"),
    ("Every Eval Ever JSONL.gz", make_eee, {}, ref_eee, "pd.read_json(lines=True) + pivot_table"),
]

CASES = []
for label, make, options, reference, reference_name in FORMATS:
    path = make()
    table = sotalib.read_per_item(path, **options)
    ref = reference(path)
    assert np.isclose(np.nanmean(table.outcomes), np.nanmean(ref)), label
    CASES.append(
        Case(
            f"read_per_item: {label}, {_size(path)}",
            lambda path=path, options=options: sotalib.read_per_item(path, **options),
            target=10.0,
            repeat=1,
            warmup=False,
            reference=lambda path=path, reference=reference: reference(path),
            reference_name=reference_name,
            note=f"{table.n:,} items x {table.m:,} models",
        )
    )
