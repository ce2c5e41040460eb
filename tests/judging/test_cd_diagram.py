"""The critical-difference diagram and the rank-interval plot draw what the results say."""

import numpy as np
import pytest

from sotalib import PerItem
from sotalib.judging import compare_candidates, estimate_rank_uncertainty, plot_cd_diagram, plot_rank_intervals

mpl = pytest.importorskip("matplotlib")
mpl.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")

from .test_compare import NAMES, paper_ranks_table  # noqa: E402


def test_cd_diagram_of_demsar_figure_1():
    c = compare_candidates(dict(zip(NAMES, paper_ranks_table())), alpha=0.10)
    ax = plot_cd_diagram(c)
    texts = [t.get_text() for t in ax.texts]
    assert "CD = 1.12" in texts
    for name, r in zip(NAMES, c.average_ranks):
        assert any(name in t and f"{r:.2f}" in t for t in texts), name
    bars = [ln for ln in ax.lines if ln.get_linewidth() == 3.5]
    spans = sorted((round(min(ln.get_xdata()) + 0.03, 6), round(max(ln.get_xdata()) - 0.03, 6)) for ln in bars)
    R = c.average_ranks
    expect = sorted((round(R[g].min(), 6), round(R[g].max(), 6)) for g in c.groups if len(g) > 1)
    assert spans == expect and len(spans) == 2
    plt.close(ax.figure)


def test_rank_intervals_mark_the_misses():
    rng = np.random.default_rng(0)
    X = (rng.random((6, 500)) < np.linspace(0.6, 0.8, 6)[:, None]).astype(float)
    res = estimate_rank_uncertainty(PerItem(X.T), n_resamples=200, rng=1)
    true = np.array([6, 5, 4, 3, 2, 1])
    true_bad = true.copy()
    true_bad[0] = 1  # the worst classifier cannot be first: outside its interval
    fig, ax = plt.subplots()
    plot_rank_intervals(res, ax=ax, true_rank=true_bad)
    assert len(ax.collections[-1].get_segments()) == 6  # one bar per candidate
    crosses = [ln for ln in ax.lines if ln.get_marker() == "x"]
    inside, outside = (len(ln.get_xdata()) for ln in crosses)
    assert outside >= 1 and inside + outside == 6
    plt.close(fig)
