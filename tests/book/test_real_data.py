"""The real boards against the multiplicity paper's printed numbers (Section 5.1, Tables 2 and 4).

Every number the paper prints about the Obesity and Cassava boards is checked at its printed
precision: directly where it reproduces, and through the explanation the chapter gives where it
does not (a count near the estimate, a value in Table 4).  The exact fits take minutes on 3,556
teams; the fast tests read the book's cache and one test checks that the cache is what
``estimate_sota`` returns today (marked slow).
"""

import json

import numpy as np
import pytest

import sotalib as sl
from sotalib.book import ch04_real_challenges as rb
from sotalib.multiplicity import Empirical, feasible, max_distribution, possible_n

P = rb.PAPER["obesity"]
#: The grid the paper snaps its crop point to: the step of its Figures 8-9 (175 bins over 0.04).
PAPER_GRID = 0.04 / 175


@pytest.fixture(scope="module")
def ob():
    return rb.load_board("obesity").scores


@pytest.fixture(scope="module")
def s(ob):
    return ob[ob > 1 / 7]


def _cached(scores, n, **kw):
    store = rb._read()
    key = rb._key(sl.estimate_sota, scores, n, kw)
    if key not in store:
        pytest.skip("not in the book's cache yet")
    return sl.multiplicity.SotaEstimate(**store[key])


def _replayed_max(scores, weight, n, *, classes, rho=0.6):
    """The chapter's replay of the shrunk public board on n other items, with the public API it uses."""
    s = scores[scores > 1 / classes]
    theta = weight * s + (1 - weight) / classes
    theta0 = float(theta.max())
    keep = feasible(theta, theta0, rho)
    d = max_distribution(n, int(keep.sum()), Empirical(theta[keep]), rho=rho, theta0=theta0)
    lo, hi = d.interval(0.05)
    return {"mean": float(d.mean()), "ci_low": float(lo), "ci_high": float(hi)}


# ------------------------------------------------------------------ the boards
def test_boards_are_the_vendored_files(ob):
    raw = (rb.DATA_DIR / "leaderboards" / "playground-series-s4e2__private.csv").read_text().splitlines()
    assert raw[0] == "rank,score" and len(raw) - 1 == ob.size == 3587
    assert ob.max() == 0.91157 and round(ob.max(), 4) == P["sample_max"]
    ca = rb.load_board("cassava").scores
    assert tuple(np.round(np.sort(ca)[::-1][:3], 4)) == rb.PAPER["cassava"]["top"]


def test_teams_above_chance_differ_from_the_paper_by_two_at_the_bottom(s, ob):
    # the paper's copy had 3,558 teams above 1/7; this copy 3,556, and no threshold near chance gives 3,558
    assert s.size == 3556 and P["m"] - s.size == 2
    assert [(ob > t).sum() for t in (0.14, 0.13)] == [3557, 3559]
    assert int((rb.load_board("cassava").scores > 1 / 5).sum()) == 3755  # paper: 3,752


def test_every_published_count_near_the_top_holds(s):
    # teams above the paper's thresholds: 921 inside the winner's interval, 841, 1,726, and the crop points
    assert int((s > 0.9067).sum()) == P["teams_inside"] == 921
    assert int((s > P["shrink_estimate"]).sum()) == P["shrink_teams_above"] == 841
    assert int((s > P["shrink_upper_estimate"]).sum()) == P["shrink_upper_teams_above"] == 1726
    assert int((s > 0.90615).sum()) == P["crop_teams_above"] == 1134  # the authors' crop point
    assert int((s > 0.90275).sum()) == P["crop_upper_teams_above"] == 1844  # the authors' upper crop point


def test_naive_interval_and_teams_inside(ob):
    r = sl.estimate_sota(ob, P["n"], classes=7, method="naive")
    assert (round(r.ci_low, 4), round(r.ci_high, 4)) == P["naive_ci"]
    assert r.details["teams_inside_interval"] == P["teams_inside"]


