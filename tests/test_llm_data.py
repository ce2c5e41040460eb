"""The vendored LLM tables (data/llm): shapes and counts as data/README.md states them."""

import pathlib
import re

import numpy as np
import pandas as pd
import pytest

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
LLM = DATA / "llm"
README = (DATA / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def correct():
    return pd.read_csv(LLM / "mmlu_pro_correct.csv.gz", index_col="question_id")


@pytest.fixture(scope="module")
def items():
    return pd.read_csv(LLM / "mmlu_pro_items.csv")


def test_mmlu_pro_table_shape_and_values(correct, items):
    assert correct.shape == (12_032, 29)
    assert correct.index.is_unique and correct.index.is_monotonic_increasing
    assert list(correct.index) == list(items.question_id)
    values = correct.to_numpy(dtype=float)
    assert set(np.unique(values[np.isfinite(values)])) == {0.0, 1.0}
    assert "12,032 rows (questions" in README and "x 29 model columns" in README


def test_mmlu_pro_items_match_the_readme(items):
    assert len(items) == 12_032 and items.category.nunique() == 14
    assert (items.n_options == 10).sum() == 9_982 and "9,982 questions have ten" in README
    assert items.n_options.between(2, 10).all()


def test_answered_counts_match_the_readme(correct):
    answered = correct.notna().sum()
    assert (answered == 12_032).sum() == 26
    assert answered["DeepSeek-Coder-V2_5shots"] == 10_351
    assert answered["gemini-1.5-flash-002_5shots"] == 12_012
    assert answered["gemini-1.5-pro-002_5shots"] == 12_020
    assert "`DeepSeek-Coder-V2_5shots` holds 10,351" in README
    complete = correct.notna().all(axis=1).to_numpy()
    assert complete.sum() == 10_326 and "answered by all 29 models are 10,326" in README


def test_complete_questions_per_subject_match_the_readme(correct, items):
    complete = correct.notna().all(axis=1).to_numpy()
    chemistry = (items.category == "chemistry").to_numpy()
    assert (chemistry.sum(), (chemistry & complete).sum()) == (1_132, 341)
    assert "chemistry keeps 341 of its 1,132" in README


def test_null_preds_are_wrong_and_counted(correct):
    nulls = pd.read_csv(LLM / "mmlu_pro_null_pred.csv.gz")
    models = pd.read_csv(LLM / "mmlu_pro_models.csv").set_index("model")
    assert len(nulls) == 32_697 == models.null_pred.sum() and "the 32,697 records" in README
    assert (nulls.groupby("model").size().reindex(models.index, fill_value=0) == models.null_pred).all()
    rows = correct.index.get_indexer(nulls.question_id)
    cols = correct.columns.get_indexer(nulls.model)
    assert (correct.to_numpy()[rows, cols] == 0).all()
    assert np.allclose(models.accuracy.to_numpy(), correct.mean().to_numpy(), atol=1e-6)


def test_missing_archives_are_listed():
    listed = re.findall(r"`([^`]+\.zip)`", README.split("**19 of the 48 archives")[1].split("###")[0])
    assert len(listed) == 19
    correct_cols = pd.read_csv(LLM / "mmlu_pro_correct.csv.gz", nrows=0).columns[1:]
    present = {f"{c}.zip" for c in correct_cols}
    assert not present & set(listed) and len(present) + len(listed) == 48


def test_open_llm_boards():
    v1 = pd.read_csv(LLM / "open_llm_v1.csv")
    v2 = pd.read_csv(LLM / "open_llm_v2.csv")
    assert list(v1.columns) == ["model", "arc", "hellaswag", "mmlu", "winogrande", "gsm8k"]
    assert len(v1) == 1_804 and v1.model.nunique() == 1_756 and (v1.model.value_counts() > 1).sum() == 47
    assert v1.model.iloc[0] == "Contamination/contaminated_proof_7b_v1.0"
    assert v1.iloc[:, 1:].stack().between(0, 100).all()
    assert list(v2.columns) == ["model", "mmlu_pro_normalised", "mmlu_pro_accuracy"]
    assert len(v2) == 348 and v2.model.nunique() == 340
    assert np.allclose(v2.mmlu_pro_accuracy, 0.1 + 0.9 * v2.mmlu_pro_normalised / 100, atol=1e-6)
    assert "1,804 rows, 1,756 distinct model names" in README and "348 rows,\n340 distinct" in README


def test_reported_score_tables_match_the_readme():
    r1 = pd.read_csv(LLM / "deepseek_r1_scores.csv", dtype=str)
    assert len(r1) == 175 and "(175 rows;" in README
    assert set(r1.table) == {"main", "distilled"} and not (r1.score == "-").any()
    aime = r1[(r1.benchmark == "AIME 2024 (Pass@1)") & (r1.model == "DeepSeek R1")]
    assert list(aime.score) == ["79.8"]  # the README's headline number, as printed
    pro = pd.read_csv(LLM / "mmlu_pro_summaries.csv", dtype={"acc": str})
    assert len(pro) == 43 and "(43 rows;" in README
    assert set(pro.run) == {"deepseek", "gpt4o", "merged"} and list(pro.category).count("total") == 1
    # each printed accuracy is its own count over the answered questions
    assert np.allclose(pro["acc"].astype(float), pro["corr"] / (pro["corr"] + pro["wrong"]), rtol=0, atol=1e-15)


def test_the_open_llm_v1_columns_name_their_splits():
    """The audit of section 6d: the smallest size that gives every printed score is the split."""
    from sotalib.multiplicity import possible_n

    v1 = pd.read_csv(LLM / "open_llm_v1.csv")
    for column, split in {"arc": 1172, "winogrande": 1267, "gsm8k": 1319}.items():
        assert possible_n(v1[column] / 100, 4, range(1, 10_001), rounding="round")[0] == split
        assert not len(possible_n(v1[column] / 100, 4, [split + 1], rounding="round"))


def test_two_majority_votes_of_deepseek_r1_are_no_count_of_30():
    """cons@64 is one answer per AIME problem: k/30.  Checked by hand with fractions."""
    from fractions import Fraction

    r1 = pd.read_csv(LLM / "deepseek_r1_scores.csv", dtype=str)
    votes = r1[r1.benchmark == "AIME 2024 cons@64"]

    def on_lattice(score: str) -> bool:
        return any(abs(Fraction(100 * k, 30) - Fraction(score)) <= Fraction(1, 20) for k in range(31))

    off = sorted(votes.score[~votes.score.map(on_lattice)])
    assert off == ["13.4", "52.7"]
