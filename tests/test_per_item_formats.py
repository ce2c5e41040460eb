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


# ------------------------------------------------------------------ lm-evaluation-harness
LM = FIX / "lm_eval"
LM_A = LM / "org__model-a" / "samples_gsm8k_2025-01-02T10-00-00.123456.jsonl"


def test_lm_eval_folder_two_filters_refused_listing_them():
    with pytest.raises(ValueError, match=r"several filters \('flexible-extract', 'strict-match'\).*filter="):
        sotalib.read_per_item(LM)


@pytest.mark.parametrize(
    ("name", "a", "b"), [("strict-match", [1, 0, 1], [0, 1, nan]), ("flexible-extract", [1, 1, 0], [0, 1, nan])]
)
def test_lm_eval_folder_one_run_per_model(name, a, b):
    t = sotalib.read_per_item(LM, filter=name)
    # model a from its results file's model_name; model b (no results file) from its folder
    assert t.models == ("org/model-a", "org__model-b") and t.items == ("0", "1", "2")
    np.testing.assert_array_equal(t.outcomes, np.array([a, b]).T)
    assert t.n_incomplete == 1 and t.samples is None


def test_lm_eval_metric_chosen_and_refused(tmp_path):
    rows = [
        {"doc_id": 0, "filter": "none", "acc": 1.0, "acc_norm": 0.0},
        {"doc_id": 1, "filter": "none", "acc": 0.0, "acc_norm": 1.0},
    ]
    path = jsonl(tmp_path / "samples_arc_easy_2025-01-01T00-00-00.jsonl", rows)
    with pytest.raises(ValueError, match=r"line 1: holds several metrics \('acc', 'acc_norm'\)"):
        sotalib.read_per_item(path)
    t = sotalib.read_per_item(path, outcome="acc_norm")
    assert t.outcomes.ravel().tolist() == [0.0, 1.0] and t.models == (tmp_path.name,)
    with pytest.raises(ValueError, match=r"no metric 'bleu'"):
        sotalib.read_per_item(path, outcome="bleu")


def test_lm_eval_repeated_document_refused_and_gzip(tmp_path):
    rows = [{"doc_id": 0, "filter": "none", "acc": 1}, {"doc_id": 0, "filter": "none", "acc": 0}]
    path = tmp_path / "samples_t_2025-01-01T00-00-00.jsonl.gz"
    path.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in rows).encode()))
    with pytest.raises(ValueError, match=r"item '0': the same result is listed twice .*line 1 and .*line 2"):
        sotalib.read_per_item(path)


def test_lm_eval_several_tasks_prefix_items(tmp_path):
    (tmp_path / "m").mkdir()
    jsonl(tmp_path / "m" / "samples_arc_2025-01-01T00-00-00.jsonl", [{"doc_id": 0, "acc": 1}])
    jsonl(tmp_path / "m" / "samples_piqa_2025-01-01T00-00-00.jsonl", [{"doc_id": 0, "acc": 0}])
    t = sotalib.read_per_item(tmp_path / "m")
    assert t.items == ("arc/0", "piqa/0") and t.outcomes.ravel().tolist() == [1.0, 0.0]


# ------------------------------------------------------------------ Inspect
INSPECT = FIX / "inspect"


def test_inspect_eval_zip_epochs_are_samples():
    t = sotalib.read_per_item(INSPECT / "toy_gpt-4o-mini.eval")
    assert t.models == ("openai/gpt-4o-mini",)
    by_item = {x: (cell(t, x, t.models[0]), cell(t, x, t.models[0], "squares")) for x in t.items}
    # q1: C, I -> 1/2; q2: C, C -> 1; id 3: P (0.5), I (0) -> 0.25, squares (0.25 + 0) / 2
    assert by_item == {"q1": (0.5, 0.5), "q2": (1.0, 1.0), "3": (0.25, 0.125)}
    assert t.samples.ravel().tolist() == [2, 2, 2]


