"""Named language-model benchmarks: the number of items (and of each subset) a reported accuracy is a share of.

``sotalib check --dataset NAME`` and :func:`sotalib.consistency.check_report`
(``dataset=NAME``) take ``n_items`` -- and, for a macro average, the subset
sizes -- from here; ``sotalib datasets`` lists them beside the named test sets
of :mod:`sotalib.consistency._datasets`.  Every size was checked against the
benchmark's paper or its data card, named in ``source`` (with what is
uncertain); the sizes ship inside the package (nothing downloads).

How the subset sizes were counted
---------------------------------
* MMLU: the 57 subjects' test files of the released data (Hendrycks et al.,
  ``data.tar``, as the Hugging Face card ``cais/mmlu`` lists them, 14,042 in
  all).  The paper's text says 14,079: that is an earlier version, the one in
  the history of the repository ``hendrycks/test`` (commit ``785eba5``,
  2020-09-08, whose ``data/test/*.csv`` hold 14,079 rows, counted with
  Python's csv reader); ten subjects lost questions before the release.
* MMLU-Pro: the ``category`` of each of the 12,032 questions in the project's
  ``data/llm/mmlu_pro_items.csv`` (from ``TIGER-AI-Lab/MMLU-Pro`` at commit
  ``f418b11``); the counts agree with the paper's table of disciplines.
* BBH: the ``examples`` of each ``bbh/*.json`` of ``suzgunmirac/BIG-Bench-Hard``
  at commit ``9ee07bd`` (27 tasks, 6,511 examples).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .._json import json_safe
from .._result import Result

__all__ = ["BENCHMARKS", "Benchmark", "benchmark"]


@dataclass(frozen=True, repr=False)
class Benchmark(Result):
    """A named language-model benchmark: how many items an accuracy on it is a share of.

    Attributes
    ----------
    name : str
        The name ``--dataset`` takes (lower case, words joined by ``-``).
    n_items : int
        The items of the split that is reported (test, or validation where that is what is reported).
    subsets : dict or None
        ``{subset: items}`` where a macro average over subsets is reported (MMLU's subjects,
        MMLU-Pro's categories, BBH's tasks), in the order of the source; the sizes sum to
        ``n_items``.  None: no subsets.
    source : str
        Where the numbers come from: the paper and its table or section, or the data card,
        and what is uncertain.
    version : str
        The version or split these counts belong to.
    chance : float or None
        The accuracy of guessing uniformly (1 / options) where every item has the same number
        of options; 0 where there is no chance level (code generation, open answers); None
        where it differs between items (MMLU-Pro's 2 to 10 options, BBH's tasks).
    """

    name: str
    n_items: int
    subsets: dict | None
    source: str
    version: str
    chance: float | None

    def to_dict(self) -> dict:
        """The keys of ``sotalib datasets --json``: ``name``, ``n_items``, ``subsets``, ``source``; then the rest."""
        return json_safe(
            {
                "name": self.name,
                "n_items": self.n_items,
                "subsets": None if self.subsets is None else dict(self.subsets),
                "source": self.source,
                "version": self.version,
                "chance": self.chance,
            }
        )

    def to_text(self) -> str:
        sub = "" if self.subsets is None else f" in {len(self.subsets)} subsets"
        return f"{self.name}: {self.n_items:,} items{sub} ({self.version}); source: {self.source}"


#: MMLU (Hendrycks et al., ICLR 2021): test questions per subject, the released data (14,042).
MMLU_SUBJECTS = {
    "abstract_algebra": 100,
    "anatomy": 135,
    "astronomy": 152,
    "business_ethics": 100,
    "clinical_knowledge": 265,
    "college_biology": 144,
    "college_chemistry": 100,
    "college_computer_science": 100,
    "college_mathematics": 100,
    "college_medicine": 173,
    "college_physics": 102,
    "computer_security": 100,
    "conceptual_physics": 235,
    "econometrics": 114,
    "electrical_engineering": 145,
    "elementary_mathematics": 378,
    "formal_logic": 126,
    "global_facts": 100,
    "high_school_biology": 310,
    "high_school_chemistry": 203,
    "high_school_computer_science": 100,
    "high_school_european_history": 165,
    "high_school_geography": 198,
    "high_school_government_and_politics": 193,
    "high_school_macroeconomics": 390,
    "high_school_mathematics": 270,
    "high_school_microeconomics": 238,
    "high_school_physics": 151,
    "high_school_psychology": 545,
    "high_school_statistics": 216,
    "high_school_us_history": 204,
    "high_school_world_history": 237,
    "human_aging": 223,
    "human_sexuality": 131,
    "international_law": 121,
    "jurisprudence": 108,
    "logical_fallacies": 163,
    "machine_learning": 112,
    "management": 103,
    "marketing": 234,
    "medical_genetics": 100,
    "miscellaneous": 783,
    "moral_disputes": 346,
    "moral_scenarios": 895,
    "nutrition": 306,
    "philosophy": 311,
    "prehistory": 324,
    "professional_accounting": 282,
    "professional_law": 1534,
    "professional_medicine": 272,
    "professional_psychology": 612,
    "public_relations": 110,
    "security_studies": 245,
    "sociology": 201,
    "us_foreign_policy": 100,
    "virology": 166,
    "world_religions": 171,
}

#: MMLU-Pro (Wang et al., NeurIPS 2024): questions per category, counted from data/llm/mmlu_pro_items.csv.
MMLU_PRO_CATEGORIES = {
    "biology": 717,
    "business": 789,
    "chemistry": 1132,
    "computer science": 410,
    "economics": 844,
    "engineering": 969,
    "health": 818,
    "history": 381,
    "law": 1101,
    "math": 1351,
    "other": 924,
    "philosophy": 499,
    "physics": 1299,
    "psychology": 798,
}

#: BIG-Bench Hard (Suzgun et al., 2022): examples per task, counted from suzgunmirac/BIG-Bench-Hard (9ee07bd).
BBH_TASKS = {
    "boolean_expressions": 250,
    "causal_judgement": 187,
    "date_understanding": 250,
    "disambiguation_qa": 250,
    "dyck_languages": 250,
    "formal_fallacies": 250,
    "geometric_shapes": 250,
    "hyperbaton": 250,
    "logical_deduction_five_objects": 250,
    "logical_deduction_seven_objects": 250,
    "logical_deduction_three_objects": 250,
    "movie_recommendation": 250,
    "multistep_arithmetic_two": 250,
    "navigate": 250,
    "object_counting": 250,
    "penguins_in_a_table": 146,
    "reasoning_about_colored_objects": 250,
    "ruin_names": 250,
    "salient_translation_error_detection": 250,
    "snarks": 178,
    "sports_understanding": 250,
    "temporal_sequences": 250,
    "tracking_shuffled_objects_five_objects": 250,
    "tracking_shuffled_objects_seven_objects": 250,
    "tracking_shuffled_objects_three_objects": 250,
    "web_of_lies": 250,
    "word_sorting": 250,
}


def _b(
    name: str, n_items: int, source: str, version: str, chance: float | None, subsets: dict | None = None
) -> Benchmark:
    return Benchmark(name, n_items, subsets, source, version, chance)


class _Benchmarks(dict):
    """The named language-model benchmarks, by name (each value a :class:`Benchmark`)."""


#: The named language-model benchmarks, by name.
BENCHMARKS = _Benchmarks(
    {
        b.name: b
        for b in (
            _b(
                "humaneval",
                164,
                "Chen et al. 2021, 'Evaluating Large Language Models Trained on Code', Section 2.2: "
                "164 hand-written programming problems; data card openai/openai_humaneval (test, 164 rows)",
                "the one release (test split)",
                0.0,
            ),
            _b(
                "humaneval-plus",
                164,
                "Liu et al. 2023, 'Is Your Code Generated by ChatGPT Really Correct?' (EvalPlus, NeurIPS 2023), "
                "HumanEval+ keeps all 164 HumanEval problems with more tests; "
                "data card evalplus/humanevalplus (164 rows); eval-arena's humaneval+ has the same 164",
                "HumanEval+ (EvalPlus), all 164 problems",
                0.0,
            ),
            _b(
                "mbpp",
                500,
                "Austin et al. 2021, 'Program Synthesis with Large Language Models', Section 2.1: of the 974 "
                "problems, task ids 11-510 are the test split (500); data card google-research-datasets/mbpp "
                "(full, test 500). Not eval-arena's 'mbpp', which is MBPP+'s 378 problems with the original tests",
                "MBPP full, test split (task ids 11-510)",
                0.0,
            ),
            _b(
                "mbpp-plus",
                378,
                "EvalPlus (Liu et al. 2023), README of github.com/evalplus/evalplus: 'MBPP+ is upgraded to v0.2.0 "
                "by removing some broken tasks (399 -> 378 tasks)' (2024-04-17); the version eval-arena's mbpp "
                "and mbpp+ files use (378 items, data/llm/eval-arena). MBPP+ v0.1.0 had 399",
                "MBPP+ v0.2.0",
                0.0,
            ),
            _b(
                "gsm8k",
                1319,
                "Cobbe et al. 2021, 'Training Verifiers to Solve Math Word Problems', Section 2 (8.5K problems, "
                "about 1K test); data card openai/gsm8k (main, test 1,319)",
                "main, test split",
                0.0,
            ),
            _b(
                "math-500",
                500,
                "Lightman et al. 2023, 'Let's Verify Step by Step': the 500 MATH test problems held out from "
                "PRM800K's training, drawn at random from MATH's 5,000 (github.com/openai/prm800k, "
                "math_splits/test.jsonl); data card HuggingFaceH4/MATH-500 (test, 500). The paper's section "
                "is not pinned here",
                "PRM800K's held-out subset of the MATH test set",
                0.0,
            ),
            _b(
                "gpqa-diamond",
                198,
                "Rein et al. 2023, 'GPQA: A Graduate-Level Google-Proof Q&A Benchmark', its table of the three "
                "sets (extended 546, main 448, diamond 198); data card Idavidrein/gpqa (gpqa_diamond, 198)",
                "GPQA diamond subset",
                0.25,
            ),
            _b(
                "aime-2024",
                30,
                "MAA, American Invitational Mathematics Examination 2024, AIME I and II, 15 problems each; "
                "data card HuggingFaceH4/aime_2024 (30 rows)",
                "AIME 2024 I and II",
                0.0,
            ),
            _b(
                "aime-2025",
                30,
                "MAA, American Invitational Mathematics Examination 2025, AIME I and II, 15 problems each; "
                "data cards opencompass/AIME2025 (15 + 15) and yentinglin/aime_2025 (30)",
                "AIME 2025 I and II",
                0.0,
            ),
            _b(
                "swe-bench-verified",
                500,
                "OpenAI 2024, 'Introducing SWE-bench Verified' (500 human-validated samples of SWE-bench's test "
                "set); data card princeton-nlp/SWE-bench_Verified (test, 500)",
                "SWE-bench Verified (2024-08)",
                0.0,
            ),
            _b(
                "swe-bench-lite",
                300,
                "Jimenez et al., swebench.com 'SWE-bench Lite' (a 300-instance subset of the test set); data card "
                "princeton-nlp/SWE-bench_Lite (test, 300)",
                "SWE-bench Lite, test split",
                0.0,
            ),
            _b(
                "swe-bench",
                2294,
                "Jimenez et al. 2024, 'SWE-bench: Can Language Models Resolve Real-World GitHub Issues?' (ICLR "
                "2024), abstract and Section 2: 2,294 task instances from 12 repositories; data card "
                "princeton-nlp/SWE-bench (test, 2,294)",
                "SWE-bench full, test split",
                0.0,
            ),
            _b(
                "mmlu",
                14042,
                "Hendrycks et al. 2021, 'Measuring Massive Multitask Language Understanding' (ICLR 2021), "
                "Section 3: 57 subjects; the released test files (data.tar; data card cais/mmlu: test 14,042, "
                "per subject as listed). The paper's text gives 14,079, an earlier version (the CSVs in the "
                "history of github.com/hendrycks/test, commit 785eba5, hold 14,079): a report on that version "
                "differs in ten subjects",
                "the released test split (14,042)",
                0.25,
                MMLU_SUBJECTS,
            ),
            _b(
                "mmlu-pro",
                12032,
                "Wang et al. 2024, 'MMLU-Pro: A More Robust and Challenging Multi-Task Language Understanding "
                "Benchmark' (NeurIPS 2024 Datasets and Benchmarks), the table of disciplines (12,032 questions in "
                "14); data card TIGER-Lab/MMLU-Pro (test, 12,032); category sizes counted from the project's "
                "data/llm/mmlu_pro_items.csv (TIGER-AI-Lab/MMLU-Pro, commit f418b11)",
                "test split",
                None,
                MMLU_PRO_CATEGORIES,
            ),
            _b(
                "arc-challenge",
                1172,
                "Clark et al. 2018, 'Think you have Solved Question Answering? Try ARC', Table 1 (Challenge: train "
                "1,119, dev 299, test 1,172); data card allenai/ai2_arc (ARC-Challenge, test 1,172)",
                "ARC-Challenge, test split",
                None,
            ),
            _b(
                "hellaswag",
                10042,
                "Zellers et al. 2019, 'HellaSwag: Can a Machine Really Finish Your Sentence?' (ACL 2019); data "
                "card Rowan/hellaswag (validation 10,042; the test labels are hidden, so the validation split is "
                "what is reported)",
                "validation split",
                0.25,
            ),
            _b(
                "winogrande",
                1267,
                "Sakaguchi et al. 2020, 'WinoGrande: An Adversarial Winograd Schema Challenge at Scale' (AAAI "
                "2020) (dev 1,267; test 1,767 with hidden labels); data card allenai/winogrande "
                "(winogrande_xl, validation 1,267)",
                "validation (dev) split",
                0.5,
            ),
            _b(
                "truthfulqa-mc1",
                817,
                "Lin et al. 2022, 'TruthfulQA: Measuring How Models Mimic Human Falsehoods' (ACL 2022), abstract "
                "and Section 2: 817 questions in 38 categories; data card truthfulqa/truthful_qa "
                "(multiple_choice, validation 817)",
                "multiple_choice, validation split (the only split)",
                None,
            ),
            _b(
                "ifeval",
                541,
                "Zhou et al. 2023, 'Instruction-Following Evaluation for Large Language Models' (the text says "
                "'around 500 prompts'); data card google/IFEval (train, 541 rows), the number of prompts "
                "lm-evaluation-harness scores (prompt-level accuracy; instruction-level accuracies are shares of "
                "the instructions, not of the 541 prompts)",
                "the one release (541 prompts)",
                0.0,
            ),
            _b(
                "bbh",
                6511,
                "Suzgun et al. 2022, 'Challenging BIG-Bench Tasks and Whether Chain-of-Thought Can Solve Them', "
                "(23 tasks, 27 counting the subtasks of logical deduction and tracking shuffled objects); task sizes counted from the examples "
                "of bbh/*.json in github.com/suzgunmirac/BIG-Bench-Hard (commit 9ee07bd): 250 each, but "
                "causal_judgement 187, penguins_in_a_table 146, snarks 178",
                "BIG-Bench Hard, 27 tasks",
                None,
                BBH_TASKS,
            ),
        )
    }
)


def benchmark(name: str) -> Benchmark:
    """A named language-model benchmark: its number of items, subsets and source.

    Parameters
    ----------
    name : str
        One of the names of :data:`BENCHMARKS` (case and the separators ``-``, ``_``, space
        and ``+`` for "plus" are forgiven: ``HumanEval+`` is ``humaneval-plus``).

    Returns
    -------
    Benchmark
        Its number of items (and of each subset), version, chance level and the source of
        the numbers.

    Raises
    ------
    ValueError
        An unknown name; the message names the closest names.

    References
    ----------
    Each benchmark's paper or data card, named in its ``source``.

    Examples
    --------
    >>> from sotalib.consistency import benchmark
    >>> benchmark("gsm8k").n_items
    1319
    >>> b = benchmark("mmlu")
    >>> len(b.subsets), sum(b.subsets.values())
    (57, 14042)
    """
    key = _key(name)
    if key in BENCHMARKS:
        return BENCHMARKS[key]
    raise ValueError(f"benchmark must be a named benchmark, got {name!r}; {suggest_benchmark(key)}")


def _key(name: str) -> str:
    key = "-".join(str(name).strip().lower().replace("_", " ").replace("-", " ").split())
    if key.endswith("+"):
        key = key[:-1].rstrip("-") + "-plus"
    return key


def suggest_benchmark(name: str) -> str:
    """The closest names to ``name`` among the benchmarks, and where all are listed."""
    key = _key(name)
    close = difflib.get_close_matches(key, BENCHMARKS, n=4, cutoff=0.6)
    if not close:
        close = [b for b in BENCHMARKS if b.startswith(key.split("-")[0])][:4]
    shown = f"did you mean {', '.join(close)}? " if close else ""
    return f"{shown}{len(BENCHMARKS)} benchmarks: sotalib.consistency.BENCHMARKS (sotalib datasets lists them)"
