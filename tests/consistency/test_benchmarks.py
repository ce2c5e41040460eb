"""The named language-model benchmarks: each size against the number its source states, written here by hand.

The table below is typed from the papers and data cards (not copied from the module), so a slip in either
shows; MMLU-Pro's categories are also counted afresh from ``data/llm/mmlu_pro_items.csv``.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest

from sotalib.consistency import BENCHMARKS, Benchmark, benchmark

ROOT = Path(__file__).resolve().parents[2]

#: name -> (items, subsets or None, a phrase its source must contain)
CITED = {
    "humaneval": (164, None, "Chen et al. 2021"),
    "humaneval-plus": (164, None, "EvalPlus"),
    "mbpp": (500, None, "Austin et al. 2021"),
    "mbpp-plus": (378, None, "v0.2.0"),
    "gsm8k": (1319, None, "Cobbe et al. 2021"),
    "math-500": (500, None, "Lightman et al. 2023"),
    "gpqa-diamond": (198, None, "Rein et al. 2023"),
    "aime-2024": (30, None, "AIME"),
    "aime-2025": (30, None, "AIME"),
    "swe-bench-verified": (500, None, "SWE-bench_Verified"),
    "swe-bench-lite": (300, None, "SWE-bench_Lite"),
    "swe-bench": (2294, None, "Jimenez et al. 2024"),
    "mmlu": (14042, 57, "Hendrycks et al. 2021"),
    "mmlu-pro": (12032, 14, "mmlu_pro_items.csv"),
    "arc-challenge": (1172, None, "Clark et al. 2018"),
    "hellaswag": (10042, None, "Zellers et al. 2019"),
    "winogrande": (1267, None, "Sakaguchi et al. 2020"),
    "truthfulqa-mc1": (817, None, "Lin et al. 2022"),
    "ifeval": (541, None, "google/IFEval"),
    "bbh": (6511, 27, "suzgunmirac/BIG-Bench-Hard"),
}

#: A few subject sizes of MMLU's released test split (the cais/mmlu card) that differ from the 14,079-question
#: version the paper's text counts (hendrycks/test 785eba5: 204, 202, 105, 791, 282, 624 there).
MMLU_SOME = {
    "high_school_chemistry": 203,
    "high_school_geography": 198,
    "machine_learning": 112,
    "miscellaneous": 783,
    "professional_medicine": 272,
    "professional_psychology": 612,
    "professional_law": 1534,
    "abstract_algebra": 100,
}

#: BBH: 250 examples per task but these three (bbh/*.json of suzgunmirac/BIG-Bench-Hard, 9ee07bd).
BBH_SHORT = {"causal_judgement": 187, "penguins_in_a_table": 146, "snarks": 178}


def test_every_required_benchmark_is_there():
    assert set(CITED) <= set(BENCHMARKS)


@pytest.mark.parametrize("name", sorted(CITED))
def test_size_against_its_cited_number(name):
    items, n_subsets, phrase = CITED[name]
    b = benchmark(name)
    assert isinstance(b, Benchmark)
    assert b.name == name
    assert b.n_items == items
    assert phrase in b.source
    assert b.version
    if n_subsets is None:
        assert b.subsets is None
    else:
        assert len(b.subsets) == n_subsets
        assert sum(b.subsets.values()) == b.n_items
        assert all(isinstance(v, int) and v > 0 for v in b.subsets.values())


@pytest.mark.parametrize("b", list(BENCHMARKS.values()), ids=list(BENCHMARKS))
def test_subsets_sum_to_the_total_and_json(b):
    if b.subsets is not None:
        assert sum(b.subsets.values()) == b.n_items
    d = b.to_dict()
    assert list(d)[:4] == ["name", "n_items", "subsets", "source"]
    json.dumps(d, allow_nan=False)
    assert b.chance is None or 0 <= b.chance < 1


def test_mmlu_pro_categories_counted_from_the_vendored_items():
    with open(ROOT / "data" / "llm" / "mmlu_pro_items.csv", newline="", encoding="utf-8") as f:
        counted = Counter(row["category"] for row in csv.DictReader(f))
    assert dict(counted) == benchmark("mmlu-pro").subsets
    assert sum(counted.values()) == 12032
    # the paper's table of disciplines: the largest and the smallest
    assert counted["math"] == 1351 and counted["history"] == 381


def test_mmlu_subjects():
    subjects = benchmark("mmlu").subsets
    for name, size in MMLU_SOME.items():
        assert subjects[name] == size, name
    assert min(subjects.values()) == 100


def test_bbh_tasks():
    tasks = benchmark("bbh").subsets
    assert {k: v for k, v in tasks.items() if v != 250} == BBH_SHORT
    assert len(tasks) - len(BBH_SHORT) == 24


def test_chance_levels():
    assert benchmark("humaneval").chance == 0.0  # code generation has none
    assert benchmark("mmlu").chance == 0.25
    assert benchmark("winogrande").chance == 0.5
    assert benchmark("mmlu-pro").chance is None  # 2 to 10 options per question


@pytest.mark.parametrize(
    ("spelt", "name"),
    [("HumanEval+", "humaneval-plus"), ("MMLU_Pro", "mmlu-pro"), ("swe bench verified", "swe-bench-verified")],
)
def test_forgiving_spellings(spelt, name):
    assert benchmark(spelt).name == name


@pytest.mark.parametrize(
    ("typo", "closest"),
    [("humaneva", "humaneval"), ("mmlupro", "mmlu-pro"), ("gsm8", "gsm8k"), ("swebench-lite", "swe-bench-lite")],
)
def test_misspelt_names_get_the_closest(typo, closest):
    with pytest.raises(ValueError, match="benchmark") as err:
        benchmark(typo)
    assert "did you mean" in str(err.value)
    assert closest in str(err.value).split("did you mean")[1].split("?")[0]


def test_unknown_name_without_neighbour():
    with pytest.raises(ValueError, match="sotalib datasets"):
        benchmark("zzzz")
