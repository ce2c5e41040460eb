"""The formatting helpers of chapters 6-8 against the papers' printed numbers."""

from __future__ import annotations

import numpy as np

import sotalib as sl
from sotalib.book import ch06_consistency as ch6
from sotalib.book import ch07_judging as ch7
from sotalib.book import ch08_comparing as ch8
from sotalib.book import papers
from sotalib.consistency import aggregate_scores


def test_table5_comparison_agrees_on_every_score_and_can_disagree():
    agg = aggregate_scores(papers.TABLE5_FOLDS, papers.TABLE5_COUNTS)
    t5 = ch6.table5_comparison(agg, papers.TABLE5_PRINTED)
    assert len(t5) == 20 and (t5["agree"] == "yes").all()
    wrong = {**papers.TABLE5_PRINTED, "acc": (0.8291, 0.8290)}
    assert ch6.table5_comparison(agg, wrong).set_index("score").loc["acc", "agree"] == "no"


def test_cli_output_wraps_to_the_column():
    args = ["check", "--p", "38", "--n", "262", "--k", "5", "--eps", "1e-4"]
    args += ["--score", "acc=0.9447", "--score", "sens=0.9139", "--score", "spec=0.9733"]
    out = ch6.cli_output(args, width=76)
    assert out.startswith("INCONSISTENT")
    assert max(map(len, out.splitlines())) <= 76
    assert "0 of 918 fold configurations feasible" in " ".join(out.split())


def test_demsar_table_and_comparison_reproduce_the_printed_digits():
    M = ch8.table6()
    assert M.shape == (4, 14)
    assert np.array_equal(ch8.table6(as_ranked=False).T, np.array(papers.DEMSAR_TABLE6))
    ex = sl.compare_candidates(dict(zip(ch8.CLASSIFIERS, M)), tie_correction=False)
    ex10 = sl.compare_candidates(dict(zip(ch8.CLASSIFIERS, M)), alpha=0.10, tie_correction=False)
    cmp = ch8.demsar_comparison(ex, ex10)
    assert len(cmp) == 10 and (cmp["agrees"] == "yes").all()
    # without the paper's tie-break the average ranks of C4.5+cf and C4.5+m+cf move
    plain = sl.compare_candidates(ch8.table6(as_ranked=False), tie_correction=False)
    assert (ch8.demsar_comparison(plain, ex10)["agrees"] == "no").any()


def test_property_long_names_the_one_disagreement():
    props, _, _ = ch7.load_property_table()
    long = ch7.property_long(props, papers.PAPER_TABLE4).set_index("function")
    disagree = long[long["agree"].str.startswith("no")]
    assert list(disagree.index) == [ch7.FUNCTION_NAMES["kemeny"]]
    assert disagree.iloc[0]["agree"] == "no: " + ch7.PROPERTY_NAMES["consistency"]
    assert long.loc[ch7.FUNCTION_NAMES["relative-difference"], "paper: holds"] == "–"


def test_counts_read_as_english():
    assert ch6.count_phrase(0, "pair") == "no pair"
    assert ch6.count_phrase(1, "pair") == "one pair"
    assert ch6.count_phrase(1468, "configuration") == "1,468 configurations"
    assert ch6.count_phrase(2, "paper changes", "papers change") == "2 papers change"
