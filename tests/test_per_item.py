"""The one per-item table: PerItem, its coercion as_per_item and the reader read_per_item (sotalib/_per_item.py)."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pandas as pd
import pytest

import sotalib
from sotalib import PerItem, read_per_item
from sotalib._per_item import as_per_item  # private: the one coercion every per-item function calls is the subject

ROWS = [[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]]


def test_per_item_holds_items_as_rows_and_models_as_columns():
    t = PerItem(ROWS, items=["a", "b", "c", "d"], models=["x", "y", "z"])
    assert (t.n, t.m) == (4, 3) and t.binary and t.n_incomplete == 0
    assert t.to_frame().loc["c", "y"] == 1.0 and t.to_frame().index.name == "item"
    again = PerItem.from_frame(t.to_frame())
    assert again.items == t.items and again.models == t.models and np.array_equal(again.outcomes, t.outcomes)
    assert PerItem(ROWS).items == ("item 1", "item 2", "item 3", "item 4")
    assert PerItem(ROWS).models == ("model 1", "model 2", "model 3")


def test_shared_keeps_the_items_every_model_answered():
    t = PerItem([[1, np.nan], [0, 1], [np.nan, np.nan], [1, 1]], items=list("abcd"))
    s = t.shared()
    assert t.n_incomplete == 2 and s.items == ("b", "d") and s.outcomes.tolist() == [[0, 1], [1, 1]]


def test_graded_and_sampled_cells_are_not_binary():
    assert not PerItem([[0.3, 1.0], [1.0, 0.0]]).binary
    assert not PerItem([[1.0, 1.0], [1.0, 0.0]], samples=[[1, 2], [1, 1]]).binary
    t = PerItem([[0.5, 1.0]], samples=[[4, 1]], squares=[[0.5, 1.0]], item_info={"options": [4]})
    assert t.samples.tolist() == [[4, 1]] and t.item_info["options"].tolist() == [4]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (
            {"outcomes": [[1, 0], [1, np.inf]]},
            r"outcomes: row 2 \(item 'item 2'\), column 2 \(model 'model 2'\) is inf",
        ),
        ({"outcomes": [[1, 0], [1, 1]], "items": ["q", "q"]}, "items must be unique: 'q' names rows 1 and 2"),
        ({"outcomes": [[1, 0], [1, 1]], "models": ["A", "A"]}, "models must be unique: 'A' names columns 1 and 2"),
        ({"outcomes": [[1, 0], [1, 1]], "models": ["A"]}, "models must name every column"),
        ({"outcomes": [1, 0]}, "outcomes must be a non-empty 2-d array, items as rows"),
        ({"outcomes": [[1, 0]], "samples": [[1, 0.5]]}, r"samples: row 1 .*column 2 .* is 0.5"),
        ({"outcomes": [[0.5]], "squares": [[0.2]]}, "below the squared mean 0.25"),
        (
            {"outcomes": [[1], [0]], "item_info": {"cluster": [1]}},
            r"item_info\['cluster'\] must give one value per item",
        ),
    ],
)
def test_bad_fields_are_refused_naming_the_field_and_the_place(kwargs, match):
    outcomes = kwargs.pop("outcomes")
    with pytest.raises(ValueError, match=match):
        PerItem(outcomes, **kwargs)


def test_to_dict_is_a_json_safe_summary_not_every_cell():
    t = PerItem(np.r_[np.ones((500, 1)), np.zeros((500, 1))] @ np.ones((1, 2)), models=["A", "B"])
    d = t.to_dict()
    json.dumps(d, allow_nan=False)
    assert d["n_items"] == 1000 and d["models"] == ["A", "B"] and d["mean"] == [0.5, 0.5]
    assert len(json.dumps(d)) < 400


def test_a_bare_array_is_refused_naming_the_constructor():
    with pytest.raises(
        ValueError, match=r"^scores: a bare array does not say which axis holds the models; wrap it as "
    ):
        as_per_item(np.ones((3, 4)))
    with pytest.raises(ValueError, match=r"before 0.6.0 f took candidates x items: PerItem\(array.T\)"):
        as_per_item([[1, 0], [0, 1]], function="f", was="candidates x items")
    with pytest.raises(ValueError, match="read a file with sotalib.read_per_item"):
        as_per_item("items.csv")


def test_a_frame_is_items_by_models_with_ids_from_a_label_column_or_the_index():
    frame = pd.DataFrame({"question_id": [70, 71, 72], "A": [1, 0, 1], "B": [0, 0, 1]})
    t = as_per_item(frame)
    assert t.items == ("70", "71", "72") and t.models == ("A", "B")
    t = as_per_item(frame.set_index("question_id"))
    assert t.items == ("70", "71", "72") and t.models == ("A", "B")
    t = as_per_item(frame.drop(columns="question_id"))
    assert t.models == ("A", "B") and t.items == ("item 1", "item 2", "item 3")
    with pytest.raises(ValueError, match=r"binary|not 0 or 1"):
        as_per_item(frame.assign(B=[0.5, 0, 1]), binary=True, function="f")


# ------------------------------------------------------------------ the reader
def _write(tmp_path, text: str, name: str = "items.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "items", "models"),
    [
        ("question_id,A,B\n70,1,0\n71,1,1\n72,0,1\n", ("70", "71", "72"), ("A", "B")),  # whole numbers
        ("question_id,A,B\n70,1,0\n71,1,1\n70,0,1\n", ("70", "71", "70"), None),  # repeated: ids, refused
        ("doc,A,B\nq1,1,0\nq2,1,1\n", ("q1", "q2"), ("A", "B")),  # text
        (",A,B\n1,1,0\n1,1,1\n", ("1", "1"), None),  # an empty header: ids (repeated: refused)
        ("A,B,C\n1,0,1\n0,1,1\n1,1,0\n", None, ("A", "B", "C")),  # 0/1: a model
        ("A,B\n0.5,0\n0.25,1\n", None, ("A", "B")),  # graded: a model
    ],
)
def test_the_label_column_is_recognised_by_its_content(tmp_path, text, items, models):
    path = _write(tmp_path, text)
    if models is None:
        with pytest.raises(ValueError, match="item ids must be unique"):
            read_per_item(path)
        return
    t = read_per_item(path)
    assert t.models == models
    assert t.items == (items or tuple(f"item {i + 1}" for i in range(t.n)))


def test_labels_overrides_the_rule(tmp_path):
    path = _write(tmp_path, "q,A\n5,1\n6,0\n")
    assert read_per_item(path).models == ("A",)
    assert read_per_item(path, labels=False).models == ("q", "A")


def test_a_gzip_file_reads_as_the_plain_one(tmp_path):
    text = "question_id,A,B,C\n70,1,0,1\n71,0,1,\n72,1,1,0\n"
    plain = read_per_item(_write(tmp_path, text), missing=True)
    packed = tmp_path / "items.csv.gz"
    packed.write_bytes(gzip.compress(text.encode(), mtime=0))
    t = read_per_item(packed, missing=True)
    assert t.items == plain.items and t.models == plain.models
    assert np.array_equal(t.outcomes, plain.outcomes, equal_nan=True)
    with pytest.raises(ValueError, match=r"items.csv.gz, line 3, column \"C\": blank cell"):
        read_per_item(packed)


def test_the_projects_mmlu_pro_file_reads_with_its_question_ids():
    t = read_per_item("data/llm/mmlu_pro_correct.csv.gz", missing=True)
    frame = pd.read_csv("data/llm/mmlu_pro_correct.csv.gz")
    assert t.m == frame.shape[1] - 1 and t.n == frame.shape[0] and t.binary
    assert t.items[0] == str(frame["question_id"].iloc[0]) and t.models[0] == frame.columns[1]
    same = as_per_item(frame)
    assert same.items == t.items and same.models == t.models
    assert np.array_equal(same.outcomes, t.outcomes, equal_nan=True)


def test_a_graded_cell_is_read_and_refused_where_binary_is_needed_by_its_line_and_column(tmp_path):
    t = read_per_item(_write(tmp_path, "item,A,B\nq1,1,0\nq2,0.3,1\n"))
    assert t.outcomes[1, 0] == 0.3
    with pytest.raises(ValueError, match=r'items.csv, line 3, column "A": the cell is 0.3, not 0 or 1: f needs'):
        as_per_item(t, binary=True, function="f")
    # the place survives a restriction to the shared items
    t = read_per_item(_write(tmp_path, "item,A,B\nq1,1,\nq2,0.3,1\n"), missing=True).shared()
    with pytest.raises(ValueError, match=r'line 3, column "A"'):
        as_per_item(t, binary=True)


def test_the_front_door_and_the_subpackages_export_one_type():
    assert sotalib.judging.PerItem is sotalib.multiplicity.PerItem is PerItem
    assert sotalib.judging.read_per_item is sotalib.multiplicity.read_per_item is read_per_item
    assert not hasattr(sotalib.judging, "PerItemFile")


def test_a_dataframe_keeps_its_labels():
    # columns name the models and a labelled index the items; a default index gives the default item names
    frame = pd.DataFrame([[0.3, 1.0], [1.0, 0.0], [0.5, 0.5]], columns=["gpt", "llama"], index=["q7", "q8", "q9"])
    t = PerItem(frame)
    assert t.models == ("gpt", "llama")
    assert t.items == ("q7", "q8", "q9")
    np.testing.assert_array_equal(t.outcomes, frame.to_numpy())
    plain = PerItem(frame.reset_index(drop=True))
    assert plain.items == ("item 1", "item 2", "item 3")
    assert plain.models == ("gpt", "llama")
    assert PerItem(frame, models=["a", "b"]).models == ("a", "b")  # names given win


def test_a_dataframe_with_an_id_column_points_to_from_frame():
    frame = pd.DataFrame({"question_id": ["a", "b"], "gpt": [1.0, 0.0]})
    with pytest.raises(ValueError, match=r"PerItem\.from_frame"):
        PerItem(frame)
    assert PerItem.from_frame(frame).items == ("a", "b")


def test_graded_results_name_the_best_model_by_its_column():
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(rng.integers(0, 11, (300, 4)) / 10, columns=["a", "b", "c", "d"])
    frame["d"] = np.minimum(frame["d"] + 0.3, 1.0)  # d is clearly best
    result = sotalib.estimate_sota(PerItem(frame))
    assert result.details["best_model"] == "d"
