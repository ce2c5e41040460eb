"""read_per_item on every format: its fixture (values, K, squares, ids) and awkward files, against hand-computed
values and pandas pivots of the same records."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sotalib

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "data" / "per_item_formats"
ARENA = ROOT / "data" / "llm" / "eval-arena"
EEE = ROOT / "data" / "llm" / "every-eval-ever"
nan = math.nan


def cell(t, item, model, what="outcomes"):
    return getattr(t, what)[t.items.index(item), t.models.index(model)]


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def jsonl(path: Path, rows) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


# ------------------------------------------------------------------ long
def test_long_fixture_samples_squares_and_item_info():
    t = sotalib.read_per_item(FIX / "long.csv")
    assert t.models == ("A", "B") and t.items == ("q1", "q2")
    # A: q1 samples 1,0,1 -> 2/3; q2 samples 0,0,1 -> 1/3.  B: q1 1,1 -> 1; q2 one sample 0.5
    np.testing.assert_allclose(t.outcomes, [[2 / 3, 1.0], [1 / 3, 0.5]])
    assert t.samples.tolist() == [[3, 2], [3, 1]]
    np.testing.assert_allclose(t.squares, [[2 / 3, 1.0], [1 / 3, 0.25]])
    assert t.item_info["cluster"].tolist() == ["alg", "geo"]
    assert not t.binary


def test_long_matches_a_pandas_pivot_with_a_missing_item(tmp_path):
    rng = np.random.default_rng(3)
    rows = [(f"m{j}", f"i{i}", int(rng.integers(0, 2))) for j in range(4) for i in range(30) if (i, j) != (7, 2)]
    frame = pd.DataFrame(rows, columns=["MODEL", "question_id", "Correct"])
    path = tmp_path / "long.csv"
    frame.to_csv(path, index=False)
    t = sotalib.read_per_item(path, format="long")
    ref = frame.pivot(index="question_id", columns="MODEL", values="Correct").reindex(index=t.items, columns=t.models)
    np.testing.assert_array_equal(t.outcomes, ref.to_numpy(dtype=float))
    assert t.samples is None and t.n_incomplete == 1 and math.isnan(cell(t, "i7", "m2"))
    assert "1 item not answered by every model" in t.to_text()


def test_long_repeated_row_without_a_sample_column_is_refused(tmp_path):
    path = write(tmp_path / "l.csv", "model,item,score\nA,q1,1\nA,q2,0\nA,q1,0\n")
    with pytest.raises(ValueError, match=r"'A', item 'q1'.*listed twice.*line 2 and .*line 4.*sample"):
        sotalib.read_per_item(path)


def test_long_repeated_sample_is_refused(tmp_path):
    path = write(tmp_path / "l.csv", "model,item,epoch,score\nA,q1,1,1\nA,q1,1,0\n")
    with pytest.raises(ValueError, match=r"same sample is listed twice"):
        sotalib.read_per_item(path)


def test_long_gzipped_and_several_score_columns(tmp_path):
    path = tmp_path / "l.csv.gz"
    path.write_bytes(gzip.compress(b"model,item,acc,exact_match\nA,q1,1,0\nB,q1,0,1\n"))
    with pytest.raises(ValueError, match=r"several score columns \('acc', 'exact_match'\)"):
        sotalib.read_per_item(path, format="long")
    t = sotalib.read_per_item(path, format="long", outcome="exact_match")
    assert t.outcomes.tolist() == [[0.0, 1.0]]


def test_long_bad_cell_names_line_and_column(tmp_path):
    path = write(tmp_path / "l.csv", "model,item,score\nA,q1,1\nA,q2,yes\n")
    with pytest.raises(ValueError, match=r'l\.csv, line 3, column "score": .*not a number'):
        sotalib.read_per_item(path)


# ------------------------------------------------------------------ eval-arena
def test_eval_arena_fixture_counts_give_k():
    t = sotalib.read_per_item(FIX / "eval_arena.jsonl")
    assert t.models == ("m1", "m2") and t.items == ("T/0", "T/1", "T/2")
    np.testing.assert_allclose(t.outcomes, [[1, 0.5], [0, 1], [0.3, nan]])
    assert t.samples.tolist() == [[1, 2], [1, 1], [10, 0]]
    np.testing.assert_allclose(t.squares, t.outcomes)  # mean square of 0/1 passes = their mean
    assert t.n_incomplete == 1


@pytest.mark.parametrize("name", ["humaneval+", "humaneval", "mbpp+", "mbpp"])
def test_vendored_eval_arena_binary_files_match_a_pandas_pivot(name):
    t = sotalib.read_per_item(ARENA / f"{name}.jsonl.gz")
    frame = pd.read_json(ARENA / f"{name}.jsonl.gz", lines=True, compression="gzip", dtype={"example_id": str})
    ref = frame.pivot(index="example_id", columns="model", values="pass1")
    assert (t.n, t.m) == ref.shape and t.n_incomplete == 0 and t.binary and t.samples is None
    np.testing.assert_array_equal(t.outcomes, ref.reindex(index=list(t.items), columns=list(t.models)).to_numpy())
    if name == "humaneval+":
        assert (t.n, t.m) == (164, 49)


@pytest.mark.parametrize("name", ["cruxeval_input", "cruxeval_output"])
def test_vendored_cruxeval_is_graded_with_k_unknown(name):
    t = sotalib.read_per_item(ARENA / f"{name}.jsonl.gz")
    assert (t.n, t.m) == (800, 37) and t.n_incomplete == 0
    assert not t.binary and t.samples is None
    frame = pd.read_json(ARENA / f"{name}.jsonl.gz", lines=True, compression="gzip")
    ref = frame.pivot(index="example_id", columns="model", values="pass1")
    np.testing.assert_allclose(t.outcomes, ref.reindex(index=list(t.items), columns=list(t.models)).to_numpy())
    assert np.any((t.outcomes > 0) & (t.outcomes < 1))


def test_eval_arena_repeated_line_refused_and_missing_model_item(tmp_path):
    rows = [{"model": "a", "example_id": "x", "pass1": 1}, {"model": "a", "example_id": "x", "pass1": 0}]
    with pytest.raises(ValueError, match=r"listed twice .*line 1 and .*line 2"):
        sotalib.read_per_item(jsonl(tmp_path / "e.jsonl", rows))
    rows = [{"model": "a", "example_id": "x", "pass1": 1}, {"model": "b", "example_id": "y", "pass1": 0}]
    t = sotalib.read_per_item(jsonl(tmp_path / "f.jsonl", rows))
    assert t.n_incomplete == 2 and np.isnan(t.outcomes).sum() == 2


def test_eval_arena_several_benchmarks_need_a_filter(tmp_path):
    rows = [
        {"benchmark_id": "b1", "model": "a", "example_id": "x", "pass1": 1},
        {"benchmark_id": "b2", "model": "a", "example_id": "x", "pass1": 0},
    ]
    path = jsonl(tmp_path / "e.jsonl", rows)
    with pytest.raises(ValueError, match=r"several benchmarks.*'b1', 'b2'.*filter="):
        sotalib.read_per_item(path)
    assert sotalib.read_per_item(path, filter="b2").outcomes.tolist() == [[0.0]]


def test_eval_arena_missing_key_names_the_line(tmp_path):
    path = write(tmp_path / "e.jsonl", '{"model":"a","example_id":"x","pass1":1}\n{"model":"a","example_id":"y"}\n')
    with pytest.raises(ValueError, match=r"e\.jsonl, line 2: has no key 'pass1'"):
        sotalib.read_per_item(path)


# ------------------------------------------------------------------ unknown files
def test_unknown_json_is_refused_in_one_line_naming_what_was_expected(tmp_path):
    path = jsonl(tmp_path / "x.jsonl", [{"foo": 1}])
    with pytest.raises(ValueError) as info:
        sotalib.read_per_item(path)
    message = str(info.value)
    assert (
        "\n" not in message and "x.jsonl" in message and "eval-arena" in message and "lm-evaluation-harness" in message
    )


def test_gzipped_wide_still_reads(tmp_path):
    path = tmp_path / "w.csv.gz"
    path.write_bytes(gzip.compress(b"item,A,B\nq1,1,0\nq2,0,1\n"))
    t = sotalib.read_per_item(path)
    assert t.models == ("A", "B") and t.outcomes.tolist() == [[1, 0], [0, 1]]


def test_format_is_checked():
    with pytest.raises(ValueError, match="format must be one of"):
        sotalib.read_per_item(FIX / "long.csv", format="parquet")


def test_item_info_side_file(tmp_path):
    side = write(tmp_path / "info.csv", "item,cluster,options\nT/2,c2,4\nT/0,c1,10\nT/1,c1,4\nT/9,c9,2\n")
    t = sotalib.read_per_item(FIX / "eval_arena.jsonl", item_info=side)
    assert t.item_info["cluster"].tolist() == ["c1", "c1", "c2"]
    assert t.item_info["options"].tolist() == [10, 4, 4]
    bad = write(tmp_path / "bad.csv", "item,cluster\nT/0,c1\n")
    with pytest.raises(ValueError, match=r"no row for 2 of the 3 items"):
        sotalib.read_per_item(FIX / "eval_arena.jsonl", item_info=bad)


def test_folder_of_eval_arena_files_is_combined(tmp_path):
    folder = tmp_path / "runs"
    folder.mkdir()
    jsonl(folder / "a.jsonl", [{"model": "a", "example_id": "x", "pass1": 1}])
    jsonl(
        folder / "b.jsonl",
        [{"model": "b", "example_id": "y", "pass1": 0}, {"model": "b", "example_id": "x", "pass1": 1}],
    )
    t = sotalib.read_per_item(folder)
    assert t.models == ("a", "b") and t.items == ("x", "y") and t.n_incomplete == 1
