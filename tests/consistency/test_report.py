"""check_report on users' own input: numbers read once, unknown folds without enumeration, typo diagnosis."""

import json
from fractions import Fraction

import numpy as np
import pytest

from sotalib.consistency import aggregate_scores, check_report, count_configurations, kfold_configurations

# private: the reader of reported numbers, the fast count of k-fold configurations (against enumeration) and
# the typo finder's candidates are the subjects of their tests; check_report is tested through them
from sotalib.consistency._intervals import as_decimal, score_intervals
from sotalib.consistency._mos_kfold import count_kfold_configurations
from sotalib.consistency._typos import typo_candidates

#: What check_report's diagnosis says when no typo explains the report, and when no single change does.
NO_TYPO = (
    "no single typo explains the report: no score is a few units of its last decimal, one mistyped "
    "digit (of the last two) or two swapped digits away from a consistent value; the scores may come from another "
    "experiment (another test set or pixel mask, other folds, another aggregation)"
)
NO_SINGLE_CHANGE = (
    "no change of a single score makes the report consistent: at least two of the values disagree "
    "with the stated experiment; the scores may come from another experiment (another test set or "
    "pixel mask, other folds, another aggregation)"
)

PAPER_33 = {"acc": "0.6801", "npv": "0.9401", "f1": "0.4004"}
TABLE5 = [(100, 201), (100, 200), (100, 200), (101, 200), (101, 200)]


# ---------------------------------------------------------------- numbers parsed once, absurd ones refused
@pytest.mark.parametrize(
    "text, message",
    [
        ("1e400", "between 1e-60 and 1e60"),
        ("1e-99999999", "between 1e-60 and 1e60"),  # used to build a hundred-million-digit number
        ("1e99999999999999999999", "between 1e-60 and 1e60"),
        ("0." + "0" * 10_000 + "1", "between 1e-60 and 1e60"),
        ("1" * 100, "at most 60 digits"),
        ("nan", "must be a number"),
        ("inf", "must be a number"),
        ("0x10", "must be a number"),
        ("1_000", "must be a number"),
        ("", "must be a number"),
    ],
)
def test_absurd_numbers_are_refused_with_the_name(text, message):
    with pytest.raises(ValueError, match=message) as exc:
        as_decimal(text, "eps")
    assert str(exc.value).startswith("eps ") and len(str(exc.value)) < 200  # a long value is shortened


@pytest.mark.parametrize(
    "text, value",
    [
        ("0.9447", Fraction(9447, 10000)),
        ("1e-4", Fraction(1, 10**4)),
        (".5", Fraction(1, 2)),
        ("-0.12", Fraction(-3, 25)),
        ("12.50e-1", Fraction(5, 4)),
        ("0", Fraction(0)),
    ],
)
def test_decimals_read_exactly(text, value):
    assert as_decimal(text) == value


@pytest.mark.parametrize("eps", ["1e400", "1e-99999999", "-0.1", "abc"])
def test_check_report_bad_eps_names_eps(eps):
    with pytest.raises(ValueError, match="^eps "):
        check_report(10, 10, {"acc": "0.5"}, eps=eps)


def test_value_with_more_decimals_than_declared():
    with pytest.raises(ValueError, match="score acc=0.12345 has more decimals than the 2"):
        check_report(10, 10, {"acc": "0.12345"}, decimals=2)
    # fewer decimals (a trailing zero dropped) is fine
    assert check_report(10, 10, {"acc": "0.5"}, decimals=2).consistent


@pytest.mark.parametrize("pair", [("acc", "accuracy"), ("sens", "Recall"), ("f1", "fbp"), ("ppv", "precision")])
def test_synonyms_given_twice(pair):
    with pytest.raises(ValueError, match="names the same score"):
        score_intervals({pair[0]: "0.5", pair[1]: "0.5"}, eps="0.01")


def test_f1_and_f2_are_different_scores():
    assert len(score_intervals({"f1": "0.5", "f2": "0.5"}, eps="0.01")) == 2


# ---------------------------------------------------------------- unknown folds: counting and the joint program
@pytest.mark.parametrize(
    "p, n, k", [(38, 262, 5), (10, 7, 3), (5, 30, 4), (20, 20, 6), (3, 3, 2), (17, 4, 5), (9, 9, 9)]
)
@pytest.mark.parametrize("every", [{}, {"positives_in_every_fold": True}, {"negatives_in_every_fold": True}])
def test_fast_count_equals_enumeration(p, n, k, every):
    assert count_kfold_configurations(p, n, k, **every) == count_configurations(p, n, k, **every)


def test_count_of_a_large_problem_is_fast_and_exact_in_its_leading_digits():
    # Algorithm 2's count for p = 1000, n = 2000, k = 10 (65 s to count before); compared with
    # a second, independent count: the number of configurations of the positives' fold sizes,
    # by dynamic programming over partitions into at most k^a and k^b parts
    c = count_kfold_configurations(1000, 2000, 10)
    assert c == 577_001_085_855_082


