"""The survey's pieces: the extreme-value prediction and one board's estimate."""

from __future__ import annotations

import math

import numpy as np
import pytest

import sotalib as sl
from sotalib.book.ch04b_kaggle_survey import estimate_board, evt_expected_max


@pytest.mark.parametrize("m, n, theta", [(100, 3000, 0.9), (1000, 3000, 0.9), (10_000, 10_000, 0.8)])
def test_the_extreme_value_prediction_is_close_to_the_exact_mean(m, n, theta):
    exact = sl.summarize_max(n, m, theta).mean
    sd = math.sqrt(theta * (1 - theta) / n)
    # an asymptotic formula: within a sixth of a binomial standard deviation at these m
    assert abs(evt_expected_max(theta, n, m) - exact) < sd / 6


def test_one_board_matches_the_front_door():
    board = sl.read_leaderboard("data/leaderboards/playground-series-s4e2__private.csv").scores
    row = estimate_board(board, 11_072, metric="accuracy", classes=7)
    direct = sl.estimate_sota(board, 11_072, classes=7, method="shrink")
    assert row["estimate"] == pytest.approx(direct.estimate, abs=1e-12)
    assert row["teams_above"] == direct.teams_above == 1088
    assert row["inflation"] == pytest.approx(board.max() - direct.estimate)


def test_a_gini_board_is_read_as_auc_and_no_answer_is_a_reason_not_an_error():
    rng = np.random.default_rng(3)
    auc = 0.80 + 0.02 * rng.random(300)
    gini = 2 * auc - 1
    a = estimate_board(auc, 20_000, metric="auc", prevalence=0.3)
    g = estimate_board(gini, 20_000, metric="gini", prevalence=0.3)
    assert a["sample_max"] == pytest.approx(g["sample_max"])
    assert a.get("estimate") == pytest.approx(g.get("estimate"))
    chance = np.full(50, 0.2)  # five classes, every team at chance: nothing to estimate
    row = estimate_board(chance, 2_000, metric="accuracy", classes=5)
    assert row.get("estimate") is None and "chance" in row["reason"]


def test_the_survey_tables_pick_the_middle_size_and_name_the_reasons():
    import pandas as pd

    from sotalib.book.ch04b_kaggle_survey import N_UNKNOWN, central_rows, reasons_text, size_table

    survey = pd.DataFrame(
        [
            dict(slug="a", n=n, n_source="unknown", estimate=0.8 + n / 1e6, reason="", m=10, teams_above=3)
            for n in N_UNKNOWN
        ]
        + [
            dict(slug="b", n=500, n_source="stated", estimate=None, reason="... an outlier ...", m=5),
            dict(slug="c", n=900, n_source="lattice", estimate=None, reason="no team above chance", m=0),
        ]
    )
    central = central_rows(survey)
    assert list(central["slug"]) == ["a", "b", "c"]
    assert int(central.loc[0, "n"]) == N_UNKNOWN[1]
    assert reasons_text(central) == "an outlier at the top: 1; no team above chance: 1"
    assert list(size_table(survey).columns) == ["competition", *(f"{n:,}" for n in N_UNKNOWN)]


def test_the_lattice_pins_the_private_boards_it_can():
    from sotalib.book.ch04b_kaggle_survey import lattice_n

    def board(slug):
        return sl.read_leaderboard(f"data/kaggle/{slug}__private.csv").scores

    assert lattice_n(board("playground-series-s4e2"), 5, 7) == 11_072  # chapter 4
    assert lattice_n(board("paddy-disease-classification"), 5, 10) == 868  # 868 + 2,601 = 3,469 stated
    assert lattice_n(board("cassava-leaf-disease-classification"), 4, 5) is None  # four decimals: no n
