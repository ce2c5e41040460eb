"""Rank uncertainty: the blocked, vectorised bootstrap against plain NumPy."""

import numpy as np
import pytest

# private: the bootstrap's blocked resampling kernel (and its block size) is checked against one whole draw
from sotalib import PerItem
from sotalib.judging import _uncertainty, estimate_rank_uncertainty, read_per_item


def _table(X, names=None):
    """Candidates x items (the layout of these tests' arrays) as the per-item table, items as rows."""
    return PerItem(np.asarray(X, dtype=float).T, models=names)


def _plain(X, reps, rng):
    """The paired bootstrap written plainly: draw items, average each candidate on them, rank."""
    k, n = X.shape
    S = np.empty((reps, k))
    for r in range(reps):
        idx = rng.integers(0, n, size=n)
        S[r] = X[:, idx].mean(axis=1)
    R = 1 + (S[:, None, :] > S[:, :, None]).sum(axis=2)
    first = R == 1
    return S, R, (first / first.sum(axis=1, keepdims=True)).mean(axis=0)


def test_bootstrap_scores_are_the_means_of_the_drawn_items():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(4, 57))
    S = _uncertainty._bootstrap_scores(X, 25, 3)
    idx = np.random.default_rng(3).integers(0, 57, size=(25, 57))
    assert S == pytest.approx(np.stack([X[:, i].mean(axis=1) for i in idx]), rel=1e-12, abs=1e-14)


def test_blocks_do_not_change_the_result(monkeypatch):
    rng = np.random.default_rng(1)
    X = (rng.random((6, 300)) < 0.7).astype(float)
    whole = _uncertainty._bootstrap_scores(X, 50, 4)
    monkeypatch.setattr(_uncertainty, "BLOCK_BYTES", 8 * 300 * 7)  # blocks of 7 resamples
    assert np.array_equal(_uncertainty._bootstrap_scores(X, 50, 4), whole)


def test_against_plain_numpy_within_monte_carlo_error():
    rng = np.random.default_rng(2)
    theta = np.array([0.70, 0.71, 0.72, 0.74, 0.60])
    X = (rng.random((5, 2000)) < theta[:, None]).astype(float)
    B = 4000
    ours = estimate_rank_uncertainty(_table(X), n_resamples=B, rng=10)
    S, R, p_first = _plain(X, B, np.random.default_rng(11))
    # P(first): binomial standard errors of two independent estimates
    se = np.sqrt(2 * p_first * (1 - p_first) / B)
    assert np.all(np.abs(ours.p_first - p_first) <= 5 * se + 2e-3)
    # interval ends: Monte Carlo error of a 2.5% quantile is about sd * 0.5 / sqrt(B * 0.025)
    sd = S.std(axis=0)
    tol = 5 * sd * np.sqrt(0.025 * 0.975 / B) / 0.058
    assert np.all(np.abs(ours.ci_low - np.quantile(S, 0.025, axis=0)) <= tol)
    assert np.all(np.abs(ours.ci_high - np.quantile(S, 0.975, axis=0)) <= tol)
    # the bootstrap sd of a mean of 0/1 items is sqrt(theta (1 - theta) / n)
    th = X.mean(axis=1)
    assert sd == pytest.approx(np.sqrt(th * (1 - th) / 2000), rel=0.1)
    # rank distribution: the same within Monte Carlo error
    plain_counts = np.stack([np.bincount(R[:, j] - 1, minlength=5) for j in range(5)]) / B
    mine = ours.rank_counts / B
    assert np.all(np.abs(mine - plain_counts) <= 5 * np.sqrt(2 * plain_counts * (1 - plain_counts) / B) + 2e-3)


