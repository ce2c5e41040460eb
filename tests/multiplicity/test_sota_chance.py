"""The chance level of estimate_sota: an argument (``chance=``), 0 for open-ended tasks, or per item (issue 33).

References are independent of the library: the expected maximum of independent binomials from scipy's
binomial CDF, the mean chance level as an exact Fraction, the teams at or below it counted by hand.
"""

from __future__ import annotations

import os
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sotalib import PerItem
from sotalib.multiplicity import estimate_sota, estimate_sota_batch

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "llm")
BOARD = np.linspace(0.2, 0.6, 40)  # a board of code models: most below the default chance 1/2
N = 164


def expected_max_independent(theta: np.ndarray, n: int) -> float:
    """E max_j X_j / n under the paper's hierarchical model with rho = 0 (Section 4.3).

    ``m = theta.size`` independent classifiers, each with an accuracy drawn from the empirical distribution
    of ``theta`` (P(theta') of the empirical Bayes estimate) and ``X_j | theta_j ~ Binomial(n, theta_j)``:
    ``P(max <= k) = (mean_i F_i(k))^m``, and ``E max = sum_k P(max > k)``, by scipy's binomial CDF.
    """
    k = np.arange(n)
    below = np.mean(stats.binom.cdf(k[:, None], n, theta[None, :]), axis=1) ** theta.size  # P(max <= k)
    return float(np.sum(1.0 - below)) / n


@pytest.mark.parametrize("chance", [0.0, 0.25])
def test_shrink_target_is_the_chance_level(chance):
    """Eq. 9 with target c: theta' = w theta_hat + (1 - w) c, E max(theta') = max(theta_hat), estimate w max + (1-w) c.

    At c = 0 (no chance level) the target is 0: theta' = w theta_hat, a scaling of the board.
    """
    est = estimate_sota(BOARD, N, chance=chance, rho=0.0)
    assert est.solved and est.below_chance == int(np.sum(BOARD <= chance))
    w = est.weight
    assert 0 < w < 1
    assert est.estimate == pytest.approx(w * BOARD.max() + (1 - w) * chance, abs=1e-12)
    kept = BOARD[BOARD > chance]
    assert expected_max_independent(w * kept + (1 - w) * chance, N) == pytest.approx(BOARD.max(), abs=1e-9)
    assert est.details["chance"] == chance


def test_chance_zero_differs_from_the_default_target():
    """Shrinking toward 0 is not shrinking toward 1/2: another weight, another estimate, every team kept."""
    zero = estimate_sota(BOARD, N, chance=0, rho=0.0)
    half = estimate_sota(BOARD, N, rho=0.0)
    assert half.below_chance == int(np.sum(BOARD <= 0.5)) == 30
    assert zero.below_chance == 0 and zero.m == BOARD.size
    assert abs(zero.estimate - half.estimate) > 1e-3


@pytest.mark.parametrize("target", ["expected", "upper"])
def test_chance_zero_with_dependence(target):
    """With rho > 0 the weight is searched in (0, 1]: w = 0 would be the board of zeros, theta0 = 0."""
    est = estimate_sota(BOARD, N, chance=0, rho=0.6, target=target)
    assert est.solved and est.below_chance == 0
    assert est.estimate == pytest.approx(est.weight * BOARD.max(), abs=1e-12)
    if target == "expected":
        assert est.expected_max == pytest.approx(BOARD.max(), abs=1e-7)


@pytest.mark.parametrize("method", ["crop", "cap", "naive", "observed", "deconvolve", "abc"])
def test_no_team_dropped_at_chance_zero(method):
    low = np.array([0.01, 0.02, 0.05, 0.1, 0.12, 0.2, 0.3])
    est = estimate_sota(low, 200, chance=0, method=method, rng=0)
    assert est.below_chance == 0 and est.m == low.size


def test_default_drops_what_chance_zero_keeps():
    low = np.array([0.01, 0.02, 0.05, 0.1, 0.12, 0.2, 0.3, 0.55])
    assert estimate_sota(low, 200, method="naive").below_chance == 7
    assert estimate_sota(low, 200, method="naive", chance=0).below_chance == 0


def _per_item(options, missing_row=None):
    """Six models on eight items with known accuracies; ``options`` answer options per item."""
    rng = np.random.default_rng(3)
    Y = (rng.random((8, 6)) < np.linspace(0.1, 0.6, 6)).astype(float)
    Y[:, 5] = 1.0  # one strong model
    if missing_row is not None:
        Y[missing_row, 0] = np.nan
    return PerItem(Y, models=[f"m{j}" for j in range(6)], item_info={"options": np.asarray(options)})