@pytest.mark.parametrize("seed", range(6))
def test_joint_program_equals_enumeration_for_one_repetition(seed):
    """Plain k-fold with unknown folds: the verdict of the one integer program (used when
    enumerating would be slow) equals configuration-by-configuration enumeration."""
    rng = np.random.default_rng(seed)
    p, n, k = int(rng.integers(6, 20)), int(rng.integers(6, 20)), int(rng.integers(2, 5))
    configs = list(kfold_configurations(p, n, k, positives_in_every_fold=True, negatives_in_every_fold=True))
    if not configs:
        pytest.skip("no configuration")
    folds = configs[int(rng.integers(len(configs)))]
    counts = [(int(rng.integers(0, a + 1)), int(rng.integers(0, b + 1))) for a, b in folds]
    mean = aggregate_scores(folds, counts)
    scores = {s: f"{mean[s][0]:.2f}" for s in ("acc", "sens", "spec")}
    if seed % 2:  # a perturbed report, often inconsistent
        scores["acc"] = f"{min(1.0, float(scores['acc']) + 0.03):.2f}"
    kw = dict(p=p, n=n, k=k, decimals=2, aggregation="mos", diagnosis=False)
    enumerated = check_report(scores=scores, max_configurations=10**9, **kw)
    joint = check_report(scores=scores, max_configurations=0, **kw)
    assert enumerated.details["mos"]["configurations_tested"] == len(configs)
    assert "one integer program" in joint.details["mos"]["note"]
    assert joint.consistent == enumerated.consistent
    if joint.consistent and joint.evidence:  # the evidence reproduces the means exactly
        (sol,) = joint.evidence
        (jf,) = joint.details["mos"]["solution_folds"]
        agg = aggregate_scores([tuple(f) for f in jf], [tuple(s) for s in sol])
        for name, value in scores.items():
            assert abs(agg[name][0] - float(value)) <= 0.005 + 1e-12


def test_plain_kfold_of_hundreds_is_decided_without_enumerating():
    v = check_report(100, 200, {"acc": "0.9"}, k=5, eps="1e-4", aggregation="mos", diagnosis=False)
    assert v.consistent and v.configurations_tested == 39_508 and "one integer program" in v.details["mos"]["note"]
    # 1/300 steps: 0.90005 +- 1e-6 is no mean of 5 folds of 60 items
    v = check_report(100, 200, {"acc": "0.90005"}, k=5, eps="1e-6", aggregation="mos", diagnosis=False)
    assert not v.consistent


def test_too_many_fold_types_are_refused_with_the_cost():
    with pytest.raises(ValueError, match="fold types"):
        check_report(10**6, 10**6, {"acc": "0.9"}, k=2, eps="1e-4", aggregation="mos")
    v = check_report(10**6, 10**6, {"acc": "0.9"}, k=2, eps="1e-4")  # SoM still answers
    assert v.details["mos"]["consistent"] is None and "fold types" in v.details["mos"]["note"]


@pytest.mark.parametrize("repeats", [0, 1001, 2.5])
def test_repeats_range(repeats):
    with pytest.raises(ValueError, match="repeats"):
        check_report(10, 10, {"acc": "0.9"}, k=2, eps="1e-2", repeats=repeats)


# ---------------------------------------------------------------- typo diagnosis
def test_typo_candidates_of_the_paper_example():
    cands = dict(typo_candidates(Fraction("0.6801"), 4))
    assert cands[Fraction("0.6821")] == "one digit"  # the paper's typo
    assert cands[Fraction("0.6802")] == "last decimal" and cands[Fraction("0.6810")] == "swapped digits"
    assert Fraction("0.6901") not in cands and Fraction("0.7801") not in cands  # not among the last two digits
    assert Fraction("0.6805") in cands and Fraction("0.6809") in cands
    values = [abs(c - Fraction("0.6801")) for c, _ in typo_candidates(Fraction("0.6801"), 4)]
    assert values == sorted(values)
    assert all(0 <= c <= 1 for c, _ in typo_candidates(Fraction("0.0001"), 4, 0, 1))


def test_suggestions_at_the_report_decimals():
    v = check_report(1000, 6000, PAPER_33, eps="1e-4")
    d = json.loads(json.dumps(v.to_dict()))
    by = {s["score"]: s for s in d["suggestions"]}
    assert by["acc"] == {
        "score": "acc",
        "reported": 0.6801,
        "suggested": 0.6821,
        "change": 0.002,  # not 0.0019999999999999
        "n_solutions": 2,
        "example": [743, 4031],
        "aggregation": "single",
        "decimals": 4,
        "typo": "one digit",
    }
    assert by["npv"]["change"] == 0.0008
    assert d["diagnosis"].startswith("a typo is plausible") and d["evidence_aggregation"] is None


def test_no_plausible_typo_says_so():
    # f1 0.4530 is two digits away from 0.4004: a single change fixes the report, but no typo
    v = check_report(1000, 6000, {"acc": "0.6821", "npv": "0.9401", "f1": "0.4530"}, eps="1e-4")
    assert not v.consistent and v.suggestions == [] and v.diagnosis == NO_TYPO