def test_inspect_json_log_and_folder():
    t = sotalib.read_per_item(INSPECT / "toy_claude-3-haiku.json")
    assert t.models == ("anthropic/claude-3-haiku",) and t.items == ("q1", "q2", "3")
    assert t.outcomes.ravel().tolist() == [1.0, 0.0, 0.25]  # a number, N (no answer: 0), a number
    both = sotalib.read_per_item(INSPECT)
    assert set(both.models) == {"anthropic/claude-3-haiku", "openai/gpt-4o-mini"} and both.n == 3
    assert (
        cell(both, "3", "openai/gpt-4o-mini", "samples") == 2
        and cell(both, "3", "anthropic/claude-3-haiku", "samples") == 1
    )


def test_inspect_several_scorers_and_a_repeated_epoch(tmp_path):
    log = {
        "eval": {"model": "m"},
        "samples": [{"id": 1, "epoch": 1, "scores": {"a": {"value": "C"}, "b": {"value": 0}}}],
    }
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log, indent=1))
    with pytest.raises(ValueError, match=r"several scorers \('a', 'b'\).*outcome="):
        sotalib.read_per_item(path)
    assert sotalib.read_per_item(path, outcome="b").outcomes.tolist() == [[0.0]]
    log["samples"].append({"id": 1, "epoch": 1, "scores": {"a": {"value": "I"}}})
    path.write_text(json.dumps(log, indent=1))
    with pytest.raises(ValueError, match=r"same sample is listed twice"):
        sotalib.read_per_item(path, outcome="a")


# ------------------------------------------------------------------ HELM
HELM = FIX / "helm"


def test_helm_folder_trials_are_samples_and_perturbations_left_out():
    with pytest.raises(ValueError, match=r"several stats \('exact_match', 'num_prompt_tokens', 'quasi_exact_match'\)"):
        sotalib.read_per_item(HELM)
    t = sotalib.read_per_item(HELM, outcome="exact_match")
    assert t.models == ("meta_llama-7b", "openai/gpt2")  # the folder's model=, run_spec.json's adapter_spec.model
    assert t.items == ("id10", "id11", "id12")
    # gpt2: id10 trials 1, 0 (the perturbed copy's 0 left out) -> 0.5; id11 0, 0; id12 not run
    np.testing.assert_array_equal(t.outcomes, [[1, 0.5], [1, 0], [0, nan]])
    assert t.samples.tolist() == [[1, 2], [1, 2], [1, 0]]


def test_helm_repeated_instance_trial_refused(tmp_path):
    entry = {"instance_id": "i", "train_trial_index": 0, "stats": [{"name": {"name": "exact_match"}, "mean": 1.0}]}
    path = tmp_path / "per_instance_stats.json"
    path.write_text(json.dumps([entry, entry]))
    with pytest.raises(ValueError, match=r"same sample is listed twice"):
        sotalib.read_per_item(path)


# ------------------------------------------------------------------ Every Eval Ever
def test_eee_fixture_score_then_is_correct():
    t = sotalib.read_per_item(FIX / "eee_samples.jsonl")
    assert t.models == ("org/a", "org/b") and t.items == ("s1", "s2", "s3")
    # s3 of org/a has a null score: its is_correct (true) is read
    np.testing.assert_array_equal(t.outcomes, [[1, 0.5], [0, nan], [1, 0]])
    t = sotalib.read_per_item(FIX / "eee_samples.jsonl", outcome="is_correct")
    np.testing.assert_array_equal(t.outcomes, [[1, 0], [0, nan], [1, 0]])


def test_eee_vendored_example_and_a_repeated_sample(tmp_path):
    t = sotalib.read_per_item(EEE / "f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40_samples.jsonl")
    assert t.models == ("demo-org/demo-model",) and t.items == ("demo_0001",) and t.outcomes.tolist() == [[1.0]]
    line = (EEE / "f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40_samples.jsonl").read_text().strip()
    path = write(tmp_path / "x.jsonl", line + "\n" + line + "\n")
    with pytest.raises(ValueError, match=r"listed twice"):
        sotalib.read_per_item(path)


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("long.csv", "long"),
        ("eval_arena.jsonl", "eval-arena"),
        ("lm_eval", "lm-eval"),
        ("inspect/toy_gpt-4o-mini.eval", "inspect"),
        ("inspect/toy_claude-3-haiku.json", "inspect"),
        ("helm", "helm"),
        ("eee_samples.jsonl", "eee"),
    ],
)
def test_explicit_format_reads_the_same_as_auto(path, kind):
    options = {"lm-eval": {"filter": "strict-match"}, "helm": {"outcome": "exact_match"}}.get(kind, {})
    auto = sotalib.read_per_item(FIX / path, **options)
    given = sotalib.read_per_item(FIX / path, format=kind, **options)
    np.testing.assert_array_equal(auto.outcomes, given.outcomes)
    assert auto.items == given.items and auto.models == given.models