def test_cassava_interval_and_outliers():
    r = sl.estimate_sota(rb.load_board("cassava").scores, 15000, classes=5, method="naive")
    assert (round(r.ci_low, 4), round(r.ci_high, 4)) == rb.PAPER["cassava"]["naive_ci"]
    assert r.details["teams_inside_interval"] == 1  # the winner alone


# ---------------------------------------------------------- which n
def test_granularity_gives_the_private_and_public_sizes(ob):
    sizes = range(1000, 20001)
    assert possible_n(ob[ob > 0.3], 5, sizes).tolist() == [11072]
    pub = rb.load_board("obesity", "public").scores
    pub = possible_n(pub[pub > 0.3], 5, sizes).tolist()
    assert pub[0] == 2768 and all(n % 2768 == 0 for n in pub)
    assert 2768 + 11072 == P["n"]  # 20% public, 80% private of the paper's 13,840
    # a synthetic board on 997 items, truncated to 5 decimals, is recognised (and rounding is not truncation)
    x = np.floor(np.arange(300, 997) / 997 * 1e5) / 1e5
    assert possible_n(x, 5, range(500, 2000)).tolist() == [997, 1994]
    assert 997 not in possible_n(x, 5, range(500, 2000), rounding="round")


# ---------------------------------------------------------- Tables 2 and 4 (cached exact fits)
def test_observed_row_of_table2(ob):
    store = rb._read()
    key = rb._key(sl.estimate_sota, ob, 13840, dict(classes=7, method="observed"))
    if key not in store:
        pytest.skip("not in the book's cache yet")
    r = store[key]
    assert round(r["expected_max"], 4) == P["observed_expected_max"]
    assert (round(r["ci_low"], 4), round(r["ci_high"], 4)) == P["observed_ci"]


@pytest.mark.usefixtures("s")
def test_crop_reproduces_table4(ob):
    e = _cached(ob, 13840, classes=7, method="crop", target="expected")
    assert round(e.estimate, 4) == P["crop_estimate"] and e.teams_above == P["crop_teams_above"]
    assert e.weight == 0.90615  # the solved crop point is the authors' hand-tuned one, a score on the board
    assert round(e.expected_max, 4) == P["sample_max"]
    # the fit just below the jump at 0.90615 has the paper's interval; the fit at it is one unit higher
    jb = e.details["just_below"]
    assert (round(jb["ci_low"], 4), round(jb["ci_high"], 4)) == P["crop_ci"]
    assert jb["expected_max"] < 0.91157 <= e.expected_max
    assert abs(e.ci_low - P["crop_ci"][0]) <= 1.5e-4 and abs(e.ci_high - P["crop_ci"][1]) <= 1.5e-4


def test_crop_upper_and_the_papers_0_9026(ob, s):
    e = _cached(ob, 13840, classes=7, method="crop", target="upper")
    assert e.teams_above == P["crop_upper_teams_above"]
    assert round(e.expected_max, 4) == P["crop_upper_expected_max"]
    assert round(e.ci_high, 4) == P["sample_max"]
    assert abs(e.weight - 0.90275) < 1e-4  # the authors' crop point (their code, option 3)
    # the paper prints 0.9026: the grid point below 0.90275, which has 1,872 teams above it, not 1,844
    below = PAPER_GRID * np.floor(0.90275 / PAPER_GRID)
    assert round(below, 4) == P["crop_upper_estimate"] and int((s > below).sum()) == 1872
    assert round(e.estimate, 4) == round(PAPER_GRID * np.ceil(e.weight / PAPER_GRID), 4) == 0.9029


def test_shrink_within_the_papers_monte_carlo_error(ob, s):
    e = _cached(ob, 13840, classes=7, method="shrink", target="expected")
    assert abs(e.estimate - P["shrink_estimate"]) < 1e-4
    assert (round(e.ci_low, 4), round(e.ci_high, 4)) == P["shrink_ci"]
    # the 818 vs 841 teams: the 23 teams at 0.90706 lie between the paper's estimate and the book's
    level = float(np.min(s[s > 0.90697]))
    assert level == 0.90706 and int((s == level).sum()) == P["shrink_teams_above"] - e.teams_above
    assert P["shrink_estimate"] < level <= e.estimate
    u = _cached(ob, 13840, classes=7, method="shrink", target="upper")
    assert round(u.estimate, 4) == P["shrink_upper_estimate"] and u.teams_above == P["shrink_upper_teams_above"]
    assert round(u.expected_max, 4) == P["shrink_upper_expected_max"]
    assert round(u.ci_low, 4) == P["shrink_upper_ci_low"]