def test_result_invariants_and_lower_is_better():
    rng = np.random.default_rng(3)
    X = rng.random((8, 400))
    res = estimate_rank_uncertainty(_table(X, list("abcdefgh")), n_resamples=500, rng=1)
    assert res.p_first.sum() == pytest.approx(1.0)
    assert np.all(res.rank_counts.sum(axis=1) == 500)
    assert np.all(res.rank_low <= res.rank_high) and np.all(res.ci_low <= res.ci_high)
    assert np.all((res.rank_low >= 1) & (res.rank_high <= 8))
    assert np.all((res.ci_low <= res.score) & (res.score <= res.ci_high))
    d = res.to_dict()
    assert set(d) >= {"candidates", "reps"} and d["reps"] == 500
    assert set(d["candidates"][0]) == {"name", "score", "ci_low", "ci_high", "rank_low", "rank_high", "p_first"}
    assert [c["score"] for c in d["candidates"]] == sorted(X.mean(axis=1), reverse=True)
    # losses: the same resamples, ranks reversed
    low = estimate_rank_uncertainty(_table(-X), lower_is_better=True, n_resamples=500, rng=1)
    assert np.array_equal(low.rank_low, res.rank_low) and np.array_equal(low.p_first, res.p_first)
    # identical candidates tie for first and share it
    tie = estimate_rank_uncertainty(_table(np.vstack([X[0], X[0]])), n_resamples=50, rng=2)
    assert tie.p_first == pytest.approx([0.5, 0.5]) and list(tie.rank_high) == [1, 1]


def test_bad_input(tmp_path):
    with pytest.raises(ValueError, match="n_resamples"):
        estimate_rank_uncertainty(_table(np.ones((2, 3))), n_resamples=0)
    with pytest.raises(ValueError, match="alpha"):
        estimate_rank_uncertainty(_table(np.ones((2, 3))), alpha=0)
    with pytest.raises(ValueError, match=r"outcomes: row 2 \(item 'item 2'\), column 1 \(model 'model 1'\) is inf"):
        estimate_rank_uncertainty(_table([[1.0, np.inf]]))
    with pytest.raises(ValueError, match=r"scores: row 1 \(item 'item 1'\), column 2 \(model 'model 2'\) is missing"):
        estimate_rank_uncertainty(PerItem([[1.0, np.nan], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="rng"):
        estimate_rank_uncertainty(_table(np.ones((2, 3))), rng=-1)
    p = tmp_path / "x.csv"
    p.write_text("item,a,b\n1,1,0\n2,0\n")
    with pytest.raises(ValueError, match='line 3, column "b": blank cell where a number is needed'):
        read_per_item(p)
    p.write_text("a,b\n1,x\n")
    with pytest.raises(ValueError, match="line 2, column \"b\": 'x' is not a number"):
        read_per_item(p)
    p.write_text("id,a,b\nq,1,0\nr,0.5,1\n")
    f = read_per_item(p)
    assert f.models == ("a", "b") and f.items == ("q", "r") and f.outcomes.tolist() == [[1, 0], [0.5, 1]]


def test_a_bare_array_is_refused_saying_the_old_layout():
    with pytest.raises(ValueError) as info:
        estimate_rank_uncertainty(np.ones((3, 50)))
    message = str(info.value)
    assert "a bare array does not say which axis holds the models" in message
    assert (
        "sotalib.PerItem(array)" in message
        and "before 0.6.0 estimate_rank_uncertainty took candidates x items" in message
    )


def test_a_frame_read_from_a_per_item_file_ranks_the_models_not_the_items(tmp_path):
    """pandas reads a per-item file as items x models: the candidates are its columns, whatever the id header."""
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(5)
    theta = [0.55, 0.7, 0.85]
    Y = (rng.random((400, 3)) < theta).astype(int)
    path = tmp_path / "items.csv"
    pd.DataFrame(Y, columns=["weak", "mid", "strong"]).assign(question_id=np.arange(70, 470))[
        ["question_id", "weak", "mid", "strong"]
    ].to_csv(path, index=False)
    frame = pd.read_csv(path)
    ru = estimate_rank_uncertainty(frame, n_resamples=200, rng=6)
    assert ru.candidates == ("weak", "mid", "strong") and ru.n_items == 400
    assert ru.to_dict()["candidates"][0]["name"] == "strong"
    assert ru.score.tolist() == pytest.approx(Y.mean(axis=0).tolist())
    # the file and the table give the same result as the frame
    for other in (read_per_item(path), PerItem(Y, models=["weak", "mid", "strong"])):
        assert estimate_rank_uncertainty(other, n_resamples=200, rng=6).to_dict() == ru.to_dict()