def test_another_test_set_no_single_change():
    # DRIVE-sized scores of a test set with 3,000 positives more than stated (another mask)
    from sotalib.consistency import all_scores

    P, N = 577_649, 3_960_494
    s = all_scores(451_234, 3_900_017, P + 3000, N - 3000)
    scores = {k: f"{s[k]:.4f}" for k in ("acc", "sens", "spec", "ppv", "npv", "fbp")}
    assert check_report(P + 3000, N - 3000, scores, decimals=4).consistent
    v = check_report(P, N, scores, decimals=4)
    assert not v.consistent and v.suggestions == [] and v.diagnosis == NO_SINGLE_CHANGE


def test_mos_typo_and_no_typo():
    v = check_report(
        scores={"acc": "0.8280", "sens": "0.7391", "spec": "0.8741"}, folds=TABLE5, eps="1e-4", aggregation="mos"
    )
    first = v.suggestions[0]
    # nearest plausible typo first: 0.8287 (one digit); the paper's 0.8290 is one digit away too
    assert (first.score, first.suggested, first.decimals, first.aggregation) == ("acc", 0.8287, 4, "mos")
    assert check_report(
        scores={"acc": "0.8290", "sens": "0.7391", "spec": "0.8741"}, folds=TABLE5, eps="1e-4", aggregation="mos"
    ).consistent
    assert "under mos" in v.diagnosis
    v = check_report(
        scores={"acc": "0.7280", "sens": "0.9391", "spec": "0.8741"}, folds=TABLE5, eps="1e-4", aggregation="mos"
    )
    assert v.suggestions == [] and v.diagnosis in (NO_TYPO, NO_SINGLE_CHANGE)


def test_no_diagnosis_skips_the_finder():
    v = check_report(1000, 6000, PAPER_33, eps="1e-4", diagnosis=False)
    assert not v.consistent and v.suggestions == [] and v.diagnosis == "not run"
    assert check_report(1000, 6000, {**PAPER_33, "acc": "0.6821"}, eps="1e-4").diagnosis == ""


def test_unknown_folds_diagnosis_says_what_was_searched():
    v = check_report(38, 262, {"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"}, k=5, eps="1e-4")
    assert not v.consistent and "Score of Means only" in v.diagnosis


def test_evidence_names_its_aggregation():
    v = check_report(
        scores={"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"}, folds="1:101,4:97,40:61,99:2,100:1", eps="1e-4"
    )
    assert v.fits == ["som", "mos"] and v.evidence_aggregation == "som"
    assert v.evidence == v.details["som"]["solutions"]
    v = check_report(
        scores={"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"},
        folds="1:101,4:97,40:61,99:2,100:1",
        eps="1e-4",
        aggregation="mos",
    )
    assert v.evidence_aggregation == "mos" and v.evidence == v.details["mos"]["solutions"]
    v = check_report(1000, 6000, {**PAPER_33, "acc": "0.6821"}, eps="1e-4")
    assert v.evidence_aggregation == "single"


def test_rules_about_several_parameters_name_them():
    from sotalib.consistency import check_report

    with pytest.raises(ValueError, match=r"^rounding needs decimals") as info:
        check_report(10, 10, {"acc": "0.5"}, eps="0.01", rounding="floor")
    assert info.value.parameters == ("rounding", "decimals")
    with pytest.raises(ValueError, match=r"Score of Means never computes") as info:
        check_report(
            5, 5, {"acc": "0.5"}, decimals=1, k=2, aggregation="som", fold_min={"acc": "0.4"}, fold_max={"acc": "0.6"}
        )
    assert set(info.value.parameters) == {"fold_min", "fold_max", "aggregation"}
    # the default rounding is 'round', given or not
    assert check_report(10, 10, {"acc": "0.45"}, decimals=2) == check_report(
        10, 10, {"acc": "0.45"}, decimals=2, rounding="round"
    )


def test_scores_as_a_series_work_third_and_are_refused_first_with_a_clear_message():
    pd = pytest.importorskip("pandas")
    s = pd.Series({"acc": "0.6801", "npv": "0.9401", "f1": "0.4004"})
    as_dict = check_report(1000, 6000, dict(s), eps="1e-4")
    assert check_report(1000, 6000, s, eps="1e-4").to_dict() == as_dict.to_dict()
    assert check_report(p=1000, n=6000, scores=s, eps="1e-4").to_dict() == as_dict.to_dict()
    # the trap of 0.5: check_report(series, p=..., n=...) raised "TypeError: got multiple values for argument 'p'"
    for first in (s, dict(s), s.to_frame().T):
        with pytest.raises(ValueError, match=r"check_report\(p, n, scores, \.\.\.\): the scores come third"):
            check_report(first, p=1000, n=6000, eps="1e-4")
    with pytest.raises(ValueError, match="the scores come third"):
        check_report(dict(s), folds=[(100, 200)] * 2, eps="1e-4")