def test_cap_is_not_the_papers_crop(ob):
    cap = _cached(ob, 13840, classes=7, method="cap", target="expected")
    crop = _cached(ob, 13840, classes=7, method="crop", target="expected")
    assert cap.estimate < crop.weight and cap.teams_above > crop.teams_above


def test_cassava_has_no_solution():
    ca = rb.load_board("cassava").scores
    for method in ("shrink", "crop"):
        e = _cached(ca, 15000, classes=5, method=method, target="expected")
        assert not e.solved and e.estimate is None and "outlier" in e.reason


def test_imagenet_file():
    im = rb.load_imagenet()
    assert len(im) == 335 and set(im["n_imagenet_val"]) == {50000} and set(im["n_imagenetv2"]) == {10000}
    assert im["imagenet_val_top1"].between(0, 1).all()
    assert im.loc[im["imagenet_val_top1"].idxmax(), "model"] == "efficientnet-l2-noisystudent"


# ---------------------------------------------------------- the cache is what the library computes
def _close(a, b) -> bool:
    """Equal, with floats equal to 1e-12 relative (faster engines may reorder sums in the last bits)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return a == pytest.approx(b, rel=1e-12, abs=1e-15)
    return a == b


def test_cache_matches_estimate_sota_today(ob):
    e = sl.estimate_sota(ob, 13840, classes=7, method="crop")
    today = json.loads(json.dumps(e.to_dict()))
    cached = json.loads(json.dumps(_cached(ob, 13840, classes=7, method="crop", target="expected").to_dict()))
    assert _close(today, cached), (today, cached)


def test_public_board_estimates_and_its_prediction_of_the_private_winner(ob):
    # what the chapter says: both public estimates are far below the public winner and near the private one,
    # while the shrunk public board, replayed on the 11,072 private items, predicts a higher private winner
    pub = rb.load_board("obesity", "public").scores
    sh = _cached(pub, 2768, classes=7, method="shrink", target="expected")
    cr = _cached(pub, 2768, classes=7, method="crop", target="expected")
    assert (
        pub.max() - sh.estimate > 0.01 and abs(sh.estimate - ob.max()) < 0.001 and abs(cr.estimate - ob.max()) < 0.001
    )
    pred = _replayed_max(pub, sh.weight, 11072, classes=7)
    assert ob.max() < pred["ci_low"] < pred["mean"] < pred["ci_high"]


def test_imagenet_top_is_not_multiplicity():
    im = rb.load_imagenet()
    for col, n in (("imagenet_val_top1", 50000), ("imagenetv2_matched_frequency_top1", 10000)):
        e = _cached(im[col].to_numpy(), n, classes=1000, method="shrink", target="expected")
        assert not e.solved and "outlier" in e.reason


def test_ground_truth_prefers_the_papers_crop_to_the_cap():
    cc = rb._read().get("groundtruth_crop_vs_cap")
    if cc is None:
        pytest.skip("not in the book's cache yet")
    err = {m: np.array([r[m] - r["truth"] for r in cc["rows"]]) for m in ("crop", "cap")}
    assert np.sqrt(np.mean(err["crop"] ** 2)) < np.sqrt(np.mean(err["cap"] ** 2))
    assert err["cap"].mean() < err["crop"].mean() < 0  # the cap shrinks more


def test_the_vendored_melanoma_reconstruction_is_the_reconstruction(root):
    from sotalib.book.reconstructions import reconstruct

    path = root / "data" / "reconstructions" / "siim-isic-melanoma-classification__reconstructed.csv"
    board = sl.read_leaderboard(path)
    np.testing.assert_array_equal(board.scores, np.round(reconstruct("melanoma").scores, 4))