def test_per_item_chance_from_options_by_hand():
    """1/options per item; the board's chance is their mean over the items every model answered."""
    options = [2, 4, 4, 10, 10, 5, 3, 10]
    table = _per_item(options, missing_row=0)  # item 1 (2 options) left out: one model did not answer it
    used = options[1:]
    level = sum(Fraction(1, k) for k in used) / len(used)
    acc = np.nanmean(table.outcomes[1:], axis=0)
    est = estimate_sota(table, method="naive")
    assert est.details["chance"] == pytest.approx(float(level), abs=1e-15)
    assert est.below_chance == sum(Fraction(a).limit_denominator(100) <= level for a in acc)
    assert est.m == sum(Fraction(a).limit_denominator(100) > level for a in acc)
    assert any("1/options" in note for note in est.notes)
    # the same levels given as an array, and the shrinkage target is their mean
    same = estimate_sota(table, method="naive", chance=1.0 / np.asarray(options, dtype=float))
    assert same.details["chance"] == est.details["chance"] and same.below_chance == est.below_chance
    shrunk = estimate_sota(table, rho=0.0)
    if shrunk.solved:
        w = shrunk.weight
        assert shrunk.estimate == pytest.approx(w * acc.max() + (1 - w) * float(level), abs=1e-12)


def test_per_item_chance_is_overridden_by_chance_or_classes():
    table = _per_item([2, 4, 4, 10, 10, 5, 3, 10])
    assert estimate_sota(table, method="naive", classes=2).details["chance"] == 0.5
    assert estimate_sota(table, method="naive", chance=0).details["chance"] == 0.0
    assert estimate_sota(table, method="naive", chance=0).below_chance == 0


def test_mmlu_pro_chance_from_its_options():
    """MMLU-Pro's questions have 2 to 10 options: the chance level is the mean of 1/options, by hand."""
    correct = pd.read_csv(os.path.join(DATA, "mmlu_pro_correct.csv.gz"), index_col=0)
    items = pd.read_csv(os.path.join(DATA, "mmlu_pro_items.csv"), index_col=0).loc[correct.index]
    table = PerItem(correct.to_numpy(float), models=list(correct.columns), item_info={"options": items["n_options"]})
    est = estimate_sota(table, method="naive")
    complete = correct.notna().all(axis=1)
    level = sum(Fraction(1, int(k)) for k in items["n_options"][complete]) / int(complete.sum())
    assert est.details["chance"] == pytest.approx(float(level), rel=1e-14)
    assert 0.1 < float(level) < 0.12  # not 1/10, and far from the default 1/2
    acc = correct[complete].mean()
    assert est.below_chance == int((acc <= float(level)).sum()) == 0
    assert estimate_sota(table, method="naive", classes=2).below_chance == int((acc <= 0.5).sum()) > 0


def test_humaneval_plus_keeps_every_model_at_chance_zero():
    """HumanEval+ (49 code models, 164 problems): the default 1/2 dropped 17 models; code has no chance level."""
    rows = pd.read_json(os.path.join(DATA, "eval-arena", "humaneval+.jsonl.gz"), lines=True)
    wide = rows.pivot(index="example_id", columns="model", values="pass1")
    table = PerItem(wide.to_numpy(float), items=list(wide.index), models=list(wide.columns))
    assert estimate_sota(table, method="naive").below_chance == 17
    est = estimate_sota(table, method="naive", chance=0)
    assert est.below_chance == 0 and est.m == 49


def test_refusals_name_the_parameter():
    with pytest.raises(ValueError, match="classes or chance, not both"):
        estimate_sota(BOARD, N, chance=0, classes=2)
    for bad in (1.0, -0.1, float("nan")):
        with pytest.raises(ValueError, match=r"chance must be in \[0, 1\)"):
            estimate_sota(BOARD, N, chance=bad)
    with pytest.raises(ValueError, match="chance does not apply to metric='auc'"):
        estimate_sota([0.8, 0.9], 100, metric="auc", prevalence=0.3, chance=0.5)
    with pytest.raises(ValueError, match="needs per-item results"):
        estimate_sota(BOARD, N, chance=np.zeros(BOARD.size))
    table = _per_item([2, 4, 4, 10, 10, 5, 3, 10])
    with pytest.raises(ValueError, match=r"one per item \(8\)"):
        estimate_sota(table, chance=[0.5, 0.5])
    with pytest.raises(ValueError, match=r"chance must be in \[0, 1\) for every item: item 'item 2' has 1"):
        estimate_sota(table, chance=[0.5, 1, 0, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match=r"item_info\['options'\].*item 'item 3' has 1"):
        estimate_sota(_per_item([2, 4, 1, 10, 10, 5, 3, 10]))


def test_no_team_above_chance_names_chance():
    with pytest.raises(ValueError, match=r"no team is above chance \(0\.5\): .*chance=0"):
        estimate_sota([0.3, 0.4, 0.5], 100)
    assert estimate_sota([0.3, 0.4, 0.5], 100, chance=0, method="naive").m == 3


def test_batch_column_chance(tmp_path):
    (tmp_path / "board.csv").write_text("score\n" + "\n".join(f"{s:.4f}" for s in BOARD) + "\n")
    (tmp_path / "m.csv").write_text("id,file,n,chance,rho\nzero,board.csv,164,0,0\nhalf,board.csv,164,,0\n")
    rows = estimate_sota_batch(str(tmp_path / "m.csv")).boards
    zero = estimate_sota(BOARD, N, chance=0, rho=0.0)
    half = estimate_sota(BOARD, N, rho=0.0)
    assert rows[0]["m"] == zero.m == 40 and rows[0]["estimate"] == pytest.approx(zero.estimate, abs=1e-4)
    assert rows[1]["m"] == half.m == 10
