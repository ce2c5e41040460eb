"""The vendored Kaggle boards (``data/kaggle``) against their manifest and against the source.

The manifest's counts are recomputed from the files; a few facts were checked by hand in the
source (``MLE-Dojo/MLE-Dojo`` at the manifest's commit) and are quoted here.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from sotalib.multiplicity import possible_n

ROOT = Path(__file__).resolve().parent.parent
KAGGLE = ROOT / "data" / "kaggle"
COMMIT = "667a8fd0e959eb47f140ce7e621f831fdb55e5dd"


def _manifest() -> list[dict[str, str]]:
    with open(KAGGLE / "manifest.csv", newline="") as f:
        return list(csv.DictReader(f))


ROWS = _manifest()
BY_SLUG = {r["slug"]: r for r in ROWS}
HANDLED = [r for r in ROWS if r["handled"] == "yes"]


def _scores(path: str) -> list[str]:
    with open(ROOT / path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["rank", "score"], path
    assert [int(r[0]) for r in rows[1:]] == list(range(1, len(rows))), f"{path}: ranks not 1..n"
    return [r[1] for r in rows[1:]]


def _unit(row: dict[str, str], s: str) -> float:
    v = float(s)
    if row["conversion"].startswith("auc = "):
        return (1 + v) / 2
    if row["conversion"].startswith("accuracy = 1 - "):
        return 1 - v
    return v


def test_manifest_covers_the_source():
    assert len(ROWS) == 202
    assert len(BY_SLUG) == 202, "a slug is listed twice"
    assert {r["repo_commit"] for r in ROWS} == {COMMIT}
    assert all(r["handled"] in {"yes", "no"} for r in ROWS)
    counts = Counter(r["metric"] for r in HANDLED)
    assert counts == {"auc": 41, "gini": 2, "accuracy": 21}
    plain = [r for r in HANDLED if r["metric"] == "accuracy" and r["conversion"].startswith("none")]
    # 16 plain accuracies + allstate (percent in metric.py) + the two micro-F1 boards
    assert len(plain) == 19
    assert all(r["metric"] == "none" for r in ROWS if r["handled"] == "no")


def test_every_excluded_row_has_a_reason_and_no_file():
    excluded = [r for r in ROWS if r["handled"] == "no"]
    assert len(excluded) == 138
    for r in excluded:
        assert r["reason"].strip(), r["slug"]
        assert r["public_file"] == r["private_file"] == "", r["slug"]
        assert not (KAGGLE / f"{r['slug']}__public.csv").exists(), r["slug"]


def test_no_stray_files():
    expected = {Path(r[f"{side}_file"]).name for r in HANDLED for side in ("public", "private")}
    on_disk = {p.name for p in KAGGLE.glob("*.csv")} - {"manifest.csv"}
    assert on_disk == expected


@pytest.mark.parametrize("row", HANDLED, ids=lambda r: r["slug"])
def test_files_match_manifest(row):
    boards = {}
    for side in ("public", "private"):
        assert row[f"{side}_file"] == f"data/kaggle/{row['slug']}__{side}.csv"
        scores = _scores(row[f"{side}_file"])
        boards[side] = scores
        assert len(scores) == int(row[f"rows_{side}"])
        assert scores[0] == row[f"top_{side}"]
        assert max(len(s.split(".")[1]) if "." in s else 0 for s in scores) == int(row[f"decimals_{side}"])
        unit = [_unit(row, s) for s in scores]
        assert sum(u == 1.0 for u in unit) == int(row[f"perfect_{side}"])
        # every list is sorted best first on the estimator's scale
        assert unit == sorted(unit, reverse=True)
        assert all(0.0 <= u <= 1.0 for u in unit)
    same = (ROOT / row["public_file"]).read_bytes() == (ROOT / row["private_file"]).read_bytes()
    assert row["identical"] == ("yes" if same else "no")


def test_awkward_boards():
    truncated = sorted(r["slug"] for r in HANDLED if r["truncated_private"] == "yes")
    assert truncated == [
        "porto-seguro-safe-driver-prediction",
        "santander-customer-satisfaction",
        "santander-customer-transaction-prediction",
        "titanic",
    ]
    assert all(int(BY_SLUG[s]["rows_private"]) >= 4540 for s in truncated)
    perfect = {r["slug"]: int(r["perfect_private"]) for r in HANDLED if r["perfect_private"] != "0"}
    assert perfect == {
        "aerial-cactus-identification": 150,
        "forest-cover-type-kernels-only": 1,
        "histopathologic-cancer-detection": 6,
        "plant-seedlings-classification": 3,
        "poker-rule-induction": 46,
        "random-acts-of-pizza": 7,
        "spaceship-titanic": 1,
        "titanic": 195,
    }
    assert sum(r["identical"] == "yes" for r in HANDLED) == 9


@pytest.mark.parametrize(
    ("slug", "old"),
    [
        ("playground-series-s4e2", "playground-series-s4e2"),
        ("cassava-leaf-disease-classification", "cassava-leaf-disease-classification"),
    ],
)
def test_obesity_and_cassava_are_the_vendored_boards(slug, old):
    for side in ("public", "private"):
        new = (KAGGLE / f"{slug}__{side}.csv").read_bytes()
        assert new == (ROOT / "data" / "leaderboards" / f"{old}__{side}.csv").read_bytes()
    assert BY_SLUG[slug]["classes"] == {"playground-series-s4e2": "7", "cassava-leaf-disease-classification": "5"}[slug]


def test_hand_checked_metrics():
    # DontGetKicked/utils/metric.py:  roc_auc = roc_auc_score(actual, predicted); gini = 2 * roc_auc - 1
    r = BY_SLUG["DontGetKicked"]
    assert (r["handled"], r["metric"], r["conversion"]) == ("yes", "gini", "auc = (1 + score) / 2")
    # titanic/utils/metric.py:  accuracy = np.mean(y_true[self.value] == y_pred[self.value])
    # description: "You should submit a csv file with exactly 418 entries plus a header row."
    r = BY_SLUG["titanic"]
    assert (r["metric"], r["classes"], r["n_test"], r["n_test_exact"]) == ("accuracy", "2", "418", "yes")
    assert "exactly 418 entries" in r["n_test_source"]
    # playground-series-s3e18/utils/metric.py:  target_columns = ["EC1", "EC2"] ... return np.mean(auc_scores)
    r = BY_SLUG["playground-series-s3e18"]
    assert r["handled"] == "no" and "mean of ROC AUCs over 2 targets" in r["reason"]
    # jigsaw-toxic-comment-classification-challenge/utils/metric.py:
    #   return roc_auc_score(y_true_array, y_pred_array, average="macro")  (6 label columns)
    assert BY_SLUG["jigsaw-toxic-comment-classification-challenge"]["handled"] == "no"
    # liberty-mutual-group-property-inspection-prediction: normalized Gini of Hazard, a count target
    assert BY_SLUG["liberty-mutual-group-property-inspection-prediction"]["handled"] == "no"
    # inaturalist-2019-fgvc6/utils/metric.py:  errors = (pred_first != true_labels).astype(float); errors.mean()
    assert BY_SLUG["inaturalist-2019-fgvc6"]["conversion"] == "accuracy = 1 - score"
    # stumbleupon description: "test.tsv is the test/evaluation set and contains 3,171 urls."
    assert BY_SLUG["stumbleupon"]["n_test"] == "3171"
    # unimelb description: "With only 20-25% of applications being successful" (the one prevalence stated)
    assert [r["slug"] for r in ROWS if r["prevalence"]] == ["unimelb"]


def test_stated_n_counts():
    stated = [r for r in HANDLED if r["n_test"]]
    by_metric = Counter(r["metric"] for r in stated)
    assert by_metric == {"auc": 6, "accuracy": 11}
    assert all(r["n_test_source"].startswith("description: '") for r in stated)


def test_lattice_reads_the_stated_split():
    """Where the test set is stated, the two boards' smallest lattice sizes add up to it."""
    paddy = BY_SLUG["paddy-disease-classification"]  # 3,469 test images, stated
    assert int(paddy["n_lattice_min_public"]) + int(paddy["n_lattice_min_private"]) == 3469
    obesity = BY_SLUG["playground-series-s4e2"]  # the paper's n = 13,840 for the whole test set
    assert (int(obesity["n_lattice_min_public"]), int(obesity["n_lattice_min_private"])) == (2768, 11072)


@pytest.mark.parametrize("slug", ["titanic", "paddy-disease-classification", "imaterialist-challenge-furniture-2018"])
def test_lattice_columns_recompute(slug):
    r = BY_SLUG[slug]
    for side in ("public", "private"):
        scores = [float(s) for s in _scores(r[f"{side}_file"])]
        hi = int(r[f"lattice_range_{side}"].split("-")[1])
        cand = possible_n(scores, int(r[f"decimals_{side}"]), range(1, hi + 1))
        assert len(cand) == int(r[f"n_lattice_candidates_{side}"])
        assert int(cand[0]) == int(r[f"n_lattice_min_{side}"])