def test_stdin(monkeypatch):
    import io
    import sys

    data = (FIX / "eval_arena.jsonl").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    t = sotalib.read_per_item("-")
    assert t.models == ("m1", "m2") and t.n == 3


def test_long_fast_path_equals_the_line_reader(tmp_path, monkeypatch):
    # private: the fast path (pandas' C parser) and the line reader must give the same table
    from sotalib import _per_item_formats

    rng = np.random.default_rng(11)
    lines = ["Model;Item;Epoch;Correct;cluster;note"]
    for j in range(5):
        for i in range(40):
            if (i + j) % 17 == 0:
                continue  # a model missing an item
            for k in range(1 + (i % 3)):
                value = "" if (i, j, k) == (5, 1, 0) else f"{rng.random():.3f}"
                lines.append(f"m{j};{i:03d};{k};{value};c{i % 4};n{rng.integers(9)}")
        lines.append("")  # a blank line between models
    path = write(tmp_path / "long.csv", "\n".join(lines) + "\n")
    fast = sotalib.read_per_item(path, missing=True)

    def slow(*_args, **_kwargs):
        raise _per_item_formats._Slow

    monkeypatch.setattr(_per_item_formats, "_read_long_fast", slow)
    ref = sotalib.read_per_item(path, missing=True)
    assert fast.items == ref.items and fast.models == ref.models and "000" in fast.items
    np.testing.assert_array_equal(fast.outcomes, ref.outcomes)
    np.testing.assert_array_equal(fast.samples, ref.samples)
    np.testing.assert_allclose(fast.squares, ref.squares)
    assert sorted(fast.item_info) == sorted(ref.item_info) == ["cluster"]  # note varies within an item
    assert fast.item_info["cluster"].tolist() == ref.item_info["cluster"].tolist()
    blank = next(n for n, text in enumerate(lines, 1) if text.startswith("m1;005;0;;"))
    with pytest.raises(ValueError, match=rf"line {blank}, column \"Correct\": is blank"):
        sotalib.read_per_item(path)


def test_jsonl_across_read_blocks_blank_lines_and_a_bad_line_far_down(tmp_path):
    rng = np.random.default_rng(5)
    passed = rng.random((300, 200)) < 0.5
    rows = [
        json.dumps({"model": f"model-{j:03d}", "example_id": f"Long/benchmark/item/{i}", "pass1": int(passed[j, i])})
        for j in range(300)
        for i in range(200)
    ]  # 60,000 lines, over 4 MB: several blocks of the reader
    text = "\n".join(rows[:30000]) + "\n\n   \n" + "\n".join(rows[30000:]) + "\n"
    path = write(tmp_path / "big.jsonl", text)
    assert path.stat().st_size > 4_300_000  # the reader reads 4 MiB (4,194,304 bytes) at a time
    t = sotalib.read_per_item(path)
    ref = pd.read_json(path, lines=True).pivot(index="example_id", columns="model", values="pass1")
    np.testing.assert_array_equal(t.outcomes, ref.reindex(index=list(t.items), columns=list(t.models)).to_numpy())
    lines = text.split("\n")
    lines[59000] = "[1, 2]"
    path = write(tmp_path / "bad.jsonl", "\n".join(lines))
    with pytest.raises(ValueError, match=r"bad\.jsonl, line 59001: is not a JSON object"):
        sotalib.read_per_item(path)
    lines[59000] = '{"model": "x", "example_id": "y", "pass1": "n/a"}'
    path = write(tmp_path / "bad.jsonl", "\n".join(lines))
    with pytest.raises(ValueError, match=r"bad\.jsonl, line 59001, column \"pass1\": is 'n/a', not a number"):
        sotalib.read_per_item(path)
