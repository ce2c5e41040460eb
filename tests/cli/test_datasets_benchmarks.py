"""``sotalib datasets`` lists the named language-model benchmarks beside the named test sets."""

import json

import pytest

from sotalib.cli import main


def test_json_has_benchmarks_beside_the_test_sets(capsys):
    assert main(["datasets", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"datasets", "benchmarks"}
    for d in out["datasets"]:  # the test sets keep their keys
        assert list(d) == ["name", "description", "source", "p", "n", "folds"]
    bench = {b["name"]: b for b in out["benchmarks"]}
    for b in bench.values():
        assert list(b)[:4] == ["name", "n_items", "subsets", "source"]
        assert b["subsets"] is None or sum(b["subsets"].values()) == b["n_items"]
    assert bench["gsm8k"]["n_items"] == 1319 and bench["gsm8k"]["subsets"] is None
    assert len(bench["mmlu"]["subsets"]) == 57 and bench["mmlu"]["n_items"] == 14042
    assert bench["mmlu-pro"]["subsets"]["math"] == 1351
    assert bench["mmlu-pro"]["chance"] is None  # JSON null, never NaN


def test_text_lists_items_subsets_and_source(capsys):
    assert main(["datasets", "bbh", "humaneval"]) == 0
    out = capsys.readouterr().out
    assert "bbh" in out and "6,511 items in 27 subsets" in out and "snarks 178" in out
    assert "humaneval-plus" in out and "164 items" in out and "source: Chen et al. 2021" in out
    assert "tpehg" not in out


def test_a_name_filters_both_lists(capsys):
    assert main(["datasets", "tpehg", "HumanEval+", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [d["name"] for d in out["datasets"]] == ["tpehg"]
    assert [b["name"] for b in out["benchmarks"]] == ["humaneval-plus"]


@pytest.mark.parametrize(
    ("typo", "closest"), [("mmlupro", "mmlu-pro"), ("gsm8l", "gsm8k"), ("winogrand3", "winogrande")]
)
def test_a_misspelt_name_gets_the_closest(capsys, typo, closest):
    assert main(["datasets", typo]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "did you mean" in err and closest in err.split("did you mean")[1].split("?")[0]
